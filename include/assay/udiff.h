/**
 * @file udiff.h
 * Unified diffs of two texts (the format of `diff -u` and Python's difflib.unified_diff), used as
 * the diff of failed text attributes. Spec: suite-format.md ("Text diffs are unified diffs").
 */
#ifndef ASSAY_UDIFF_H
#define ASSAY_UDIFF_H

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Appends to `out` the unified diff that turns `a` (`alen` bytes, the expected text) into `b`
 * (the actual text): a `--- <a_label>` / `+++ <b_label>` header, then hunks with `context` lines
 * of context (3 is usual), `@@ -l,n +l,n @@` headers as diff -u writes them, and a
 * `\ No newline at end of file` marker after a last line without '\n'. Lines are split at '\n';
 * bytes are copied as they are. Identical inputs append nothing. The line matching is a
 * minimal edit script (Myers), bounded in work: past `ASSAY_UDIFF_MAX_COST` steps it falls back to
 * a correct but non-minimal script, so a diff of huge, very different texts stays fast.
 */
#define ASSAY_UDIFF_MAX_COST 4000000
ASSAY_EXTERN void assay_udiff(assay_buf *out, const char *a, size_t alen, const char *b,
			      size_t blen, const char *a_label, const char *b_label, int context);

/**
 * assay_udiff() bounded in time as well: `deadline` is CLOCK_MONOTONIC seconds (as assay_now();
 * 0: none), read every few thousand lines and search steps (the verification budget's time
 * part, docs/decisions.md).
 * @return 0 with the diff appended, or ASSAY_ETOOBIG when the deadline passed, with `out` as it
 *         was
 */
ASSAY_EXTERN int assay_udiff_until(assay_buf *out, const char *a, size_t alen, const char *b,
				   size_t blen, const char *a_label, const char *b_label,
				   int context, double deadline);

#ifdef __cplusplus
}
#endif
#endif
