/*
 * The system layer of the case supervisor: raw Linux system calls and the few string helpers it
 * needs, so that it can be built without a C library.
 *
 * Why no libc: glibc's start-up code identifies the CPU with dozens of CPUID instructions, and
 * CPUID traps to the hypervisor in a virtual machine. On the machine this was written on, a
 * static glibc program took 550 us to exec against 48 us for one without libc (measured with
 * vfork + execve + waitpid, 500 runs each); the supervisor is exec'd once per case, so that
 * difference alone would be most of the sandbox's cost.
 *
 * Every call returns what the kernel returns: a value >= 0, or -errno. x86_64 and aarch64 use
 * inline system calls; elsewhere (ASSAY_INIT_LIBC) the same names wrap libc's syscall(2) and the
 * supervisor is linked statically against libc.
 */
#ifndef ASSAY_INIT_SYS_H
#define ASSAY_INIT_SYS_H

#if !defined(ASSAY_INIT_LIBC) && !defined(__x86_64__) && !defined(__aarch64__)
#define ASSAY_INIT_LIBC 1
#endif
#if defined(ASSAY_INIT_LIBC) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* syscall(2), before any header reads the feature macros */
#endif

#include <stddef.h>
#include <stdint.h>

#include <asm/unistd.h>
#include <linux/types.h>

#ifdef ASSAY_INIT_LIBC
#include <errno.h>
#include <unistd.h>
static inline long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	long r = syscall(n, a, b, c, d, e, f);
	return r < 0 ? -errno : r;
}
#elif defined(__x86_64__)
static inline long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
static inline long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}
#endif

#define SYS(n, ...) SYS_(n, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define SYS_(n, a, b, c, d, e, f, ...)                                                            \
	sys6((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

/* ---- the kernel structures and constants the supervisor uses (from the UAPI headers) ---- */

#define S_AT_FDCWD (-100)
#define S_O_RDONLY 00
#define S_O_RDWR 02
#define S_O_DIRECTORY 0200000
#define S_O_CLOEXEC 02000000
#define S_O_PATH 010000000
#define S_F_GETFD 1
#define S_F_SETFD 2
#define S_FD_CLOEXEC 1
#define S_S_IFMT 0170000
#define S_S_IFDIR 0040000
#define S_S_IFCHR 0020000

#define S_SIGHUP 1
#define S_SIGINT 2
#define S_SIGKILL 9
#define S_SIGUSR1 10
#define S_SIGPIPE 13
#define S_SIGTERM 15
#define S_SIGCHLD 17
#define S_SIGCONT 18
#define S_SIGXCPU 24
#define S_SIGXFSZ 25
#define S_SIG_SETMASK 2

#define S_WNOHANG 1
#define S_WEXITED 4
#define S_WNOWAIT 0x01000000
#define S_CLD_EXITED 1 /* siginfo's si_code of a child that exited */
#define S___WALL 0x40000000


#define S_PR_SET_DUMPABLE 4
#define S_PR_SET_NO_NEW_PRIVS 38
#define S_PR_SET_CHILD_SUBREAPER 36

#define S_RLIMIT_CPU 0
#define S_RLIMIT_FSIZE 1
#define S_RLIMIT_DATA 2
#define S_RLIMIT_NPROC 6
#define S_RLIMIT_NOFILE 7

#define S_RUSAGE_CHILDREN (-1)

#define S_CLOCK_MONOTONIC 1
#define S_POLLIN 0x001
#define S_POLLERR 0x008
#define S_POLLHUP 0x010
#define S_CLOSE_RANGE_CLOEXEC (1U << 2)

#define S_EINTR 4
#define S_ECHILD 10
#define S_EAGAIN 11
#define S_EACCES 13
#define S_ENOENT 2
#define S_ENOTDIR 20
#define S_ENOEXEC 8
#define S_EPERM 1
#define S_EINVAL 22
#define S_ENOSYS 38
#define S_ECONNRESET 104
#define S_ECANCELED 125
#define S_CLONE_NEWIPC 0x08000000
#define S_EOPNOTSUPP 95

struct s_timespec {
	long tv_sec;
	long tv_nsec;
};

struct s_timeval {
	long tv_sec;
	long tv_usec;
};

struct s_rusage {
	struct s_timeval ru_utime;
	struct s_timeval ru_stime;
	long ru_maxrss;
	long ru_rest[13];
};

struct s_rlimit {
	uint64_t cur;
	uint64_t max;
};

struct s_pollfd {
	int fd;
	short events;
	short revents;
};

/* struct signalfd_siginfo, 128 bytes */
struct s_signalfd_siginfo {
	uint32_t ssi_signo;
	int32_t ssi_errno;
	int32_t ssi_code;
	uint32_t ssi_pid;
	uint32_t ssi_uid;
	int32_t ssi_fd;
	uint32_t ssi_tid;
	uint32_t ssi_band;
	uint32_t ssi_overrun;
	uint32_t ssi_trapno;
	int32_t ssi_status;
	int32_t ssi_int;
	uint64_t ssi_ptr;
	uint64_t ssi_utime;
	uint64_t ssi_stime;
	uint64_t ssi_addr;
	uint16_t ssi_addr_lsb;
	uint8_t pad[46];
};

/* The fields of siginfo_t that waitid() fills, at their x86_64/aarch64 offsets. */
struct s_siginfo {
	int32_t si_signo;
	int32_t si_errno;
	int32_t si_code;
	int32_t pad0;
	int32_t si_pid;
	uint32_t si_uid;
	int32_t si_status;
	int32_t pad[25];
};

struct s_iovec {
	void *base;
	size_t len;
};

struct s_msghdr {
	void *name;
	uint32_t namelen;
	struct s_iovec *iov;
	size_t iovlen;
	void *control;
	size_t controllen;
	int flags;
};

struct s_cmsghdr {
	size_t len;
	int level;
	int type;
};

#define S_SOL_SOCKET 1
#define S_SCM_RIGHTS 1
#define S_MSG_CTRUNC 0x08
#define S_MSG_TRUNC 0x20
#define S_MSG_CMSG_CLOEXEC 0x40000000

struct s_linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];
};

/* ---- system calls ---- */

static inline long s_read(int fd, void *buf, size_t n) { return SYS(__NR_read, fd, buf, n); }
static inline long s_write(int fd, const void *buf, size_t n)
{
	return SYS(__NR_write, fd, buf, n);
}
static inline int s_openat(int dir, const char *path, int flags)
{
	return (int)SYS(__NR_openat, dir, path, flags, 0);
}
static inline int s_close(int fd) { return (int)SYS(__NR_close, fd); }
static inline int s_dup3(int a, int b, int flags) { return (int)SYS(__NR_dup3, a, b, flags); }
static inline int s_pipe2(int fds[2], int flags) { return (int)SYS(__NR_pipe2, fds, flags); }
static inline int s_fcntl(int fd, int cmd, long arg) { return (int)SYS(__NR_fcntl, fd, cmd, arg); }
static inline int s_close_range(unsigned a, unsigned b, unsigned flags)
{
	return (int)SYS(__NR_close_range, a, b, flags);
}
static inline long s_getdents64(int fd, void *buf, size_t n)
{
	return SYS(__NR_getdents64, fd, buf, n);
}
/* The file type bits of `fd` (an O_PATH descriptor is fine), or -errno. */
static inline long s_fmode(int fd)
{
	/* struct stat differs between architectures; struct statx does not. */
	union {
		struct {
			uint32_t mask, blksize;
			uint64_t attributes;
			uint32_t nlink, uid, gid;
			uint16_t mode;
		} head;
		unsigned char all[256];
	} stx;
	long r = SYS(__NR_statx, fd, "", 0x1000 /* AT_EMPTY_PATH */, 0x2 /* STATX_MODE */, &stx);

	return r < 0 ? r : (long)stx.head.mode;
}

/* statfs(2)'s struct on 64-bit Linux (x86_64, and asm-generic's for aarch64): words of a long. */
struct s_statfs {
	long type, bsize;
	unsigned long blocks, bfree, bavail, files, ffree;
	int fsid[2];
	long namelen, frsize, flags, spare[4];
};

static inline int s_statfs(const char *path, struct s_statfs *f)
{
	return (int)SYS(__NR_statfs, path, f);
}

/* fork(): clone without a new stack, so the child returns here on a copy of ours. The argument
 * order after the stack differs between x86_64 and aarch64, but all of them are 0. */
static inline long s_clone(unsigned long flags)
{
	return SYS(__NR_clone, flags, 0, 0, 0, 0);
}
/*
 * Starts a child that runs fn(arg) in the caller's memory (CLONE_VM), on `stack_top` (the top
 * of a 16-byte aligned stack of its own), while the caller goes on. fn must not return: it execs
 * or exits (if it returns, the child exits with 127). No copy of the address space is made, and
 * the exec drops a reference instead of tearing a copy down: a fork costs page tables copied at
 * the start, copy-on-write faults meanwhile, and their teardown inside the exec, on the path
 * from the case's go to its program. The caller must not change what the child reads until the
 * child has exec'd or exited (supervise.c start_program: the child reads a copy of its own).
 * Where there is no inline system call for it (aarch64, ASSAY_INIT_LIBC), it forks: the same,
 * at the cost of the copy. @return the child's pid to the caller, or -errno.
 */
typedef void (*s_child_fn)(void *arg);
#if defined(__x86_64__) && !defined(ASSAY_INIT_LIBC)
static inline long s_clone_vm(s_child_fn fn, void *arg, void *stack_top)
{
	register long r10 __asm__("r10") = 0;
	register long r8 __asm__("r8") = 0;
	register long r12 __asm__("r12") = (long)fn;  /* callee-saved: the child has them too */
	register long r13 __asm__("r13") = (long)arg;
	long ret;

	/* clone(flags, newsp, parent_tid, child_tid, tls); the child (0) starts on newsp */
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "mov %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "mov $127, %%edi\n\t"
			 "mov %[exit], %%eax\n\t"
			 "syscall\n\t"
			 "hlt\n"
			 "1:"
			 : "=a"(ret)
			 : "a"((long)__NR_clone), "D"((long)(0x00000100 /* CLONE_VM */ | 17 /* SIGCHLD */)),
			   "S"(stack_top), "d"(0L), "r"(r10), "r"(r8), "r"(r12), "r"(r13),
			   [exit] "i"(__NR_exit_group)
			 : "rcx", "r11", "memory");
	return ret;
}
#else
static inline long s_clone_vm(s_child_fn fn, void *arg, void *stack_top)
{
	long pid = SYS(__NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0);

	(void)stack_top;
	if (pid == 0) {
		fn(arg);
		for (;;)
			SYS(__NR_exit_group, 127);
	}
	return pid;
}
#endif

static inline int s_execve(const char *path, char *const argv[], char *const envp[])
{
	return (int)SYS(__NR_execve, path, argv, envp);
}
__attribute__((noreturn)) static inline void s_exit(int code)
{
	for (;;)
		SYS(__NR_exit_group, code);
}
static inline int s_wait4(int pid, int *status, int options, struct s_rusage *ru)
{
	return (int)SYS(__NR_wait4, pid, status, options, ru);
}
static inline int s_waitid(int which, int id, struct s_siginfo *info, int options)
{
	return (int)SYS(__NR_waitid, which, id, info, options, 0);
}
static inline int s_kill(int pid, int sig) { return (int)SYS(__NR_kill, pid, sig); }
static inline int s_getpid(void) { return (int)SYS(__NR_getpid, 0); }
static inline int s_getppid(void) { return (int)SYS(__NR_getppid, 0); }
static inline int s_prctl(int op, unsigned long a, unsigned long b)
{
	return (int)SYS(__NR_prctl, op, a, b, 0, 0);
}
static inline int s_setsid(void) { return (int)SYS(__NR_setsid, 0); }
static inline int s_setgroups(void) { return (int)SYS(__NR_setgroups, 0, 0); }
static inline int s_setresuid(uint32_t id) { return (int)SYS(__NR_setresuid, id, id, id); }
static inline int s_setresgid(uint32_t id) { return (int)SYS(__NR_setresgid, id, id, id); }
/* Drops every capability: effective, permitted, inheritable (version 3 of the ABI), and the
 * ambient set. */
static inline int s_drop_caps(void)
{
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522, 0 };
	uint32_t data[6] = { 0, 0, 0, 0, 0, 0 };
	int r = (int)SYS(__NR_prctl, 47 /* PR_CAP_AMBIENT */, 4 /* PR_CAP_AMBIENT_CLEAR_ALL */, 0,
			 0, 0);

	if (r < 0 && r != -S_EINVAL) /* Linux < 4.3 has no ambient set */
		return r;
	return (int)SYS(__NR_capset, &hdr, data);
}
static inline long s_recvmsg(int fd, struct s_msghdr *m, int flags)
{
	return SYS(__NR_recvmsg, fd, m, flags);
}
/* Keeps only the capabilities of `mask` (of the first 32), effective and permitted; none
 * inheritable or ambient, so that nothing the process execs inherits them. */
static inline int s_keep_caps(uint32_t mask)
{
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522, 0 };
	uint32_t data[6] = { mask, mask, 0, 0, 0, 0 };
	int r = (int)SYS(__NR_prctl, 47 /* PR_CAP_AMBIENT */, 4 /* PR_CAP_AMBIENT_CLEAR_ALL */, 0,
			 0, 0);

	if (r < 0 && r != -S_EINVAL)
		return r;
	return (int)SYS(__NR_capset, &hdr, data);
}
static inline int s_unshare(unsigned long flags) { return (int)SYS(__NR_unshare, flags); }
static inline int s_chdir(const char *path) { return (int)SYS(__NR_chdir, path); }
static inline int s_mkdir(const char *path, unsigned mode)
{
	return (int)SYS(__NR_mkdirat, S_AT_FDCWD, path, mode);
}
static inline int s_rmdir(const char *path)
{
	return (int)SYS(__NR_unlinkat, S_AT_FDCWD, path, 0x200 /* AT_REMOVEDIR */);
}
static inline int s_lchown(const char *path, uint32_t uid, uint32_t gid)
{
	return (int)SYS(__NR_fchownat, S_AT_FDCWD, path, uid, gid, 0x100 /* AT_SYMLINK_NOFOLLOW */);
}
static inline int s_prlimit(int res, const struct s_rlimit *rl)
{
	return (int)SYS(__NR_prlimit64, 0, res, rl, 0);
}
static inline int s_getrusage(int who, struct s_rusage *ru)
{
	return (int)SYS(__NR_getrusage, who, ru);
}
static inline int s_sigprocmask(int how, const uint64_t *set, uint64_t *old)
{
	return (int)SYS(__NR_rt_sigprocmask, how, set, old, 8);
}
static inline int s_signalfd(const uint64_t *mask, int flags)
{
	return (int)SYS(__NR_signalfd4, -1, mask, 8, flags);
}
static inline int s_ppoll(struct s_pollfd *fds, unsigned n, const struct s_timespec *t)
{
	return (int)SYS(__NR_ppoll, fds, n, t, 0, 8);
}
static inline int s_clock_ns(int64_t *out)
{
	struct s_timespec ts;
	int r = (int)SYS(__NR_clock_gettime, S_CLOCK_MONOTONIC, &ts);

	*out = r < 0 ? 0 : (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return r;
}
static inline int s_pidfd_open(int pid) { return (int)SYS(__NR_pidfd_open, pid, 0); }
static inline int s_pidfd_kill(int pidfd, int sig)
{
	return (int)SYS(__NR_pidfd_send_signal, pidfd, sig, 0, 0);
}
static inline int s_seccomp(unsigned op, unsigned flags, void *arg)
{
	return (int)SYS(__NR_seccomp, op, flags, arg);
}
static inline int s_landlock_create_ruleset(const void *attr, size_t size, unsigned flags)
{
	return (int)SYS(__NR_landlock_create_ruleset, attr, size, flags);
}
static inline int s_landlock_add_rule(int fd, int type, const void *attr)
{
	return (int)SYS(__NR_landlock_add_rule, fd, type, attr, 0);
}
static inline int s_landlock_restrict_self(int fd, unsigned flags)
{
	return (int)SYS(__NR_landlock_restrict_self, fd, flags);
}

/* ---- strings ---- */

static inline size_t s_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static inline int s_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static inline int s_has_slash(const char *s)
{
	for (; *s; s++)
		if (*s == '/')
			return 1;
	return 0;
}

/* Parses an unsigned number in `base` (10 or 16) filling all of `s`. @return 0 or -EINVAL. */
static inline int s_parse_u64(const char *s, unsigned base, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -S_EINVAL;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else
			return -S_EINVAL;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return -S_EINVAL;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* Writes `v` in decimal at `p` (room for 21 bytes); returns the end. No NUL is added. */
static inline char *s_utoa(char *p, uint64_t v)
{
	char tmp[21];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* Appends `s` at `p` without passing `end`; returns the new end (NUL-terminated if room). */
static inline char *s_append(char *p, char *end, const char *s)
{
	while (*s && p + 1 < end)
		*p++ = *s++;
	if (p < end)
		*p = '\0';
	return p;
}

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif
