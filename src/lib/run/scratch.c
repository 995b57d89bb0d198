/*
 * The run's scratch file system (run_int.h, assay_run_opts.scratch_bytes; issue 18 item 9,
 * issue 19 item 2): a tmpfs mounted on the run's root, so that every working folder and
 * temporary folder of the run lives in memory, bounded in bytes and in inodes, and goes with
 * one detach at the end.
 *
 * Key decisions:
 * - Why: on ext4 (with discard) removing what a case made costs assay far more than the case
 *   paid to make it: 40,000 empty folders made in 5 s took 48 s to remove, a mkdir after many
 *   rmdirs scans the group's recently deleted inodes. On tmpfs making and removing a folder
 *   cost about the same few microseconds, so cleaning up after a case is bounded by what the
 *   case itself did, and nr_inodes bounds how much it can do (ENOSPC past it).
 * - Mounted by the library only when its caller asks, having made the process's mount
 *   namespace private (the CLI, docs/security.md "Working folders"): a mount is process-wide
 *   state. MS_NOSUID | MS_NODEV: nothing a case writes there is a device or gains privileges.
 * - The root's .owner (workroot.c) is made before the mount, in the folder beneath it: another
 *   assay's sweep, in another mount namespace, sees the folder and its lock, not the tmpfs.
 * - At the end the tmpfs is detached (MNT_DETACH: a process still holding a file in it, which
 *   proc.h promises none is, would not keep assay waiting) and the folder beneath removed.
 *
 * Refuses to: mount anything with `keep` (kept folders would vanish with the namespace);
 * mount over a folder it did not just make (the root comes from mkdtemp).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "run/run_int.h"
#include "util/banned.h"

bool assay_run__scratch_mount(const char *root, const assay_run_opts *opts)
{
	char data[128];
	long long inodes =
		opts->scratch_inodes > 0 ? opts->scratch_inodes : ASSAY_RUN__SCRATCH_INODES;

	if (opts->keep || opts->scratch_bytes <= 0)
		return false;
	snprintf(data, sizeof(data), "size=%lld,nr_inodes=%lld,mode=0700", opts->scratch_bytes,
		 inodes);
	return mount("assay-scratch", root, "tmpfs", MS_NOSUID | MS_NODEV, data) == 0;
}

void assay_run__scratch_unmount(const char *root)
{
	umount2(root, MNT_DETACH);
}
