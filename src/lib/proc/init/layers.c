/*
 * The sandbox layers the case supervisor applies to the program (see docs/security.md for what
 * each promises): the Landlock ruleset, the seccomp socket filter, and the resource limits. (The
 * namespaces are made by the library, which starts the supervisor inside them.)
 *
 * Key decisions:
 * - Landlock handles every access right the running kernel knows (ABI 1-7, asked with
 *   LANDLOCK_CREATE_RULESET_VERSION), so a right the program was not granted is denied, never
 *   merely unknown. The ruleset struct is always passed at its full size with the fields of
 *   newer ABIs zero, which older kernels accept.
 * - Network off: TCP is denied by Landlock (ABI >= 4: bind and connect handled, no port
 *   allowed) and every socket family but AF_UNIX by seccomp. A network namespace would do it
 *   alone, but creating and tearing one down cost 650 us per case on the machine this was
 *   written on, most of the whole case.
 * - The seccomp filter allows socket(2) only for AF_UNIX and refuses io_uring_setup (io_uring
 *   creates sockets without socket(2)); the other ABIs of the machine (i386 and x32 on x86_64,
 *   arm on aarch64) get the same rules, and socketcall(2) is refused outright because its
 *   arguments cannot be inspected. Unknown ABIs get ENOSYS for every call.
 * - RLIMIT_DATA, not RLIMIT_AS, is the memory limit: runtimes such as V8, the JVM and Go reserve
 *   gigabytes of address space they never touch (PROT_NONE), which RLIMIT_AS counts and
 *   RLIMIT_DATA does not. RLIMIT_CPU has whole seconds; the hard limit is one second above the
 *   soft one, so SIGXCPU comes first.
 * - RLIMIT_NPROC counts the processes of the program's uid in its user namespace, which only
 *   the case's processes and its supervisor use; outside one it counts every process of the
 *   user. It is not enforced at all when the outer uid is root: the library also caps the PID
 *   namespace's pid_max for that.
 *
 * Refuses to: grant any right beneath a path that is not a folder beyond what a file can have;
 * raise a limit above the hard limit assay itself runs under (such a limit is clamped).
 */
#include "init.h"
#include "../../util/banned.h"

/* ---- bookkeeping ---- */

static int layer_index(unsigned layer)
{
	int i = 0;

	while (layer > 1) {
		layer >>= 1;
		i++;
	}
	return i;
}

void layer_apply(struct assay_init_report *rep, unsigned layer)
{
	rep->applied |= layer;
	rep->refused &= ~layer;
	rep->refused_errno[layer_index(layer)] = 0;
}

void layer_refuse(struct assay_init_report *rep, unsigned layer, int err)
{
	rep->applied &= ~layer;
	rep->refused |= layer;
	rep->refused_errno[layer_index(layer)] = err > 0 ? err : S_EPERM;
}

/* ---- Landlock ---- */

#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1

#define LL_FS_EXECUTE (1ull << 0)
#define LL_FS_WRITE_FILE (1ull << 1)
#define LL_FS_READ_FILE (1ull << 2)
#define LL_FS_READ_DIR (1ull << 3)
#define LL_FS_MAKE_CHAR (1ull << 6)
#define LL_FS_MAKE_BLOCK (1ull << 11)
#define LL_FS_TRUNCATE (1ull << 14)
#define LL_FS_IOCTL_DEV (1ull << 15)
#define LL_NET_BIND_TCP (1ull << 0)
#define LL_NET_CONNECT_TCP (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0)
#define LL_SCOPE_SIGNAL (1ull << 1)

/* The rights a rule on a file (not a folder) may hold. */
#define LL_FILE_RIGHTS                                                                            \
	(LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)
#define LL_READ_RIGHTS (LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR)

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;             /* ABI 6 */
};

struct ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

/* Every filesystem right of each ABI: 13 rights in ABI 1, REFER in 2, TRUNCATE in 3,
 * IOCTL_DEV in 5. */
static uint64_t fs_rights(int abi)
{
	uint64_t r = (1ull << 13) - 1;

	if (abi >= 2)
		r |= 1ull << 13;
	if (abi >= 3)
		r |= LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= LL_FS_IOCTL_DEV;
	return r;
}

/*
 * Builds the ruleset the program will be confined by, or returns -1 (Landlock refused, or
 * nothing to handle). `layers` gets the layers it brings; landlock_enforce() records them as
 * applied, in the program, once they really hold.
 */
int landlock_prepare(const struct cfg *cfg, struct assay_init_report *rep, unsigned *layers)
{
	struct ll_ruleset_attr attr;
	bool want_net = cfg->flags & ASSAY_INIT_F_NO_NET;
	int abi, fd;

	abi = s_landlock_create_ruleset(NULL, 0, LL_CREATE_RULESET_VERSION);
	if (abi < 0) {
		layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_FS, -abi);
		layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_SCOPE, -abi);
		if (want_net)
			layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_NET, -abi);
		return -1;
	}
	rep->landlock_abi = abi;
	memset(&attr, 0, sizeof(attr));
	if (cfg->refuse & ASSAY_INIT_L_LANDLOCK_FS)
		layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_FS, S_EPERM);
	else
		attr.handled_access_fs = fs_rights(abi);
	if (want_net) {
		if (abi < 4 || (cfg->refuse & ASSAY_INIT_L_LANDLOCK_NET))
			layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_NET, abi < 4 ? S_EOPNOTSUPP : S_EPERM);
		else
			attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
	}
	if (abi < 6 || (cfg->refuse & ASSAY_INIT_L_LANDLOCK_SCOPE))
		layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_SCOPE, abi < 6 ? S_EOPNOTSUPP : S_EPERM);
	else
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
	if (!attr.handled_access_fs && !attr.handled_access_net && !attr.scoped)
		return -1;

	fd = s_landlock_create_ruleset(&attr, sizeof(attr), 0);
	if (fd < 0) {
		if (attr.handled_access_fs)
			layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_FS, -fd);
		if (attr.handled_access_net)
			layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_NET, -fd);
		if (attr.scoped)
			layer_refuse(rep, ASSAY_INIT_L_LANDLOCK_SCOPE, -fd);
		return -1;
	}
	for (int i = 0; attr.handled_access_fs && i < cfg->nrules; i++) {
		struct ll_path_beneath_attr rule;
		int pfd = s_openat(S_AT_FDCWD, cfg->rule_path[i], S_O_PATH | S_O_CLOEXEC);
		long mode;

		if (pfd < 0)
			continue; /* a path that does not exist grants nothing */
		rule.allowed_access = cfg->rule_kind[i] == RULE_READ
					      ? LL_READ_RIGHTS
					      : attr.handled_access_fs & ~(LL_FS_MAKE_CHAR | LL_FS_MAKE_BLOCK);
		mode = s_fmode(pfd);
		if (mode < 0 || (mode & S_S_IFMT) != S_S_IFDIR)
			rule.allowed_access &= LL_FILE_RIGHTS;
		rule.allowed_access &= attr.handled_access_fs;
		rule.parent_fd = pfd;
		s_landlock_add_rule(fd, LL_RULE_PATH_BENEATH, &rule);
		s_close(pfd);
	}
	*layers = (attr.handled_access_fs ? ASSAY_INIT_L_LANDLOCK_FS : 0) |
		  (attr.handled_access_net ? ASSAY_INIT_L_LANDLOCK_NET : 0) |
		  (attr.scoped ? ASSAY_INIT_L_LANDLOCK_SCOPE : 0);
	return fd;
}

/* In the program, after no_new_privs: confines it. `layers` is what landlock_prepare() built. */
void landlock_enforce(int ruleset, unsigned layers, struct assay_init_report *rep)
{
	int r = s_landlock_restrict_self(ruleset, 0);
	unsigned bits[3] = { ASSAY_INIT_L_LANDLOCK_FS, ASSAY_INIT_L_LANDLOCK_NET,
			     ASSAY_INIT_L_LANDLOCK_SCOPE };

	for (int i = 0; i < 3; i++) {
		if (!(layers & bits[i]))
			continue;
		if (r < 0)
			layer_refuse(rep, bits[i], -r);
		else
			layer_apply(rep, bits[i]);
	}
	s_close(ruleset);
}

/* ---- seccomp ---- */

struct s_sock_filter {
	uint16_t code;
	uint8_t jt;
	uint8_t jf;
	uint32_t k;
};

struct s_sock_fprog {
	unsigned short len;
	struct s_sock_filter *filter;
};

#define BPF_LD_ABS 0x20 /* BPF_LD | BPF_W | BPF_ABS */
#define BPF_JEQ 0x15    /* BPF_JMP | BPF_JEQ | BPF_K */
#define BPF_RETK 0x06   /* BPF_RET | BPF_K */
#define RET_ALLOW 0x7fff0000u
#define RET_ERRNO(e) (0x00050000u | (e))
#define OFF_NR 0
#define OFF_ARCH 4
#define OFF_ARG0 16 /* the low 32 bits on little-endian machines */
#define AF_UNIX_ 1

#define STMT(c, k) { (c), 0, 0, (k) }
#define JEQ(k, t, f) { BPF_JEQ, (t), (f), (k) }

#if defined(__x86_64__)
#define ARCH_NATIVE 0xc000003eu /* AUDIT_ARCH_X86_64 */
#define ARCH_COMPAT 0x40000003u /* AUDIT_ARCH_I386 */
#define NR_X32(n) (0x40000000u | (n))
#define COMPAT_SOCKET 359
#define COMPAT_SOCKETCALL 102
#define COMPAT_IO_URING_SETUP 425
#elif defined(__aarch64__)
#define ARCH_NATIVE 0xc00000b7u /* AUDIT_ARCH_AARCH64 */
#define ARCH_COMPAT 0x40000028u /* AUDIT_ARCH_ARM */
#define COMPAT_SOCKET 281
#define COMPAT_SOCKETCALL 0xffffffffu /* EABI has none */
#define COMPAT_IO_URING_SETUP 425
#endif

void seccomp_enforce(struct assay_init_report *rep)
{
#ifdef ARCH_NATIVE
#ifndef NR_X32
#define NR_X32(n) 0xffffffffu
#endif
	/* Jump offsets count from the next instruction: to reach T from i, T - i - 1. */
	enum { COMPAT = 7, UNIX_CHECK = 12, DENY = 14, DENY_NOSYS = 15, ALLOW = 16 };
	struct s_sock_filter f[] = {
		/* 0 */ STMT(BPF_LD_ABS, OFF_ARCH),
		/* 1 */ JEQ(ARCH_NATIVE, 0, COMPAT - 2),
		/* 2 */ STMT(BPF_LD_ABS, OFF_NR),
		/* 3 */ JEQ(__NR_socket, UNIX_CHECK - 4, 0),
		/* 4 */ JEQ(NR_X32(41), UNIX_CHECK - 5, 0),
		/* 5 */ JEQ(__NR_io_uring_setup, DENY_NOSYS - 6, 0),
		/* 6 */ JEQ(NR_X32(425), DENY_NOSYS - 7, ALLOW - 7),
		/* 7 COMPAT */ JEQ(ARCH_COMPAT, 0, DENY_NOSYS - 8),
		/* 8 */ STMT(BPF_LD_ABS, OFF_NR),
		/* 9 */ JEQ(COMPAT_SOCKET, UNIX_CHECK - 10, 0),
		/* 10 */ JEQ(COMPAT_SOCKETCALL, DENY - 11, 0),
		/* 11 */ JEQ(COMPAT_IO_URING_SETUP, DENY_NOSYS - 12, ALLOW - 12),
		/* 12 UNIX_CHECK */ STMT(BPF_LD_ABS, OFF_ARG0),
		/* 13 */ JEQ(AF_UNIX_, ALLOW - 14, DENY - 14),
		/* 14 DENY */ STMT(BPF_RETK, RET_ERRNO(S_EACCES)),
		/* 15 DENY_NOSYS */ STMT(BPF_RETK, RET_ERRNO(S_ENOSYS)),
		/* 16 ALLOW */ STMT(BPF_RETK, RET_ALLOW),
	};
	struct s_sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	int r;

	if (rep->refused & ASSAY_INIT_L_SECCOMP)
		return;
	r = s_seccomp(1 /* SECCOMP_SET_MODE_FILTER */, 0, &prog);
	if (r < 0)
		layer_refuse(rep, ASSAY_INIT_L_SECCOMP, -r);
	else
		layer_apply(rep, ASSAY_INIT_L_SECCOMP);
#else
	layer_refuse(rep, ASSAY_INIT_L_SECCOMP, S_EOPNOTSUPP);
#endif
}

/* ---- resource limits ---- */

static void set_limit(int res, uint64_t soft, uint64_t hard)
{
	struct s_rlimit now, rl;

	if (SYS(__NR_prlimit64, 0, res, 0, &now) < 0)
		return;
	rl.max = hard < now.max ? hard : now.max;
	rl.cur = soft < rl.max ? soft : rl.max;
	s_prlimit(res, &rl);
}

void set_limits(const struct cfg *cfg, bool pidns)
{
	if (cfg->cpu_s)
		set_limit(S_RLIMIT_CPU, cfg->cpu_s, cfg->cpu_s + 1);
	if (cfg->data_bytes)
		set_limit(S_RLIMIT_DATA, cfg->data_bytes, cfg->data_bytes);
	if (cfg->fsize_bytes)
		set_limit(S_RLIMIT_FSIZE, cfg->fsize_bytes, cfg->fsize_bytes);
	if (cfg->nofile)
		set_limit(S_RLIMIT_NOFILE, cfg->nofile, cfg->nofile);
	/* Counted per uid of the user namespace, whose uid the supervisor shares. */
	if (cfg->nproc)
		set_limit(S_RLIMIT_NPROC, cfg->nproc + pidns, cfg->nproc + pidns);
}
