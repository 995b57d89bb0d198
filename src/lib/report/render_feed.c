/*
 * Feeding renderers (render.h): during a run (a sink), from a results folder's store, or from a
 * reports.jsonl file. Whatever the source, a renderer gets the same lines: as the store keeps
 * them (values past the run's value cap cut into markers), or with the markers put back for the
 * renderers that want whole values.
 *
 * Key decisions:
 * - During a run, a case's line is made with assay_json_write_cut() at the store sink's cap and
 *   read back, exactly as the store sink writes it; the cut values go nowhere (the store keeps
 *   them). So a report made during the run is the report `assay report` makes later.
 * - Each line lives in an arena of its own, freed once every renderer has it: memory follows
 *   the biggest case, not the number of cases.
 * - A reports.jsonl file is read twice: once to check every line (a truncated or damaged file
 *   is one clear error before any renderer wrote a byte), then to render.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/report.h"
#include "assay/store.h"
#include "report/report_int.h"
#include "util/banned.h"

/* ---- a sink -------------------------------------------------------------------------------- */

struct render_sink {
	assay_renderer **rs;
	size_t n;
	assay_arena *run_arena;
	assay_value run;
	size_t value_cap;
	assay_store *store;
	bool any_whole, any_cut;
	assay_buf text;
};

static int discard_open(void *payload, void **handle, assay_err *err)
{
	(void)err;
	*handle = payload;
	return 0;
}

static int discard_write(void *handle, const char *data, size_t len, assay_err *err)
{
	(void)handle, (void)data, (void)len, (void)err;
	return 0;
}

static int discard_close(void *handle, const char *sha256, bool json, assay_err *err)
{
	(void)handle, (void)sha256, (void)json, (void)err;
	return 0;
}

static void discard_abort(void *handle)
{
	(void)handle;
}

/* `text` as a value in `a` (it was written by assay_json_write: it parses). */
static assay_value reparse(assay_arena *a, const assay_buf *text)
{
	assay_value v;

	if (assay_json_parse(&v, a, text->ptr, text->len, NULL, NULL))
		ASSAY_BUG("assay's own JSON text does not parse");
	return v;
}

static int feed(assay_renderer **rs, size_t n, const assay_value *cut, const assay_value *whole,
		assay_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = assay_renderer_case(rs[i], assay_renderer_whole(rs[i]) ? whole : cut, err);

		if (rc)
			return rc;
	}
	return 0;
}

static int end_all(assay_renderer **rs, size_t n, const assay_value *summary, assay_err *err)
{
	int first = 0;

	/* every report that can be finished is, even when another one failed */
	for (size_t i = 0; i < n; i++) {
		int rc = assay_renderer_end(rs[i], summary, first ? NULL : err);

		if (rc && !first)
			first = rc;
	}
	return first;
}

static int begin_all(assay_renderer **rs, size_t n, const assay_value *run, size_t total,
		     assay_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = assay_renderer_begin(rs[i], run, total, err);

		if (rc)
			return rc;
	}
	return 0;
}

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct render_sink *k = payload;

	if (k->run.kind != ASSAY_V_OBJECT) {
		k->run = assay_value_object();
		assay_object_set(k->run_arena, &k->run, "suite", assay_value_strz(k->run_arena,
										 suite->name));
	}
	return begin_all(k->rs, k->n, &k->run, total, err);
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct render_sink *k = payload;
	assay_arena *a = assay_arena_new(0);
	assay_value cut = assay_value_null(), whole = assay_value_null();
	int rc = 0;

	if (r->replayed) {
		/* a line kept by the store: as each_case would give it */
		cut = *r->json;
		if (k->any_whole) {
			whole = assay_value_copy(a, r->json);
			if (k->store && (rc = assay_store_expand(k->store, &whole, a, err)))
				goto out;
		}
	} else {
		if (k->any_cut) {
			assay_blob_store discard = { discard_open, discard_write, discard_close,
						     discard_abort, k };
			assay_json_cut how = { k->value_cap, &discard, 3 };

			assay_buf_reset(&k->text);
			if ((rc = assay_json_write_cut(&k->text, r->json, 0, &how, err)))
				goto out;
			cut = reparse(a, &k->text);
		}
		if (k->any_whole) {
			assay_buf_reset(&k->text);
			assay_json_write(&k->text, r->json, 0);
			whole = reparse(a, &k->text);
		}
	}
	rc = feed(k->rs, k->n, &cut, &whole, err);
out:
	assay_arena_free(a);
	return rc;
}

static int on_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct render_sink *k = payload;
	assay_arena *a = assay_arena_new(0);
	assay_value summary;
	int rc;

	/* the summary as the store keeps it */
	assay_buf_reset(&k->text);
	assay_json_write(&k->text, sum->json, 0);
	summary = reparse(a, &k->text);
	rc = end_all(k->rs, k->n, &summary, err);
	assay_arena_free(a);
	return rc;
}

static void sink_free(void *payload)
{
	struct render_sink *k = payload;

	for (size_t i = 0; i < k->n; i++)
		assay_renderer_free(k->rs[i]);
	free(k->rs);
	assay_arena_free(k->run_arena);
	assay_buf_release(&k->text);
	free(k);
}

int assay_sink_render_new(assay_sink *out, const assay_sink_render_in *in, assay_err *err)
{
	struct render_sink *k = assay_xcalloc(1, sizeof(*k));
	assay_renderer **rs = in->rs;
	size_t n = in->n, value_cap = in->value_cap;
	const assay_value *run = in->run;

	(void)err;
	k->rs = assay_xcalloc(n ? n : 1, sizeof(*k->rs));
	memcpy(k->rs, rs, n * sizeof(*rs));
	k->n = n;
	k->run_arena = assay_arena_new(0);
	k->run = run ? assay_value_copy(k->run_arena, run) : assay_value_null();
	/* the store sink's rule (store.h): 0 is the default, SIZE_MAX never cuts */
	k->value_cap = value_cap ? (value_cap == SIZE_MAX ? 0 : value_cap)
				 : ASSAY_REPORT_VALUE_CAP_DEFAULT;
	k->store = in->store;
	k->text = (assay_buf)ASSAY_BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (assay_renderer_whole(rs[i]))
			k->any_whole = true;
		else
			k->any_cut = true;
	}
	*out = (assay_sink){ k, on_begin, on_case, on_end, sink_free, NULL };
	return 0;
}

/* ---- from a store ---------------------------------------------------------------------------- */

struct walk {
	assay_renderer **rs;
	size_t n;
	assay_store *s;
	bool any_whole;
};

static int walk_case(void *payload, const assay_value *line, assay_err *err)
{
	struct walk *w = payload;
	assay_arena *a = NULL;
	assay_value whole = assay_value_null();
	int rc;

	if (w->any_whole && w->s) {
		a = assay_arena_new(0);
		whole = assay_value_copy(a, line);
		if ((rc = assay_store_expand(w->s, &whole, a, err)))
			goto out;
	} else {
		whole = *line;
	}
	rc = feed(w->rs, w->n, line, &whole, err);
out:
	assay_arena_free(a);
	return rc;
}

static bool wants_whole(assay_renderer **rs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (assay_renderer_whole(rs[i]))
			return true;
	return false;
}

int assay_render_store(assay_store *s, assay_renderer **rs, size_t n, assay_err *err)
{
	struct walk w = { rs, n, s, wants_whole(rs, n) };
	assay_arena *a = assay_arena_new(0);
	assay_value info;
	const assay_value *summary = NULL;
	size_t total = 0;
	int rc = assay_store_run_info(s, &info, a, err);

	if (rc == ASSAY_ENOTFOUND) {
		assay_err_clear(err);
		info = assay_value_null();
	} else if (rc) {
		goto out;
	}
	summary = assay_object_get(&info, "summary");
	if (summary && summary->kind != ASSAY_V_OBJECT)
		summary = NULL;
	if ((rc = assay_store_count(s, &total, NULL, err)) ||
	    (rc = begin_all(rs, n, info.kind == ASSAY_V_OBJECT ? &info : NULL, total, err)) ||
	    (rc = assay_store_each_case(s, walk_case, &w, err)))
		goto out;
	rc = end_all(rs, n, summary, err);
out:
	assay_arena_free(a);
	return rc;
}

/* ---- from a reports.jsonl file ------------------------------------------------------------ */

/* Why `v` is not a report line assay wrote (its identity and verdict), or NULL. */
static const char *not_a_report(const assay_value *v)
{
	static const char *const keys[] = { "checkpoint", "group", "id" };
	const assay_value *passed = assay_report_get(v, "passed");

	for (size_t i = 0; i < 3; i++) {
		const assay_value *k = i ? assay_object_get(v, keys[i])
					 : assay_report_get(v, keys[i]);

		if (!k || k->kind != ASSAY_V_STRING || !k->len)
			return keys[i];
	}
	if (!passed || passed->kind != ASSAY_V_BOOL)
		return "passed";
	return NULL;
}

/* Calls fn with each line of the file parsed; a line that does not parse is an error naming
 * the file and line ("truncated" when it is the last one and has no newline). */
static int each_line(const char *path, FILE *f, int (*fn)(void *, const assay_value *, assay_err *),
		     void *payload, size_t *count, assay_err *err)
{
	char *line = NULL;
	size_t cap = 0, no = 0;
	ssize_t len;
	int rc = 0;

	*count = 0;
	rewind(f);
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		bool nl = len > 0 && line[len - 1] == '\n';
		assay_arena *a;
		assay_value v;
		assay_err pe = ASSAY_ERR_INIT;
		size_t n = (size_t)len - nl;

		no++;
		if (strspn(line, " \t\r\n") == (size_t)len)
			continue;
		a = assay_arena_new(0);
		if (assay_json_parse(&v, a, line, n, NULL, &pe) || v.kind != ASSAY_V_OBJECT) {
			/* the line number in the message: a report line is too long to quote */
			if (!nl && pe.code)
				rc = assay_err_set(err, ASSAY_EPARSE, path, 0, 0,
						   "line %zu: truncated: the file ends in the middle "
						   "of a report line (%s)", no, pe.msg);
			else if (pe.code)
				rc = assay_err_set(err, ASSAY_EPARSE, path, 0, 0,
						   "line %zu, column %d: not a report line: %s", no,
						   pe.column, pe.msg);
			else
				rc = assay_err_set(err, ASSAY_EPARSE, path, 0, 0,
						   "line %zu: not a report line: not a JSON object",
						   no);
		} else if (not_a_report(&v)) {
			rc = assay_err_set(err, ASSAY_EPARSE, path, 0, 0,
					   "line %zu: not a report line: no %s %s", no,
					   not_a_report(&v),
					   strcmp(not_a_report(&v), "passed") ? "(a non-empty string)"
									      : "(true or false)");
		} else {
			(*count)++;
			if (fn)
				rc = fn(payload, &v, err);
		}
		assay_arena_free(a);
	}
	if (!rc && ferror(f))
		rc = assay_err_set(err, ASSAY_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
	free(line);
	return rc;
}

static int feed_line(void *payload, const assay_value *line, assay_err *err)
{
	struct walk *w = payload;

	return feed(w->rs, w->n, line, line, err);
}

int assay_render_jsonl(const char *path, assay_renderer **rs, size_t n, assay_err *err)
{
	struct walk w = { rs, n, NULL, false };
	FILE *f = fopen(path, "re");
	char *dir = NULL, *spath = NULL;
	assay_arena *a = assay_arena_new(0);
	assay_buf sb = ASSAY_BUF_INIT;
	assay_value summary = assay_value_null(), run = assay_value_object();
	size_t total;
	int rc;

	if (!f) {
		rc = assay_err_set(err, errno == ENOENT ? ASSAY_ENOTFOUND : ASSAY_EIO, path, 0, 0,
				   "cannot open: %s", strerror(errno));
		goto out;
	}
	if (assay_report__is_parquet(path)) {
		/* a reports.parquet: its rows are the report lines (from_parquet_row) */
		uint64_t rows = 0;

		if ((rc = assay_report__parquet_lines(path, NULL, NULL, &rows, err)) ||
		    (rc = begin_all(rs, n, NULL, (size_t)rows, err)) ||
		    (rc = assay_report__parquet_lines(path, feed_line, &w, NULL, err)))
			goto out;
		rc = end_all(rs, n, NULL, err);
		goto out;
	}
	if ((rc = each_line(path, f, NULL, NULL, &total, err)))
		goto out;
	dir = assay_xstrdup(path);
	*(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir) = '\0';
	spath = assay_xasprintf("%ssummary.json", dir);
	if (!assay_fs_read(&sb, spath, 0, NULL)) {
		assay_err pe = ASSAY_ERR_INIT;

		if (assay_json_parse(&summary, a, sb.ptr, sb.len, NULL, &pe) ||
		    summary.kind != ASSAY_V_OBJECT) {
			rc = assay_err_set(err, ASSAY_EPARSE, spath, pe.line, pe.column,
					   "not a summary: %s", pe.code ? pe.msg : "not an object");
			goto out;
		}
		assay_object_set(a, &run, "suite", assay_value_strz(a, assay_report__str(
								       &summary, "suite", "assay")));
	}
	if ((rc = begin_all(rs, n, &run, total, err)) ||
	    (rc = each_line(path, f, feed_line, &w, &total, err)))
		goto out;
	rc = end_all(rs, n, summary.kind == ASSAY_V_OBJECT ? &summary : NULL, err);
out:
	if (f)
		fclose(f);
	free(dir);
	free(spath);
	assay_buf_release(&sb);
	assay_arena_free(a);
	return rc;
}

int assay_report_each_line(const char *source,
			   int (*fn)(void *payload, const assay_value *line, assay_err *err),
			   void *payload, assay_err *err)
{
	assay_store *s = NULL;
	FILE *f;
	size_t count;
	int rc;

	if (assay_fs_is_dir(source)) {
		if ((rc = assay_store_open(&s, source, 0, err)))
			return rc;
		rc = assay_store_each_case(s, fn, payload, err);
		assay_store_close(s);
		return rc;
	}
	if (!(f = fopen(source, "re")))
		return assay_err_set(err, errno == ENOENT ? ASSAY_ENOTFOUND : ASSAY_EIO, source, 0,
				     0, "cannot open: %s", strerror(errno));
	if (assay_report__is_parquet(source)) {
		fclose(f);
		if ((rc = assay_report__parquet_lines(source, NULL, NULL, NULL, err)))
			return rc;
		return assay_report__parquet_lines(source, fn, payload, NULL, err);
	}
	rc = each_line(source, f, NULL, NULL, &count, err);
	if (!rc)
		rc = each_line(source, f, fn, payload, &count, err);
	fclose(f);
	return rc;
}
