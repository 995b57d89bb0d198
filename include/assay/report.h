/**
 * @file report.h
 * Report sinks: the places finished cases and the run summary are written to.
 * Spec: suite-format.md "What a run writes"; verification.md "Testing Your Verifier" (the
 * run-case array). The sink interface itself is in run.h.
 */
#ifndef ASSAY_REPORT_H
#define ASSAY_REPORT_H

#include <stdio.h>

#include "json.h"
#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Report lines carry values up to this many bytes by default (issue #9); the rest is a blob. */
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
} assay_term_opts;

/**
 * A sink for people: a progress line while cases run, then the failing cases (issue #11: per
 * attribute the reason in one line where it fits, a short rendering of longer diffs, how the
 * program ended, the last lines of its stderr, a command line reproducing the case; a
 * regression copy failing as its original in one line), a table of checkpoints and group types
 * (passed, total, rate), and what ran ("12 of 25 cases ran" when interrupted).
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

#ifdef __cplusplus
}
#endif
#endif
