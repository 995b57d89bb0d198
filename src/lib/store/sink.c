/*
 * The results folder's sink (store.h): every finished case is stored (into the store's open
 * batch, committed within ASSAY_STORE_BATCH_SECONDS), then its line appended to
 * DIR/reports.jsonl; at the end the last batch is committed, DIR/summary.json is written and
 * the run's end recorded. The store is the truth: reports.jsonl is rewritten from it when a run
 * resumes, so after a kill its lines of cases the store did not commit (the last batch: they
 * run again) go, and a line lost between the store and the append comes back.
 *
 * Key decisions:
 * - The lines of the store's open batch wait in memory and are appended, with write(2) calls on
 *   an O_APPEND descriptor, when the batch is committed (within ASSAY_STORE_BATCH_SECONDS of a
 *   case's end): one write per batch, not per case (a write was a tenth of the main process's
 *   own work per trivial case, issue #19), and a line is in reports.jsonl only once its case
 *   is in the store. More than PENDING_MAX bytes waiting have their batch committed at once and
 *   are appended, so memory stays bounded whatever the rate (appended before the commit, a
 *   full disk that then lost the batch left lines of cases the store never had); a batch the
 *   store loses (a commit that fails, a full disk) has its waiting lines dropped with it. A
 *   kill can leave a partial last line only in reports.jsonl, never in the store. A resumed run
 *   rewrites reports.jsonl from the store when it begins and when it ends (a case run again
 *   replaces its old result).
 * - The sink takes cases in the order they finish (`any_order`: with -j N that is not run
 *   order), so a line is on disk as soon as its case is stored. When some line came out of
 *   run order, reports.jsonl is rewritten from the store in run order at the end, so a
 *   finished run's file is the same whatever the number of jobs.
 * - summary.json goes through a temp file and rename (suite-format.md "What a run writes").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/report.h"
#include "assay/store.h"
#include "store/store_int.h"
#include "util/fs_int.h"
#include "util/banned.h"

/* lines waiting for their batch's commit (bytes) beyond which they are appended at once */
#define PENDING_MAX (1024 * 1024)

struct store_sink {
	assay_store *s;
	char *dir;
	char *reports;
	int fd;
	bool resume;
	bool out_of_order; /* a line was appended before one of a case earlier in run order */
	size_t last_index;
	size_t value_cap;
	assay_buf pending; /* the lines of the store's open batch, not yet appended */
};

static int write_all(int fd, const char *p, size_t len, const char *path, assay_err *err)
{
	return assay_fs__write_all(fd, p, len) ? assay_err_set(err, ASSAY_EIO, path, 0, 0,
							       "cannot write: %s", strerror(errno))
					       : 0;
}

/* reports.jsonl made anew from the store's rows, in run order (atomically). */
static int rewrite_reports(struct store_sink *k, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(k->s, "SELECT line FROM cases ORDER BY position, seq", err);
	assay_fs_atomic w;
	int rc, step;

	if (!st)
		return ASSAY_ESTORE;
	if ((rc = assay_fs_atomic_open(&w, k->dir, 0644, err))) {
		sqlite3_finalize(st);
		return rc;
	}
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		rc = assay_fs_atomic_write(&w, sqlite3_column_text(st, 0),
					   (size_t)sqlite3_column_bytes(st, 0), err);
		if (!rc)
			rc = assay_fs_atomic_write(&w, "\n", 1, err);
	}
	if (!rc && step != SQLITE_DONE)
		rc = assay_store__fail(k->s, err, "read the cases");
	sqlite3_finalize(st);
	if (rc)
		assay_fs_atomic_abort(&w);
	else
		rc = assay_fs_atomic_commit(&w, k->reports, false, err);
	return rc;
}

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct store_sink *k = payload;
	int rc;

	(void)suite;
	(void)total;
	if (k->resume && (rc = rewrite_reports(k, err)))
		return rc;
	k->fd = open(k->reports, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW |
					 (k->resume ? 0 : O_TRUNC), 0644);
	if (k->fd < 0)
		return assay_err_set(err, ASSAY_EIO, k->reports, 0, 0, "cannot create: %s",
				     strerror(errno));
	return 0;
}

/*
 * After the store took a case or committed (rc its answer): the waiting lines are appended once
 * their batch is committed (or when too many wait), and dropped when the store lost it.
 */
static int settle(struct store_sink *k, int rc, assay_err *err)
{
	/* too much waits: the batch is committed now, so that its lines never precede it */
	if (!rc && k->s->batch && k->pending.len > PENDING_MAX)
		rc = assay_store_flush(k->s, err);
	if (k->s->batch)
		return rc; /* the batch is open (a case the store refused is not in it): its lines
			    * wait for it */
	if (rc) /* a commit failed, or SQLite abandoned the batch */
		assay_buf_reset(&k->pending);
	if (k->pending.len) {
		int wrc = write_all(k->fd, k->pending.ptr, k->pending.len, k->reports, err);

		assay_buf_reset(&k->pending);
		if (!rc)
			rc = wrc;
	}
	return rc;
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct store_sink *k = payload;
	int rc;

	if (r->replayed)
		return 0;
	if (r->index < k->last_index)
		k->out_of_order = true;
	else
		k->last_index = r->index;
	rc = assay_store_put_case(k->s, r, k->value_cap, &k->pending, err);
	if (!rc)
		assay_buf_addch(&k->pending, '\n');
	return settle(k, rc, err);
}

static int on_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct store_sink *k = payload;
	assay_buf b = ASSAY_BUF_INIT;
	char *path = assay_path_join(k->dir, "summary.json");
	int rc = 0;

	/* the last batch is committed before any file says the run is whole: a commit that
	 * fails (a full disk) leaves no summary.json claiming cases the store lacks */
	if ((rc = settle(k, assay_store_flush(k->s, err), err))) {
		free(path);
		return rc;
	}
	if (k->fd >= 0 && fsync(k->fd) && errno != EINVAL)
		rc = assay_err_set(err, ASSAY_EIO, k->reports, 0, 0, "cannot write: %s",
				   strerror(errno));
	/* a resumed run may have replaced results (cases whose file changed), and cases may
	 * have finished out of order: the file again from the store, once per case, in run
	 * order */
	if (!rc && (k->resume || k->out_of_order))
		rc = rewrite_reports(k, err);
	if (!rc) {
		assay_json_write(&b, sum->json, ASSAY_JSON_PRETTY);
		assay_buf_addch(&b, '\n');
		rc = assay_fs_write_atomic(path, b.ptr, b.len, 0644, err);
	}
	if (!rc)
		rc = assay_store_end_run(k->s, sum->json, sum->interrupted, err);
	assay_buf_release(&b);
	free(path);
	return rc;
}

static int flush(void *payload, assay_err *err)
{
	struct store_sink *k = payload;

	return settle(k, assay_store_flush(k->s, err), err);
}

static void sink_free(void *payload)
{
	struct store_sink *k = payload;

	/* a run that stopped on an error: its open batch is committed now (as closing the store
	 * would), and its lines follow it */
	if (k->pending.len && k->fd >= 0)
		settle(k, assay_store_flush(k->s, NULL), NULL);
	if (k->fd >= 0)
		close(k->fd);
	free(k->dir);
	free(k->reports);
	assay_buf_release(&k->pending);
	free(k);
}

int assay_sink_store_new(assay_sink *out, assay_store *s, const char *dir, size_t value_cap,
			 bool resume, assay_err *err)
{
	struct store_sink *k;
	int rc = assay_fs_mkdirs(dir, err);

	if (rc)
		return rc;
	k = assay_xcalloc(1, sizeof(*k));
	k->s = s;
	k->dir = assay_xstrdup(dir);
	k->reports = assay_path_join(dir, "reports.jsonl");
	k->fd = -1;
	k->resume = resume;
	k->value_cap = value_cap ? (value_cap == SIZE_MAX ? 0 : value_cap)
				 : ASSAY_REPORT_VALUE_CAP_DEFAULT;
	k->pending = (assay_buf)ASSAY_BUF_INIT;
	/* each case is stored as it finishes, with its run position: any order will do */
	*out = (assay_sink){ k, on_begin, on_case, on_end, sink_free, NULL, true, flush };
	return 0;
}
