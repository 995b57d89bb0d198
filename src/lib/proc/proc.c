/*
 * Runs one untrusted program (proc.h): spawn, pump stdin/stdout/stderr through poll(), enforce
 * the timeout on the whole process group, reap and report.
 *
 * Key decisions:
 * - posix_spawn, not fork. glibc (>= 2.24) spawns with clone(CLONE_VM | CLONE_VFORK), so starting
 *   costs the same whatever assay's size, and it reports a failed chdir or exec as its return
 *   value (the close-on-exec pipe trick, done inside glibc). Every guarantee of proc.h maps to a
 *   spawn attribute or file action: POSIX_SPAWN_SETPGROUP (new group; the parent resumes only
 *   after exec, so there is no setpgid race to close), SETSIGDEF over all signals + an empty
 *   SETSIGMASK, dup2/open("/dev/null") onto 0-2, addclosefrom_np(3), addchdir_np(cwd).
 * - PATH lookup is ours, over the child's environment (default "/usr/local/bin:/usr/bin:/bin"),
 *   with execvp's rules: stat each candidate (relative ones against `cwd`), spawn the first
 *   executable file, keep searching after EACCES, run a file the kernel cannot exec (ENOEXEC)
 *   with /bin/sh.
 * - The child's exit is watched with a pidfd (Linux >= 5.3), so nothing sleeps or polls on a
 *   clock. On exit the group gets SIGKILL *before* the child is reaped: while the leader is an
 *   unreaped zombie its pid, hence the group id, cannot be reused, so the kill cannot hit an
 *   unrelated group. Without pidfd (old kernels) a 10 ms waitid(WNOWAIT) tick stands in.
 * - SIGPIPE: the first start sets it to SIG_IGN if it is SIG_DFL (a process-wide change, made
 *   once), so a child that closes its stdin early yields EPIPE, which just ends the feeding. A
 *   handler installed by the caller is left alone. Children get SIG_DFL back (SETSIGDEF).
 * - Captures are read straight into their buffers up to the cap; past it into a scratch buffer
 *   that is dropped, so the child never blocks on a full pipe.
 * - After the child exits the pipes are drained to EOF, but for at most DRAIN_S: a descendant
 *   that left the group (setsid) may hold them open forever. What it wrote is not waited for.
 *
 * Refuses to: read or write anything but the three pipes; reap any pid but its own child
 * (adopted orphans are assay_proc_kill_orphans()'s job, orphans.c); send a signal to a group
 * whose leader it has already reaped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/proc.h"
#include "util/banned.h"

extern char **environ;

enum { ST_NEW = 0, ST_RUNNING, ST_REAPED, ST_DONE };

#define DRAIN_S 0.2          /* how long pipes may stay open after the child exited */
#define NOPIDFD_TICK_MS 10   /* exit check interval when the kernel has no pidfd */
#define READ_CHUNK 65536     /* one pipe's default capacity */
#define READS_PER_PUMP 8     /* so one noisy stream cannot starve the others */
#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd); /* no retry on EINTR: on Linux the descriptor is gone either way */
		*fd = -1;
	}
}

/* If assay runs with 0-2 closed, a pipe could land there and be clobbered by the dup2s. */
static int above_stderr(int *fd)
{
	if (*fd > 2)
		return 0;
	int moved = fcntl(*fd, F_DUPFD_CLOEXEC, 3);
	if (moved < 0)
		return -1;
	close(*fd);
	*fd = moved;
	return 0;
}

static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	if (above_stderr(&fds[0]) || above_stderr(&fds[1])) {
		close_fd(&fds[0]);
		close_fd(&fds[1]);
		return -1;
	}
	return 0;
}

static void ignore_sigpipe(void)
{
	static atomic_bool done;
	struct sigaction sa;

	/* Two threads racing here both install SIG_IGN, which is harmless. */
	if (atomic_load_explicit(&done, memory_order_relaxed))
		return;
	if (sigaction(SIGPIPE, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
	    sa.sa_handler == SIG_DFL) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_IGN;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGPIPE, &sa, NULL);
	}
	atomic_store_explicit(&done, true, memory_order_relaxed);
}

static bool names_var(const char *entry, const char *name, size_t len)
{
	return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

/*
 * The child's environment: pointers into environ and p->env, which outlive the spawn. NULL
 * means "environ as it is".
 */
static char **build_env(const assay_proc *p)
{
	size_t n = 0;
	char **v;

	if (!p->clear_env && !p->env.nr)
		return NULL;
	if (!p->clear_env && environ)
		while (environ[n])
			n++;
	v = assay_xmalloc((n + p->env.nr + 1) * sizeof(*v));
	if (n)
		memcpy(v, environ, n * sizeof(*v));
	for (size_t i = 0; i < p->env.nr; i++) {
		char *e = p->env.v[i];
		const char *eq = strchr(e, '=');
		size_t len = eq ? (size_t)(eq - e) : strlen(e);
		size_t kept = 0;

		for (size_t j = 0; j < n; j++)
			if (!names_var(v[j], e, len))
				v[kept++] = v[j];
		n = kept;
		if (eq)
			v[n++] = e;
	}
	v[n] = NULL;
	return v;
}

static const char *env_path(char *const *envp)
{
	for (; envp && *envp; envp++)
		if (names_var(*envp, "PATH", 4))
			return *envp + 5;
	return NULL;
}

struct spawn_ctx {
	const posix_spawn_file_actions_t *fa;
	const posix_spawnattr_t *attr;
	char *const *argv;
	char *const *envp;
	size_t argc;
};

/* One spawn of `file`; a file the kernel cannot exec is run by /bin/sh, as execvp does. */
static int spawn_file(pid_t *pid, const char *file, const struct spawn_ctx *c)
{
	int rc = posix_spawn(pid, file, c->fa, c->attr, c->argv, c->envp);

	if (rc != ENOEXEC)
		return rc;
	char **sh = assay_xmalloc((c->argc + 2) * sizeof(*sh));
	sh[0] = (char *)"/bin/sh";
	sh[1] = (char *)file;
	for (size_t i = 1; i <= c->argc; i++)
		sh[i + 1] = c->argv[i];
	rc = posix_spawn(pid, "/bin/sh", c->fa, c->attr, sh, c->envp);
	free(sh);
	return rc;
}

/* Why the child could not be started when no candidate was found: a bad cwd fails first. */
static int lookup_errno(const char *cwd, int fallback)
{
	struct stat st;

	if (!cwd)
		return fallback;
	if (stat(cwd, &st))
		return errno;
	return S_ISDIR(st.st_mode) ? fallback : ENOTDIR;
}

/* execvp's search, over the child's PATH, relative entries taken against the child's cwd. */
static int spawn_program(pid_t *pid, const char *prog, const char *cwd, const struct spawn_ctx *c)
{
	const char *path = env_path(c->envp);
	assay_buf cand = ASSAY_BUF_INIT, probe = ASSAY_BUF_INIT;
	int rc = ENOENT, saved = ENOENT;

	if (!*prog)
		return ENOENT;
	if (strchr(prog, '/'))
		return spawn_file(pid, prog, c);
	if (!path)
		path = DEFAULT_PATH;
	for (const char *dir = path;; dir++) {
		const char *end = strchrnul(dir, ':');
		const char *check;
		struct stat st;

		assay_buf_reset(&cand);
		if (end == dir)
			assay_buf_addch(&cand, '.');
		else
			assay_buf_add(&cand, dir, (size_t)(end - dir));
		assay_buf_addch(&cand, '/');
		assay_buf_adds(&cand, prog);
		check = cand.ptr;
		if (cwd && cand.ptr[0] != '/') {
			assay_buf_reset(&probe);
			assay_buf_addf(&probe, "%s/%s", cwd, cand.ptr);
			check = probe.ptr;
		}
		if (stat(check, &st) == 0) {
			if (S_ISREG(st.st_mode) && (st.st_mode & 0111)) {
				rc = spawn_file(pid, cand.ptr, c);
				if (rc != EACCES)
					goto out;
			}
			saved = EACCES;
		} else if (errno == EACCES) {
			saved = EACCES;
		}
		dir = end;
		if (!*dir)
			break;
	}
	rc = lookup_errno(cwd, saved);
out:
	assay_buf_release(&cand);
	assay_buf_release(&probe);
	return rc;
}

/* Failures that are assay's (resources), not the program's. */
static bool system_errno(int e)
{
	return e == EAGAIN || e == ENOMEM || e == EMFILE || e == ENFILE || e == ENOSYS;
}

static int spawn_error(assay_err *err, const char *what, int e)
{
	return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "cannot start process: %s: %s", what,
			     strerror(e));
}

/* F_SETFL ignores the access mode, and pipe2 set no other status flag: no F_GETFL needed. */
static int set_nonblock(int fd)
{
	return fcntl(fd, F_SETFL, O_NONBLOCK);
}

/* Used on paths where the child must not outlive the struct: kills the group, then reaps. */
static void kill_and_reap(assay_proc *p)
{
	if (p->state != ST_RUNNING)
		return;
	kill(-p->pid, SIGKILL);
	close_fd(&p->fd_in);
	close_fd(&p->fd_out);
	close_fd(&p->fd_err);
	close_fd(&p->fd_pid);
	while (wait4(p->pid, &p->wait_status, 0, &p->rusage) < 0 && errno == EINTR)
		;
	p->t_exit = now_s();
	p->state = ST_DONE;
}

int assay_proc_start(assay_proc *p, assay_err *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, errp[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	bool fa_ok = false, attr_ok = false;
	bool feed = p->stdin_data && p->stdin_len > 0;
	char **envp = NULL;
	sigset_t set;
	pid_t pid = -1;
	int rc = 0, e;

	if (!p->argv.nr)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "no program to run");
	if (p->state != ST_NEW)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "process already started");
	ignore_sigpipe();

	assay_buf_release(&p->out);
	assay_buf_init(&p->out, 0, p->out_cap ? p->out_cap : ASSAY_PROC_DEFAULT_CAP);
	assay_buf_release(&p->err);
	assay_buf_init(&p->err, 0, p->err_cap ? p->err_cap : ASSAY_PROC_DEFAULT_CAP);
	p->stdin_off = 0;
	p->timed_out = p->out_trunc = p->err_trunc = false;
	p->exec_errno = 0;
	p->wait_status = 0;
	memset(&p->rusage, 0, sizeof(p->rusage));

	if ((feed && make_pipe(in)) || make_pipe(out) || make_pipe(errp)) {
		rc = spawn_error(err, "pipe", errno);
		goto out;
	}
	if ((e = posix_spawn_file_actions_init(&fa))) {
		rc = spawn_error(err, "file actions", e);
		goto out;
	}
	fa_ok = true;
	if ((e = posix_spawnattr_init(&attr))) {
		rc = spawn_error(err, "attributes", e);
		goto out;
	}
	attr_ok = true;
	e = feed ? posix_spawn_file_actions_adddup2(&fa, in[0], 0)
		 : posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
	if (!e)
		e = posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	if (!e && p->cwd)
		e = posix_spawn_file_actions_addchdir_np(&fa, p->cwd);
	if (!e)
		e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
							    POSIX_SPAWN_SETSIGMASK);
	if (!e)
		e = posix_spawnattr_setpgroup(&attr, 0);
	if (!e) {
		sigfillset(&set);
		e = posix_spawnattr_setsigdefault(&attr, &set);
	}
	if (!e) {
		sigemptyset(&set);
		e = posix_spawnattr_setsigmask(&attr, &set);
	}
	if (e) {
		rc = spawn_error(err, "spawn setup", e);
		goto out;
	}

	envp = build_env(p);
	struct spawn_ctx c = { &fa, &attr, p->argv.v, envp ? envp : environ, p->argv.nr };
	p->t_start = now_s();
	e = spawn_program(&pid, p->argv.v[0], p->cwd, &c);
	if (e && system_errno(e)) {
		rc = spawn_error(err, p->argv.v[0], e);
		goto out;
	}
	if (e) {
		/* Data, not an error: assay_proc_finish() reports EXEC_FAILED. */
		p->exec_errno = e;
		p->t_exit = now_s();
		p->state = ST_DONE;
		goto out;
	}

	p->pid = pid;
	p->fd_in = in[1];
	p->fd_out = out[0];
	p->fd_err = errp[0];
	in[1] = out[0] = errp[0] = -1;
	if ((p->fd_in >= 0 && set_nonblock(p->fd_in)) || set_nonblock(p->fd_out) ||
	    set_nonblock(p->fd_err)) {
		/* Cannot happen on a pipe; if it does, do not leave a child behind. */
		rc = assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "cannot set up pipes: %s",
				   strerror(errno));
		p->state = ST_RUNNING;
		kill_and_reap(p);
		goto out;
	}
	p->fd_pid = (int)syscall(SYS_pidfd_open, pid, 0);
	p->t_deadline = p->timeout_s > 0 ? p->t_start + p->timeout_s : 0;
	p->t_kill = 0;
	p->state = ST_RUNNING;
out:
	free(envp);
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	if (attr_ok)
		posix_spawnattr_destroy(&attr);
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	return rc;
}

size_t assay_proc_pollfds(const assay_proc *p, struct pollfd *fds, size_t max)
{
	const int want[ASSAY_PROC_MAX_POLLFDS] = { p->fd_in, p->fd_out, p->fd_err,
						   p->state == ST_RUNNING ? p->fd_pid : -1 };
	const short events[ASSAY_PROC_MAX_POLLFDS] = { POLLOUT, POLLIN, POLLIN, POLLIN };
	size_t n = 0;

	if (p->state != ST_RUNNING && p->state != ST_REAPED)
		return 0;
	for (size_t i = 0; i < ASSAY_PROC_MAX_POLLFDS && n < max; i++) {
		if (want[i] < 0)
			continue;
		fds[n].fd = want[i];
		fds[n].events = events[i];
		fds[n].revents = 0;
		n++;
	}
	return n;
}

/* Rounded up, so that a poll() that sleeps this long wakes at or after `t`, never just before. */
static int ms_until(double t, double now)
{
	double d = (t - now) * 1000.0;
	int ms;

	if (d <= 0)
		return 0;
	if (d >= (double)INT_MAX)
		return INT_MAX;
	ms = (int)d;
	return ms < d ? ms + 1 : ms;
}

/* The monotonic time of the next timed action, 0 if none. */
static double next_action(const assay_proc *p)
{
	if (p->state == ST_RUNNING) {
		if (!p->timed_out)
			return p->t_deadline;
		return p->t_kill;
	}
	if (p->state == ST_REAPED)
		return p->t_drain;
	return 0;
}

int assay_proc_deadline_ms(const assay_proc *p)
{
	double t = next_action(p);
	int ms = t > 0 ? ms_until(t, now_s()) : -1;

	if (p->state == ST_RUNNING && p->fd_pid < 0 && (ms < 0 || ms > NOPIDFD_TICK_MS))
		ms = NOPIDFD_TICK_MS;
	return ms;
}

static int io_error(assay_err *err, const char *what, int e)
{
	return assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "cannot %s: %s", what, strerror(e));
}

static int write_stdin(assay_proc *p, assay_err *err)
{
	while (p->stdin_off < p->stdin_len) {
		size_t left = p->stdin_len - p->stdin_off;
		ssize_t n = write(p->fd_in, p->stdin_data + p->stdin_off, left);

		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			if (e == EAGAIN)
				return 0;
			if (e == EPIPE)
				break; /* the child closed its stdin: it has read all it wants */
			close_fd(&p->fd_in);
			return io_error(err, "write to the standard input of the process", e);
		}
		p->stdin_off += (size_t)n;
		if ((size_t)n < left)
			return 0; /* the pipe is full: wait for POLLOUT */
	}
	close_fd(&p->fd_in);
	return 0;
}

/*
 * Reads at most `rounds` chunks from `*fd` into `b` (up to its cap; past it into a scratch
 * buffer that is dropped), closing `*fd` at EOF. Stops early at a short read: the pipe is empty.
 */
static int read_capture(int *fd, assay_buf *b, bool *trunc, int rounds, assay_err *err)
{
	char sink[READ_CHUNK];

	while (rounds-- > 0) {
		size_t room = b->max > b->len ? b->max - b->len : 0;
		size_t want = room && room < READ_CHUNK ? room : READ_CHUNK;
		char *dst = sink;
		ssize_t n;

		if (room) {
			assay_buf_grow(b, want);
			dst = b->ptr + b->len;
		}
		n = read(*fd, dst, want);
		if (n < 0) {
			int e = errno;

			if (e == EINTR) {
				rounds++;
				continue;
			}
			if (e == EAGAIN)
				return 0;
			close_fd(fd);
			return io_error(err, "read the output of the process", e);
		}
		if (n == 0) {
			close_fd(fd);
			return 0;
		}
		if (room)
			assay_buf_setlen(b, b->len + (size_t)n);
		else
			*trunc = true;
		if ((size_t)n < want)
			return 0;
	}
	return 0;
}

/*
 * The child has exited (it is a zombie): SIGKILL its group while the zombie still pins the group
 * id, then reap it. Its stdin is closed; stdout and stderr drain until EOF or DRAIN_S.
 */
static int reap(assay_proc *p, assay_err *err)
{
	int rc = 0;

	kill(-p->pid, SIGKILL);
	for (;;) {
		pid_t r = wait4(p->pid, &p->wait_status, 0, &p->rusage);

		if (r == p->pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		/* ECHILD: someone else reaped it (SIGCHLD set to SIG_IGN, or waitpid(-1)). */
		rc = io_error(err, "wait for the process", errno);
		p->wait_status = 0;
		break;
	}
	p->t_exit = now_s();
	close_fd(&p->fd_pid);
	close_fd(&p->fd_in);
	p->t_drain = p->t_exit + DRAIN_S;
	p->state = ST_REAPED;
	return rc;
}

/* Without a pidfd: has the child exited? (WNOWAIT: it stays a zombie until reap().) */
static bool exited_nopidfd(const assay_proc *p)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		if (errno != EINTR)
			return true; /* let reap() report it */
	return si.si_pid == p->pid;
}

/* Applies the timed actions that are due. @return whether one was. */
static bool apply_timers(assay_proc *p, double now, assay_err *err)
{
	bool acted = false;

	if (p->state == ST_RUNNING) {
		if (!p->timed_out && p->t_deadline > 0 && now >= p->t_deadline) {
			p->timed_out = true;
			kill(-p->pid, SIGTERM);
			kill(-p->pid, SIGCONT); /* a stopped process could not act on SIGTERM */
			/* From now, not the deadline: a late pump still grants the full grace. */
			p->t_kill = now + (p->kill_grace_s > 0 ? p->kill_grace_s : 0);
			acted = true;
		}
		if (p->timed_out && p->t_kill > 0 && now >= p->t_kill) {
			kill(-p->pid, SIGKILL);
			p->t_kill = 0;
			acted = true;
		}
	} else if (p->state == ST_REAPED && now >= p->t_drain) {
		/* Keep what is already in the pipes, then stop waiting for whoever holds them. */
		if (p->fd_out >= 0)
			read_capture(&p->fd_out, &p->out, &p->out_trunc, 64, err);
		if (p->fd_err >= 0)
			read_capture(&p->fd_err, &p->err, &p->err_trunc, 64, err);
		close_fd(&p->fd_out);
		close_fd(&p->fd_err);
		acted = true;
	}
	return acted;
}

int assay_proc_pump(assay_proc *p, int wait_ms, bool *done, assay_err *err)
{
	double until = wait_ms > 0 ? now_s() + wait_ms / 1000.0 : 0;
	int rc = 0;

	if (done)
		*done = false;
	if (p->state == ST_NEW)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "process not started");
	while (p->state != ST_DONE) {
		struct pollfd fds[ASSAY_PROC_MAX_POLLFDS];
		size_t n = assay_proc_pollfds(p, fds, ASSAY_PROC_MAX_POLLFDS);
		int timeout = assay_proc_deadline_ms(p);
		bool acted;
		double now;
		int r;

		if (wait_ms == 0) {
			timeout = 0;
		} else if (wait_ms > 0) {
			int left = ms_until(until, now_s());
			if (timeout < 0 || left < timeout)
				timeout = left;
		}
		r = poll(fds, n, timeout);
		if (r < 0 && errno != EINTR)
			return io_error(err, "poll", errno);
		acted = r > 0;
		for (size_t i = 0; r > 0 && i < n && !rc; i++) {
			int fd = fds[i].fd;

			if (!fds[i].revents)
				continue;
			if (fd == p->fd_in)
				rc = write_stdin(p, err);
			else if (fd == p->fd_out)
				rc = read_capture(&p->fd_out, &p->out, &p->out_trunc,
						  READS_PER_PUMP, err);
			else if (fd == p->fd_err)
				rc = read_capture(&p->fd_err, &p->err, &p->err_trunc,
						  READS_PER_PUMP, err);
			else if (fd == p->fd_pid)
				rc = reap(p, err);
		}
		if (!rc && p->state == ST_RUNNING && p->fd_pid < 0 && exited_nopidfd(p)) {
			rc = reap(p, err);
			acted = true;
		}
		if (rc)
			return rc;
		now = now_s();
		if (apply_timers(p, now, err))
			acted = true;
		if (p->state == ST_REAPED && p->fd_out < 0 && p->fd_err < 0)
			p->state = ST_DONE;
		if (acted || wait_ms == 0 || (wait_ms > 0 && now >= until))
			break;
	}
	if (done)
		*done = p->state == ST_DONE;
	return 0;
}

int assay_proc_finish(assay_proc *p, assay_proc_result *out)
{
	int st = p->wait_status;

	if (p->state != ST_DONE)
		return ASSAY_EINVALID;
	memset(out, 0, sizeof(*out));
	out->wall_s = p->t_exit - p->t_start;
	out->out_truncated = p->out_trunc;
	out->err_truncated = p->err_trunc;
	if (p->exec_errno) {
		out->status = ASSAY_PROC_EXEC_FAILED;
		out->exec_errno = p->exec_errno;
		return 0;
	}
	out->cpu_user_s = (double)p->rusage.ru_utime.tv_sec + p->rusage.ru_utime.tv_usec / 1e6;
	out->cpu_sys_s = (double)p->rusage.ru_stime.tv_sec + p->rusage.ru_stime.tv_usec / 1e6;
	out->max_rss = (long long)p->rusage.ru_maxrss * 1024; /* Linux reports KiB */
	if (WIFSIGNALED(st))
		out->term_signal = WTERMSIG(st);
	else
		out->exit_code = WEXITSTATUS(st);
	if (p->timed_out) {
		out->status = ASSAY_PROC_TIMED_OUT;
		if (!WIFSIGNALED(st))
			out->term_signal = SIGTERM;
	} else {
		out->status = WIFSIGNALED(st) ? ASSAY_PROC_SIGNALED : ASSAY_PROC_EXITED;
	}
	return 0;
}

int assay_proc_run(assay_proc *p, assay_proc_result *out, assay_err *err)
{
	bool done = false;
	int rc = assay_proc_start(p, err);

	while (!rc && !done)
		rc = assay_proc_pump(p, -1, &done, err);
	return rc ? rc : assay_proc_finish(p, out);
}

void assay_proc_release(assay_proc *p)
{
	kill_and_reap(p);
	close_fd(&p->fd_in);
	close_fd(&p->fd_out);
	close_fd(&p->fd_err);
	close_fd(&p->fd_pid);
	assay_strvec_clear(&p->argv);
	assay_strvec_clear(&p->env);
	free(p->cwd);
	assay_buf_release(&p->out);
	assay_buf_release(&p->err);
	*p = (assay_proc)ASSAY_PROC_INIT;
}
