/*
 * Reading the results store back (store.h): whole values from blobs, every case in run order,
 * one case, the run's description.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/store.h"
#include "store/store_int.h"
#include "util/banned.h"

static int fetch(void *payload, const char *sha256, assay_buf *out, assay_err *err)
{
	return assay_store_blob(payload, sha256, out, err);
}

int assay_store_expand(assay_store *s, assay_value *v, assay_arena *a, assay_err *err)
{
	return assay_json_uncut(v, a, fetch, s, err);
}

/* Parses a stored line into `a`: a row that does not parse was not written by assay. */
static int parse_line(assay_store *s, sqlite3_stmt *st, int col, assay_value *out, assay_arena *a,
		      assay_err *err)
{
	assay_err pe = ASSAY_ERR_INIT;
	const char *text = (const char *)sqlite3_column_text(st, col);

	if (!text || assay_json_parse(out, a, text, (size_t)sqlite3_column_bytes(st, col), NULL,
				      &pe))
		return assay_err_set(err, ASSAY_EPARSE, s->path, 0, 0,
				     "a stored report does not parse (%s): was the store changed "
				     "by hand?", text ? pe.msg : "no text");
	return 0;
}

int assay_store_each_case(assay_store *s,
			  int (*fn)(void *payload, const assay_value *line, assay_err *err),
			  void *payload, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT line FROM cases ORDER BY position, seq", err);
	int rc = 0, step;

	if (!st)
		return ASSAY_ESTORE;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		assay_arena *a = assay_arena_new(0);
		assay_value line;

		if (!(rc = parse_line(s, st, 0, &line, a, err)))
			rc = fn(payload, &line, err);
		assay_arena_free(a);
	}
	if (!rc && step != SQLITE_DONE)
		rc = assay_store__fail(s, err, "read the cases");
	sqlite3_finalize(st);
	return rc;
}

int assay_store_get_case(assay_store *s, const assay_store_case_key *key, assay_value *out,
			 assay_arena *a, assay_err *err)
{
	int rc = assay_store_previous(s, key->checkpoint, key->group, key->id, NULL, a, out, err);

	if (rc == 0)
		return assay_err_set(err, ASSAY_ENOTFOUND, s->dir, 0, 0, "no case %s/%s/%s",
				     key->checkpoint, key->group, key->id);
	return rc < 0 ? rc : 0;
}

int assay_store_run_info(assay_store *s, assay_value *out, assay_arena *a, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT meta, started, finished, interrupted,"
						   " summary, resumes FROM run WHERE id = 1", err);
	int rc = 0, step;

	if (!st)
		return ASSAY_ESTORE;
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		assay_value summary = assay_value_null();

		if (!(rc = parse_line(s, st, 0, out, a, err)) &&
		    sqlite3_column_type(st, 4) != SQLITE_NULL)
			rc = parse_line(s, st, 4, &summary, a, err);
		if (!rc && out->kind == ASSAY_V_OBJECT) {
			assay_object_set(a, out, "started", assay_store__text(st, 1, a));
			assay_object_set(a, out, "finished", assay_store__text(st, 2, a));
			assay_object_set(a, out, "interrupted",
					 sqlite3_column_type(st, 3) == SQLITE_NULL
						 ? assay_value_null()
						 : assay_value_bool(sqlite3_column_int(st, 3)));
			assay_object_set(a, out, "resumes",
					 assay_value_int(sqlite3_column_int64(st, 5)));
			assay_object_set(a, out, "summary", summary);
		}
	} else if (step == SQLITE_DONE) {
		rc = assay_err_set(err, ASSAY_ENOTFOUND, s->dir, 0, 0, "the store holds no run");
	} else {
		rc = assay_store__fail(s, err, "read the run");
	}
	sqlite3_finalize(st);
	return rc;
}

int assay_store_each_position(assay_store *s,
			      int (*fn)(void *payload, size_t position, const char *checkpoint,
					const char *group, const char *id, assay_err *err),
			      void *payload, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT position, checkpoint, grp, id FROM cases"
						   " ORDER BY position, seq", err);
	int rc = 0, step;

	if (!st)
		return ASSAY_ESTORE;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 pos = sqlite3_column_int64(st, 0);

		rc = fn(payload, pos > 0 ? (size_t)pos : 0, (const char *)sqlite3_column_text(st, 1),
			(const char *)sqlite3_column_text(st, 2),
			(const char *)sqlite3_column_text(st, 3), err);
	}
	if (!rc && step != SQLITE_DONE)
		rc = assay_store__fail(s, err, "read the cases");
	sqlite3_finalize(st);
	return rc;
}

int assay_store_case_hash(assay_store *s, const char *checkpoint, const char *group,
			  const char *id, char out[65], assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT case_hash FROM cases WHERE"
						   " checkpoint = ? AND grp = ? AND id = ?", err);
	int rc = 0, step;

	if (!st)
		return ASSAY_ESTORE;
	out[0] = '\0';
	sqlite3_bind_text(st, 1, checkpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, group, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, id, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		const char *h = (const char *)sqlite3_column_text(st, 0);

		if (h && strlen(h) == 64)
			memcpy(out, h, 65);
	} else if (step == SQLITE_DONE) {
		rc = assay_err_set(err, ASSAY_ENOTFOUND, s->dir, 0, 0, "no case %s/%s/%s",
				   checkpoint, group, id);
	} else {
		rc = assay_store__fail(s, err, "find a case");
	}
	sqlite3_finalize(st);
	return rc;
}

int assay_store_set_case_hash(assay_store *s, const char *checkpoint, const char *group,
			      const char *id, const char *sha256, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "UPDATE cases SET case_hash = ? WHERE"
						   " checkpoint = ? AND grp = ? AND id = ?", err);
	int rc = 0;

	if (!st)
		return ASSAY_ESTORE;
	if (sha256 && *sha256)
		sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_text(st, 2, checkpoint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, group, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = assay_store__fail(s, err, "set a case's hash");
	else if (!sqlite3_changes(s->db))
		rc = assay_err_set(err, ASSAY_ENOTFOUND, s->dir, 0, 0, "no case %s/%s/%s",
				   checkpoint, group, id);
	sqlite3_finalize(st);
	return rc;
}
