/*
 * The results store's blobs (store.h): values cut out of report lines, kept once under the
 * SHA-256 of their bytes. A record in table `blobs` (sha256, kind, bytes) says a blob is kept;
 * its bytes are either rows of `blob_chunks` or, for a big one, the file DIR/blobs/<sha256>.
 *
 * Key decisions:
 * - A blob up to CHUNK (1 MiB) is one row of blob_chunks; a bigger one is written once to a
 *   file beside the database. In the database it would be written twice (to the write-ahead
 *   log, then again by the checkpoint), which was a quarter of the time of a run that diffs
 *   two 22 MB documents. A blob is a file exactly when its record has bytes but it has no
 *   chunk (schema 2 on; a store of schema 1 has no files).
 * - The file is written under a temporary name in DIR/blobs, renamed to its SHA-256 when it
 *   ends (replacing a leftover of that name from a killed run), or removed when that blob is
 *   kept already. A file whose record is rolled back (a case that could not be stored) stays
 *   as an orphan: harmless, it is named by its content, and a new run empties DIR/blobs.
 * - Not synced: as the database (synchronous=NORMAL), a blob outlives assay being killed, not
 *   the machine losing power; a blob lost that way is reported when read, never made up. So
 *   not through assay_fs_atomic (fs.h), which syncs every file (tens of milliseconds for a
 *   22 MB blob on a disk) and opens by path: here all goes beneath the folder's descriptor.
 * - Reading trusts nothing of a store (it may be a shard from anywhere): the name must be 64
 *   hex digits, DIR/blobs and the file are opened without following a link, the file must be
 *   a regular file of the recorded size, and its bytes must hash to its name.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "assay/fs.h"
#include "assay/store.h"
#include "store/store_int.h"
#include "util/fs_int.h"
#include "util/banned.h"
#include "util/sha256.h"

#define CHUNK (1u << 20)

struct db_blob {
	assay_store *s;
	char tmp[48];     /* the file's temporary name in DIR/blobs */
	int fd;           /* the file, once the blob is bigger than a chunk; else -1 */
	size_t bytes;     /* written so far */
	assay_buf pending;
};

static int io_fail(assay_store *s, assay_err *err, const char *what, int e)
{
	return assay_err_set(err, ASSAY_EIO, s->dir, 0, 0, "blobs/: %s: %s", what, strerror(e));
}

/* DIR/blobs, made when missing, opened without following a link (once per store). */
static int blobs_dir(assay_store *s, bool make, assay_err *err)
{
	int dfd;

	if (s->blobs_fd >= 0)
		return s->blobs_fd;
	if ((dfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -io_fail(s, err, "cannot open the results folder", errno);
	if (make && mkdirat(dfd, "blobs", 0755) && errno != EEXIST) {
		int e = errno;

		close(dfd);
		return -io_fail(s, err, "cannot make the folder", e);
	}
	s->blobs_fd = openat(dfd, "blobs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->blobs_fd < 0) {
		int e = errno;

		close(dfd);
		/* no folder: the caller says what is missing */
		return e == ENOENT ? -ASSAY_ENOTFOUND
				   : -io_fail(s, err, "cannot open the folder (is it a link?)", e);
	}
	close(dfd);
	return s->blobs_fd;
}

static int write_all(struct db_blob *b, const char *p, size_t len, assay_err *err)
{
	return assay_fs__write_all(b->fd, p, len) ? io_fail(b->s, err, "cannot write a blob", errno)
						  : 0;
}

/* The blob has outgrown a chunk: from now on it is a file (what is pending first). */
static int to_file(struct db_blob *b, assay_err *err)
{
	int dfd = blobs_dir(b->s, true, err);

	if (dfd < 0)
		return dfd == -ASSAY_ENOTFOUND ? io_fail(b->s, err, "cannot make the folder", ENOENT)
					       : -dfd;
	/* a leftover of a killed writer may hold the name (in a container every run may get the
	 * same pid): the next name then; the writer holds the folder's lock, so no live writer
	 * uses any of them */
	do {
		snprintf(b->tmp, sizeof(b->tmp), ".tmp-%ld-%lu", (long)getpid(),
			 ++b->s->blob_counter);
		b->fd = openat(dfd, b->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       0644);
	} while (b->fd < 0 && errno == EEXIST);
	if (b->fd < 0)
		return io_fail(b->s, err, "cannot create a blob", errno);
	int rc = write_all(b, b->pending.ptr, b->pending.len, err);

	assay_buf_release(&b->pending);
	return rc;
}

static int blob_open(void *payload, void **handle, assay_err *err)
{
	assay_store *s = payload;
	struct db_blob *b = assay_xcalloc(1, sizeof(*b));

	(void)err;
	b->s = s;
	b->fd = -1;
	b->pending = (assay_buf)ASSAY_BUF_INIT;
	*handle = b;
	return 0;
}

static int blob_write(void *handle, const char *data, size_t len, assay_err *err)
{
	struct db_blob *b = handle;
	int rc;

	b->bytes += len;
	if (b->fd < 0 && b->pending.len + len > CHUNK && (rc = to_file(b, err)))
		return rc;
	if (b->fd >= 0)
		return write_all(b, data, len, err); /* straight from `data`: never copied whole */
	assay_buf_add(&b->pending, data, len);
	return 0;
}

static void blob_free(struct db_blob *b)
{
	if (b->fd >= 0)
		close(b->fd);
	assay_buf_release(&b->pending);
	free(b);
}

/* Is blob `sha256` recorded? 1, 0, or -ASSAY_ESTORE */
static int recorded(assay_store *s, const char *sha256, sqlite3_int64 *bytes, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT bytes FROM blobs WHERE sha256 = ?", err);
	int have;

	if (!st)
		return -ASSAY_ESTORE;
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	have = sqlite3_step(st) == SQLITE_ROW;
	if (have && bytes)
		*bytes = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return have;
}

/* The pending bytes as the blob's one chunk, named `sha256` (none when it is kept already). */
static int close_chunk(struct db_blob *b, const char *sha256, bool have, assay_err *err)
{
	if (have || !b->pending.len)
		return 0;
	sqlite3_stmt *st = assay_store__prepare(b->s, "INSERT INTO blob_chunks VALUES (?, 0, ?)",
						err);
	int rc = 0;

	if (!st)
		return ASSAY_ESTORE;
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_blob64(st, 2, b->pending.ptr, b->pending.len, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = assay_store__fail(b->s, err, "store a blob");
	sqlite3_finalize(st);
	return rc;
}

/* The file under its name (or dropped when that blob is kept already). */
static int close_file(struct db_blob *b, const char *sha256, bool have, assay_err *err)
{
	int dfd = b->s->blobs_fd, e;

	if (close(b->fd) && errno != EINTR) {
		e = errno;
		b->fd = -1;
		unlinkat(dfd, b->tmp, 0);
		return io_fail(b->s, err, "cannot write a blob", e);
	}
	b->fd = -1;
	if (have) {
		unlinkat(dfd, b->tmp, 0);
		return 0;
	}
	if (renameat(dfd, b->tmp, dfd, sha256)) {
		e = errno;
		unlinkat(dfd, b->tmp, 0);
		return io_fail(b->s, err, "cannot name a blob", e);
	}
	return 0;
}

static int blob_close(void *handle, const char *sha256, bool json, assay_err *err)
{
	struct db_blob *b = handle;
	assay_store *s = b->s;
	sqlite3_stmt *st;
	int have = recorded(s, sha256, NULL, err), rc;

	if (have < 0) {
		rc = -have;
		goto out;
	}
	if (!have && (rc = assay_store__case_savepoint(s, err)))
		goto out;
	if ((rc = b->fd >= 0 ? close_file(b, sha256, have, err) : close_chunk(b, sha256, have, err)))
		goto out;
	if (have)
		goto out;
	if (!(st = assay_store__prepare(s, "INSERT INTO blobs VALUES (?, ?, ?)", err))) {
		rc = ASSAY_ESTORE;
		goto out;
	}
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, json ? "json" : "string", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)b->bytes);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = assay_store__fail(s, err, "record a blob");
	sqlite3_finalize(st);
out:
	blob_free(b);
	return rc;
}

static void blob_abort(void *handle)
{
	struct db_blob *b = handle;

	if (b->fd >= 0) {
		close(b->fd);
		b->fd = -1;
		unlinkat(b->s->blobs_fd, b->tmp, 0);
	}
	blob_free(b);
}

void assay_store_blobs(assay_store *s, assay_blob_store *out)
{
	*out = (assay_blob_store){ blob_open, blob_write, blob_close, blob_abort, s };
}

void assay_store__sweep_blobs(assay_store *s)
{
	int dfd = blobs_dir(s, false, NULL), fd;
	DIR *d;
	struct dirent *de;

	if (dfd < 0 || (fd = dup(dfd)) < 0 || !(d = fdopendir(fd)))
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, ".tmp-", 5))
			unlinkat(dfd, de->d_name, 0);
	closedir(d);
}

int assay_store__clear_blobs(assay_store *s, assay_err *err)
{
	char *path = assay_path_join(s->dir, "blobs");
	int rc = 0;

	if (s->blobs_fd >= 0) {
		close(s->blobs_fd);
		s->blobs_fd = -1;
	}
	if (assay_fs_exists(path))
		rc = assay_fs_remove_beneath(s->dir, "blobs", err);
	free(path);
	return rc;
}

/* ---- reading --------------------------------------------------------------------------- */

static bool is_name(const char *sha256)
{
	if (strlen(sha256) != 64)
		return false;
	for (const char *p = sha256; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

static int changed(assay_store *s, const char *sha256, const char *how, assay_err *err)
{
	return assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
			     "blob %.12s... %s: was the store changed by hand (or the machine "
			     "stopped while it was written)?", sha256, how);
}

/* Appends the file of blob `sha256` (`bytes` long, as recorded) to `out`, hashing it in `h`. */
static int read_file(assay_store *s, const char *sha256, sqlite3_int64 bytes, assay_buf *out,
		     assay_sha256_ctx *h, assay_err *err)
{
	int dfd = blobs_dir(s, false, err), fd, rc = 0;
	struct stat st;
	size_t from = out->len, left;

	if (dfd == -ASSAY_ENOTFOUND)
		return assay_err_set(err, ASSAY_EINVALID, s->dir, 0, 0,
				     "blob %.12s... is missing: the folder has no blobs/ (copy a "
				     "results folder whole: blobs/ holds its values beyond 1 MiB)",
				     sha256);
	if (dfd < 0)
		return -dfd;
	/* looked at before it is opened: opening a device node (a shard unpacked by root may
	 * hold one) can act (a watchdog, a tape, a terminal); the O_PATH descriptor pins the
	 * inode seen, and the file is then opened through it */
	int pfd = openat(dfd, sha256, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	char self[40];

	if (pfd < 0)
		return changed(s, sha256, errno == ENOENT ? "is missing" : "cannot be opened", err);
	if (fstat(pfd, &st) || !S_ISREG(st.st_mode) || st.st_size != bytes) {
		close(pfd);
		return changed(s, sha256, "is not a file of the recorded size", err);
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	close(pfd);
	if (fd < 0)
		return changed(s, sha256, "cannot be opened", err);
	left = (size_t)bytes;
	assay_buf_grow(out, left);
	while (left && !rc) {
		ssize_t n = read(fd, out->ptr + out->len, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? io_fail(s, err, "cannot read a blob", errno)
				   : changed(s, sha256, "is shorter than recorded", err);
			break;
		}
		assay_sha256_add(h, out->ptr + out->len, (size_t)n);
		assay_buf_setlen(out, out->len + (size_t)n);
		left -= (size_t)n;
	}
	close(fd);
	if (rc)
		assay_buf_setlen(out, from);
	return rc;
}

int assay_store_blob(assay_store *s, const char *sha256, assay_buf *out, assay_err *err)
{
	sqlite3_stmt *st = assay_store__prepare(s, "SELECT data FROM blob_chunks WHERE blob = ?"
						   " ORDER BY seq", err);
	bool any = false;
	size_t from = out->len;
	sqlite3_int64 bytes = 0;
	assay_sha256_ctx h;
	char got[65];
	int step, rc;

	if (!st)
		return ASSAY_ESTORE;
	assay_sha256_begin(&h);
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const void *data = sqlite3_column_blob(st, 0);
		size_t len = (size_t)sqlite3_column_bytes(st, 0);

		assay_buf_add(out, data, len);
		assay_sha256_add(&h, data, len);
		any = true;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return assay_store__fail(s, err, "read a blob");
	if (!any && is_name(sha256)) {
		/* no chunk: an empty blob, or a file (its record says which) */
		if ((rc = recorded(s, sha256, &bytes, err)) < 0)
			return -rc;
		if (!rc)
			return assay_err_set(err, ASSAY_ENOTFOUND, s->path, 0, 0, "no blob %s",
					     sha256);
		if (bytes < 0)
			return changed(s, sha256, "has a negative size", err);
		if (bytes > 0 && (rc = read_file(s, sha256, bytes, out, &h, err)))
			return rc;
		any = true; /* an empty blob too must be named by the SHA-256 of nothing */
	}
	if (!any)
		return assay_err_set(err, ASSAY_ENOTFOUND, s->path, 0, 0, "no blob %s", sha256);
	/* the blob is named by its SHA-256: bytes that do not match were changed by hand */
	assay_sha256_end(&h, got);
	if (strcmp(got, sha256)) {
		assay_buf_setlen(out, from);
		return assay_err_set(err, ASSAY_EINVALID, s->path, 0, 0,
				     "blob %.12s... does not hold the bytes its SHA-256 names (they "
				     "hash to %.12s...): was the store changed by hand?", sha256, got);
	}
	return 0;
}
