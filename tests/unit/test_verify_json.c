/*
 * Tests of the json and jsonl verifiers (src/lib/verify/verify_json.c), called directly.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/verify.h"

struct run {
	assay_verification v;
	assay_err err;
	int rc;
	char *diff; /* the diff dumped as JSON */
};

static json_t *js(const char *text)
{
	json_t *v = NULL;

	cr_assert_eq(assay_json_parse(&v, text, strlen(text), "test", NULL), 0, "bad test JSON %s",
		     text);
	return v;
}

/* Runs `vf` with `expected` (borrowed), the actual value and options given as JSON text. */
static struct run run_with(const assay_verifier *vf, const json_t *expected,
			   const assay_actual *actual, const char *options)
{
	struct run r = { ASSAY_VERIFICATION_INIT, ASSAY_ERR_INIT, 0, NULL };
	json_t *opts = js(options ? options : "{}");
	assay_verify_call call = { "group", "case", "output", expected, actual, opts };
	assay_buf b = ASSAY_BUF_INIT;

	r.rc = vf->fn(&r.v, &call, &r.err);
	if (r.v.diff)
		assay_json_dump(&b, r.v.diff, 0);
	r.diff = assay_buf_detach(&b, NULL);
	json_decref(opts);
	return r;
}

static struct run run_bytes(const assay_verifier *vf, const char *expected_text,
			    const char *actual, const char *options)
{
	json_t *e = json_string(expected_text);
	assay_actual a = { ASSAY_ACTUAL_BYTES, actual, strlen(actual), false, 0, 0.0 };
	struct run r = run_with(vf, e, &a, options);

	json_decref(e);
	return r;
}

static void done(struct run *r)
{
	json_decref(r->v.diff);
	free(r->diff);
}

Test(verify_json, names_and_options)
{
	const char *const *o;
	bool skip = false;

	cr_assert_str_eq(assay_verifier_json.name, "json");
	cr_assert_str_eq(assay_verifier_jsonl.name, "jsonl");
	for (o = assay_verifier_json.options; *o; o++)
		cr_expect_str_neq(*o, "skip_invalid");
	for (o = assay_verifier_jsonl.options; *o; o++)
		skip |= !strcmp(*o, "skip_invalid");
	cr_expect(skip);
}

Test(verify_json, equal_json_passes_with_an_empty_diff)
{
	struct run r = run_bytes(&assay_verifier_json, "{\"a\": [1, 2], \"b\": 1.0}",
				 "{\"b\":1,\"a\":[1,2]}\n", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{}");
	done(&r);
}

Test(verify_json, different_json_fails_with_the_deepdiff)
{
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
	struct run r = run_bytes(&assay_verifier_json, "[1, 2.0, {\"t\": 5}]",
				 "[{\"t\": 6}, 2.001, 1]",
				 "{\"ignore_order\": true, \"abs_tol\": 0.01, "
				 "\"exclude_paths\": [\"root[2]['t']\"], \"weight\": 3}");

	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_expect(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{}");
	done(&r);
}

Test(verify_json, invalid_actual_json_fails_with_a_message)
{
	struct run r = run_bytes(&assay_verifier_json, "{\"a\": true}", "{\"a\": tru}", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff,
			 "\"output is not valid JSON: line 1, column 9: invalid token near 'tru'\"");
	done(&r);

	r = run_bytes(&assay_verifier_json, "{}", "{} trailing", NULL);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 1, column 11: "
				 "end of file expected near 'trailing'\"");
	done(&r);
}

Test(verify_json, invalid_utf8_in_actual_gives_a_valid_diff_string)
{
	struct run r = run_bytes(&assay_verifier_json, "1", "\xff\xfe", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_assert(json_is_string(r.v.diff));
	cr_expect(strncmp(r.diff, "\"output is not valid JSON: line 1, column ", 42) == 0, "%s",
		  r.diff);
	done(&r);
}

Test(verify_json, truncated_invalid_actual_says_so)
{
	json_t *e = js("[1, 2, 3]");
	assay_actual a = { ASSAY_ACTUAL_BYTES, "[1, 2", 5, true, 0, 0.0 };
	struct run r = run_with(&assay_verifier_json, e, &a, NULL);

	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON: line 1, column 5: ']' expected near "
				 "end of file (actual output was truncated at its cap)\"");
	done(&r);
	json_decref(e);
}

Test(verify_json, missing_file_fails)
{
	json_t *e = js("{}");
	assay_actual a = { ASSAY_ACTUAL_MISSING, NULL, 0, false, 0, 0.0 };
	struct run r = run_with(&assay_verifier_json, e, &a, NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"file was not produced\"");
	done(&r);
	json_decref(e);
}

Test(verify_json, structured_expected_is_used_as_is)
{
	json_t *e = js("{\"items\": [1, 2], \"n\": 123456789012345678901234567890}");
	assay_actual a = { ASSAY_ACTUAL_BYTES, "{\"n\": 123456789012345678901234567890, "
					       "\"items\": [1, 2]}",
			   0, false, 0, 0.0 };
	struct run r;

	a.len = strlen(a.bytes);
	r = run_with(&assay_verifier_json, e, &a, NULL);
	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	done(&r);
	json_decref(e);

	/* a bignum expected (a string inside) is a number, not JSON text */
	e = assay_json_bignum("123456789012345678901234567891");
	r = run_with(&assay_verifier_json, e, &a, NULL);
	cr_expect_not(r.v.is_correct);
	cr_expect(strstr(r.diff, "\"type_changes\": {\"root\": {\"old_type\": \"int\", "
				 "\"new_type\": \"dict\"") != NULL,
		  "%s", r.diff);
	done(&r);
	json_decref(e);
}

Test(verify_json, numeric_actuals_compare_as_numbers)
{
	json_t *e = json_integer(0);
	assay_actual a = { ASSAY_ACTUAL_INT, NULL, 0, false, 0, 0.0 };
	struct run r = run_with(&assay_verifier_json, e, &a, NULL);

	cr_expect(r.v.is_correct);
	done(&r);
	a.integer = 2;
	r = run_with(&assay_verifier_json, e, &a, NULL);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "{\"values_changed\": {\"root\": {\"new_value\": 2, "
				 "\"old_value\": 0}}}");
	done(&r);
	json_decref(e);

	e = json_real(1.5);
	a = (assay_actual){ ASSAY_ACTUAL_REAL, NULL, 0, false, 0, 1.5000001 };
	r = run_with(&assay_verifier_json, e, &a, NULL);
	cr_expect(r.v.is_correct);
	done(&r);
	json_decref(e);
}

Test(verify_json, expected_text_that_is_not_json_is_refused)
{
	struct run r = run_bytes(&assay_verifier_json, "{not json", "{}", NULL);

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "expected.output is not valid JSON: line 1, column 4: "
				    "string or '}' expected near 'not'");
	done(&r);
}

Test(verify_json, bad_options_are_refused)
{
	struct run r = run_bytes(&assay_verifier_json, "{}", "{}", "{\"abs_tol\": -0.5}");

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "option 'abs_tol' must be a number >= 0");
	done(&r);
}

Test(verify_json, a_regex_that_does_not_compile_is_refused)
{
	struct run r = run_bytes(&assay_verifier_json, "{\"v\": \"[a-\"}", "{\"v\": \"b\"}",
				 "{\"regex_paths\": {\"root['v']\": \"full\"}}");

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect(strstr(r.err.msg, "does not compile") != NULL, "%s", r.err.msg);
	done(&r);

	r = run_bytes(&assay_verifier_json, "{\"v\": \"b+\"}", "{\"v\": \"bbb\"}",
		      "{\"regex_paths\": {\"root['v']\": \"full\"}}");
	cr_expect_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	done(&r);
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
	struct run r = run_bytes(&assay_verifier_jsonl, "{\"a\": 1}", "{\"a\":1}\nnot json\n", NULL);

	cr_assert_eq(r.rc, 0);
	cr_expect_not(r.v.is_correct);
	cr_expect_str_eq(r.diff, "\"output is not valid JSON Lines: line 2, column 3: "
				 "invalid token near 'not'\"");
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
	json_t *e = js("[{\"id\": 2}, {\"id\": 1}]");
	assay_actual a = { ASSAY_ACTUAL_BYTES, "{\"id\": 1}\n{\"id\": 2}\n", 0, false, 0, 0.0 };
	struct run r;

	a.len = strlen(a.bytes);
	r = run_with(&assay_verifier_jsonl, e, &a, "{\"sort_by\": [\"id\"]}");
	cr_assert_eq(r.rc, 0);
	cr_expect(r.v.is_correct);
	done(&r);
	json_decref(e);

	e = js("{\"id\": 1}");
	r = run_with(&assay_verifier_jsonl, e, &a, NULL);
	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "expected.output must be JSON Lines text or a list of values");
	done(&r);
	json_decref(e);
}

Test(verify_json, jsonl_expected_text_with_a_bad_line_is_refused)
{
	struct run r = run_bytes(&assay_verifier_jsonl, "1\n2\n[3\n", "1\n2\n", NULL);

	cr_expect_eq(r.rc, ASSAY_EINVALID);
	cr_expect_str_eq(r.err.msg, "expected.output is not valid JSON Lines: line 3, column 2: "
				    "']' expected near end of file");
	done(&r);
}
