/*
 * The renderers' building blocks (src/lib/report): SlopCodeBench's pass policies, UTF-8 repair
 * by the JSON writer's rule, XML escaping of what XML cannot hold, values cut on a character
 * boundary, and a renderer fed lines from memory.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/render.h"
#include "report/report_int.h"

Test(policy, checks_counts_as_slopcodebench_does)
{
	/* Core, Functionality, Error, Regression */
	const size_t none[4] = { 0 }, all_t[4] = { 2, 3, 4, 5 };
	const size_t err_fails[4] = { 2, 3, 1, 5 }, core_fails[4] = { 1, 3, 4, 5 };
	const size_t one_fn[4] = { 0, 1, 0, 0 };
	assay_pass_policy p;

	cr_assert(assay_pass_policy_check(ASSAY_POLICY_ALL_CASES, all_t, all_t));
	cr_assert_not(assay_pass_policy_check(ASSAY_POLICY_ALL_CASES, err_fails, all_t));
	cr_assert(assay_pass_policy_check(ASSAY_POLICY_ALL_NON_ERROR_CASES, err_fails, all_t));
	cr_assert_not(assay_pass_policy_check(ASSAY_POLICY_ALL_NON_ERROR_CASES, core_fails, all_t));
	cr_assert_not(assay_pass_policy_check(ASSAY_POLICY_CORE_CASES, core_fails, all_t));
	cr_assert(assay_pass_policy_check(ASSAY_POLICY_ANY_CORE_CASES, core_fails, all_t));
	cr_assert(assay_pass_policy_check(ASSAY_POLICY_CORE_CASES, none, none)); /* no Core: true */
	cr_assert_not(assay_pass_policy_check(ASSAY_POLICY_ANY_CORE_CASES, one_fn, one_fn));
	cr_assert(assay_pass_policy_check(ASSAY_POLICY_ANY_CASE, one_fn, one_fn));
	cr_assert_not(assay_pass_policy_check(ASSAY_POLICY_ANY_CASE, none, all_t));
	cr_assert(assay_pass_policy_check(ASSAY_POLICY_ANY, none, all_t));
	cr_assert_eq(assay_pass_policy_find(&p, "all-core-cases", NULL), 0);
	cr_assert_eq(p, ASSAY_POLICY_CORE_CASES);
	cr_assert_eq(assay_pass_policy_find(&p, "most", NULL), ASSAY_ENOTFOUND);
}

/* The text assay_json_write() makes of a string, without its quotes and escapes. */
static char *json_repair(const char *s, size_t len, size_t *n)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_arena *a = assay_arena_new(0);
	assay_value v = assay_value_string(a, s, len), back;
	char *out;

	assay_json_write(&b, &v, 0);
	cr_assert_eq(assay_json_parse(&back, a, b.ptr, b.len, NULL, NULL), 0);
	out = malloc(back.len + 1);
	memcpy(out, back.u.s, back.len);
	*n = back.len;
	assay_arena_free(a);
	assay_buf_release(&b);
	return out;
}

Test(text, invalid_utf8_is_replaced_as_the_json_writer_replaces_it)
{
	static const char *const cases[] = {
		"ok", "\xff", "a\xe0\x80z", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc3\x28",
		"\xf4\x90\x80\x80", "\xe2\x82\xac\x80", "\xf0\x9f\x98\x80!",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assay_arena *a = assay_arena_new(0);
		size_t n, m;
		const char *got = assay_report__utf8_clean(a, cases[i], strlen(cases[i]), &n);
		char *want = json_repair(cases[i], strlen(cases[i]), &m);
		assay_buf x = ASSAY_BUF_INIT;

		cr_assert_eq(n, m, "case %zu", i);
		cr_assert_eq(memcmp(got, want, n), 0, "case %zu", i);
		/* XML text repairs the same way */
		assay_report__xml(&x, cases[i], strlen(cases[i]), false);
		cr_assert_eq(x.len, m, "case %zu", i);
		cr_assert_eq(memcmp(x.ptr, want, m), 0, "case %zu", i);
		free(want);
		assay_buf_release(&x);
		assay_arena_free(a);
	}
}

Test(text, xml_escapes_markup_and_shows_what_xml_cannot_hold)
{
	assay_buf b = ASSAY_BUF_INIT;

	static const char markup[] = "<a href=\"x\">&\x01\x1b\t\n\r</a>";

	assay_report__xml(&b, markup, sizeof(markup) - 1, true);
	cr_assert_str_eq(b.ptr, "&lt;a href=&quot;x&quot;&gt;&amp;\\u0001\\u001b&#9;&#10;&#13;"
				"&lt;/a&gt;");
	assay_buf_reset(&b);
	assay_report__xml(&b, "a\"b\tc\n\xef\xbf\xbe", 9, false);
	cr_assert_str_eq(b.ptr, "a\"b\tc\n\\ufffe");
	assay_buf_release(&b);
}

Test(text, a_value_is_cut_on_a_character_and_says_how_long_it_was)
{
	assay_arena *a = assay_arena_new(0);
	assay_value v = assay_value_strz(a, "ab\xe2\x82\xac" "cd"); /* "ab€cd", 7 bytes */
	assay_buf b = ASSAY_BUF_INIT;
	assay_value cut, m = assay_value_object();

	cr_assert_eq(assay_report__text(&b, &v, 4, false), 7);
	cr_assert_str_eq(b.ptr, "ab");
	assay_buf_reset(&b);
	cr_assert_eq(assay_report__text(&b, &v, 7, false), 0);
	cr_assert_eq(b.len, 7);
	/* a value the line carries cut shows its head and its whole size */
	cut = assay_value_object();
	assay_object_set(a, &m, "kind", assay_value_strz(a, "string"));
	assay_object_set(a, &m, "bytes", assay_value_int(123456));
	assay_object_set(a, &m, "sha256", assay_value_strz(a, "00"));
	assay_object_set(a, &m, "head", assay_value_strz(a, "head text"));
	assay_object_set(a, &cut, "$assay_cut", m);
	cr_assert(assay_report__is_cut(&cut));
	assay_buf_reset(&b);
	cr_assert_eq(assay_report__text(&b, &cut, 4, false), 123456);
	cr_assert_str_eq(b.ptr, "head");
	assay_buf_release(&b);
	assay_arena_free(a);
}

static assay_value line(assay_arena *a, const char *id, bool passed, const char *status)
{
	assay_value o = assay_value_object(), res = assay_value_object(), at = assay_value_object();
	assay_value ex = assay_value_object();

	assay_object_set(a, &at, "actual", assay_value_strz(a, "got"));
	assay_object_set(a, &at, "expected", assay_value_strz(a, "want"));
	assay_object_set(a, &at, "diff", assay_value_strz(a, "-want\n+got\n"));
	assay_object_set(a, &at, "is_correct", assay_value_bool(passed));
	assay_object_set(a, &res, "output", at);
	assay_object_set(a, &o, "id", assay_value_strz(a, id));
	assay_object_set(a, &o, "group", assay_value_strz(a, "g"));
	assay_object_set(a, &o, "type", assay_value_strz(a, "Core"));
	assay_object_set(a, &o, "timestamp", assay_value_strz(a, "2026-01-02T03:04:05.000001Z"));
	assay_object_set(a, &o, "duration", assay_value_real(0.25));
	assay_object_set(a, &o, "results", res);
	assay_object_set(a, &o, "checkpoint", assay_value_strz(a, "c"));
	assay_object_set(a, &o, "score", assay_value_real(passed));
	assay_object_set(a, &o, "passed", assay_value_bool(passed));
	assay_object_set(a, &ex, "status", assay_value_strz(a, status));
	assay_object_set(a, &o, "execution", ex);
	return o;
}

Test(renderer, junit_from_lines_in_memory_counts_failures_and_errors_apart)
{
	char *dir = NULL, *path;
	assay_renderer *r;
	assay_arena *a = assay_arena_new(0);
	assay_buf text = ASSAY_BUF_INIT;
	assay_value l1 = line(a, "ok", true, "exited"), l2 = line(a, "wrong", false, "exited");
	assay_value l3 = line(a, "slow", false, "timed_out");

	cr_assert_eq(assay_fs_mkdtemp(&dir, NULL, "assay-report-test.", NULL), 0);
	path = assay_path_join(dir, "j.xml");
	cr_assert_eq(assay_renderer_open(&r, ASSAY_FORMAT_JUNIT, path, NULL, NULL), 0);
	cr_assert_eq(assay_renderer_begin(r, NULL, 3, NULL), 0);
	cr_assert_eq(assay_renderer_case(r, &l1, NULL), 0);
	cr_assert_eq(assay_renderer_case(r, &l2, NULL), 0);
	cr_assert_not(assay_fs_exists(path)); /* nothing before the end */
	cr_assert_eq(assay_renderer_case(r, &l3, NULL), 0);
	cr_assert_eq(assay_renderer_end(r, NULL, NULL), 0);
	assay_renderer_free(r);
	cr_assert_eq(assay_fs_read(&text, path, 0, NULL), 0);
	cr_assert(strstr(text.ptr, "tests=\"3\" failures=\"1\" errors=\"1\""), "%s", text.ptr);
	cr_assert(strstr(text.ptr, "timestamp=\"2026-01-02T03:04:05\" hostname=\"localhost\""));
	/* the terminal's words: the ending first, then each attribute not correct */
	cr_assert(strstr(text.ptr, "<error message=\"timed out\" type=\"timed_out\">timed out\n"
				   "output: expected \"want\", got \"got\"\n"),
		  "%s", text.ptr);
	cr_assert(strstr(text.ptr, "<failure message=\"output: expected &quot;want&quot;, got "
				   "&quot;got&quot;\" type=\"failure\">"));
	cr_assert(strstr(text.ptr, "time=\"0.250000\""));
	assay_buf_release(&text);
	/* a renderer freed before its end leaves no file */
	char *other = assay_path_join(dir, "k.xml");
	cr_assert_eq(assay_renderer_open(&r, ASSAY_FORMAT_TAP, other, NULL, NULL), 0);
	cr_assert_eq(assay_renderer_begin(r, NULL, 0, NULL), 0);
	cr_assert_eq(assay_renderer_case(r, &l2, NULL), 0);
	assay_renderer_free(r);
	cr_assert_not(assay_fs_exists(other));
	assay_fs_remove_tree(dir, NULL);
	free(other), free(path), free(dir);
	assay_arena_free(a);
}

/* The HTML page's words and stderr tail count against html_detail_bytes as the raw values do:
 * past the budget a case keeps its first line only. */
static bool html_has(const assay_value *l, size_t budget, const char *needle)
{
	char *dir = NULL, *path;
	assay_renderer *r;
	assay_render_opts o = ASSAY_RENDER_OPTS_INIT;
	assay_buf text = ASSAY_BUF_INIT;
	bool has;

	o.html_detail_bytes = budget;
	cr_assert_eq(assay_fs_mkdtemp(&dir, NULL, "assay-report-test.", NULL), 0);
	path = assay_path_join(dir, "r.html");
	cr_assert_eq(assay_renderer_open(&r, ASSAY_FORMAT_HTML, path, &o, NULL), 0);
	cr_assert_eq(assay_renderer_begin(r, NULL, 1, NULL), 0);
	cr_assert_eq(assay_renderer_case(r, l, NULL), 0);
	cr_assert_eq(assay_renderer_end(r, NULL, NULL), 0);
	assay_renderer_free(r);
	cr_assert_eq(assay_fs_read(&text, path, 0, NULL), 0);
	has = strstr(text.ptr, needle) != NULL;
	assay_buf_release(&text);
	assay_fs_remove_tree(dir, NULL);
	free(path), free(dir);
	return has;
}

Test(renderer, html_words_and_stderr_count_against_the_detail_budget)
{
	assay_arena *a = assay_arena_new(0);
	assay_value l = line(a, "wrong", false, "exited"), se = assay_value_object();
	assay_value *results = (assay_value *)assay_object_get(&l, "results");

	assay_object_set(a, &se, "actual", assay_value_strz(a, "stderr-tail-marker\n"));
	assay_object_set(a, &se, "is_correct", assay_value_bool(true));
	assay_object_set(a, results, "stderr", se);
	cr_assert(html_has(&l, 0, "stderr-tail-marker"));     /* 0: the default, 64 MiB */
	cr_assert(html_has(&l, 0, "output: expected"));
	cr_assert_not(html_has(&l, 1, "stderr-tail-marker")); /* past the budget: no tail */
	cr_assert(html_has(&l, 1, "output: expected"));        /* the first line stays */
	assay_arena_free(a);
}
