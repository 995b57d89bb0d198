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
 *   allowed) and every socket(2) by seccomp, AF_UNIX included: Landlock does not confine the
 *   connect of a path-named unix socket, so /run/dbus, a docker socket or one the user left in
 *   /tmp would be reachable. socketpair(2) stays (pipelines, asyncio, subprocess need it), but
 *   not SOCK_DGRAM, whose sendto(2) may name any path socket. An api server (-p PORT) may also
 *   make TCP sockets (IPv4, IPv6) and bind that one port (Landlock), never send with
 *   MSG_FASTOPEN (a connect Landlock does not see), and still connects nowhere. A network
 *   namespace would do part of it, but creating and tearing one down cost 650 us per case on
 *   the machine this was written on, most of the whole case.
 * - Keyrings are off whatever the network: the session keyring the program inherits is
 *   assay's (and its user's), so seccomp fails keyctl, add_key and request_key with ENOSYS.
 * - So are new namespaces (issue 18 item 11): unshare and clone with a CLONE_NEW* flag, and
 *   setns, fail with EPERM (a nested user namespace holds every capability in it: kernel attack
 *   surface); clone3 fails with ENOSYS, since its flags lie in memory the filter cannot read,
 *   and libc then falls back to clone, whose flags it can.
 * - The seccomp filter refuses io_uring_setup with the network off (io_uring creates sockets
 *   without socket(2)); the other ABIs of the machine (i386 and x32 on x86_64, arm on aarch64)
 *   get the same rules, and socketcall(2) is refused outright because its arguments cannot be
 *   inspected. Unknown ABIs get ENOSYS for every call.
 * - RLIMIT_DATA, not RLIMIT_AS, is the memory limit: runtimes such as V8, the JVM and Go reserve
 *   gigabytes of address space they never touch (PROT_NONE), which RLIMIT_AS counts and
 *   RLIMIT_DATA does not. RLIMIT_CPU has whole seconds; the hard limit is one second above the
 *   soft one, so SIGXCPU comes first.
 * - RLIMIT_NPROC counts the processes of the program's uid in its user namespace, which only
 *   the case's processes and its supervisor use; outside one it counts every process of the
 *   user. It is not enforced at all when the outer uid is root, one more reason why the
 *   library runs a root-started program as an unprivileged outer uid.
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
/*
 * Read rules' paths, opened once for all the cases of a case server (serve.c): the system
 * folders and read paths are the same for every case of a run, and each open, type check and
 * close cost three system calls per rule per case. A folder replaced after it was kept is not
 * granted (the kept descriptor is the old one): less access, never more. Write rules (the
 * case's own folders, which spare folders rename around) are opened per case, but for
 * character devices (/dev/null, /dev/zero, /dev/full): a device node is no folder a rename
 * could move a case's files under, and whichever rule names it, the descriptor only says which
 * inode the rule is for (the rights are the rule's).
 */
#define KEPT_MAX 256
#define KEPT_TEXT 32768

static struct {
	uint32_t off; /* of its path in kept_text */
	int fd;
	long mode;
} kept[KEPT_MAX];
static int nkept;
static char kept_text[KEPT_TEXT];
static uint32_t kept_used;

static bool is_chr(long mode)
{
	return mode >= 0 && (mode & S_S_IFMT) == S_S_IFCHR;
}

/* An O_PATH descriptor of `path` and its type (`*mode`), or -1. `*owned`: close it after use. */
static int rule_fd(const char *path, bool read, long *mode, bool *owned)
{
	size_t len = s_strlen(path);
	int fd;

	for (int i = 0; i < nkept; i++)
		if ((read || is_chr(kept[i].mode)) && s_streq(kept_text + kept[i].off, path)) {
			*mode = kept[i].mode;
			*owned = false;
			return kept[i].fd;
		}
	fd = s_openat(S_AT_FDCWD, path, S_O_PATH | S_O_CLOEXEC);
	if (fd < 0)
		return -1;
	*mode = s_fmode(fd);
	*owned = true;
	if ((read || is_chr(*mode)) && *mode >= 0 && nkept < KEPT_MAX && kept_used + len + 1 <= KEPT_TEXT) {
		memcpy(kept_text + kept_used, path, len + 1);
		kept[nkept].off = kept_used;
		kept[nkept].fd = fd;
		kept[nkept++].mode = *mode;
		kept_used += (uint32_t)len + 1;
		*owned = false;
	}
	return fd;
}

int landlock_prepare(const struct cfg *cfg, struct assay_init_report *rep, unsigned *layers)
{
	static int abi_known; /* the ABI, asked once (+1: 0 means not asked yet) */
	struct ll_ruleset_attr attr;
	bool want_net = cfg->flags & ASSAY_INIT_F_NO_NET;
	int abi, fd;

	if (!abi_known)
		abi_known = s_landlock_create_ruleset(NULL, 0, LL_CREATE_RULESET_VERSION) + 1;
	abi = abi_known - 1;
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
		bool read = cfg->rule_kind[i] == RULE_READ, owned;
		long mode;
		int pfd = rule_fd(cfg->rule_path[i], read, &mode, &owned);

		if (pfd < 0)
			continue; /* a path that does not exist grants nothing */
		rule.allowed_access = read ? LL_READ_RIGHTS
					   : attr.handled_access_fs &
						     ~(LL_FS_MAKE_CHAR | LL_FS_MAKE_BLOCK);
		if (mode < 0 || (mode & S_S_IFMT) != S_S_IFDIR)
			rule.allowed_access &= LL_FILE_RIGHTS;
		rule.allowed_access &= attr.handled_access_fs;
		rule.parent_fd = pfd;
		s_landlock_add_rule(fd, LL_RULE_PATH_BENEATH, &rule);
		if (owned)
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
#define BPF_JGE 0x35    /* BPF_JMP | BPF_JGE | BPF_K */
#define BPF_JSET 0x45   /* BPF_JMP | BPF_JSET | BPF_K */
#define BPF_ANDK 0x54   /* BPF_ALU | BPF_AND | BPF_K */
#define BPF_RETK 0x06   /* BPF_RET | BPF_K */
#define RET_ALLOW 0x7fff0000u
#define RET_ERRNO(e) (0x00050000u | (e))
#define OFF_NR 0
#define OFF_ARCH 4
#define OFF_ARG(i) (16 + 8 * (i)) /* the low 32 bits on little-endian machines */
#define AF_INET_ 2
#define AF_INET6_ 10
#define SOCK_STREAM_ 1
#define SOCK_DGRAM_ 2
#define SOCK_TYPE_MASK 0xf
#define SOCK_FLAGS_ 0x80800u /* SOCK_NONBLOCK | SOCK_CLOEXEC */
#define IPPROTO_TCP_ 6
#define MSG_FASTOPEN_ 0x20000000u
/* CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
 * CLONE_NEWNET; unshare(2) also takes CLONE_NEWTIME (0x80, which clone(2) reads as part of the
 * exit signal) */
#define CLONE_NEW_ 0x7e020000u
#define CLONE_NEWTIME_ 0x80u

/* The numbers of the calls the filter looks at, per ABI (0: the ABI has no such call). */
struct abi_nrs {
	uint32_t keys[3]; /* add_key, request_key, keyctl */
	uint32_t socket, socketpair, socketcall, io_uring_setup;
	uint32_t sends[3]; /* sendto, sendmsg, sendmmsg */
	uint32_t ns[4];    /* clone, unshare, setns, clone3 */
	uint32_t prlimit;  /* prlimit64 */
};

#if defined(__x86_64__)
#define ARCH_NATIVE 0xc000003eu /* AUDIT_ARCH_X86_64 */
#define ARCH_COMPAT 0x40000003u /* AUDIT_ARCH_I386 */
#define X32_BIT 0x40000000u     /* x32: the native numbers with this bit, and a few of its own */
#define X(n) (X32_BIT | (n))
static const struct abi_nrs x32_nrs = { { X(248), X(249), X(250) }, X(41), X(53), 0, X(425),
					{ X(44), X(518), X(538) }, { X(56), X(272), X(308), X(435) },
					X(302) };
static const struct abi_nrs compat_nrs = { { 286, 287, 288 }, 359, 360, 102, 425,
					   { 369, 370, 345 }, { 120, 310, 346, 435 }, 340 };
#elif defined(__aarch64__)
#define ARCH_NATIVE 0xc00000b7u /* AUDIT_ARCH_AARCH64 */
#define ARCH_COMPAT 0x40000028u /* AUDIT_ARCH_ARM */
static const struct abi_nrs compat_nrs = { { 309, 310, 311 }, 281, 288, 0 /* EABI: none */, 425,
					   { 290, 296, 374 }, { 120, 337, 375, 435 }, 369 };
#endif

#ifdef ARCH_NATIVE
/* A filter under construction: forward jumps to labels, resolved by bpf_resolve(). */
enum { L_NEXT = -1, L_COMPAT = 0, L_PAIR, L_SOCKET, L_INET, L_FLAGS2, L_FLAGS3, L_CLONE,
       L_UNSHARE, L_PRLIMIT, L_EPERM, L_DENY, L_NOSYS, L_ALLOW, L_UP_NATIVE, L_UP_COMPAT, L_X32,
       L_UP_X32, L_COUNT };

#define BPF_MAX 128 /* instructions: the longest filter (x86_64, TCP server) has about 110 */

struct bpf {
	struct s_sock_filter f[BPF_MAX];
	signed char jt[BPF_MAX], jf[BPF_MAX]; /* label, or L_NEXT */
	int at[L_COUNT];
	int n;
};

static void bpf_emit(struct bpf *b, uint16_t code, uint32_t k, int jt, int jf)
{
	if (b->n == BPF_MAX)
		return; /* cannot happen: the filter below is shorter */
	b->f[b->n] = (struct s_sock_filter){ code, 0, 0, k };
	b->jt[b->n] = (signed char)jt;
	b->jf[b->n] = (signed char)jf;
	b->n++;
}

static void bpf_jeq(struct bpf *b, uint32_t k, int label)
{
	bpf_emit(b, BPF_JEQ, k, label, L_NEXT);
}

/* Jump offsets count from the next instruction; every label lies ahead. */
static void bpf_resolve(struct bpf *b)
{
	for (int i = 0; i < b->n; i++) {
		if (b->jt[i] != L_NEXT)
			b->f[i].jt = (uint8_t)(b->at[(int)b->jt[i]] - i - 1);
		if (b->jf[i] != L_NEXT)
			b->f[i].jf = (uint8_t)(b->at[(int)b->jf[i]] - i - 1);
	}
}

/* One system call number and what it gets (a label). */
struct nr_rule {
	uint32_t nr;
	int label;
};

/*
 * The rules of one ABI (`n` of them, sorted by number), then ALLOW. One comparison against the
 * middle number first, so that a system call passes about half the tests: the kernel emulates
 * the filter for every system call number when it is attached (its cache of calls always
 * allowed), which costs every case, so shorter paths make a cheaper start.
 */
static void bpf_rules(struct bpf *b, const struct nr_rule *r, int n, int upper_label)
{
	int half = n / 2;

	bpf_emit(b, BPF_LD_ABS, OFF_NR, L_NEXT, L_NEXT);
	if (n > 2)
		bpf_emit(b, BPF_JGE, r[half].nr, upper_label, L_NEXT);
	else
		half = n;
	for (int i = 0; i < half; i++)
		bpf_jeq(b, r[i].nr, r[i].label);
	bpf_emit(b, BPF_RETK, RET_ALLOW, L_NEXT, L_NEXT);
	b->at[upper_label] = b->n;
	for (int i = half; i < n; i++)
		bpf_jeq(b, r[i].nr, r[i].label);
	bpf_emit(b, BPF_RETK, RET_ALLOW, L_NEXT, L_NEXT);
}

/* Keyrings and new namespaces always; with the network off, sockets (and for a TCP server, the
 * sends that could open a connection). @return how many rules, sorted by number. */
static int abi_rules(struct nr_rule r[16], const struct abi_nrs *a, bool no_net, bool tcp_server)
{
	int n = 0;

	for (int i = 0; i < 3; i++)
		r[n++] = (struct nr_rule){ a->keys[i], L_NOSYS };
	r[n++] = (struct nr_rule){ a->ns[0], L_CLONE };   /* clone: by its flags */
	r[n++] = (struct nr_rule){ a->ns[1], L_UNSHARE }; /* unshare: by its flags */
	r[n++] = (struct nr_rule){ a->ns[2], L_EPERM };   /* setns */
	r[n++] = (struct nr_rule){ a->ns[3], L_NOSYS };   /* clone3: libc falls back to clone */
	r[n++] = (struct nr_rule){ a->prlimit, L_PRLIMIT }; /* prlimit64: its own limits only */
	if (no_net) {
		r[n++] = (struct nr_rule){ a->socket, tcp_server ? L_SOCKET : L_DENY };
		r[n++] = (struct nr_rule){ a->socketpair, L_PAIR };
		r[n++] = (struct nr_rule){ a->io_uring_setup, L_NOSYS };
		if (a->socketcall)
			r[n++] = (struct nr_rule){ a->socketcall, L_DENY };
		if (tcp_server) {
			r[n++] = (struct nr_rule){ a->sends[0], L_FLAGS3 }; /* sendto(.., flags) */
			r[n++] = (struct nr_rule){ a->sends[1], L_FLAGS2 }; /* sendmsg(.., flags) */
			r[n++] = (struct nr_rule){ a->sends[2], L_FLAGS3 }; /* sendmmsg(.., flags) */
		}
	}
	for (int i = 1; i < n; i++) /* insertion sort: a handful */
		for (int j = i; j > 0 && r[j - 1].nr > r[j].nr; j--) {
			struct nr_rule t = r[j];

			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	return n;
}
#endif

/*
 * In the program, after no_new_privs; or in a case server, once for all its cases (serve.c),
 * whose programs inherit it. Always: no keyring (keyctl, add_key, request_key fail with
 * ENOSYS: the session keyring is assay's, and keys are per user); prlimit64 sets no other
 * process's limits (EPERM: its server's, below). With `no_net`: socket(2) fails
 * with EACCES whatever the family, AF_UNIX included (a path-named socket anywhere on the machine,
 * /run/dbus, a docker socket, is reachable without any file right, and its connect is not
 * confined by Landlock); socketpair(2) stays, but not SOCK_DGRAM (whose sendto(2) may name any
 * path socket); io_uring_setup fails with ENOSYS (io_uring makes sockets without socket(2)).
 * With `tcp_server` (an api server that must listen) socket(2) also makes TCP sockets over IPv4
 * and IPv6 (no UDP, raw, SCTP or MPTCP: Landlock rules only TCP), and no send may carry
 * MSG_FASTOPEN (TCP Fast Open connects from sendto/sendmsg, where Landlock's connect rule does
 * not look). The other ABIs of the machine get the same rules, socketcall(2) refused outright;
 * unknown ABIs get ENOSYS for every call.
 */
void seccomp_enforce(struct assay_init_report *rep, bool no_net, bool tcp_server)
{
#ifdef ARCH_NATIVE
	static const struct abi_nrs native_nrs = {
		{ __NR_add_key, __NR_request_key, __NR_keyctl },
		__NR_socket,
		__NR_socketpair,
		0,
		__NR_io_uring_setup,
		{ __NR_sendto, __NR_sendmsg, __NR_sendmmsg },
		{ __NR_clone, __NR_unshare, __NR_setns, 435 /* clone3 */ },
		__NR_prlimit64,
	};
	static struct bpf b;
	struct s_sock_fprog prog;
	struct nr_rule r[16];
	int n, rc;

	if (rep->refused & ASSAY_INIT_L_SECCOMP)
		return;
	tcp_server = tcp_server && no_net;
	memset(&b, 0, sizeof(b));
	bpf_emit(&b, BPF_LD_ABS, OFF_ARCH, L_NEXT, L_NEXT);
	bpf_emit(&b, BPF_JEQ, ARCH_NATIVE, L_NEXT, L_COMPAT);
#ifdef X32_BIT
	bpf_emit(&b, BPF_LD_ABS, OFF_NR, L_NEXT, L_NEXT);
	bpf_emit(&b, BPF_JGE, X32_BIT, L_X32, L_NEXT);
#endif
	n = abi_rules(r, &native_nrs, no_net, tcp_server);
	bpf_rules(&b, r, n, L_UP_NATIVE);
#ifdef X32_BIT
	b.at[L_X32] = b.n;
	n = abi_rules(r, &x32_nrs, no_net, tcp_server);
	bpf_rules(&b, r, n, L_UP_X32);
#endif
	b.at[L_COMPAT] = b.n;
	bpf_emit(&b, BPF_JEQ, ARCH_COMPAT, L_NEXT, L_NOSYS);
	n = abi_rules(r, &compat_nrs, no_net, tcp_server);
	bpf_rules(&b, r, n, L_UP_COMPAT);

	b.at[L_PAIR] = b.n; /* socketpair: any type but SOCK_DGRAM */
	bpf_emit(&b, BPF_LD_ABS, OFF_ARG(1), L_NEXT, L_NEXT);
	bpf_emit(&b, BPF_ANDK, SOCK_TYPE_MASK, L_NEXT, L_NEXT);
	bpf_emit(&b, BPF_JEQ, SOCK_DGRAM_, L_DENY, L_ALLOW);
	if (tcp_server) {
		b.at[L_SOCKET] = b.n; /* socket: TCP over IPv4 or IPv6 only */
		bpf_emit(&b, BPF_LD_ABS, OFF_ARG(0), L_NEXT, L_NEXT);
		bpf_jeq(&b, AF_INET_, L_INET);
		bpf_emit(&b, BPF_JEQ, AF_INET6_, L_INET, L_DENY);
		b.at[L_INET] = b.n;
		bpf_emit(&b, BPF_LD_ABS, OFF_ARG(1), L_NEXT, L_NEXT);
		bpf_emit(&b, BPF_ANDK, ~SOCK_FLAGS_, L_NEXT, L_NEXT);
		bpf_emit(&b, BPF_JEQ, SOCK_STREAM_, L_NEXT, L_DENY);
		bpf_emit(&b, BPF_LD_ABS, OFF_ARG(2), L_NEXT, L_NEXT);
		bpf_jeq(&b, 0, L_ALLOW);
		bpf_emit(&b, BPF_JEQ, IPPROTO_TCP_, L_ALLOW, L_DENY);
		b.at[L_FLAGS2] = b.n;
		bpf_emit(&b, BPF_LD_ABS, OFF_ARG(2), L_NEXT, L_NEXT);
		bpf_emit(&b, BPF_JSET, MSG_FASTOPEN_, L_DENY, L_ALLOW);
		b.at[L_FLAGS3] = b.n;
		bpf_emit(&b, BPF_LD_ABS, OFF_ARG(3), L_NEXT, L_NEXT);
		bpf_emit(&b, BPF_JSET, MSG_FASTOPEN_, L_DENY, L_ALLOW);
	}
	b.at[L_CLONE] = b.n; /* clone: no CLONE_NEW* flag (the flags are its first argument) */
	bpf_emit(&b, BPF_LD_ABS, OFF_ARG(0), L_NEXT, L_NEXT);
	bpf_emit(&b, BPF_JSET, CLONE_NEW_, L_EPERM, L_ALLOW);
	/* unshare: the same, and no time namespace; but CLONE_NEWIPC alone passes: a case
	 * server holds this filter for all its cases (serve.c), and where its cases cannot share
	 * its IPC namespace (ipc.c) each case's child makes one of its own under it. The kernel
	 * refuses it to a process without CAP_SYS_ADMIN in its user namespace, which a program
	 * never has (its capabilities are dropped, and no_new_privs keeps exec from granting
	 * any). */
	b.at[L_UNSHARE] = b.n;
	bpf_emit(&b, BPF_LD_ABS, OFF_ARG(0), L_NEXT, L_NEXT);
	bpf_jeq(&b, S_CLONE_NEWIPC, L_ALLOW);
	bpf_emit(&b, BPF_JSET, CLONE_NEW_ | CLONE_NEWTIME_, L_EPERM, L_ALLOW);
	/* prlimit64: another process's limits may be read, not set. Its server (or supervisor)
	 * runs as the program's user and is its PID 1: a hard RLIMIT_CPU of 0 set on it would
	 * have the kernel kill it mid-case, and the case's figures with it. pid_t is the low
	 * half of the argument (the kernel reads no more); the new limit is a whole pointer. */
	b.at[L_PRLIMIT] = b.n;
	bpf_emit(&b, BPF_LD_ABS, OFF_ARG(0), L_NEXT, L_NEXT);
	bpf_jeq(&b, 0, L_ALLOW);
	bpf_emit(&b, BPF_LD_ABS, OFF_ARG(2), L_NEXT, L_NEXT);
	bpf_emit(&b, BPF_JEQ, 0, L_NEXT, L_EPERM);
	bpf_emit(&b, BPF_LD_ABS, OFF_ARG(2) + 4, L_NEXT, L_NEXT);
	bpf_emit(&b, BPF_JEQ, 0, L_ALLOW, L_EPERM);
	b.at[L_EPERM] = b.n;
	bpf_emit(&b, BPF_RETK, RET_ERRNO(S_EPERM), L_NEXT, L_NEXT);
	b.at[L_DENY] = b.n;
	bpf_emit(&b, BPF_RETK, RET_ERRNO(S_EACCES), L_NEXT, L_NEXT);
	b.at[L_NOSYS] = b.n;
	bpf_emit(&b, BPF_RETK, RET_ERRNO(S_ENOSYS), L_NEXT, L_NEXT);
	b.at[L_ALLOW] = b.n;
	bpf_emit(&b, BPF_RETK, RET_ALLOW, L_NEXT, L_NEXT);
	if (b.n == BPF_MAX) { /* it may have lost instructions (bpf_emit): never a cut filter */
		layer_refuse(rep, ASSAY_INIT_L_SECCOMP, S_EINVAL);
		return;
	}
	bpf_resolve(&b);
	prog.len = (unsigned short)b.n;
	prog.filter = b.f;
	rc = s_seccomp(1 /* SECCOMP_SET_MODE_FILTER */, 0, &prog);
	if (rc < 0)
		layer_refuse(rep, ASSAY_INIT_L_SECCOMP, -rc);
	else
		layer_apply(rep, ASSAY_INIT_L_SECCOMP);
#else
	(void)no_net;
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
