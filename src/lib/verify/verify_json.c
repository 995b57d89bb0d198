/*
 * The json and jsonl verifiers: parse the actual value, compare it structurally with the
 * expected one (assay_diff) and report deepdiff's vocabulary as the diff.
 * Spec: suite-format.md "Verifiers (built in)"; verification.md (VerificationResult.diff).
 *
 * Key decisions:
 * - Expected: a string is JSON text (json) or JSON Lines text (jsonl) and is parsed; a string
 *   that does not parse is a refusal (ASSAY_EINVALID naming expected.<attribute>), since the
 *   suite is wrong, not the submission. Any other value is the expected value as it is; for
 *   jsonl it must be a list (the lines' values).
 * - Actual: bytes are parsed into the call's arena without copying their strings (the report
 *   lives no longer than the captured bytes), and its containers equal to the expected
 *   value's at the same path share the expected's storage (the report lives no longer than
 *   the expected value either): a large output that mostly matches costs little memory of its
 *   own. A status code or a time compares as a number; a
 *   file that was not produced fails with "file was not produced"; empty output fails with
 *   "<attribute> is empty"; text that is not JSON fails with Python's message and position,
 *   never an error of assay.
 * - The verification budget: parsing stops when the call's arena passes its limit, the diff
 *   when the deadline passes; the attribute then fails with that reason (budget set) and the
 *   run goes on.
 * - The diff is {} when equal (as deepdiff), else deepdiff's object; is_correct is "nothing
 *   reported". With `weights`, the score is the weighted share of correct parts (partial
 *   credit); max_diffs adds "assay_note" when it cut the report short.
 * - A regex_paths pattern that does not compile is a refusal (ASSAY_EINVALID), found where the
 *   diff reports its path changed: the diff itself has no way to say so.
 *
 * Refuses to: guess JSON inside other text (leading log lines make the output invalid JSON).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "assay/diff.h"
#include "assay/json.h"
#include "assay/verify.h"
#include "json/json_lib.h"
#include "verify/verify_int.h"
#include "util/banned.h"

/* one list of the diff's options (diff.h): a copy here once lacked one the diff reads */
static const char *const json_options[] = { ASSAY_DIFF_OPTION_NAMES, NULL };
static const char *const jsonl_options[] = { ASSAY_DIFF_OPTION_NAMES, "skip_invalid", NULL };

static const char *attr_name(const assay_verify_call *call)
{
	return call->attribute ? call->attribute : "output";
}

static int load_expected(assay_value *out, const assay_verify_call *call, bool lines,
			 assay_err *err)
{
	const assay_value *ex = call->expected;
	assay_err pe = ASSAY_ERR_INIT;

	if (!ex)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "expected %s is missing",
				     attr_name(call));
	if (ex->kind == ASSAY_V_STRING) {
		int rc = lines ? assay_json_parse_lines(out, call->arena, ex->u.s, ex->len, false,
							NULL, &pe)
			       : assay_json_parse(out, call->arena, ex->u.s, ex->len, NULL, &pe);

		if (rc)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "expected.%s is not valid %s: line %d, column %d: %s",
					     attr_name(call), lines ? "JSON Lines" : "JSON", pe.line,
					     pe.column, pe.msg);
		return 0;
	}
	if (lines && ex->kind != ASSAY_V_ARRAY)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be JSON Lines text or a list of values",
				     attr_name(call));
	*out = *ex;
	return 0;
}

static void fail(assay_verification *out, assay_value msg)
{
	out->diff = msg;
	out->is_correct = false;
}

static bool blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
			return false;
	return true;
}

/* The actual value, or false after filling `out` with the failure. Its containers equal to
 * their counterparts in `expected` share their storage (json_lib.h): most of a large output
 * that matches costs no memory of its own. */
static bool load_actual(assay_value *v, assay_verification *out, const assay_verify_call *call,
			bool lines, bool skip_invalid, const assay_value *expected)
{
	const assay_actual *a = call->actual;
	assay_arena *ar = call->arena;
	assay_json_opts jo = ASSAY_JSON_OPTS_INIT;
	assay_err pe = ASSAY_ERR_INIT;
	int rc;

	switch (a ? a->kind : ASSAY_ACTUAL_MISSING) {
	case ASSAY_ACTUAL_MISSING:
		fail(out, assay_value_strz(ar, assay_verify__missing(call)));
		return false;
	case ASSAY_ACTUAL_INT:
		*v = assay_value_int(a->integer);
		break;
	case ASSAY_ACTUAL_REAL:
		*v = assay_value_real(a->real);
		break;
	case ASSAY_ACTUAL_BYTES:
		if (!lines && blank(a->bytes, a->len)) {
			fail(out, assay_value_stringf(ar, "%s is empty%s", attr_name(call),
						      a->len ? " (white space only)" : ""));
			return false;
		}
		jo.borrow = true;
		rc = lines ? assay_json_parse_lines(v, ar, a->bytes, a->len, skip_invalid, &jo, &pe)
			   : assay_json__parse_like(v, ar, a->bytes, a->len, &jo, expected, &pe);
		if (rc == ASSAY_ETOOBIG) {
			out->budget = true;
			if (assay_arena_expired(ar))
				fail(out, assay_value_stringf(ar,
							      "%s could not be read within the "
							      "verification budget (time)",
							      attr_name(call)));
			else /* the parser's stacks, charged while it ran, count too */
				fail(out, assay_value_stringf(ar,
							      "%s is too large to verify within the "
							      "verification budget: %s",
							      attr_name(call), pe.msg));
			return false;
		}
		if (rc) {
			fail(out, assay_value_stringf(ar, "%s is not valid %s: line %d, column %d: "
							  "%s%s",
						      attr_name(call), lines ? "JSON Lines" : "JSON",
						      pe.line, pe.column, pe.msg,
						      a->truncated ? " (actual output was truncated "
								     "at its cap)"
								   : ""));
			return false;
		}
		break;
	}
	if (lines && v->kind != ASSAY_V_ARRAY) {
		/* a number: the one line of its text */
		assay_value arr = assay_value_array();

		assay_array_push(ar, &arr, *v);
		*v = arr;
	}
	return true;
}

/*
 * A regex_paths pattern that does not compile matches nothing, so the diff reports the string
 * at its path as changed: refuse it instead, naming the path (a suite bug, docs/decisions.md).
 * The flags are the diff's, so a pattern that compiles here is one the diff matched with.
 */
static int check_patterns(const assay_diff_opts *opts, const assay_value *diff, assay_err *err)
{
	const assay_value *changed = assay_object_get(diff, "values_changed");

	for (size_t i = 0; changed && i < opts->nregex_paths; i++) {
		const assay_value *pat = assay_object_get(
			assay_object_get(changed, opts->regex_paths[i]), "old_value");
		pcre2_code *code;
		PCRE2_SIZE eoff;
		int ecode;

		if (!pat || pat->kind != ASSAY_V_STRING)
			continue;
		code = pcre2_compile((PCRE2_SPTR)pat->u.s, pat->len,
				     PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &ecode, &eoff,
				     NULL);
		if (!code) {
			PCRE2_UCHAR msg[256];

			pcre2_get_error_message(ecode, msg, sizeof(msg));
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "regex_paths: the pattern at %s does not compile: %s "
					     "(at offset %zu)",
					     opts->regex_paths[i], (const char *)msg, (size_t)eoff);
		}
		pcre2_code_free(code);
	}
	return 0;
}

int assay_verify__compare(assay_verification *out, const assay_verify_call *call,
			  const assay_diff_opts *opts, const assay_value *expected,
			  const assay_value *actual, assay_err *err)
{
	assay_diff_info info;
	assay_value diff;
	int rc;

	assay_diff(&diff, call->arena, expected, actual, opts, call->deadline, &info);
	if ((rc = check_patterns(opts, &diff, err)))
		return rc;
	if (info.over_budget) {
		out->budget = true;
		fail(out, assay_value_stringf(call->arena,
					      "%s could not be compared within the verification "
					      "budget (time or memory); %zu differences found before "
					      "stopping",
					      attr_name(call), info.count));
		return 0;
	}
	if (info.truncated)
		assay_object_set(call->arena, &diff, "assay_note",
				 assay_value_stringf(call->arena,
						     "stopped at max_diffs (%lld comparison steps): "
						     "more differences may follow",
						     opts->max_diffs));
	out->diff = diff;
	out->is_correct = info.count == 0 && !info.truncated;
	if (opts->nweights)
		out->partial = info.score;
	return 0;
}

static int verify(assay_verification *out, const assay_verify_call *call, bool lines,
		  assay_err *err)
{
	assay_diff_opts opts;
	assay_value expected, actual;
	bool skip_invalid = false;
	int rc;

	if ((rc = assay_diff_opts_parse(&opts, call->arena, call->options, err)))
		return rc;
	if (lines && (rc = assay_verify_opt_bool(call->options, "skip_invalid", &skip_invalid,
						 err)))
		return rc;
	if ((rc = load_expected(&expected, call, lines, err)))
		return rc;
	if (!load_actual(&actual, out, call, lines, skip_invalid, &expected))
		return 0;
	return assay_verify__compare(out, call, &opts, &expected, &actual, err);
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
