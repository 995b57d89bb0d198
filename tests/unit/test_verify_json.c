/*
 * Tests of the json and jsonl verifiers (src/lib/verify/verify_json.c), called directly: the
 * parse of actual and expected (Python's messages), the diff, empty output, the verification
 * budget (the call's arena limit and deadline), per-path weights, max_diffs, refusals.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/json.h"
#include "assay/verify.h"

static assay_arena *arena; /* the test's values */

static void arena_setup(void)
{
	arena = assay_arena_new(0);
}

static void arena_teardown(void)
{
	assay_arena_free(arena);
}

TestSuite(verify_json, .init = arena_setup, .fini = arena_teardown);

struct run {
	assay_verification v;
	assay_err err;
	int rc;
	char *diff; /* the diff written as JSON */
};

static assay_value js(const char *text)
{
	assay_value v;

	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), NULL, NULL), 0,
		     "bad test JSON %s", text);
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs `vf` with `expected`, the actual value and options given as JSON text, in `call_arena`
 * (the report's: its limit is the budget) until `deadline` (0: none). */
static struct run run_in(const assay_verifier *vf, const assay_value *expected,
			 const assay_actual *actual, const char *options, assay_arena *call_arena,
			 double deadline)
{
	struct run r = { ASSAY_VERIFICATION_INIT, ASSAY_ERR_INIT, 0, NULL };
	assay_value opts = js(options ? options : "{}");
	assay_verify_call call = { "group", "case", "output", expected, actual, &opts,
				   call_arena, deadline };
	assay_buf b = ASSAY_BUF_INIT;

	r.rc = vf->fn(&r.v, &call, &r.err);
	assay_json_write(&b, &r.v.diff, 0);
	r.diff = assay_buf_detach(&b, NULL);
	return r;
}

static struct run run_with(const assay_verifier *vf, const assay_value *expected,
			   const assay_actual *actual, const char *options)
{
	return run_in(vf, expected, actual, options, arena, 0);
}

static assay_actual bytes(const char *s)
{
	return (assay_actual){ ASSAY_ACTUAL_BYTES, s, strlen(s), false, 0, 0.0 };
}

static struct run run_bytes(const assay_verifier *vf, const char *expected_text,
			    const char *actual, const char *options)
{
	assay_value e = assay_value_strz(arena, expected_text);
	assay_actual a = bytes(actual);

	return run_with(vf, &e, &a, options);
}

static void done(struct run *r)
{
	free(r->diff);
}

Test(verify_json, names_and_options)
{
	const char *const *o;
	bool skip = false, weights = false;

	cr_assert_str_eq(assay_verifier_json.name, "json");
	cr_assert_str_eq(assay_verifier_jsonl.name, "jsonl");
	cr_assert_eq(assay_verifier_find("json"), &assay_verifier_json);
	cr_assert_eq(assay_verifier_find("jsonl"), &assay_verifier_jsonl);
	for (o = assay_verifier_json.options; *o; o++) {
		cr_expect_str_neq(*o, "skip_invalid");
		weights |= !strcmp(*o, "weights");
	}
	for (o = assay_verifier_jsonl.options; *o; o++)
		skip |= !strcmp(*o, "skip_invalid");
	cr_expect(skip);
	cr_expect(weights);
}

Test(verify_json, equal_json_passes_with_an_empty_diff)
{
	struct run r = run_bytes(&assay_verifier_json, "{\"a\": [1, 2], \"b\": 1.0}",
				 "{\"b\":1,\"a\":[1,2]}\n", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{}");
	cr_expect_float_eq(r.v.partial, -1.0, 1e-12, "no partial credit without weights");
	cr_expect_not(r.v.budget);
	done(&r);
}

Test(verify_json, different_json_fails_with_the_deepdiff)
{
	/* DeepDiff({"a": [1, 2], "b": "x"}, {"a": [1, 3], "c": None},
	 *          ignore_numeric_type_changes=True).to_json() */
	struct run r = run_bytes(&assay_verifier_json, "{\"a\": [1, 2], \"b\": \"x\"}",
				 "{\"a\": [1, 3], \"c\": null}", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{\"dictionary_item_added\": [\"root['c']\"], "
				 "\"dictionary_item_removed\": [\"root['b']\"], "
				 "\"values_changed\": {\"root['a'][1]\": "
				 "{\"new_value\": 3, \"old_value\": 2}}}");
	done(&r);
}

Test(verify_json, options_are_applied)
{
	struct run r = run_bytes(&assay_verifier_json, "[1, 2.0, {\"t\": 5}, \"x\", \"y\"]",
				 "[{\"t\": 6}, 2.001, \"y\", 1, \"x\"]",
				 "{\"ignore_order\": true, \"abs_tol\": 0.01, "
				 "\"exclude_paths\": [\"root[2]['t']\"], \"weight\": 3}");

	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_expect(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{}");
	done(&r);
}

Test(verify_json, invalid_actual_json_fails_with_pythons_message)
{
	/* json.loads('{"a": tru}'): "Expecting value: line 1 column 7 (char 6)" (jansson said
	 * "invalid token near 'tru'" at column 9) */
	struct run r = run_bytes(&assay_verifier_json, "{\"a\": true}", "{\"a\": tru}", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 1, column 7: Expecting value\"");
	done(&r);

	/* json.loads('{} trailing'): "Extra data: line 1 column 4 (char 3)" */
	r = run_bytes(&assay_verifier_json, "{}", "{} trailing", NULL);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 1, column 4: Extra data\"");
	done(&r);

	r = run_bytes(&assay_verifier_json, "{}", "{\n\"a\": 1,\n}", NULL);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 3, column 1: Expecting property "
				 "name enclosed in double quotes\"");
	done(&r);
}

Test(verify_json, empty_output_fails_as_empty)
{
	struct run r = run_bytes(&assay_verifier_json, "{}", "", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is empty\"");
	done(&r);
	r = run_bytes(&assay_verifier_json, "{}", " \n\t\r\n", NULL);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is empty (white space only)\"");
	done(&r);
	/* JSON Lines: no lines is an empty list, which may be what is expected */
	r = run_bytes(&assay_verifier_jsonl, "", "", NULL);
	cr_expect(r.v.is_correct);
	done(&r);
}

Test(verify_json, invalid_utf8_in_actual_gives_a_valid_diff_string)
{
	struct run r = run_bytes(&assay_verifier_json, "1", "\xff\xfe", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_assert_eq(r.v.diff.kind, ASSAY_V_STRING);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 1, column 1: Expecting value\"");
	done(&r);
	r = run_bytes(&assay_verifier_json, "1", "[\"\xff\"]", NULL);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 1, column 3: Invalid UTF-8 byte "
				 "in string\"");
	done(&r);
}

Test(verify_json, truncated_invalid_actual_says_so)
{
	assay_value e = js("[1, 2, 3]");
	assay_actual a = { ASSAY_ACTUAL_BYTES, "[1, 2", 5, true, 0, 0.0 };
	struct run r = run_with(&assay_verifier_json, &e, &a, NULL);

	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 1, column 6: Expecting ',' "
				 "delimiter (actual output was truncated at its cap)\"");
	done(&r);
}

Test(verify_json, missing_file_fails)
{
	assay_value e = js("{}");
	assay_actual a = { ASSAY_ACTUAL_MISSING, NULL, 0, false, 0, 0.0 };
	struct run r = run_with(&assay_verifier_json, &e, &a, NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	/* attribute "output": a missing output is an api request without an answer (a missing
	 * files-<path> says "file was not produced": test_verify_text, test_score) */
	cr_expect_str_eq(r.diff, "\"no value: nothing ran, or no answer was received\"");
	done(&r);
}

Test(verify_json, structured_expected_is_used_as_is)
{
	assay_value e = js("{\"items\": [1, 2], \"n\": 123456789012345678901234567890}");
	assay_actual a = bytes("{\"n\": 123456789012345678901234567890, \"items\": [1, 2]}");
	struct run r = run_with(&assay_verifier_json, &e, &a, NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	done(&r);

	/* a bigint expected is a number, not JSON text (the old in-band bignum string) */
	cr_assert_eq(assay_value_integer_text(&e, arena, "123456789012345678901234567891", 30), 0);
	cr_assert_eq(e.kind, ASSAY_V_BIGINT);
	r = run_with(&assay_verifier_json, &e, &a, NULL);
	cr_expect_not(r.v.is_correct);
	cr_expect(strstr(r.diff, "{\"type_changes\": {\"root\": {\"old_type\": \"int\", "
				 "\"new_type\": \"dict\"") != NULL,
		  "%s", r.diff);
	done(&r);
	/* and a string expected is JSON text */
	e = assay_value_strz(arena, "123456789012345678901234567891");
	a = bytes("123456789012345678901234567891\n");
	r = run_with(&assay_verifier_json, &e, &a, NULL);
	cr_expect(r.v.is_correct, "%s", r.diff);
	done(&r);
}

Test(verify_json, numeric_actuals_compare_as_numbers)
{
	assay_value e = assay_value_int(0);
	assay_actual a = { ASSAY_ACTUAL_INT, NULL, 0, false, 0, 0.0 };
	struct run r = run_with(&assay_verifier_json, &e, &a, NULL);

	cr_expect(r.v.is_correct);
	done(&r);
	a.integer = 2;
	r = run_with(&assay_verifier_json, &e, &a, NULL);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{\"values_changed\": {\"root\": {\"new_value\": 2, "
				 "\"old_value\": 0}}}");
	done(&r);

	e = assay_value_real(1.5);
	a = (assay_actual){ ASSAY_ACTUAL_REAL, NULL, 0, false, 0, 1.5000001 };
	r = run_with(&assay_verifier_json, &e, &a, NULL);
	cr_expect(r.v.is_correct);
	done(&r);
	/* jsonl: a number is the one line of its text */
	e = js("[7]");
	a = (assay_actual){ ASSAY_ACTUAL_INT, NULL, 0, false, 7, 0.0 };
	r = run_with(&assay_verifier_jsonl, &e, &a, NULL);
	cr_expect(r.v.is_correct, "%s", r.diff);
	done(&r);
}

Test(verify_json, expected_text_that_is_not_json_is_refused)
{
	/* json.loads('{not json'): "Expecting property name enclosed in double quotes: line 1
	 * column 2 (char 1)" */
	struct run r = run_bytes(&assay_verifier_json, "{not json", "{}", NULL);

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "expected.output is not valid JSON: line 1, column 2: "
				    "Expecting property name enclosed in double quotes");
	done(&r);
}

Test(verify_json, bad_options_are_refused)
{
	struct run r = run_bytes(&assay_verifier_json, "{}", "{}", "{\"abs_tol\": -0.5}");

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "option 'abs_tol' must be a number >= 0");
	done(&r);
	r = run_bytes(&assay_verifier_json, "{}", "{}", "{\"exclude_regex_paths\": [\"(\"]}");
	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect(strstr(r.err.msg, "exclude_regex_paths: '(' does not compile"), "%s",
		  r.err.msg);
	done(&r);
}

Test(verify_json, a_regex_that_does_not_compile_is_refused)
{
	/* docs/decisions.md: a verifier that refuses its expected value (a regex that does not
	 * compile) marks the case as an error rather than scoring it 0 */
	struct run r = run_bytes(&assay_verifier_json, "{\"v\": \"[a-\"}", "{\"v\": \"b\"}",
				 "{\"regex_paths\": {\"root['v']\": \"full\"}}");

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect(strstr(r.err.msg, "regex_paths: the pattern at root['v'] does not compile") !=
			  NULL,
		  "%s", r.err.msg);
	done(&r);

	r = run_bytes(&assay_verifier_json, "{\"v\": \"b+\"}", "{\"v\": \"bbb\"}",
		      "{\"regex_paths\": {\"root['v']\": \"full\"}}");
	cr_expect_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	done(&r);
	/* a pattern that compiles but does not match is a failed attribute */
	r = run_bytes(&assay_verifier_json, "{\"v\": \"b+\"}", "{\"v\": \"abc\"}",
		      "{\"regex_paths\": [\"root['v']\"]}");
	cr_expect_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	done(&r);
}

Test(verify_json, weights_give_partial_credit)
{
	const char *w = "{\"weights\": {\"root['name']\": 2, \"root['items']\": 1}}";
	struct run r = run_bytes(&assay_verifier_json, "{\"name\": \"x\", \"items\": [1], \"n\": 1}",
				 "{\"name\": \"x\", \"items\": [2], \"n\": 1}", w);

	/* parts: name (2), items (1), the rest (1); items differs */
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_expect_not(r.v.is_correct);
	cr_expect_float_eq(r.v.partial, 3.0 / 4.0, 1e-12);
	done(&r);
	r = run_bytes(&assay_verifier_json, "{\"name\": \"x\"}", "{\"name\": \"x\"}", w);
	cr_expect(r.v.is_correct);
	cr_expect_float_eq(r.v.partial, 1.0, 1e-12);
	done(&r);
}

Test(verify_json, max_diffs_cuts_the_report_short_and_says_so)
{
	struct run r = run_bytes(&assay_verifier_json, "{\"a\": 1, \"b\": 2, \"c\": 3}",
				 "{\"a\": 2, \"b\": 3, \"c\": 4}", "{\"max_diffs\": 3}");

	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{\"values_changed\": {\"root['a']\": {\"new_value\": 2, "
				 "\"old_value\": 1}}, \"assay_note\": \"stopped at max_diffs (3 "
				 "comparison steps): more differences may follow\"}");
	done(&r);
}

Test(verify_json, budget_memory_fails_the_attribute)
{
	assay_arena *small = assay_arena_new(64 * 1024);
	assay_buf big = ASSAY_BUF_INIT;
	assay_value e = js("[]");
	assay_actual a;
	struct run r;

	assay_buf_addch(&big, '[');
	for (int i = 0; i < 50000; i++)
		assay_buf_adds(&big, i ? ", {\"k\": \"v\"}" : "{\"k\": \"v\"}");
	assay_buf_addch(&big, ']');
	a = (assay_actual){ ASSAY_ACTUAL_BYTES, big.ptr, big.len, false, 0, 0.0 };
	r = run_in(&assay_verifier_json, &e, &a, NULL, small, 0);
	cr_assert_eq(r.rc, 0, "the budget is not an error of assay: %s", r.err.msg);
	cr_expect_not(r.v.is_correct);
	cr_expect(r.v.budget);
	cr_expect(strstr(r.diff, "\"output is too large to verify within the verification budget"),
		  "%s", r.diff);
	done(&r);
	/* the same for JSON Lines */
	for (size_t i = 0; i < big.len; i++)
		if (big.ptr[i] == ',')
			big.ptr[i] = '\n';
	a = (assay_actual){ ASSAY_ACTUAL_BYTES, big.ptr + 1, big.len - 2, false, 0, 0.0 };
	r = run_in(&assay_verifier_jsonl, &e, &a, NULL, small, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect(r.v.budget);
	done(&r);
	assay_buf_release(&big);
	assay_arena_free(small);
}

Test(verify_json, budget_time_fails_the_attribute)
{
	assay_buf ex = ASSAY_BUF_INIT, ac = ASSAY_BUF_INIT;
	assay_value e;
	assay_actual a;
	struct run r;

	assay_buf_addch(&ex, '[');
	assay_buf_addch(&ac, '[');
	for (int i = 0; i < 20000; i++) {
		assay_buf_addf(&ex, "%s[%d]", i ? ", " : "", i);
		assay_buf_addf(&ac, "%s[%d]", i ? ", " : "", -i - 1);
	}
	assay_buf_addch(&ex, ']');
	assay_buf_addch(&ac, ']');
	e = js(ex.ptr);
	a = (assay_actual){ ASSAY_ACTUAL_BYTES, ac.ptr, ac.len, false, 0, 0.0 };
	/* a deadline already passed */
	r = run_in(&assay_verifier_json, &e, &a, NULL, arena, now() - 1);
	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect(r.v.budget);
	cr_expect(strstr(r.diff, "\"output could not be compared within the verification budget "
				 "(time or memory); "),
		  "%s", r.diff);
	done(&r);
	/* in time: a full report */
	r = run_in(&assay_verifier_json, &e, &a, NULL, arena, now() + 600);
	cr_expect_not(r.v.budget);
	cr_expect_not(r.v.is_correct);
	cr_expect_eq(r.v.diff.kind, ASSAY_V_OBJECT);
	done(&r);
	assay_buf_release(&ex);
	assay_buf_release(&ac);
}

/*
 * jsonl
 */

Test(verify_json, jsonl_equal_lines_pass)
{
	struct run r = run_bytes(&assay_verifier_jsonl, "{\"a\": 1}\n{\"a\": 2}\n",
				 "{\"a\":1}\r\n\n{\"a\":2}", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{}");
	done(&r);
}

Test(verify_json, jsonl_line_count_mismatch_fails)
{
	struct run r = run_bytes(&assay_verifier_jsonl, "{\"a\": 1}\n{\"a\": 2}\n", "{\"a\":1}\n",
				 NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{\"iterable_item_removed\": {\"root[1]\": {\"a\": 2}}}");
	done(&r);
}

Test(verify_json, jsonl_invalid_line_fails_unless_skipped)
{
	/* the 2nd line of the text; json.loads('not json'): "Expecting value: line 1 column 1" */
	struct run r = run_bytes(&assay_verifier_jsonl, "{\"a\": 1}", "{\"a\":1}\nnot json\n", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON Lines: line 2, column 1: "
				 "Expecting value\"");
	done(&r);

	r = run_bytes(&assay_verifier_jsonl, "{\"a\": 1}", "{\"a\":1}\nnot json\n",
		      "{\"skip_invalid\": true}");
	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	done(&r);

	r = run_bytes(&assay_verifier_jsonl, "{\"a\": 1}", "{\"a\":1}", "{\"skip_invalid\": 1}");
	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "option 'skip_invalid' must be true or false");
	done(&r);
}

Test(verify_json, jsonl_structured_expected_list)
{
	assay_value e = js("[{\"id\": 2}, {\"id\": 1}]");
	assay_actual a = bytes("{\"id\": 1}\n{\"id\": 2}\n");
	struct run r = run_with(&assay_verifier_jsonl, &e, &a, "{\"sort_by\": [\"id\"]}");

	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	done(&r);

	e = js("{\"id\": 1}");
	r = run_with(&assay_verifier_jsonl, &e, &a, NULL);
	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "expected.output must be JSON Lines text or a list of values");
	done(&r);
}

Test(verify_json, jsonl_expected_text_with_a_bad_line_is_refused)
{
	/* json.loads('[3'): "Expecting ',' delimiter: line 1 column 3 (char 2)", on line 3 */
	struct run r = run_bytes(&assay_verifier_jsonl, "1\n2\n[3\n", "1\n2\n", NULL);

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "expected.output is not valid JSON Lines: line 3, column 3: "
				    "Expecting ',' delimiter");
	done(&r);
}

Test(verify_json, through_the_framework_the_weight_is_read)
{
	assay_value e = js("{\"a\": 1}");
	assay_value opts = js("{\"verifier\": \"json\", \"weight\": 2.5, \"ignore_order\": true}");
	assay_actual a = bytes("{\"a\": 1}");
	assay_verify_call call = { "g", "c", "output", &e, &a, &opts, arena, 0 };
	assay_verification v = ASSAY_VERIFICATION_INIT;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_verify_attribute(&v, &call, &err), 0, "%s", err.msg);
	cr_expect(v.is_correct);
	cr_expect_float_eq(v.weight, 2.5, 1e-12);
	/* an option of jsonl is not one of json */
	opts = js("{\"verifier\": \"json\", \"skip_invalid\": true}");
	cr_assert_eq(assay_verify_attribute(&v, &call, &err), ASSAY_EINVALID);
	cr_expect(strstr(err.msg, "unknown option 'skip_invalid' for verifier 'json'"), "%s",
		  err.msg);
}
