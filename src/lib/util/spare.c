/*
 * Spare folders (fs.h assay_fs_spares): folders given back are kept, emptied, and renamed into
 * place when the next one is asked for, so that a run of many cases makes no new folder.
 *
 * Key decisions:
 * - Why: ext4 picks a new inode past the recently deleted ones of its group, and that scan
 *   grows with how many were deleted in the last seconds; a suite of trivial cases made and
 *   removed two folders per case (the working folder, the temporary one) and spent up to
 *   1.5 ms of kernel time per case there (perf: ext4_mkdir -> recently_deleted), more than
 *   the case itself. A rename makes no inode.
 * - A given folder is renamed into `dir` first, then reset and emptied there: nothing of the
 *   case can reach it by its old name any more (every process of the case is dead by then,
 *   proc.h), the emptying follows no link (assay_fs__remove_contents), and a folder that
 *   cannot be wholly emptied or holds extended attributes or inode flags (a channel from one
 *   case to the next, and chattr +S slows the next) is removed instead. Its mode goes back to
 *   0755, its owner to assay's ids, its times to now: with root and the sandbox the last case's
 *   user (nobody) owned it, and assay copies the submission into a taken folder before handing
 *   it over; a case running beside it could plant a link there for root to write through.
 * - Taking renames a spare to the asked path with RENAME_NOREPLACE: an existing folder there
 *   (a group's shared folder, a resumed run's) is left alone and checked the usual way.
 *
 * Refuses to: follow a link anywhere; keep more than MAX_SPARES; move a folder across file
 * systems (rename fails with EXDEV: then the folder is made or removed the usual way).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "assay/fs.h"
#include "util/fs_int.h"
#include "util/banned.h"

#define MAX_SPARES 64

struct assay_fs_spares {
	pthread_mutex_t lock;
	char *dir;
	int dfd;          /* `dir`, once made, or -1 */
	unsigned waiting; /* spares "0" .. "waiting-1" in `dir` */
	unsigned long temps; /* the N of the next assay_fs_spares_temp() */
};

assay_fs_spares *assay_fs_spares_new(const char *dir)
{
	assay_fs_spares *s = assay_xcalloc(1, sizeof(*s));

	pthread_mutex_init(&s->lock, NULL);
	s->dir = assay_xstrdup(dir);
	s->dfd = -1;
	return s;
}

void assay_fs_spares_free(assay_fs_spares *s)
{
	if (!s)
		return;
	if (s->dfd >= 0)
		close(s->dfd);
	pthread_mutex_destroy(&s->lock);
	free(s->dir);
	free(s);
}

/* The spares' folder, made on first use. @return its descriptor or -1. Under the lock. */
static int spares_dir(assay_fs_spares *s)
{
	if (s->dfd < 0) {
		if (mkdir(s->dir, 0700) && errno != EEXIST)
			return -1;
		s->dfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return s->dfd;
}

int assay_fs_spares_take(assay_fs_spares *s, const char *root, const char *rel, assay_err *err)
{
	const char *leaf;
	char name[16];
	int dfd;

	if (!s)
		return assay_fs_mkdirs_beneath(root, rel, err);
	pthread_mutex_lock(&s->lock);
	if (!s->waiting || s->dfd < 0) {
		pthread_mutex_unlock(&s->lock);
		return assay_fs_mkdirs_beneath(root, rel, err);
	}
	dfd = assay_fs__open_parent_beneath(root, rel, true, &leaf);
	snprintf(name, sizeof(name), "%u", s->waiting - 1);
	if (dfd >= 0 && !renameat2(s->dfd, name, dfd, leaf, RENAME_NOREPLACE)) {
		s->waiting--;
		pthread_mutex_unlock(&s->lock);
		close(dfd);
		return 0;
	}
	pthread_mutex_unlock(&s->lock);
	if (dfd >= 0)
		close(dfd);
	return assay_fs_mkdirs_beneath(root, rel, err);
}

int assay_fs_spares_temp(assay_fs_spares *s, const char *parent, const char *prefix, char **out,
			 assay_err *err)
{
	*out = NULL;
	if (!s)
		return assay_fs_mkdtemp(out, parent, prefix, err);
	pthread_mutex_lock(&s->lock);
	for (int tries = 0; s->waiting && s->dfd >= 0 && tries < 4; tries++) {
		char name[16], *leaf = assay_xasprintf("%s%lu", prefix, s->temps++);
		int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		snprintf(name, sizeof(name), "%u", s->waiting - 1);
		if (pfd >= 0 && !renameat2(s->dfd, name, pfd, leaf, RENAME_NOREPLACE)) {
			s->waiting--;
			fchmodat(pfd, leaf, 0700, 0); /* private, as mkdtemp makes it */
			close(pfd);
			*out = assay_path_join(parent, leaf);
			free(leaf);
			pthread_mutex_unlock(&s->lock);
			return 0;
		}
		if (pfd >= 0)
			close(pfd);
		free(leaf);
		if (errno != EEXIST)
			break;
	}
	pthread_mutex_unlock(&s->lock);
	return assay_fs_mkdtemp(out, parent, prefix, err);
}

/* The inode flags (chattr) of the folder `fd`, or 0 where the file system has none. */
static long inode_flags(int fd)
{
	long flags = 0;

	return ioctl(fd, FS_IOC_GETFLAGS, &flags) ? 0 : flags;
}

/*
 * Resets and empties spare `name` in `s->dir`. What its last case could set on it is reset or
 * refused, so that the folder is what a fresh one is: mode 0755, assay's own ids (the hand-over
 * gives it to the next case's user only once the submission is in it: a folder that is still
 * the last case's user's would let a case running beside it plant links where assay writes),
 * the times of now; one with extended attributes or inode flags a fresh folder would not
 * have (chattr +S makes every write of the next case synchronous) is removed instead.
 * @return whether it can be kept.
 */
static bool recycle(assay_fs_spares *s, const char *name)
{
	int fd = openat(s->dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char path[32];

	if (fd < 0)
		return false;
	if (flistxattr(fd, NULL, 0) > 0 || inode_flags(fd) != inode_flags(s->dfd) ||
	    fchown(fd, geteuid(), getegid()) || fchmod(fd, 0755) || futimens(fd, NULL)) {
		close(fd);
		return false;
	}
	snprintf(path, sizeof(path), "spare %s", name);
	return assay_fs__remove_contents(fd, path, NULL) == 0;
}

int assay_fs_spares_give(assay_fs_spares *s, const char *root, const char *rel, assay_err *err)
{
	const char *leaf;
	char name[16];
	int dfd, sdfd;

	if (!s)
		return assay_fs_remove_beneath(root, rel, err);
	pthread_mutex_lock(&s->lock);
	sdfd = s->waiting < MAX_SPARES ? spares_dir(s) : -1;
	dfd = sdfd < 0 ? -1 : assay_fs__open_parent_beneath(root, rel, false, &leaf);
	snprintf(name, sizeof(name), "%u", s->waiting);
	if (dfd >= 0 && !renameat2(dfd, leaf, sdfd, name, RENAME_NOREPLACE)) {
		struct stat st;

		close(dfd);
		/* a file or link renamed is not a folder to keep: removed below */
		if (!fstatat(sdfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
		    recycle(s, name)) {
			s->waiting++;
			pthread_mutex_unlock(&s->lock);
			return 0;
		}
		/* under the lock: the name is free again only once it is gone */
		int rc = assay_fs_remove_beneath(s->dir, name, err);

		pthread_mutex_unlock(&s->lock);
		return rc;
	}
	pthread_mutex_unlock(&s->lock);
	if (dfd >= 0)
		close(dfd);
	return assay_fs_remove_beneath(root, rel, err);
}
