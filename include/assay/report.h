/**
 * @file report.h
 * Report sinks: the places finished cases and the run summary are written to.
 * Spec: suite-format.md "What a run writes"; verification.md "Testing Your Verifier" (the
 * run-case array). The sink interface itself is in sink.h.
 */
#ifndef ASSAY_REPORT_H
#define ASSAY_REPORT_H

#include <stdio.h>

#include "json.h"
#include "sink.h"
#include "suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Report lines carry values up to this many bytes by default (docs/reports.md); the rest is a
 *  blob. */
#define ASSAY_REPORT_VALUE_CAP_DEFAULT (64u * 1024)

/** Options of the terminal sink. */
typedef struct assay_term_opts {
	FILE *progress;    /**< where the progress line goes (stderr), or NULL for none */
	bool tty;          /**< progress is a terminal: rewrite one line in place */
	FILE *summary;     /**< where the summary table and failures go (stdout), or NULL */
	bool color;        /**< ANSI colours in the summary */
	size_t max_failures; /**< failing cases shown in detail (0: none; the others are named) */
	int verbose;       /**< 1: a line per case */
	const char *entry; /**< the --entry command cases ran with, or NULL (adapter.command):
			        for the reproduce lines */
	bool exitfirst;    /**< the run stops at its first failure: say so when it did */
	const char *doing; /**< the first line's verb ("merging"), or NULL for "running" */
	const char *const *pass_env; /**< the --pass-env patterns cases ran with (NULL-terminated),
				      or NULL: the reproduce lines take those variables from the
				      shell, as `env -i` would drop them */
	const char *program; /**< the file the cases ran for the command's first word, when a
			          shell's PATH finds another (as root with the sandbox, a case runs
			          as nobody, whose search of PATH skips what it cannot reach), or
			          NULL: the reproduce lines name it (copied), but a case whose
			          env (the suite's or its own) sets PATH searched that PATH:
			          its line names the command's word, as the case had it */
	bool unkept;         /**< the run keeps no results (run-case): an interrupted run's
			          listing does not point to --resume */
} assay_term_opts;

/**
 * A sink for people: a progress line while cases run, then the failing cases (docs/cli.md,
 * "The failure listing": per attribute the reason in one line where it fits, a short rendering
 * of longer diffs, how the program ended, the last lines of its stderr, a command line
 * reproducing the case; a regression copy failing as its original in one line), a table of
 * checkpoints and group types (passed, total, rate), and what ran ("12 of 25 cases ran" when
 * interrupted).
 * With --keep (the summary's work_dir), each listed case's stdin is written under
 * `<work_dir>/.stdin/` for its reproduce line.
 * @return 0
 */
ASSAY_EXTERN int assay_sink_terminal_new(assay_sink *out, const assay_term_opts *opts);

/**
 * A sink collecting the run-case array: `{id, group, score, passed}` per case, plus `results`
 * for failing cases (verified attributes: is_correct, weight, diff), or every attribute in full
 * for every case when `full`.
 * After the run, assay_sink_array_result() gives the array.
 */
ASSAY_EXTERN int assay_sink_array_new(assay_sink *out, bool full);
/** The collected array (borrowed: lives until the sink is freed). */
ASSAY_EXTERN const assay_value *assay_sink_array_result(const assay_sink *sink);
/** After the run: the folder the working folders were kept in (assay_run_opts.keep; the run
 * summary's `work_dir`, docs/cli.md), or NULL when none was kept. Borrowed: lives until the
 * sink is freed. No errors. */
ASSAY_EXTERN const char *assay_sink_array_work_dir(const assay_sink *sink);

/**
 * calculate_score and did_pass (verification.md, VerifierReport) accumulated one verified
 * attribute at a time: the case score is sum(is_correct * weight) / sum(weight) over the
 * verified attributes (0.0 when their weights sum to 0, as the guide's calculate_score
 * function returns), and the case passes when every verified attribute is correct (also when
 * none was verified, as did_pass's all() says). A verifier's partial credit
 * (assay_verification.partial) never enters either.
 * Start with ASSAY_SCORE_INIT, call assay_score_add() per attribute, read assay_score_end().
 */
typedef struct assay_score {
	double wsum;  /**< the weights so far */
	double csum;  /**< the weights of the correct ones so far */
	bool correct; /**< every attribute so far was correct */
} assay_score;

#define ASSAY_SCORE_INIT { 0, 0, true }

/** Adds one verified attribute: `is_correct` and `weight` (>= 0). */
ASSAY_EXTERN void assay_score_add(assay_score *acc, bool is_correct, double weight);

/**
 * The case's score (calculate_score) and, in `*passed_out`, did_pass, which is false as well
 * when `errored` (the case has an error: assay makes sure such a case also has a failing
 * attribute, so did_pass over its results agrees).
 */
ASSAY_EXTERN double assay_score_end(const assay_score *acc, bool errored, bool *passed_out);

/**
 * Recomputes calculate_score and did_pass from a report line's own `results` (each attribute
 * whose `is_correct` is a boolean was verified; its `weight` counts), for a reader that must
 * not trust the line's stated `passed` and `score` (assay merge no longer uses it: it verifies
 * each case again from the suite, shard.h). The line's error
 * (assay_report_get(line, "error")) makes it fail.
 * @param line  a whole report line (blobs expanded)
 * @return 0; ASSAY_EINVALID when `results` is not an object or an attribute's weight is not a
 *         finite number >= 0 (`err` names the attribute)
 */
ASSAY_EXTERN int assay_score_line(const assay_value *line, double *score_out, bool *passed_out,
				  assay_err *err);

/**
 * What assay adds to a VerifierReport, read from a report line: `checkpoint`, `score`,
 * `passed`, `execution`, `error`, `partial` live in the line's `case` object, since the
 * contract's VerifierReport forbids other top-level keys (verification.md, extra="forbid";
 * docs/verification.md "contract -> assay"). Lines written before that change carried them at
 * the top level, and are read from there too.
 * @param line  a report line (a JSON object), or NULL
 * @param key   one of the names above
 * @return the value (borrowed from `line`), or NULL when absent
 */
ASSAY_EXTERN const assay_value *assay_report_get(const assay_value *line, const char *key);

/**
 * Whether `key` is one of assay's additions to a report's `case` object (see
 * assay_report_get). A case file's own key of that name is never copied into `case` (it is an
 * unknown case key, ignored with a warning), so that no case can make its report look errored
 * or passed.
 */
ASSAY_EXTERN bool assay_report_key_is_addition(const char *key);

/**
 * Sets one of assay's additions (see assay_report_get) on a report value: it goes into the
 * report's `case` object (made when absent). `value` is copied shallowly into `a`'s memory.
 */
ASSAY_EXTERN void assay_report_set(assay_arena *a, assay_value *report, const char *key,
				   assay_value value);

/**
 * format_result (verification.md, VerifierReport): each verified attribute's name mapped to
 * "P" (is_correct true) or "F", in the order of `results`.
 * @param out      receives a JSON object in `a` (names copied: nothing borrowed from `results`)
 * @param results  a report's `results` object (attributes whose is_correct is not a boolean
 *                 are left out)
 */
ASSAY_EXTERN void assay_report_format_result(assay_value *out, assay_arena *a,
					     const assay_value *results);

#ifdef __cplusplus
}
#endif
#endif
