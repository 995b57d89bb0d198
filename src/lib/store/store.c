/*
 * The results store (store.h): one SQLite database per results folder, its lock, the run's
 * description, the finished cases and the blobs cut out of report lines.
 *
 * Key decisions:
 * - SQLite in WAL mode with synchronous=NORMAL: a committed transaction survives the process
 *   being killed (SIGKILL) at any moment. Finished cases are committed in batches, at least
 *   every ASSAY_STORE_BATCH_SECONDS (store.h): a commit costs more than storing a small case
 *   (its pages written to the log again for every case), and a batch of 0.25 s is little to
 *   run again after a kill. A case is one row, kept by one statement (a case run again
 *   replaces its old row in it), and a case that cut values into blobs is a savepoint in its
 *   batch (its blobs, its row), so a case is in the store whole or not at all.
 * - The folder's lock is an flock() on DIR/assay.lock (close-on-exec, holding the writer's
 *   pid), taken before anything is written: a second writer is refused and told whose it is.
 * - Blobs (blob.c) are a row of blob_chunks up to 1 MiB, a file in DIR/blobs beyond.
 * - Readers create nothing in the results folder: the writer leaves the store in rollback
 *   mode when it closes, and a store still in WAL mode without its log is opened immutable.
 * - The schema carries its version; a store of a newer version is refused untouched.
 * - A case is its report line plus columns copied out of it (verdict, timings) for SQL; its
 *   attributes are only in the line (SQLite's json_each reads them: docs/reports.md). Rows of
 *   their own (schema 2) cost more than a third of the store's time per trivial case
 *   (bench/store.c), and nothing of assay read them.
 *
 * Refuses to: keep two results for one case (UNIQUE checkpoint/group/id), or write without
 * the lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "assay/fs.h"
#include "assay/store.h"
#include "store/store_int.h"
#include "util/banned.h"
#include "util/sha256.h"

/* 2: big blobs are files in DIR/blobs (blob.c); 3: no `attributes` table (a case is its row,
 * the attributes are in its line: docs/reports.md, "The store") */
#define SCHEMA_VERSION 3
/* A statement of a reader that runs this many SQLite VM steps is stopped: a legitimate read
 * of the largest store takes a small fraction of it (each row costs tens of steps). */
#define MAX_VM_STEPS 2000000000

/* Every table assay reads, with the columns it reads (a hostile store may have replaced a table
 * with a view over an endless recursive query, or dropped a column). */
static const struct {
	const char *table, *columns;
} tables[] = {
	{ "meta", "key value" },
	{ "run", "id meta started finished interrupted summary resumes" },
	{ "cases", "seq position checkpoint grp id case_hash type passed score error duration"
		   " timestamp status exit_code wall_time cpu_time max_rss line" },
	{ "blobs", "sha256 kind bytes" },
	{ "blob_chunks", "blob seq data" },
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS run (id INTEGER PRIMARY KEY CHECK (id = 1), meta TEXT NOT NULL,"
	" started TEXT NOT NULL, finished TEXT, interrupted INTEGER, summary TEXT,"
	" resumes INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS cases (seq INTEGER PRIMARY KEY, position INTEGER NOT NULL,"
	" checkpoint TEXT NOT NULL, grp TEXT NOT NULL, id TEXT NOT NULL, case_hash TEXT,"
	" type TEXT, passed INTEGER NOT NULL,"
	" score REAL NOT NULL, error TEXT, duration REAL, timestamp TEXT, status TEXT,"
	" exit_code INTEGER, wall_time REAL, cpu_time REAL, max_rss INTEGER, line TEXT NOT NULL,"
	" UNIQUE (checkpoint, grp, id));"
	"CREATE INDEX IF NOT EXISTS cases_position ON cases (position, seq);"
	"CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY, kind TEXT NOT NULL,"
	" bytes INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS blob_chunks (blob TEXT NOT NULL, seq INTEGER NOT NULL,"
	" data BLOB NOT NULL, PRIMARY KEY (blob, seq));";

int assay_store__fail(assay_store *s, assay_err *err, const char *what)
{
	if (s->runaway)
		return assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
				     "%s: a query ran more than %d steps and was stopped: was the "
				     "store changed by hand?", what, MAX_VM_STEPS);
	return assay_err_set(err, ASSAY_ESTORE, s->path, 0, 0, "%s: %s", what,
			     sqlite3_errmsg(s->db));
}

int assay_store__exec(assay_store *s, const char *sql, assay_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	assay_err_set(err, ASSAY_ESTORE, s->path, 0, 0, "%s", msg ? msg : "SQLite failed");
	sqlite3_free(msg);
	return ASSAY_ESTORE;
}

sqlite3_stmt *assay_store__prepare(assay_store *s, const char *sql, assay_err *err)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		assay_store__fail(s, err, "prepare");
		return NULL;
	}
	return st;
}

sqlite3_stmt *assay_store__cached(assay_store *s, enum assay_store__stmt which, const char *sql,
				  assay_err *err)
{
	sqlite3_stmt *st = s->cached[which];

	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 1); /* (runaway) */
		return st;
	}
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		assay_store__fail(s, err, "prepare");
		return NULL;
	}
	return s->cached[which] = st;
}

int assay_store__exec_cached(assay_store *s, enum assay_store__stmt which, const char *sql,
			     assay_err *err)
{
	sqlite3_stmt *st = assay_store__cached(s, which, sql, err);
	int rc = 0;

	if (!st)
		return ASSAY_ESTORE;
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = assay_store__fail(s, err, sql);
	sqlite3_reset(st);
	return rc;
}

void assay_store__now(char buf[32])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Takes DIR/assay.lock (flock, non-blocking) and writes our pid into it. */
static int take_lock(assay_store *s, const char *dir, assay_err *err)
{
	char *path = assay_path_join(dir, "assay.lock");
	char pid[32] = "";
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	int rc = 0;

	if (fd < 0) {
		rc = assay_err_set(err, ASSAY_EIO, path, 0, 0, "cannot open the lock: %s",
				   strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ssize_t n = read(fd, pid, sizeof(pid) - 1);

		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		rc = assay_err_set(err, ASSAY_EBUSY, dir, 0, 0,
				   "another assay run%s%s%s is writing into this results folder",
				   *pid ? " (pid " : "", pid, *pid ? ")" : "");
		close(fd);
		goto out;
	}
	if (ftruncate(fd, 0) == 0) {
		int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

		if (write(fd, pid, (size_t)n) < 0)
			(void)0; /* the pid is a courtesy for the message above */
	}
	s->lock_fd = fd;
out:
	free(path);
	return rc;
}

/* Stops a statement that has run MAX_VM_STEPS steps (a runaway query of a hostile store). */
static int runaway(void *payload)
{
	assay_store *s = payload;

	for (sqlite3_stmt *st = sqlite3_next_stmt(s->db, NULL); st; st = sqlite3_next_stmt(s->db, st))
		if (sqlite3_stmt_busy(st) &&
		    sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0) > MAX_VM_STEPS) {
			s->runaway = true;
			return 1;
		}
	return 0;
}

/* Each table assay reads is a plain table with the columns assay reads. */
static int check_tables(assay_store *s, assay_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < sizeof(tables) / sizeof(*tables) && !rc; i++) {
		sqlite3_stmt *st = assay_store__prepare(s, "SELECT type FROM sqlite_master WHERE"
							   " name = ? COLLATE NOCASE", NULL);
		const char *type;
		bool ok = false;

		if (!st)
			return assay_store__fail(s, err, "read the schema");
		sqlite3_bind_text(st, 1, tables[i].table, -1, SQLITE_STATIC);
		ok = sqlite3_step(st) == SQLITE_ROW && (type = (const char *)sqlite3_column_text(st, 0)) &&
		     !strcmp(type, "table") && sqlite3_step(st) == SQLITE_DONE;
		sqlite3_finalize(st);
		if (!ok)
			return assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
					     "its %s is not a plain table: not an assay results "
					     "store (was it changed by hand?)", tables[i].table);
		char *sql = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q)", tables[i].table);
		assay_buf have = ASSAY_BUF_INIT;

		st = sql ? assay_store__prepare(s, sql, NULL) : NULL;
		sqlite3_free(sql);
		if (!st)
			return assay_store__fail(s, err, "read the schema");
		assay_buf_addch(&have, ' ');
		while (sqlite3_step(st) == SQLITE_ROW)
			if (sqlite3_column_text(st, 0))
				assay_buf_addf(&have, "%s ", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		for (const char *c = tables[i].columns; *c && !rc;) {
			size_t n = strcspn(c, " ");
			char *want = assay_xasprintf(" %.*s ", (int)n, c);

			if (!strstr(have.ptr, want))
				rc = assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
						   "its table %s has no column %.*s: not an assay "
						   "results store (was it changed by hand?)",
						   tables[i].table, (int)n, c);
			free(want);
			c += n + (c[n] == ' ');
		}
		assay_buf_release(&have);
	}
	return rc;
}

static int check_schema(assay_store *s, bool write, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT name FROM sqlite_master WHERE lower(name) IN"
						   " ('meta', 'run', 'cases', 'attributes', 'blobs',"
						   " 'blob_chunks') AND type != 'table'",
						NULL);
	int version = 0, step = st ? sqlite3_step(st) : SQLITE_ERROR;

	/* before anything is read from them: no table of ours is a view (a runaway query) */
	if (step != SQLITE_DONE) {
		const char *name = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;

		assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
			      "its %s is not a plain table: not an assay results store (was it "
			      "changed by hand?)", name ? name : "schema");
		sqlite3_finalize(st);
		return ASSAY_EINVALID;
	}
	sqlite3_finalize(st);
	/* before anything is written: no trigger would run with assay's writes (one that makes a
	 * failed case pass, in a results folder from elsewhere continued with --resume); assay
	 * makes none, and reading runs none */
	if (write) {
		st = assay_store__prepare(s, "SELECT name FROM sqlite_master WHERE type = 'trigger'",
					  NULL);
		step = st ? sqlite3_step(st) : SQLITE_ERROR;
		if (step != SQLITE_DONE) {
			const char *name = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0)
							      : NULL;

			assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
				      "it has a trigger (%s), which would run as assay writes: not an "
				      "assay results store (was it changed by hand?)",
				      name ? name : "?");
			sqlite3_finalize(st);
			return ASSAY_EINVALID;
		}
		sqlite3_finalize(st);
	}
	st = assay_store__prepare(s, "SELECT value FROM meta WHERE key='schema'", NULL);

	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		version = (int)strtol((const char *)sqlite3_column_text(st, 0), NULL, 10);
	sqlite3_finalize(st);
	if (version > SCHEMA_VERSION)
		return assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
				     "written by a newer assay (store schema %d; this assay knows "
				     "%d): nothing was changed", version, SCHEMA_VERSION);
	if (!version && !write)
		return assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
				     "not an assay results store");
	if (version && check_tables(s, err))
		return ASSAY_EINVALID;
	if (write && assay_store__exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
					  " PRAGMA foreign_keys=ON;", err))
		return ASSAY_ESTORE;
	/* an older store is made this schema when a run begins in it (upgrade), not here: a run
	 * refused after opening (--resume of another suite) leaves it as the assay that wrote it
	 * can read it */
	s->upgrade = version && version < SCHEMA_VERSION && write;
	if (!version) {
		char sql[128];

		if (assay_store__exec(s, schema, err))
			return ASSAY_ESTORE;
		snprintf(sql, sizeof(sql),
			 "INSERT OR REPLACE INTO meta VALUES ('schema', '%d'),"
			 " ('created_by', 'assay " ASSAY_VERSION "')", SCHEMA_VERSION);
		return assay_store__exec(s, sql, err);
	}
	return 0;
}

/*
 * A reader creates nothing in the results folder. A store whose writer has closed is in
 * rollback mode (assay_store_close) and is read as it is. One still in WAL mode with no
 * write-ahead log (a store of an older assay, closed cleanly) would make SQLite create
 * assay.db-wal and -shm that a read-only connection cannot remove: it is opened immutable,
 * which is safe while nobody writes, and a writer keeps its log file while it writes. With a
 * log present (a run going on, or killed), the reader shares it.
 */
static int open_db(assay_store *s, bool write)
{
	char *wal, *uri;
	int rc;

	if (write)
		return sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
				       NULL);
	wal = assay_xasprintf("%s-wal", s->path);
	if (assay_fs_exists(wal)) {
		free(wal);
		return sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL);
	}
	free(wal);
	uri = sqlite3_mprintf("file:%s?mode=ro&immutable=1", s->path);
	if (!uri)
		return SQLITE_NOMEM;
	/* '?' and '#' in the path would cut the URI: such a folder is read the plain way */
	rc = strpbrk(s->path, "?#") ? sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL)
				    : sqlite3_open_v2(uri, &s->db,
						      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	sqlite3_free(uri);
	return rc;
}

int assay_store_open(assay_store **out, const char *dir, int flags, assay_err *err)
{
	bool write = flags & ASSAY_STORE_WRITE;
	assay_store *s = assay_xcalloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	s->lock_fd = -1;
	s->blobs_fd = -1;
	s->dir = assay_xstrdup(dir);
	s->path = assay_path_join(dir, ASSAY_STORE_FILE);
	if (!write && !assay_fs_exists(s->path)) {
		rc = assay_err_set(err, ASSAY_ENOTFOUND, dir, 0, 0,
				   "not a results folder (no " ASSAY_STORE_FILE ")");
		goto fail;
	}
	if (write && ((rc = assay_fs_mkdirs(dir, err)) || (rc = take_lock(s, dir, err))))
		goto fail;
	if (open_db(s, write) != SQLITE_OK) {
		rc = assay_err_set(err, ASSAY_ESTORE, s->path, 0, 0, "cannot open: %s",
				   s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 10000);
	/* a store is data, never code: no schema-defined functions or views run with trust, the
	 * schema cannot be changed behind SQLite's back, and a runaway statement is stopped */
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_progress_handler(s->db, 100000, runaway, s);
	/* the version first: a store of a newer assay is left exactly as it is */
	if ((rc = check_schema(s, write, err)))
		goto fail;
	if (write)
		assay_store__sweep_blobs(s); /* we hold the lock: no other writer's */
	*out = s;
	return 0;
fail:
	assay_store_close(s);
	return rc;
}

int assay_store_flush(assay_store *s, assay_err *err)
{
	int rc;

	if (!s->batch)
		return 0;
	if ((rc = assay_store__exec_cached(s, ASSAY_STORE__COMMIT, "COMMIT", err)) &&
	    !sqlite3_get_autocommit(s->db))
		assay_store__exec_cached(s, ASSAY_STORE__ROLLBACK, "ROLLBACK", NULL);
	s->batch = false;
	return rc;
}

void assay_store_close(assay_store *s)
{
	if (!s)
		return;
	if (s->db)
		assay_store_flush(s, NULL);
	for (int i = 0; i < ASSAY_STORE__NSTMT; i++)
		sqlite3_finalize(s->cached[i]);
	/* the writer leaves the store in rollback mode, its log checkpointed and removed, so
	 * that readers find nothing to create (open_db); a reader still open keeps WAL mode */
	if (s->db && s->lock_fd >= 0)
		sqlite3_exec(s->db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
	sqlite3_close(s->db);
	if (s->blobs_fd >= 0)
		close(s->blobs_fd);
	if (s->lock_fd >= 0)
		close(s->lock_fd); /* releases the flock */
	free(s->dir);
	free(s->path);
	free(s);
}

/*
 * A store of an older schema, written again, made this one: 1 -> 2 adds blob files only; 2 -> 3
 * drops the attribute rows, which nothing reads (a case's attributes are in its line) and which
 * later cases would no longer have.
 */
static int upgrade(assay_store *s, assay_err *err)
{
	char sql[160];

	if (!s->upgrade)
		return 0;
	snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; DROP TABLE IF EXISTS attributes; UPDATE meta"
		 " SET value = '%d' WHERE key = 'schema'; COMMIT", SCHEMA_VERSION);
	if (assay_store__exec(s, sql, err)) {
		if (!sqlite3_get_autocommit(s->db))
			assay_store__exec(s, "ROLLBACK", NULL);
		return ASSAY_ESTORE;
	}
	s->upgrade = false;
	return 0;
}

int assay_store_begin_run(assay_store *s, const assay_value *meta, bool resume, assay_err *err)
{
	assay_buf m = ASSAY_BUF_INIT;
	char now[32];
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = assay_store_flush(s, err)) || (rc = upgrade(s, err)))
		return rc;
	assay_store__now(now);
	assay_json_write(&m, meta, 0);
	if (resume) {
		/* the time the run took so far is the last summary's duration (an invocation
		 * killed before its summary adds nothing it could know): kept in the meta; and
		 * its count of cases, grown by a wider selection, never shrunk */
		st = assay_store__prepare(s, "UPDATE run SET resumes = resumes + 1, finished = NULL,"
					     " interrupted = NULL, meta = json_set(meta,"
					     " '$.earlier_duration', coalesce(json_extract(summary,"
					     " '$.duration'), json_extract(meta, '$.earlier_duration'),"
					     " 0), '$.cases', max(coalesce(json_extract(meta, '$.cases'),"
					     " 0), coalesce(json_extract(?, '$.cases'), 0))),"
					     " summary = NULL WHERE id = 1", err);
		if (!st) {
			rc = ASSAY_ESTORE;
			goto out;
		}
		sqlite3_bind_text(st, 1, m.ptr, (int)m.len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = assay_store__fail(s, err, "continue the run");
		goto out;
	}
	if ((rc = assay_store__exec(s, "BEGIN IMMEDIATE; DELETE FROM cases;"
				       " DELETE FROM blob_chunks; DELETE FROM blobs;"
				       " DELETE FROM run;", err)))
		goto out;
	st = assay_store__prepare(s, "INSERT INTO run (id, meta, started) VALUES (1, ?, ?)", err);
	if (!st) {
		rc = ASSAY_ESTORE;
		goto rollback;
	}
	sqlite3_bind_text(st, 1, m.ptr, (int)m.len, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = assay_store__fail(s, err, "begin the run");
		goto rollback;
	}
	if (!(rc = assay_store__exec(s, "COMMIT", err)))
		rc = assay_store__clear_blobs(s, err); /* (a leftover file is harmless: after) */
	goto out;
rollback:
	assay_store__exec(s, "ROLLBACK", NULL);
out:
	sqlite3_finalize(st);
	assay_buf_release(&m);
	return rc;
}

int assay_store_end_run(assay_store *s, const assay_value *summary, bool interrupted,
			assay_err *err)
{
	assay_buf m = ASSAY_BUF_INIT;
	char now[32];
	sqlite3_stmt *st;
	int rc;

	if ((rc = assay_store_flush(s, err)))
		return rc;
	st = assay_store__prepare(s, "UPDATE run SET finished = ?, interrupted = ?, summary = ?"
				     " WHERE id = 1", err);
	if (!st)
		return ASSAY_ESTORE;
	assay_store__now(now);
	assay_json_write(&m, summary, 0);
	sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, interrupted);
	sqlite3_bind_text(st, 3, m.ptr, (int)m.len, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = assay_store__fail(s, err, "end the run");
	sqlite3_finalize(st);
	assay_buf_release(&m);
	return rc;
}

assay_value assay_store__text(sqlite3_stmt *st, int col, assay_arena *a)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t ? assay_value_string(a, (const char *)t, (size_t)sqlite3_column_bytes(st, col))
		 : assay_value_null();
}

const char *assay_store__host(void)
{
	static char host[256];
	struct utsname u;

	if (!host[0] && !uname(&u))
		snprintf(host, sizeof(host), "%s", u.nodename);
	return host;
}
