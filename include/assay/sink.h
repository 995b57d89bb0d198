/**
 * @file sink.h
 * Report sinks: the interface through which finished cases (model.h's assay_case_report) and
 * the run's summary reach whatever keeps or shows them (reports.jsonl, the terminal, a results
 * store, report formats). The runner (run.h) calls sinks; report.h, render.h, store.h and
 * shard.h make them.
 * Spec: suite-format.md ("What a run writes").
 */
#ifndef ASSAY_SINK_H
#define ASSAY_SINK_H

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The suite (suite.h) a run's summary and a sink's on_begin name. */
struct assay_suite;

/** Counts for one checkpoint and group type (summary.json). */
typedef struct assay_tally {
	size_t passed;
	size_t total;
	size_t errors;
	double score_sum;
} assay_tally;

/** The run's aggregate, handed to sinks at the end. */
typedef struct assay_run_summary {
	const struct assay_suite *suite;
	const assay_value *json; /**< summary.json's object (owned by the runner) */
	assay_tally total;
	size_t planned;          /**< cases the run was to run */
	double wall_s;           /**< seconds this invocation of the run took */
	bool interrupted;        /**< stopped early (the stop flag, or fail_fast): not every case
				      ran; summary.json's "not_run" names those that did not */
	double earlier_s;        /**< seconds earlier invocations of a resumed run took (0: none);
				      summary.json's `duration` is both */
} assay_run_summary;

/**
 * A report sink: where finished cases go (reports.jsonl is the first; JUnit, TAP, a results
 * store are others). Every callback may be NULL. A non-zero return from a callback stops the
 * run with that error (a sink that cannot write must not lose results silently).
 * `on_case` gets the cases in run order (the same order at any `jobs`), unless `any_order` is
 * set: then each case as soon as it is verified, in the order cases finish.
 */
typedef struct assay_sink {
	void *payload;
	int (*on_begin)(void *payload, const struct assay_suite *suite, size_t total,
			assay_err *err);
	int (*on_case)(void *payload, const assay_case_report *report, assay_err *err);
	int (*on_end)(void *payload, const assay_run_summary *summary, assay_err *err);
	void (*free)(void *payload);
	/** A case is about to run (`index`: its 1-based position in run order, of `total`;
	 *  with jobs > 1 several cases run at once and starts come in any order): once per case,
	 *  when its adapter has started it. A case that waits for room a running case holds is
	 *  announced when it does start; a case replayed, or that could not be loaded or its
	 *  working folder made, is not announced (on_case has it); one whose server found no
	 *  room for its folders is announced again when it starts again (pool.c again). `id` is
	 *  the suite's (assay_group cases[].id): it lasts the run, and a sink may keep it.
	 *  May be NULL. */
	void (*on_start)(void *payload, const struct assay_checkpoint *checkpoint,
			 const struct assay_group *group, const char *id, size_t index,
			 size_t total);
	/** true: `on_case` takes cases in the order they finish (a results store, which keeps
	 *  each case's position); false (the default): in run order. */
	bool any_order;
	/** Makes lasting what `on_case` took (a store commits its open batch); may be NULL.
	 *  Called while cases run: when the runner has nothing to do for a moment (20 ms), and
	 *  at the latest ASSAY_SINK_FLUSH_SECONDS after the first case taken since the last
	 *  call (on_end comes at the end). A non-zero return stops the run as above. */
	int (*flush)(void *payload, assay_err *err);
	/** Called at every turn of the runner's loop while cases run: at most 0.2 s apart
	 *  whatever the cases do, unless verifying or storing a case holds the loop. For what a
	 *  sink shows as time passes (the terminal writes the progress line its rate limit held
	 *  back); may be NULL. */
	void (*tick)(void *payload);
} assay_sink;

/** The longest a runner lets a case wait for assay_sink.flush while cases run, seconds. */
#define ASSAY_SINK_FLUSH_SECONDS 0.25

#ifdef __cplusplus
}
#endif
#endif
