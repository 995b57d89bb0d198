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

/**
 * calculate_score and did_pass (verification.md) accumulated one verified attribute at a time:
 * the case score is the weighted mean of the attributes' credit (`score * weight` for an
 * attribute with partial credit, else `weight` when correct, 0 when not), and the case passes
 * when every verified attribute is correct and their weights sum above 0.
 * Start with ASSAY_SCORE_INIT, call assay_score_add() per attribute, read assay_score_end().
 */
typedef struct assay_score {
	double wsum;  /**< the weights so far */
	double csum;  /**< the credit so far */
	bool correct; /**< every attribute so far was correct */
} assay_score;

#define ASSAY_SCORE_INIT { 0, 0, true }

/**
 * Adds one verified attribute: `is_correct`, `weight` (>= 0) and `score` (its partial credit
 * in [0, 1], or negative when it has none).
 */
ASSAY_EXTERN void assay_score_add(assay_score *acc, bool is_correct, double weight, double score);

/**
 * The case's score (0 when no weight was added, or when `errored`: the case has an error,
 * which earns nothing and never passes) and did_pass.
 */
ASSAY_EXTERN double assay_score_end(const assay_score *acc, bool errored, bool *passed_out);

/**
 * Recomputes calculate_score and did_pass from a report line's own `results` (each attribute
 * whose `is_correct` is a boolean was verified; its `weight` and optional `score` count), for
 * a reader that must not trust the line's `passed` and `score` (assay merge no longer uses
 * it: it verifies each case again from the suite, shard.h).
 * @param line  a whole report line (blobs expanded)
 * @return 0; ASSAY_EINVALID when `results` is not an object or an attribute's weight is not a
 *         finite number >= 0 or its score not in [0, 1] (`err` names the attribute)
 */
ASSAY_EXTERN int assay_score_line(const assay_value *line, double *score_out, bool *passed_out,
				  assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
