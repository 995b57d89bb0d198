/*
 * The checks of verification.md's examples and patterns: numeric (Example 3), json_fields and
 * json_keys (Example 1), file (Example 2), flexible (Pattern 1), and the diff strategies of
 * every verify entry: pass, fail, partial credit and the diff's content of each, and the
 * refusals of what a suite author can get wrong.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/verify.h"
#include "assay/yaml.h"
#include "verify_call.h"

static assay_arena *A;

static void setup(void)
{
	A = assay_arena_new(0);
}

static void teardown(void)
{
	assay_arena_free(A);
}

TestSuite(checks, .init = setup, .fini = teardown);

#define res vres

static assay_value y(const char *text)
{
	return vt_yaml(A, text);
}

static struct res run_attr(const char *attribute, const assay_value *expected,
			   const assay_actual *ac, const char *options)
{
	return vt_call(A, attribute, expected, ac, options);
}

static assay_actual text(const char *s)
{
	return vt_text(s);
}

static struct res run(const char *expected_yaml, const char *actual, const char *options)
{
	assay_value ex = y(expected_yaml);
	assay_actual ac = text(actual);

	return run_attr("output", &ex, &ac, options);
}

/* Runs and checks verdict, score (< 0: not set) and diff (NULL: not checked). */
static void expect(const char *expected_yaml, const char *actual, const char *options,
		   bool correct, double score, const char *diff)
{
	struct res r = run(expected_yaml, actual, options);

	cr_assert_eq(r.rc, 0, "%s: refused: %s", options, r.err.msg);
	cr_assert_eq(r.v.is_correct, correct, "%s on %s: %s", options, actual, r.diff);
	if (score >= 0)
		cr_assert(fabs(r.v.partial - score) < 1e-9, "%s: score %g, want %g", options,
			  r.v.partial, score);
	if (diff)
		cr_assert_str_eq(r.diff, diff);
	free(r.diff);
}

static void refused(const char *expected_yaml, const char *actual, const char *options,
		    const char *msg)
{
	struct res r = run(expected_yaml, actual, options);

	cr_assert_eq(r.rc, ASSAY_EINVALID, "%s: rc %d (%s)", options, r.rc, r.diff);
	cr_assert(strstr(r.err.msg, msg), "%s: %s", options, r.err.msg);
	free(r.diff);
}

/* ---- numeric ---------------------------------------------------------------------------- */

Test(checks, numeric_extracts_as_example_3)
{
	expect("[3.14, -2, 1000, 0.5]", "pi is 3.14, minus -2, 1e3 and .5\n", "{verifier: numeric}",
	       true, 1.0, "null");
	/* the regex's own way: "1.2.3" is 1.2 and .3; "5." is 5; "x-3" is -3; "1e" is 1 */
	expect("[1.2, 0.3, 5, -3, 1]", "1.2.3 5. x-3 1e", "{verifier: numeric}", true, 1.0, NULL);
	expect("'total: 12 items, 3.5 kg'", "12 / 3.5", "{verifier: numeric}", true, 1.0, NULL);
	expect("42", "the answer is 42.0000001", "{verifier: numeric}", true, 1.0, NULL);
}

Test(checks, numeric_tolerance_count_and_partial_credit)
{
	expect("[1, 2, 3]", "1 2.5 3", "{verifier: numeric}", false, (0.5 + 2) / 3.5,
	       "{\"number_count\": \"Expected 3 numbers, got 3\", \"number_1\": \"Number 1: "
	       "expected 2.0, got 2.5 (diff: 0.5, tolerance: 1e-06)\"}");
	expect("[1, 2, 3]", "1 2.5 3", "{verifier: numeric, abs_tol: 0.5}", true, 1, NULL);
	expect("[100, 200]", "101 198", "{verifier: numeric, rel_tol: 0.01}", true, 1, NULL);
	expect("[1, 2, 3]", "1 2", "{verifier: numeric}", false, 2 / 2.5,
	       "{\"number_count\": \"Expected 3 numbers, got 2\"}");
	expect("[1, 2, 3]", "1 2", "{verifier: numeric, count_weight: 0}", false, 1.0, NULL);
	expect("[]", "no numbers", "{verifier: numeric}", true, 1.0, NULL);
	expect("[]", "7", "{verifier: numeric, count_weight: 0}", false, 0, NULL);
	refused("{a: 1}", "1", "{verifier: numeric}", "must be a list of numbers");
	refused("[1, x]", "1", "{verifier: numeric}", "expected.output[1] is not a number");
}

/* ---- json_fields and json_keys ---------------------------------------------------------- */

Test(checks, json_fields_by_dot_path)
{
	const char *doc = "{\"user\": {\"name\": \"Ada\", \"id\": 7}, \"items\": [{\"id\": 1}, "
			  "{\"id\": 2.0}], \"note\": null}";

	expect("{user.name: Ada, user.id: 7, items.1.id: 2, note: null, missing: null}", doc,
	       "{verifier: json_fields}", true, 1.0, "null");
	expect("{user.name: Bob, items.0.id: 1, items.5.id: 1, user.name.x: 1}", doc,
	       "{verifier: json_fields}", false, 0.25,
	       "{\"user.name\": \"user.name: expected 'Bob', got 'Ada'\", \"items.5.id\": "
	       "\"items.5.id: expected 1, got nothing (absent)\", \"user.name.x\": \"user.name.x: "
	       "expected 1, got nothing (absent)\"}");
	/* values in the document's words: null and true, not None and True */
	expect("{note: 0, user.id: null, items.0: [true]}", doc, "{verifier: json_fields}", false,
	       0.0,
	       "{\"note\": \"note: expected 0, got null\", \"user.id\": \"user.id: expected null, "
	       "got 7\", \"items.0\": \"items.0: expected [true], got {\\\"id\\\": 1}\"}");
	expect("{user.name: ada}", doc, "{verifier: json_fields, ignore_string_case: true}", true,
	       1.0, NULL);
	expect("{port: 8080}", "port: 8080\n", "{verifier: json_fields, format: yaml}", true, 1.0,
	       NULL);
	expect("{server.port: '8080'}", "[server]\nport = 8080\n",
	       "{verifier: json_fields, format: ini}", true, 1.0, NULL);
	expect("{a: 1}", "not json", "{verifier: json_fields}", false, -1,
	       "\"output is not valid JSON: line 1, column 1: Expecting value\"");
	refused("[a]", "{}", "{verifier: json_fields}", "must be a mapping of field paths");
	refused("{a: 1}", "{}", "{verifier: json_fields, format: xml}",
		"option 'format' must be json, yaml, toml or ini");
}

Test(checks, json_keys_as_example_1)
{
	expect("[id, name]", "{\"name\": 1, \"id\": 2}", "{verifier: json_keys}", true, -1, "null");
	expect("{id: 0, name: x, email: y}", "{\"name\": 1, \"id\": 2, \"extra\": 3}",
	       "{verifier: json_keys}", false, -1,
	       "{\"missing\": [\"email\"], \"extra\": [\"extra\"]}");
	expect("[id]", "{\"id\": 1, \"more\": 2}", "{verifier: json_keys, allow_extra: true}", true,
	       -1, NULL);
	expect("{a: {b: 1, c: 2}}", "{\"a\": {\"b\": 1}}", "{verifier: json_keys, recursive: true}",
	       false, -1, "{\"missing\": [\"a.c\"], \"extra\": []}");
	expect("[a]", "[1, 2]", "{verifier: json_keys}", false, -1,
	       "{\"missing\": [\"a\"], \"extra\": [], \"note\": \"the actual document is a list, "
	       "not a mapping\"}");
	refused("[1]", "{}", "{verifier: json_keys}", "expected.output[0] must be a key name");
}

/* ---- file ------------------------------------------------------------------------------- */

static struct res run_file(const char *expected_yaml, const assay_actual *ac, const char *options)
{
	assay_value ex = y(expected_yaml);

	return run_attr("files-out/report.txt", &ex, ac, options);
}

Test(checks, file_checks_and_weights_as_example_2)
{
	assay_actual ac = text("line one\nline two\n");
	assay_actual missing = { ASSAY_ACTUAL_MISSING, NULL, 0, false, 0, 0 };
	struct res r;

	r = run_file("\"line one\\nline two\\n\"", &ac, "{verifier: file}");
	cr_assert(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	cr_assert_str_eq(r.diff, "null");
	free(r.diff);

	r = run_file("{contains: two}", &ac, "{verifier: file}");
	cr_assert(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 0.5, 1e-12);
	free(r.diff);

	r = run_file("{exists: true}", &ac, "{verifier: file}");
	cr_assert(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 0.3, 1e-12);
	free(r.diff);

	/* issue #17: the example's weights scale the entry's (2 x 0.5), and existing earns no
	 * partial credit beside a failing check (it was 0.3 / 0.8 of the credit, weight 2) */
	r = run_file("{contains: [one, three]}", &ac, "{verifier: file, weight: 2}");
	cr_assert_not(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	cr_assert_float_eq(r.v.partial, 0, 1e-12);
	cr_assert_str_eq(r.diff, "{\"exists\": \"✓ File exists\", \"contains\": \"✗ Missing "
				 "pattern 'three'\"}");
	free(r.diff);

	r = run_file("{content: \"line one\\nline 2\\n\"}", &ac, "{verifier: file}");
	cr_assert_not(r.v.is_correct);
	cr_assert_str_eq(r.diff,
			 "{\"exists\": \"✓ File exists\", \"content\": \"--- out/report.txt "
			 "(expected)\\n+++ out/report.txt (actual)\\n@@ -1,2 +1,2 @@\\n line one\\n-line "
			 "2\\n+line two\\n\"}");
	free(r.diff);

	r = run_file("{content: \"line one\\nline 2\\n\"}", &ac, "{verifier: file}");
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	cr_assert_float_eq(r.v.partial, 0, 1e-12); /* a wrong content earns nothing for existing */
	free(r.diff);

	/* Example 2: a file not found is incorrect with weight 1.0, whatever was expected of it
	 * (it was 0.3 for a file expected only to exist) */
	r = run_file("{exists: true}", &missing, "{verifier: file}");
	cr_assert_not(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	free(r.diff);
	r = run_file("{contains: two}", &missing, "{verifier: file}");
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	free(r.diff);

	r = run_file("{content: x}", &missing, "{verifier: file}");
	cr_assert_not(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	cr_assert_float_eq(r.v.partial, 0, 1e-12);
	cr_assert(strstr(r.diff, "\"exists\": \"File not found: out/report.txt\""), "%s", r.diff);
	free(r.diff);

	r = run_file("{exists: false}", &missing, "{verifier: file}");
	cr_assert(r.v.is_correct);
	free(r.diff);
	r = run_file("{exists: false}", &ac, "{verifier: file}");
	cr_assert_not(r.v.is_correct);
	cr_assert_str_eq(r.diff, "{\"exists\": \"File exists but must not: out/report.txt\"}");
	free(r.diff);

	r = run_file("{exists: true}", &ac, "{verifier: file, check_weights: {exists: 0.9}}");
	cr_assert_float_eq(r.v.weight, 0.9, 1e-12);
	free(r.diff);
}

Test(checks, file_refusals)
{
	assay_actual ac = text("x");
	struct res r = run_file("{content: x, size: 3}", &ac, "{verifier: file}");

	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "'size' is not a file check"), "%s", r.err.msg);
	free(r.diff);
	r = run_file("{exists: false, contains: x}", &ac, "{verifier: file}");
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	free(r.diff);
	r = run_file("x", &ac, "{verifier: file, check_weights: {size: 1}}");
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "unknown check 'size'"), "%s", r.err.msg);
	free(r.diff);
}

/* ---- flexible --------------------------------------------------------------------------- */

Test(checks, flexible_partial_credit_as_pattern_1)
{
	expect("Hello World", "Hello World", "{verifier: flexible}", true, 1.0, "null");
	expect("Hello World", "  hello world\n", "{verifier: flexible}", true, 1.0,
	       "\"✓ Match (case-insensitive)\"");
	expect("Hello World", "  hello world\n", "{verifier: flexible, normalized_credit: 0.9}",
	       true, 0.9, NULL);
	expect("Hello World", "Greeting: Hello World!", "{verifier: flexible}", true, 0.8,
	       "\"✓ Contains expected\"");
	expect("Hello World", "Greeting: Hello World!", "{verifier: flexible, contains: false}",
	       false, 0, NULL);
	expect("Hello World", "HELLO WORLD", "{verifier: flexible, ignore_case: false}", false, 0,
	       "\"No match:\\n--- expected\\n+++ actual\\n@@ -1 +1 @@\\n-Hello World\\n"
	       "+HELLO WORLD\\n\"");
	/* the texts as the author wrote them (stripped, not case-folded), each ending with
	 * a newline: no "\\ No newline" for what strip took */
	expect("\"Goodbye\\nWorld\\n\"", "  HELLO\nworld\n", "{verifier: flexible}", false, 0,
	       "\"No match:\\n--- expected\\n+++ actual\\n@@ -1,2 +1,2 @@\\n-Goodbye\\n-World\\n"
	       "+HELLO\\n+world\\n\"");
	/* Pattern 1 lowers (str.lower), it does not casefold: ß is not ss here */
	expect("straße", "STRASSE", "{verifier: flexible}", false, 0, NULL);
	refused("x", "x", "{verifier: flexible, contains_credit: 2}", "between 0 and 1");
}

/* Issue #17: flexible returns Pattern 1's (is_correct, weight) for the same texts. */
Test(checks, flexible_weights_are_pattern_1s)
{
	struct res r;

	/* equal after strip and lower -> True, 1.0 */
	r = run("Hello World", "  hello world\n", "{verifier: flexible}");
	cr_assert(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	free(r.diff);
	/* exp_clean in act_clean -> True, 0.8 (scaling the entry's weight) */
	r = run("Hello World", "Greeting: Hello World!", "{verifier: flexible}");
	cr_assert(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 0.8, 1e-12);
	free(r.diff);
	r = run("Hello World", "Greeting: Hello World!", "{verifier: flexible, weight: 2}");
	cr_assert_float_eq(r.v.weight, 1.6, 1e-12);
	free(r.diff);
	/* containment is case-sensitive, as `in` is: no case folding before it */
	r = run("Hello World", "Greeting: HELLO WORLD!", "{verifier: flexible}");
	cr_assert_not(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	free(r.diff);
	/* an empty expected text is in every text, as in the pattern */
	r = run("''", "anything", "{verifier: flexible}");
	cr_assert(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 0.8, 1e-12);
	free(r.diff);
}

/*
 * Pattern 1 ignores case with str.lower(), not casefold (pairs from Python 3.11):
 * 'straße'.lower() != 'STRASSE'.lower() (casefold makes them equal); 'ΟΔΟΣ'.lower() is 'οδος'
 * (a final sigma); 'İ'.lower() is 'i' + U+0307.
 */
Test(checks, flexible_lowers_as_python_does)
{
	struct res r;

	r = run("straße", "STRASSE", "{verifier: flexible}");
	cr_assert_not(r.v.is_correct, "lower() keeps ß: no match (casefold would say equal)");
	free(r.diff);
	r = run("ΟΔΟΣ", "οδος", "{verifier: flexible}");
	cr_assert(r.v.is_correct);
	cr_assert_float_eq(r.v.weight, 1.0, 1e-12);
	free(r.diff);
	r = run("ΟΔΟΣ", "οδοσ", "{verifier: flexible}");
	cr_assert_not(r.v.is_correct, "a final capital sigma lowers to ς, not σ");
	free(r.diff);
	r = run("İ", "i\u0307", "{verifier: flexible}");
	cr_assert(r.v.is_correct);
	free(r.diff);
}

/* ---- diff strategies -------------------------------------------------------------------- */

Test(checks, diff_strategies_of_verification_md)
{
	const char *e = "\"a\\nb\\nc\\n\"", *a = "a\nB\nc\nd\n";

	expect(e, a, "{verifier: text, diff: simple}", false, -1,
	       "\"Expected:\\na\\nb\\nc\\n\\n\\nActual:\\na\\nB\\nc\\nd\\n\"");
	expect(e, a, "{verifier: text, diff: lines}", false, -1,
	       "\"Line 2: 'b' != 'B'\\nLine count: expected 3, got 4\"");
	expect(e, a, "{diff: visual}", false, -1, "\"  a\\n- b\\n+ B\\n  c\\n+ d\"");
	expect(e, a, "{diff: unified}", false, -1,
	       "\"--- expected\\n+++ actual\\n@@ -1,3 +1,4 @@\\n a\\n-b\\n+B\\n c\\n+d\\n\"");
	expect(e, a, "{diff: structural}", false, -1,
	       "{\"values_changed\": {\"root\": {\"new_value\": \"a\\nB\\nc\\nd\\n\", \"old_value\": "
	       "\"a\\nb\\nc\\n\", \"diff\": \"--- \\n+++ \\n@@ -1,3 +1,4 @@\\n a\\n-b\\n+B\\n c\\n+d\"}}}");
	/* a structural verifier keeps its own diff under structural; text strategies show JSON */
	expect("{a: 1}", "{\"a\": 2}", "{verifier: json, diff: structural}", false, -1,
	       "{\"values_changed\": {\"root['a']\": {\"new_value\": 2, \"old_value\": 1}}}");
	expect("{a: 1}", "{\"a\": 2}", "{verifier: json, diff: simple}", false, -1,
	       "\"Expected:\\n{\\n  \\\"a\\\": 1\\n}\\n\\nActual:\\n{\\\"a\\\": 2}\"");
	/* correct attributes keep their diff */
	expect("x", "x", "{diff: simple}", true, -1, "null");
	refused("x", "y", "{diff: fancy}", "option 'diff' must be simple, lines, unified");
}

/* ---- the verification budget's time ------------------------------------------------------ */

/*
 * A line diff (text, file, flexible, the unified strategy) stops at the attribute's deadline as
 * the readers do: the attribute fails with the reason and `budget` set.
 */
Test(checks, line_diffs_stop_at_the_budgets_time)
{
	static const struct {
		const char *attribute, *options, *expected;
	} c[] = {
		{ "output", "{verifier: text}", NULL },
		{ "output", "{verifier: exact}", NULL },
		{ "output", "{verifier: flexible}", NULL },
		{ "output", "{verifier: contains, diff: unified}", "zzz" },
		{ "files-out/r.txt", "{verifier: file}", NULL },
	};
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT;

	for (int i = 0; i < 20000; i++) {
		assay_buf_addf(&e, "%d\n", i);
		assay_buf_addf(&a, "%d\n", i * 7);
	}
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		assay_value ex = c[k].expected ? assay_value_strz(A, c[k].expected)
					       : assay_value_string(A, e.ptr, e.len);
		assay_value opts = y(c[k].options);
		assay_actual ac = { ASSAY_ACTUAL_BYTES, a.ptr, a.len, false, 0, 0 };
		/* CLOCK_MONOTONIC 1.0: the machine's first second, long past */
		assay_verify_call call = { "g", "c", c[k].attribute, &ex, &ac, &opts, A, 1.0 };
		assay_verification v = ASSAY_VERIFICATION_INIT;
		assay_err err = ASSAY_ERR_INIT;
		assay_buf d = ASSAY_BUF_INIT;

		cr_assert_eq(assay_verify_attribute(&v, &call, &err), 0, "%s: %s", c[k].options,
			     err.msg);
		assay_json_write(&d, &v.diff, 0);
		cr_expect_not(v.is_correct, "%s", c[k].options);
		cr_expect(v.budget, "%s: %.200s", c[k].options, d.ptr);
		cr_expect(strstr(d.ptr, "verification budget (time)"), "%s: %.200s", c[k].options,
			  d.ptr);
		/* and without a deadline the diff is made */
		call.deadline = 0;
		v = (assay_verification)ASSAY_VERIFICATION_INIT;
		assay_buf_reset(&d);
		cr_assert_eq(assay_verify_attribute(&v, &call, &err), 0);
		assay_json_write(&d, &v.diff, 0);
		cr_expect_not(v.budget, "%s", c[k].options);
		cr_expect(strstr(d.ptr, "@@ -"), "%s: %.200s", c[k].options, d.ptr);
		assay_buf_release(&d);
	}
	assay_buf_release(&e);
	assay_buf_release(&a);
}

/* `diff: structural` past the verification budget's memory fails the attribute with the
 * reason, as the json verifier does, instead of keeping a report cut anywhere. */
Test(checks, structural_diff_strategy_stops_at_the_budgets_memory)
{
	assay_arena *small = assay_arena_new(256 * 1024);
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT;

	for (int i = 0; i < 20000; i++) {
		assay_buf_addf(&e, "line %d\n", i);
		assay_buf_addf(&a, "line %d\n", -i);
	}
	assay_value ex = assay_value_string(small, e.ptr, e.len);
	assay_value opts = vt_yaml(small, "{verifier: text, diff: structural}");
	assay_actual ac = { ASSAY_ACTUAL_BYTES, a.ptr, a.len, false, 0, 0 };
	assay_verify_call call = { "g", "c", "output", &ex, &ac, &opts, small, 0 };
	assay_verification v = ASSAY_VERIFICATION_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_buf d = ASSAY_BUF_INIT;

	cr_assert_eq(assay_verify_attribute(&v, &call, &err), 0, "%s", err.msg);
	assay_json_write(&d, &v.diff, 0);
	cr_expect_not(v.is_correct);
	cr_expect(v.budget, "%.200s", d.ptr);
	cr_expect(strstr(d.ptr, "within the verification budget"), "%.200s", d.ptr);
	assay_buf_release(&d);
	assay_buf_release(&e);
	assay_buf_release(&a);
	assay_arena_free(small);
}
