/*
 * reports.jsonl and summary.json (suite-format.md, "What a run writes"). Each report line is
 * serialised whole, then written with one write(2) on an O_APPEND descriptor, so a crash or a
 * kill leaves only complete lines; summary.json goes through a temp file and rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/report.h"
#include "util/banned.h"

struct jsonl {
	char *dir;
	char *reports;
	int fd;
	bool resume;
	size_t keep_len;
	size_t value_cap;
	assay_buf line;
};

/* The blob store of a results folder: DIR/blobs/<2 hex digits>/<sha256>. */
struct file_blob {
	assay_fs_atomic w;
	const char *dir;
};

static int blob_open(void *payload, void **handle, assay_err *err)
{
	struct file_blob *b = assay_xcalloc(1, sizeof(*b));
	char *blobs = assay_path_join(payload, "blobs");
	int rc;

	b->dir = payload;
	if ((rc = assay_fs_mkdirs(blobs, err)) ||
	    (rc = assay_fs_atomic_open(&b->w, blobs, 0644, err))) {
		free(blobs);
		free(b);
		return rc;
	}
	free(blobs);
	*handle = b;
	return 0;
}

static int blob_write(void *handle, const char *data, size_t len, assay_err *err)
{
	struct file_blob *b = handle;

	return assay_fs_atomic_write(&b->w, data, len, err);
}

static int blob_close(void *handle, const char *sha256, bool json, assay_err *err)
{
	struct file_blob *b = handle;
	char *dir = assay_xasprintf("%s/blobs/%.2s", b->dir, sha256);
	char *path = assay_path_join(dir, sha256);
	int rc;

	(void)json;
	if ((rc = assay_fs_mkdirs(dir, err)))
		assay_fs_atomic_abort(&b->w);
	else
		rc = assay_fs_atomic_commit(&b->w, path, true, err);
	free(path);
	free(dir);
	free(b);
	return rc;
}

static void blob_abort(void *handle)
{
	struct file_blob *b = handle;

	assay_fs_atomic_abort(&b->w);
	free(b);
}

void assay_blob_store_files(assay_blob_store *out, const char *dir)
{
	*out = (assay_blob_store){ blob_open, blob_write, blob_close, blob_abort, (void *)dir };
}

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct jsonl *j = payload;

	(void)suite;
	(void)total;
	j->fd = open(j->reports, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
					 (j->resume ? 0 : O_TRUNC), 0644);
	if (j->fd < 0)
		return assay_err_set(err, ASSAY_EIO, j->reports, 0, 0, "cannot create: %s",
				     strerror(errno));
	if (j->resume && ftruncate(j->fd, (off_t)j->keep_len))
		return assay_err_set(err, ASSAY_EIO, j->reports, 0, 0, "cannot cut: %s",
				     strerror(errno));
	return 0;
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct jsonl *j = payload;
	const char *p;
	size_t left;

	if (r->replayed)
		return 0;
	/* the line's own structure (report, results, an attribute) stays; values inside go */
	assay_blob_store store;
	assay_json_cut cut = { j->value_cap, &store, 3 };

	assay_blob_store_files(&store, j->dir);
	int rc;

	assay_buf_reset(&j->line);
	if ((rc = assay_json_write_cut(&j->line, r->json, 0, &cut, err)))
		return rc;
	assay_buf_addch(&j->line, '\n');
	for (p = j->line.ptr, left = j->line.len; left;) {
		ssize_t n = write(j->fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return assay_err_set(err, ASSAY_EIO, j->reports, 0, 0, "cannot write: %s",
					     strerror(errno));
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

static int on_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct jsonl *j = payload;
	assay_buf b = ASSAY_BUF_INIT;
	char *path = assay_path_join(j->dir, "summary.json");
	int rc;

	if (j->fd >= 0 && fsync(j->fd) && errno != EINVAL) {
		free(path);
		return assay_err_set(err, ASSAY_EIO, j->reports, 0, 0, "cannot write: %s",
				     strerror(errno));
	}
	assay_json_write(&b, sum->json, ASSAY_JSON_PRETTY);
	assay_buf_addch(&b, '\n');
	rc = assay_fs_write_atomic(path, b.ptr, b.len, 0644, err);
	assay_buf_release(&b);
	free(path);
	return rc;
}

static void sink_free(void *payload)
{
	struct jsonl *j = payload;

	if (j->fd >= 0)
		close(j->fd);
	free(j->dir);
	free(j->reports);
	assay_buf_release(&j->line);
	free(j);
}

static int make_sink(assay_sink *out, const char *dir, bool resume, size_t keep_len,
		     size_t value_cap, assay_err *err)
{
	int rc = assay_fs_mkdirs(dir, err);
	if (rc)
		return rc;
	struct jsonl *j = assay_xcalloc(1, sizeof(*j));
	j->dir = assay_xstrdup(dir);
	j->reports = assay_path_join(dir, "reports.jsonl");
	j->fd = -1;
	j->resume = resume;
	j->keep_len = keep_len;
	j->value_cap = value_cap ? (value_cap == SIZE_MAX ? 0 : value_cap)
				 : ASSAY_REPORT_VALUE_CAP_DEFAULT;
	j->line = (assay_buf)ASSAY_BUF_INIT;
	*out = (assay_sink){ j, on_begin, on_case, on_end, sink_free };
	return 0;
}

int assay_sink_jsonl_new(assay_sink *out, const char *dir, size_t value_cap, assay_err *err)
{
	return make_sink(out, dir, false, 0, value_cap, err);
}

int assay_sink_jsonl_resume(assay_sink *out, const char *dir, size_t keep_len, size_t value_cap,
			    assay_err *err)
{
	return make_sink(out, dir, true, keep_len, value_cap, err);
}

int assay_reports_load(assay_value *out, assay_arena *a, size_t *valid_len, const char *dir,
		       assay_err *err)
{
	assay_buf text = ASSAY_BUF_INIT;
	char *path = assay_path_join(dir, "reports.jsonl");
	int rc = assay_fs_read(&text, path, 0, err);

	*out = assay_value_object();
	*valid_len = 0;
	if (rc == ASSAY_ENOTFOUND) {
		assay_err_clear(err);
		rc = 0;
	}
	for (const char *p = text.ptr, *end = text.ptr + text.len; !rc && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		assay_value line;

		if (!nl || assay_json_parse(&line, a, p, (size_t)(nl - p), NULL, NULL))
			break; /* cut short by an interruption: run it again */
		const assay_value *cp = assay_object_get(&line, "checkpoint");
		const assay_value *g = assay_object_get(&line, "group");
		const assay_value *id = assay_object_get(&line, "id");
		if (!cp || !g || !id || cp->kind != ASSAY_V_STRING || g->kind != ASSAY_V_STRING ||
		    id->kind != ASSAY_V_STRING)
			break;
		char *key = assay_report_key(cp->u.s, g->u.s, id->u.s);
		assay_object_set(a, out, key, line);
		free(key);
		p = nl + 1;
		*valid_len = (size_t)(p - text.ptr);
	}
	assay_buf_release(&text);
	free(path);
	return rc;
}
