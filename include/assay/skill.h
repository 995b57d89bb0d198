/**
 * @file skill.h
 * Skill evaluation workspaces: a skill (a folder with SKILL.md), its eval cases
 * (evals/evals.json), versions (history.json and vN/skill snapshots), runs of an executor,
 * grades (grading/<case>_v<N>_run<R>.json), blind comparisons and analyses.
 * Spec: docs/skills.md; docs/eval-schemas.md (the contract: file and field names, score rules);
 * docs/skill-evals.md (workflow, decisions 1-9, the deterministic checks of section 4).
 *
 * Workspace layout (docs/skills.md):
 *   config.json                  executor, judges, budget, jobs, seed, lint profile
 *   history.json                 the contract's versions list
 *   prompts/<role>.md            judge templates (written by init; edit to override)
 *   vN/skill/                    snapshot of version N (without evals/)
 *   runs/<case>/vN/runR/         inputs/, outputs/, transcript.md, metrics.json,
 *                                user_notes.md, timing.json, grading_error.json
 *   grading/<case>_vN_runR.json  one grade per run
 *   comparisons/<case>_vA_vs_vB_runR_order{1,2}.json   one comparison.json per judgement
 *   comparisons/assignments/...  which version was A (never given to a judge)
 *   comparisons/vA_vs_vB.json    the rates; analysis/vA_vs_vB.json the analysis
 *
 * Every file is written atomically (fs.h). Functions return 0 or a negative assay_error_code
 * with details in `err` (the last argument, NULL allowed).
 */
#ifndef ASSAY_SKILL_H
#define ASSAY_SKILL_H

#include <stdint.h>

#include "buf.h"
#include "strvec.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Diagnostics (check and lint)
 */

typedef enum assay_skill_severity {
	ASSAY_SKILL_INFO = 0,
	ASSAY_SKILL_WARNING = 1,
	ASSAY_SKILL_ERROR = 2,
} assay_skill_severity;

/** One problem found in a file: where (line/col 0 when unknown) and what. */
typedef struct assay_skill_diag {
	assay_skill_severity severity;
	char *path;
	int line, col;
	char *msg;
} assay_skill_diag;

/** A list of diagnostics (caller-allocated; ASSAY_SKILL_DIAGS_INIT, then _clear). */
typedef struct assay_skill_diags {
	assay_skill_diag *v;
	size_t nr, alloc;
	size_t errors, warnings;
} assay_skill_diags;

#define ASSAY_SKILL_DIAGS_INIT { NULL, 0, 0, 0, 0 }

/** Appends a diagnostic (copies `path` and the message). */
ASSAY_EXTERN void assay_skill_diag_add(assay_skill_diags *d, assay_skill_severity sev,
				       const char *path, int line, int col, const char *fmt, ...)
	ASSAY_PRINTF(6, 7);
/** Frees every diagnostic and returns `d` to INIT. */
ASSAY_EXTERN void assay_skill_diags_clear(assay_skill_diags *d);

/*
 * Workspaces (docs/skills.md, "The workspace")
 */

/** What assay_skill_init() made (all false: it was all there already). */
typedef struct assay_skill_init_report {
	bool evals, config, history, snapshot, grading, prompts;
	char *workspace; /**< the workspace's absolute path (caller frees) */
} assay_skill_init_report;

/**
 * Creates, when missing: SKILL_DIR/evals/evals.json ({"version": "1.0", "skill": ABS,
 * "cases": []}), the workspace (default: SKILL_DIR's parent/<name>-workspace), config.json,
 * history.json with version 0 "baseline", v0/skill (a copy of the skill without evals/),
 * grading/ and prompts/. Existing files are never changed, so a second call changes nothing.
 * @return 0; ASSAY_ENOTFOUND if `skill_dir` is not a folder; ASSAY_EIO
 */
ASSAY_EXTERN int assay_skill_init(assay_skill_init_report *out, const char *skill_dir,
				  const char *workspace, assay_err *err);

/**
 * Version snapshot (skill-evals.md 3.7 with decisions 1-4): copies the *skill folder* (the
 * one config.json names, where the user edits) without evals/ to v<N+1>/skill, appends
 * {version, timestamp, description, git_hash, path, average_score: null} to history.json and
 * advances current_version; refreshes version N's own average_score.
 * @param force       make the version even when the skill folder holds exactly what
 *                    v<current>/skill holds
 * @param version_out NULL or receives N+1
 * @return 0; ASSAY_ENOTFOUND (no workspace); ASSAY_EPARSE/ASSAY_EINVALID (history.json or
 *         config.json malformed, `err` at path:line:col); ASSAY_EINVALID (v<N+1> exists);
 *         ASSAY_ENOMATCH (nothing changed since v<current>, and not `force`: nothing is
 *         written); ASSAY_EIO
 */
ASSAY_EXTERN int assay_skill_snapshot(const char *workspace, const char *description, bool force,
				      int *version_out, assay_err *err);

/**
 * HEAD of the git repository holding `dir` (libgit2), as 40 hex digits in `out`.
 * @return true with `out` filled; false when `dir` is in no repository, the repository has no
 *         commit, or anything below `dir` has uncommitted changes (untracked files included,
 *         ignored files not) — history.json then records null (decision 3)
 */
ASSAY_EXTERN bool assay_skill_git_hash(char out[41], const char *dir);

/**
 * Sets version N's average_score in history.json to the mean of overall_score over every
 * grading/<case>_vN_run<R>.json (one decimal; null when none). Decision 1.
 * @return 0, or the errors of reading/writing history.json
 */
ASSAY_EXTERN int assay_skill_refresh_average(const char *workspace, int version,
					     assay_err *err);

/*
 * Checking the five files (docs/skills.md, "Check")
 */

typedef enum assay_skill_file_kind {
	ASSAY_SKILL_FILE_AUTO = 0,   /**< guessed from the content */
	ASSAY_SKILL_FILE_EVALS,
	ASSAY_SKILL_FILE_HISTORY,
	ASSAY_SKILL_FILE_GRADING,
	ASSAY_SKILL_FILE_COMPARISON,
	ASSAY_SKILL_FILE_ANALYSIS,
} assay_skill_file_kind;

/**
 * Validates one file against its schema and rules (docs/skill-evals.md 4.6), adding a
 * diagnostic with path:line:col for every problem.
 * @param workspace NULL, or the workspace the file belongs to: then cross-file rules apply
 *                  too (grading: required criteria from evals.json; history: average_score
 *                  matches the grading files; evals: files exist)
 * @return 0 (problems are diagnostics, not errors); ASSAY_ENOTFOUND/ASSAY_EIO when the file
 *         cannot be read (a diagnostic is added too)
 */
ASSAY_EXTERN int assay_skill_check_file(assay_skill_diags *d, const char *path,
					assay_skill_file_kind kind, const char *workspace,
					assay_err *err);

/** Checks every file of a workspace that has a schema. @return as assay_skill_check_file() */
ASSAY_EXTERN int assay_skill_check_workspace(assay_skill_diags *d, const char *workspace,
					     assay_err *err);

/*
 * Deterministic convention checks (docs/skills.md, "Lint"; skill-evals.md section 4)
 */

typedef enum assay_skill_profile {
	ASSAY_SKILL_PROFILE_AGENTSKILLS = 0, /**< the open Agent Skills specification */
	ASSAY_SKILL_PROFILE_CLAUDE_CODE = 1, /**< plus Claude Code's keys and platform rules */
	ASSAY_SKILL_PROFILE_WRITING_SKILLS = 2, /**< plus S1/S4's writing-skills rules */
} assay_skill_profile;

/** Parses "agentskills", "claude-code", "writing-skills". @return 0 or ASSAY_EINVALID */
ASSAY_EXTERN int assay_skill_profile_parse(assay_skill_profile *out, const char *name);
/** The name of profile `p` ("agentskills", ...): a static string, never NULL. */
ASSAY_EXTERN const char *assay_skill_profile_name(assay_skill_profile p);

/** The five convention_compliance keys, in the contract's order. */
#define ASSAY_SKILL_NKEYS 5
ASSAY_EXTERN extern const char *const assay_skill_convention_keys[ASSAY_SKILL_NKEYS];

typedef struct assay_skill_lint_opts {
	assay_skill_profile profile;
	const char *name_dir;     /**< the folder name `name` must equal (decision 6); NULL: the
				       basename of the skill folder */
	const char *skill_type;   /**< discipline|technique|reference|toolbox|knowledge|pattern;
				       NULL: metadata.type of the frontmatter */
	const char *budget_class; /**< getting-started|frequently-loaded|other; NULL:
				       metadata.budget, else "other" */
} assay_skill_lint_opts;

#define ASSAY_SKILL_LINT_OPTS_INIT { ASSAY_SKILL_PROFILE_AGENTSKILLS, NULL, NULL, NULL }

/** One check's outcome. `passed`: 1, 0, or -1 when it cannot be decided (null). */
typedef struct assay_skill_lint_check {
	const char *id;           /**< "FM1", "NM2", ... (static) */
	int key;                  /**< index into assay_skill_convention_keys */
	assay_skill_severity severity;
	int passed;
	char *message;
	int line;                 /**< line of SKILL.md (or of the file named in message), 0 */
} assay_skill_lint_check;

typedef struct assay_skill_lint {
	char *skill_dir;
	char *skill_md;           /**< the file checked (NULL when missing) */
	assay_skill_profile profile;
	assay_skill_lint_check *checks;
	size_t nr, alloc;
	size_t errors, warnings;  /**< failed checks of each severity */
	char *summary[ASSAY_SKILL_NKEYS]; /**< per key, what was measured (for `details`) */
} assay_skill_lint;

#define ASSAY_SKILL_LINT_INIT { NULL, NULL, 0, NULL, 0, 0, 0, 0, { NULL } }

/**
 * Runs every check of the profile on `skill_dir`. A problem of the skill is a failed check,
 * not an error.
 * @return 0; ASSAY_ENOTFOUND if `skill_dir` is not a folder
 */
ASSAY_EXTERN int assay_skill_lint_run(assay_skill_lint *out, const char *skill_dir,
				      const assay_skill_lint_opts *opts, assay_err *err);
/** Frees what a lint holds and returns it to INIT. */
ASSAY_EXTERN void assay_skill_lint_release(assay_skill_lint *l);

/**
 * The convention_compliance object of grading.json: the five keys, each {passed, details}.
 * A key passes when none of its error or warning checks failed; `passed` is always a bool,
 * as grading.json types it: a key whose only checks could not be decided (type_alignment of
 * no or an undecidable type) passes, and its details say why. `details` names the file
 * checked (`label`, or the SKILL.md path) and the failed checks.
 */
ASSAY_EXTERN assay_value assay_skill_lint_compliance(const assay_skill_lint *l,
						     const char *label, assay_arena *a);
/** The whole lint as a value: {skill, skill_md, profile, convention_compliance, checks,
 *  errors, warnings}. */
ASSAY_EXTERN assay_value assay_skill_lint_value(const assay_skill_lint *l, assay_arena *a);

/*
 * Packaging (docs/skills.md)
 */

/** What assay_skill_package() did. Release with assay_skill_package_release(). */
typedef struct assay_skill_package_result {
	assay_skill_lint lint;    /**< the lint run first (nothing is written when it has errors) */
	bool written;             /**< the archive was written */
	char *path;               /**< the archive's path (absolute), once known */
	size_t files;             /**< files packed */
	size_t bytes;             /**< their size before compression */
	assay_strvec links;       /**< symbolic links left out (relative paths) */
} assay_skill_package_result;

/**
 * Writes `<out_dir>/<folder name>.skill`: the ZIP archive skill-creator's package_skill.py
 * makes (every regular file of the skill, deflated, named `<folder name>/<path>`, in sorted
 * order, Unix modes kept), after a lint with `lint` (NULL: the agentskills profile) that has
 * no error; with errors nothing is written and `out->lint` says why. Links are never followed
 * nor packed (listed in `out->links`); `.git/` at the top is left out. Written atomically.
 * @param out_dir NULL or "": the current folder (made when missing)
 * @return 0 (also when the lint failed: see out->written); ASSAY_ENOTFOUND if `skill_dir` is
 *         not a folder; ASSAY_ETOOBIG for a file over 256 MiB or an archive past ZIP's 4 GiB
 *         and 65,535 entries; ASSAY_EIO
 */
ASSAY_EXTERN int assay_skill_package(assay_skill_package_result *out, const char *skill_dir,
				     const char *out_dir, const assay_skill_lint_opts *lint,
				     assay_err *err);
/** Frees what a package result holds. */
ASSAY_EXTERN void assay_skill_package_release(assay_skill_package_result *r);

/*
 * Scores (eval-schemas.md "grading.json", decision 8)
 */

/** round(x, 1) as Python does it on the double (ties to even on the exact binary value). */
ASSAY_EXTERN double assay_skill_round1(double x);

/**
 * Builds a grading.json value from a grader's validated answer: results in the order of the
 * case's expectations with `passed` = score >= 3, overall_score and required_score (one
 * decimal; required_score null when the case has no required expectation), overall "pass"
 * when every required criterion passed, claims/user_notes_summary/eval_feedback from the
 * answer ("" or [] when missing), convention_compliance and execution_metrics as given.
 * @param ecase   the case of evals.json
 * @param answer  the grader's answer (assay_judge_validate()d)
 * @param metrics the executor's metrics.json object, or NULL ({})
 */
ASSAY_EXTERN assay_value assay_skill_grading_build(assay_arena *a, const assay_value *ecase,
						   int version, int run,
						   const assay_value *answer,
						   const assay_value *compliance,
						   const assay_value *metrics);

/*
 * Blind comparison statistics (decision 9)
 */

/** splitmix64: the next number of the sequence in `*state`. */
ASSAY_EXTERN uint64_t assay_skill_prng_next(uint64_t *state);
/** The seeded draw of one (case, run): true when the first version is labelled A. */
ASSAY_EXTERN bool assay_skill_first_is_a(uint64_t seed, const char *case_id, int run);
/** Wilson score interval of `successes` out of `n` at normal quantile `z` (1.96 for 95%);
 *  n == 0 gives [0, 1]. */
ASSAY_EXTERN void assay_skill_wilson(double successes, double n, double z, double *lo,
				     double *hi);
/**
 * The difference of two independent proportions, s1/n1 - s2/n2, into *d, with Newcombe's
 * hybrid score interval (1998, method 10: the two Wilson intervals at `z` combined) into
 * [*lo, *hi]. It stays within [-1, 1] and is honest for small n; an empty side counts as 0 of
 * 0 (its Wilson interval [0, 1]).
 */
ASSAY_EXTERN void assay_skill_delta_ci(double s1, double n1, double s2, double n2, double z,
				       double *d, double *lo, double *hi);

/*
 * Running, comparing, reporting (docs/skills.md, "Running: the executor", "Blind comparison",
 * "Report")
 */

/** What happened to one (case, run). */
typedef enum assay_skill_item_state {
	ASSAY_SKILL_GRADED = 0,
	ASSAY_SKILL_GRADING_ERROR = 1, /**< the grader's answers were not valid: recorded in the
					    run folder's grading_error.json */
	ASSAY_SKILL_SKIPPED = 2,       /**< not started: the time or cost budget ran out */
	ASSAY_SKILL_RUN_ERROR = 3,     /**< the executor could not be started (no such program,
					    not executable): nothing to grade, no judge asked;
					    recorded in the run folder's run_error.json (docs/skills.md) */
} assay_skill_item_state;

typedef struct assay_skill_item {
	const char *case_id;
	int version, run;
	assay_skill_item_state state;
	bool pass;                /**< overall == "pass" */
	double overall_score;
	int exit_code;            /**< the executor's (-1 timeout, -N signal; a run error: 127) */
	bool timed_out;           /**< the executor ran into its timeout (exit_code -1) */
	double timeout_s;         /**< that timeout, seconds */
	double seconds;           /**< executor wall seconds */
	double judge_seconds;
	double cost;              /**< executor (metrics.json cost_usd) + judge */
	bool cost_unknown;        /**< metrics.json gave a cost that is not a finite number >= 0
				       (negative, NaN, text, a container at any depth), or is
				       present but no readable JSON object: it is not in `cost` */
	const char *error;        /**< the grading or run error, or NULL */
	bool without_skill;       /**< a run of the no-skill baseline (configuration
				       without_skill), not of `version` */
	bool kept;                /**< resume: graded before, its grading file kept */
} assay_skill_item;

typedef struct assay_skill_run_opts {
	const char *workspace;
	bool improve;             /**< improve mode: 3 runs per case (eval mode: 1) */
	int version;              /**< < 0: current_version */
	int runs;                 /**< > 0: overrides the mode's count */
	size_t jobs;              /**< runs at once; 0: config.json's (default 1) */
	const char *case_glob;    /**< NULL: every case */
	double budget_seconds;    /**< < 0: config.json's; 0: none */
	double budget_cost;       /**< < 0: config.json's; 0: none */
	bool no_cache;            /**< ask the judge even when an answer is cached */
	/** Called (under a lock) as each item ends. */
	void (*progress)(void *payload, const assay_skill_item *item);
	void *payload;
	bool without_skill;       /**< each (case, run) also runs without the skill (docs/skills.md):
				       without_skill/runs/<case>/run<R>/, graded into
				       without_skill/grading/<case>_run<R>.json */
	bool resume;              /**< keep a run whose grading file exists (reported with
				       `kept`), run the others: a killed run continues */
} assay_skill_run_opts;

#define ASSAY_SKILL_RUN_OPTS_INIT { NULL, false, -1, 0, 0, NULL, -1, -1, false, NULL, NULL, \
				    false, false }

/** The outcome counts of one configuration's runs. */
typedef struct assay_skill_run_counts {
	size_t planned, graded, passed, grading_errors, run_errors, skipped;
} assay_skill_run_counts;

typedef struct assay_skill_run_summary {
	int version;
	size_t planned, graded, passed, grading_errors, skipped;
	double seconds, cost;
	size_t cost_unknown;      /**< runs whose executor cost was unknown (not in `cost`) */
	bool budget_hit;
	double average_score;     /**< NaN when none */
	size_t run_errors;        /**< runs whose executor could not be started (not graded) */
	/** The no-skill baseline's runs (opts.without_skill), counted apart: the fields above
	 *  count the version's runs only; `cost`, `budget_hit` cover both. */
	assay_skill_run_counts without_skill;
} assay_skill_run_summary;

/**
 * Runs the executor for each case and run in isolated run folders, asks the grader, writes
 * grading/<case>_v<N>_run<R>.json, refreshes the version's average_score. An executor that
 * cannot be started is a run error (run_error.json), never sent to the grader.
 * @return 0 (failed runs are data); ASSAY_ENOTFOUND/ASSAY_EPARSE/ASSAY_EINVALID when the
 *         workspace, its config or evals.json cannot be used; ASSAY_ENOMATCH when
 *         `case_glob` matches no case id (err's msg then names the closest ids) or the
 *         version has no snapshot; ASSAY_EIO; ASSAY_ESPAWN
 */
ASSAY_EXTERN int assay_skill_run(assay_skill_run_summary *out, const assay_skill_run_opts *o,
				 assay_err *err);

typedef struct assay_skill_compare_opts {
	const char *workspace;
	int va, vb;               /**< the versions compared (vb is the candidate) */
	bool have_seed;
	uint64_t seed;            /**< with have_seed; else config.json's seed */
	bool no_cache;
	bool no_analysis;         /**< skip the analyzer */
} assay_skill_compare_opts;

#define ASSAY_SKILL_COMPARE_OPTS_INIT { NULL, 0, 1, false, 0, false, false }

/** How many failed judgements' reasons a compare summary keeps. */
#define ASSAY_SKILL_REASONS 3

typedef struct assay_skill_compare_summary {
	size_t pairs;             /**< (case, run) pairs with outputs of both versions */
	size_t judged;            /**< pairs whose two judgements are both valid */
	size_t consistent;        /**< judged pairs whose winner survived the swap */
	size_t errors;            /**< judgements that failed */
	double consistency_rate;  /**< consistent / judged (NaN when none) */
	double win_rate;          /**< vb's: (consistent wins + inconsistent / 2) / judged */
	double ci_lo, ci_hi;      /**< Wilson 95% */
	int winner, loser;        /**< versions, as analysis.json names them; -1 when no pair was
				       judged (comparisons/vA_vs_vB.json's winner_version is then
				       null, and no analysis is written) */
	bool analysed;            /**< analysis.json written */
	/** The first failed judgements' reasons ("case run R order K: why"), `errors` of them
	 *  at most ASSAY_SKILL_REASONS. */
	char reasons[ASSAY_SKILL_REASONS][512];
} assay_skill_compare_summary;

/**
 * Blind comparison of two versions, each pair in both orders, then the analyzer.
 * @return 0; ASSAY_ENOTFOUND when no pair has outputs of both; ASSAY_ENOMATCH when vA or vB
 *         is not a version of the workspace; errors as assay_skill_run()
 */
ASSAY_EXTERN int assay_skill_compare(assay_skill_compare_summary *out,
				     const assay_skill_compare_opts *o, assay_err *err);

typedef struct assay_skill_improve_opts {
	const char *workspace;
	int iterations;           /**< new versions at most; <= 0: 3 */
	int runs;                 /**< runs per case; <= 0: 3 */
	size_t jobs;              /**< runs at once; 0: config.json's */
	int patience;             /**< stop after this many iterations in a row without
				       improvement; <= 0: 2 */
	double target;            /**< stop when this share of a version's runs pass; <= 0: 1 */
	double budget_seconds;    /**< the whole loop's; < 0: config.json's; 0: none */
	double budget_cost;       /**< the runs' cost over the whole loop; < 0: config's */
	bool no_cache;
	/** Each run as it ends (as assay_skill_run_opts.progress). */
	void (*progress)(void *payload, const assay_skill_item *item);
	/** Each step as it starts, in words. */
	void (*step)(void *payload, const char *what);
	void *payload;
} assay_skill_improve_opts;

#define ASSAY_SKILL_IMPROVE_OPTS_INIT { NULL, 0, 0, 0, 0, 0, -1, -1, false, NULL, NULL, NULL }

typedef struct assay_skill_improve_result {
	char stopped[600];        /**< why the loop stopped */
	bool failed;              /**< it stopped because a step failed (grading or run errors,
				       failed judgements, the improver) */
	int best_version;         /**< -1 when no version has graded runs */
	double best_pass_rate;
	size_t versions;          /**< versions in the session */
} assay_skill_improve_result;

/**
 * Improve mode as a loop (docs/skill-evals.md 3.5): runs of the current version,
 * grading, blind comparison with the previous version (both orders), analysis, then the
 * config's improver writes the next version into the skill folder and assay snapshots it;
 * until a stop rule holds (src/lib/skill/improve.c lists them). Resumable after a kill;
 * improve.json records the session.
 * @return 0 (a stop, even for a failed step, is data: see out->failed); the errors of
 *         assay_skill_run(), assay_skill_compare() and assay_skill_snapshot()
 */
ASSAY_EXTERN int assay_skill_improve(assay_skill_improve_result *out,
				     const assay_skill_improve_opts *o, assay_err *err);

typedef struct assay_skill_triggers_opts {
	const char *workspace;
	int version;              /**< < 0: current_version */
	int runs;                 /**< runs per query; <= 0: config's triggers.runs, else 1 */
	/** Each query as its runs end: whether it should trigger, whether it did (at least
	 *  half its runs read the skill), runs that read it, runs done. */
	void (*progress)(void *payload, const char *query, bool should, bool triggered,
			 size_t read, size_t runs);
	void *payload;
} assay_skill_triggers_opts;

#define ASSAY_SKILL_TRIGGERS_OPTS_INIT { NULL, -1, 0, NULL, NULL }

typedef struct assay_skill_triggers_result {
	int version;
	size_t queries;           /**< queries with at least one run done */
	size_t tp, fp, fn, tn;
	double precision, recall, accuracy; /**< NaN when undefined (no denominator) */
	size_t errors;            /**< runs whose executor could not start (not counted) */
	char error[600];          /**< the last such reason */
} assay_skill_triggers_result;

/**
 * Trigger evals (docs/skills.md): each query of SKILL/evals/triggers.json
 * ([{"query", "should_trigger"}]) through the executor with the version's skill installed
 * among config.json's triggers.skills; whether the skill was read is decided from the
 * transcript (src/lib/skill/triggers.c says how). Writes triggers/v<N>/results.json.
 * @return 0; ASSAY_ENOTFOUND (no triggers.json, a triggers.skills folder missing);
 *         ASSAY_EPARSE/ASSAY_EINVALID (malformed, with path:line:col); ASSAY_ENOMATCH (no
 *         such version); ASSAY_EIO; ASSAY_ESPAWN
 */
ASSAY_EXTERN int assay_skill_triggers(assay_skill_triggers_result *out,
				      const assay_skill_triggers_opts *o, assay_err *err);
/**
 * The description improver of the trigger evals: config.json's triggers.improver.command
 * (placeholders {results}: triggers/v<N>/results.json, {skill}, {workspace}, {version}) runs
 * in triggers/improve/v<N>/, edits the skill folder, and assay snapshots it.
 * @param next receives the new version
 * @return 0 (a new version); 1 with `why` when there is no improver, it failed or it changed
 *         nothing; the errors of running it and of assay_skill_snapshot()
 */
ASSAY_EXTERN int assay_skill_triggers_improver(const char *workspace, int version, int *next,
					       char *why, size_t whysize, assay_err *err);
/** Every triggers/v<N>/results.json of the workspace, by version, as an array in `a`. */
ASSAY_EXTERN int assay_skill_triggers_versions(assay_value *out, assay_arena *a,
					       const char *workspace, assay_err *err);

/**
 * The review page (docs/skills.md): one self-contained HTML document (no server, network or
 * CDN needed) showing every case, every graded run's outputs, transcript and grades with
 * their evidence, the comparisons and analyses, with a feedback box per run. Appended to
 * `out`. With `serve`, the page's save button POSTs to "feedback" (relative to the page)
 * instead of downloading feedback.json.
 * @return 0; the errors of reading the workspace
 */
ASSAY_EXTERN int assay_skill_review_page(assay_buf *out, const char *workspace, bool serve,
					 assay_err *err);
/**
 * Checks the review page's feedback (`len` bytes of JSON: {"reviews": [{"run_id":
 * "<case>/v<N>/run<R>", "feedback", "timestamp"}], "status"}) and writes it, rebuilt by
 * assay, as the workspace's feedback.json (atomically).
 * @return 0; ASSAY_EPARSE (not JSON); ASSAY_EINVALID (not that shape); ASSAY_ETOOBIG (over
 *         1 MiB); ASSAY_EIO
 */
ASSAY_EXTERN int assay_skill_feedback_save(const char *workspace, const char *body,
					   size_t len, assay_err *err);

/** What assay_skill_benchmark() wrote. Free `path` with free(). */
typedef struct assay_skill_benchmark_result {
	int version;
	char *path;               /**< benchmarks/<time>/benchmark.json (absolute) */
	size_t with_skill_runs, without_skill_runs;
	double pass_rate_with;    /**< mean expectation pass rate of the version's runs */
	double pass_rate_without; /**< the baseline's; NaN without one */
} assay_skill_benchmark_result;

/**
 * Writes benchmarks/<UTC time>/benchmark.json in the shape of skill-creator's
 * skill-creator's benchmark schema (docs/skills.md: metadata, runs[] with configuration with_skill/without_skill and a
 * nested result, run_summary with mean/stddev/min/max and delta strings, notes) from the
 * version's grading files and the no-skill baseline's (docs/skills.md).
 * @param version < 0: current_version
 * @return 0; ASSAY_ENOMATCH when the version has no graded run; the errors of reading the
 *         workspace; ASSAY_EIO
 */
ASSAY_EXTERN int assay_skill_benchmark(assay_skill_benchmark_result *out,
				       const char *workspace, int version, assay_err *err);

/**
 * The report (docs/skills.md, "Report") as a value: {versions: [{version, description,
 * average_score, cases: [{case_id, runs, pass_rate, mean, min, max, flaky: [criterion...]}],
 * pass_rate}], never_discriminating: [{case_id, criterion}], warnings: [text...]}.
 * @return 0; the errors of reading history.json/evals.json
 */
ASSAY_EXTERN int assay_skill_report(assay_value *out, assay_arena *a, const char *workspace,
				    assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
