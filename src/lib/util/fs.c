/*
 * File-system helpers. Trees are walked with *at() calls on folder descriptors and O_NOFOLLOW
 * (a path's folder in one openat2() that resolves no link and stays beneath, when the kernel
 * has it), so a hostile submission that plants symbolic links in its working folder cannot make
 * assay delete or copy anything outside it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "assay/fs.h"
#include "util/buf_int.h"
#include "util/fs_int.h"
#include "util/sha256.h"
#include "util/banned.h"

static int io_error(assay_err *err, const char *path, const char *what)
{
	return assay_err_set(err, ASSAY_EIO, path, 0, 0, "cannot %s: %s", what, strerror(errno));
}

int assay_fs_read(assay_buf *out, const char *path, size_t max, assay_err *err)
{
	/* non-blocking: a FIFO left where a file should be must not hang assay */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int rc = 0;

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return assay_err_set(err, ASSAY_ENOTFOUND, path, 0, 0, "no such file");
		return io_error(err, path, "open");
	}
	struct stat st;
	if (fstat(fd, &st) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		close(fd);
		return assay_err_set(err, ASSAY_EIO, path, 0, 0, "not a file (a FIFO or socket)");
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		assay_buf_grow(out, max && (size_t)st.st_size > max ? max : (size_t)st.st_size);
	size_t got = 0;
	for (;;) {
		char chunk[65536];
		/* into the room made above when there is some (one copy, not two), else through
		 * `chunk`, where a file past `max` or grown since fstat is found */
		size_t spare = assay_buf__spare(out);
		if (max && spare > max - (out->len < max ? out->len : max))
			spare = max - (out->len < max ? out->len : max);
		bool direct = spare >= sizeof(chunk) / 4;
		size_t want = direct ? spare : sizeof(chunk);
		ssize_t n = read(fd, direct ? out->ptr + out->len : chunk, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = io_error(err, path, "read");
			break;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		/* a file that gave all fstat said in a short read is at its end: no read more to
		 * hear so (most files the loader reads are one short read) */
		bool end = S_ISREG(st.st_mode) && got == (size_t)st.st_size && (size_t)n < want;
		if (direct) {
			assay_buf_setlen(out, out->len + (size_t)n);
			if (end)
				break;
			continue;
		}
		size_t room = max ? max - (out->len < max ? out->len : max) : (size_t)n;
		if (max && (size_t)n > room) {
			assay_buf_add(out, chunk, room);
			rc = assay_err_set(err, ASSAY_ETOOBIG, path, 0, 0,
					   "file is larger than %zu bytes", max);
			break;
		}
		assay_buf_add(out, chunk, (size_t)n);
		if (end)
			break;
	}
	close(fd);
	return rc;
}

int assay_fs_sha256(const char *path, char out[65], assay_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assay_sha256_ctx h;
	char chunk[65536];
	int rc = 0;

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return assay_err_set(err, ASSAY_ENOTFOUND, path, 0, 0, "no such file");
		return io_error(err, path, "open");
	}
	assay_sha256_begin(&h);
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = io_error(err, path, "read");
			break;
		}
		if (n == 0)
			break;
		assay_sha256_add(&h, chunk, (size_t)n);
	}
	close(fd);
	assay_sha256_end(&h, out);
	return rc;
}

int assay_fs__write_all(int fd, const void *buf, size_t len)
{
	const char *data = buf;

	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * `path` names something that is not a file nor a folder (a device such as /dev/null or
 * /dev/stdout, a FIFO, a socket), following links: renaming a temp file over it would replace
 * the device itself (as root, /dev/null becomes a regular file for the whole machine). What is
 * written to it goes in directly instead.
 */
static bool special_target(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static int open_special(const char *path, assay_err *err, int *fd)
{
	*fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	return *fd < 0 ? io_error(err, path, "open") : 0;
}

static int write_special(const char *path, const void *data, size_t len, assay_err *err)
{
	int fd, rc;

	if ((rc = open_special(path, err, &fd)))
		return rc;
	if (assay_fs__write_all(fd, data, len)) {
		rc = io_error(err, path, "write");
		close(fd);
		return rc;
	}
	return close(fd) ? io_error(err, path, "write") : 0;
}

/* Copies the finished temp file `tmp` into the special file `path`. */
static int copy_special(const char *tmp, const char *path, assay_err *err)
{
	char chunk[65536];
	int in = open(tmp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), out = -1, rc = 0;

	if (in < 0)
		return io_error(err, tmp, "read");
	if ((rc = open_special(path, err, &out))) {
		close(in);
		return rc;
	}
	for (;;) {
		ssize_t n = read(in, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = io_error(err, tmp, "read");
			break;
		}
		if (n == 0)
			break;
		if (assay_fs__write_all(out, chunk, (size_t)n)) {
			rc = io_error(err, path, "write");
			break;
		}
	}
	close(in);
	if (close(out) && !rc)
		rc = io_error(err, path, "write");
	return rc;
}

int assay_fs_write_atomic(const char *path, const void *data, size_t len, int mode,
			  assay_err *err)
{
	char *tmp;
	int fd, rc = 0;

	if (special_target(path))
		return write_special(path, data, len, err);
	tmp = assay_xasprintf("%s.tmp.%ld", path, (long)getpid());
	/* A name someone else made in that folder (a FIFO a case planted, on which an open for
	 * writing would wait forever; a link) is removed, and the file is made anew or not at all. */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0) {
		rc = io_error(err, tmp, "create");
		goto out;
	}
	if (assay_fs__write_all(fd, data, len) || fsync(fd)) {
		rc = io_error(err, tmp, "write");
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd)) {
		rc = io_error(err, tmp, "write");
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path)) {
		rc = io_error(err, path, "rename into place");
		unlink(tmp);
	}
out:
	free(tmp);
	return rc;
}

int assay_fs_atomic_open(assay_fs_atomic *w, const char *dir, int mode, assay_err *err)
{
	static unsigned long counter;

	*w = (assay_fs_atomic)ASSAY_FS_ATOMIC_INIT;
	for (int tries = 0; tries < 100; tries++) {
		w->tmp = assay_xasprintf("%s/.tmp-%ld-%lu", dir, (long)getpid(), counter++);
		w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
		if (w->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
		free(w->tmp);
		w->tmp = NULL;
	}
	int rc = io_error(err, w->tmp ? w->tmp : dir, "create");
	free(w->tmp);
	w->tmp = NULL;
	return rc;
}

int assay_fs_atomic_write(assay_fs_atomic *w, const void *data, size_t len, assay_err *err)
{
	if (w->fd < 0)
		return assay_err_set(err, ASSAY_EIO, w->tmp, 0, 0, "write after a failure");
	if (assay_fs__write_all(w->fd, data, len)) {
		int rc = io_error(err, w->tmp, "write");

		close(w->fd);
		w->fd = -1;
		return rc;
	}
	return 0;
}

int assay_fs_atomic_commit(assay_fs_atomic *w, const char *path, bool keep_existing,
			   assay_err *err)
{
	int rc = 0;

	if (w->fd < 0) {
		rc = assay_err_set(err, ASSAY_EIO, w->tmp, 0, 0, "the file could not be written");
	} else if (keep_existing && access(path, F_OK) == 0) {
		close(w->fd);
		w->fd = -1;
	} else if (fsync(w->fd) || close(w->fd)) {
		w->fd = -1;
		rc = io_error(err, w->tmp, "write");
	} else if (special_target(path)) {
		w->fd = -1;
		rc = copy_special(w->tmp, path, err);
		keep_existing = true; /* the temp file goes either way */
	} else {
		w->fd = -1;
		if (rename(w->tmp, path))
			rc = io_error(err, path, "rename into place");
	}
	if (w->tmp && (rc || keep_existing))
		unlink(w->tmp);
	free(w->tmp);
	*w = (assay_fs_atomic)ASSAY_FS_ATOMIC_INIT;
	return rc;
}

void assay_fs_atomic_abort(assay_fs_atomic *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	*w = (assay_fs_atomic)ASSAY_FS_ATOMIC_INIT;
}

int assay_fs_write(const char *path, const void *data, size_t len, int mode, assay_err *err)
{
	int rc = assay_fs_mkparents(path, err);
	if (rc)
		return rc;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode);
	struct stat st;

	if (fd < 0)
		return io_error(err, path, "create");
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || ftruncate(fd, 0)) {
		close(fd); /* a FIFO there must not hang assay */
		return assay_err_set(err, ASSAY_EIO, path, 0, 0,
				     "cannot write: something that is not a file is there");
	}
	if (assay_fs__write_all(fd, data, len)) {
		rc = io_error(err, path, "write");
		close(fd);
		return rc;
	}
	if (close(fd))
		return io_error(err, path, "write");
	return 0;
}

int assay_fs_mkdirs(const char *path, assay_err *err)
{
	if (!*path)
		return assay_err_set(err, ASSAY_EIO, path, 0, 0, "cannot create a folder with no name");
	char *p = assay_xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			rc = io_error(err, p, "create folder");
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	if (!rc && !assay_fs_is_dir(path))
		rc = assay_err_set(err, ASSAY_EIO, path, 0, 0, "not a folder");
	free(p);
	return rc;
}

int assay_fs_mkparents(const char *path, assay_err *err)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return 0;
	char *dir = assay_xstrndup(path, (size_t)(slash - path));
	int rc = assay_fs_mkdirs(dir, err);
	free(dir);
	return rc;
}

/*
 * Empties the folder open as `dfd` (which it closes), however deep: it descends into one
 * sub-folder at a time holding one descriptor, comes back up through "..", and keeps only the
 * names of the folders on the way (nothing else runs in the tree by then: no case outlives
 * its case). A folder is made searchable and writable first, so hostile modes cannot keep
 * files alive.
 *
 * Linear in the entries: an empty sub-folder is removed where it is found, without going
 * into it, and coming back up from a sub-folder the reading of its parent goes on from where
 * it stopped (its offset, kept with its name), not from the start. Reading from the start
 * each time made it quadratic: 40,000 empty folders took 101 s. An offset is only a hint (a
 * file system may renumber what is left when entries go): a folder counts as empty only after
 * a reading from its start finds nothing.
 */
int assay_fs__remove_contents(int dfd, const char *path, assay_err *err)
{
	char **names = NULL; /* the folders descended into, outermost first */
	off_t *offs = NULL;  /* where each one's parent was read up to */
	size_t depth = 0, alloc = 0;
	int cur = dfd, rc = 0;
	bool from_start = true; /* the reading of `cur` under way began at its start */

	for (;;) {
		int dup_fd = dup(cur);
		DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
		struct dirent *e;
		char *sub = NULL;
		off_t at = 0;

		if (!d) {
			if (dup_fd >= 0)
				close(dup_fd);
			rc = io_error(err, path, "open folder");
			break;
		}
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (!unlinkat(cur, e->d_name, 0) || errno == ENOENT)
				continue;
			if (errno != EISDIR && errno != EPERM) {
				rc = io_error(err, path, "remove a file in");
				continue;
			}
			/* an empty folder (writable parent) goes at once */
			if (!unlinkat(cur, e->d_name, AT_REMOVEDIR) || errno == ENOENT)
				continue;
			sub = assay_xstrdup(e->d_name);
			at = e->d_off;
			break;
		}
		closedir(d);
		if (!sub && !from_start) {
			/* the offset may have skipped something: once more from the start */
			lseek(cur, 0, SEEK_SET);
			from_start = true;
			continue;
		}
		if (sub) {
			int next;

			fchmodat(cur, sub, 0700, AT_SYMLINK_NOFOLLOW);
			next = openat(cur, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (next < 0) {
				/* not a folder after all, or gone: the next pass sees what is left */
				if (unlinkat(cur, sub, AT_REMOVEDIR) && unlinkat(cur, sub, 0) &&
				    errno != ENOENT) {
					rc = io_error(err, path, "remove a folder in");
					free(sub);
					break;
				}
				free(sub);
				/* the reading goes on past what the last one had buffered */
				from_start = false;
				continue;
			}
			if (depth == alloc) {
				alloc = alloc ? alloc * 2 : 16;
				names = assay_xrealloc(names, alloc * sizeof(*names));
				offs = assay_xrealloc(offs, alloc * sizeof(*offs));
			}
			offs[depth] = at;
			names[depth++] = sub;
			close(cur);
			cur = next;
			from_start = true;
			continue;
		}
		if (!depth)
			break;
		/* this folder is empty: back up and remove it */
		int up = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		close(cur);
		if (up < 0) {
			cur = -1;
			rc = io_error(err, path, "go back up in");
			break;
		}
		cur = up;
		depth--;
		if (unlinkat(cur, names[depth], AT_REMOVEDIR) && errno != ENOENT) {
			rc = io_error(err, path, "remove a folder in");
			free(names[depth]);
			break;
		}
		free(names[depth]);
		/* go on reading the parent from where it was left */
		from_start = lseek(cur, offs[depth], SEEK_SET) != offs[depth];
		if (from_start)
			lseek(cur, 0, SEEK_SET);
	}
	for (size_t k = 0; k < depth; k++)
		free(names[k]);
	free(names);
	free(offs);
	if (cur >= 0)
		close(cur);
	return rc;
}

int assay_fs_remove_tree(const char *path, assay_err *err)
{
	struct stat st;

	/* An empty folder (a case's temporary folder, most often) goes in one call; rmdir never
	 * follows a link in the last component, and anything else falls through to the walk. */
	if (!rmdir(path))
		return 0;
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return io_error(err, path, "stat");
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path))
			return io_error(err, path, "remove");
		return 0;
	}
	chmod(path, 0700);
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return io_error(err, path, "open folder");
	int rc = assay_fs__remove_contents(dfd, path, err);
	if (rmdir(path) && !rc)
		rc = io_error(err, path, "remove folder");
	return rc;
}

static int copy_file(const char *src, const char *dst, mode_t mode, assay_err *err)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return io_error(err, src, "open");
	int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode & 07777);
	if (out < 0) {
		close(in);
		return io_error(err, dst, "create");
	}
	int rc = 0;
	for (;;) {
		char chunk[65536];
		ssize_t n = read(in, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = io_error(err, src, "read");
			break;
		}
		if (n == 0)
			break;
		if (assay_fs__write_all(out, chunk, (size_t)n)) {
			rc = io_error(err, dst, "write");
			break;
		}
	}
	close(in);
	if (close(out) && !rc)
		rc = io_error(err, dst, "write");
	if (!rc)
		fchmodat(AT_FDCWD, dst, mode & 07777, 0);
	return rc;
}

int assay_fs_copy_tree(const char *src, const char *dst, assay_err *err)
{
	DIR *d = opendir(src);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR)
			return assay_err_set(err, ASSAY_ENOTFOUND, src, 0, 0, "no such folder");
		return io_error(err, src, "open folder");
	}
	rc = assay_fs_mkdirs(dst, err);
	while (!rc && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *s = assay_path_join(src, e->d_name);
		char *t = assay_path_join(dst, e->d_name);
		struct stat st;
		if (lstat(s, &st)) {
			rc = io_error(err, s, "stat");
		} else if (S_ISDIR(st.st_mode)) {
			rc = assay_fs_copy_tree(s, t, err);
			if (!rc)
				chmod(t, st.st_mode & 07777);
		} else if (S_ISREG(st.st_mode)) {
			rc = copy_file(s, t, st.st_mode, err);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlink(s, target, sizeof(target) - 1);
			if (n < 0) {
				rc = io_error(err, s, "read link");
			} else {
				target[n] = '\0';
				unlink(t);
				if (symlink(target, t))
					rc = io_error(err, t, "create link");
			}
		}
		free(s);
		free(t);
	}
	closedir(d);
	return rc;
}

const char *assay_fs_tmp_parent(void)
{
	const char *base = getenv("TMPDIR");

	return base && *base ? base : "/tmp";
}

int assay_fs_mkdtemp(char **out, const char *parent, const char *prefix, assay_err *err)
{
	char *abs = assay_path_absolute(parent ? parent : assay_fs_tmp_parent());
	char *tmpl = assay_xasprintf("%s/%sXXXXXX", abs, prefix);
	free(abs);
	if (!mkdtemp(tmpl)) {
		int rc = io_error(err, tmpl, "create temporary folder");
		free(tmpl);
		return rc;
	}
	*out = tmpl;
	return 0;
}

char *assay_fs_which(const char *name)
{
	const char *path = getenv("PATH");

	if (!name[0] || strchr(name, '/') || !path)
		return NULL;
	for (const char *p = path; *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = assay_xasprintf("%.*s/%s", (int)n, p, name);

		if (n && cand[0] == '/' && !access(cand, X_OK) && !assay_fs_is_dir(cand))
			return cand;
		free(cand);
		p += n + (colon ? 1 : 0);
	}
	return NULL;
}

bool assay_fs_is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

bool assay_fs_exists(const char *path)
{
	struct stat st;
	return !lstat(path, &st);
}

char *assay_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (b[0] == '/' || !la)
		return assay_xstrdup(b);
	if (a[la - 1] == '/')
		return assay_xasprintf("%s%s", a, b);
	return assay_xasprintf("%s/%s", a, b);
}

char *assay_path_absolute(const char *path)
{
	assay_buf b = ASSAY_BUF_INIT;

	if (path[0] != '/') {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			ASSAY_BUG("current folder is unreachable");
		assay_buf_adds(&b, cwd);
	}
	/* Append each part, dropping "." and empty parts; ".." drops the previous part. */
	const char *p = path;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* skip */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(b.ptr, '/');
			assay_buf_setlen(&b, slash ? (size_t)(slash - b.ptr) : 0);
		} else {
			assay_buf_addch(&b, '/');
			assay_buf_add(&b, p, n);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	if (!b.len)
		assay_buf_addch(&b, '/');
	return assay_buf_detach(&b, NULL);
}

bool assay_path_is_contained(const char *rel)
{
	int depth = 0;
	const char *p = rel;

	if (!*rel || rel[0] == '/')
		return false;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return depth > 0;
}

/*
 * The folder of `rel`'s last part beneath folder `rootfd`, in one openat2() call (Linux 5.6)
 * that follows no link and leaves no folder (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS): what the
 * part-by-part walk below finds when every folder on the way is there. -1 whenever the walk
 * is to decide instead: no folder part, a ".." or "/" start (the walk refuses or skips them),
 * a part too long, a folder missing, a link, or a kernel (or filter) without openat2.
 */
static int open_parent_at_once(int rootfd, const char *rel, const char **leaf)
{
	const char *last = strrchr(rel, '/');
	char path[PATH_MAX];
	size_t n = last ? (size_t)(last - rel) : 0;

	if (!last || !n || rel[0] == '/' || n >= sizeof(path))
		return -1;
	for (const char *p = rel; p < last;) {
		const char *end = memchr(p, '/', (size_t)(last - p));
		size_t len = end ? (size_t)(end - p) : (size_t)(last - p);

		if (len > NAME_MAX || (len == 2 && p[0] == '.' && p[1] == '.'))
			return -1;
		p += len + 1;
	}
	memcpy(path, rel, n);
	path[n] = '\0';
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));

	if (fd >= 0)
		*leaf = last + 1;
	return fd;
}

/*
 * Opens the folder that holds the last part of `rel`, below `root`, one part at a time with
 * O_NOFOLLOW (or all at once: open_parent_at_once), making missing folders when `create`.
 * Returns the descriptor (close it) with *leaf pointing into `rel` at the last part, or -1 with
 * errno set (ELOOP/ENOTDIR for a link).
 */
int assay_fs__open_parent_beneath(const char *root, const char *rel, bool create,
				  const char **leaf)
{
	int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *p = rel;

	/* the common case, every folder there: one call instead of two per part */
	if (dfd >= 0) {
		int e = errno, fd = open_parent_at_once(dfd, rel, leaf);

		if (fd >= 0) {
			close(dfd);
			return fd;
		}
		errno = e;
	}

	while (dfd >= 0) {
		const char *slash = strchr(p, '/');
		if (!slash) {
			*leaf = p;
			return dfd;
		}
		size_t n = (size_t)(slash - p);
		char part[NAME_MAX + 1];
		if (n > NAME_MAX || (n == 2 && p[0] == '.' && p[1] == '.')) {
			close(dfd);
			errno = n > NAME_MAX ? ENAMETOOLONG : EPERM;
			return -1;
		}
		memcpy(part, p, n);
		part[n] = '\0';
		p = slash + 1;
		if (!n || (n == 1 && part[0] == '.'))
			continue;
		if (create && mkdirat(dfd, part, 0755) && errno != EEXIST) {
			int e = errno;
			close(dfd);
			errno = e;
			return -1;
		}
		int next = openat(dfd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(dfd);
		errno = e;
		dfd = next;
	}
	return -1;
}

int assay_fs__open_dir_beneath(const char *root, const char *rel)
{
	const char *leaf;
	int dfd = assay_fs__open_parent_beneath(root, rel, false, &leaf), fd, e;

	if (dfd < 0)
		return -1;
	fd = openat(dfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	close(dfd);
	errno = e;
	return fd;
}

int assay_fs_read_beneath(assay_buf *out, const char *root, const char *rel, size_t max,
			  assay_err *err)
{
	const char *leaf;
	int dfd = assay_fs__open_parent_beneath(root, rel, false, &leaf);
	int fd = dfd < 0 ? -1 : openat(dfd, leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	int rc = 0;

	if (dfd >= 0)
		close(dfd);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return assay_err_set(err, ASSAY_ENOTFOUND, rel, 0, 0,
				     "no regular file inside the folder");
	}
	for (;;) {
		char chunk[65536];
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = io_error(err, rel, "read");
			break;
		}
		if (n == 0)
			break;
		size_t have = out->len < max ? out->len : max;
		if (max && (size_t)n > max - have) {
			assay_buf_add(out, chunk, max - have);
			rc = assay_err_set(err, ASSAY_ETOOBIG, rel, 0, 0,
					   "file is larger than %zu bytes", max);
			break;
		}
		assay_buf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return rc;
}

int assay_fs_write_beneath(const char *root, const char *rel, const void *data, size_t len,
			   int mode, assay_err *err)
{
	const char *leaf;
	int dfd = assay_fs__open_parent_beneath(root, rel, true, &leaf);
	if (dfd < 0)
		return io_error(err, rel, "make the folder of");
	/* non-blocking and then checked: a FIFO an earlier case left there must not hang assay */
	int fd = openat(dfd, leaf, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode);
	struct stat st;

	close(dfd);
	if (fd < 0)
		return io_error(err, rel, "create");
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || ftruncate(fd, 0)) {
		close(fd);
		return assay_err_set(err, ASSAY_EIO, rel, 0, 0,
				     "cannot write: something that is not a file is there");
	}
	int rc = 0;
	if (assay_fs__write_all(fd, data, len))
		rc = io_error(err, rel, "write");
	if (close(fd) && !rc)
		rc = io_error(err, rel, "write");
	return rc;
}

static int copy_beneath(const char *src, const char *root, const char *prefix, assay_err *err)
{
	DIR *d = opendir(src);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return assay_err_set(err, errno == ENOENT || errno == ENOTDIR ? ASSAY_ENOTFOUND
									      : ASSAY_EIO,
				     src, 0, 0, "cannot open folder: %s", strerror(errno));
	while (!rc && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *s = assay_path_join(src, e->d_name);
		char *rel = *prefix ? assay_xasprintf("%s/%s", prefix, e->d_name)
				    : assay_xstrdup(e->d_name);
		struct stat st;
		if (lstat(s, &st)) {
			rc = io_error(err, s, "stat");
		} else if (S_ISDIR(st.st_mode)) {
			rc = copy_beneath(s, root, rel, err);
		} else if (S_ISREG(st.st_mode)) {
			assay_buf b = ASSAY_BUF_INIT;
			rc = assay_fs_read(&b, s, 0, err);
			if (!rc)
				rc = assay_fs_write_beneath(root, rel, b.ptr, b.len,
							    (int)(st.st_mode & 07777), err);
			assay_buf_release(&b);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			const char *leaf;
			ssize_t n = readlink(s, target, sizeof(target) - 1);
			int dfd = n < 0 ? -1 : assay_fs__open_parent_beneath(root, rel, true, &leaf);
			if (dfd < 0) {
				rc = io_error(err, s, "copy link");
			} else {
				target[n] = '\0';
				unlinkat(dfd, leaf, 0);
				if (symlinkat(target, dfd, leaf))
					rc = io_error(err, rel, "create link");
				close(dfd);
			}
		}
		free(s);
		free(rel);
	}
	closedir(d);
	return rc;
}

int assay_fs_copy_tree_beneath(const char *src, const char *root, assay_err *err)
{
	return copy_beneath(src, root, "", err);
}

/*
 * `root`/`rel` in `out` when `rel` is one plain name: a path whose resolution follows what
 * open(root) follows and nothing more (mkdir and rmdir never follow their last part), so one
 * call on it does what opening `root` and calling *at() on the name does. False otherwise.
 */
static bool leaf_path(char *out, size_t size, const char *root, const char *rel)
{
	int n;

	if (!*root || !*rel || strchr(rel, '/') || !strcmp(rel, ".") || !strcmp(rel, ".."))
		return false;
	n = snprintf(out, size, "%s/%s", root, rel);
	return n > 0 && (size_t)n < size;
}

int assay_fs_mkdirs_beneath(const char *root, const char *rel, assay_err *err)
{
	const char *leaf;
	char path[PATH_MAX];

	/* one name (a case's folder beneath its group's): made in one call when it can be */
	if (leaf_path(path, sizeof(path), root, rel) && !mkdir(path, 0755))
		return 0;

	int dfd = assay_fs__open_parent_beneath(root, rel, true, &leaf), fd = -1;
	bool made = false;

	/* a folder this call made is one; one that was there is opened to see what it is */
	if (dfd >= 0 && !(made = mkdirat(dfd, leaf, 0755) == 0) && errno == EEXIST)
		fd = openat(dfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int e = errno;

	if (dfd >= 0)
		close(dfd);
	if (made)
		return 0;
	/* a link on the way (refused beneath: EXDEV, ELOOP) or a file where a folder goes */
	if (fd < 0)
		return assay_err_set(err, ASSAY_EIO, rel, 0, 0,
				     "cannot make the folder beneath %s (%s)%s", root, strerror(e),
				     e == EXDEV || e == ELOOP || e == ENOTDIR || e == EEXIST
					     ? ": was a link planted?" : "");
	close(fd);
	return 0;
}

int assay_fs_remove_beneath(const char *root, const char *rel, assay_err *err)
{
	const char *leaf = strrchr(rel, '/');
	char path[PATH_MAX];

	/* "..", "a/.." or "." would name the folder above `rel`'s, or `root` itself: emptied,
	 * whatever it is */
	leaf = leaf ? leaf + 1 : rel;
	if (!*leaf || !strcmp(leaf, ".") || !strcmp(leaf, ".."))
		return assay_err_set(err, ASSAY_EIO, rel, 0, 0,
				     "not removed: not a name of a folder beneath %s", root);

	/* one name, an empty folder (a trivial case's temporary folder): gone in one call */
	if (leaf_path(path, sizeof(path), root, rel) && !rmdir(path))
		return 0;

	int dfd = assay_fs__open_parent_beneath(root, rel, false, &leaf), sub, rc = 0;

	if (dfd < 0) {
		if (errno == ENOENT)
			return 0;
		return assay_err_set(err, ASSAY_EIO, rel, 0, 0,
				     "not removed: a folder on the way beneath %s is not one (%s)",
				     root, strerror(errno));
	}
	/* an empty folder (a trivial case's) goes in one call; a link is never removed as one */
	if (!unlinkat(dfd, leaf, AT_REMOVEDIR)) {
		close(dfd);
		return 0;
	}
	sub = openat(dfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0) {
		/* a file or a link: removed itself, never what it points to */
		if (unlinkat(dfd, leaf, 0) && errno != ENOENT)
			rc = io_error(err, rel, "remove");
	} else {
		rc = assay_fs__remove_contents(sub, rel, err);
		if (unlinkat(dfd, leaf, AT_REMOVEDIR) && errno != ENOENT && !rc)
			rc = io_error(err, rel, "remove folder");
	}
	close(dfd);
	return rc;
}
