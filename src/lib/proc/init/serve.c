/*
 * The case server (protocol.h, "-m serve"): one supervisor that runs case after case, so that
 * what is the same for every case of a run is paid once: the exec of the supervisor, the user,
 * PID and IPC namespaces with their uid and gid maps, taking the unprivileged ids, becoming
 * non-dumpable, the seccomp filter (hold_filter). Each case is still forked from here with its
 * own Landlock ruleset, limits, session, working folder and descriptors, and ends as a per-case
 * supervisor's ends: everything it started killed and reaped before its report is written. Its
 * IPC namespace is the server's, looked into after it (ipc.c), or one of its own.
 *
 * Key decisions:
 * - Nothing of one case reaches the next: the program is forked from this process and exec'd
 *   (its memory is replaced; it inherits only what run_child() sets up), every process of the
 *   case is killed and reaped before the next request is read (as PID 1 of its namespace,
 *   kill(-1) reaches them all), and the case's descriptors are closed. The server's own
 *   descriptors (the socket, the signalfd) are close-on-exec, and run_child() marks every
 *   descriptor above 2 so. Figures are summed per case from wait4(), not RUSAGE_CHILDREN.
 * - A case cannot reach the server: it runs under its own Landlock domain, nested in none the
 *   server is in, with signal scoping (ABI >= 6) and, whatever the ABI, the server as PID 1
 *   ignores signals from inside its namespace that it has no handler for, and acts on its
 *   control signals only from the library (outside the namespace). The server is non-dumpable,
 *   so its /proc files and ptrace are closed to the program, which shares its uid.
 * - Control comes on a pipe of each case's own (protocol.h), never by signal: a SIGUSR1 the
 *   library sent as its case was ending could not tell that case from the next. Signals that
 *   arrive while no case runs are read and dropped.
 * - A gated request (protocol.h) is forked and set up as any other; its child waits for the
 *   library's go before exec, while this server waits in start_program(): it holds no other
 *   case meanwhile, so nothing else of its namespaces can reach the waiting child.
 * - A request that is malformed is answered with a usage failure and the server goes on: the
 *   library is trusted, but its mistake must not take the run down.
 *
 * Refuses to: run a case before the previous one is wholly reaped; read a request while a case
 * runs; keep a descriptor a request brought past its case.
 */
#include "init.h"
#include "../../util/banned.h"

/*
 * What a program inherits from the server that its processes can change in the server (they
 * run as its user, and it is their parent): resource limits (prlimit), priority, CPUs,
 * scheduling policy and I/O class. Read when the server starts and after each case; a case
 * that changed any of them is the server's last (protocol.h `retired`): lowered hard limits
 * cannot be raised back, and nothing of one case may reach the next.
 */
#define NLIMITS 16
#define CPUSET_BYTES 128

struct inherited {
	struct s_rlimit lim[NLIMITS];
	long prio, policy, ioprio;
	long ncpu;
	unsigned char cpus[CPUSET_BYTES];
	struct {
		int prio;
	} param;
};

static void inherited_read(struct inherited *h)
{
	memset(h, 0, sizeof(*h));
	for (int i = 0; i < NLIMITS; i++)
		SYS(__NR_prlimit64, 0, i, 0, &h->lim[i]);
	h->prio = SYS(__NR_getpriority, 0 /* PRIO_PROCESS */, 0);
	h->policy = SYS(__NR_sched_getscheduler, 0);
	SYS(__NR_sched_getparam, 0, &h->param);
	h->ioprio = SYS(__NR_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);
	h->ncpu = SYS(__NR_sched_getaffinity, 0, CPUSET_BYTES, h->cpus);
}

static bool inherited_same(const struct inherited *a, const struct inherited *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* CAP_SYS_ADMIN, in the server's own user namespace: each case gets an IPC namespace of its
 * own (run_child), as it does from a per-case supervisor's clone; the program has none. */
#define CAP_ADMIN (1u << 21)

__attribute__((noreturn)) static void fail(struct sup *s, int e)
{
	s->rep.failure = ASSAY_INIT_FAIL_SYSTEM;
	s->rep.fail_errno = e;
	report_and_exit(&s->rep);
}

/* Can a child make an IPC namespace (CAP_SYS_ADMIN held, and the kernel allows it)? */
static bool ipc_works(void)
{
	int st = 0;
	long pid = s_clone(S_SIGCHLD);

	if (pid == 0)
		s_exit(s_unshare(S_CLONE_NEWIPC) < 0 ? 1 : 0);
	if (pid < 0)
		return false;
	while (s_wait4((int)pid, &st, 0, NULL) == -S_EINTR)
		;
	return st == 0;
}

static char req[ASSAY_INIT_REQ_MAX];
static size_t received_fds; /* how many descriptors the last request brought */
static char *strs[ASSAY_INIT_REQ_STRINGS + 2];
static struct cfg case_cfg;

static void close_fds(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0) {
			s_close(fds[i]);
			fds[i] = -1;
		}
}

/* Reads and drops every control signal pending while no case runs. */
static void drain_signals(int sigfd)
{
	for (;;) {
		struct s_pollfd p = { sigfd, S_POLLIN, 0 };
		struct s_timespec zero = { 0, 0 };
		struct s_signalfd_siginfo si;

		if (s_ppoll(&p, 1, &zero) <= 0 || !(p.revents & S_POLLIN))
			return;
		if (s_read(sigfd, &si, sizeof(si)) != sizeof(si))
			return;
	}
}

/*
 * Receives one request into `req` and its descriptors into `fds`. @return its length (> 0), 0
 * when the library closed the socket, or -1 for a message to drop (its descriptors, if any,
 * are in `fds` for the caller to answer and close).
 */
static long receive(int fds[ASSAY_INIT_REQ_FDS_MAX])
{
	union {
		struct s_cmsghdr h;
		char buf[sizeof(struct s_cmsghdr) + 8 * sizeof(int)];
	} ctl;
	size_t nfds = 0;
	struct s_iovec iov = { req, sizeof(req) };
	struct s_msghdr m;
	long n;

	for (int i = 0; i < ASSAY_INIT_REQ_FDS_MAX; i++)
		fds[i] = -1;
	memset(&m, 0, sizeof(m));
	memset(&ctl, 0, sizeof(ctl));
	m.iov = &iov;
	m.iovlen = 1;
	m.control = &ctl;
	m.controllen = sizeof(ctl);
	while ((n = s_recvmsg(ASSAY_INIT_FD_REPORT, &m, S_MSG_CMSG_CLOEXEC)) == -S_EINTR)
		;
	if (n == 0 || n == -S_ECONNRESET)
		return 0;
	if (n < 0)
		return -1;
	if (m.controllen >= sizeof(struct s_cmsghdr) && ctl.h.level == S_SOL_SOCKET &&
	    ctl.h.type == S_SCM_RIGHTS) {
		const int *got = (const int *)(ctl.buf + sizeof(struct s_cmsghdr));

		nfds = (ctl.h.len - sizeof(struct s_cmsghdr)) / sizeof(int);
		for (size_t i = 0; i < nfds && i < 8; i++) {
			if (i < ASSAY_INIT_REQ_FDS_MAX)
				fds[i] = got[i];
			else
				s_close(got[i]);
		}
		if (nfds < ASSAY_INIT_REQ_FDS || nfds > ASSAY_INIT_REQ_FDS_MAX)
			return -1;
		received_fds = nfds;
	} else {
		return -1;
	}
	if (m.flags & (S_MSG_CTRUNC | S_MSG_TRUNC))
		return -1;
	return n;
}

/* Splits a request into argv and envp (in `strs`) and its flags, checked against the
 * descriptors it brought. @return 0, or -1 if it is malformed. */
static int split(long len, char ***argv, int *argc, char ***envp, uint32_t *flags)
{
	struct assay_init_request h;
	size_t off = sizeof(h), n;

	if ((size_t)len < sizeof(h))
		return -1;
	memcpy(&h, req, sizeof(h));
	n = (size_t)h.nargs + h.nenv;
	if (h.magic != ASSAY_INIT_REQ_MAGIC || h.nargs < 2 || n > ASSAY_INIT_REQ_STRINGS ||
	    req[len - 1] != '\0' ||
	    (h.flags & ~(ASSAY_INIT_REQ_F_GATED | ASSAY_INIT_REQ_F_RELAY)) ||
	    received_fds != (size_t)ASSAY_INIT_REQ_FDS + !!(h.flags & ASSAY_INIT_REQ_F_GATED) +
				    !!(h.flags & ASSAY_INIT_REQ_F_RELAY))
		return -1;
	*flags = h.flags;
	for (size_t i = 0, k = 0; i < n; i++) {
		if (off >= (size_t)len)
			return -1;
		strs[k++] = req + off;
		off += s_strlen(req + off) + 1;
		if (i + 1 == h.nargs)
			strs[k++] = NULL; /* argv's end; envp follows */
	}
	if (off != (size_t)len)
		return -1;
	strs[n + 1] = NULL;
	*argv = strs;
	*argc = (int)h.nargs;
	*envp = strs + h.nargs + 1;
	return 0;
}

/* Sets up `s` for one case from the server's own `base` state. */
static void case_reset(struct sup *s, const struct sup *base,
		       const int fds[ASSAY_INIT_REQ_FDS_MAX], uint32_t flags)
{
	s->cfg = &case_cfg;
	s->ruleset = -1;
	s->ll_layers = 0;
	s->want_seccomp = false;
	s->ipc_shared = false;
	s->rep = base->rep;
	s->prog = 0;
	s->prog_exited = false;
	s->killing = false;
	s->kill_requested = false;
	s->orphan_limit = 0;
	s->utime_us = s->stime_us = s->maxrss_kb = 0;
	s->case_dropped = false;
	for (int i = 0; i < 3; i++)
		s->case_fd[i] = fds[i];
	s->rep_fd = fds[3];
	s->ctl_fd = fds[4];
	s->go_fd = (flags & ASSAY_INIT_REQ_F_GATED) ? fds[5] : -1;
	/* the relay pipe comes after the go pipe, when there is one */
	s->relay_fd = (flags & ASSAY_INIT_REQ_F_RELAY)
			      ? fds[ASSAY_INIT_REQ_FDS + !!(flags & ASSAY_INIT_REQ_F_GATED)]
			      : -1;
	/* what the flags do not name (a malformed request's) is closed with the case's own */
	for (int i = ASSAY_INIT_REQ_FDS; i < ASSAY_INIT_REQ_FDS_MAX; i++)
		if (fds[i] >= 0 && fds[i] != s->go_fd && fds[i] != s->relay_fd)
			s_close(fds[i]);
}

/*
 * Has the file system of the case's working folder (`cwd`, NULL: the server's) at least half
 * of its room (what is used and what is available) and of its inodes free? Else the library
 * gives the case's folder back before the next case starts (protocol.h, relay). The pool's
 * rule too (src/lib/run/pool.c roomy()), written again here, where there is no libc.
 */
static bool roomy(const char *cwd)
{
	struct s_statfs f;

	if (s_statfs(cwd ? cwd : ".", &f) < 0)
		return false;
	/* of the room it may use (used + available: root's reserve aside), half available */
	return f.bavail >= f.blocks - f.bfree && (f.files == 0 || f.ffree >= f.files - f.ffree);
}

/*
 * With the sandbox on, the server installs the seccomp filter its own argv's flags ask for
 * (protocol.h: the same -f, -R and -p as its cases') in itself, once: every program it starts
 * inherits it, and no case pays for compiling, installing and freeing a filter of its own
 * (~40 us of kernel work each, which the case's program waits for while it shares a CPU with
 * it). Where the kernel refuses it here (no CAP_SYS_ADMIN in the server's user namespace, and
 * no no_new_privs), each case installs its own, as a per-case supervisor does.
 */
static void hold_filter(struct sup *s)
{
	const struct cfg *own = s->cfg;
	struct assay_init_report r;

	if (!(own->flags & ASSAY_INIT_F_SANDBOX) || (own->refuse & ASSAY_INIT_L_SECCOMP))
		return;
	report_init(&r);
	seccomp_enforce(&r, own->flags & ASSAY_INIT_F_NO_NET, own->tcp_port != 0);
	s->filter_held = (r.applied & ASSAY_INIT_L_SECCOMP) != 0;
}

/* Does a case ask for the very filter the server holds? (The library sends a server only such
 * cases: its key, src/lib/proc/server.c.) */
static bool filter_fits(const struct cfg *own, const struct cfg *c)
{
	unsigned net = ASSAY_INIT_F_SANDBOX | ASSAY_INIT_F_NO_NET;

	return (c->flags & ASSAY_INIT_F_SANDBOX) && !(c->refuse & ASSAY_INIT_L_SECCOMP) &&
	       (c->flags & net) == (own->flags & net) &&
	       (!(c->flags & ASSAY_INIT_F_NO_NET) || (c->tcp_port != 0) == (own->tcp_port != 0));
}

/*
 * The PID namespace's last pid (kernel.ns_last_pid, of the reader's PID namespace), read as the
 * server starts and written back before each case, once everything of the case before is
 * reaped: else the pids a case's processes get would tell it how many processes the cases
 * before it on this server started, a channel from case to case. Each case's processes get the
 * pids the first case's got. Writing it takes CAP_SYS_ADMIN (or CAP_CHECKPOINT_RESTORE) in the
 * namespace's user namespace, which the server has and a program has not. Only as PID 1 of a
 * namespace of its own (never the host's); where it cannot be written (a kernel without
 * CONFIG_CHECKPOINT_RESTORE) pids go on from case to case.
 */
static int last_pid_fd = -1;
static char last_pid[24];
static long last_pid_len;

static void pids_mark(const struct sup *s)
{
	if (!s->pidns)
		return;
	last_pid_fd = s_openat(S_AT_FDCWD, "/proc/sys/kernel/ns_last_pid", S_O_RDWR | S_O_CLOEXEC);
	if (last_pid_fd < 0)
		return;
	last_pid_len = SYS(__NR_pread64, last_pid_fd, last_pid, sizeof(last_pid), 0);
	if (last_pid_len <= 0 || last_pid_len == (long)sizeof(last_pid) ||
	    SYS(__NR_pwrite64, last_pid_fd, last_pid, last_pid_len, 0) != last_pid_len) {
		s_close(last_pid_fd);
		last_pid_fd = -1;
	}
}

static void pids_reset(void)
{
	if (last_pid_fd >= 0)
		SYS(__NR_pwrite64, last_pid_fd, last_pid, last_pid_len, 0);
}

/*
 * A folder of the case's (-C its working folder, -t its temporary one; protocol.h): made empty
 * for it before its layers, whose Landlock rules open it, as the ids its program runs as: the
 * server's own (in the namespaces, the ids it took), else, as root, those the program takes.
 * @return 0, or -1 with `*why` and the report's exec_errno saying why (the program never runs).
 */
static int make_dir(const struct cfg *c, const char *path, unsigned mode, int32_t *why,
		    struct assay_init_report *rep)
{
	int r = s_mkdir(path, mode);

	if (r >= 0 && c->take_ids && !c->in_ns && (r = s_lchown(path, c->uid, c->gid)) < 0)
		s_rmdir(path);
	if (r >= 0)
		return 0;
	*why = -r;
	rep->exec_errno = -r;
	return -1;
}

/* The case's folders to make (protocol.h -C, -t): @return 0, or -1 (none is left made). */
static int make_dirs(const struct cfg *c, struct assay_init_report *rep)
{
	if (c->cwd_make && make_dir(c, c->cwd, 0755, &rep->cwd_errno, rep))
		return -1;
	if (c->tmp && make_dir(c, c->tmp, 0700, &rep->tmp_errno, rep)) {
		if (c->cwd_make)
			s_rmdir(c->cwd);
		return -1;
	}
	return 0;
}

/* The case is wholly reaped: lets the next case of the lane go, when it may (protocol.h). */
static void relay(struct sup *s)
{
	char go = 1;

	if (s->relay_fd < 0)
		return;
	if (!s->kill_requested && !s->case_dropped && !s->rep.failure && !s->rep.exec_errno &&
	    roomy(s->cfg->cwd)) {
		s_clock_ns(&s->rep.t_relay_ns);
		if (s_write(s->relay_fd, &go, 1) == 1)
			s->rep.relayed = 1;
		else
			s->rep.t_relay_ns = 0;
	}
	s_close(s->relay_fd);
	s->relay_fd = -1;
}

void serve(struct sup *s)
{
	const struct cfg *own = s->cfg;
	struct inherited first, now;
	struct sup base;
	bool ipc_share = false;

	if (!s->pidns && s_prctl(S_PR_SET_CHILD_SUBREAPER, 1, 0) < 0) {
		s->rep.failure = ASSAY_INIT_FAIL_SYSTEM;
		s->rep.fail_errno = S_EINVAL;
		report_and_exit(&s->rep);
	}
	go_wait();
	if (own->in_ns && own->take_ids)
		ids_take(own, CAP_ADMIN);
	else if (own->in_ns && s_keep_caps(CAP_ADMIN) < 0)
		fail(s, S_EPERM);
	if (own->in_ns && !ipc_works())
		fail(s, S_EPERM); /* the library runs each case under a supervisor of its own */
	/* before the filter, which refuses the mount namespace this takes */
	ipc_share = own->in_ns && ipc_share_prepare();
	s_prctl(S_PR_SET_DUMPABLE, 0, 0);
	drop_stdio();
	hold_filter(s);
	s->serving = true;
	pids_mark(s);
	inherited_read(&first);
	base = *s;
	report_write(ASSAY_INIT_FD_REPORT, &s->rep); /* ready */

	for (;;) {
		struct s_pollfd p[2] = { { s->sigfd, S_POLLIN, 0 },
					 { ASSAY_INIT_FD_REPORT, S_POLLIN, 0 } };
		int fds[ASSAY_INIT_REQ_FDS_MAX], argc = 0;
		char **argv = NULL, **envp = NULL;
		uint32_t flags = 0;
		bool made;
		long n;

		if (s_ppoll(p, 2, NULL) < 0)
			continue;
		drain_signals(s->sigfd);
		if (!(p[1].revents & (S_POLLIN | S_POLLHUP | S_POLLERR)))
			continue;
		n = receive(fds);
		if (n == 0)
			s_exit(0); /* the library is gone, and no case runs */
		cfg_clear(&case_cfg);
		if (n > 0 && split(n, &argv, &argc, &envp, &flags))
			n = -1;
		case_reset(s, &base, fds, flags);
		if (n < 0 ||
		    parse_case(&case_cfg, argc, argv, envp) || case_cfg.mode != MODE_RUN) {
			s->rep.failure = ASSAY_INIT_FAIL_USAGE;
		} else {
			/* the server's namespaces and ids hold, whatever the request says */
			case_cfg.in_ns = own->in_ns;
			case_cfg.ns_errno = own->ns_errno;
			case_cfg.take_ids = own->take_ids;
			case_cfg.uid = own->uid;
			case_cfg.gid = own->gid;
			if (s->filter_held && !filter_fits(own, &case_cfg))
				s->rep.failure = ASSAY_INIT_FAIL_USAGE;
		}
		made = !s->rep.failure && !make_dirs(&case_cfg, &s->rep);
		if (made) {
			prepare_layers(s);
			/* the server's IPC namespace, where Landlock keeps its sysctls out of reach */
			s->ipc_shared = ipc_share &&
					(s->ll_layers & ASSAY_INIT_L_LANDLOCK_FS);
			pids_reset();
			case_run(s);
			relay(s); /* before anything else: the next case waits for it */
		}
		/* nothing of the case runs any more: an empty folder goes, a full one is the
		 * library's to remove (it may hold what the case left for the library to read) */
		if (made && case_cfg.tmp)
			s->rep.tmp_removed = s_rmdir(case_cfg.tmp) == 0;
		if (made && case_cfg.cwd_make)
			s->rep.cwd_removed = s_rmdir(case_cfg.cwd) == 0;
		inherited_read(&now);
		/* a case that left IPC objects (or ran without Landlock) in the server's IPC
		 * namespace: a fresh server, with a fresh namespace, takes the next (ipc.c) */
		s->rep.retired = !inherited_same(&first, &now) ||
				 (s->ipc_shared && (!(s->rep.applied & ASSAY_INIT_L_LANDLOCK_FS) ||
						    ipc_left()));
		close_fds(s->case_fd, 3); /* the end of file of stdout and stderr, then the report */
		if (s->rep_fd >= 0 && !s->case_dropped)
			report_write(s->rep_fd, &s->rep);
		if (s->rep.retired)
			s_exit(0); /* the library replaces us */
		close_fds(&s->rep_fd, 1);
		close_fds(&s->ctl_fd, 1);
		close_fds(&s->go_fd, 1);
		close_fds(&s->relay_fd, 1);
		if (s->ruleset >= 0) {
			s_close(s->ruleset);
			s->ruleset = -1;
		}
	}
}
