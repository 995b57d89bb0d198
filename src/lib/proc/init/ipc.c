/*
 * The IPC namespace of a case server's cases (serve.c). A case's System V shared memory,
 * message queues and semaphore sets, and its POSIX message queues, live in its IPC namespace:
 * were it the host's, they would outlive the case and a later case could read them.
 *
 * Key decisions:
 * - A per-case supervisor's case has the IPC namespace the library's clone made for it. A case
 *   server's cases used to get one each too (an unshare in the program's child), but making one
 *   mounts an mqueue file system and registers sysctl tables, and its teardown (a worker, an
 *   RCU grace period, an unmount) runs beside the next case's program: ~40 us of CPU a case.
 *   Now the cases of a server share the server's own IPC namespace (made with it), and after
 *   each case, once everything of it is reaped, the server looks whether the case left anything
 *   there: the System V counts of the namespace (SHM_INFO, MSG_INFO, SEM_INFO: no permission
 *   needed) and the entries of its mqueue file system. A case that left anything is the
 *   server's last (report `retired`): the library starts a fresh server, with a fresh
 *   namespace, for the next case. So what a case leaves reaches no other case; a case that
 *   uses IPC costs a server start.
 * - A System V object a case made and removed leaves no object, but the namespace's id
 *   allocator of its kind moved on (a cyclic index and a sequence number): the ids the next
 *   case's objects got would tell it how many the case before made, a channel from case to
 *   case. So the server also retires after a case that made any System V object: it sets the
 *   namespace's kernel.{shm,msg,sem}_next_id to 0 once (the making of an object takes it back to
 *   -1; a program cannot set it, which takes CAP_SYS_ADMIN in the namespace's user namespace)
 *   and reads them after each case (~0.5 us each). The first object of a case gets id 0, as in
 *   a fresh namespace; the allocator otherwise never moves in a server that runs a next case.
 * - The mqueue file system of the namespace is mounted once, detached (fsopen/fsmount), by a
 *   child that shares the server's descriptor table and makes a mount namespace of its own to
 *   do it in (a mount needs CAP_SYS_ADMIN over the caller's mount namespace, which the
 *   server's is not); the programs stay in the mount namespace they had.
 * - The namespace's sysctls (kernel.shmmax, fs.mqueue.*) are writable only by root of its user
 *   namespace (which a program is not: it runs as nobody, or as assay's own uid mapped to
 *   itself, docs/security.md) and only with a write right on /proc/sys, which Landlock grants
 *   none. Two fences, not one: a case shares the namespace only with Landlock's file system
 *   layer in force
 *   (supervise.c); without it, or where the mount cannot be made, each case gets a namespace of
 *   its own, as before.
 *
 * Refuses to: share the namespace when it cannot look into it, or cannot set the *_next_id
 * files (a kernel without CONFIG_CHECKPOINT_RESTORE).
 */
#include "init.h"
#include "../../util/banned.h"

#define S_CLONE_FILES 0x00000400
#define S_CLONE_NEWNS 0x00020000
#define S_FSOPEN_CLOEXEC 1u
#define S_FSCONFIG_CMD_CREATE 6u
#define S_FSMOUNT_CLOEXEC 1u
#define S_IPC_INFO_SHM 14 /* SHM_INFO */
#define S_IPC_INFO_MSG 12 /* MSG_INFO */
#define S_IPC_INFO_SEM 19 /* SEM_INFO */

static int mq_dir = -1; /* the root of the namespace's mqueue file system, or -1 */
/* the namespace's kernel.shm_next_id, msg_next_id and sem_next_id, open to read and write */
static int next_id[3] = { -1, -1, -1 };

/* Sets the id the namespace's next System V object of each kind gets to 0, as a fresh
 * namespace's first one: the making of an object takes it (it reads -1 again), so next_taken()
 * tells whether a case made any, even one it removed. Writing takes CAP_SYS_ADMIN (or
 * CAP_CHECKPOINT_RESTORE) in the namespace's user namespace, which the server has and a
 * program has not. @return false where the files cannot be written (a kernel without
 * CONFIG_CHECKPOINT_RESTORE) */
static bool next_arm(void)
{
	static const char *const path[3] = { "/proc/sys/kernel/shm_next_id",
					     "/proc/sys/kernel/msg_next_id",
					     "/proc/sys/kernel/sem_next_id" };

	for (int i = 0; i < 3; i++) {
		next_id[i] = s_openat(S_AT_FDCWD, path[i], S_O_RDWR | S_O_CLOEXEC);
		if (next_id[i] < 0 || SYS(__NR_pwrite64, next_id[i], "0\n", 2, 0) != 2)
			return false;
	}
	return true;
}

/* Was an object made since next_arm()? */
static bool next_taken(void)
{
	char v[16];

	for (int i = 0; i < 3; i++)
		if (next_id[i] < 0 || SYS(__NR_pread64, next_id[i], v, sizeof(v), 0) != 2 ||
		    v[0] != '0' || v[1] != '\n')
			return true;
	return false;
}

/* In a child sharing the server's descriptor table: mounts the mqueue file system of the
 * (shared) IPC namespace, detached. Exits with the mount's descriptor, or 255. */
__attribute__((noreturn)) static void mount_mqueue(void)
{
	int fs, mnt;

	if (s_unshare(S_CLONE_NEWNS) < 0)
		s_exit(255);
	fs = (int)SYS(__NR_fsopen, "mqueue", S_FSOPEN_CLOEXEC);
	if (fs < 0)
		s_exit(255);
	if (SYS(__NR_fsconfig, fs, S_FSCONFIG_CMD_CREATE, 0, 0, 0) < 0) {
		s_close(fs);
		s_exit(255);
	}
	mnt = (int)SYS(__NR_fsmount, fs, S_FSMOUNT_CLOEXEC, 0);
	s_close(fs);
	if (mnt < 0)
		s_exit(255);
	if (mnt >= 255) {
		s_close(mnt);
		s_exit(255);
	}
	s_exit(mnt);
}

bool ipc_share_prepare(void)
{
	int st = 0, mnt;
	long pid = s_clone(S_CLONE_FILES | S_SIGCHLD);

	if (pid == 0)
		mount_mqueue();
	if (pid < 0)
		return false;
	while (s_wait4((int)pid, &st, 0, NULL) == -S_EINTR)
		;
	if ((st & 0x7f) != 0 || ((st >> 8) & 0xff) == 255)
		return false; /* killed, or no mount */
	mnt = (st >> 8) & 0xff;
	mq_dir = s_openat(mnt, ".", S_O_RDONLY | S_O_DIRECTORY | S_O_CLOEXEC);
	s_close(mnt);
	return mq_dir >= 0 && next_arm() && !ipc_left();
}

/* The first int of a *_INFO answer, or the `at`-th: how many objects of the kind exist. */
static bool sysv_left(long nr, long cmd, int at)
{
	int info[32]; /* struct shm_info, msginfo or seminfo: ints first, fewer than 32 words */
	long r;

	memset(info, 0, sizeof(info));
	if (nr == __NR_semctl)
		r = SYS(nr, 0, 0, cmd, info);
	else
		r = SYS(nr, 0, cmd, info);
	return r < 0 || info[at] != 0;
}

bool ipc_left(void)
{
	char ents[512];
	long n;

	if (mq_dir < 0 || next_taken())
		return true;
	if (sysv_left(__NR_shmctl, S_IPC_INFO_SHM, 0) || /* shm_info.used_ids */
	    sysv_left(__NR_msgctl, S_IPC_INFO_MSG, 0) || /* msginfo.msgpool */
	    sysv_left(__NR_semctl, S_IPC_INFO_SEM, 7))   /* seminfo.semusz */
		return true;
	if (SYS(__NR_lseek, mq_dir, 0, 0 /* SEEK_SET */) < 0)
		return true;
	while ((n = s_getdents64(mq_dir, ents, sizeof(ents))) > 0)
		for (long off = 0; off < n;) {
			struct s_linux_dirent64 *d = (struct s_linux_dirent64 *)(ents + off);

			off += d->d_reclen;
			if (!(d->d_name[0] == '.' &&
			      (!d->d_name[1] || (d->d_name[1] == '.' && !d->d_name[2]))))
				return true;
		}
	return n < 0;
}
