/**
 * @file run.h
 * Running a loaded suite: adapters execute cases in working folders, verifiers judge the
 * attributes, and every finished case is handed to the report sinks as it finishes.
 * Spec: suite-format.md ("A case (cli adapter)", "Scoring and passing", "What a run writes");
 * verification.md (VerifierReport, AttributeResult, calculate_score, did_pass).
 *
 * Flow: assay_run_suite() walks checkpoints -> groups -> cases in order; for each case it makes
 * the working folder, asks the adapter to run it (assay_case_result), verifies the expected
 * attributes (assay_verify_attribute), builds the report and calls every sink's `on_case`.
 */
#ifndef ASSAY_RUN_H
#define ASSAY_RUN_H

#include <jansson.h>

#include "buf.h"
#include "proc.h"
#include "suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A file collected from the working folder after a case ran. */
typedef struct assay_result_file {
	char *path;     /**< relative to the working folder */
	assay_buf content;
	bool present;   /**< false: expected but not produced (or not a regular file) */
	bool truncated; /**< larger than the capture cap */
} assay_result_file;

/** CaseResult: what running one case produced (owned by the struct). */
typedef struct assay_case_result {
	int status_code;          /**< exit status; -1 timed out; -N killed by signal N; 127 could
				       not start */
	assay_buf output;         /**< stdout */
	assay_buf stderr_text;    /**< stderr */
	assay_result_file *files;
	size_t nfiles;
	assay_proc_result proc;   /**< how the process ended, times, peak RSS */
	char *error;              /**< how the run ended abnormally ("timed out after 2 seconds",
				       "cannot run 'x': ..."; the latter also on stderr_text), or
				       NULL */
} assay_case_result;

/** Frees everything in `r` and zeroes it. */
ASSAY_EXTERN void assay_case_result_release(assay_case_result *r);

/** What the runner passes an adapter: the resolved settings of the run. */
typedef struct assay_run_ctx {
	const assay_suite *suite;
	const assay_checkpoint *checkpoint;
	const assay_group *group;
	const assay_strvec *command;  /**< argv prefix (adapter.command or --entry) */
	const char *submission;       /**< absolute folder copied into working folders, or NULL */
	size_t out_cap;               /**< bytes kept of stdout/stderr/each file */
	size_t err_cap;
	double kill_grace_s;
	volatile int *stop;           /**< non-NULL and set: abandon the case (kill it) and return
					   ASSAY_EINTERRUPTED */
} assay_run_ctx;

/**
 * An adapter: runs cases of one kind (cli: a program per case; api: a server per group).
 * `group_begin` runs before the first case of a group (the api adapter starts its server there),
 * `run_case` runs one case in `workdir` (already holding the submission, the case folder's
 * files/ and its input files) and fills `out`, `group_end` after the last case.
 * A case that fails, times out or cannot start is not an error: it is data in `out`. The
 * functions return an error code only when assay itself cannot go on (ASSAY_ESPAWN, ASSAY_EIO),
 * or ASSAY_EINTERRUPTED when `ctx->stop` was set while the case ran (it was killed and has no
 * result). Whatever it returns, no process the case started survives `run_case`.
 */
typedef struct assay_adapter {
	const char *name;
	int (*group_begin)(void **state, const assay_run_ctx *ctx, assay_err *err);
	int (*run_case)(void *state, const assay_run_ctx *ctx, const assay_case *c,
			const char *workdir, assay_case_result *out, assay_err *err);
	void (*group_end)(void *state);
} assay_adapter;

/** The cli adapter (suite-format.md, "A case (cli adapter)"). */
ASSAY_EXTERN extern const assay_adapter assay_adapter_cli;

/** One finished case, as handed to sinks. Everything is borrowed for the call. */
typedef struct assay_case_report {
	const assay_checkpoint *checkpoint;
	const assay_group *group;
	const assay_case *kase;
	const assay_case_result *result; /**< NULL if the case could not be loaded */
	/** The reports.jsonl line: VerifierReport fields plus checkpoint, score, passed. */
	const json_t *json;
	double score;     /**< calculate_score(): weighted mean of verified attributes */
	bool passed;      /**< did_pass(): every verified attribute correct (false on error) */
	const char *error; /**< the case could not be loaded, run or verified: why; else NULL */
	bool replayed;    /**< taken from an earlier run's reports (resume), not run now */
	size_t index;     /**< 1-based position of the case in the run */
	size_t total;     /**< cases in the run */
} assay_case_report;

/** Counts for one checkpoint and group type (summary.json). */
typedef struct assay_tally {
	size_t passed;
	size_t total;
	size_t errors;
	double score_sum;
} assay_tally;

/** The run's aggregate, handed to sinks at the end. */
typedef struct assay_run_summary {
	const assay_suite *suite;
	json_t *json;        /**< summary.json's object (owned by the runner) */
	assay_tally total;
	double wall_s;       /**< seconds the run took */
	bool interrupted;    /**< stopped early (SIGINT/SIGTERM): not every case ran */
} assay_run_summary;

/**
 * A report sink: where finished cases go (reports.jsonl is the first; JUnit, TAP, a results
 * store come later). Every callback may be NULL. A non-zero return from a callback stops the run
 * with that error (a sink that cannot write must not lose results silently).
 */
typedef struct assay_sink {
	void *payload;
	int (*on_begin)(void *payload, const assay_suite *suite, size_t total, assay_err *err);
	int (*on_case)(void *payload, const assay_case_report *report, assay_err *err);
	int (*on_end)(void *payload, const assay_run_summary *summary, assay_err *err);
	void (*free)(void *payload);
	/** A case is about to run (`index` 1-based of `total`); may be NULL. */
	void (*on_start)(void *payload, const assay_checkpoint *checkpoint,
			 const assay_group *group, const assay_case *kase, size_t index,
			 size_t total);
} assay_sink;

typedef struct assay_run_opts {
	const char *entry;        /**< shell-split command overriding adapter.command, or NULL */
	const char *submission;   /**< folder overriding every submission setting, or NULL */
	const char *work_root;    /**< folder under which working folders are made (NULL: $TMPDIR) */
	bool keep;                /**< keep working folders after the run */
	size_t out_cap;           /**< stdout and file capture cap, bytes (0: 64 MiB) */
	size_t err_cap;           /**< stderr capture cap, bytes (0: 64 MiB) */
	double kill_grace_s;      /**< SIGTERM -> SIGKILL grace on timeout, seconds (>= 0;
				       ASSAY_RUN_OPTS_INIT: 1) */
	assay_sink *sinks;        /**< borrowed array */
	size_t nsinks;
	volatile int *stop;       /**< if non-NULL and set non-zero (a signal handler sets it),
				       the running case is killed within 200 ms and left
				       unreported, and the run ends with summary.interrupted */
	const json_t *previous;   /**< resume: reports of cases already finished, keyed by
				       assay_report_key(); they are replayed, not run */
} assay_run_opts;

#define ASSAY_RUN_OPTS_INIT { .kill_grace_s = 1.0 }

/**
 * The key of a case in `assay_run_opts.previous`: checkpoint, group and id joined by '\n'
 * (caller frees).
 */
ASSAY_EXTERN char *assay_report_key(const char *checkpoint, const char *group, const char *id);

/**
 * Runs every case of `suite` (as loaded, so already filtered) in order, reporting each to the
 * sinks as it finishes, then the summary. Cases that fail, time out, cannot start or could not
 * be loaded are results, not errors.
 * @param summary_out NULL, or receives the counts (passed/total) of the run
 * @return 0 when the run completed (whatever the verdicts); ASSAY_EINVALID (no command for a
 *         cli suite, a missing submission folder, an api suite: not supported yet),
 *         ASSAY_EIO/ASSAY_ESPAWN (working folders or processes could not be made), or a sink's
 *         error; details in `err`
 */
ASSAY_EXTERN int assay_run_suite(const assay_suite *suite, const assay_run_opts *opts,
				 assay_tally *summary_out, assay_err *err);

/**
 * Verifies one case result against the case's expectations and builds its report object
 * (verification.md, VerifierReport.from_verifier_result): every attribute of actual and expected
 * appears in `results`; those not expected have is_correct null and weight 0.
 * @param out_json   receives the new report object (caller json_decref()s): id, group, type,
 *                   timestamp, duration, results, case, original_checkpoint, original_group
 * @param score_out  receives calculate_score() (0 when nothing was verified)
 * @param passed_out receives did_pass()
 * @param error_out  receives a malloc'd message when a verifier refused its options or expected
 *                   value (the case then fails), else NULL
 * @return 0 (never fails: verifier problems are results)
 */
ASSAY_EXTERN int assay_case_report_build(json_t **out_json, double *score_out, bool *passed_out,
					 char **error_out, const assay_group *group,
					 const assay_case *c, const assay_case_result *r,
					 double duration_s);

/**
 * The report object for a case that could not be loaded or run: each expected attribute (or
 * one attribute named "error" when none is known) failed with `message` as its diff.
 */
ASSAY_EXTERN json_t *assay_case_report_error(const assay_group *group, const assay_case *c,
					     const char *message, double duration_s);

#ifdef __cplusplus
}
#endif
#endif
