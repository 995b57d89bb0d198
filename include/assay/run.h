/**
 * @file run.h
 * Running a loaded suite: each case is loaded, run by the suite's adapter in a working folder,
 * its attributes verified, and its report handed to the sinks as it finishes.
 * Spec: suite-format.md ("Scoring and passing", "What a run writes"); verification.md
 * (VerifierReport, AttributeResult, calculate_score, did_pass).
 *
 * Flow: assay_run_suite() walks checkpoints -> groups -> cases in run order and keeps up to
 * `jobs` cases running at once, all driven by one poll() loop over the adapters' non-blocking
 * interface (adapter.h; no thread per case). For each case it loads the case
 * (assay_case_load), makes the working folder, starts it through the adapter, verifies the
 * expected attributes (assay_case_report_build) once it ends, and hands the report to the
 * sinks: at once to those marked `any_order`, and to the others in run order (finished reports
 * wait for the cases before them), so their output is the same whatever `jobs` is.
 * The cases of a group with `isolated: false` (one shared folder), and of every group of an
 * adapter with `serial_groups` (a server per group), run one after another in run order, as one
 * unit ("lane"); the cases of other groups run in any order across the slots.
 * The library changes no process-wide state: no signal dispositions, no subreaper; everything
 * a case starts is contained by the process layer (proc.h).
 */
#ifndef ASSAY_RUN_H
#define ASSAY_RUN_H

#include "adapter.h"
#include "model.h"
#include "sink.h"
#include "suite.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Verification budget defaults (docs/decisions.md, "Verifying and scoring"): per attribute. */
#define ASSAY_VERIFY_MEMORY_DEFAULT (512u * 1024 * 1024)
#define ASSAY_VERIFY_SECONDS_DEFAULT 60.0

typedef struct assay_run_opts {
	const char *entry;        /**< shell-split command overriding adapter.command, or NULL */
	const char *submission;   /**< folder overriding every submission setting, or NULL */
	const char *work_root;    /**< folder under which working folders are made (NULL: $TMPDIR) */
	bool keep;                /**< keep working folders after the run */
	long long scratch_bytes;  /**< > 0 (and not `keep`): the run's root (its working and
				       temporary folders) is a tmpfs of this many bytes and
				       `scratch_inodes` files and folders, mounted on it by the
				       library and detached at the end. The caller must have put
				       the process in a mount namespace of its own that does not
				       propagate to the host (the CLI does: docs/security.md
				       "Working folders"). A mount that fails is not an error: the
				       root stays a plain folder. 0: none */
	long long scratch_inodes; /**< with scratch_bytes: the tmpfs's nr_inodes (0: 1,000,000) */
	bool no_case_servers;     /**< every case under a supervisor of its own instead of on a
				       case server of the run (proc.h assay_proc_servers): the same
				       results, for comparing the two (the CLI's ASSAY_CASE_SERVER) */
	size_t out_cap;           /**< stdout and file capture cap, bytes (0: 64 MiB) */
	size_t err_cap;           /**< stderr capture cap, bytes (0: 64 MiB) */
	double kill_grace_s;      /**< SIGTERM -> SIGKILL grace on timeout, seconds (>= 0;
				       ASSAY_RUN_OPTS_INIT: 1) */
	size_t verify_memory;     /**< verification budget per case, bytes (0: the default) */
	double verify_seconds;    /**< verification budget per attribute, seconds (0: default) */
	assay_sink *sinks;        /**< borrowed array */
	size_t nsinks;
	volatile int *stop;       /**< if non-NULL and set non-zero (a signal handler sets it),
				       every running case is killed within 200 ms and left
				       unreported, finished cases are all reported, and the run
				       ends with summary.interrupted */
	size_t jobs;              /**< cases run at once (0: 1) */
	double earlier_s;         /**< seconds that earlier invocations of a resumed run took:
				       added to the summary's duration (0: a new run) */
	bool fail_fast;           /**< after the first case that did not pass (replayed ones
				       aside) no case is started; the cases already running end
				       and are reported (--exitfirst) */
	/**
	 * Resume: finds the report of a case finished by an earlier run, which is then replayed
	 * (handed to the sinks as `replayed`), not run. `case_file` is the case's file now (a
	 * result of an older version of it should not count). Returns 1 with the report in `*out`
	 * (made in `a`, which lives until the report is emitted), 0 when the case has none, or a
	 * negative error code (with `err`) that stops the run. NULL: run every case.
	 * assay_store_previous() (store.h) is one.
	 */
	int (*previous)(void *payload, const char *checkpoint, const char *group, const char *id,
			const char *case_file, assay_arena *a, assay_value *out, assay_err *err);
	void *previous_payload;
	assay_warn_fn warn;       /**< warnings met while loading cases, or NULL */
	void *warn_payload;
	int sandbox;              /**< -1 (ASSAY_RUN_OPTS_INIT): the suite's adapter.sandbox; else
				       an assay_sandbox_mode (suite.h) that overrides it */
	int network;              /**< -1: the suite's adapter.network; 0: off; 1: on */
	const char *const *pass_env;   /**< NULL, or NULL-terminated fnmatch() patterns: variables
					    of assay's environment cases also get (they get PATH,
					    LANG, HOME (their working folder) and TMPDIR (a private
					    folder) and the suite's env otherwise) */
	const char *const *hide_paths; /**< NULL, or NULL-terminated folders cases must never read
					    even when below a readable one (a results folder);
					    the suite's folder is always hidden */
} assay_run_opts;

#define ASSAY_RUN_OPTS_INIT { .kill_grace_s = 1.0, .sandbox = -1, .network = -1 }

/**
 * Runs every case of `suite` (as loaded, so already filtered), up to opts->jobs at once,
 * reporting each to the sinks (run.h's flow above), then the summary. With opts->previous
 * (resume), a group with `isolated: false`, or any group of an adapter with `serial_groups`, is
 * replayed only when every one of its cases has a result; otherwise the whole group runs again
 * (its cases depend on each other's files or server state). Cases that fail, time out, cannot
 * start or could not be loaded are results, not errors.
 * @param summary_out NULL, or receives the counts (passed/total) of the run
 * @return 0 when the run completed (whatever the verdicts); ASSAY_EINVALID (no command for a
 *         cli suite, a missing submission folder), ASSAY_EIO/ASSAY_ESPAWN (working folders or
 *         processes could not be made), or a sink's error; details in `err`
 */
ASSAY_EXTERN int assay_run_suite(const assay_suite *suite, const assay_run_opts *opts,
				 assay_tally *summary_out, assay_err *err);

/**
 * Removes the root folders (`assay-XXXXXX`, with every case's working folder) that runs killed
 * before they could remove them left beneath `work_root` (NULL: $TMPDIR, else /tmp): a root is
 * removed only when it is a folder (not a link) of this process's euid holding `.owner`, whose
 * lock (held by a run for its whole life, dropped by the kernel when it dies) is free and whose
 * pid is not alive with the start time written there (docs/security.md, "A killed run's
 * folders"). A live run's root, a root kept with `keep` (its `.owner` removed at
 * the end) and any other folder are left alone. assay_run_suite() never does this by itself:
 * it removes folders the caller did not ask it to make, so the caller chooses, and says so.
 * @param removed NULL, or receives the path of each root removed
 * @return how many were removed (never an error: what cannot be read or removed is left)
 */
ASSAY_EXTERN int assay_run_sweep_roots(const char *work_root, assay_strvec *removed);

/** What assay_case_report_build() decided about a case. */
typedef struct assay_verdict {
	double score;       /**< calculate_score() (0 when nothing was verified) */
	bool passed;        /**< did_pass(), and false when `error` is set */
	const char *error;  /**< a verifier refused its options or expected value (the case is an
				 error), in the report's arena; else NULL */
} assay_verdict;

/**
 * Verifies one case result against the case's expectations and builds its report object
 * (verification.md, VerifierReport.from_verifier_result): every attribute of actual and expected
 * appears in `results`; those not expected have is_correct null and weight 0.
 * @param out       receives the report (id, group, type, timestamp, duration, results, case,
 *                  original_checkpoint, original_group), made in `a`; it also refers to the
 *                  case's and the result's data, so it lives no longer than they do
 * @param a         the report's arena; its limit is the verification budget's memory part
 * @param deadline_s verification budget per attribute, seconds (0: none)
 * @param t0        CLOCK_MONOTONIC seconds when work on the case began: `duration` runs from
 *                  there to the end of verification
 * @return 0 (never fails: verifier problems are results)
 */
ASSAY_EXTERN int assay_case_report_build(assay_value *out, assay_verdict *verdict,
					 assay_arena *a, const assay_suite *suite,
					 const assay_group *group, const assay_case *c,
					 const assay_case_result *r, double deadline_s, double t0);

/**
 * The report object for a case that could not be loaded or run: each expected attribute known
 * (or one attribute named "error" when none is) failed with `message` as its diff.
 * @param c  the case (may carry an error and partial expectations), or NULL when only the id is
 *           known
 */
ASSAY_EXTERN assay_value assay_case_report_error(assay_arena *a, const assay_suite *suite,
						 const assay_group *group, const char *id,
						 const assay_case *c, const char *message,
						 double t0);

#ifdef __cplusplus
}
#endif
#endif
