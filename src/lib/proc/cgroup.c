/*
 * A memory cgroup per case (proc_int.h, issue 18 item 6): what bounds `limits.memory_bytes`
 * and measures `max_rss` when the machine lets assay make cgroups.
 *
 * Key decisions:
 * - RLIMIT_DATA bounds neither shared mappings (mmap(MAP_SHARED|MAP_ANONYMOUS)) nor a memfd
 *   or tmpfs file, and a process's peak RSS does not count a memfd's pages at all; a memory
 *   cgroup charges every page the case's processes bring in, whatever kind. So with a memory
 *   limit each case gets a cgroup of its own: cgroup v2 (`memory.max`, `memory.swap.max` 0,
 *   `memory.peak`, `memory.events`) when assay's own cgroup has the memory controller enabled
 *   for its children (a delegated subtree), else cgroup v1's memory hierarchy
 *   (`memory.limit_in_bytes`, `memory.memsw.limit_in_bytes` when swap is accounted,
 *   `memory.max_usage_in_bytes`, `memory.oom_control`). It is made beneath assay's own cgroup of
 *   that hierarchy, named assay-PID-START-N (START: assay's start time in clock ticks, so that a
 *   reused pid is not taken for assay).
 * - The supervisor is written into it by the library before it may start the program (between
 *   its exec and its "go", protocol.h), so every process of the case is born inside.
 * - The kernel's OOM kill inside the cgroup is the case's `memory` limit: counted from the
 *   cgroup's own oom_kill counter, never guessed. assay is not in the cgroup and cannot be the
 *   victim; the supervisor can (a tiny process, so the last choice): the library then reports
 *   the case as killed by SIGKILL at its memory limit.
 * - Without a memory limit no cgroup is made (on v1 a memory cgroup costs a trivial case 1.2x
 *   its median time, 2x its mean: decisions.md): `max_rss` is then the largest per-process
 *   peak, as before.
 * - Nothing happens behind the caller's back: until it calls assay_memory_cgroups_enable(), the
 *   library makes no cgroup (limits.memory is RLIMIT_DATA, as before); assay is never moved
 *   into a cgroup, and a v2 subtree whose memory controller is not enabled is left as it is
 *   (unavailable). Cgroups whose owner is gone (assay killed mid-case) are removed only when the
 *   caller asks (assay_memory_cgroups_sweep(): their processes killed, then rmdir).
 * - Once enabled, a case whose cgroup cannot be made is an error (ASSAY_ESPAWN), never a silent
 *   fall back to the weaker limit.
 *
 * Refuses to: move a process other than the supervisor it started; touch a cgroup it did not
 * name assay-*; remove one whose owner is alive.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "proc_int.h"
#include "util/banned.h"

static pthread_mutex_t cg_lock = PTHREAD_MUTEX_INITIALIZER;
static char *cg_base;            /* the folder the case cgroups are made in, or NULL */
static int cg_version;           /* 1 or 2 */
static bool cg_memsw;            /* v1: swap is accounted (memory.memsw.*) */
static char cg_why[256] = "the caller did not enable them (assay_memory_cgroups_enable())";
static bool cg_looked;           /* enable() has looked */
static unsigned long long cg_start; /* assay's start time, clock ticks after boot */
static pid_t cg_pid;             /* whose start time cg_start is */
static unsigned long cg_seq;

/* Field 22 of /proc/PID/stat: the start time in clock ticks, 0 if unknown. */
static unsigned long long start_time(long pid)
{
	char path[64], buf[1024];
	unsigned long long v = 0;
	char *p;
	int fd, field = 2; /* the space after ")" starts field 3 */
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')))
		return 0;
	for (p++; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned long long)(*p++ - '0');
	return v;
}

unsigned long long assay_proc__start_time(long pid)
{
	return start_time(pid);
}

bool assay_proc__owner_alive(long pid, unsigned long long start)
{
	if (pid <= 0 || (kill((pid_t)pid, 0) && errno == ESRCH))
		return false;
	return start_time(pid) == start;
}

static int write_str(const char *dir, const char *file, const char *s)
{
	char path[4096];
	size_t len = strlen(s);
	int fd, e = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return errno;
	if (write(fd, s, len) != (ssize_t)len)
		e = errno ? errno : EIO;
	close(fd);
	return e;
}

static long read_str(const char *dir, const char *file, char *buf, size_t size)
{
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (long)n;
}

/* The number after "key " in a flat keyed file, or -1. */
static long long keyed(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtoll(p + len + 1, NULL, 10);
	return -1;
}

/* Kills every process listed in cgroup `dir` (a case's, whose supervisor is gone). */
static void kill_members(const char *dir)
{
	char buf[8192];

	for (int round = 0; round < 8 && read_str(dir, "cgroup.procs", buf, sizeof(buf)) > 0;
	     round++) {
		for (char *p = buf; *p;) {
			long pid = strtol(p, &p, 10);

			if (pid > 0)
				kill((pid_t)pid, SIGKILL);
			while (*p == '\n')
				p++;
			if (*p && (*p < '0' || *p > '9'))
				break;
		}
		usleep(1000);
	}
}

/* @return 0 once `dir` is gone, else -1. */
static int remove_cgroup(const char *dir)
{
	if (rmdir(dir) == 0 || errno == ENOENT)
		return 0;
	kill_members(dir);
	for (int i = 0; i < 50; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		usleep(2000);
	}
	return -1;
}

/* Our cgroup of the hierarchy whose /proc/self/cgroup line is `want` ("0::" for v2, else the
 * v1 controller "memory"), joined to its mount point, malloc'd; NULL if none. */
static char *own_cgroup(int version)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096], *path = NULL, *mnt = NULL, *root = NULL, *out = NULL;

	while (f && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		bool match;

		if (!c2)
			continue;
		line[strcspn(line, "\n")] = '\0';
		*c2 = '\0';
		if (version == 2) {
			match = !strcmp(line, "0:");
		} else {
			char *save = NULL;

			match = false;
			for (char *t = strtok_r(c1 + 1, ",", &save); t && !match;
			     t = strtok_r(NULL, ",", &save))
				match = !strcmp(t, "memory");
		}
		if (match) {
			path = assay_xstrdup(c2 + 1);
			break;
		}
	}
	if (f)
		fclose(f);
	if (!path)
		return NULL;
	f = fopen("/proc/self/mountinfo", "re");
	while (f && fgets(line, sizeof(line), f) && !mnt) {
		/* id parent maj:min root mountpoint opts... - fstype source superopts */
		char *fld[5] = { NULL }, *dash = strstr(line, " - "), *save = NULL, *type, *super;
		int n = 0;

		if (!dash)
			continue;
		*dash = '\0';
		type = strtok_r(dash + 3, " ", &save);
		strtok_r(NULL, " ", &save); /* source */
		super = strtok_r(NULL, " \n", &save);
		for (char *t = strtok_r(line, " ", &save); t && n < 5; t = strtok_r(NULL, " ", &save))
			fld[n++] = t;
		if (n < 5 || !type)
			continue;
		if (version == 2 ? strcmp(type, "cgroup2") != 0
				 : (strcmp(type, "cgroup") || !super || !strstr(super, "memory")))
			continue;
		if (version == 1) {
			bool mem = false;

			for (char *t = strtok_r(super, ",", &save); t && !mem;
			     t = strtok_r(NULL, ",", &save))
				mem = !strcmp(t, "memory");
			if (!mem)
				continue;
		}
		root = assay_xstrdup(fld[3]);
		mnt = assay_xstrdup(fld[4]);
	}
	if (f)
		fclose(f);
	if (mnt) {
		size_t rl = strlen(root);
		const char *rest = path;

		if (strcmp(root, "/") && !strncmp(path, root, rl) && (!path[rl] || path[rl] == '/'))
			rest = path + rl;
		out = assay_xasprintf("%s%s", mnt, !strcmp(rest, "/") ? "" : rest);
	}
	free(path);
	free(mnt);
	free(root);
	return out;
}

static void discover(void)
{
	char buf[512];
	char *base;

	cg_pid = getpid();
	cg_start = start_time((long)cg_pid);
	if ((base = own_cgroup(2))) {
		if (read_str(base, "cgroup.subtree_control", buf, sizeof(buf)) >= 0 &&
		    strstr(buf, "memory")) {
			cg_base = base;
			cg_version = 2;
		} else {
			snprintf(cg_why, sizeof(cg_why),
				 "cgroup v2: the memory controller is not enabled for the children "
				 "of %s",
				 base);
			free(base);
		}
	}
	if (!cg_base && (base = own_cgroup(1))) {
		char *probe = assay_xasprintf("%s/assay-probe-%ld", base, (long)getpid());

		if (mkdir(probe, 0755) && errno != EEXIST) {
			snprintf(cg_why, sizeof(cg_why), "cannot make a memory cgroup in %s: %s", base,
				 strerror(errno));
			free(base);
		} else {
			char *memsw = assay_path_join(probe, "memory.memsw.limit_in_bytes");

			cg_memsw = access(memsw, F_OK) == 0;
			free(memsw);
			rmdir(probe);
			cg_base = base;
			cg_version = 1;
		}
		free(probe);
	} else if (!cg_base && !cg_why[0]) {
		snprintf(cg_why, sizeof(cg_why), "no memory cgroup hierarchy is mounted");
	}
	if (cg_base && cg_version == 2) {
		char *probe = assay_xasprintf("%s/assay-probe-%ld", cg_base, (long)getpid());

		if (mkdir(probe, 0755) && errno != EEXIST) {
			snprintf(cg_why, sizeof(cg_why), "cannot make a memory cgroup in %s: %s",
				 cg_base, strerror(errno));
			free(cg_base);
			cg_base = NULL;
		} else {
			rmdir(probe);
		}
	}
}

bool assay_memory_cgroups_enable(assay_cgroup_report *out)
{
	pthread_mutex_lock(&cg_lock);
	if (!cg_looked) {
		cg_why[0] = '\0';
		discover();
		cg_looked = true;
	}
	if (out) {
		memset(out, 0, sizeof(*out));
		out->version = cg_base ? cg_version : 0;
		snprintf(out->base, sizeof(out->base), "%s", cg_base ? cg_base : "");
		snprintf(out->why, sizeof(out->why), "%s", cg_base ? "" : cg_why);
	}
	pthread_mutex_unlock(&cg_lock);
	return out ? out->version != 0 : assay_memory_cgroups(NULL, 0);
}

bool assay_memory_cgroups(char *why, size_t len)
{
	bool on;

	pthread_mutex_lock(&cg_lock);
	on = cg_base != NULL;
	if (!on && why && len)
		snprintf(why, len, "%s", cg_why);
	pthread_mutex_unlock(&cg_lock);
	return on;
}

int assay_memory_cgroups_sweep(void)
{
	DIR *d;
	struct dirent *de;
	char *base;
	int n = 0;

	pthread_mutex_lock(&cg_lock);
	base = cg_base ? assay_xstrdup(cg_base) : NULL;
	pthread_mutex_unlock(&cg_lock);
	if (!base || !(d = opendir(base))) {
		free(base);
		return 0;
	}
	while ((de = readdir(d))) {
		long pid;
		unsigned long long start;
		char *dir;

		if (strncmp(de->d_name, "assay-", 6) ||
		    sscanf(de->d_name + 6, "%ld-%llu-", &pid, &start) != 2 ||
		    assay_proc__owner_alive(pid, start))
			continue;
		dir = assay_path_join(base, de->d_name);
		if (remove_cgroup(dir) == 0)
			n++;
		free(dir);
	}
	closedir(d);
	free(base);
	return n;
}

int assay_proc__cg_make(long long limit, char **out, assay_err *err)
{
	char num[32], *dir;
	int e;

	*out = NULL;
	if (limit <= 0)
		return 0;
	pthread_mutex_lock(&cg_lock);
	if (cg_base && cg_pid != getpid()) { /* the caller forked since: the name is the child's */
		cg_pid = getpid();
		cg_start = start_time((long)cg_pid);
	}
	dir = cg_base ? assay_xasprintf("%s/assay-%ld-%llu-%lu", cg_base, (long)cg_pid, cg_start,
					cg_seq++)
		      : NULL;
	pthread_mutex_unlock(&cg_lock);
	if (!dir)
		return 0; /* not enabled, or not available: RLIMIT_DATA */
	if (mkdir(dir, 0755)) {
		e = errno;
		goto fail;
	}
	snprintf(num, sizeof(num), "%lld", limit);
	if (cg_version == 2) {
		if ((e = write_str(dir, "memory.max", num)))
			goto fail_rm;
		write_str(dir, "memory.swap.max", "0"); /* absent without swap accounting */
	} else {
		if ((e = write_str(dir, "memory.limit_in_bytes", num)))
			goto fail_rm;
		/* not below limit_in_bytes: written after it */
		if (cg_memsw && (e = write_str(dir, "memory.memsw.limit_in_bytes", num)))
			goto fail_rm;
	}
	*out = dir;
	return 0;
fail_rm:
	rmdir(dir);
fail:
	assay_err_set(err, ASSAY_ESPAWN, dir, 0, 0, "cannot make the case's memory cgroup: %s",
		      strerror(e));
	free(dir);
	return ASSAY_ESPAWN;
}

int assay_proc__cg_attach(const char *dir, pid_t pid)
{
	char num[32];

	snprintf(num, sizeof(num), "%ld", (long)pid);
	return write_str(dir, "cgroup.procs", num);
}

void assay_proc__cg_done(char **dir, long long *peak, int *oom_kills)
{
	char buf[1024];
	long long v;

	*peak = 0;
	*oom_kills = 0;
	if (!*dir)
		return;
	if (read_str(*dir, cg_version == 2 ? "memory.peak" : "memory.max_usage_in_bytes", buf,
		     sizeof(buf)) > 0)
		*peak = strtoll(buf, NULL, 10);
	if (read_str(*dir, cg_version == 2 ? "memory.events" : "memory.oom_control", buf,
		     sizeof(buf)) > 0 &&
	    (v = keyed(buf, "oom_kill")) > 0)
		*oom_kills = (int)v;
	remove_cgroup(*dir);
	free(*dir);
	*dir = NULL;
}
