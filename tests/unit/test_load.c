/* Unit tests of the suite loader (src/lib/load): merging, discovery, substitution, errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/suite.h"

#define SUITES ASSAY_FIXTURES "/suites"

static assay_suite *load_ok(const char *dir, const assay_suite_filter *filter)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_suite_load(&s, dir, filter, NULL, NULL, &err);
	cr_assert_eq(rc, 0, "load %s: %d %s:%d:%d: %s", dir, rc, err.path, err.line, err.column,
		     err.msg);
	return s;
}

static const assay_group *group(const assay_suite *s, size_t cp, const char *name)
{
	for (size_t i = 0; i < s->checkpoints[cp].ngroups; i++)
		if (!strcmp(s->checkpoints[cp].groups[i].name, name))
			return &s->checkpoints[cp].groups[i];
	cr_assert_fail("no group %s", name);
	return NULL;
}

static const assay_case *find_case(const assay_group *g, const char *id)
{
	for (size_t i = 0; i < g->ncases; i++)
		if (!strcmp(g->cases[i].id, id))
			return &g->cases[i];
	cr_assert_fail("no case %s", id);
	return NULL;
}

Test(load, suite_settings_and_checkpoint_order)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	cr_assert_str_eq(s->name, "basic");
	cr_assert_eq(s->adapter, ASSAY_ADAPTER_CLI);
	cr_assert_eq(s->command.nr, 2);
	cr_assert_str_eq(s->command.v[0], "sh");
	cr_assert_str_eq(s->command.v[1], "prog.sh");
	cr_assert_float_eq(s->timeout, 5.0, 1e-9);
	cr_assert(s->submission[0] == '/');
	cr_assert(strstr(s->submission, "/suites/basic/submission"));
	cr_assert_eq(s->ncheckpoints, 2);
	cr_assert_str_eq(s->checkpoints[0].name, "checkpoint_1");
	cr_assert_str_eq(s->checkpoints[1].name, "checkpoint_2");
	cr_assert_eq(s->nerrors, 0);
	assay_suite_free(s);
}

Test(load, cases_in_byte_order_with_folder_cases)
{
	static const char *const ids[] = { "argv-string", "echo", "env-case", "env-checkpoint",
					   "env-suite", "folder-case", "input-file", "json",
					   "no-stdin", "regex", "static", "stdin", "write-file" };
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_group *g = group(s, 0, "core");
	cr_assert_eq(g->type, ASSAY_GROUP_CORE);
	cr_assert(g->isolated);
	cr_assert_eq(g->ncases, sizeof(ids) / sizeof(*ids));
	for (size_t i = 0; i < g->ncases; i++)
		cr_assert_str_eq(g->cases[i].id, ids[i]);
	const assay_case *c = find_case(g, "folder-case");
	cr_assert(strstr(c->file, "folder-case/case.yaml"));
	cr_assert(c->files_dir && strstr(c->files_dir, "folder-case/files"));
	assay_suite_free(s);
}

Test(load, defaults_and_case_defaults_merge_under_the_case)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *echo = find_case(group(s, 0, "core"), "echo");
	const json_t *w = json_object_get(json_object_get(echo->verify, "status_code"), "weight");
	cr_assert(json_is_real(w));
	cr_assert_float_eq(json_real_value(w), 0.5, 1e-12);

	const assay_case *fail = find_case(group(s, 0, "errors"), "fail");
	cr_assert_eq(json_integer_value(json_object_get(fail->expected, "status_code")), 2);
	cr_assert_str_eq(json_string_value(json_object_get(fail->expected, "stderr")),
			 "error: bad");
	assay_suite_free(s);
}

Test(load, env_timeout_stdin_and_arguments)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_group *g = group(s, 0, "core");
	const assay_case *c = find_case(g, "env-case");
	cr_assert_eq(c->env.nr, 3);
	cr_assert_str_eq(c->env.v[0], "SUITE_VAR=from-adapter");
	cr_assert_str_eq(c->env.v[1], "CP_VAR=from-checkpoint");
	cr_assert_str_eq(c->env.v[2], "CASE_VAR=from-case");
	cr_assert_float_eq(c->timeout, 5.0, 1e-9);

	c = find_case(g, "stdin");
	cr_assert_eq(c->stdin_len, 14);
	cr_assert_eq(memcmp(c->stdin_data, "line 1\nline 2\n", 14), 0);
	c = find_case(g, "no-stdin");
	cr_assert_null(c->stdin_data);

	c = find_case(g, "argv-string");
	cr_assert_eq(c->arguments.nr, 6);
	cr_assert_str_eq(c->arguments.v[1], "a  b");
	cr_assert_str_eq(c->arguments.v[2], "c \"d\"");
	cr_assert_str_eq(c->arguments.v[3], "e f");
	cr_assert_str_eq(c->arguments.v[4], "$HOME");
	cr_assert_str_eq(c->arguments.v[5], "*");
	assay_suite_free(s);
}

Test(load, static_assets_become_absolute_paths)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *c = find_case(group(s, 0, "core"), "static");
	cr_assert_eq(c->arguments.nr, 2);
	cr_assert(c->arguments.v[1][0] == '/');
	cr_assert(strstr(c->arguments.v[1], "/suites/basic/assets/data.txt"), "%s",
		  c->arguments.v[1]);
	assay_suite_free(s);
}

Test(load, input_files_are_serialised_by_type)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *c = find_case(group(s, 0, "core"), "input-file");
	cr_assert_eq(c->ninput_files, 1);
	cr_assert_str_eq(c->input_files[0].path, "data/in.json");
	cr_assert_str_eq(c->input_files[0].content, "{\"k\": [1, 2]}");
	assay_suite_free(s);
}

Test(load, expected_files_become_files_attributes)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *c = find_case(group(s, 0, "core"), "write-file");
	cr_assert_str_eq(json_string_value(json_object_get(c->expected, "files-out/result.txt")),
			 "written");
	cr_assert_null(json_object_get(c->expected, "files"));
	assay_suite_free(s);
}

Test(load, regressions_list_and_hand_made_groups)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_checkpoint *cp = &s->checkpoints[1];
	cr_assert_eq(cp->ngroups, 3);
	const assay_group *again = group(s, 1, "again");
	cr_assert_eq(again->type, ASSAY_GROUP_REGRESSION);
	cr_assert_str_eq(again->original_checkpoint, "checkpoint_1");
	cr_assert_str_eq(again->original_group, "errors");
	cr_assert_eq(again->ncases, 1);
	const assay_group *reg = group(s, 1, "checkpoint_1_core");
	cr_assert_eq(reg->type, ASSAY_GROUP_REGRESSION);
	cr_assert_str_eq(reg->original_group, "core");
	cr_assert_eq(reg->ncases, group(s, 0, "core")->ncases);
	/* the cases of a regression group are loaded with their own group's defaults */
	const assay_case *fail = find_case(again, "fail");
	cr_assert_null(fail->error);
	assay_suite_free(s);
}

Test(load, filters_select_checkpoint_group_and_case)
{
	assay_suite_filter f = { "checkpoint_2", "checkpoint_1_*", "e*" };
	assay_suite *s = load_ok(SUITES "/basic", &f);
	cr_assert_eq(s->ncheckpoints, 1);
	cr_assert_eq(s->checkpoints[0].ngroups, 1);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_str_eq(g->name, "checkpoint_1_core");
	cr_assert_eq(g->ncases, 4);
	cr_assert_eq(s->ncases, 4);
	assay_suite_free(s);
}

Test(load, malformed_suite_yaml_names_line_and_column)
{
	assay_suite *s = (assay_suite *)1;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, SUITES "/broken-suite", NULL, NULL, NULL, &err),
		     ASSAY_EPARSE);
	cr_assert_null(s);
	cr_assert(strstr(err.path, "broken-suite/suite.yaml"));
	cr_assert_eq(err.line, 8, "%d:%d %s", err.line, err.column, err.msg);
	cr_assert_geq(err.column, 1); /* libyaml marks the end of the stream */
	cr_assert(strstr(err.msg, "did not find expected ',' or '}'"), "%s", err.msg);
}

Test(load, wrong_value_in_suite_yaml_names_its_position)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, SUITES "/bad-type", NULL, NULL, NULL, &err),
		     ASSAY_EINVALID);
	cr_assert_eq(err.line, 5);
	cr_assert_eq(err.column, 12);
	cr_assert_str_eq(err.msg, "timeout must be a number of seconds > 0");
}

Test(load, missing_suite_is_not_found)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, SUITES "/no-such-suite", NULL, NULL, NULL, &err),
		     ASSAY_ENOTFOUND);
}

Test(load, broken_cases_get_errors_and_the_rest_load)
{
	assay_suite_filter f = { NULL, "broken", NULL };
	assay_suite *s = load_ok(SUITES "/failing", &f);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 5);
	cr_assert_eq(s->nerrors, 3);
	const assay_case *c = find_case(g, "bad-yaml");
	cr_assert(c->error && strstr(c->error, "bad-yaml.yaml:2:9: "), "%s", c->error);
	c = find_case(g, "unknown-asset");
	cr_assert(c->error && strstr(c->error, "unknown-asset.yaml:1:13: unknown static asset"),
		  "%s", c->error);
	c = find_case(g, "nothing-expected");
	cr_assert(c->error && strstr(c->error, "expects nothing"));
	cr_assert_null(find_case(g, "still-runs")->error);
	cr_assert_null(find_case(g, "bad-regex")->error);
	assay_suite_free(s);
}

/* ---- suites written by the test ---- */

static char *tmp_suite(void)
{
	char *dir = NULL;
	cr_assert_eq(assay_fs_mkdtemp(&dir, NULL, "assay-test-load-", NULL), 0);
	return dir;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = assay_path_join(dir, rel);
	cr_assert_eq(assay_fs_write(p, text, strlen(text), 0644, NULL), 0);
	free(p);
}

static const char suite_head[] = "name: t\nadapter: {type: cli, command: [sh]}\n";

Test(load, case_order_puts_listed_cases_first)
{
	char *dir = tmp_suite();
	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [sh]}\ncheckpoints:\n"
			       "  c:\n    groups:\n      g: {case_order: [zeta, beta]}\n");
	put(dir, "c/g/alpha.yaml", "expected: {status_code: 0}\n");
	put(dir, "c/g/beta.yaml", "expected: {status_code: 0}\n");
	put(dir, "c/g/zeta.yaml", "expected: {status_code: 0}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 3);
	cr_assert_str_eq(g->cases[0].id, "zeta");
	cr_assert_str_eq(g->cases[1].id, "beta");
	cr_assert_str_eq(g->cases[2].id, "alpha");
	cr_assert_eq(g->type, ASSAY_GROUP_FUNCTIONALITY);
	assay_suite_free(s);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

Test(load, duplicate_case_ids_are_errors)
{
	char *dir = tmp_suite();
	char text[256];
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expected: {status_code: 0}\n");
	put(dir, "c/g/x/case.yaml", "expected: {status_code: 0}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 2);
	cr_assert_eq(s->nerrors, 1);
	cr_assert(g->cases[1].error && strstr(g->cases[1].error, "duplicate case id 'x'"));
	assay_suite_free(s);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

Test(load, case_values_are_checked_with_positions)
{
	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{ "arguments: {a: 1}\nexpected: {status_code: 0}\n", "1:12: arguments must be" },
		{ "timeout: -1\nexpected: {status_code: 0}\n", "1:10: timeout must be" },
		{ "expected: {status_code: maybe}\n", "1:25: expected status_code must be" },
		{ "expected: {outptu: x}\n", "1:20: unknown expected attribute 'outptu'" },
		{ "input_files: [{path: ../escape, content: x}]\nexpected: {status_code: 0}\n",
		  "1:22: input_files[0].path must be a relative path" },
		{ "input_files: [{path: a, content: x, file_type: xml}]\n"
		  "expected: {status_code: 0}\n", "1:48: unknown file_type 'xml'" },
		{ "expected: {files: {/etc/passwd: x}}\n", "1:33: expected file '/etc/passwd'" },
		{ "env: {A=B: x}\nexpected: {status_code: 0}\n", "1:12: invalid environment" },
		{ "arguments: \"'open\"\nexpected: {status_code: 0}\n", "1:12: arguments: unterminated" },
		{ "expected: {headers: {a: b}}\n", "unknown expected attribute 'headers'" },
		{ "expected: {output: x}\nverify: {output: {verifier: nope}}\n",
		  "2:29: verify.output: unknown verifier 'nope'" },
		{ "expected: {output: x}\nverify: {output: {verifier: text, strp: true}}\n",
		  "2:29: verify.output: unknown option 'strp' for verifier 'text'" },
		{ "expected: {output: x}\nverify: {output: {weight: 0}}\n",
		  "2:18: verify.output: " },
	};
	char *dir = tmp_suite();
	char text[256];
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char name[32];
		snprintf(name, sizeof(name), "c/g/case%02zu.yaml", i);
		put(dir, name, bad[i].text);
	}
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, sizeof(bad) / sizeof(*bad));
	for (size_t i = 0; i < g->ncases; i++)
		cr_expect(g->cases[i].error && strstr(g->cases[i].error, bad[i].message),
			  "case %zu: want '%s', got '%s'", i, bad[i].message,
			  g->cases[i].error ? g->cases[i].error : "(no error)");
	assay_suite_free(s);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

static void collect(void *payload, const char *msg)
{
	assay_buf *b = payload;
	assay_buf_adds(b, msg);
	assay_buf_addch(b, '\n');
}

Test(load, warnings_for_unknown_keys_name_their_position)
{
	char *dir = tmp_suite();
	char text[256];
	assay_buf warnings = ASSAY_BUF_INIT;
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {tpye: Core}}}}\n",
		 suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expected: {status_code: 0}\nargs: [a]\n");
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, dir, NULL, collect, &warnings, &err), 0);
	cr_assert(strstr(warnings.ptr, "suite.yaml:3:38: unknown key 'tpye' in group"), "%s",
		  warnings.ptr);
	cr_assert(strstr(warnings.ptr, "x.yaml:2:7: unknown case key 'args'"), "%s",
		  warnings.ptr);
	assay_suite_free(s);
	assay_buf_release(&warnings);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

Test(shell_split, quoting_rules)
{
	assay_strvec v = ASSAY_STRVEC_INIT;
	cr_assert_eq(assay_shell_split(&v, "a 'b c' \"d \\\"e\\\" \\$f\" g\\ h '' \"\" i\\\\j", NULL),
		     0);
	cr_assert_eq(v.nr, 7);
	cr_assert_str_eq(v.v[0], "a");
	cr_assert_str_eq(v.v[1], "b c");
	cr_assert_str_eq(v.v[2], "d \"e\" $f");
	cr_assert_str_eq(v.v[3], "g h");
	cr_assert_str_eq(v.v[4], "");
	cr_assert_str_eq(v.v[5], "");
	cr_assert_str_eq(v.v[6], "i\\j");
	cr_assert_null(v.v[7]);
	assay_strvec_clear(&v);
	cr_assert_eq(assay_shell_split(&v, "  ", NULL), 0);
	cr_assert_eq(v.nr, 0);
	cr_assert_eq(assay_shell_split(&v, "'open", NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_shell_split(&v, "\"open", NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_shell_split(&v, "end\\", NULL), ASSAY_EINVALID);
	assay_strvec_clear(&v);
}

Test(load, malformed_json_case_names_line_and_column)
{
	char *dir = tmp_suite();
	char text[256];
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/ok.json", "{\"expected\": {\"status_code\": 0}}\n");
	put(dir, "c/g/bad.json", "{\"expected\":\n  {\"status_code\" 0}}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 2);
	cr_assert_null(find_case(g, "ok")->error);
	const char *e = find_case(g, "bad")->error;
	cr_assert(e && strstr(e, "bad.json:2:18: "), "%s", e ? e : "(none)");
	assay_suite_free(s);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

Test(load, submissions_per_checkpoint_override_the_adapter)
{
	assay_suite *s = load_ok(SUITES "/workdir", NULL);
	cr_assert(strstr(s->submission, "/workdir/sub1"));
	cr_assert(strstr(s->checkpoints[0].submission, "/workdir/sub1"), "%s",
		  s->checkpoints[0].submission);
	cr_assert(strstr(s->checkpoints[1].submission, "/workdir/sub2"), "%s",
		  s->checkpoints[1].submission);
	const assay_group *shared = group(s, 0, "shared");
	cr_assert_not(shared->isolated);
	cr_assert_eq(s->tracked_files.nr, 2);
	cr_assert_str_eq(s->tracked_files.v[1], "out/*.txt");
	assay_suite_free(s);
}

Test(load, a_string_of_arguments_is_split_before_assets_are_substituted)
{
	char *dir = tmp_suite();
	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [cat]}\n"
			       "static_assets: {x: {path: my assets/x.txt}}\n"
			       "checkpoints: {c: {groups: {g: {}}}}\n");
	put(dir, "my assets/x.txt", "x\n");
	put(dir, "c/g/a.yaml", "arguments: \"-n {{static:x}}\"\nexpected: {status_code: 0}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_case *c = &s->checkpoints[0].groups[0].cases[0];
	cr_assert_null(c->error, "%s", c->error);
	cr_assert_eq(c->arguments.nr, 2);
	cr_assert_str_eq(c->arguments.v[0], "-n");
	cr_assert(strstr(c->arguments.v[1], "/my assets/x.txt"), "%s", c->arguments.v[1]);
	assay_suite_free(s);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

Test(load, checkpoint_and_group_names_must_be_plain)
{
	static const char *const bad[] = { "'..'", "a/b", "/tmp/x", "'.'", "''" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *dir = tmp_suite();
		char text[256];
		assay_suite *s = NULL;
		assay_err err = ASSAY_ERR_INIT;
		snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {%s: {}}}}\n", suite_head,
			 bad[i]);
		put(dir, "suite.yaml", text);
		cr_expect_eq(assay_suite_load(&s, dir, NULL, NULL, NULL, &err), ASSAY_EINVALID,
			     "group %s", bad[i]);
		cr_expect(strstr(err.msg, "must be a plain name"), "%s", err.msg);
		assay_suite_free(s);
		assay_err_clear(&err);
		snprintf(text, sizeof(text), "%scheckpoints: {%s: {groups: {g: {}}}}\n", suite_head,
			 bad[i]);
		put(dir, "suite.yaml", text);
		cr_expect_eq(assay_suite_load(&s, dir, NULL, NULL, NULL, &err), ASSAY_EINVALID,
			     "checkpoint %s", bad[i]);
		assay_suite_free(s);
		assay_fs_remove_tree(dir, NULL);
		free(dir);
	}
}
