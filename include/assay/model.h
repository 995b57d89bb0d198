/**
 * @file model.h
 * The case model every layer shares: an attribute's actual value, the result of running a case
 * (its attributes), the report of a finished case as sinks receive it, and the clock durations
 * and deadlines are measured on. Nothing here depends on how a case is loaded, run, verified,
 * reported or stored: adapters fill a case result, verifiers read actual values, the runner
 * makes case reports, and sinks (sink.h), the store and the reports read them.
 * Spec: verification.md (CaseResult: the attributes a verifier compares; VerifierReport);
 * suite-format.md ("What a run writes").
 */
#ifndef ASSAY_MODEL_H
#define ASSAY_MODEL_H

#include "buf.h"
#include "proc.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The suite model (suite.h) that a case report points into. */
struct assay_checkpoint;
struct assay_group;
struct assay_case;

/** The kinds of actual value an attribute can have. */
typedef enum assay_actual_kind {
	ASSAY_ACTUAL_BYTES = 0, /**< stdout, stderr, a file, a response body: `bytes`/`len` */
	ASSAY_ACTUAL_INT,       /**< status_code, max_rss: `integer` */
	ASSAY_ACTUAL_REAL,      /**< execution_time (seconds): `real` */
	ASSAY_ACTUAL_MISSING,   /**< a file that was not produced */
} assay_actual_kind;

/** An actual value, borrowed for the duration of one verifier call. */
typedef struct assay_actual {
	assay_actual_kind kind;
	const char *bytes;  /**< BYTES: may hold NUL and invalid UTF-8; not NUL-terminated */
	size_t len;
	bool truncated;     /**< BYTES: the capture hit its cap */
	long long integer;
	double real;
	const struct assay_value *value; /**< BYTES: NULL, or what the bytes read as (an api
					      response's headers as a mapping, its body parsed as
					      JSON with response_is_json): reports show it instead
					      of the text; verifiers read the bytes */
} assay_actual;

/** One attribute of a case result: a name ("status_code", "output", "files-x", ...) and its
 *  actual value. */
typedef struct assay_attribute {
	const char *name;
	assay_actual actual;
} assay_attribute;

/**
 * CaseResult: what running one case produced. Owns everything it points to (names and bytes
 * live in `arena`, big captures in `bufs`); released with assay_case_result_release().
 */
typedef struct assay_case_result {
	assay_attribute *attrs;   /**< in report order */
	size_t nattrs;
	assay_proc_result proc;   /**< how the (main) process ended, its times and resources */
	const char *error;        /**< how the run ended abnormally ("timed out after 2 seconds",
				       "cannot run 'x': ..."), or NULL */
	const char *log;          /**< text the adapter wants in the report beside the attributes
				       (the api server's output), or NULL */
	assay_arena *arena;       /**< names, small values */
	assay_buf *bufs;          /**< captures, files */
	size_t nbufs;
} assay_case_result;

#define ASSAY_CASE_RESULT_INIT { NULL, 0, { 0 }, NULL, NULL, NULL, NULL, 0 }

/**
 * Adds attribute `name` (copied) with `actual` to `r`; bytes of `actual` must live as long as
 * `r` (use assay_case_result_keep() for a buffer). @return the stored attribute
 */
ASSAY_EXTERN assay_attribute *assay_case_result_add(assay_case_result *r, const char *name,
						    assay_actual actual);
/**
 * Moves the content of `b` into `r` (b is left INIT).
 * @param len_out receives the length
 * @return the kept bytes (valid as long as `r`)
 */
ASSAY_EXTERN const char *assay_case_result_keep(assay_case_result *r, assay_buf *b,
						size_t *len_out);
/** The arena of `r` (made on first use), for names and messages that live as long as `r`. */
ASSAY_EXTERN assay_arena *assay_case_result_arena(assay_case_result *r);
/** The attribute named `name`, or NULL. */
ASSAY_EXTERN const assay_attribute *assay_case_result_get(const assay_case_result *r,
							  const char *name);
/** Frees everything in `r` and returns it to ASSAY_CASE_RESULT_INIT. */
ASSAY_EXTERN void assay_case_result_release(assay_case_result *r);

/** One finished case, as handed to sinks. Everything is borrowed for the call. */
typedef struct assay_case_report {
	const struct assay_checkpoint *checkpoint;
	const struct assay_group *group;
	const char *id;                  /**< the case id */
	const struct assay_case *kase;   /**< the loaded case, or NULL when replayed */
	const assay_case_result *result; /**< NULL if the case could not be loaded, or replayed */
	/** The reports.jsonl line: VerifierReport fields plus checkpoint, score, passed. */
	const assay_value *json;
	double score;      /**< calculate_score(): weighted mean of verified attributes */
	bool passed;       /**< did_pass(): every verified attribute correct (false on error) */
	const char *error; /**< the case could not be loaded, run or verified: why; else NULL */
	bool replayed;     /**< taken from an earlier run's reports (resume), not run now */
	size_t index;      /**< 1-based position of the case in the run (its place in run order,
				whatever order cases finish in) */
	size_t total;      /**< cases in the run */
} assay_case_report;

/** CLOCK_MONOTONIC now, in seconds. */
ASSAY_EXTERN double assay_now(void);

#ifdef __cplusplus
}
#endif
#endif
