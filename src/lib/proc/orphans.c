/*
 * Orphan control (proc.h): making assay a child subreaper, and killing and reaping the
 * descendants of finished cases that escaped their process group (setsid, double fork) and were
 * re-parented to assay.
 *
 * Key decisions:
 * - Children are found in /proc/self/task/<tid>/children (CONFIG_PROC_CHILDREN; one small read
 *   per thread). Where the kernel lacks it, every /proc/<pid>/stat is scanned for our ppid.
 * - Each orphan is reaped with waitpid(pid), never waitpid(-1): a child that is still being run
 *   (in `keep`) must stay unreaped for its own assay_proc.
 * - Killing an orphan can orphan its own children, which land on assay in turn, so the scan is
 *   repeated until it finds nobody (bounded).
 *
 * Refuses to: signal anything that is not a direct child of this process; reap a kept pid.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/proc.h"
#include "util/banned.h"

#define MAX_ROUNDS 64

struct pidlist {
	pid_t *v;
	size_t nr, alloc;
};

static void pid_push(struct pidlist *l, pid_t pid)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i] == pid)
			return;
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 16;
		l->v = assay_xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->nr++] = pid;
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Parses the space-separated pids of a children file. */
static void add_pids(struct pidlist *l, const char *s)
{
	while (*s) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s) {
			s++;
			continue;
		}
		if (v > 0)
			pid_push(l, (pid_t)v);
		s = end;
	}
}

/* @return 0, or -1 if the kernel has no children files. */
static int children_from_tasks(struct pidlist *l)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	assay_buf buf = ASSAY_BUF_INIT;
	int rc = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[64];

		if (!is_number(de->d_name))
			continue;
		long tid = strtol(de->d_name, NULL, 10);
		snprintf(path, sizeof(path), "/proc/self/task/%ld/children", tid);
		assay_buf_reset(&buf);
		int r = assay_fs_read(&buf, path, 0, NULL);
		if (r == ASSAY_ENOTFOUND) {
			/* The thread may just have ended; if the main thread lacks it, so does the
			 * kernel. */
			if (tid == (long)getpid()) {
				rc = -1;
				break;
			}
			continue;
		}
		if (r == 0)
			add_pids(l, buf.ptr);
	}
	closedir(d);
	assay_buf_release(&buf);
	return rc;
}

static void children_from_scan(struct pidlist *l)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t self = getpid();
	assay_buf buf = ASSAY_BUF_INIT;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[64];
		int ppid = 0;

		if (!is_number(de->d_name))
			continue;
		long pid = strtol(de->d_name, NULL, 10);
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		assay_buf_reset(&buf);
		if (assay_fs_read(&buf, path, 4096, NULL) != 0)
			continue;
		/* "pid (comm) state ppid ...": comm may hold spaces and parentheses. */
		const char *rp = strrchr(buf.ptr, ')');
		char state;
		if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == self)
			pid_push(l, (pid_t)pid);
	}
	closedir(d);
	assay_buf_release(&buf);
}

int assay_proc_become_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : ASSAY_ERROR;
}

int assay_proc_kill_orphans(const pid_t *keep, size_t nkeep)
{
	struct pidlist l = { NULL, 0, 0 };
	int killed = 0;

	for (int round = 0; round < MAX_ROUNDS; round++) {
		size_t n = 0;

		l.nr = 0;
		if (children_from_tasks(&l)) {
			l.nr = 0;
			children_from_scan(&l);
		}
		/* Keep only the orphans, then kill them all before waiting for any. */
		for (size_t i = 0; i < l.nr; i++) {
			bool kept = false;

			for (size_t k = 0; k < nkeep && !kept; k++)
				kept = keep[k] == l.v[i];
			if (!kept)
				l.v[n++] = l.v[i];
		}
		l.nr = n;
		if (!n)
			break;
		for (size_t i = 0; i < n; i++)
			kill(l.v[i], SIGKILL);
		for (size_t i = 0; i < n; i++)
			while (waitpid(l.v[i], NULL, 0) < 0 && errno == EINTR)
				;
		killed += (int)n;
	}
	free(l.v);
	return killed;
}
