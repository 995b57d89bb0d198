/*
 * The run's working folders on a tmpfs (run_common.h cli_scratch; docs/security.md "Working
 * folders"): the CLI puts itself in a mount namespace of its own, so that the library may mount
 * the run's scratch tmpfs (assay_run_opts.scratch_bytes) without the host seeing it.
 *
 * Key decisions:
 * - Process-wide, so the CLI's to do, not the library's, and said in docs/cli.md: assay run,
 *   run-case and check-suite --mutate leave the host's mount namespace for their own, a slave
 *   of it (the host's mounts still reach assay; assay's never reach the host).
 * - With root: only a new mount namespace. Without root, only when the run's sandbox is on: a
 *   new user namespace too, in which assay keeps its uid and gid (the same numbers, setgroups
 *   denied), since an unprivileged process may mount only in a mount namespace its own user
 *   namespace owns. Its cases are in user namespaces of their own then anyway; with the
 *   sandbox off a setuid program a case runs would lose its privilege in one, so assay stays in
 *   the host's. assay is made dumpable for the moment it writes its own maps (the kernel gives
 *   /proc/self of a non-dumpable process to root), and not dumpable again before anything runs.
 * - Not with --keep (kept folders would vanish with the namespace) nor --work-dir (the folders
 *   go where the user says), nor with ASSAY_SCRATCH=off, nor when the suite sets limits.memory
 *   for a group: a file on a tmpfs is memory the case holds, and counts against the limit, where
 *   the same file on disk does not (page cache can be written back). Anything that fails leaves the run on
 *   disk as before; the namespace is left only for one whose propagation was made one-way.
 * - Size: half the machine's memory (tmpfs's own default), 1,000,000 files and folders, unless
 *   --scratch-size and --scratch-inodes say otherwise: a case past either gets ENOSPC.
 *
 * Refuses to: mount anything itself; enter a namespace whose mounts could reach the host.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "run_common.h"

#define SCRATCH_INODES 1000000LL

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A user namespace in which assay keeps its ids. @return 0, or -1 (still in the host's). */
static int own_user_namespace(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int rc = -1;

	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (!unshare(CLONE_NEWUSER)) {
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
		if (!write_file("/proc/self/setgroups", "deny") &&
		    !write_file("/proc/self/uid_map", map)) {
			snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
			rc = write_file("/proc/self/gid_map", map);
		}
	}
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	return rc;
}

/* ASSAY_CASE_SERVER and ASSAY_SCRATCH (docs/cli.md): off, 0, false or no (any case). */
bool cli_env_off(const char *name)
{
	const char *v = getenv(name);

	return v && (!strcasecmp(v, "off") || !strcmp(v, "0") || !strcasecmp(v, "false") ||
		     !strcasecmp(v, "no"));
}

/* Why the tmpfs is not used, for the note on --scratch-size/--scratch-inodes; NULL: it may be. */
static const char *why_not(const struct run_args *a, bool memory)
{
	if (a->keep)
		return "--keep";
	if (a->work_dir)
		return "--work-dir";
	if (cli_env_off("ASSAY_SCRATCH"))
		return "ASSAY_SCRATCH=off";
	if (memory)
		return "the suite's limits.memory (files there would count against it)";
	return NULL;
}

void cli_scratch(assay_run_opts *opts, const struct run_args *a, bool sandbox, bool memory)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	const char *why = why_not(a, memory);

	if (why && (a->scratch_size || a->scratch_inodes) && !a->quiet)
		fprintf(stderr, "assay: note: --scratch-size and --scratch-inodes do nothing with "
				"%s: the working folders are on disk\n", why);
	if (why || pages <= 0 || page <= 0)
		return;
	if (geteuid() != 0 && (!sandbox || own_user_namespace()))
		return;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL))
		return; /* a new namespace that still propagates: mount nothing in it */
	opts->scratch_bytes = a->scratch_size ? (long long)a->scratch_size
					      : (long long)pages * page / 2;
	opts->scratch_inodes = a->scratch_inodes ? (long long)a->scratch_inodes : SCRATCH_INODES;
}
