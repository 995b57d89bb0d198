/*
 * Unit tests of writing expected values into case files (assay_case_file_set_expected, used by
 * `assay run --accept`): YAML is edited by position, keeping every other line and comment;
 * inherited values are added; what cannot be edited safely is refused and leaves the file as it
 * was. Each test writes a case file, edits it, and compares the whole new text.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/suite.h"

static char dir[] = "/tmp/assay-test-edit-XXXXXX";
static assay_arena *arena;

static void setup(void)
{
	cr_assert(mkdtemp(dir));
	arena = assay_arena_new(0);
}

static void teardown(void)
{
	assay_fs_remove_tree(dir, NULL);
	assay_arena_free(arena);
}

TestSuite(edit, .init = setup, .fini = teardown);

static char *write_case(const char *name, const char *text)
{
	char *path = assay_path_join(dir, name);

	cr_assert_eq(assay_fs_write(path, text, strlen(text), 0644, NULL), 0);
	return path;
}

static char *read_back(const char *path)
{
	assay_buf b = ASSAY_BUF_INIT;

	cr_assert_eq(assay_fs_read(&b, path, 1 << 20, NULL), 0);
	return assay_buf_detach(&b, NULL);
}

/* A value from JSON text. */
static assay_value json(const char *text)
{
	assay_value v;

	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), NULL, NULL), 0, "%s", text);
	return v;
}

/* Edits `attr` of a case file holding `before` to `value` (JSON); the file must read `after`. */
static void expect_edit(const char *before, const char *attr, const char *value,
			const char *after)
{
	char *path = write_case("case.yaml", before);
	assay_expected_edit e = { attr, json(value) };
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_case_file_set_expected(path, &e, 1, &err);

	cr_assert_eq(rc, 0, "%d %s", rc, err.msg);
	char *got = read_back(path);
	cr_expect_str_eq(got, after);
	free(got);
	free(path);
}

Test(edit, replaces_a_scalar_keeping_comments_and_other_keys)
{
	expect_edit("# the first case\n"
		    "arguments: [add, milk]   # two words\n"
		    "expected:\n"
		    "  output: \"old\"  # what it prints\n"
		    "  status_code: 0\n"
		    "verify: {output: text}\n",
		    "output", "\"new\"",
		    "# the first case\n"
		    "arguments: [add, milk]   # two words\n"
		    "expected:\n"
		    "  output: \"new\"  # what it prints\n"
		    "  status_code: 0\n"
		    "verify: {output: text}\n");
}

Test(edit, replaces_a_literal_block_with_a_literal_block)
{
	expect_edit("expected:\n"
		    "  output: |\n"
		    "    hello\n"
		    "    there\n"
		    "\n"
		    "  # the status\n"
		    "  status_code: 0\n",
		    "output", "\"hello\\nworld\\n\"",
		    "expected:\n"
		    "  output: |\n"
		    "    hello\n"
		    "    world\n"
		    "\n"
		    "  # the status\n"
		    "  status_code: 0\n");
}

Test(edit, one_line_stays_a_block_where_the_author_wrote_one_and_is_quoted_elsewhere)
{
	expect_edit("expected:\n  stderr: |\n    a\n    b\n", "stderr", "\"one\\n\"",
		    "expected:\n  stderr: |\n    one\n");
	expect_edit("expected:\n  stderr: \"a\"\n", "stderr", "\"one\\n\"",
		    "expected:\n  stderr: \"one\\n\"\n");
}

Test(edit, a_text_without_its_last_newline_is_a_stripped_block)
{
	expect_edit("expected:\n  output: x\n", "output", "\"a\\nb\"",
		    "expected:\n  output: |-\n    a\n    b\n");
}

Test(edit, text_a_literal_block_cannot_hold_is_double_quoted)
{
	expect_edit("expected:\n  output: x\n", "output", "\"  indented\\nline\\t\\u0007\\n\\n\"",
		    "expected:\n  output: \"  indented\\nline\\t\\x07\\n\\n\"\n");
	expect_edit("expected:\n  output: x\n", "output", "\"trailing \\nspace\\n\"",
		    "expected:\n  output: \"trailing \\nspace\\n\"\n");
}

Test(edit, adds_a_key_the_case_inherited)
{
	expect_edit("arguments: [x]\n"
		    "expected:\n"
		    "  output: \"a\"   # note\n"
		    "verify: {output: text}\n",
		    "status_code", "1",
		    "arguments: [x]\n"
		    "expected:\n"
		    "  output: \"a\"   # note\n"
		    "  status_code: 1\n"
		    "verify: {output: text}\n");
}

Test(edit, adds_expected_when_the_case_has_none)
{
	expect_edit("arguments: [x]\nstdin: \"hi\"\n", "status_code", "2",
		    "arguments: [x]\nstdin: \"hi\"\nexpected:\n  status_code: 2\n");
}

Test(edit, a_flow_mapping_stays_flow)
{
	expect_edit("expected: {output: \"a\", status_code: 0}\n", "output", "\"b\\nc\\n\"",
		    "expected: {output: \"b\\nc\\n\", status_code: 0}\n");
	expect_edit("expected: {output: \"a\"}\n", "status_code", "3",
		    "expected: {output: \"a\", status_code: 3}\n");
	expect_edit("expected: {}\n", "status_code", "3", "expected: {status_code: 3}\n");
}

Test(edit, a_file_goes_under_files)
{
	expect_edit("expected:\n  status_code: 0\n", "files-out/a.txt", "\"x\"",
		    "expected:\n  status_code: 0\n  files:\n    out/a.txt: \"x\"\n");
	expect_edit("expected:\n  files:\n    a.txt: {absent: true}\n", "files-a.txt", "\"made\"",
		    "expected:\n  files:\n    a.txt: \"made\"\n");
	expect_edit("expected:\n  files:\n    a.txt: \"x\"\n", "files-a.txt",
		    "{\"absent\": true}", "expected:\n  files:\n    a.txt: {\"absent\": true}\n");
}

Test(edit, structured_values_are_flow_collections_that_read_back_exactly)
{
	expect_edit("expected:\n  output:\n    id: 2   # wrong\n    tags: [a]\n  status_code: 0\n",
		    "output", "{\"id\": 1, \"r\": 1e16, \"n\": null, \"t\": [true, 1.5, \"1e3\"]}",
		    "expected:\n  output: {\"id\": 1, \"r\": 1.0e+16, \"n\": null, \"t\": [true, "
		    "1.5, \"1e3\"]}\n  status_code: 0\n");
}

Test(edit, an_empty_value_is_filled)
{
	expect_edit("expected:\n  output:\n  status_code: 0\n", "output", "\"x\"",
		    "expected:\n  output: \"x\"\n  status_code: 0\n");
}

Test(edit, a_json_case_file_is_written_whole_indented_as_it_was)
{
	char *path = write_case("c.json", "{\n\"arguments\": [\"a\"], \"expected\": {\"output\": \"x\"}}");
	assay_expected_edit e[2] = { { "output", json("\"y\"") }, { "status_code", json("0") } };

	cr_assert_eq(assay_case_file_set_expected(path, e, 2, NULL), 0);
	char *got = read_back(path);
	cr_expect_str_eq(got, "{\n  \"arguments\": [\n    \"a\"\n  ],\n  \"expected\": {\n"
			      "    \"output\": \"y\",\n    \"status_code\": 0\n  }\n}\n");
	free(got);
	free(path);
}

Test(edit, a_one_line_json_case_file_stays_one_line)
{
	char *path = write_case("c.json", "{\"arguments\": [\"a\"], \"expected\": {\"output\": \"x\"}}\n");
	assay_expected_edit e = { "output", json("[1, 2]") };

	cr_assert_eq(assay_case_file_set_expected(path, &e, 1, NULL), 0);
	char *got = read_back(path);
	cr_expect_str_eq(got, "{\"arguments\": [\"a\"], \"expected\": {\"output\": [1, 2]}}\n");
	free(got);
	free(path);
}

Test(edit, refuses_what_it_cannot_do_safely_and_changes_nothing)
{
	static const char *const anchored = "base: &b \"x\"\nexpected:\n  output: *b\n"
					    "  stderr: &e \"y\"\n";
	char *path = write_case("case.yaml", anchored);
	assay_err err = ASSAY_ERR_INIT;
	assay_expected_edit e = { "stderr", json("\"z\"") };

	cr_expect_eq(assay_case_file_set_expected(path, &e, 1, &err), ASSAY_EINVALID);
	cr_expect(strstr(err.msg, "anchored"), "%s", err.msg);
	char *got = read_back(path);
	cr_expect_str_eq(got, anchored);
	free(got);

	/* not UTF-8 text */
	assay_err err2 = ASSAY_ERR_INIT;
	assay_expected_edit bad = { "output", assay_value_string_ref("\xff\xfe", 2) };
	cr_expect_eq(assay_case_file_set_expected(path, &bad, 1, &err2), ASSAY_EINVALID);
	cr_expect(strstr(err2.msg, "UTF-8"), "%s", err2.msg);

	/* expected is not a mapping */
	char *p2 = write_case("odd.yaml", "expected: [1]\n");
	assay_err err3 = ASSAY_ERR_INIT;
	cr_expect_eq(assay_case_file_set_expected(p2, &e, 1, &err3), ASSAY_EINVALID);
	cr_expect(strstr(err3.msg, "edit it by hand"), "%s", err3.msg);
	free(p2);
	free(path);
}

Test(edit, keeps_the_file_mode)
{
	char *path = write_case("case.yaml", "expected: {status_code: 0}\n");
	struct stat st;
	assay_expected_edit e = { "status_code", json("1") };

	cr_assert_eq(chmod(path, 0640), 0);
	cr_assert_eq(assay_case_file_set_expected(path, &e, 1, NULL), 0);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0640);
	free(path);
}
