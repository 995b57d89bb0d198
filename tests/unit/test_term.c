/*
 * Unit tests of the terminal report's explanations (src/lib/report/term_explain.c,
 * term_repro.c): each deepdiff category in words naming expected and actual, unified diffs
 * said in one line where they fit, caps on long diffs and huge values, the stderr tail, and the
 * shell quoting of the reproduce line.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "assay/json.h"
#include "report/term_int.h"

static const struct term_style plain = { "", "", "", "", "", "" };
static assay_arena *arena;

static void setup(void)
{
	arena = assay_arena_new(0);
}

static void teardown(void)
{
	assay_arena_free(arena);
}

TestSuite(term, .init = setup, .fini = teardown);

static assay_value json(const char *text)
{
	assay_value v;

	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), NULL, NULL), 0, "%s", text);
	return v;
}

/* The explanation of attribute `attr` whose AttributeResult is `result` (JSON). */
static char *explain(const char *attr, const char *result, size_t max)
{
	assay_buf out = ASSAY_BUF_INIT;
	assay_value r = json(result);

	assay_term__explain(&out, attr, &r, &plain, max);
	return assay_buf_detach(&out, NULL);
}

static void expect_explained(const char *attr, const char *result, const char *want)
{
	char *got = explain(attr, result, 24);

	cr_expect_str_eq(got, want);
	free(got);
}

Test(term, every_deepdiff_category_names_expected_and_actual)
{
	expect_explained("output", "{\"diff\": {\"values_changed\": {\"root['id']\": "
				   "{\"new_value\": 1, \"old_value\": 2}}}}",
			 "    output: root['id']: expected 2, got 1\n");
	expect_explained("output", "{\"diff\": {\"type_changes\": {\"root['n']\": {\"old_type\": "
				   "\"int\", \"new_type\": \"str\", \"old_value\": 2, "
				   "\"new_value\": \"2\"}}}}",
			 "    output: root['n']: expected int 2, got str \"2\"\n");
	expect_explained("output",
			 "{\"diff\": {\"dictionary_item_added\": [\"root['x']\"], "
			 "\"dictionary_item_removed\": [\"root['y']\"], "
			 "\"iterable_item_added\": {\"root['t'][2]\": \"c\"}, "
			 "\"iterable_item_removed\": {\"root['t'][1]\": \"b\"}, "
			 "\"repetition_change\": {\"root[0]\": {\"old_repeat\": 1, "
			 "\"new_repeat\": 2, \"value\": 5}}, \"assay_note\": \"cut short\"}}",
			 "    output: 6 differences\n"
			 "      root['x']: unexpected key\n"
			 "      root['y']: missing key\n"
			 "      root['t'][2]: unexpected item \"c\"\n"
			 "      root['t'][1]: missing item \"b\"\n"
			 "      root[0]: 5 expected 1 time(s), got 2\n"
			 "      assay_note: cut short\n");
}

Test(term, a_changed_multiline_string_shows_its_own_diff)
{
	expect_explained("output",
			 "{\"diff\": {\"values_changed\": {\"root['s']\": {\"new_value\": "
			 "\"a\\nc\", \"old_value\": \"a\\nb\", \"diff\": \"--- \\n+++ \\n"
			 "@@ -1,2 +1,2 @@\\n a\\n-b\\n+c\"}}}}",
			 "    output: 1 difference\n"
			 "      root['s']: the texts differ (- expected, + actual):\n"
			 "        @@ -1,2 +1,2 @@\n"
			 "         a\n"
			 "        -b\n"
			 "        +c\n");
}

Test(term, a_long_structured_diff_is_cut_and_counted)
{
	assay_buf r = ASSAY_BUF_INIT;

	assay_buf_adds(&r, "{\"diff\": {\"dictionary_item_added\": [");
	for (int i = 0; i < 1000; i++)
		assay_buf_addf(&r, "%s\"root['k%d']\"", i ? ", " : "", i);
	assay_buf_adds(&r, "]}}");
	char *got = explain("output", r.ptr, 3);
	cr_expect_str_eq(got, "    output: 1000 differences\n"
			      "      root['k0']: unexpected key\n"
			      "      root['k1']: unexpected key\n"
			      "      root['k2']: unexpected key\n"
			      "      ... 997 more (assay show DIR ID prints the whole diff)\n");
	free(got);
	assay_buf_release(&r);
}

Test(term, a_huge_value_is_shown_by_its_head)
{
	assay_buf r = ASSAY_BUF_INIT;

	assay_buf_adds(&r, "{\"diff\": {\"values_changed\": {\"root\": {\"new_value\": [");
	for (int i = 0; i < 100000; i++)
		assay_buf_addf(&r, "%s%d", i ? ", " : "", i);
	assay_buf_adds(&r, "], \"old_value\": []}}}}");
	char *got = explain("output", r.ptr, 24);
	cr_expect_str_eq(got, "    output: root: expected [], got [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "
			      "11, 12, 13, 14, 15, 16...\n");
	free(got);
	assay_buf_release(&r);
}

Test(term, text_diffs_in_one_line_where_they_fit)
{
	expect_explained("output",
			 "{\"actual\": \"hello\\nworld\\n\", \"expected\": \"hello\\nthere\\n\", "
			 "\"diff\": \"--- expected\\n+++ actual\\n@@ -1,2 +1,2 @@\\n hello\\n"
			 "-there\\n+world\\n\"}",
			 "    output: line 2: expected \"there\", got \"world\"\n");
	/* only the last newline differs: shown */
	expect_explained("output",
			 "{\"actual\": \"x\", \"expected\": \"x\\n\", \"diff\": \"--- expected\\n"
			 "+++ actual\\n@@ -1 +1 @@\\n-x\\n+x\\n\\\\ No newline at end of file\\n\"}",
			 "    output: expected \"x\\n\", got \"x\"\n");
	expect_explained("stderr",
			 "{\"actual\": \"\", \"expected\": \"a\\nb\\nc\\n\", \"diff\": \"--- "
			 "expected\\n+++ actual\\n@@ -1,3 +0,0 @@\\n-a\\n-b\\n-c\\n\"}",
			 "    stderr is empty, expected \"a\\nb\\nc\\n\"\n");
	expect_explained("status_code", "{\"diff\": \"expected 0, got 1\"}",
			 "    status_code: expected 0, got 1\n");
	expect_explained("output", "{\"diff\": \"output is empty\"}", "    output is empty\n");
	/* an expected number is compared as its text, one line: said as a string is */
	expect_explained("output",
			 "{\"actual\": \"6\\n\", \"expected\": 7, \"diff\": \"--- expected\\n"
			 "+++ actual\\n@@ -1 +1 @@\\n-7\\n\\\\ No newline at end of file\\n+6\\n\"}",
			 "    output: expected \"7\", got \"6\"\n");
}

/* a verifier's own words (contains) are no diff: no diff's heading above them */
Test(term, a_verifiers_sentence_follows_the_attribute)
{
	expect_explained("output",
			 "{\"actual\": \"hello world\\n\", \"expected\": \"bye\", \"diff\": "
			 "\"expected text not found in actual\\nexpected: \\\"bye\\\"\\nactual: "
			 "\\\"hello world\\\\n\\\"\"}",
			 "    output: expected text not found in actual\n"
			 "      expected: \"bye\"\n"
			 "      actual: \"hello world\\n\"\n");
}

Test(term, control_characters_never_reach_the_terminal)
{
	char *got = explain("output", "{\"diff\": \"a\\u001b[2J\\u009bb\"}", 24);

	cr_expect_str_eq(got, "    output: a\\x1b[2J\\u009bb\n");
	free(got);
}

Test(term, the_stderr_tail_is_its_last_lines)
{
	assay_buf out = ASSAY_BUF_INIT;

	assay_term__tail(&out, "stderr", "1\n2\n3\n4\n\n", 9, 2, &plain);
	cr_expect_str_eq(out.ptr, "    stderr, last 2 of 4 lines:\n      | 3\n      | 4\n");
	assay_buf_reset(&out);
	assay_term__tail(&out, "stderr", "\n\n", 2, 2, &plain);
	cr_expect_str_eq(out.ptr, "");
	assay_buf_release(&out);
}

Test(term, the_reproduce_line_quotes_for_the_shell)
{
	assay_checkpoint cp = { .name = "c" };
	assay_group g = { .name = "g", .isolated = true, .env = ASSAY_STRVEC_INIT };
	assay_strvec cmd = ASSAY_STRVEC_INIT;
	struct term_repro r;
	assay_buf out = ASSAY_BUF_INIT;
	assay_value line = json("{\"case\": {\"type\": \"cli\", \"arguments\": [\"it's\", "
				"\"a b\", \"x\\ny\", 7], \"env\": {\"A\": \"1 2\", \"HOME\": null}, "
				"\"stdin\": {\"k\": 1}}}");

	assay_strvec_push(&cmd, "python3");
	assay_strvec_push(&g.env, "B=b");
	cr_assert(assay_term__repro_make(&r, &line, &cp, &g, "x", &cmd, NULL, NULL));
	assay_term__repro_line(&out, &r, NULL, &plain);
	cr_expect_str_eq(out.ptr,
			 "    reproduce: printf %s $'{\"k\": 1}\\n' | env -i PATH=\"$PATH\" "
			 "LANG=\"$LANG\" TMPDIR=\"$(mktemp -d)\" B=b A='1 2' python3 'it'\\''s' "
			 "'a b' $'x\\ny' 7\n"
			 "      (in the case's working folder, which --keep keeps)\n");
	assay_term__repro_release(&r);
	/* not a cli case: nothing to reproduce */
	assay_value api = json("{\"case\": {\"type\": \"api\"}}");
	cr_expect(!assay_term__repro_make(&r, &api, &cp, &g, "x", &cmd, NULL, NULL));
	assay_term__repro_release(&r);
	/* a variable --pass-env passes comes from the shell, as `env -i` would drop it; its value
	 * is not printed; a case's env over it wins */
	const char *const pass[] = { "ASSAY_T_P*", NULL };
	assay_value mine = json("{\"case\": {\"type\": \"cli\", \"env\": {\"ASSAY_T_PC\": \"c\"}}}");

	setenv("ASSAY_T_PA", "secret", 1);
	setenv("ASSAY_T_PC", "theirs", 1);
	cr_assert(assay_term__repro_make(&r, &mine, &cp, &g, "x", &cmd, NULL, pass));
	assay_buf_reset(&out);
	assay_term__repro_line(&out, &r, NULL, &plain);
	cr_expect(strstr(out.ptr, " ASSAY_T_PA=\"$ASSAY_T_PA\" ") != NULL, "%s", out.ptr);
	cr_expect(strstr(out.ptr, " ASSAY_T_PC=c ") != NULL, "%s", out.ptr);
	cr_expect(strstr(out.ptr, "secret") == NULL && strstr(out.ptr, "theirs") == NULL, "%s",
		  out.ptr);
	unsetenv("ASSAY_T_PA");
	unsetenv("ASSAY_T_PC");
	assay_term__repro_release(&r);
	assay_strvec_clear(&cmd);
	assay_strvec_clear(&g.env);
	assay_buf_release(&out);
}
