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

/**
 * Fills `out` with the blob store (json.h) of results folder `dir` (borrowed: it must outlive
 * the store): each blob is DIR/blobs/<first 2 hex digits>/<sha256>, written atomically, and
 * kept once. Its functions return ASSAY_EIO with the path in `err` when a file cannot be
 * written.
 */
ASSAY_EXTERN void assay_blob_store_files(assay_blob_store *out, const char *dir);

/**
 * A sink writing DIR/reports.jsonl (one report per line, appended and flushed as each case
 * finishes, each line written with a single write(2) so that an interrupted run leaves only
 * whole lines) and DIR/summary.json (written atomically at the end). DIR is created if missing;
 * an existing reports.jsonl is replaced when the run begins. A string or container of a report
 * longer than `value_cap` bytes (0: ASSAY_REPORT_VALUE_CAP_DEFAULT; SIZE_MAX: never) is cut
 * (json.h, assay_json_write_cut) and kept whole in DIR/blobs.
 * @param out receives the sink (free it with out->free(out->payload))
 * @return 0, or ASSAY_EIO if DIR cannot be made (details in `err`)
 */
ASSAY_EXTERN int assay_sink_jsonl_new(assay_sink *out, const char *dir, size_t value_cap,
				      assay_err *err);

/**
 * Reads DIR/reports.jsonl of an interrupted run for resuming: every complete, valid line up to
 * the first that is not (a line cut short by a crash) becomes an entry of `*out`, keyed by
 * assay_report_key(). A missing file gives an empty object.
 * @param out        receives a mapping made in `a`
 * @param valid_len  receives the length in bytes of the part of the file that was read whole
 * @return 0, or ASSAY_EIO
 */
ASSAY_EXTERN int assay_reports_load(assay_value *out, assay_arena *a, size_t *valid_len,
				    const char *dir, assay_err *err);

/**
 * Like assay_sink_jsonl_new(), but continues DIR/reports.jsonl: the file is cut to `keep_len`
 * bytes (dropping a partial last line) and new reports are appended; replayed reports are not
 * written again. @return as assay_sink_jsonl_new()
 */
ASSAY_EXTERN int assay_sink_jsonl_resume(assay_sink *out, const char *dir, size_t keep_len,
					 size_t value_cap, assay_err *err);

/** Options of the terminal sink. */
typedef struct assay_term_opts {
	FILE *progress;    /**< where the progress line goes (stderr), or NULL for none */
	bool tty;          /**< progress is a terminal: rewrite one line in place */
	FILE *summary;     /**< where the summary table and failures go (stdout), or NULL */
	bool color;        /**< ANSI colours in the summary */
	size_t max_failures; /**< failing cases listed with their diffs (0: none) */
	int verbose;       /**< 1: a line per case */
} assay_term_opts;

/**
 * A sink for people: a progress line while cases run, then a table of checkpoints and group
 * types (passed, total, rate) and the first failing cases with their diffs.
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
