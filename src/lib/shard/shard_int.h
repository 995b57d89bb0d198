/*
 * Internals of the shard module (src/lib/shard), shared by its files. Never installed.
 */
#ifndef ASSAY_SHARD_INT_H
#define ASSAY_SHARD_INT_H

#include <stdint.h>

#include "assay/shard.h"
#include "util/sha256.h"

/* FNV-1a, 64 bits, of the NUL-terminated `s`: the same on every machine, for the split's order
 * only (tables use the keyed util/hash.h). */
static inline uint64_t assay_shard__hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h;
}

/* The duration of `checkpoint/group/id`, or a negative number when the table has none. */
double assay_shard__duration(const assay_shard_durations *d, const char *name);
/* The mean of every duration in the table (0 when empty). */
double assay_shard__duration_mean(const assay_shard_durations *d);

/*
 * The split's fingerprint (assay_shard_plan.split), made by the split and remade by the merge
 * from the cases the shards hold: begun with the suite's hash, the count and the suite's
 * checkpoints and groups (names and types, in order), then each unit in run order (its name and
 * shard) followed by the ids of the cases it covers, in order.
 */
void assay_shard__print_begin(assay_sha256_ctx *h, const char *suite_hash, size_t count,
			      const assay_suite *suite);
void assay_shard__print_unit(assay_sha256_ctx *h, const char *name, size_t where);
void assay_shard__print_case(assay_sha256_ctx *h, const char *id);
/*
 * The digest of the case files of a selection (assay_shard_plan.cases_hash): begun, then each
 * case in run order with the SHA-256 of its file ("" when it has none or cannot be read).
 */
void assay_shard__cases_begin(assay_sha256_ctx *h);
void assay_shard__cases_add(assay_sha256_ctx *h, const char *cp, const char *g, const char *id,
			    const char *file_hash);

/* Where a case is in a suite: case `k` of group `ig` of checkpoint `icp`. */
struct shard_case_at {
	size_t icp, ig, k;
};

/*
 * Case `at` of `suite`, verified again from its case file and the actual values of the
 * shard's report line `line` (reverify.c): 0 with `line`'s results, case, score, passed and
 * error remade (in `a`) and the verdict in `verdict` (its error is the line's error text, NULL when
 * none), or ASSAY_EINVALID when the shard's verdict or results are not what re-verification
 * makes (what differs in `err`).
 */
struct assay_suite;
struct assay_verdict;
int assay_shard__reverify(assay_value *line, struct assay_verdict *verdict,
			  const struct assay_suite *suite, struct shard_case_at at, assay_arena *a,
			  assay_err *err);

#endif
