/*
 * The json and jsonl verifiers: parse the actual value, compare it structurally with the
 * expected one (assay_json_diff) and report deepdiff's vocabulary as the diff.
 * Spec: suite-format.md "Verifiers (built in)"; verification.md (VerificationResult.diff).
 *
 * Key decisions:
 * - Expected: a string is JSON text (json) or JSON Lines text (jsonl) and is parsed; a string
 *   that does not parse is a refusal (ASSAY_EINVALID naming expected.<attribute>), since the
 *   suite is wrong, not the submission. Anything else YAML produced (mapping, list, number,
 *   bool, null) is the expected value as it is; for jsonl it must be a list (the lines' values).
 * - Actual: bytes are parsed (jsonl: line by line, skip_invalid drops bad lines); a status code
 *   or a time compares as a JSON number; a file that was not produced fails with "file was not
 *   produced". Actual text that is not JSON fails with "<attribute> is not valid JSON: line L,
 *   column C: <jansson's message>", never an error of assay.
 * - The diff is {} when equal (as deepdiff), else deepdiff's object; is_correct is "empty diff".
 * - A regex_paths pattern that does not compile is a refusal, like a bad option.
 *
 * Refuses to: guess JSON inside other text (leading log lines make the output invalid JSON).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/verify.h"
#include "json/json_int.h"
#include "util/banned.h"

static const char *const json_options[] = {
	"ignore_order", "abs_tol", "rel_tol", "exclude_paths", "ignore_extra_keys", "sort_by",
	"regex_paths", NULL,
};
static const char *const jsonl_options[] = {
	"ignore_order", "abs_tol", "rel_tol", "exclude_paths", "ignore_extra_keys", "sort_by",
	"regex_paths", "skip_invalid", NULL,
};

static const char TRUNCATED_NOTE[] = " (actual output was truncated at its cap)";

static const char *attr_name(const assay_verify_call *call)
{
	return call->attribute ? call->attribute : "output";
}

static int load_expected(json_t **out, const assay_verify_call *call, bool lines, assay_err *err)
{
	const json_t *ex = call->expected;
	assay_err pe = ASSAY_ERR_INIT;

	*out = NULL;
	if (!ex)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "expected %s is missing",
				     attr_name(call));
	if (json_is_string(ex) && !assay_json_is_bignum(ex)) {
		const char *s = json_string_value(ex);
		size_t n = json_string_length(ex);
		int rc = lines ? assay_json_parse_lines(out, s, n, false, NULL, &pe)
			       : assay_json_parse(out, s, n, NULL, &pe);

		if (rc)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "expected.%s is not valid %s: line %d, column %d: %s",
					     attr_name(call), lines ? "JSON Lines" : "JSON", pe.line,
					     pe.column, pe.msg);
		return 0;
	}
	if (lines && !json_is_array(ex))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be JSON Lines text or a list of values",
				     attr_name(call));
	*out = json_incref((json_t *)ex);
	return 0;
}

static void fail_text(assay_verification *out, const assay_buf *msg)
{
	json_decref(out->diff);
	out->diff = assay_json_string_lossy(msg->ptr, msg->len);
	out->is_correct = false;
}

/* The actual value as JSON, or NULL after filling `out` with the failure. */
static json_t *load_actual(assay_verification *out, const assay_verify_call *call, bool lines,
			   bool skip_invalid)
{
	const assay_actual *a = call->actual;
	assay_buf msg = ASSAY_BUF_INIT;
	assay_err pe = ASSAY_ERR_INIT;
	json_t *v = NULL;
	int rc;

	switch (a ? a->kind : ASSAY_ACTUAL_MISSING) {
	case ASSAY_ACTUAL_MISSING:
		assay_buf_adds(&msg, "file was not produced");
		break;
	case ASSAY_ACTUAL_INT:
		v = json_integer(a->integer);
		break;
	case ASSAY_ACTUAL_REAL:
		if (isfinite(a->real))
			v = json_real(a->real);
		else
			assay_buf_addf(&msg, "%s is not a finite number", attr_name(call));
		break;
	case ASSAY_ACTUAL_BYTES:
		rc = lines ? assay_json_parse_lines(&v, a->bytes, a->len, skip_invalid, NULL, &pe)
			   : assay_json_parse(&v, a->bytes, a->len, NULL, &pe);
		if (rc) {
			assay_buf_addf(&msg, "%s is not valid %s: line %d, column %d: %s",
				       attr_name(call), lines ? "JSON Lines" : "JSON", pe.line,
				       pe.column, pe.msg);
			if (a->truncated)
				assay_buf_adds(&msg, TRUNCATED_NOTE);
		}
		break;
	}
	if (v && lines && !json_is_array(v)) {
		/* a number: the one line of its text */
		json_t *arr = json_array();

		json_array_append_new(arr, v);
		v = arr;
	}
	if (!v)
		fail_text(out, &msg);
	assay_buf_release(&msg);
	return v;
}

static int verify(assay_verification *out, const assay_verify_call *call, bool lines,
		  assay_err *err)
{
	assay_json_diff_opts opts = ASSAY_JSON_DIFF_OPTS_INIT;
	json_t *expected = NULL, *actual = NULL, *diff;
	const json_t *skip;
	bool skip_invalid = false;
	assay_err re = ASSAY_ERR_INIT;
	int rc;

	if ((rc = assay_json_diff_opts_parse(&opts, call->options, err)))
		return rc;
	skip = lines ? json_object_get(call->options, "skip_invalid") : NULL;
	if (skip && !json_is_boolean(skip)) {
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				   "option 'skip_invalid' must be true or false");
		goto out;
	}
	skip_invalid = json_is_true(skip);
	if ((rc = load_expected(&expected, call, lines, err)))
		goto out;
	if (!(actual = load_actual(out, call, lines, skip_invalid)))
		goto out;
	diff = assay_json__diff_ex(expected, actual, &opts, &re);
	if (re.code) {
		json_decref(diff);
		rc = assay_err_set(err, re.code, NULL, 0, 0, "%s", re.msg);
		goto out;
	}
	json_decref(out->diff);
	out->diff = diff;
	out->is_correct = json_object_size(diff) == 0;
out:
	json_decref(expected);
	json_decref(actual);
	assay_json_diff_opts_release(&opts);
	return rc;
}

static int verify_json(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	return verify(out, call, false, err);
}

static int verify_jsonl(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	return verify(out, call, true, err);
}

const assay_verifier assay_verifier_json = { "json", verify_json, json_options };
const assay_verifier assay_verifier_jsonl = { "jsonl", verify_jsonl, jsonl_options };
