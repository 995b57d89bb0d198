/*
 * Finished cases in the results store (store.h): keeping one in one transaction, finding one
 * for resume, counting them.
 *
 * Key decisions:
 * - A case's row is its report line as written (values past the cap cut into blobs in the same
 *   transaction), plus columns copied out of it (verdict, timings, execution) so the store can
 *   be queried with SQL alone (its attributes with json_each over `line`). The columns are read
 *   from the line parsed back, or, when nothing was cut and the report is a value its text gives
 *   back exactly (json_lib.h, assay_json__reads_back), from the report itself: the same
 *   values without a parse per case.
 * - `position` is the case's place in the run, so reading in position order gives the run's
 *   order whatever order cases finished in (a pool, a resumed run); `seq` is the order of
 *   commits.
 * - A result is kept with the SHA-256 of its case file: resuming replays it only while the
 *   file is unchanged, and a case run again replaces its old result in the same statement
 *   (INSERT OR REPLACE: the old row goes only if the new one is kept).
 * - One statement per case, no savepoint, unless the case wrote a blob (blob.c opens the
 *   savepoint then): a statement is kept whole or not at all by itself, and a savepoint per
 *   case was a tenth of the store's time per trivial case (bench/store.c).
 */
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/store.h"
#include "store/store_int.h"
#include "assay/report.h"
#include "json/json_lib.h"
#include "util/banned.h"

static void bind_number(sqlite3_stmt *st, int col, const assay_value *v)
{
	if (v && (v->kind == ASSAY_V_INT || v->kind == ASSAY_V_REAL))
		sqlite3_bind_double(st, col, assay_value_number(v));
	else
		sqlite3_bind_null(st, col);
}

static void bind_int(sqlite3_stmt *st, int col, const assay_value *v)
{
	if (v && v->kind == ASSAY_V_INT)
		sqlite3_bind_int64(st, col, v->u.i);
	else if (v && v->kind == ASSAY_V_BOOL)
		sqlite3_bind_int(st, col, v->u.b);
	else
		sqlite3_bind_null(st, col);
}

static void bind_str(sqlite3_stmt *st, int col, const assay_value *v)
{
	if (v && v->kind == ASSAY_V_STRING)
		sqlite3_bind_text(st, col, v->u.s, (int)v->len, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, col);
}

static int put_row(assay_store *s, const assay_case_report *r, const assay_value *line,
		   const assay_buf *text, assay_err *err)
{
	const assay_value *ex = assay_report_get(line, "execution");
	sqlite3_stmt *st = assay_store__cached(
		s, ASSAY_STORE__ROW,
		"INSERT OR REPLACE INTO cases (position, checkpoint, grp, id, type, passed, score,"
		" error, duration, timestamp, status, exit_code, wall_time, cpu_time, max_rss, line,"
		" case_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", err);
	char hash[65];
	int rc = 0;

	if (!st)
		return ASSAY_ESTORE;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)r->index);
	sqlite3_bind_text(st, 2, r->checkpoint->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->group->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->id, -1, SQLITE_STATIC);
	bind_str(st, 5, assay_object_get(line, "type"));
	sqlite3_bind_int(st, 6, r->passed);
	sqlite3_bind_double(st, 7, r->score);
	if (r->error)
		sqlite3_bind_text(st, 8, r->error, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 8);
	bind_number(st, 9, assay_object_get(line, "duration"));
	bind_str(st, 10, assay_object_get(line, "timestamp"));
	bind_str(st, 11, assay_object_get(ex, "status"));
	bind_int(st, 12, assay_object_get(ex, "exit_code"));
	bind_number(st, 13, assay_object_get(ex, "wall_time"));
	bind_number(st, 14, assay_object_get(ex, "cpu_time"));
	bind_int(st, 15, assay_object_get(ex, "max_rss"));
	sqlite3_bind_text(st, 16, text->ptr, (int)text->len, SQLITE_STATIC);
	/* the file as it was loaded (read once), else as it is now */
	if (r->kase && r->kase->sha256[0])
		sqlite3_bind_text(st, 17, r->kase->sha256, -1, SQLITE_STATIC);
	else if (r->kase && r->kase->file && !assay_fs_sha256(r->kase->file, hash, NULL))
		sqlite3_bind_text(st, 17, hash, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 17);
	/* a case with a result already (of an older version of its file, or run again): that
	 * result is replaced by this one, in this one statement */
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = assay_store__fail(s, err, "store a case");
	sqlite3_reset(st);
	return rc;
}

int assay_store__case_savepoint(assay_store *s, assay_err *err)
{
	if (!s->putting || s->savepoint)
		return 0;
	if (assay_store__exec_cached(s, ASSAY_STORE__SAVEPOINT, "SAVEPOINT assay_case", err))
		return ASSAY_ESTORE;
	s->savepoint = true;
	return 0;
}

int assay_store_put_case(assay_store *s, const assay_case_report *r, size_t value_cap,
			 assay_buf *line_out, assay_err *err)
{
	assay_buf text = ASSAY_BUF_INIT;
	assay_blob_store blobs;
	assay_json_cut cut = { value_cap, &blobs, 3 };
	assay_arena *a = NULL;
	assay_value parsed;
	const assay_value *line = &parsed;
	bool cut_any = true;
	int rc;

	assay_store_blobs(s, &blobs);
	if (!s->batch) {
		if ((rc = assay_store__exec_cached(s, ASSAY_STORE__BEGIN, "BEGIN IMMEDIATE", err)))
			return rc;
		s->batch = true;
		s->batch_t0 = assay_now();
	}
	/* one statement keeps the case (put_row): a savepoint only once a blob is written
	 * (blob.c), so that the case's blobs and its row are kept or dropped together */
	s->putting = true;
	if ((rc = assay_json__write_cut_any(&text, r->json, 0, &cut, &cut_any, err)))
		goto rollback;
	/* The row's columns hold the values as the line does: read back from it, unless nothing
	 * was cut and the report is a value its text gives back (json_lib.h) — then the report
	 * itself is what a parse would make, at no parse. */
	if (cut_any || !assay_json__reads_back(r->json)) {
		a = assay_arena_new(0);
		if ((rc = assay_json_parse(&parsed, a, text.ptr, text.len, NULL, err)))
			goto rollback;
	} else {
		line = r->json;
	}
	if ((rc = put_row(s, r, line, &text, err)) ||
	    (s->savepoint && (rc = assay_store__exec_cached(s, ASSAY_STORE__RELEASE,
							    "RELEASE assay_case", err))))
		goto rollback;
	s->savepoint = false;
	if (line_out)
		assay_buf_add(line_out, text.ptr, text.len);
	if (assay_now() - s->batch_t0 >= ASSAY_STORE_BATCH_SECONDS)
		rc = assay_store_flush(s, err);
	goto out;
rollback:
	if (s->savepoint &&
	    !assay_store__exec_cached(s, ASSAY_STORE__ROLLBACK_TO, "ROLLBACK TO assay_case", NULL))
		assay_store__exec_cached(s, ASSAY_STORE__RELEASE, "RELEASE assay_case", NULL);
	s->savepoint = false;
	/* SQLite may have rolled back the whole transaction (a full disk): the batch is gone */
	if (sqlite3_get_autocommit(s->db))
		s->batch = false;
out:
	s->putting = false;
	assay_arena_free(a);
	assay_buf_release(&text);
	return rc;
}

int assay_store_previous(void *payload, const char *checkpoint, const char *group,
			 const char *id, const char *case_file, assay_arena *a, assay_value *out,
			 assay_err *err)
{
	assay_store *s = payload;
	sqlite3_stmt *st = assay_store__cached(s, ASSAY_STORE__PREVIOUS,
					       "SELECT line, case_hash FROM cases WHERE"
					       " checkpoint = ? AND grp = ? AND id = ?", err);
	char hash[65];
	int rc = 0, step;

	if (!st)
		return ASSAY_ESTORE;
	sqlite3_bind_text(st, 1, checkpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, group, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, id, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW && case_file) {
		const char *kept = (const char *)sqlite3_column_text(st, 1);

		if (!kept || assay_fs_sha256(case_file, hash, NULL) || strcmp(kept, hash))
			step = SQLITE_DONE; /* made from another version of the case: run it */
	}
	if (step == SQLITE_ROW) {
		assay_err pe = ASSAY_ERR_INIT;

		if (assay_json_parse(out, a, (const char *)sqlite3_column_text(st, 0),
				     (size_t)sqlite3_column_bytes(st, 0), NULL, &pe))
			rc = assay_err_set(err, ASSAY_EPARSE, s->path, 0, 0,
					   "the stored result of %s/%s/%s does not parse (%s): "
					   "was the store changed by hand?", checkpoint, group, id,
					   pe.msg);
		else
			rc = 1;
	} else if (step != SQLITE_DONE) {
		rc = assay_store__fail(s, err, "find a case");
	}
	sqlite3_reset(st);
	return rc;
}

int assay_store_drop_group(assay_store *s, const char *checkpoint, const char *group,
			   assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "DELETE FROM cases WHERE checkpoint = ? AND grp = ?",
						err);
	int rc = 0;

	if (!st)
		return ASSAY_ESTORE;
	sqlite3_bind_text(st, 1, checkpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, group, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = assay_store__fail(s, err, "drop a group's results");
	sqlite3_finalize(st);
	return rc;
}

int assay_store_set_positions(assay_store *s, const assay_store_case_key *places, size_t n,
			      assay_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = assay_store_flush(s, err)) ||
	    (rc = assay_store__exec(s, "BEGIN IMMEDIATE", err)))
		return rc;
	st = assay_store__prepare(s, "UPDATE cases SET position = ?1 WHERE checkpoint = ?2 AND"
				     " grp = ?3 AND id = ?4 AND position <> ?1", err);
	if (!st) {
		rc = ASSAY_ESTORE;
		goto rollback;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)(i + 1));
		sqlite3_bind_text(st, 2, places[i].checkpoint, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, places[i].group, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, places[i].id, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = assay_store__fail(s, err, "give the cases their places in the run");
			goto rollback;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return assay_store__exec(s, "COMMIT", err);
rollback:
	sqlite3_finalize(st);
	assay_store__exec(s, "ROLLBACK", NULL);
	return rc;
}

int assay_store_count(assay_store *s, size_t *count_out, size_t *passed_out, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT count(*), total(passed) FROM cases", err);
	int rc = 0;

	if (!st)
		return ASSAY_ESTORE;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*count_out = (size_t)sqlite3_column_int64(st, 0);
		if (passed_out)
			*passed_out = (size_t)sqlite3_column_double(st, 1);
	} else {
		rc = assay_store__fail(s, err, "count cases");
	}
	sqlite3_finalize(st);
	return rc;
}
