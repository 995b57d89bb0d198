/**
 * @file summary.h
 * The run's aggregate (summary.json): counts of passed, total and error cases and the sum of
 * scores per checkpoint, per group type and per group, made by adding finished cases one by
 * one. The runner and `assay merge` (shard.h) build summary.json with this same code, so a
 * merged run adds up exactly as the unsharded run would have.
 * Spec: suite-format.md "What a run writes"; docs/cli.md (summary.json).
 */
#ifndef ASSAY_SUMMARY_H
#define ASSAY_SUMMARY_H

#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The counts of one run (opaque). */
typedef struct assay_tallies assay_tallies;

/**
 * Empty counts for the checkpoints and groups of `suite` (borrowed: it must outlive the
 * tallies; only its name, checkpoints, groups and their types are read). Never NULL.
 */
ASSAY_EXTERN assay_tallies *assay_tallies_new(const assay_suite *suite);

/**
 * Counts one finished case: `checkpoint` and `group` index suite->checkpoints and that
 * checkpoint's groups; `r` gives passed, score and error (an error case counts in `errors`).
 * A case that did not pass is added to the summary's `failed` list, in the order of the calls.
 */
ASSAY_EXTERN void assay_tallies_add(assay_tallies *t, size_t checkpoint, size_t group,
				    const assay_case_report *r);

/** The counts over every case added so far. */
ASSAY_EXTERN assay_tally assay_tallies_total(const assay_tallies *t);

/**
 * The summary.json object, made in `a`: suite, duration (`wall_s` seconds), interrupted,
 * totals, unrun_case_files (assay_suite's), checkpoints (each with types and groups: passed, total, pass_rate, errors,
 * mean_score), failed, work_dir when `work_dir` is not NULL, and SlopCodeBench's policies
 * (assay_summary_add_policies, render.h).
 */
ASSAY_EXTERN assay_value assay_tallies_summary(const assay_tallies *t, assay_arena *a,
					       double wall_s, bool interrupted,
					       const char *work_dir);

/** Frees the counts. NULL is allowed. */
ASSAY_EXTERN void assay_tallies_free(assay_tallies *t);

#ifdef __cplusplus
}
#endif
#endif
