/*
 * assay-init, the case supervisor: entry point and arguments (protocol.h).
 *
 * libassay exec's this program (from a sealed memfd, see ../spawn.c) once per case, or once per
 * case server (serve.c) that then runs case after case. Being a
 * fresh exec with a tiny address space, every process it forks has honest resource figures: the
 * kernel charges a process, at exec, with the peak RSS of the address space it leaves, so a
 * program forked by assay itself (or spawned with CLONE_VM) would report assay's peak.
 *
 * Key decisions:
 * - With the sandbox on, the library starts this program as PID 1 of new user and PID
 *   namespaces (-n 1); it then supervises as that namespace's init (supervise.c). Otherwise it
 *   supervises as a child subreaper, and with the sandbox on reports the namespaces refused with
 *   the errno the library passes (-e).
 * - Control signals are read from a signalfd and honoured only from the library; the library
 *   spawns us with them blocked, so none is acted on by default before the signalfd exists.
 *   Every disposition is reset first: an inherited SIG_IGN for SIGCHLD would let the kernel reap
 *   the case's processes behind our back.
 *
 * Refuses to: run for anything but the library (a wrong protocol version is reported as a usage
 * failure); keep any descriptor of the library's beyond the report pipe.
 */
#include "init.h"
#include "../../util/banned.h"

#ifndef ASSAY_INIT_LIBC
__attribute__((noreturn, used)) void init_main(long *sp);

__asm__(".text\n"
	".global _start\n"
	"_start:\n"
#if defined(__x86_64__)
	"	xor %rbp, %rbp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call init_main\n"
	"	hlt\n"
#elif defined(__aarch64__)
	"	mov x29, #0\n"
	"	mov x30, #0\n"
	"	mov x0, sp\n"
	"	and sp, x0, #-16\n"
	"	bl init_main\n"
#endif
);
#endif

__attribute__((noreturn)) static void usage(void)
{
	struct assay_init_report rep;

	report_init(&rep);
	rep.failure = ASSAY_INIT_FAIL_USAGE;
	report_and_exit(&rep);
}

/* -a HEX: a CPU mask, two hex digits per byte, byte 0 (CPUs 0-7) first. */
static int parse_cpus(struct cfg *c, const char *val)
{
	unsigned n = 0;

	for (; val[0] && val[1]; val += 2) {
		char byte[3] = { val[0], val[1], 0 };
		uint64_t v;

		if (s_parse_u64(byte, 16, &v) || n == CPUS_BYTES)
			return -1;
		c->cpus[n++] = (unsigned char)v;
	}
	if (val[0] || !n)
		return -1;
	c->ncpus_bytes = n;
	return 0;
}

static int parse_limit(struct cfg *c, const char *s)
{
	uint64_t v;

	if (!s[0] || s[1] != '=' || s_parse_u64(s + 2, 10, &v))
		return -1;
	switch (s[0]) {
	case 'c': c->cpu_s = v; break;
	case 'd': c->data_bytes = v; break;
	case 'f': c->fsize_bytes = v; break;
	case 'n': c->nofile = v; break;
	case 'p': c->nproc = v; break;
	default: return -1;
	}
	return 0;
}

/* "UID:GID" or "-" (none). */
static int parse_ids(struct cfg *c, const char *s)
{
	char buf[32];
	size_t i = 0;
	uint64_t uid, gid;

	c->take_ids = false;
	if (s_streq(s, "-"))
		return 0;
	while (s[i] && s[i] != ':' && i + 1 < sizeof(buf)) {
		buf[i] = s[i];
		i++;
	}
	buf[i] = '\0';
	if (s[i] != ':' || s_parse_u64(buf, 10, &uid) || s_parse_u64(s + i + 1, 10, &gid) ||
	    uid > 0xfffffffeu || gid > 0xfffffffeu)
		return -1;
	c->take_ids = true;
	c->uid = (uint32_t)uid;
	c->gid = (uint32_t)gid;
	return 0;
}

static int parse_args(struct cfg *c, int argc, char **argv, char **envp)
{
	int i;

	if (argc < 3 || !s_streq(argv[1], ASSAY_INIT_VERSION))
		return -1;
	for (i = 2; i < argc && !s_streq(argv[i], "--"); i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t v;

		if (!val || opt[0] != '-' || !opt[1] || opt[2])
			return -1;
		switch (opt[1]) {
		case 'm':
			if (s_streq(val, "run"))
				c->mode = MODE_RUN;
			else if (s_streq(val, "probe"))
				c->mode = MODE_PROBE;
			else if (s_streq(val, "serve"))
				c->mode = MODE_SERVE;
			else
				return -1;
			break;
		case 'f':
		case 'R':
			if (s_parse_u64(val, 16, &v) || v > 0xffffffffu)
				return -1;
			*(opt[1] == 'f' ? &c->flags : &c->refuse) = (unsigned)v;
			break;
		case 'c':
			c->cwd = val;
			break;
		case 'C':
			c->cwd = val; /* a case server makes it (serve.c); a supervisor of its own
					 is given it made (protocol.h) */
			c->cwd_make = true;
			break;
		case 't':
			c->tmp = val; /* a case server's (serve.c); a supervisor of its own is given
					 it made (protocol.h) */
			break;
		case 'n':
			c->in_ns = s_streq(val, "1");
			break;
		case 'e':
			if (s_parse_u64(val, 10, &v) || v > 4095)
				return -1;
			c->ns_errno = (int)v;
			break;
		case 'u':
			if (parse_ids(c, val))
				return -1;
			break;
		case 'r':
		case 'w':
			if (c->nrules == MAX_RULES)
				break;
			c->rule_kind[c->nrules] = opt[1] == 'r' ? RULE_READ : RULE_WRITE;
			c->rule_path[c->nrules++] = val;
			break;
		case 'l':
			if (parse_limit(c, val))
				return -1;
			break;
		case 'p':
			if (s_parse_u64(val, 10, &v) || !v || v > 65535)
				return -1;
			c->tcp_port = v;
			break;
		case 'a':
			if (parse_cpus(c, val))
				return -1;
			break;
		case 'k':
			if (s_parse_u64(val, 10, &v) || v > 1023)
				return -1;
			c->has_slot = true;
			c->slot = (uint32_t)v;
			break;
		default:
			return -1;
		}
	}
	/* a slot (-k) without the program's CPUs (-a): they are the supervisor's, which the program
	 * gets back before exec after waiting, or being set up, on one of them */
	if (c->has_slot && !c->ncpus_bytes) {
		long got = SYS(__NR_sched_getaffinity, 0, CPUS_BYTES, c->cpus);

		c->ncpus_bytes = got > 0 ? (unsigned)got : 0;
	}
	if (c->mode == MODE_SERVE && i >= argc) {
		c->envp = envp; /* a case server: no program of its own */
		return 0;
	}
	if (i >= argc || (c->mode == MODE_RUN && i + 1 >= argc))
		return -1;
	c->argv = argv + i + 1;
	c->envp = envp;
	return 0;
}

int parse_case(struct cfg *c, int argc, char **argv, char **envp)
{
	return parse_args(c, argc, argv, envp);
}

static uint64_t sigbit(int sig)
{
	return 1ull << (sig - 1);
}

/* Every signal back to its default action: an ignored SIGCHLD inherited from the library's
 * caller would make the kernel reap the case's processes behind our back. */
static void default_signals(void)
{
	struct {
		unsigned long handler, flags, restorer;
		uint64_t mask;
	} sa;

	memset(&sa, 0, sizeof(sa)); /* handler 0 is SIG_DFL */
	for (int sig = 1; sig <= 64; sig++)
		if (sig != S_SIGKILL && sig != 19 /* SIGSTOP */)
			SYS(__NR_rt_sigaction, sig, &sa, 0, 8);
}

static int init(int argc, char **argv, char **envp)
{
	static struct cfg cfg;
	static struct sup s;
	uint64_t mask = sigbit(S_SIGCHLD) | sigbit(S_SIGTERM) | sigbit(S_SIGUSR1) |
			sigbit(S_SIGPIPE) | sigbit(S_SIGINT) | sigbit(S_SIGHUP);

	s_close(ASSAY_INIT_FD_SELF);
	if (s_fcntl(ASSAY_INIT_FD_GO, S_F_GETFD, 0) >= 0)
		go_expect(); /* started in the namespaces: nothing may be reported before the go */
	s_fcntl(ASSAY_INIT_FD_REPORT, S_F_SETFD, S_FD_CLOEXEC);
	s_prctl(15 /* PR_SET_NAME */, (unsigned long)"assay-init", 0); /* not "4", for ps and top */
	if (parse_args(&cfg, argc, argv, envp))
		usage();

	s.cfg = &cfg;
	s.ruleset = -1;
	s.ctl_fd = -1;
	s.go_fd = -1;
	s.relay_fd = -1;
	report_init(&s.rep);
	if (cfg.in_ns) /* posix_spawn has reset them already (POSIX_SPAWN_SETSIGDEF) */
		default_signals();
	s_sigprocmask(S_SIG_SETMASK, &mask, NULL);
	s.sigfd = s_signalfd(&mask, S_O_CLOEXEC);
	if (s.sigfd < 0) {
		s.rep.failure = ASSAY_INIT_FAIL_SYSTEM;
		s.rep.fail_errno = -s.sigfd;
		report_and_exit(&s.rep);
	}

	if (cfg.in_ns) {
		s.pidns = true;
		layer_apply(&s.rep, ASSAY_INIT_L_USERNS);
		layer_apply(&s.rep, ASSAY_INIT_L_PIDNS);
	} else if (cfg.flags & ASSAY_INIT_F_SANDBOX) {
		/* The library could not make them; it says why. */
		layer_refuse(&s.rep, ASSAY_INIT_L_USERNS, cfg.ns_errno);
		layer_refuse(&s.rep, ASSAY_INIT_L_PIDNS, cfg.ns_errno);
	}
	if (cfg.mode == MODE_SERVE)
		serve(&s);
	supervise(&s);
}

#ifdef ASSAY_INIT_LIBC
int main(int argc, char **argv, char **envp)
{
	return init(argc, argv, envp);
}
#else
void init_main(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);

	s_exit(init(argc, argv, argv + argc + 1));
}
#endif
