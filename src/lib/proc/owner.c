/*
 * Handing a sandboxed case's folders to the unprivileged ids it runs as when assay is root
 * (proc_int.h, docs/security.md): its working folder and its private temporary folder, and
 * everything in them, change owner, so that the program may write there as it would without
 * root. Nothing else does: not the folders above them, not write_paths.
 *
 * Key decisions:
 * - The walk goes from a descriptor of each folder, opening every entry with O_PATH |
 *   O_NOFOLLOW and changing the owner of that very inode (fchownat AT_EMPTY_PATH): a link an
 *   earlier case planted in a shared working folder is neither followed nor given away.
 * - A file with more than one hard link is skipped: it may be a link an earlier case made to a
 *   file elsewhere (where protected_hardlinks is off), which must not change owner.
 * - A sub-folder that cannot be opened, or an entry that cannot be changed, is skipped: the
 *   program then finds it as root left it, which takes nothing from the sandbox.
 * - A folder its caller says it made empty for the case (proc.h assay_sandbox.cwd_empty,
 *   tmp_empty: a trivial case's two folders) is not read: its owner changes, nothing more, with
 *   every check below still made on it. st_nlink == 2 cannot prove a folder empty (files add no
 *   link), so the caller's word is what skips the walk; one with a sub-folder after all is
 *   walked. Were the word wrong, the files in it would stay root's, which gives nothing away.
 *   assay's working folder is asked once for both folders (getcwd); assay's uid is 0 (it hands
 *   over only as root).
 *
 * - Only a folder made for the case is handed over. A working folder that is `/`, a folder at
 *   the top of the tree, a system folder or one below it (/usr, /etc, /bin, /sbin, /lib*,
 *   /boot, /proc, /sys, /dev; but a folder below /dev/shm, a scratch file system like /tmp, is
 *   a case's), assay's own working folder or one above it, $HOME or one above
 *   it, or a folder that belongs to a third user is refused (ASSAY_ESPAWN) before anything
 *   changes owner: a caller that passes such a folder (a plug-in started in `/`, a suite that
 *   names the user's project as a case's folder) gets an error, not a file system given to
 *   nobody.
 *
 * Refuses to: follow a symbolic link; cross into another file system; give away a file that
 * has other names; give away a folder that was not made for the case (above).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "proc_int.h"
#include "util/banned.h"

#define MAX_DEPTH 64
#define NOBODY 65534 /* the outer ids of a sandboxed program when assay is root (proc.h) */

/* Folders whose whole subtree belongs to the system: never a case's. */
static const char *const system_trees[] = {
	"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot",
	"/proc", "/sys", "/dev", NULL,
};

/* `a` is `b` or a folder above it (both absolute and resolved). */
static bool at_or_above(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return true;
	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/');
}

/* $HOME resolved, kept for as long as $HOME says the same (the hand-over asks for every case).
 * @return whether there is one, in `out` (PATH_MAX bytes) */
static bool home_real(char *out)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char key[PATH_MAX], real[PATH_MAX];
	static bool known, ok;
	const char *home = getenv("HOME");
	bool found;

	if (!home || !*home || strlen(home) >= sizeof(key))
		return false;
	pthread_mutex_lock(&lock);
	if (!known || strcmp(key, home)) {
		snprintf(key, sizeof(key), "%s", home);
		ok = realpath(home, real) != NULL;
		known = true;
	}
	found = ok;
	if (found)
		memcpy(out, real, sizeof(real));
	pthread_mutex_unlock(&lock);
	return found;
}

/* The refusal, with assay's working folder `cwd` (NULL: unknown) given. */
static const char *refusal(const char *real, const char *cwd)
{
	char rhome[PATH_MAX];
	const char *slash;

	if (real[0] != '/' || !strcmp(real, "/"))
		return "the root folder";
	slash = strchr(real + 1, '/');
	if (!slash || !slash[1])
		return "a folder at the top of the file system";
	for (size_t i = 0; system_trees[i]; i++)
		if (at_or_above(system_trees[i], real) &&
		    !(!strncmp(real, "/dev/shm/", 9) && real[9])) /* a scratch file system */
			return "a system folder";
	if (cwd && at_or_above(real, cwd))
		return "assay's own working folder or a folder above it";
	if (home_real(rhome) && at_or_above(real, rhome))
		return "the home folder or a folder above it";
	return NULL;
}

const char *assay_proc__hand_over_refusal(const char *real)
{
	char cwd[4096];

	return refusal(real, getcwd(cwd, sizeof(cwd)));
}

/* getdents64's buffer per folder level: most case folders hold a few entries, read in one
 * call (and one more that says the end). */
#define DENTS_BUF 8192

/*
 * Gives `dfd` (a folder, consumed; `top` its fstat) and what it holds to uid:gid. The entries
 * are read with getdents64 on `dfd` itself (what fdopendir would do, less its two fcntl calls).
 */
static void hand_over_dir(int dfd, const struct stat *top, dev_t dev, uid_t uid, gid_t gid,
			  int depth)
{
	char *buf;
	ssize_t n;

	/* an inode that is the user's already (handed over before, in a shared folder) is not
	 * written again */
	if (((top->st_uid != uid || top->st_gid != gid) && fchown(dfd, uid, gid)) ||
	    depth > MAX_DEPTH) {
		close(dfd);
		return;
	}
	buf = assay_xmalloc(DENTS_BUF);
	while ((n = getdents64(dfd, buf, DENTS_BUF)) > 0) {
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const void *)(buf + off);
			struct stat st;
			int fd;

			off += de->d_reclen;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			fd = openat(dfd, de->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (fstat(fd, &st) || st.st_dev != dev || S_ISLNK(st.st_mode)) {
				close(fd);
				continue;
			}
			if (S_ISDIR(st.st_mode)) {
				int sub = openat(dfd, de->d_name,
						 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

				close(fd);
				/* the same folder as the one just checked, not one swapped in since */
				if (sub >= 0 && (fstat(sub, &st) || st.st_dev != dev)) {
					close(sub);
					continue;
				}
				if (sub >= 0)
					hand_over_dir(sub, &st, dev, uid, gid, depth + 1);
				continue;
			}
			if (st.st_nlink == 1 && (st.st_uid != uid || st.st_gid != gid))
				fchownat(fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
			close(fd);
		}
	}
	free(buf);
	close(dfd);
}

/* The resolved path of the folder open as `fd`, from /proc/self/fd (one call, where realpath
 * makes one per component). @return false when /proc does not say (then realpath does). */
static bool fd_path(int fd, char *out, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out, size - 1);
	if (n <= 0 || (size_t)n >= size - 1)
		return false;
	out[n] = '\0';
	/* a folder removed since shows as "PATH (deleted)": not a path */
	return out[0] == '/' && !strstr(out, " (deleted)");
}

/* `path` is absolute and names every folder once, by its name: no empty, "." or ".."
 * component, and no trailing slash. Reached through no symbolic link, it is its own resolved
 * path. */
static bool plain_path(const char *path)
{
	if (path[0] != '/' || !path[1])
		return false;
	for (const char *c = path; *c; c++) {
		if (*c != '/')
			continue;
		if (c[1] == '/' || c[1] == '\0')
			return false;
		if (c[1] == '.' && (c[2] == '/' || c[2] == '\0' ||
				    (c[2] == '.' && (c[3] == '/' || c[3] == '\0'))))
			return false;
	}
	return true;
}

/*
 * Opens folder `path`, and gives its resolved path in `real` (`size` bytes): a plain path
 * (above) opened through no symbolic link (openat2 RESOLVE_NO_SYMLINKS, one call) is its own,
 * what every case's folder made by the run is; else /proc/self/fd says, else realpath.
 * @return the descriptor, or -1 (errno); `*resolved` false: no resolved path is known.
 */
static int open_resolved(const char *path, char *real, size_t size, bool *resolved)
{
	struct open_how how = { .flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	size_t n = strlen(path);
	int fd;

	if (n < size && plain_path(path)) {
		fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
		if (fd >= 0) {
			memcpy(real, path, n + 1);
			*resolved = true;
			return fd;
		}
		/* a link on the way (ELOOP), or a kernel without openat2: the long way */
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES)
			return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		*resolved = fd_path(fd, real, size) || realpath(path, real);
	return fd;
}

/* Hands folder `path` over (`empty`: the caller made it empty, see proc.h; `cwd`: assay's
 * working folder, or NULL if unknown). assay is root here: a folder of root's is its own. */
static int hand_over(const char *path, bool empty, const char *cwd, uid_t uid, gid_t gid,
		     assay_err *err)
{
	struct stat st;
	char real[4096];
	bool resolved = false;
	int fd = open_resolved(path, real, sizeof(real), &resolved);

	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return assay_err_set(err, ASSAY_ESPAWN, path, 0, 0,
				     "cannot hand the folder to the sandbox's user: %s", strerror(e));
	}
	{
		const char *why = NULL;

		if (!resolved)
			why = "a folder whose path cannot be resolved";
		else if (!(why = refusal(real, cwd)) && st.st_uid != 0 && st.st_uid != uid)
			why = "a folder that belongs to another user";
		if (why) {
			close(fd);
			return assay_err_set(err, ASSAY_ESPAWN, path, 0, 0,
					     "refusing to hand the folder to the sandbox's user: it is %s, "
					     "not a folder made for the case",
					     why);
		}
	}
	/* A folder the caller made empty has nothing to read: its owner changes, no more. One
	 * with a sub-folder after all (more than two links) is walked as any other. */
	if (empty && st.st_nlink == 2) {
		if (st.st_uid != uid || st.st_gid != gid)
			fchown(fd, uid, gid); /* a failure leaves it root's: nothing given away */
		close(fd);
		return 0;
	}
	hand_over_dir(fd, &st, st.st_dev, uid, gid, 0);
	return 0;
}

int assay_proc__hand_over(const assay_proc *p, unsigned uid, unsigned gid, assay_err *err)
{
	char buf[4096];
	const char *cwd_path = NULL;
	/* the caller gave it as it made it, and nothing is in it (proc.h cwd_given); a folder to
	 * make (cwd_make, tmp_make) is made as the program's (proc.c make_dirs, init/serve.c) */
	bool cwd = p->cwd && !p->sandbox.cwd_make &&
		   !(p->sandbox.cwd_given && p->sandbox.cwd_empty);
	bool tmp = p->sandbox.tmp_dir && !p->sandbox.tmp_make &&
		   !(p->sandbox.tmp_given && p->sandbox.tmp_empty);
	int rc = 0;

	if (cwd || tmp)
		cwd_path = getcwd(buf, sizeof(buf)); /* asked once for both folders */
	if (cwd)
		rc = hand_over(p->cwd, p->sandbox.cwd_empty, cwd_path, (uid_t)uid, (gid_t)gid,
			       err);
	if (!rc && tmp)
		rc = hand_over(p->sandbox.tmp_dir, p->sandbox.tmp_empty, cwd_path, (uid_t)uid,
			       (gid_t)gid, err);
	return rc;
}

bool assay_proc__case_ids(const assay_sandbox *sb, uid_t *uid, gid_t *gid)
{
	if (!sb->enabled || geteuid() != 0)
		return false;
	*uid = sb->uid ? (uid_t)sb->uid : NOBODY;
	*gid = sb->gid ? (gid_t)sb->gid : NOBODY;
	return true;
}

/* May a program with `uid`:`gid` (no other group) search folder `st`, or run file `st`, by
 * its mode bits? */
static bool may_pass(const struct stat *st, uid_t uid, gid_t gid)
{
	unsigned shift = st->st_uid == uid ? 6 : st->st_gid == gid ? 3 : 0;

	return (st->st_mode >> shift) & S_IXOTH;
}

char *assay_sandbox_unreachable(const assay_sandbox *sb, const char *path)
{
	char *real, *slash;
	struct stat st;
	uid_t uid;
	gid_t gid;

	if (!sb || !path || !assay_proc__case_ids(sb, &uid, &gid))
		return NULL;
	if (!(real = realpath(path, NULL)))
		return assay_xstrdup(path);
	/* each folder from the top down, then `path` itself: the first closed one is the answer,
	 * `real` cut there */
	for (slash = real; slash;) {
		char *next = strchr(slash + 1, '/');

		if (next)
			*next = '\0';
		if (stat(real, &st) || !may_pass(&st, uid, gid))
			return real;
		if (next)
			*next = '/';
		slash = next;
	}
	free(real);
	return NULL;
}

bool assay_sandbox_give(const assay_sandbox *sb, const char *path)
{
	uid_t uid;
	gid_t gid;

	if (!sb || !path || !assay_proc__case_ids(sb, &uid, &gid) || strlen(path) >= PATH_MAX ||
	    !plain_path(path))
		return false;
	/* the refusals of the hand-over, by the name the caller made it under; not assay's own
	 * working folder's: a folder made just now, empty, holds no folder, nor is it that one */
	if (refusal(path, NULL))
		return false;
	return fchownat(AT_FDCWD, path, uid, gid, AT_SYMLINK_NOFOLLOW) == 0;
}
