/**
 * @file store.h
 * The results store: a SQLite database per results folder (DIR/assay.db) holding what a run
 * was (assay version, host, suite and its content hash, command), every finished case (its
 * report line, its attributes and timings) and the big values cut out of report lines, stored
 * once by SHA-256. Finished cases are committed together, at least every
 * ASSAY_STORE_BATCH_SECONDS, each case whole or not at all: killing assay at any moment leaves
 * a consistent store that lacks at most the cases of the last batch, and `--resume` runs only
 * the cases without a finished result.
 * Spec: docs/cli.md ("Running again into the same folder", "Resuming an interrupted run",
 * "Files"); suite-format.md "What a run writes".
 */
#ifndef ASSAY_STORE_H
#define ASSAY_STORE_H

#include "json.h"
#include "sink.h"
#include "suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The store's file in a results folder. */
#define ASSAY_STORE_FILE "assay.db"

/** The longest a finished case waits in an open transaction before it is committed, seconds
 *  (assay_store_put_case): the runner's flush interval (run.h), for callers without one. */
#define ASSAY_STORE_BATCH_SECONDS ASSAY_SINK_FLUSH_SECONDS

/** An open store (opaque). */
typedef struct assay_store assay_store;

/** assay_store_open() flags. */
#define ASSAY_STORE_WRITE 0x1 /**< create the folder and store if missing, and take the folder's
				   lock (a second writer is refused) */

/**
 * Opens the store of results folder `dir` (DIR/assay.db). A store is data from anywhere (a
 * shard's, docs/security.md "What a merge trusts"): an existing one must have each table assay
 * reads as a plain table (not a view) with the columns assay reads; SQLite runs it in defensive
 * mode with an untrusted schema, and any statement on it that runs more than 2e9 SQLite steps
 * is stopped (ASSAY_EINVALID from the call that ran it).
 * @param out   receives the store (close with assay_store_close)
 * @param flags 0 (read only; the store must exist) or ASSAY_STORE_WRITE
 * @return 0; ASSAY_ENOTFOUND (read only, and `dir` holds no store: "not a results folder");
 *         ASSAY_EBUSY (another assay writes into `dir`: the message names its pid);
 *         ASSAY_EINVALID (the store was written by a newer assay, or is not an assay store:
 *         a table that is a view or lacks a column);
 *         ASSAY_ESTORE (SQLite failed: its message); ASSAY_EIO. Nothing is changed on error.
 */
ASSAY_EXTERN int assay_store_open(assay_store **out, const char *dir, int flags, assay_err *err);

/** Closes the store (and releases the folder's lock), committing the cases not committed yet
 *  (assay_store_flush; if that fails they are lost, the store stays consistent). NULL is
 *  allowed. */
ASSAY_EXTERN void assay_store_close(assay_store *s);

/**
 * Starts (or, with `resume`, continues) the run kept in the store. A new run removes the cases
 * of the previous one. `meta` is a mapping describing the run (assay_version, host, suite,
 * suite_hash, command, submission, options ...), stored as JSON; a resumed run keeps the meta
 * it began with but for its `cases` (a number), which grows to `meta`'s when that is larger.
 * A store an older assay wrote is made this assay's schema here, not when it is opened
 * (docs/reports.md, "The store"), so a run refused before it begins leaves it as it was.
 * @return 0 or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_begin_run(assay_store *s, const assay_value *meta, bool resume,
				       assay_err *err);

/**
 * The resume lookup of assay_run_opts.previous (run.h) over the store given as `payload`: the
 * report line of case checkpoint/group/id as committed (cut values stay cut), parsed into `a`,
 * when it was made from the case file as `case_file` is now (its SHA-256 is kept with the
 * result; NULL: not checked). Only whole rows written by assay are there, one per case (the
 * store's UNIQUE key); a row the current suite does not have is never asked for.
 * @return 1 (found), 0 (no finished result, or one of another version of the case file), or
 *         ASSAY_ESTORE / ASSAY_EPARSE (a row that does not parse: the store was changed by hand)
 */
ASSAY_EXTERN int assay_store_previous(void *payload, const char *checkpoint, const char *group,
				      const char *id, const char *case_file, assay_arena *a,
				      assay_value *out, assay_err *err);

/**
 * Drops the results of every case of group `group` of checkpoint `checkpoint` (their rows;
 * blobs stay). For `--resume`: a group whose cases share state (a folder, an api
 * server) and did not finish runs again whole, and its earlier results, made on a folder or
 * server that is gone, must not outlive an interrupt of the run that replaces them (docs/cli.md,
 * "Resuming an interrupted run").
 * @return 0 or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_drop_group(assay_store *s, const char *checkpoint, const char *group,
					assay_err *err);

/**
 * The number of finished cases in the store (`passed_out`, when not NULL, gets how many passed).
 * @return 0 or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_count(assay_store *s, size_t *count_out, size_t *passed_out,
				   assay_err *err);

/**
 * Keeps one finished case: its report line (strings and containers longer
 * than `value_cap` bytes cut into blobs, json.h; 0: never cut), its attributes and timings,
 * its position r->index in the run and the SHA-256 of its case file. A result the case had
 * already (of an older version of its file) is replaced.
 * `line_out`, when not NULL, receives the line's text as stored (for a reports.jsonl).
 * The case joins the open batch (a transaction; the case is one row, kept by one statement,
 * and a savepoint when it cut values into blobs: kept whole or not at all) and the batch is
 * committed when it is ASSAY_STORE_BATCH_SECONDS old: one commit
 * per case cost more than the rest of storing it. Other connections see the case once it is
 * committed (assay_store_flush); this one at once.
 * @return 0, ASSAY_ESTORE, or the blob store's error; on error nothing of the case is kept
 *         (and, when SQLite had to abandon the transaction, nothing of its batch either)
 */
ASSAY_EXTERN int assay_store_put_case(assay_store *s, const assay_case_report *r,
				      size_t value_cap, assay_buf *line_out, assay_err *err);

/**
 * Commits the open batch of finished cases (assay_store_put_case), if any; at least every
 * ASSAY_STORE_BATCH_SECONDS while cases run, so that a killed run loses no more than that.
 * assay_store_begin_run, assay_store_end_run and assay_store_close flush first.
 * @return 0 or ASSAY_ESTORE (the batch is rolled back: its cases are not kept)
 */
ASSAY_EXTERN int assay_store_flush(assay_store *s, assay_err *err);

/** Records the run's end: its summary (a mapping) and whether it was interrupted; flushes
 *  first. @return 0 or ASSAY_ESTORE */
ASSAY_EXTERN int assay_store_end_run(assay_store *s, const assay_value *summary,
				     bool interrupted, assay_err *err);

/** The store's blob store (json.h): blobs kept in the database, in 1 MiB chunks. */
ASSAY_EXTERN void assay_store_blobs(assay_store *s, assay_blob_store *out);

/**
 * The whole blob named `sha256` appended to `out`, its bytes checked against that SHA-256.
 * @return 0, ASSAY_ENOTFOUND, ASSAY_EINVALID (the bytes do not hash to `sha256`: the store
 *         was changed by hand; `out` is as it was) or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_blob(assay_store *s, const char *sha256, assay_buf *out,
				  assay_err *err);

/**
 * Replaces every cut marker inside `v` ({"$assay_cut": ...}) by the whole value from its blob
 * (a string's bytes as a string, a container's JSON parsed, recursively), made in `a`.
 * @return 0, ASSAY_ENOTFOUND (a blob is missing) or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_expand(assay_store *s, assay_value *v, assay_arena *a,
				    assay_err *err);

/**
 * Calls `fn` with each finished case's report line, in run order. `fn` returns 0 to go on or
 * an error code, which ends the walk and is returned. Memory stays flat: each line is parsed
 * into an arena freed after its call.
 * @return 0, `fn`'s code, or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_each_case(assay_store *s,
				       int (*fn)(void *payload, const assay_value *line,
						 assay_err *err),
				       void *payload, assay_err *err);

/**
 * Calls `fn` with each finished case's place in the run (`position`, assay_case_report.index
 * as kept) and names, in run order, without reading report lines (for merging shards).
 * The strings are borrowed for the call. `fn` returns 0 to go on, or an error code that ends
 * the walk and is returned.
 * @return 0, `fn`'s code, or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_each_position(assay_store *s,
					   int (*fn)(void *payload, size_t position,
						     const char *checkpoint, const char *group,
						     const char *id, assay_err *err),
					   void *payload, assay_err *err);

/**
 * The SHA-256 of the case file a kept result was made from (what `--resume` checks), to copy
 * a result into another store with it (assay merge).
 * @param out receives 64 hex digits and a NUL, or "" when the result was kept without one
 * @return 0, ASSAY_ENOTFOUND (no such case) or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_case_hash(assay_store *s, const char *checkpoint, const char *group,
				       const char *id, char out[65], assay_err *err);

/**
 * Sets the case-file SHA-256 of a kept result (`sha256` "" or NULL: none).
 * @return 0, ASSAY_ENOTFOUND (no such case) or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_set_case_hash(assay_store *s, const char *checkpoint,
					   const char *group, const char *id, const char *sha256,
					   assay_err *err);

/** A case's name in the store: its checkpoint, group and id (all borrowed, NUL-terminated). */
typedef struct assay_store_case_key {
	const char *checkpoint;
	const char *group;
	const char *id;
} assay_store_case_key;

/**
 * Gives the finished cases their places in the run as it is now selected, so that reading in
 * position order (reports.jsonl, the reports) gives this run's order: a resumed run whose
 * selection grew, where a case kept at place 1 of the narrower run is the 7th now.
 * `places[i]` names the case at position i + 1 (as assay_case_report.index counts; borrowed for
 * the call); a kept case not among them keeps its position. One transaction (after
 * assay_store_flush): all or nothing. For `assay run --resume` (docs/cli.md, "--resume").
 * @return 0 or ASSAY_ESTORE (nothing changed)
 */
ASSAY_EXTERN int assay_store_set_positions(assay_store *s, const assay_store_case_key *places,
					   size_t n, assay_err *err);

/**
 * The report line of one case (`key->checkpoint`/`key->group`/`key->id`), made in `a` into
 * `out`; `key` is read during the call only.
 * @return 0, ASSAY_ENOTFOUND (no such case) or ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_get_case(assay_store *s, const assay_store_case_key *key,
				      assay_value *out, assay_arena *a, assay_err *err);

/**
 * The run's description (the `meta` given to assay_store_begin_run, plus started, finished,
 * interrupted and the summary when ended), in `a`. @return 0, ASSAY_ENOTFOUND, ASSAY_ESTORE
 */
ASSAY_EXTERN int assay_store_run_info(assay_store *s, assay_value *out, assay_arena *a,
				      assay_err *err);

/**
 * A sink keeping every finished case in `s` and appending its line to DIR/reports.jsonl, then
 * the summary in DIR/summary.json (atomically) and the store. With `resume`, reports.jsonl is
 * rewritten from the store first, so it holds exactly the finished cases.
 * @param out receives the sink (free it with out->free(out->payload)); `s` stays the
 *            caller's and must outlive the sink
 * @return 0, or ASSAY_EIO
 */
ASSAY_EXTERN int assay_sink_store_new(assay_sink *out, assay_store *s, const char *dir,
				      size_t value_cap, bool resume, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
