/*
 * The flexible verifier (verification.md, Pattern 1, "Flexible Matching"), returning what the
 * pattern returns for the same texts: both stripped; equal after lower() -> correct,
 * weight 1.0; the stripped expected text inside the stripped actual one (case-sensitive, as
 * `exp_clean in act_clean` is) -> correct, weight 0.8; anything else -> incorrect, weight 1.0.
 * Spec: verification.md Pattern 1; issue #17 item 1.
 *
 * Key decisions:
 * - The pattern's weights scale the verify entry's `weight` (default 1.0, so by default they
 *   are the pattern's own): a contained match weighs 0.8 x weight in calculate_score.
 * - `normalized_credit` (default 1.0) and `contains_credit` (default 0.8) are assay's partial
 *   credit (`case.partial`), shown beside the verdict; they never change the case score. An
 *   exact byte match has credit 1.0.
 * - Ignoring case is Python's str.lower() on both texts, as the pattern does (not casefold,
 *   which the text verifier uses: "straße" and "STRASSE" are equal folded, not lowered).
 * - `strip: false`, `ignore_case: false` and `contains: false` turn a step off.
 * - An empty expected text is contained in every text, as in the pattern: such a case matches
 *   any output, and the loader warns about it (case_load.c).
 * - On failure, the diff is the unified diff of the texts as written (stripped when `strip` is
 *   on, each then ending with one newline; never lowered: the author reads back what they
 *   wrote), made within the verification budget (assay_verify__udiff).
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
		assay_pytext__lower(out, s, n);
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
		out->partial = 1.0;
	} else {
		assay_buf tw = ASSAY_BUF_INIT, sw = ASSAY_BUF_INIT, sa = ASSAY_BUF_INIT;

		normalise(&tw, e.ptr, e.len, strip, fold);
		normalise(&t, got, glen, strip, fold);
		normalise(&sw, e.ptr, e.len, strip, false);
		normalise(&sa, got, glen, strip, false);
		if (tw.len == t.len && !memcmp(tw.ptr, t.ptr, t.len)) {
			out->is_correct = true;
			out->partial = ncredit;
			out->diff = assay_value_strz(a, "✓ Match (case-insensitive)");
		} else if (contains && (!sw.len || memmem(sa.ptr, sa.len, sw.ptr, sw.len))) {
			out->is_correct = true;
			out->weight *= 0.8;
			out->partial = ccredit;
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
			struct assay_verify__texts texts = { .e = tw.ptr, .elen = tw.len,
							     .a = t.ptr, .alen = t.len,
							     .la = "expected", .lb = "actual" };

			if (assay_verify__udiff(out, call, &d, &texts))
				assay_verify__fail(out,
						   assay_verify__text(a, d.ptr, d.len, DIFF_CAP));
			out->partial = 0;
			assay_buf_release(&d);
		}
		assay_buf_release(&tw);
		assay_buf_release(&sw);
		assay_buf_release(&sa);
	}
	assay_buf_release(&scratch);
	assay_buf_release(&e);
	assay_buf_release(&t);
	return 0;
}

const assay_verifier assay_verifier_flexible = { "flexible", verify_flexible,
						 flexible_options };
