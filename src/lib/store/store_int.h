/*
 * Internals of the results store (src/lib/store), shared by its files. Never installed.
 */
#ifndef ASSAY_STORE_INT_H
#define ASSAY_STORE_INT_H

#include <sqlite3.h>

#include "assay/store.h"

/* Statements every finished case runs: prepared once per store (assay_store__cached). */
enum assay_store__stmt {
	ASSAY_STORE__BEGIN, ASSAY_STORE__COMMIT, ASSAY_STORE__ROLLBACK, ASSAY_STORE__ROW,
	ASSAY_STORE__PREVIOUS, ASSAY_STORE__SAVEPOINT, ASSAY_STORE__RELEASE,
	ASSAY_STORE__ROLLBACK_TO, ASSAY_STORE__NSTMT
};

struct assay_store {
	sqlite3 *db;
	sqlite3_stmt *cached[ASSAY_STORE__NSTMT];
	char *dir;
	char *path;                 /* DIR/assay.db */
	int lock_fd;                /* DIR/assay.lock, flock'ed by a writer; -1 when reading */
	unsigned long blob_counter; /* temporary names of blobs being written */
	int blobs_fd;               /* DIR/blobs once opened (blob.c), else -1 */
	bool runaway;               /* a statement was stopped by the progress handler */
	bool batch;                 /* a transaction of finished cases is open (assay_store_flush) */
	double batch_t0;            /* when it began (assay_now) */
	bool putting;               /* assay_store_put_case is keeping a case */
	bool savepoint;             /* ... and has opened its savepoint (a blob was written) */
	bool upgrade;               /* opened for writing at an older schema: made the current one
				     * when a run begins (assay_store_begin_run) */
};

/* While a case is being kept (assay_store_put_case): opens its savepoint, once, so that the
 * blob about to be written goes or stays with its row. Elsewhere: nothing. @return 0 or
 * ASSAY_ESTORE */
int assay_store__case_savepoint(assay_store *s, assay_err *err);

/* Sets `err` to ASSAY_ESTORE with SQLite's message after `what`; returns ASSAY_ESTORE. */
int assay_store__fail(assay_store *s, assay_err *err, const char *what);
/* Runs SQL statements without results. @return 0 or ASSAY_ESTORE */
int assay_store__exec(assay_store *s, const char *sql, assay_err *err);
/* A prepared statement (finalize it), or NULL with `err` set. */
sqlite3_stmt *assay_store__prepare(assay_store *s, const char *sql, assay_err *err);
/*
 * Statement `which` (its text `sql`), prepared on first use and kept until the store closes:
 * returned reset and without bindings. Never finalize it; sqlite3_reset() it when done. NULL
 * with `err` set when it does not prepare.
 */
sqlite3_stmt *assay_store__cached(assay_store *s, enum assay_store__stmt which, const char *sql,
				  assay_err *err);
/* Runs cached statement `which` (no results, no bindings). @return 0 or ASSAY_ESTORE */
int assay_store__exec_cached(assay_store *s, enum assay_store__stmt which, const char *sql,
			     assay_err *err);
/* Removes the temporary blob files a killed writer left in DIR/blobs (a writer opens). */
void assay_store__sweep_blobs(assay_store *s);
/* Removes DIR/blobs and every blob file in it (a new run). @return 0 or ASSAY_EIO */
int assay_store__clear_blobs(assay_store *s, assay_err *err);
/* The current UTC time as RFC 3339 ("2026-11-23T12:00:00Z"). */
void assay_store__now(char buf[32]);
/* This machine's name (uname's nodename). */
const char *assay_store__host(void);
/* The text of column `col` as a string value in `a` (null when SQL NULL). */
assay_value assay_store__text(sqlite3_stmt *st, int col, assay_arena *a);

#endif
