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
 *   allowed) and every socket family but AF_UNIX by seccomp. An api server (-p PORT) may bind
 *   that one port (Landlock) and make TCP sockets (seccomp), and still connects nowhere. A network namespace would do it
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
#define LL_RULE_NET_PORT 2

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

struct ll_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

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
	if (attr.handled_access_net && cfg->tcp_port) {
		/* an api server: its own port to bind, nothing to connect to */
		struct ll_net_port_attr rule = { LL_NET_BIND_TCP, cfg->tcp_port };

		s_landlock_add_rule(fd, LL_RULE_NET_PORT, &rule);
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
#define BPF_JSET 0x45   /* BPF_JMP | BPF_JSET | BPF_K */
#define BPF_JA 0x05     /* BPF_JMP | BPF_JA */
#define BPF_AND 0x54    /* BPF_ALU | BPF_AND | BPF_K */
#define BPF_RETK 0x06   /* BPF_RET | BPF_K */
#define RET_ALLOW 0x7fff0000u
#define RET_ERRNO(e) (0x00050000u | (e))
#define OFF_NR 0
#define OFF_ARCH 4
#define OFF_ARG(i) (16 + 8 * (i)) /* the low 32 bits on little-endian machines */
#define AF_UNIX_ 1
#define AF_INET_ 2
#define AF_INET6_ 10
#define SOCK_STREAM_ 1
#define SOCK_FLAGS_ 0x80800u /* SOCK_NONBLOCK | SOCK_CLOEXEC */
#define IPPROTO_TCP_ 6
#define MSG_FASTOPEN_ 0x20000000u

#if defined(__x86_64__)
#define ARCH_NATIVE 0xc000003eu /* AUDIT_ARCH_X86_64 */
#define ARCH_COMPAT 0x40000003u /* AUDIT_ARCH_I386 */
#define NR_X32(n) (0x40000000u | (n))
#define X32_SOCKET NR_X32(41)
#define X32_IO_URING_SETUP NR_X32(425)
#define X32_SENDTO NR_X32(44)
#define X32_SENDMSG NR_X32(518)
#define X32_SENDMMSG NR_X32(538)
#define COMPAT_SOCKET 359
#define COMPAT_SOCKETCALL 102
#define COMPAT_IO_URING_SETUP 425
#define COMPAT_SENDTO 369
#define COMPAT_SENDMSG 370
#define COMPAT_SENDMMSG 345
#elif defined(__aarch64__)
#define ARCH_NATIVE 0xc00000b7u /* AUDIT_ARCH_AARCH64 */
#define ARCH_COMPAT 0x40000028u /* AUDIT_ARCH_ARM */
#define NONE_ 0xffffffffu
#define X32_SOCKET NONE_
#define X32_IO_URING_SETUP NONE_
#define X32_SENDTO NONE_
#define X32_SENDMSG NONE_
#define X32_SENDMMSG NONE_
#define COMPAT_SOCKET 281
#define COMPAT_SOCKETCALL NONE_ /* EABI has none */
#define COMPAT_IO_URING_SETUP 425
#define COMPAT_SENDTO 290
#define COMPAT_SENDMSG 296
#define COMPAT_SENDMMSG 374
#endif

#ifdef ARCH_NATIVE
/*
 * A tiny assembler: jumps name labels, resolved once the program is written (classic BPF jumps
 * are forward offsets counted from the next instruction).
 */
enum label { L_NEXT = 0, L_COMPAT, L_SOCKET, L_INET, L_FLAGS2, L_FLAGS3, L_DENY, L_NOSYS,
	     L_ALLOW, NLABELS };

struct bpf {
	struct s_sock_filter f[64];
	uint8_t jt[64], jf[64]; /* labels to resolve */
	int at[NLABELS];
	int n;
};

static void op(struct bpf *b, uint16_t code, uint32_t k, enum label t, enum label f)
{
	b->f[b->n] = (struct s_sock_filter){ code, 0, 0, k };
	b->jt[b->n] = (uint8_t)t;
	b->jf[b->n] = (uint8_t)f;
	b->n++;
}

static void label(struct bpf *b, enum label l) { b->at[l] = b->n; }

static void ld(struct bpf *b, uint32_t off) { op(b, BPF_LD_ABS, off, L_NEXT, L_NEXT); }

static void jeq(struct bpf *b, uint32_t k, enum label t) { op(b, BPF_JEQ, k, t, L_NEXT); }

static void ja(struct bpf *b, enum label t) { op(b, BPF_JA, 0, t, L_NEXT); }

static void ret(struct bpf *b, uint32_t k) { op(b, BPF_RETK, k, L_NEXT, L_NEXT); }

static void resolve(struct bpf *b)
{
	for (int i = 0; i < b->n; i++) {
		int t = b->jt[i] ? b->at[b->jt[i]] - i - 1 : 0;
		int f = b->jf[i] ? b->at[b->jf[i]] - i - 1 : 0;

		if (b->f[i].code == BPF_JA)
			b->f[i].k = (uint32_t)t;
		else
			b->f[i].jt = (uint8_t)t, b->f[i].jf = (uint8_t)f;
	}
}

/* The calls of one ABI: socket() by family, io_uring refused, socketcall refused; for a TCP
 * server, the sends that could open a connection (MSG_FASTOPEN) are checked too. */
static void abi_calls(struct bpf *b, uint32_t nr_socket, uint32_t nr_socketcall,
		      uint32_t nr_io_uring, const uint32_t sends[3], bool tcp_server)
{
	jeq(b, nr_socket, L_SOCKET);
	jeq(b, nr_socketcall, L_DENY);
	jeq(b, nr_io_uring, L_NOSYS);
	if (tcp_server) {
		jeq(b, sends[0], L_FLAGS3); /* sendto(fd, buf, len, flags, ...) */
		jeq(b, sends[1], L_FLAGS2); /* sendmsg(fd, msg, flags) */
		jeq(b, sends[2], L_FLAGS3); /* sendmmsg(fd, vec, n, flags) */
	}
}
#endif

/*
 * Network off: socket(2) only for AF_UNIX. With `tcp_server` (an api server that must listen),
 * also TCP over IPv4 and IPv6 (no UDP, raw, SCTP or MPTCP: Landlock rules only TCP), and no
 * send with MSG_FASTOPEN (TCP Fast Open connects from sendto/sendmsg, where Landlock's connect
 * rule does not look).
 */
void seccomp_enforce(struct assay_init_report *rep, bool tcp_server)
{
#ifdef ARCH_NATIVE
	static const uint32_t native_sends[3] = { __NR_sendto, __NR_sendmsg, __NR_sendmmsg };
	static const uint32_t x32_sends[3] = { X32_SENDTO, X32_SENDMSG, X32_SENDMMSG };
	static const uint32_t compat_sends[3] = { COMPAT_SENDTO, COMPAT_SENDMSG, COMPAT_SENDMMSG };
	struct bpf b;
	struct s_sock_fprog prog;
	int r;

	memset(&b, 0, sizeof(b));
	ld(&b, OFF_ARCH);
	op(&b, BPF_JEQ, ARCH_NATIVE, L_NEXT, L_COMPAT);
	ld(&b, OFF_NR);
	abi_calls(&b, __NR_socket, 0xffffffffu, __NR_io_uring_setup, native_sends, tcp_server);
	abi_calls(&b, X32_SOCKET, 0xffffffffu, X32_IO_URING_SETUP, x32_sends, tcp_server);
	ja(&b, L_ALLOW);
	label(&b, L_COMPAT);
	op(&b, BPF_JEQ, ARCH_COMPAT, L_NEXT, L_NOSYS);
	ld(&b, OFF_NR);
	abi_calls(&b, COMPAT_SOCKET, COMPAT_SOCKETCALL, COMPAT_IO_URING_SETUP, compat_sends,
		  tcp_server);
	ja(&b, L_ALLOW);
	label(&b, L_SOCKET);
	ld(&b, OFF_ARG(0));
	jeq(&b, AF_UNIX_, L_ALLOW);
	if (tcp_server) {
		jeq(&b, AF_INET_, L_INET);
		jeq(&b, AF_INET6_, L_INET);
	}
	ja(&b, L_DENY);
	if (tcp_server) {
		label(&b, L_INET);
		ld(&b, OFF_ARG(1));
		op(&b, BPF_AND, ~SOCK_FLAGS_, L_NEXT, L_NEXT);
		op(&b, BPF_JEQ, SOCK_STREAM_, L_NEXT, L_DENY);
		ld(&b, OFF_ARG(2));
		jeq(&b, 0, L_ALLOW);
		jeq(&b, IPPROTO_TCP_, L_ALLOW);
		ja(&b, L_DENY);
		label(&b, L_FLAGS2);
		ld(&b, OFF_ARG(2));
		op(&b, BPF_JSET, MSG_FASTOPEN_, L_DENY, L_ALLOW);
		label(&b, L_FLAGS3);
		ld(&b, OFF_ARG(3));
		op(&b, BPF_JSET, MSG_FASTOPEN_, L_DENY, L_ALLOW);
	}
	label(&b, L_DENY);
	ret(&b, RET_ERRNO(S_EACCES));
	label(&b, L_NOSYS);
	ret(&b, RET_ERRNO(S_ENOSYS));
	label(&b, L_ALLOW);
	ret(&b, RET_ALLOW);
	resolve(&b);

	if (rep->refused & ASSAY_INIT_L_SECCOMP)
		return;
	prog.len = (unsigned short)b.n;
	prog.filter = b.f;
	r = s_seccomp(1 /* SECCOMP_SET_MODE_FILTER */, 0, &prog);
	if (r < 0)
		layer_refuse(rep, ASSAY_INIT_L_SECCOMP, -r);
	else
		layer_apply(rep, ASSAY_INIT_L_SECCOMP);
#else
	(void)tcp_server;
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
