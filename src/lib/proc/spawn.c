/*
 * Starting the case supervisor (proc_int.h): its image, and the two ways of exec'ing it.
 *
 * Key decisions:
 * - The supervisor (init/) is built statically with the library and embedded in it as bytes
 *   (the generated init_image.c), so libassay needs no file path at run time. The first start
 *   copies it into a sealed memfd (kept, close-on-exec, above fd 4); each start exec's
 *   /proc/self/fd/4 after the memfd has been moved to 4. The memfd is re-made if the caller
 *   closed or replaced it (checked by inode, seals and mode). Two of them: the plain way's may
 *   only be exec'd, not read, so that its supervisor is never dumpable (image_mode).
 *   execveat(AT_EMPTY_PATH) would avoid /proc, but posix_spawn has no form of it.
 * - Without the sandbox, posix_spawn (glibc: CLONE_VM | CLONE_VFORK, so the cost does not grow
 *   with assay's size) with file actions for fds 0-4 and the control signals blocked.
 * - With it, a clone(CLONE_VM | CLONE_VFORK | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC) child
 *   exec's the supervisor as PID 1 of the new PID namespace at once (the IPC namespace takes
 *   the case's System V shared memory, queues and semaphores with it when it ends). That costs
 *   no extra process: a supervisor that made the namespaces itself would need a second one to be
 *   their PID 1 (measured: 1167 us against 1065 us per /bin/echo case). The child shares
 *   assay's memory, so it runs with every signal blocked, calls nothing but syscall(2), and is
 *   not instrumented by sanitizers.
 * - The namespace's uid and gid maps are written by the library, from outside, once the
 *   supervisor has been exec'd; the supervisor waits for a byte on its "go" pipe (fd 5) first.
 *   Not by the clone child: it shares assay's memory, and a CLI that made itself non-dumpable
 *   (so that a case cannot open /proc/<assay>/fd) makes the child's /proc files root's, so an
 *   unprivileged child cannot write its own maps (and making it dumpable would make assay
 *   dumpable: the flag belongs to the memory). The exec'd supervisor is a fresh, dumpable
 *   process whose maps its owner may write. A child cannot map its namespace to an outer uid
 *   other than its own either (that takes CAP_SETUID outside it): root, which can, writes them
 *   from outside too.
 * - Without root the maps are the user's own uid and gid (the same numbers inside). With root
 *   the namespace's uid and gid 1000 are the unprivileged s->uid and s->gid outside (nobody by
 *   default), so that a program escaping the namespace is nobody, not root: the clone child
 *   makes CAP_SETUID and CAP_SETGID ambient, and the supervisor uses them after the maps to
 *   drop root's supplementary groups and become 1000, then drops every capability. Without the
 *   namespaces (refused), the supervisor stays root and the program takes s->uid and s->gid
 *   before exec.
 * - If the kernel refuses the namespaces (clone fails, or the maps cannot be written), the
 *   supervisor is started the plain way and told why.
 *
 * Refuses to: change any signal disposition or mask of the caller beyond the calling thread's
 * mask for the duration of the clone; leave the caller's descriptors open in the supervisor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_int.h"
#include "util/banned.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

/* init_image.c, generated at build time from the supervisor's binary. */
extern const unsigned char assay_proc__init_image[];
extern const size_t assay_proc__init_image_size;

#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)
#define SELF_PATH "/proc/self/fd/4"
#define CHILD_STACK (64 * 1024)
#define ASSAY_NS_ID 1000u       /* assay as root: the program's uid and gid in its namespace */
#define ASSAY_NS_IDS "1000:1000" /* the same, as the supervisor's -u takes it */

/* The two images (one memfd each): the namespaces' (0500: the library writes the maps of the
 * exec'd supervisor, which must be dumpable for that) and the plain way's (0100: exec only). An
 * exec of a file its user may not read leaves the process non-dumpable from the exec on (the
 * kernel's would_dump), so that no process of the user's (a case running beside it, without
 * the namespaces) can open /proc/<supervisor>/fd and write its report before its own
 * PR_SET_DUMPABLE. A caller with capabilities (root; the CLI in a user namespace of its own)
 * reads any file: spawn_plain clears its thread's effective ones for the spawn (caps_lower). */
enum { IMAGE_NS, IMAGE_PLAIN };
static const mode_t image_mode[2] = { 0500, 0100 };

static pthread_mutex_t image_lock = PTHREAD_MUTEX_INITIALIZER;
static int image_fd[2] = { -1, -1 };
static dev_t image_dev[2];
static ino_t image_ino[2];

int assay_proc__fd_high(int *fd)
{
	int moved;

	if (*fd > ASSAY_INIT_FD_GO)
		return 0;
	moved = fcntl(*fd, F_DUPFD_CLOEXEC, ASSAY_INIT_FD_GO + 1);
	if (moved < 0)
		return -1;
	close(*fd);
	*fd = moved;
	return 0;
}

static bool image_valid(int which)
{
	int fd = image_fd[which];
	struct stat st;

	return fd >= 0 && fcntl(fd, F_GET_SEALS) == SEALS && fstat(fd, &st) == 0 &&
	       st.st_dev == image_dev[which] && st.st_ino == image_ino[which] &&
	       (size_t)st.st_size == assay_proc__init_image_size &&
	       (st.st_mode & 07777) == image_mode[which];
}

static int make_image(int which, assay_err *err)
{
	int fd = memfd_create("assay-init", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
	size_t off = 0;
	struct stat st;

	if (fd < 0 && errno == EINVAL) /* Linux < 6.3 has no MFD_EXEC (and needs none) */
		fd = memfd_create("assay-init", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "cannot make the case supervisor's memfd: %s", strerror(errno));
	while (off < assay_proc__init_image_size) {
		ssize_t n = write(fd, assay_proc__init_image + off,
				  assay_proc__init_image_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		off += (size_t)n;
	}
	if (fchmod(fd, image_mode[which]) || fcntl(fd, F_ADD_SEALS, SEALS) ||
	    assay_proc__fd_high(&fd) || fstat(fd, &st))
		goto fail;
	image_dev[which] = st.st_dev;
	image_ino[which] = st.st_ino;
	image_fd[which] = fd;
	return 0;
fail:
	assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "cannot write the case supervisor's memfd: %s",
		      strerror(errno));
	close(fd);
	return ASSAY_ESPAWN;
}

/* The memfd holding the supervisor's image `which`, made on first use. */
static int image_get(int which, int *fd, assay_err *err)
{
	int rc = 0;

	pthread_mutex_lock(&image_lock);
	if (!image_valid(which)) {
		/* Closed or replaced behind our back: the number is no longer ours to close. */
		image_fd[which] = -1;
		rc = make_image(which, err);
	}
	*fd = image_fd[which];
	pthread_mutex_unlock(&image_lock);
	return rc;
}

/* ---- the plain way: posix_spawn ---- */

/*
 * Clears the calling thread's effective capabilities (keeping them permitted) into `saved`, if
 * it has any: a process with CAP_DAC_READ_SEARCH (the CLI, unprivileged, in a user namespace
 * of its own for its scratch tmpfs; root) reads the plain image despite its mode, and the
 * kernel would leave the supervisor it exec's dumpable. The exec'd supervisor's capabilities
 * are the exec's: uid 0 gets them back, any other uid had none after it anyway. Only the
 * calling thread's, and given back by caps_restore(). @return whether they were cleared.
 */
static bool caps_lower(struct __user_cap_data_struct saved[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2];

	if (syscall(SYS_capget, &h, saved) || (!saved[0].effective && !saved[1].effective))
		return false;
	memcpy(none, saved, sizeof(none));
	none[0].effective = none[1].effective = 0;
	return syscall(SYS_capset, &h, none) == 0;
}

static void caps_restore(struct __user_cap_data_struct saved[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	syscall(SYS_capset, &h, saved);
}

/* The supervisor waits on its go pipe (`go_w`, closed here): written into the case's cgroup,
 * then told to go. @return 0 or ASSAY_ESPAWN (the supervisor, told nothing, exits at once). */
static int cg_go(const struct assay_proc__spawn *s, pid_t pid, int go_w, assay_err *err)
{
	int e = assay_proc__cg_attach(s->cg, pid);
	ssize_t n = 0;

	if (!e) {
		while ((n = assay_proc__write_nosigpipe(go_w, "g", 1)) < 0 && errno == EINTR)
			;
		e = n == 1 ? 0 : errno;
	}
	close(go_w);
	if (e) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
			;
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "cannot put the case into its memory cgroup %s: %s", s->cg,
				     strerror(e));
	}
	return 0;
}

static int spawn_plain(const struct assay_proc__spawn *s, int image, pid_t *pid, assay_err *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t set;
	int go[2] = { -1, -1 };
	int e;

	if (s->cg && (pipe2(go, O_CLOEXEC) || assay_proc__fd_high(&go[0]) ||
		      assay_proc__fd_high(&go[1]))) {
		e = errno;
		if (go[0] >= 0)
			close(go[0]);
		if (go[1] >= 0)
			close(go[1]);
		go[0] = go[1] = -1;
		goto out;
	}
	if ((e = posix_spawn_file_actions_init(&fa)))
		goto out;
	if ((e = posix_spawnattr_init(&attr))) {
		posix_spawn_file_actions_destroy(&fa);
		goto out;
	}
	e = posix_spawn_file_actions_adddup2(&fa, s->in, 0);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, s->out, 1);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, s->err, 2);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, s->rep, ASSAY_INIT_FD_REPORT);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, image, ASSAY_INIT_FD_SELF);
	if (!e && go[0] >= 0)
		e = posix_spawn_file_actions_adddup2(&fa, go[0], ASSAY_INIT_FD_GO);
	if (!e)
		e = posix_spawn_file_actions_addclosefrom_np(
			&fa, (go[0] >= 0 ? ASSAY_INIT_FD_GO : ASSAY_INIT_FD_SELF) + 1);
	if (!e)
		e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
							    POSIX_SPAWN_SETSIGMASK);
	if (!e)
		e = posix_spawnattr_setpgroup(&attr, 0);
	if (!e) {
		sigfillset(&set);
		e = posix_spawnattr_setsigdefault(&attr, &set);
	}
	if (!e) /* the supervisor takes them from its signalfd: none may act before it exists */
		e = posix_spawnattr_setsigmask(&attr, &set);
	if (!e) {
		struct __user_cap_data_struct caps[2];
		bool lowered = caps_lower(caps);

		e = posix_spawn(pid, SELF_PATH, &fa, &attr, s->argv, s->envp);
		if (lowered)
			caps_restore(caps);
	}
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
out:
	if (go[0] >= 0)
		close(go[0]);
	if (e) {
		if (go[1] >= 0)
			close(go[1]);
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "cannot start the case supervisor: %s", strerror(e));
	}
	if (go[1] >= 0)
		return cg_go(s, *pid, go[1], err);
	return 0;
}

/* ---- the sandbox way: clone into new namespaces ---- */

enum { STAGE_OK = 0, STAGE_CAPS, STAGE_EXEC };

struct ns_child {
	int src[6];   /* become 0, 1, 2, 3, 4, 5 */
	char **argv, **envp;
	unsigned caps;   /* capabilities to keep across exec (ambient): CAP_SETUID and
			    CAP_SETGID to take nobody's ids, CAP_SYS_ADMIN for a case server */
	volatile int stage, err; /* written by the child before it exits */
};

/*
 * Makes the capabilities `keep` (a mask), which the child holds in its new user namespace,
 * ambient, so that the supervisor still holds them after exec (its uid is not root in the
 * namespace, so exec would drop them): CAP_SETUID and CAP_SETGID to become the unprivileged ids
 * once the maps are written; CAP_SYS_ADMIN for a case server, which makes each case an IPC
 * namespace of its own. Raw system calls only. @return 0 or an errno.
 */
__attribute__((no_sanitize("address", "undefined"))) static int child_keep_caps(unsigned keep)
{
	struct {
		unsigned version;
		int pid;
	} hdr = { 0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0 };
	struct {
		unsigned effective, permitted, inheritable;
	} data[2];
	if (syscall(SYS_capget, &hdr, data) < 0)
		return errno;
	data[0].inheritable |= keep;
	if (syscall(SYS_capset, &hdr, data) < 0)
		return errno;
	for (int cap = 0; cap < 32; cap++)
		if ((keep & (1u << cap)) &&
		    syscall(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
			return errno;
	return 0;
}

/*
 * Runs in the clone child, on its own stack but in assay's memory, with every signal blocked:
 * only syscall(2), no sanitizer instrumentation, nothing that could touch assay's state (its
 * credentials are its own; nothing here changes them in a way that would touch the shared
 * memory's dumpable flag).
 */
__attribute__((no_sanitize("address", "undefined"))) static int ns_child_main(void *arg)
{
	struct ns_child *c = arg;
	int e;

	for (int i = 0; i < 6; i++)
		if (syscall(SYS_dup3, c->src[i], i, 0) < 0)
			goto exec_failed;
	syscall(SYS_close_range, 6, ~0U, 0);
	syscall(SYS_setpgid, 0, 0);
	if (c->caps && (e = child_keep_caps(c->caps))) {
		c->stage = STAGE_CAPS;
		c->err = e;
		syscall(SYS_exit, 127);
		return 127;
	}
	syscall(SYS_execve, SELF_PATH, c->argv, c->envp);
exec_failed:
	c->stage = STAGE_EXEC;
	c->err = errno;
	syscall(SYS_exit, 127);
	return 127;
}

#define DUMPABLE_WAIT_S 0.005 /* how long the exec may take to make the supervisor dumpable */

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Writes `data` to /proc/PID/`file`. The vfork wait ends when the exec replaces the child's
 * memory, a few microseconds before the kernel makes that new memory dumpable: until then the
 * files are root's and an unprivileged owner gets EACCES. So EACCES is retried, briefly.
 * @return 0 or an errno.
 */
static int proc_write(pid_t pid, const char *file, const char *data)
{
	char path[64];
	size_t len = strlen(data);
	double give_up = 0;
	ssize_t n;
	int fd, e = 0;

	snprintf(path, sizeof(path), "/proc/%ld/%s", (long)pid, file);
	while ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0 && errno == EACCES) {
		double now = mono_s();

		if (!give_up)
			give_up = now + DUMPABLE_WAIT_S;
		else if (now > give_up)
			break;
		sched_yield();
	}
	if (fd < 0)
		return errno;
	n = write(fd, data, len);
	if (n < 0)
		e = errno;
	else if ((size_t)n != len)
		e = EIO;
	close(fd);
	return e;
}

/*
 * The maps of the supervisor's new user namespace, written from outside (protocol.h, fd 5).
 * Without root: the user's own uid and gid, the same numbers inside, setgroups denied (the
 * only maps the kernel lets an unprivileged owner write). With root: the namespace's ASSAY_NS_ID
 * is the unprivileged s->uid and s->gid outside; setgroups stays allowed so that the supervisor
 * can drop root's supplementary groups. @return 0 or an errno.
 */
static int write_maps(const struct assay_proc__spawn *s, pid_t pid)
{
	char map[64];
	int e;

	if (!s->drop_root) {
		e = proc_write(pid, "setgroups", "deny");
		if (e && e != ENOENT) /* kernels before 3.19 have no setgroups file */
			return e;
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)geteuid(), (unsigned)geteuid());
		if ((e = proc_write(pid, "uid_map", map)))
			return e;
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)getegid(), (unsigned)getegid());
		return proc_write(pid, "gid_map", map);
	}
	snprintf(map, sizeof(map), "%u %u 1\n", ASSAY_NS_ID, s->uid);
	if ((e = proc_write(pid, "uid_map", map)))
		return e;
	snprintf(map, sizeof(map), "%u %u 1\n", ASSAY_NS_ID, s->gid);
	return proc_write(pid, "gid_map", map);
}

static void reap_child(pid_t pid)
{
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
}

/* @return 0 with the supervisor started, ASSAY_ESPAWN (`err`), or 1: refused, see *ns_errno. */
static int spawn_ns(const struct assay_proc__spawn *s, int image, pid_t *pid, int *ns_errno,
		    assay_err *err)
{
	struct ns_child c;
	sigset_t all, old;
	void *stack;
	pid_t child;
	int go[2], e;
	ssize_t n;

	if (pipe2(go, O_CLOEXEC) || assay_proc__fd_high(&go[0]) || assay_proc__fd_high(&go[1])) {
		e = errno;
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "cannot start the case supervisor: %s", strerror(e));
	}
	memset(&c, 0, sizeof(c));
	c.src[0] = s->in;
	c.src[1] = s->out;
	c.src[2] = s->err;
	c.src[3] = s->rep;
	c.src[4] = image;
	c.src[5] = go[0];
	c.argv = s->argv;
	c.envp = s->envp;
	c.caps = (s->drop_root ? (1u << 6) | (1u << 7) : 0) | /* CAP_SETGID, CAP_SETUID */
		 (s->keep_admin ? 1u << 21 : 0);                /* CAP_SYS_ADMIN */
	s->argv[ASSAY_PROC__ARGV_NS + 1] = (char *)"1";

	stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED) {
		e = errno;
		close(go[0]);
		close(go[1]);
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "cannot start the case supervisor: %s", strerror(e));
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	child = clone(ns_child_main, (char *)stack + CHILD_STACK,
		      CLONE_VM | CLONE_VFORK | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC | SIGCHLD,
		      &c);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	munmap(stack, CHILD_STACK);
	close(go[0]);

	if (child < 0) {
		close(go[1]);
		if (e == ENOMEM || e == EAGAIN)
			return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
					     "cannot start the case supervisor: %s", strerror(e));
		*ns_errno = e; /* EPERM, EINVAL, ENOSPC, EUSERS: the kernel says no */
		return 1;
	}
	if (c.stage != STAGE_OK) {
		close(go[1]);
		reap_child(child);
		if (c.stage == STAGE_CAPS) {
			*ns_errno = c.err ? c.err : EPERM;
			return 1;
		}
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "cannot exec the case supervisor: %s", strerror(c.err));
	}
	/* The supervisor has been exec'd and waits on fd 5 (protocol.h). */
	if ((e = write_maps(s, child))) {
		kill(child, SIGKILL);
		close(go[1]);
		reap_child(child);
		*ns_errno = e;
		return 1;
	}
	if (s->cg) {
		int rc = cg_go(s, child, go[1], err);

		if (!rc) {
			*pid = child;
			*ns_errno = 0;
		}
		return rc;
	}
	while ((n = assay_proc__write_nosigpipe(go[1], "g", 1)) < 0 && errno == EINTR)
		;
	e = errno;
	close(go[1]);
	if (n != 1) { /* it died already: cannot happen */
		kill(child, SIGKILL);
		reap_child(child);
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "cannot start the case supervisor: %s", strerror(e));
	}
	*pid = child;
	*ns_errno = 0;
	return 0;
}

int assay_proc__spawn(const struct assay_proc__spawn *s, pid_t *pid, int *ns_errno,
		      assay_err *err)
{
	struct assay_proc__spawn own = *s;
	char num[16], ids[32];
	size_t n = 0;
	int image, rc;

	*ns_errno = s->namespaces ? 0 : s->ns_errno;
	/* A copy of the argv array whose two namespace slots this function may point elsewhere. */
	while (s->argv[n])
		n++;
	own.argv = assay_xmalloc((n + 1) * sizeof(*own.argv));
	memcpy(own.argv, s->argv, (n + 1) * sizeof(*own.argv));
	own.argv[ASSAY_PROC__ARGV_NS] = (char *)"-n";
	own.argv[ASSAY_PROC__ARGV_NS + 1] = (char *)"0";
	own.argv[ASSAY_PROC__ARGV_NS + 2] = (char *)"-u";
	own.argv[ASSAY_PROC__ARGV_NS + 3] = (char *)"-";
	if (s->namespaces) {
		if (s->drop_root)
			own.argv[ASSAY_PROC__ARGV_NS + 3] = (char *)ASSAY_NS_IDS;
		if ((rc = image_get(IMAGE_NS, &image, err)))
			goto out;
		rc = spawn_ns(&own, image, pid, ns_errno, err);
		if (rc <= 0)
			goto out;
	}
	if (*ns_errno) {
		snprintf(num, sizeof(num), "%d", *ns_errno);
		own.argv[ASSAY_PROC__ARGV_NS] = (char *)"-e";
		own.argv[ASSAY_PROC__ARGV_NS + 1] = num;
	}
	if (s->drop_root) {
		snprintf(ids, sizeof(ids), "%u:%u", s->uid, s->gid);
		own.argv[ASSAY_PROC__ARGV_NS + 3] = ids;
	} else {
		own.argv[ASSAY_PROC__ARGV_NS + 3] = (char *)"-";
	}
	if (!(rc = image_get(IMAGE_PLAIN, &image, err)))
		rc = spawn_plain(&own, image, pid, err);
out:
	free(own.argv);
	return rc;
}
