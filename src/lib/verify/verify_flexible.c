/*
 * The flexible verifier (verification.md, Pattern 1, "Flexible Matching"): an exact match
 * earns full credit, a match after stripping and case-folding earns `normalized_credit`, an
 * actual text that merely contains the expected one earns `contains_credit`; anything else
 * fails. Spec: issue #7 section 2 ("Flexible matching with partial credit: exact -> 1.0, after
 * strip/case-folding -> a configurable weight, contained -> another").
 *
 * Key decisions:
 * - Credit is the attribute's score (partial credit: it counts score * weight in the case
 *   score), not its weight: the pattern lowers the weight of a correct result, which in a case
 *   of one attribute changes nothing (0.8 / 0.8 is still 1). Each level still passes, as in
 *   the pattern. Defaults are the pattern's: normalized_credit 1.0, contains_credit 0.8.
 * - Normalising is Python's str.strip() (`strip`, default true) then str.casefold()
 *   (`ignore_case`, default true), as the text verifier does them; containment (`contains`,
 *   default true) is tested on the normalised texts, expected in actual.
 * - An empty expected text (after normalising) earns no containment credit: every text
 *   contains it. The loader warns about such a case (case_load.c).
 * - The diff says which level matched ("✓ Match after normalising", "✓ Contains expected");
 *   null for an exact match; on failure, the unified diff of the texts as written (stripped
 *   when `strip` is on, each then ending with one newline; never case-folded: the author
 *   reads back what they wrote).
 */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "assay/buf.h"
#include "assay/udiff.h"
#include "value/pytext_int.h"
#include "verify/verify_int.h"
#include "util/banned.h"

#define DIFF_CAP (64 * 1024)

static const char *const flexible_options[] = {
	"strip", "ignore_case", "contains", "normalized_credit", "contains_credit", NULL,
};

static void normalise(assay_buf *out, const char *s, size_t n, bool strip, bool fold)
{
	size_t k;

	while (strip && n && (k = assay_pytext__space(s, n))) {
		s += k;
		n -= k;
	}
	while (strip && n && (k = assay_pytext__space_before(s, n)))
		n -= k;
	assay_buf_reset(out);
	if (fold)
		assay_pytext__casefold(out, s, n);
	else
		assay_buf_add(out, s, n);
}

static int verify_flexible(assay_verification *out, const assay_verify_call *call,
			   assay_err *err)
{
	assay_arena *a = call->arena;
	bool strip = true, fold = true, contains = true;
	double ncredit = 1.0, ccredit = 0.8;
	assay_buf scratch = ASSAY_BUF_INIT, e = ASSAY_BUF_INIT, t = ASSAY_BUF_INIT;
	const char *want, *got;
	size_t wlen, glen;
	int rc;

	if ((rc = assay_verify_opt_bool(call->options, "strip", &strip, err)) ||
	    (rc = assay_verify_opt_bool(call->options, "ignore_case", &fold, err)) ||
	    (rc = assay_verify_opt_bool(call->options, "contains", &contains, err)) ||
	    (rc = assay_verify_opt_number(call->options, "normalized_credit", 0, &ncredit, err)) ||
	    (rc = assay_verify_opt_number(call->options, "contains_credit", 0, &ccredit, err)))
		return rc;
	if (ncredit > 1 || ccredit > 1)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "normalized_credit and contains_credit must be between 0 and 1");
	if ((rc = assay_verify_expected_text(&want, &wlen, call->expected, &scratch,
					     assay_verify__attr(call), err))) {
		assay_buf_release(&scratch);
		return rc;
	}
	assay_buf_add(&e, want, wlen); /* scratch is reused for the actual text */
	got = assay_verify__actual_text(call->actual, &scratch, &glen);
	if (!got) {
		assay_verify__fail(out, assay_value_strz(a, assay_verify__missing(call)));
	} else if (glen == e.len && !memcmp(got, e.ptr, glen)) {
		out->is_correct = true;
		out->score = 1.0;
	} else {
		assay_buf tw = ASSAY_BUF_INIT;

		normalise(&tw, e.ptr, e.len, strip, fold);
		normalise(&t, got, glen, strip, fold);
		if (tw.len == t.len && !memcmp(tw.ptr, t.ptr, t.len)) {
			out->is_correct = true;
			out->score = ncredit;
			out->diff = assay_value_strz(a, "✓ Match after normalising (strip, case)");
		} else if (contains && tw.len && memmem(t.ptr, t.len, tw.ptr, tw.len)) {
			/* (every text contains the empty one: no credit for that) */
			out->is_correct = true;
			out->score = ccredit;
			out->diff = assay_value_strz(a, "✓ Contains expected");
		} else {
			assay_buf d = ASSAY_BUF_INIT;

			/* the texts as written (stripped when that is on), not case-folded: the
			 * author reads back what they wrote */
			normalise(&tw, e.ptr, e.len, strip, false);
			normalise(&t, got, glen, strip, false);
			if (strip) { /* both lost their last newline: no "\ No newline" */
				if (tw.len)
					assay_buf_addch(&tw, '\n');
				if (t.len)
					assay_buf_addch(&t, '\n');
			}
			assay_buf_adds(&d, "No match:\n");
			if (assay_verify__udiff(out, call, &d, tw.ptr, tw.len, t.ptr, t.len,
						"expected", "actual"))
				assay_verify__fail(out,
						   assay_verify__text(a, d.ptr, d.len, DIFF_CAP));
			out->score = 0;
			assay_buf_release(&d);
		}
		assay_buf_release(&tw);
	}
	assay_buf_release(&scratch);
	assay_buf_release(&e);
	assay_buf_release(&t);
	return 0;
}

const assay_verifier assay_verifier_flexible = { "flexible", verify_flexible,
						 flexible_options };
