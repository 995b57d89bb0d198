/*
 * Who owns a run's root folder (run_int.h, issue 18 item 10): an `assay run` killed by SIGKILL
 * cannot remove its root (assay-XXXXXX in --work-dir or $TMPDIR, with every case's folder), so
 * the next run in the same place removes the roots whose owner is gone, when its caller asks
 * (assay_run_sweep_roots(): the CLI does, and says what it removed).
 *
 * Key decisions:
 * - A root's owner holds an exclusive flock(2) on root/.owner for the whole run; the kernel
 *   drops it when the owner dies, however it dies. The file is made locked under another name
 *   and renamed into place, so no one ever sees an unlocked .owner of a live run.
 * - A root is removed only when its lock can be taken AND the pid and start time written in
 *   .owner are not a live process (a filesystem where flock does nothing cannot make a live
 *   run's root look dead; a reused pid has another start time).
 * - A root without .owner is never touched: one made an instant ago (the lock comes right
 *   after mkdtemp), one kept with --keep (the owner removes .owner at the end, so that the
 *   folders the user asked to keep stay), or not assay's at all.
 * - Only entries named exactly assay-XXXXXX that are folders (not links) owned by our euid.
 *
 * Refuses to: follow a link; remove a root whose owner may be alive.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/run.h"
#include "assay/strvec.h"
#include "proc/proc_int.h"
#include "run/run_int.h"
#include "util/banned.h"

#define OWNER ".owner"
#define OWNER_NEW ".owner.new"

int assay_run__root_claim(const char *root)
{
	char *tmp = assay_path_join(root, OWNER_NEW), *dst = assay_path_join(root, OWNER);
	char line[64];
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int n;

	if (fd >= 0) {
		n = snprintf(line, sizeof(line), "%ld %llu\n", (long)getpid(),
			     assay_proc__start_time((long)getpid()));
		if (flock(fd, LOCK_EX | LOCK_NB) || write(fd, line, (size_t)n) != n ||
		    rename(tmp, dst)) {
			unlink(tmp);
			close(fd);
			fd = -1;
		}
	}
	free(tmp);
	free(dst);
	return fd;
}

void assay_run__root_disown(const char *root, int *fd)
{
	if (*fd < 0)
		return;
	if (root) {
		char *owner = assay_path_join(root, OWNER);

		unlink(owner);
		free(owner);
	}
	close(*fd);
	*fd = -1;
}

/* Is `name` assay-XXXXXX (mkdtemp's six characters)? */
static bool root_name(const char *name)
{
	return !strncmp(name, "assay-", 6) && strlen(name) == 12 && !strchr(name + 6, '.');
}

/* The root `dir` (opened as `dfd`) has an owner that is gone. */
static bool owner_gone(int dfd)
{
	char buf[64];
	long pid = 0;
	unsigned long long start = 0;
	int fd = openat(dfd, OWNER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;
	bool gone = false;

	if (fd < 0)
		return false;
	if (flock(fd, LOCK_SH | LOCK_NB) == 0 && (n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		gone = sscanf(buf, "%ld %llu", &pid, &start) == 2 &&
		       !assay_proc__owner_alive(pid, start);
	}
	close(fd);
	return gone;
}

int assay_run_sweep_roots(const char *work_root, assay_strvec *removed)
{
	const char *base = work_root ? work_root : assay_fs_tmp_parent();
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (!(d = opendir(base)))
		return 0;
	while ((de = readdir(d))) {
		struct stat st;
		int dfd;
		bool gone;

		if (!root_name(de->d_name))
			continue;
		dfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		gone = !fstat(dfd, &st) && st.st_uid == geteuid() && owner_gone(dfd);
		close(dfd);
		if (gone) {
			char *root = assay_path_join(base, de->d_name);

			if (assay_fs_remove_tree(root, NULL) == 0) {
				n++;
				if (removed)
					assay_strvec_push(removed, root);
			}
			free(root);
		}
	}
	closedir(d);
	return n;
}
