/**
 * @file shard.h
 * Scale-out: one suite run as N shards on N machines (Slurm job arrays, Kubernetes Indexed
 * Jobs, anything), then merged into one run.
 * Spec: docs/scale-out.md; docs/cli.md (`--shard`, `assay merge`).
 *
 * The split is deterministic and needs no coordination: every shard loads the same suite and
 * selection, computes the whole assignment, and keeps its own part. A unit of the split is a
 * case, or a whole group whose cases depend on each other (`isolated: false`: one working
 * folder; any group of an adapter with `serial_groups`, the api adapter: one server). Units are
 * placed longest first (their durations in an earlier run, else one per case) on the least
 * loaded shard, ties broken by a hash of their names, so shards are balanced and the result
 * does not depend on the machine. Each shard's results folder records which shard of which
 * suite and split it holds, and each case's place in the unsharded run order, so that
 * assay_merge_shards() rebuilds the run an unsharded `assay run` would have written.
 */
#ifndef ASSAY_SHARD_H
#define ASSAY_SHARD_H

#include "run.h"
#include "suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which shard: `index` of `count`, 1-based (`--shard 2/3` is {2, 3}). */
typedef struct assay_shard {
	size_t index; /**< 1 .. count */
	size_t count; /**< >= 1 */
} assay_shard;

/** The most shards a run may be split into. */
#define ASSAY_SHARD_MAX 100000
/** The most cases a run `assay merge` merges may have (what a shard's store says is bounded). */
#define ASSAY_MERGE_MAX_CASES 100000000

/**
 * Reads a shard from `text`: "I/N" (1 <= I <= N), "auto" or "auto/N". `auto` takes the shard
 * from the environment (looked up with `getenv_fn`, so tests can give their own):
 * - Slurm job arrays: SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN and
 *   SLURM_ARRAY_TASK_STEP (absent: 1); I = (ID - MIN) / STEP + 1, N = COUNT. An array that is
 *   not an evenly stepped range (`--array=1,4,9`) is refused.
 * - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (0-based), I = index + 1; N from "auto/N",
 *   else ASSAY_SHARD_COUNT (Kubernetes gives no variable holding `completions`).
 * With "auto/N" and Slurm, N must equal SLURM_ARRAY_TASK_COUNT.
 * @param getenv_fn NULL for getenv()
 * @return 0, or ASSAY_EINVALID with a message saying what to write instead (a 0-based index,
 *         I > N, N > ASSAY_SHARD_MAX, no shard in the environment, a count missing)
 */
ASSAY_EXTERN int assay_shard_parse(assay_shard *out, const char *text,
				   const char *(*getenv_fn)(const char *name), assay_err *err);

/** Durations of an earlier run's cases, by `checkpoint/group/id` (opaque). */
typedef struct assay_shard_durations assay_shard_durations;

/**
 * Reads the `duration` (seconds) of every line of a reports.jsonl: `path` is the file, or a
 * results folder holding one (DIR/reports.jsonl). Lines without a usable duration are skipped.
 * @param out receives the table (free with assay_shard_durations_free)
 * @return 0; ASSAY_ENOTFOUND (no such file or folder), ASSAY_EPARSE (a line that is not JSON:
 *         its line number), ASSAY_EIO
 */
ASSAY_EXTERN int assay_shard_durations_read(assay_shard_durations **out, const char *path,
					    assay_err *err);

/** The number of cases with a duration. */
ASSAY_EXTERN size_t assay_shard_durations_count(const assay_shard_durations *d);

/** Frees the table. NULL is allowed. */
ASSAY_EXTERN void assay_shard_durations_free(assay_shard_durations *d);

/** A unit of the split (assay_shard_assign). */
typedef struct assay_shard_unit {
	const char *name;  /**< unique: `checkpoint/group/id`, or `checkpoint/group` for a group
			        kept whole */
	double weight;     /**< > 0: seconds, or a number of cases */
} assay_shard_unit;

/**
 * The split itself: gives each of `n` units a shard in 1..`count` (`out[i]` for units[i]).
 * Units are placed heaviest first (equal weights: by FNV-1a hash of the name, then by name)
 * on the shard with the least weight so far (equal: the lowest number). The result depends
 * only on the units' names and weights, not on their order in `units` nor on the machine.
 * Equal weights spread evenly: shard sizes differ by at most one unit.
 */
ASSAY_EXTERN void assay_shard_assign(const assay_shard_unit *units, size_t n, size_t count,
				     size_t *out);

/** What assay_suite_shard() kept, for the shard's results (assay_sink_shard_new). */
typedef struct assay_shard_plan {
	assay_shard shard;
	size_t total;        /**< cases of the selection before the split (the merged run's) */
	size_t *positions;   /**< for each case kept, in run order: its 1-based place in the
				  unsharded run order */
	size_t npositions;   /**< cases kept (the suite's ncases now) */
	double weight;       /**< this shard's weight (seconds with durations, else cases) */
	double weight_all;   /**< every shard's together */
	char split[65];      /**< SHA-256 of the whole assignment and the suite's checkpoints and
				  groups: shards made with another selection or other durations
				  differ here */
	char suite_hash[65]; /**< assay_suite_hash() of the suite split */
	assay_strvec whole;  /**< `checkpoint/group` of each group kept whole (`isolated: false`,
				  or of a `serial_groups` adapter),
				  in suite order: with the cases' places, what lets `assay merge`
				  remake the fingerprint `split` */
	char cases_hash[65]; /**< SHA-256 over every case of the selection (before the split), in
				  run order, with the SHA-256 of its case file: shards run on
				  copies of the suite whose case files differ differ here */
} assay_shard_plan;

#define ASSAY_SHARD_PLAN_INIT { { 0, 0 }, 0, NULL, 0, 0, 0, "", "", ASSAY_STRVEC_INIT, "" }

/**
 * Splits the loaded (and already selected) `suite` and keeps only the cases of `shard`: the
 * other case references are freed and the groups' and suite's counts updated; checkpoints and
 * groups stay, even when left without cases (summary.json keeps them). Groups with
 * `isolated: false`, and every group of an adapter with `serial_groups` (suite->adapter), stay
 * whole in one shard. Every case file of the selection is read once for the plan's
 * `cases_hash`.
 * @param durations NULL (every case weighs one), or an earlier run's durations: a case without
 *                  one weighs the mean of those found (one second when none is)
 * @param plan      receives what was kept (release with assay_shard_plan_release)
 * @return 0; ASSAY_EINVALID (shard.index not in 1..shard.count); ASSAY_ENOTFOUND or
 *         ASSAY_EIO (suite.yaml cannot be read for its hash); the suite is unchanged on error
 */
ASSAY_EXTERN int assay_suite_shard(assay_suite *suite, const assay_shard *shard,
				   const assay_shard_durations *durations, assay_shard_plan *plan,
				   assay_err *err);

/** Frees what a plan holds and returns it to ASSAY_SHARD_PLAN_INIT. */
ASSAY_EXTERN void assay_shard_plan_release(assay_shard_plan *plan);

/**
 * The `shard` object a shard's results record (in the store's run description and in
 * summary.json): {index, count, cases (the unsharded total), split, suite_hash, whole (the
 * groups kept whole, "checkpoint/group"), cases_hash}. Made in `a`.
 */
ASSAY_EXTERN assay_value assay_shard_plan_value(const assay_shard_plan *plan, assay_arena *a);

/**
 * A sink passing everything to `inner` (the results store's, store.h) as the shard's place in
 * the whole run: each case's `index` becomes its position in the unsharded run order (found by
 * its group and id in the suite given to `on_begin`, so cases may finish in any order) and
 * `total` the unsharded count, and the summary gets the `shard` object
 * (assay_shard_plan_value) in a copy (the caller's summary is not changed). `inner` and `plan` are borrowed and must outlive the sink; freeing
 * the sink does not free `inner`.
 * @return 0
 */
ASSAY_EXTERN int assay_sink_shard_new(assay_sink *out, assay_sink *inner,
				      const assay_shard_plan *plan);

/** What assay_merge_shards() does. */
typedef struct assay_merge_opts {
	const char *const *dirs; /**< the shards' results folders */
	size_t ndirs;
	const char *output;      /**< the merged results folder: made whole in a temporary folder
				      beside it, then renamed into place; an existing `output` must
				      be a results folder (it is replaced) or empty */
	size_t value_cap;        /**< report lines carry values up to this many bytes (0: the
				      default of report.h; SIZE_MAX: never cut) */
	const assay_value *arguments; /**< the merge's command line for the run description, or
					   NULL */
	assay_sink *sinks;       /**< more sinks fed the merged run (a terminal report), or NULL */
	size_t nsinks;
	const char *suite;       /**< the suite folder the shards ran (required: NULL is
				      ASSAY_EINVALID): it must be the suite.yaml they ran; each
				      case's file is hashed again, and each case verified again from
				      it */
} assay_merge_opts;

/**
 * Merges the results folders of every shard of one sharded run into one results folder, as
 * the unsharded run would have written it: the results store (assay.db: every case with its
 * attributes, blobs and case-file hash), reports.jsonl in the run's order and summary.json
 * with the same aggregates (summary.h), `duration` being the sum of the shards'.
 * The shards must be complete runs (`--resume` completes one) of the same suite.yaml (suite
 * hash), split the same way (count, selection, durations) and together hold each shard
 * exactly once and each case exactly once.
 * @param summary_out NULL, or receives the merged counts
 * A shard's word is checked, not trusted (docs/scale-out.md, "What a merge checks"): counts
 * are bounded, no case may be held twice, the split's fingerprint is remade from the cases the
 * shards hold, each blob must hash to its name, each case file of `suite` is hashed again and
 * each case verified again from it and the actual values its shard recorded, by the runner's
 * code (assay_case_report_build): a verdict, score, expected value, is_correct, weight or
 * attribute score the shard states otherwise is refused; every store must be a plain assay
 * store (store.h).
 * @return 0; ASSAY_ENOTFOUND (a folder holds no results); ASSAY_EINVALID (a folder is not a
 *         shard, did not finish, or the set is wrong: a shard missing or given twice, shards of
 *         different suites, counts or splits, a case missing or in two shards; the message
 *         names the folders; or a shard does not hold what it says: a case held twice or not
 *         where the split placed it, a verdict or result re-verification does not make, no
 *         `suite`, a forged blob,
 *         other case files, an absurd count, a store that is not a plain assay store); ASSAY_EBUSY (`output` is being written by another assay);
 *         ASSAY_ESTORE, ASSAY_EIO. On error `output` is left as it was.
 */
ASSAY_EXTERN int assay_merge_shards(const assay_merge_opts *opts, assay_tally *summary_out,
				    assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
