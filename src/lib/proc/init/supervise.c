/*
 * The case supervisor's main job: start the program confined, wait for it, make sure nothing it
 * started outlives it, and report honest figures to the library.
 *
 * Key decisions:
 * - The program is forked from here and exec'd after its layers are in place: setsid (its own
 *   session and process group, no controlling terminal), chdir, resource limits, no_new_privs,
 *   Landlock, seccomp. It reports, through a close-on-exec pipe, which layers hold and, if exec
 *   fails, why; EOF on that pipe means exec succeeded.
 * - PATH is searched here, in the program's environment, after Landlock is in force, with
 *   execvp's rules (skip EACCES and keep looking, run a file the kernel cannot exec with
 *   /bin/sh), so the search sees exactly what the program may run. One difference: a PATH
 *   folder the program may not search at all is not reported as EACCES (assay as root runs
 *   the program as nobody, and root's PATH often holds /root/... folders).
 * - When the program's exit is seen (before it is reaped), everything else of the case is
 *   killed: in a PID namespace kill(-1, SIGKILL) from its PID 1 reaches every process in it;
 *   without one this supervisor is a child subreaper, kills the program's process group while
 *   the zombie still pins the group id, then walks its descendants (/proc/.../children) and
 *   kills each through a pidfd after checking the process is still the child of the one it was
 *   found under. Killing and reaping repeat until nothing is left.
 * - CPU and peak RSS are summed from each wait4() once every process of the case is reaped: the
 *   sum (CPU) and maximum (RSS) over all of them, orphans included, since orphans are
 *   re-parented to this process and reaped here (what RUSAGE_CHILDREN says, but per case: a
 *   case server outlives many). A process whose parent ignores SIGCHLD (SIG_IGN, SA_NOCLDWAIT) is
 *   reaped by the kernel without a wait, and its figures reach no one: not counted. Nothing
 *   short of a cgroup (not writable here) or tracing every process would count it; the
 *   limits (RLIMIT_CPU per process, the timeout) still bind it.
 * - The limit that ended the case is inferred (the kernel says nothing when a limit makes a call
 *   fail): SIGXCPU or a SIGKILL at the hard CPU limit is cpu, SIGXFSZ is file size; a process
 *   count at the limit when the program ended abnormally is processes; an abnormal end with a
 *   peak RSS of at least half the data limit is memory. Open files are never reported.
 *
 * Refuses to: signal anything outside the case; act on a control signal from anyone but the
 * library (or, in a PID namespace, from outside it); write the report before every process of
 * the case is reaped.
 */
#include "init.h"

#define RESWEEP_MS 10 /* after the program ended: look for stragglers this often */
#define MAX_WALK 8192 /* processes one walk of the tree visits */

/* What the program's child side says through the exec pipe, before exec or instead of it. */
enum msg_kind { MSG_LAYERS = 1, MSG_EXEC_FAILED, MSG_REQUIRED, MSG_GO };

struct child_msg {
	int32_t kind;
	int32_t err;
	uint32_t applied;
	uint32_t refused;
	int32_t refused_errno[ASSAY_INIT_NLAYERS];
	int64_t t_ns; /* MSG_GO: when the go came (CLOCK_MONOTONIC) */
};

void report_init(struct assay_init_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->magic = ASSAY_INIT_MAGIC;
	rep->size = sizeof(*rep);
	rep->processes = -1;
}

void report_write(int fd, const struct assay_init_report *rep)
{
	struct assay_init_report out = *rep;
	const char *p = (const char *)&out;
	size_t left = sizeof(out);

	s_clock_ns(&out.t_done_ns);

	while (left) {
		long n = s_write(fd, p, left);

		if (n == -S_EINTR)
			continue;
		if (n <= 0)
			break;
		p += n;
		left -= (size_t)n;
	}
}

void report_and_exit(const struct assay_init_report *rep)
{
	go_wait(); /* ids.c: in the namespaces, not a word before the library's go */
	report_write(ASSAY_INIT_FD_REPORT, rep);
	s_exit(0);
}

void drop_stdio(void)
{
	int fd = s_openat(S_AT_FDCWD, "/dev/null", S_O_RDWR | S_O_CLOEXEC);

	if (fd < 0)
		return; /* the pipes then stay open until this process exits */
	for (int i = 0; i < 3; i++)
		s_dup3(fd, i, 0);
	s_close(fd);
}

static void send_msg(int fd, const struct child_msg *m)
{
	while (s_write(fd, m, sizeof(*m)) == -S_EINTR)
		;
}

/* ---- the program's side, between fork and exec ---- */

static const char *env_get(char **envp, const char *name)
{
	size_t n = s_strlen(name);

	for (; envp && *envp; envp++) {
		const char *e = *envp;
		size_t i = 0;

		while (i < n && e[i] == name[i])
			i++;
		if (i == n && e[n] == '=')
			return e + n + 1;
	}
	return NULL;
}

/* One execve, with execvp's fallback to /bin/sh for a file the kernel cannot run. */
static int try_exec(const char *path, const struct cfg *c)
{
	int r = s_execve(path, c->argv, c->envp);

	if (r == -S_ENOEXEC) {
		/* {"/bin/sh", path, argv[1], ...}: argv[-1] (our "--") is free to take "/bin/sh". */
		char **sh = c->argv - 1;

		sh[0] = (char *)"/bin/sh";
		sh[1] = (char *)path;
		r = s_execve("/bin/sh", sh, c->envp);
	}
	return -r;
}

/* Can the program reach `path` at all? A PATH folder it may not search (root's /root/bin, once
 * the program runs as nobody) holds nothing for it: its EACCES is not worth reporting over a
 * later ENOENT. O_PATH needs no right on the file itself, so a file Landlock hides, or one
 * without the execute bit, is still reached (and its EACCES reported). */
static bool path_reachable(const char *path)
{
	int fd = s_openat(S_AT_FDCWD, path, S_O_PATH | S_O_CLOEXEC);

	if (fd < 0)
		return fd != -S_EACCES;
	s_close(fd);
	return true;
}

/* execvp's search over the program's PATH (except that a PATH folder the program may not
 * search is skipped as if it were empty). @return the errno to report. */
static int exec_program(const struct cfg *c)
{
	const char *prog = c->argv[0], *path;
	char buf[4096];
	int saved = S_ENOENT;

	if (!prog[0])
		return S_ENOENT;
	if (s_has_slash(prog))
		return try_exec(prog, c);
	path = env_get(c->envp, "PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *dir = path;;) {
		const char *end = dir;
		char *p = buf;
		int e;

		while (*end && *end != ':')
			end++;
		if (end == dir) {
			*p++ = '.';
		} else {
			if ((size_t)(end - dir) + s_strlen(prog) + 2 > sizeof(buf))
				goto next;
			memcpy(p, dir, (size_t)(end - dir));
			p += end - dir;
		}
		*p++ = '/';
		s_append(p, buf + sizeof(buf), prog);
		e = try_exec(buf, c);
		if (e == S_EACCES) {
			if (path_reachable(buf))
				saved = S_EACCES;
		} else if (e != S_ENOENT && e != S_ENOTDIR && e != 116 /* ESTALE */ &&
			 e != 19 /* ENODEV */ && e != 110 /* ETIMEDOUT */)
			return e;
next:
		if (!*end)
			break;
		dir = end + 1;
	}
	return saved;
}

/*
 * An armed child that shares its server's memory waits on the programs' CPUs its server is not
 * on (wait_where_it_runs(), set by the server once the child says its layers are in place).
 * After its go, the child gives itself the program's CPUs, which must come after the server's
 * setting, or that setting would be the program's. So the two agree on this futex word:
 * CPUS_PENDING until the server claims it (CPUS_SETTING), makes its setting and says so
 * (CPUS_SET); the child, after its go, waits for CPUS_SET (almost always there by then). A
 * server held up for a second (or killed: it has no other way to stop between two reads) must
 * neither hang the child, where no PID namespace ends it, nor set anything once the child goes
 * on: the child then takes the word from CPUS_PENDING to CPUS_GONE, and a server that finds
 * it so sets nothing. A server that has claimed it is running: the child waits for it.
 * cpus_await: set before the child starts.
 */
enum { CPUS_PENDING, CPUS_SETTING, CPUS_SET, CPUS_GONE };
static int cpus_word;
static bool cpus_await;

static void cpus_futex_wait(int seen, long ms)
{
	struct s_timespec t = { 0, ms * 1000000L };

	SYS(__NR_futex, &cpus_word, 0 | 128 /* FUTEX_WAIT_PRIVATE */, seen, &t, 0, 0);
}

/* The server: @return whether it may set the child's CPUs (then cpus_settled() after). */
static bool cpus_claim(void)
{
	int pending = CPUS_PENDING;

	return __atomic_compare_exchange_n(&cpus_word, &pending, CPUS_SETTING, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static void cpus_settled(void)
{
	__atomic_store_n(&cpus_word, CPUS_SET, __ATOMIC_SEQ_CST);
	SYS(__NR_futex, &cpus_word, 1 | 128 /* FUTEX_WAKE_PRIVATE */, 1, 0, 0, 0);
}

/* The child, after its go: returns once the server's setting is made, or will never be. */
static void cpus_wait_settled(void)
{
	int pending = CPUS_PENDING;

	for (int i = 0; i < 100; i++) {
		int w = __atomic_load_n(&cpus_word, __ATOMIC_SEQ_CST);

		if (w == CPUS_SET)
			return;
		cpus_futex_wait(w, 10);
	}
	if (__atomic_compare_exchange_n(&cpus_word, &pending, CPUS_GONE, false, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST))
		return; /* the server never claimed it, and now never will */
	while (__atomic_load_n(&cpus_word, __ATOMIC_SEQ_CST) == CPUS_SETTING)
		cpus_futex_wait(CPUS_SETTING, 100); /* claimed: it is running, one system call */
}

/*
 * Where a case's process waits, or is set up, before its exec (c: -a, -k; own: its
 * supervisor's CPUs): the program's CPUs its supervisor is not on; with a slot (-k), one of
 * them, the slot's-th (or, none left, of all the program's CPUs), so that the cases run at once
 * each start on a CPU of their own. @return false: nothing to set (no -a, or no such CPU).
 */
static bool slot_cpus(const struct cfg *c, const unsigned char *own, unsigned char *wait)
{
	bool any = false;

	memset(wait, 0, CPUS_BYTES);
	for (unsigned i = 0; i < c->ncpus_bytes; i++) {
		wait[i] = c->cpus[i] & (unsigned char)~own[i];
		any |= wait[i] != 0;
	}
	if (c->has_slot) {
		const unsigned char *from = any ? wait : c->cpus;
		unsigned count = 0, k, bit = 0;

		for (unsigned i = 0; i < c->ncpus_bytes * 8; i++)
			count += (from[i / 8] >> (i % 8)) & 1;
		if (!count)
			return false;
		k = c->slot % count;
		for (unsigned i = 0; i < c->ncpus_bytes * 8; i++)
			if (((from[i / 8] >> (i % 8)) & 1) && k-- == 0) {
				bit = i;
				break;
			}
		memset(wait, 0, CPUS_BYTES);
		wait[bit / 8] = (unsigned char)(1u << (bit % 8));
		any = true;
	}
	return any;
}

/*
 * Puts process `pid` (0: the caller) where the case's process waits, or is set up, before its
 * exec (slot_cpus): a gated case's child, set by its server while it sleeps (or is about to),
 * which moves nothing, so that the go wakes it there and its exec does not have to move it from
 * the server's CPU (a migration by the CPU's stopper thread on the way from one case's end to
 * the next case's start); a case started at once moves itself there first. run_child() gives it
 * the program's CPUs before exec (after the server's setting: cpus_claim()). Nothing without -a
 * or when no such CPU is left.
 */
static void wait_where_it_runs(const struct cfg *c, int pid)
{
	unsigned char own[CPUS_BYTES], wait[CPUS_BYTES];

	if (!c->ncpus_bytes)
		return;
	memset(own, 0, sizeof(own));
	if (SYS(__NR_sched_getaffinity, 0, sizeof(own), own) > 0 && slot_cpus(c, own, wait))
		SYS(__NR_sched_setaffinity, pid, c->ncpus_bytes, wait);
}

__attribute__((noreturn)) static void run_child(struct sup *s, int pipe_w)
{
	const struct cfg *c = s->cfg;
	struct assay_init_report rep = s->rep;
	struct child_msg m;
	uint64_t none = 0;
	unsigned refused_before = rep.refused;

	memset(&m, 0, sizeof(m));
	s_sigprocmask(S_SIG_SETMASK, &none, NULL);
	if (s->go_fd < 0 && c->has_slot)
		wait_where_it_runs(c, 0); /* started at once: set up, and exec'd, on its slot's CPU */
	for (int i = 0; s->serving && i < 3; i++) {
		int r = s_dup3(s->case_fd[i], i, 0); /* a case server's: the case's own pipes */

		if (r < 0) {
			m.kind = MSG_EXEC_FAILED;
			m.err = -r;
			send_msg(pipe_w, &m);
			s_exit(127);
		}
	}
	if (s->serving && s->pidns) {
		/* the server's IPC namespace (ipc.c), or one of the case's own, as a per-case
		 * supervisor's clone makes; then none of the server's CAP_SYS_ADMIN (serve.c) goes
		 * further */
		int r = s->ipc_shared ? 0 : s_unshare(S_CLONE_NEWIPC);

		if (r >= 0)
			r = s_drop_caps();
		if (r < 0) {
			m.kind = MSG_EXEC_FAILED;
			m.err = -r;
			send_msg(pipe_w, &m);
			s_exit(127);
		}
	}
	s_setsid();
	if (c->cwd) {
		int r = s_chdir(c->cwd);

		if (r < 0) {
			m.kind = MSG_EXEC_FAILED;
			m.err = -r;
			send_msg(pipe_w, &m);
			s_exit(127);
		}
	}
	set_limits(c, s->pidns);
	if (c->take_ids && !c->in_ns) {
		/* Without the namespaces, as root: the program becomes the unprivileged ids the
		 * library chose, or does not run. */
		int r;

		if ((r = s_setgroups()) < 0 || (r = s_setresgid(c->gid)) < 0 ||
		    (r = s_setresuid(c->uid)) < 0) {
			m.kind = MSG_EXEC_FAILED;
			m.err = -r;
			send_msg(pipe_w, &m);
			s_exit(127);
		}
	}
	if (c->flags & ASSAY_INIT_F_SANDBOX) {
		struct s_rlimit no_core = { 0, 0 };

		s_prlimit(4 /* RLIMIT_CORE */, &no_core);
		if (c->refuse & ASSAY_INIT_L_NO_NEW_PRIVS) {
			layer_refuse(&rep, ASSAY_INIT_L_NO_NEW_PRIVS, S_EPERM);
		} else {
			int r = s_prctl(S_PR_SET_NO_NEW_PRIVS, 1, 0);

			if (r < 0)
				layer_refuse(&rep, ASSAY_INIT_L_NO_NEW_PRIVS, -r);
			else
				layer_apply(&rep, ASSAY_INIT_L_NO_NEW_PRIVS);
		}
		/* Landlock and seccomp need no_new_privs (or a capability the program will not
		 * have after exec; in the user namespace it has them until then). */
		if (s->ruleset >= 0)
			landlock_enforce(s->ruleset, s->ll_layers, &rep);
		if (s->want_seccomp && s->filter_held)
			layer_apply(&rep, ASSAY_INIT_L_SECCOMP); /* inherited from the server */
		else if (s->want_seccomp)
			seccomp_enforce(&rep, c->flags & ASSAY_INIT_F_NO_NET, c->tcp_port != 0);
	}
	m.applied = rep.applied;
	m.refused = rep.refused;
	memcpy(m.refused_errno, rep.refused_errno, sizeof(m.refused_errno));
	if ((c->flags & ASSAY_INIT_F_REQUIRED) && rep.refused != refused_before) {
		m.kind = MSG_REQUIRED;
		send_msg(pipe_w, &m);
		s_exit(127);
	}
	m.kind = MSG_LAYERS;
	send_msg(pipe_w, &m);
	if (c->mode == MODE_PROBE)
		s_exit(0);
	if (s->go_fd >= 0) {
		/* A gated case (protocol.h): everything is in place; the program starts when the
		 * library says go. Its end of file (the case abandoned, the library gone): never.
		 * What the server holds for its own is closed first: a child that lingers here
		 * (stopped by someone, without a PID namespace) must not keep the case's report pipe,
		 * control pipe or the server's socket open once the server is gone. */
		char go;
		long n;

		s_close(s->rep_fd);
		s_close(s->ctl_fd);
		s_close(s->relay_fd);
		s_close(s->sigfd);
		s_close(ASSAY_INIT_FD_REPORT);

		while ((n = s_read(s->go_fd, &go, 1)) == -S_EINTR)
			;
		if (n != 1) {
			m.kind = MSG_EXEC_FAILED;
			m.err = S_ECANCELED;
			send_msg(pipe_w, &m);
			s_exit(127);
		}
		m.kind = MSG_GO; /* the case's start, for its wall time */
		s_clock_ns(&m.t_ns);
		send_msg(pipe_w, &m);
		if (cpus_await)
			cpus_wait_settled();
	}
	/* Nothing of the supervisor's may reach the program: every descriptor above 2 closes at
	 * exec (the report pipe, the signalfd, this pipe), whatever the program is. */
	s_close_range(3, ~0u, S_CLOSE_RANGE_CLOEXEC);
	/* the program's CPUs (-a), not its supervisor's: assay may keep itself and its servers
	 * off the CPUs its cases run on (docs/cli.md); a mask the kernel refuses leaves it here */
	if (c->ncpus_bytes)
		SYS(__NR_sched_setaffinity, 0, c->ncpus_bytes, c->cpus);
	m.kind = MSG_EXEC_FAILED;
	m.err = exec_program(c);
	send_msg(pipe_w, &m);
	s_exit(127);
}

/* ---- the process tree ---- */

static long read_small(const char *path, char *buf, size_t size)
{
	int fd = s_openat(S_AT_FDCWD, path, S_O_RDONLY | S_O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return fd;
	while (got + 1 < size) {
		long n = s_read(fd, buf + got, size - 1 - got);

		if (n == -S_EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	s_close(fd);
	buf[got] = '\0';
	return (long)got;
}

/* The parent of `pid` (a pid of /proc's namespace), or -1. */
static int parent_of(int pid)
{
	char path[48], buf[512], *p, *rp = NULL;
	uint64_t v = 0;

	*s_utoa(s_append(path, path + sizeof(path), "/proc/"), (uint64_t)pid) = '\0';
	s_append(path + s_strlen(path), path + sizeof(path), "/stat");
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	/* "pid (comm) S ppid ...": comm may hold anything, so look for the last ')'. */
	for (p = buf; *p; p++)
		if (*p == ')')
			rp = p;
	if (!rp || !rp[1] || !rp[2] || !rp[3] || rp[4] == '\0')
		return -1;
	for (p = rp + 4; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return (int)v;
}

struct walk {
	int pid[MAX_WALK];
	int parent[MAX_WALK];
	int n;
};

/* Appends the children of `dir` ("/proc/self" or "/proc/N"), every thread's, to `w`. */
static void add_children(struct walk *w, const char *dir, int parent)
{
	static char ents[4096], list[16384];
	char tpath[64], cpath[96];
	int dfd;
	long n;

	s_append(s_append(tpath, tpath + sizeof(tpath), dir), tpath + sizeof(tpath), "/task");
	dfd = s_openat(S_AT_FDCWD, tpath, S_O_RDONLY | S_O_DIRECTORY | S_O_CLOEXEC);
	if (dfd < 0)
		return;
	while ((n = s_getdents64(dfd, ents, sizeof(ents))) > 0) {
		for (long off = 0; off < n;) {
			struct s_linux_dirent64 *d = (struct s_linux_dirent64 *)(ents + off);
			char *p;

			off += d->d_reclen;
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			p = s_append(cpath, cpath + sizeof(cpath), tpath);
			p = s_append(p, cpath + sizeof(cpath), "/");
			p = s_append(p, cpath + sizeof(cpath), d->d_name);
			s_append(p, cpath + sizeof(cpath), "/children");
			if (read_small(cpath, list, sizeof(list)) <= 0)
				continue;
			for (p = list; *p;) {
				uint64_t v = 0;

				while (*p == ' ')
					p++;
				if (*p < '0' || *p > '9')
					break;
				while (*p >= '0' && *p <= '9')
					v = v * 10 + (uint64_t)(*p++ - '0');
				if (w->n < MAX_WALK) {
					w->pid[w->n] = (int)v;
					w->parent[w->n++] = parent;
				}
			}
		}
	}
	s_close(dfd);
}

/*
 * Visits every descendant of this process through /proc (pids of /proc's namespace). With
 * `kill`, each is sent SIGKILL: a direct child by pid (it cannot be reused before we reap it),
 * a deeper one through a pidfd once it is seen to still be the child of the process it was
 * found under. @return how many processes were visited.
 */
static int walk_tree(bool kill)
{
	static struct walk w;
	int self = s_getpid();

	w.n = 0;
	add_children(&w, "/proc/self", self);
	for (int i = 0; i < w.n; i++) {
		char dir[32];
		int pid = w.pid[i];

		if (kill && w.parent[i] == self) {
			s_kill(pid, S_SIGKILL);
		} else if (kill) {
			int pfd = s_pidfd_open(pid);
			int pp = parent_of(pid);

			if (pfd >= 0 && (pp == w.parent[i] || pp == self))
				s_pidfd_kill(pfd, S_SIGKILL);
			if (pfd >= 0)
				s_close(pfd);
		}
		*s_utoa(s_append(dir, dir + sizeof(dir), "/proc/"), (uint64_t)pid) = '\0';
		add_children(&w, dir, pid);
	}
	return w.n;
}

/* SIGKILL to everything of the case. */
static void kill_all(struct sup *s)
{
	if (s->pidns) {
		s_kill(-1, S_SIGKILL);
		return;
	}
	if (s->prog > 0)
		s_kill(-s->prog, S_SIGKILL); /* its group, while its pid is not yet reaped */
	walk_tree(true);
}

/*
 * Is the program, ended but not reaped, the only process left of the case? The supervisor is
 * the init of the case's PID namespace, or a subreaper without one: whatever the program
 * started that still lives is the supervisor's child by now (reparented when the program died)
 * or a descendant of one, and every process of the case is one of those. So when the
 * supervisor has one child, it is the program (a child it has not reaped), nothing is left to
 * kill, and neither the walk of /proc (a dozen system calls and the /proc entries they make)
 * nor kill(-1) (a pass over every process of the machine) is needed on the way from one case's
 * end to the next case's start. /proc/thread-self, not /proc/self/task/PID: /proc is the
 * host's, where the supervisor's PID is not the one it has in its namespace. False when /proc
 * does not tell.
 */
static bool program_alone(void)
{
	char list[64], *p;
	int fd = s_openat(S_AT_FDCWD, "/proc/thread-self/children", S_O_RDONLY | S_O_CLOEXEC);
	long n;

	/* one read: /proc gives the whole list at once, and a list that fills `list` holds more
	 * than one pid anyway */
	if (fd < 0)
		return false;
	while ((n = s_read(fd, list, sizeof(list) - 1)) == -S_EINTR)
		;
	s_close(fd);
	if (n <= 0)
		return false;
	list[n] = '\0';
	for (p = list; *p >= '0' && *p <= '9'; p++)
		;
	while (*p == ' ' || *p == '\n')
		p++;
	return p > list && *p == '\0';
}

static void forward_term(struct sup *s)
{
	if (s->pidns) {
		s_kill(-1, S_SIGTERM);
		s_kill(-1, S_SIGCONT); /* a stopped process could not act on SIGTERM */
	} else if (s->prog > 0) {
		s_kill(-s->prog, S_SIGTERM);
		s_kill(-s->prog, S_SIGCONT);
	}
}

static int wsig(int st)
{
	return st & 0x7f;
}

/* Adds the figures of one reaped process (with those of the processes it reaped) to the case's:
 * CPU summed, peak RSS the largest. The sum over every process the supervisor reaps is what
 * RUSAGE_CHILDREN would say, but per case, which a case server needs. */
static void add_usage(struct sup *s, const struct s_rusage *ru)
{
	s->utime_us += (int64_t)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec;
	s->stime_us += (int64_t)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec;
	if (ru->ru_maxrss > s->maxrss_kb)
		s->maxrss_kb = ru->ru_maxrss;
}

static bool abnormal(int st)
{
	return wsig(st) != 0 || ((st >> 8) & 0xff) != 0;
}

/* The program's exit has been seen (`si`, not reaped yet): count what it leaves when the count
 * can matter (an abnormal end, finish()), kill it all, reap the program. */
static void program_ended(struct sup *s, const struct s_siginfo *si)
{
	const struct cfg *c = s->cfg;
	struct s_rusage ru;
	int st = 0;

	s_clock_ns(&s->rep.t_exit_ns);
	if (c->nproc && !(si->si_code == S_CLD_EXITED && si->si_status == 0))
		s->rep.processes = walk_tree(false);
	s->killing = true;
	if (!program_alone())
		kill_all(s);
	memset(&ru, 0, sizeof(ru));
	while (s_wait4(s->prog, &st, S___WALL, &ru) == -S_EINTR)
		;
	add_usage(s, &ru);
	s->prog = 0;
	s->rep.wait_status = st;

	int lim = ASSAY_INIT_LIMIT_NONE;
	uint64_t cpu = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec);

	if (wsig(st) == S_SIGXCPU ||
	    (wsig(st) == S_SIGKILL && !s->kill_requested && c->cpu_s && cpu >= c->cpu_s))
		lim = ASSAY_INIT_LIMIT_CPU;
	else if (wsig(st) == S_SIGXFSZ)
		lim = ASSAY_INIT_LIMIT_FILE_SIZE;
	s->rep.limit = lim;
}

/*
 * Reaps whatever has ended, looking before reaping (WNOWAIT) so that the program is handled by
 * program_ended() while its zombie still pins its process group. @return true once no child is
 * left.
 */
static bool reap(struct sup *s)
{
	for (;;) {
		struct s_siginfo si;
		struct s_rusage ru;
		int st = 0, r;

		memset(&si, 0, sizeof(si));
		r = s_waitid(0 /* P_ALL */, 0, &si, S_WEXITED | S_WNOHANG | S_WNOWAIT | S___WALL);
		if (r == -S_EINTR)
			continue;
		if (r == -S_ECHILD)
			return true;
		if (r < 0 || si.si_pid <= 0)
			return false;
		if (si.si_pid == s->prog) {
			s->prog_exited = true;
			program_ended(s, &si);
			continue;
		}
		memset(&ru, 0, sizeof(ru));
		while ((r = s_wait4(si.si_pid, &st, S___WALL, &ru)) == -S_EINTR)
			;
		if (r > 0)
			add_usage(s, &ru);
		if (wsig(st) == S_SIGXCPU)
			s->orphan_limit = ASSAY_INIT_LIMIT_CPU;
		else if (wsig(st) == S_SIGXFSZ)
			s->orphan_limit = ASSAY_INIT_LIMIT_FILE_SIZE;
	}
}

/* Every process of the case is reaped: its figures, and the limit it ran into. */
static void finish(struct sup *s)
{
	const struct cfg *c = s->cfg;
	struct assay_init_report *rep = &s->rep;

	rep->utime_us = s->utime_us;
	rep->stime_us = s->stime_us;
	rep->maxrss_kb = s->maxrss_kb;
	if (rep->limit == ASSAY_INIT_LIMIT_NONE && abnormal(rep->wait_status) && !rep->exec_errno) {
		if (s->orphan_limit)
			rep->limit = s->orphan_limit;
		else if (c->nproc && rep->processes >= (int32_t)c->nproc)
			rep->limit = ASSAY_INIT_LIMIT_PROCESSES;
		else if (c->data_bytes && (uint64_t)rep->maxrss_kb * 1024 * 2 >= c->data_bytes)
			rep->limit = ASSAY_INIT_LIMIT_MEMORY;
	}
}

/* The library is gone: nobody reads the report, but nothing of the case may survive. */
__attribute__((noreturn)) void abandon(struct sup *s)
{
	s->killing = true;
	for (;;) {
		kill_all(s);
		if (reap(s))
			s_exit(0);
		struct s_timespec t = { 0, RESWEEP_MS * 1000000L };
		s_ppoll(NULL, 0, &t);
	}
}

static bool control_allowed(const struct sup *s, const struct s_signalfd_siginfo *si)
{
	/* In a PID namespace a sender outside it (the outer supervisor) shows as pid 0. */
	return s->pidns ? si->ssi_pid == 0 : (int)si->ssi_pid == s_getppid();
}

/*
 * The program's child side runs in the supervisor's memory (s_clone_vm) on a stack of its own
 * (but for a child that changes its ids: start_program), from a copy of the supervisor's state
 * made before it starts: the supervisor goes on (closes the go pipe, records the pid) while the
 * child reads. One child at a time: the next starts after this one's case is wholly reaped (a
 * case server) or never (a supervisor of one case).
 */
#define CHILD_STACK (64 * 1024) /* run_child's deepest path (a PATH search) takes ~6 KiB */

static struct {
	struct sup s;
	int pipe_r, pipe_w;
} child_start;
static char child_stack[CHILD_STACK] __attribute__((aligned(64)));

__attribute__((noreturn)) static void child_main(void *arg)
{
	(void)arg;
	s_close(child_start.pipe_r);
	run_child(&child_start.s, child_start.pipe_w);
}

/* Starts the program and reads what its child side says before exec. @return 0, or -1 if
 * the program never ran (the report says why). */
static int start_program(struct sup *s)
{
	int pipefd[2];
	struct child_msg m;
	long n, pid;
	bool gated = s->go_fd >= 0;

	if (s_pipe2(pipefd, S_O_CLOEXEC) < 0) {
		s->rep.failure = ASSAY_INIT_FAIL_SYSTEM;
		s->rep.fail_errno = S_EAGAIN;
		return -1;
	}
	s_clock_ns(&s->rep.t_start_ns);
	child_start.s = *s;
	child_start.pipe_r = pipefd[0];
	child_start.pipe_w = pipefd[1];
	cpus_word = CPUS_PENDING;
	cpus_await = gated && s->cfg->ncpus_bytes && !(s->cfg->take_ids && !s->cfg->in_ns);
	if (s->cfg->take_ids && !s->cfg->in_ns) {
		/* A child that takes other ids itself (root without namespaces) forks: a change of
		 * ids makes the address space dumpable where fs.suid_dumpable says so, and this one
		 * must not be the supervisor's, root's, for one moment. */
		pid = s_clone(S_SIGCHLD);
		if (pid == 0)
			child_main(NULL);
	} else {
		pid = s_clone_vm(child_main, NULL, child_stack + sizeof(child_stack));
	}
	s_close(pipefd[1]);
	if (s->go_fd >= 0) {
		s_close(s->go_fd); /* the program's alone: the library's end of file reaches it */
		s->go_fd = -1;
	}
	if (pid < 0) {
		s_close(pipefd[0]);
		s->rep.failure = ASSAY_INIT_FAIL_SYSTEM;
		s->rep.fail_errno = (int)-pid;
		return -1;
	}
	s->prog = (int)pid;
	while ((n = s_read(pipefd[0], &m, sizeof(m))) == -S_EINTR)
		;
	if (n == sizeof(m) && m.kind != MSG_EXEC_FAILED) {
		s->rep.applied = m.applied;
		s->rep.refused = m.refused;
		memcpy(s->rep.refused_errno, m.refused_errno, sizeof(m.refused_errno));
		if (m.kind == MSG_REQUIRED) {
			s->rep.failure = ASSAY_INIT_FAIL_REQUIRED;
		} else {
			if (cpus_await && cpus_claim()) {
				wait_where_it_runs(s->cfg, (int)pid);
				cpus_settled();
			}
			while ((n = s_read(pipefd[0], &m, sizeof(m))) == -S_EINTR)
				;
		}
		if (n == sizeof(m) && m.kind == MSG_GO) {
			/* a gated case: it starts now, not at its fork */
			s->rep.t_start_ns = m.t_ns;
			while ((n = s_read(pipefd[0], &m, sizeof(m))) == -S_EINTR)
				;
		}
	}
	if (n == sizeof(m) && m.kind == MSG_EXEC_FAILED)
		s->rep.exec_errno = m.err ? m.err : S_ENOENT;
	else if (n != 0 && n != sizeof(m) && !s->rep.failure)
		s->rep.exec_errno = S_EAGAIN; /* it died before it could tell: cannot happen */
	s_close(pipefd[0]);
	return 0;
}

/* Prepares the layers the supervisor itself sets up (the program's own are in run_child). */
void prepare_layers(struct sup *s)
{
	const struct cfg *c = s->cfg;
	struct assay_init_report *rep = &s->rep;

	if (!(c->flags & ASSAY_INIT_F_SANDBOX))
		return;
	if (c->refuse & ASSAY_INIT_L_SECCOMP)
		layer_refuse(rep, ASSAY_INIT_L_SECCOMP, S_EPERM);
	else
		s->want_seccomp = true;
	s->ruleset = landlock_prepare(c, rep, &s->ll_layers);
}

/* The library's "kill the case now" (SIGUSR1, or a case server's KILL): what the program did
 * before it is its own; what it does after, the kill's. */
static void kill_case(struct sup *s)
{
	if (!s->prog_exited)
		s->kill_requested = true;
	s->killing = true;
	kill_all(s);
}

/* A case server's case's control pipe is readable: its commands, or its end (protocol.h). */
static void control(struct sup *s)
{
	char buf[16];
	long n;

	while ((n = s_read(s->ctl_fd, buf, sizeof(buf))) == -S_EINTR)
		;
	if (n <= 0) {
		/* the library is done with the case: kill it (and poll the pipe no more) */
		s_close(s->ctl_fd);
		s->ctl_fd = -1;
		buf[0] = ASSAY_INIT_CTL_KILL;
		n = 1;
	}
	for (long i = 0; i < n; i++) {
		if (buf[i] == ASSAY_INIT_CTL_TERM) {
			forward_term(s);
		} else if (buf[i] == ASSAY_INIT_CTL_KILL) {
			kill_case(s);
		}
	}
}

/*
 * Runs the case from here (layers prepared, ids taken) to its end, with s->rep filled: the
 * program started, watched, and everything of it killed and reaped. Returns early, with the
 * failure in s->rep, when a required layer was refused or the program could not be forked.
 */
void case_run(struct sup *s)
{
	const struct cfg *c = s->cfg;

	if ((c->flags & ASSAY_INIT_F_REQUIRED) && s->rep.refused) {
		s->rep.failure = ASSAY_INIT_FAIL_REQUIRED;
		return;
	}
	if (start_program(s) < 0)
		return;
	if (s->ruleset >= 0) {
		s_close(s->ruleset);
		s->ruleset = -1;
	}
	if (s->serving) {
		/* The program's stdin goes (a feed to a program that ended must see EPIPE); its
		 * stdout and stderr stay open here until the case is reaped (serve.c): the library
		 * then sees their end of file with the report, in one wakeup, rather than once at the
		 * program's exit, when the next case's start needs the CPUs */
		s_close(s->case_fd[0]);
		s->case_fd[0] = -1;
	} else {
		drop_stdio();
	}

	for (;;) {
		/* a case server also watches its socket: the library's exit (protocol.h) */
		struct s_pollfd fds[4] = { { s->sigfd, S_POLLIN, 0 },
					   { s->rep_fd, 0, 0 },
					   { ASSAY_INIT_FD_REPORT, 0, 0 },
					   { s->ctl_fd, S_POLLIN, 0 } };
		struct s_timespec t = { 0, RESWEEP_MS * 1000000L };
		struct s_signalfd_siginfo si;

		if (reap(s) && !s->prog) {
			finish(s);
			return;
		}
		if (s->killing)
			kill_all(s); /* stragglers forked while we looked */
		if (s_ppoll(fds, s->serving ? (s->ctl_fd >= 0 ? 4 : 3) : 2, s->killing ? &t : NULL) < 0)
			continue;
		if (s->serving && (fds[2].revents & (S_POLLERR | S_POLLHUP)))
			abandon(s);
		if (s->serving && s->ctl_fd >= 0 && fds[3].revents)
			control(s);
		if (fds[1].revents & (S_POLLERR | S_POLLHUP)) {
			if (!s->serving)
				abandon(s);
			/* a case server's case nobody waits for: kill it, report to no one */
			s->case_dropped = true;
			kill_case(s);
		}
		if (!(fds[0].revents & S_POLLIN))
			continue;
		/* One signal per turn; SIGCHLD needs nothing here: reap() runs at the top. */
		if (s_read(s->sigfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (s->serving)
			continue; /* a case server's control comes on the case's pipe */
		if (si.ssi_signo == S_SIGTERM && control_allowed(s, &si)) {
			forward_term(s);
		} else if (si.ssi_signo == S_SIGUSR1 && control_allowed(s, &si)) {
			kill_case(s);
		}
	}
}

void supervise(struct sup *s)
{
	const struct cfg *c = s->cfg;

	if (!s->pidns && s_prctl(S_PR_SET_CHILD_SUBREAPER, 1, 0) < 0) {
		s->rep.failure = ASSAY_INIT_FAIL_SYSTEM;
		s->rep.fail_errno = S_EINVAL;
		report_and_exit(&s->rep);
	}
	s->rep_fd = ASSAY_INIT_FD_REPORT;
	prepare_layers(s);
	/* In the namespaces: their maps are written by now (ids.c), and with root the supervisor
	 * becomes nobody there. */
	go_wait();
	if (c->in_ns && c->take_ids)
		ids_take(c, 0);
	/* Not dumpable: its /proc files (fd, mem, environ) and ptrace are closed to the program,
	 * which runs under the same uid. */
	s_prctl(S_PR_SET_DUMPABLE, 0, 0);
	case_run(s);
	report_and_exit(&s->rep);
}
