/*
 * Runs one untrusted program (proc.h): start its supervisor, pump stdin/stdout/stderr through
 * poll(), apply the timeout, read the supervisor's report, reap and report.
 *
 * Key decisions:
 * - Every case runs under the case supervisor (init/, started by spawn.c), sandbox or not: it is
 *   what makes the resource figures honest (a process spawned by assay itself inherits assay's
 *   peak RSS at exec) and what kills the case's leftover processes without assay becoming a
 *   subreaper or reaping anything but its own child. Cost, on the machine this was written on:
 *   one exec of the 17 KB supervisor and one fork, about 150 us (988 against 840 us for
 *   /bin/echo spawned bare); through this API, 1160 against 910 us (bench/sandbox.sh, medians).
 * - The supervisor's exit is watched through its report pipe (EOF once it has exited), then its
 *   pidfd (Linux >= 5.3) until it can be reaped, so nothing sleeps or polls on a clock; without
 *   a pidfd the reap blocks for the microseconds between closing and exiting.
 * - Timeout: SIGTERM to the supervisor, which forwards it to the program's group (or the whole
 *   PID namespace); after kill_grace_s, SIGUSR1, on which it kills the case. If it has not
 *   exited HARD_KILL_S later, SIGKILL to it: with the PID namespace that still kills the whole
 *   case; without, the case's processes may survive (reported as timed out with SIGKILL).
 *   Signals go to a pid that cannot have been reused: the supervisor is never reaped before.
 * - SIGPIPE: blocked in the calling thread only while writing standard input, and a SIGPIPE that
 *   write raised is consumed with sigtimedwait before unblocking (libpq's pq_block_sigpipe /
 *   pq_reset_sigpipe, src/interfaces/libpq/fe-secure.c), so a program that closes its stdin
 *   early yields EPIPE and the caller's dispositions are never touched.
 * - Captures are read straight into their buffers up to the cap; past it into a scratch buffer
 *   that is dropped, so the program never blocks on a full pipe. After the supervisor exits the
 *   pipes are drained to EOF, for at most DRAIN_S (every holder is dead by then, unless the
 *   supervisor had to be SIGKILLed without a PID namespace).
 *
 * Refuses to: read or write anything but its pipes; wait for or signal any process but the
 * supervisor it started; change a signal disposition, the subreaper flag or anything else
 * process-wide.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_int.h"
#include "util/banned.h"

/* ST_ARMED: gated, on a server, waiting for assay_proc_go() (its program not exec'd yet). */
enum { ST_NEW = 0, ST_RUNNING, ST_REPORTED, ST_REAPED, ST_DONE, ST_FAILED, ST_ARMED };

#define DRAIN_S 0.2          /* how long pipes may stay open after the supervisor exited */
#define HARD_KILL_S 2.0      /* how long the supervisor gets to obey "kill the case" */
#define RELEASE_WAIT_MS 2000 /* the same, when releasing a running case */
#define READ_CHUNK 65536     /* one pipe's default capacity */
#define READS_PER_PUMP 8     /* so one noisy stream cannot starve the others */
#define MIN_ARG_MAX 131072   /* the least ARG_MAX glibc and Linux give (32 pages of 4 KiB) */

_Static_assert(sizeof(struct assay_init_report) <= sizeof(((assay_proc *)0)->rep),
	       "the report does not fit assay_proc.rep");
_Static_assert(ASSAY_SANDBOX_USERNS == ASSAY_INIT_L_USERNS &&
		       ASSAY_SANDBOX_PIDNS == ASSAY_INIT_L_PIDNS &&
		       ASSAY_SANDBOX_LANDLOCK_FS == ASSAY_INIT_L_LANDLOCK_FS &&
		       ASSAY_SANDBOX_LANDLOCK_NET == ASSAY_INIT_L_LANDLOCK_NET &&
		       ASSAY_SANDBOX_LANDLOCK_SCOPE == ASSAY_INIT_L_LANDLOCK_SCOPE &&
		       ASSAY_SANDBOX_SECCOMP == ASSAY_INIT_L_SECCOMP &&
		       ASSAY_SANDBOX_NO_NEW_PRIVS == ASSAY_INIT_L_NO_NEW_PRIVS &&
		       ASSAY_SANDBOX_NLAYERS == ASSAY_INIT_NLAYERS,
	       "layer bits differ between proc.h and init/protocol.h");
_Static_assert(ASSAY_LIMIT_CPU == ASSAY_INIT_LIMIT_CPU &&
		       ASSAY_LIMIT_MEMORY == ASSAY_INIT_LIMIT_MEMORY &&
		       ASSAY_LIMIT_FILE_SIZE == ASSAY_INIT_LIMIT_FILE_SIZE &&
		       ASSAY_LIMIT_OPEN_FILES == ASSAY_INIT_LIMIT_OPEN_FILES &&
		       ASSAY_LIMIT_PROCESSES == ASSAY_INIT_LIMIT_PROCESSES,
	       "limit codes differ between proc.h and init/protocol.h");

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

/* A pipe whose ends are above 4: the supervisor's descriptors 0-4 are moved into place from
 * them, which must not clobber one another. */
static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	if (assay_proc__fd_high(&fds[0]) || assay_proc__fd_high(&fds[1])) {
		close_fd(&fds[0]);
		close_fd(&fds[1]);
		return -1;
	}
	return 0;
}

static int spawn_error(assay_err *err, const char *what, int e)
{
	return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "cannot start process: %s: %s", what,
			     strerror(e));
}

static int io_error(assay_err *err, const char *what, int e)
{
	return assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "cannot %s: %s", what, strerror(e));
}

/* F_SETFL ignores the access mode, and pipe2 set no other status flag: no F_GETFL needed. */
static int set_nonblock(int fd)
{
	return fcntl(fd, F_SETFL, O_NONBLOCK);
}

static void wait_supervisor(assay_proc *p)
{
	while (waitpid(p->pid, &p->wait_status, __WALL) < 0 && errno == EINTR)
		;
}

static void server_kill_case(assay_proc *p);
static const struct assay_init_report *report_of(const assay_proc *p);

static int write_stdin(assay_proc *p, assay_err *err);

/*
 * Slots: the places of the procs that run at once, numbered from 0, each held by the procs that
 * have it until they are released. A proc takes the lowest free one, or, following another
 * (assay_proc_follow), its leader's: the pool's next case takes the place of the one it
 * follows. A case is set up, and a gated case waits for its go, on the CPU of its slot
 * (init/protocol.h, -k), so that where a relay starts it is where the case before it ran, not a
 * CPU another case's program holds: a kernel that puts a waking process on the busy CPU had two
 * programs share one CPU while the other stood idle, for milliseconds. Only gated and relaying
 * procs take one: those are the pool's cases.
 */
#define SLOTS 64
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned slot_refs[SLOTS];

static void slot_take(assay_proc *p)
{
	unsigned s = 0;

	if (p->has_slot)
		return;
	pthread_mutex_lock(&slots_lock);
	if (p->leader && p->leader->has_slot)
		s = p->leader->slot;
	else
		while (s < SLOTS && slot_refs[s])
			s++;
	if (s < SLOTS) {
		slot_refs[s]++;
		p->slot = s;
		p->has_slot = true;
	}
	pthread_mutex_unlock(&slots_lock);
}

static void slot_give_back(assay_proc *p)
{
	if (!p->has_slot)
		return;
	pthread_mutex_lock(&slots_lock);
	slot_refs[p->slot]--;
	pthread_mutex_unlock(&slots_lock);
	p->has_slot = false;
}

/* Used where the case must not outlive the struct: asks the supervisor to kill the case, gives
 * it RELEASE_WAIT_MS to obey, then kills it, and reaps it. */
static void kill_and_reap(assay_proc *p)
{
	if (p->state == ST_ARMED) {
		close_fd(&p->fd_go); /* its end of file: the program never starts (protocol.h) */
		p->state = ST_RUNNING;
	}
	if (p->state != ST_RUNNING && p->state != ST_REPORTED)
		return;
	if (p->srv) {
		server_kill_case(p);
		return;
	}
	close_fd(&p->fd_in);
	close_fd(&p->fd_out);
	close_fd(&p->fd_err);
	close_fd(&p->fd_rep);
	kill(p->pid, SIGUSR1);
	if (p->fd_pid >= 0) {
		struct pollfd pfd = { p->fd_pid, POLLIN, 0 };
		double end = now_s() + RELEASE_WAIT_MS / 1000.0;
		int r;

		do
			r = poll(&pfd, 1, (int)((end - now_s()) * 1000) + 1);
		while (r < 0 && errno == EINTR && now_s() < end);
		if (r <= 0)
			kill(p->pid, SIGKILL);
	} else {
		kill(p->pid, SIGKILL);
	}
	close_fd(&p->fd_pid);
	wait_supervisor(p);
	assay_proc__cg_done(&p->cg, &p->cg_peak, &p->cg_oom);
	p->state = ST_DONE;
}

/* A command on the case's control pipe (init/protocol.h); a full or closed pipe is no matter:
 * the server then kills the case anyway, or SIGKILL to it follows. */
static void server_control(assay_proc *p, char cmd)
{
	if (p->fd_ctl >= 0)
		assay_proc__write_nosigpipe(p->fd_ctl, &cmd, 1);
}

/* A case on a server is abandoned: the server kills it (SIGUSR1) and reports once every process
 * of it is reaped; that report is awaited for RELEASE_WAIT_MS, after which the server is
 * SIGKILLed (with its PID namespace that kills the case) and dropped. */
static void server_kill_case(assay_proc *p)
{
	double end = now_s() + RELEASE_WAIT_MS / 1000.0;
	bool lost = true;

	close_fd(&p->fd_in);
	close_fd(&p->fd_out);
	close_fd(&p->fd_err);
	server_control(p, ASSAY_INIT_CTL_KILL);
	while (p->fd_rep >= 0 && p->rep_len < sizeof(p->rep)) {
		struct pollfd pfd = { p->fd_rep, POLLIN, 0 };
		ssize_t n;
		int r = poll(&pfd, 1, (int)((end - now_s()) * 1000) + 1);

		if (r < 0 && errno == EINTR && now_s() < end)
			continue;
		if (r <= 0)
			break;
		n = read(p->fd_rep, p->rep + p->rep_len, sizeof(p->rep) - p->rep_len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n > 0) {
			p->rep_len += (size_t)n;
			continue;
		}
		/* EOF: the server has reaped the case; a server that retired with it is exiting */
		const struct assay_init_report *rep = report_of(p);

		lost = n < 0 || !rep || rep->retired;
		break;
	}
	close_fd(&p->fd_rep);
	close_fd(&p->fd_ctl);
	assay_proc__server_done(p->servers, p->srv, lost, NULL);
	p->srv = NULL;
	p->state = ST_DONE;
}

/*
 * Sends the case to a server of p->servers, if one fits (`sp` says how a supervisor of its own
 * would be started). @return true when it runs there; false: start one of its own.
 */
static bool start_on_server(assay_proc *p, const struct assay_proc__spawn *sp, char **argv)
{
	int ctl[2] = { -1, -1 }, go[2] = { -1, -1 }, relay[2] = { -1, -1 };
	int fds[ASSAY_INIT_REQ_FDS_MAX] = { sp->in, sp->out, sp->err, sp->rep, -1, -1, -1 };
	int nfds = ASSAY_INIT_REQ_FDS;
	uint32_t flags = 0;
	bool sent = false;

	if (!p->servers)
		p->servers = assay_proc__servers_hook();
	if (!p->servers || !assay_proc__server_fits(argv, sp->envp))
		return false;
	if (p->gated && p->fd_go_r >= 0) {
		go[0] = p->fd_go_r; /* its predecessor's relay pipe (assay_proc_follow) */
		p->fd_go_r = -1;
	} else if (p->gated && make_pipe(go)) {
		return false;
	}
	/* a gated case's control pipe is its go pipe (protocol.h): one pipe less */
	if ((!p->gated && make_pipe(ctl)) || (p->relay && make_pipe(relay))) {
		close_fd(&ctl[0]);
		close_fd(&ctl[1]);
		close_fd(&go[0]);
		close_fd(&go[1]);
		return false;
	}
	fds[4] = p->gated ? go[0] : ctl[0];
	if (p->gated) {
		flags |= ASSAY_INIT_REQ_F_GATED;
		fds[nfds++] = go[0];
	}
	if (p->relay) {
		flags |= ASSAY_INIT_REQ_F_RELAY;
		fds[nfds++] = relay[1];
	}
	for (int tries = 0; tries < 2 && !sent; tries++) {
		struct assay_proc__server *srv;
		int e;

		if (assay_proc__server_acquire(p->servers, sp, p->sandbox.enabled, &srv, NULL))
			break;
		if (p->gated && p->sandbox.enabled && !assay_proc__server_isolated(srv)) {
			/* the sandbox without its namespaces (refused): the armed process would
			 * share the running case's PID namespace and uid, which could signal it */
			assay_proc__server_done(p->servers, srv, false, NULL);
			break;
		}
		p->t_start = p->t_armed = now_s();
		e = assay_proc__server_send(srv, argv, sp->envp, fds, nfds, flags);
		if (!e) {
			p->srv = srv;
			p->served = true;
			p->pid = assay_proc__server_pid(srv);
			p->fd_ctl = ctl[1]; /* gated: -1 until its go (assay_proc_go) */
			ctl[1] = -1;
			if (go[1] >= 0) { /* else it is already p->fd_go: a relay pipe's */
				p->fd_go = go[1];
				go[1] = -1;
			}
			p->fd_relay_r = relay[0];
			p->fd_relay_w = relay[1];
			relay[0] = relay[1] = -1;
			sent = true;
			break;
		}
		/* too big for a request: its own supervisor; else the server is gone: another */
		assay_proc__server_done(p->servers, srv, e != EMSGSIZE, NULL);
		if (e == EMSGSIZE)
			break;
	}
	close_fd(&ctl[0]);
	close_fd(&ctl[1]);
	close_fd(&go[0]);
	close_fd(&go[1]);
	close_fd(&relay[0]);
	close_fd(&relay[1]);
	return sent;
}

/*
 * Would execve refuse this argv and environment (E2BIG): one string longer than the kernel's
 * MAX_ARG_STRLEN (32 pages), or all of them with their pointers over ARG_MAX? A case's argument
 * of 250 KB otherwise failed the supervisor's exec, an error that ended the whole run.
 */
static bool too_big_to_exec(char *const *argv, char *const *envp)
{
	long page = sysconf(_SC_PAGESIZE), max;
	size_t total = 0;

	for (int k = 0; k < 2; k++)
		for (char *const *s = k ? envp : argv; s && *s; s++) {
			size_t n = strlen(*s) + 1;

			if (page > 0 && n > (size_t)page * 32)
				return true;
			total += n + sizeof(char *);
		}
	/* glibc's ARG_MAX is never below 128 KiB (its MAX(legacy ARG_MAX, stack limit / 4)), nor
	 * is the kernel's: below that, no getrlimit is needed to know */
	if (total <= MIN_ARG_MAX)
		return false;
	max = sysconf(_SC_ARG_MAX);
	return max > 0 && total > (size_t)max;
}

/* /dev/null, read-only, above 5 and close-on-exec: opened on first use and kept for the life of
 * the process (proc.h), so that a case without input costs no open and close of it. -1 (errno
 * set) if it cannot be opened; then the next case tries again. */
static int dev_null(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static int kept = -1;
	int fd;

	pthread_mutex_lock(&lock);
	if (kept < 0) {
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && assay_proc__fd_high(&fd)) {
			int e = errno;

			close(fd);
			errno = e;
			fd = -1;
		}
		kept = fd;
	}
	fd = kept;
	pthread_mutex_unlock(&lock);
	return fd;
}

/* Removes the case's memory cgroup, if it has one, its figures unread. */
static void cg_drop(assay_proc *p)
{
	long long peak;
	int ooms;

	assay_proc__cg_done(&p->cg, &peak, &ooms);
}

/*
 * A folder of the case's (proc.h cwd_make, tmp_make), for a case no server runs: made here,
 * empty, and given to the program's ids (as root). @return 0, or -1 with `*why` set.
 */
static int make_dir(const char *path, mode_t mode, const struct assay_proc__spawn *sp, int *why)
{
	if (mkdir(path, mode)) {
		*why = errno;
		return -1;
	}
	/* without following a link: one a case put in the folder's place gets the owner */
	if (sp->drop_root && fchownat(AT_FDCWD, path, (uid_t)sp->uid, (gid_t)sp->gid,
				      AT_SYMLINK_NOFOLLOW)) {
		*why = errno;
		rmdir(path);
		return -1;
	}
	return 0;
}

/* The case's folders to make, as a server would (init/serve.c make_dirs): @return 0, or -1
 * with p->cwd_errno or p->tmp_errno set (none is left made). */
static int make_dirs(assay_proc *p, const struct assay_proc__spawn *sp)
{
	bool cwd = p->sandbox.cwd_make && p->cwd;

	if (cwd && make_dir(p->cwd, 0755, sp, &p->cwd_errno))
		return -1;
	if (p->sandbox.tmp_make && p->sandbox.tmp_dir &&
	    make_dir(p->sandbox.tmp_dir, 0700, sp, &p->tmp_errno)) {
		if (cwd)
			rmdir(p->cwd);
		return -1;
	}
	return 0;
}

static int start(assay_proc *p, const char *mode, assay_err *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, errp[2] = { -1, -1 }, rep[2] = { -1, -1 };
	int devnull = -1, ns_errno = 0;
	bool feed = p->stdin_stream || (p->stdin_data && p->stdin_len > 0);
	assay_strvec argv = ASSAY_STRVEC_INIT;
	char **envp = NULL, *tmpdir_var = NULL;
	unsigned refuse = assay_proc__refuse_hook();
	struct assay_proc__spawn sp;
	pid_t pid = -1;
	int rc = 0;

	assay_buf_release(&p->out);
	assay_buf_init(&p->out, 0, p->out_cap ? p->out_cap : ASSAY_PROC_DEFAULT_CAP);
	assay_buf_release(&p->err);
	assay_buf_init(&p->err, 0, p->err_cap ? p->err_cap : ASSAY_PROC_DEFAULT_CAP);
	p->stdin_off = 0;
	p->timed_out = p->out_trunc = p->err_trunc = p->hard_killed = p->served = p->died = false;
	p->never_started = false;
	p->exec_errno = 0;
	p->tmp_errno = 0;
	p->cwd_errno = 0;
	p->wait_status = 0;
	p->rep_len = 0;
	p->cg_peak = 0;
	p->cg_oom = 0;
	if (!p->cg && (rc = assay_proc__cg_make(p->limits.memory_bytes, &p->cg, err)))
		return rc;

	if (feed) {
		if (make_pipe(in)) {
			rc = spawn_error(err, "pipe", errno);
			goto out;
		}
	} else {
		devnull = dev_null(); /* kept: never closed here */
		if (devnull < 0) {
			rc = spawn_error(err, "/dev/null", errno);
			goto out;
		}
	}
	if (make_pipe(out) || make_pipe(errp) || make_pipe(rep)) {
		rc = spawn_error(err, "pipe", errno);
		goto out;
	}

	envp = assay_proc__build_env(p, &tmpdir_var);
	/* only a case of the pool (armed, or one a follower may take the place of): a process
	 * that is none (a persistent verifier, an api adapter's server) would hold a slot for as
	 * long as it lives and push the cases' places past the CPUs, two to one CPU */
	if (p->gated || p->relay)
		slot_take(p);
	assay_proc__init_argv(p, envp, mode, refuse, &argv);
	memset(&sp, 0, sizeof(sp));
	sp.argv = argv.v;
	sp.envp = envp;
	sp.in = feed ? in[0] : devnull;
	sp.out = out[1];
	sp.err = errp[1];
	sp.rep = rep[1];
	sp.cg = p->cg;
	if (p->sandbox.enabled) {
		uid_t uid;
		gid_t gid;

		sp.filter_flags = ASSAY_INIT_F_SANDBOX | (p->sandbox.network ? 0 : ASSAY_INIT_F_NO_NET);
		sp.refuse = refuse;
		sp.tcp_port = p->sandbox.network ? 0 : p->sandbox.tcp_port;
		if (refuse & (ASSAY_SANDBOX_USERNS | ASSAY_SANDBOX_PIDNS))
			sp.ns_errno = EPERM; /* the ASSAY_SANDBOX_REFUSE test hook */
		else
			sp.namespaces = true;
		if (assay_proc__case_ids(&p->sandbox, &uid, &gid)) {
			sp.drop_root = true;
			sp.uid = uid;
			sp.gid = gid;
			if ((rc = assay_proc__hand_over(p, sp.uid, sp.gid, err)))
				goto out;
		}
	}
	if (too_big_to_exec(argv.v, envp)) {
		/* as execve would say: the program's failure to start, not the caller's */
		cg_drop(p);
		p->exec_errno = E2BIG;
		p->never_started = true;
		p->t_start = now_s();
		p->state = ST_DONE;
		goto out;
	}
	if (!p->cg && !strcmp(mode, "run") && start_on_server(p, &sp, argv.v)) {
		pid = p->pid;
	} else if (p->gated) {
		/* no server to prepare it: nothing starts until go, which starts it whole */
		cg_drop(p);
		p->deferred = true;
		goto out;
	} else if (make_dirs(p, &sp)) {
		/* as a server would report it: the case's failure, before its program */
		cg_drop(p);
		p->exec_errno = p->cwd_errno ? p->cwd_errno : p->tmp_errno;
		p->never_started = true;
		p->t_start = now_s();
		p->state = ST_DONE;
		goto out;
	} else {
		p->t_start = now_s();
		if ((rc = assay_proc__spawn(&sp, &pid, &ns_errno, err)))
			goto out;
	}

	p->pid = pid;
	p->fd_in = in[1];
	p->fd_out = out[0];
	p->fd_err = errp[0];
	p->fd_rep = rep[0];
	in[1] = out[0] = errp[0] = rep[0] = -1;
	if ((p->fd_in >= 0 && set_nonblock(p->fd_in)) || set_nonblock(p->fd_out) ||
	    set_nonblock(p->fd_err) || set_nonblock(p->fd_rep)) {
		/* Cannot happen on a pipe; if it does, do not leave a case behind. */
		rc = assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "cannot set up pipes: %s",
				   strerror(errno));
		p->state = ST_RUNNING;
		kill_and_reap(p);
		goto out;
	}
	/* The input is in its pipe before the program starts, as much as the pipe holds (the
	 * rest on POLLOUT): a program an armed case's relay starts (proc.h, assay_proc_follow)
	 * reads it at once, not once this process has woken and seen the go. */
	if (p->fd_in >= 0 && !p->stdin_stream && (rc = write_stdin(p, err))) {
		p->state = ST_RUNNING;
		kill_and_reap(p);
		goto out;
	}
	/* always close-on-exec; none for a server: the case ends with its report */
	p->fd_pid = p->srv ? -1 : (int)syscall(SYS_pidfd_open, pid, 0);
	p->t_deadline = p->timeout_s > 0 ? p->t_start + p->timeout_s : 0;
	p->t_kill = p->t_hard = 0;
	p->state = p->gated ? ST_ARMED : ST_RUNNING; /* gated here: on a server */
	if (p->gated)
		p->t_deadline = 0; /* from go */
out:
	free(envp);
	free(tmpdir_var);
	assay_strvec_clear(&argv);
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	close_fd(&rep[0]);
	close_fd(&rep[1]);
	if (rc && p->state != ST_DONE)
		cg_drop(p);
	return rc;
}

int assay_proc_start(assay_proc *p, assay_err *err)
{
	if (!p->argv.nr)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "no program to run");
	if (p->state != ST_NEW)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "process already started");
	return start(p, "run", err);
}

/* When relayed proc `p`'s program started: at the relay, or, when the relay came before `p`
 * was armed (its leader ended before assay armed it, as while assay verified a big case), at
 * its arming, when its process found the go waiting. Not earlier: its timeout would have run
 * out before it started (a quick case reported timed out after 2 ms). */
static double relayed_start(const assay_proc *p)
{
	return p->go_relayed_s > p->t_armed ? p->go_relayed_s : p->t_armed;
}

int assay_proc_go(assay_proc *p, assay_err *err)
{
	struct timespec ts;
	char go = 1;

	if (p->deferred) {
		p->deferred = false;
		p->gated = false;
		close_fd(&p->fd_go_r); /* a predecessor's relay pipe, unused */
		close_fd(&p->fd_go);
		return start(p, "run", err);
	}
	if (p->state != ST_ARMED)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	p->t_start = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	/* a relayed start was earlier: its timeout counts from there, not from this call */
	if (p->go_relayed && p->go_relayed_s > 0 && p->go_relayed_s < p->t_start)
		p->t_start = relayed_start(p);
	p->t_deadline = p->timeout_s > 0 ? p->t_start + p->timeout_s : 0;
	p->state = ST_RUNNING;
	/* a closed pipe (its server or the case died meanwhile) is no matter: the report says. Not
	 * written when its leader's server wrote it already (relayed): the byte is in the pipe,
	 * or taken, before the end of file this close makes, so the program starts all the same */
	if (!p->go_relayed)
		assay_proc__write_nosigpipe(p->fd_go, &go, 1);
	/* on a server the go pipe is the case's control pipe from now on (protocol.h) */
	if (p->srv && p->fd_ctl < 0) {
		p->fd_ctl = p->fd_go;
		p->fd_go = -1;
	}
	close_fd(&p->fd_go);
	return 0;
}

/* The report of `p` is read: if its server wrote the go of the proc following it (relayed),
 * that proc's go need not write it again. */
static void note_relayed(assay_proc *p)
{
	const struct assay_init_report *r = report_of(p);

	if (p->follower && r && r->relayed) {
		assay_proc *f = p->follower;
		double early;

		f->go_relayed = true;
		f->go_relayed_s = (double)r->t_relay_ns / 1e9;
		/* already let go by assay too (at -jN another case may end first, and assay lets
		 * the armed case go into its slot before this report is read): it started at the
		 * relay, and its timeout counts from there, not from that go */
		early = f->t_start - relayed_start(f);
		if (f->state == ST_RUNNING && f->go_relayed_s > 0 && early > 0) {
			f->t_start -= early;
			if (f->t_deadline > 0)
				f->t_deadline -= early;
		}
	}
}

void assay_proc_follow(assay_proc *next, assay_proc *prev)
{
	if (prev->fd_relay_r < 0 || next->state != ST_NEW || next->deferred || !next->gated ||
	    next->fd_go_r >= 0 || next->fd_go >= 0)
		return;
	next->fd_go_r = prev->fd_relay_r;
	next->fd_go = prev->fd_relay_w;
	prev->fd_relay_r = prev->fd_relay_w = -1;
	/* linked until either is released */
	if (prev->follower)
		prev->follower->leader = NULL;
	prev->follower = next;
	next->leader = prev;
	if (prev->state == ST_REPORTED || prev->state == ST_REAPED || prev->state == ST_DONE)
		note_relayed(prev); /* its report is whole: read to its end of file */
}

size_t assay_proc_pollfds(const assay_proc *p, struct pollfd *fds, size_t max)
{
	int watch = p->fd_rep >= 0 ? p->fd_rep : (p->state == ST_REPORTED ? p->fd_pid : -1);
	/* stdin only while bytes wait (a stream's pipe stays open between writes) */
	int in = p->stdin_off < p->stdin_len ? p->fd_in : -1;
	const int want[ASSAY_PROC_MAX_POLLFDS] = { in, p->fd_out, p->fd_err, watch };
	const short events[ASSAY_PROC_MAX_POLLFDS] = { POLLOUT, POLLIN, POLLIN, POLLIN };
	size_t n = 0;

	if (p->state != ST_RUNNING && p->state != ST_REPORTED && p->state != ST_REAPED)
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
	if (p->state == ST_RUNNING || p->state == ST_REPORTED) {
		if (!p->timed_out)
			return p->t_deadline;
		return p->t_kill ? p->t_kill : p->t_hard;
	}
	if (p->state == ST_REAPED)
		return p->t_drain;
	return 0;
}

int assay_proc_deadline_ms(const assay_proc *p)
{
	double t = next_action(p);

	return t > 0 ? ms_until(t, now_s()) : -1;
}

/*
 * Blocks SIGPIPE in this thread around one write (libpq's technique): a SIGPIPE already pending
 * before is left alone; one the write raised is consumed before the old mask returns.
 */
ssize_t assay_proc__write_nosigpipe(int fd, const void *buf, size_t len)
{
	sigset_t pipe_set, old, pending;
	bool was_pending = false;
	ssize_t n;
	int e;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	if (pthread_sigmask(SIG_BLOCK, &pipe_set, &old))
		return write(fd, buf, len);
	if (sigismember(&old, SIGPIPE) && sigpending(&pending) == 0)
		was_pending = sigismember(&pending, SIGPIPE);
	n = write(fd, buf, len);
	e = errno;
	if (n < 0 && e == EPIPE && !was_pending) {
		struct timespec zero = { 0, 0 };

		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return n;
}

static int write_stdin(assay_proc *p, assay_err *err)
{
	while (p->stdin_off < p->stdin_len) {
		size_t left = p->stdin_len - p->stdin_off;
		ssize_t n = assay_proc__write_nosigpipe(p->fd_in, p->stdin_data + p->stdin_off, left);

		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			if (e == EAGAIN)
				return 0;
			if (e == EPIPE)
				break; /* the program closed its stdin: it has read all it wants */
			close_fd(&p->fd_in);
			return io_error(err, "write to the standard input of the process", e);
		}
		p->stdin_off += (size_t)n;
		if ((size_t)n < left)
			return 0; /* the pipe is full: wait for POLLOUT */
	}
	if (!p->stdin_stream || p->stdin_off < p->stdin_len)
		close_fd(&p->fd_in); /* all written, or the program closed its end */
	return 0;
}

int assay_proc_write_stdin(assay_proc *p, const char *data, size_t len, assay_err *err)
{
	if (!p->stdin_stream || p->fd_in < 0)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the standard input of the process is closed");
	if (p->stdin_off < p->stdin_len)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the bytes given before are not all written yet");
	p->stdin_data = data;
	p->stdin_len = len;
	p->stdin_off = 0;
	return write_stdin(p, err);
}

size_t assay_proc_stdin_pending(const assay_proc *p)
{
	return p->fd_in >= 0 ? p->stdin_len - p->stdin_off : 0;
}

void assay_proc_close_stdin(assay_proc *p)
{
	close_fd(&p->fd_in);
}

/* Reads what capture `fd` holds, at most `rounds` reads, into `b` (to its cap; the rest is
 * dropped, `*trunc` set), closing `*fd` at EOF; a short read stops it (the pipe is empty).
 * `hup`: poll said the pipe has no writer left, so a short read has taken all there will be:
 * the pipe is closed then, without a read and a poll more to see its end of file. */
static int read_capture(int *fd, assay_buf *b, bool *trunc, int rounds, bool hup, assay_err *err)
{
	char sink[READ_CHUNK];

	while (rounds-- > 0) {
		size_t room = b->max > b->len ? b->max - b->len : 0;
		size_t want = room && room < READ_CHUNK ? room : READ_CHUNK;
		char *dst = sink;
		ssize_t n;

		/* the first read goes to the stack and is copied at its size: most outputs are
		 * small, and a READ_CHUNK allocation per capture costs more than the copy */
		if (room && b->len) {
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
		if (room && dst == sink)
			assay_buf_add(b, sink, (size_t)n);
		else if (room)
			assay_buf_setlen(b, b->len + (size_t)n);
		else
			*trunc = true;
		if ((size_t)n < want) {
			if (hup)
				close_fd(fd);
			return 0;
		}
	}
	return 0;
}

static const struct assay_init_report *report_of(const assay_proc *p)
{
	const struct assay_init_report *r = (const void *)p->rep;

	if (p->rep_len != sizeof(*r) || r->magic != ASSAY_INIT_MAGIC || r->size != sizeof(*r))
		return NULL;
	return r;
}

/* The first refused layer, for messages. */
static unsigned first_layer(unsigned mask)
{
	return mask & -mask;
}

static int layer_index(unsigned layer)
{
	int i = 0;

	while (layer > 1) {
		layer >>= 1;
		i++;
	}
	return i;
}

/* The supervisor is reaped: was its work done? @return 0 or ASSAY_ESPAWN (`err`). */
static int check_report(assay_proc *p, assay_err *err)
{
	const struct assay_init_report *r = report_of(p);
	int st = p->wait_status;

	if (!r) {
		if (p->hard_killed || p->cg_oom)
			return 0; /* finish() reports the timeout, or the memory limit */
		p->died = !p->rep_len;
		if (p->rep_len)
			return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
					     "the case supervisor's report is garbled (%zu bytes): "
					     "something else wrote to its pipe",
					     p->rep_len);
		if (WIFSIGNALED(st))
			return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
					     "the case %s was killed by signal %d",
					     p->served ? "server" : "supervisor", WTERMSIG(st));
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "the case %s exited (%d) without a report",
				     p->served ? "server" : "supervisor", WEXITSTATUS(st));
	}
	switch (r->failure) {
	case 0:
		return 0;
	case ASSAY_INIT_FAIL_REQUIRED: {
		unsigned layer = first_layer(r->refused);
		int e = layer ? r->refused_errno[layer_index(layer)] : 0;

		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "the sandbox is required, but the kernel refused %s: %s",
				     assay_sandbox_layer_name(layer), strerror(e ? e : EPERM));
	}
	case ASSAY_INIT_FAIL_USAGE:
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "the case supervisor refused its arguments");
	default:
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0,
				     "the case supervisor failed: %s", strerror(r->fail_errno));
	}
}

static int reap(assay_proc *p, assay_err *err)
{
	if (p->srv) {
		/* the case is over, all of it reaped; no report: the server died; a report that
		 * says it retired (its case changed what it passes on): it is exiting */
		const struct assay_init_report *r = report_of(p);
		bool lost = !r || r->retired;

		p->wait_status = 0;
		close_fd(&p->fd_ctl);
		assay_proc__server_done(p->servers, p->srv, lost, &p->wait_status);
		p->srv = NULL;
	} else {
		wait_supervisor(p);
	}
	assay_proc__cg_done(&p->cg, &p->cg_peak, &p->cg_oom);
	close_fd(&p->fd_pid);
	close_fd(&p->fd_in);
	p->t_drain = now_s() + DRAIN_S;
	p->state = ST_REAPED;
	return check_report(p, err);
}

/* The report pipe is readable: take the report, and at EOF reap the supervisor if it is gone. */
static int read_report(assay_proc *p, assay_err *err)
{
	for (;;) {
		ssize_t n = read(p->fd_rep, p->rep + p->rep_len, sizeof(p->rep) - p->rep_len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n > 0) {
			p->rep_len += (size_t)n;
			/* a server's whole report is the case's end (it is written once every process
			 * of the case is reaped): its close that follows need not be waited for. Not
			 * without the sandbox, where root's program can reach the pipe and write a
			 * report first: the server's after it makes the whole garbled (refused). */
			if (p->srv && p->sandbox.enabled &&
			    p->rep_len == sizeof(struct assay_init_report))
				break;
			if (p->rep_len < sizeof(p->rep))
				continue;
			/* More than a report: not from our supervisor. Stop reading. */
		}
		break;
	}
	/* EOF (or an error, or garbage): the supervisor has closed the pipe, so it is exiting. */
	close_fd(&p->fd_rep);
	p->state = ST_REPORTED;
	note_relayed(p);
	if (p->srv)
		return reap(p, err);
	if (p->fd_pid >= 0) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
		    si.si_pid != p->pid)
			return 0; /* not yet: the pidfd says when */
	}
	return reap(p, err);
}

/* Applies the timed actions that are due. @return whether one was. */
static bool apply_timers(assay_proc *p, double now, assay_err *err)
{
	bool acted = false;

	if (p->state == ST_RUNNING || p->state == ST_REPORTED) {
		if (!p->timed_out && p->t_deadline > 0 && now >= p->t_deadline) {
			p->timed_out = true;
			if (p->srv)
				server_control(p, ASSAY_INIT_CTL_TERM);
			else
				kill(p->pid, SIGTERM);
			/* From now, not the deadline: a late pump still grants the full grace. */
			p->t_kill = now + (p->kill_grace_s > 0 ? p->kill_grace_s : 0);
			acted = true;
		}
		if (p->timed_out && p->t_kill > 0 && now >= p->t_kill) {
			if (p->srv)
				server_control(p, ASSAY_INIT_CTL_KILL);
			else
				kill(p->pid, SIGUSR1);
			p->t_kill = 0;
			p->t_hard = now + HARD_KILL_S;
			acted = true;
		}
		if (p->t_hard > 0 && now >= p->t_hard) {
			kill(p->pid, SIGKILL);
			p->hard_killed = true;
			p->t_hard = 0;
			acted = true;
		}
	} else if (p->state == ST_REAPED && now >= p->t_drain) {
		/* Keep what is already in the pipes, then stop waiting for whoever holds them. */
		if (p->fd_out >= 0)
			read_capture(&p->fd_out, &p->out, &p->out_trunc, 64, false, err);
		if (p->fd_err >= 0)
			read_capture(&p->fd_err, &p->err, &p->err_trunc, 64, false, err);
		close_fd(&p->fd_out);
		close_fd(&p->fd_err);
		acted = true;
	}
	return acted;
}

void assay_proc_extend(assay_proc *p, double seconds)
{
	if (!(seconds > 0))
		return;
	if (p->state == ST_RUNNING || p->state == ST_REPORTED) {
		if (!p->timed_out && p->t_deadline > 0)
			p->t_deadline += seconds;
		if (p->t_kill > 0)
			p->t_kill += seconds;
		if (p->t_hard > 0)
			p->t_hard += seconds;
	} else if (p->state == ST_REAPED) {
		p->t_drain += seconds;
	}
}

/* Acts on the descriptors of `fds` (`n`) that poll() said are ready: stdin written, captures
 * read, the report read, the supervisor reaped. Entries that are no longer the process's
 * descriptors are passed over. @return 0 or as assay_proc_pump(). */
static int on_ready(assay_proc *p, const struct pollfd *fds, size_t n, assay_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		int fd = fds[i].fd;

		if (!fds[i].revents || fd < 0)
			continue;
		if (fd == p->fd_in)
			rc = write_stdin(p, err);
		else if (fd == p->fd_out)
			rc = read_capture(&p->fd_out, &p->out, &p->out_trunc, READS_PER_PUMP,
					  fds[i].revents & POLLHUP, err);
		else if (fd == p->fd_err)
			rc = read_capture(&p->fd_err, &p->err, &p->err_trunc, READS_PER_PUMP,
					  fds[i].revents & POLLHUP, err);
		else if (fd == p->fd_rep)
			rc = read_report(p, err);
		else if (fd == p->fd_pid && p->state == ST_REPORTED)
			rc = reap(p, err);
	}
	return rc;
}

/* The checks every pump makes first. @return 1: go on; else what the pump returns. */
static int pump_begin(assay_proc *p, bool *done, assay_err *err)
{
	if (done)
		*done = false;
	if (p->state == ST_ARMED || p->deferred)
		return 0; /* nothing moves before go */
	if (p->state == ST_NEW)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "process not started");
	if (p->state == ST_FAILED)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "the process failed");
	return 1;
}

/* The supervisor is reaped and the pump failed: nothing of the case is left to wait for. */
static int pump_failed(assay_proc *p, int rc)
{
	close_fd(&p->fd_out);
	close_fd(&p->fd_err);
	p->state = ST_FAILED;
	return rc;
}

int assay_proc_pump_polled(assay_proc *p, const struct pollfd *fds, size_t n, bool *done,
			   assay_err *err)
{
	int rc = pump_begin(p, done, err);

	if (rc != 1)
		return rc;
	if (p->state != ST_DONE) {
		if (p->state == ST_REPORTED && p->fd_pid < 0 && (rc = reap(p, err)))
			return pump_failed(p, rc); /* no pidfd: it is exiting, the wait is short */
		if ((rc = on_ready(p, fds, n, err)))
			return p->state == ST_REAPED ? pump_failed(p, rc) : rc;
		apply_timers(p, now_s(), err);
		if (p->state == ST_REAPED && p->fd_out < 0 && p->fd_err < 0)
			p->state = ST_DONE;
	}
	if (done)
		*done = p->state == ST_DONE;
	return 0;
}

int assay_proc_pump(assay_proc *p, int wait_ms, bool *done, assay_err *err)
{
	double until = wait_ms > 0 ? now_s() + wait_ms / 1000.0 : 0;
	int rc = pump_begin(p, done, err);

	if (rc != 1)
		return rc;
	rc = 0;
	while (p->state != ST_DONE) {
		struct pollfd fds[ASSAY_PROC_MAX_POLLFDS];
		size_t n = assay_proc_pollfds(p, fds, ASSAY_PROC_MAX_POLLFDS);
		int timeout = assay_proc_deadline_ms(p);
		bool acted;
		double now;
		int r;

		if (p->state == ST_REPORTED && p->fd_pid < 0) {
			rc = reap(p, err); /* no pidfd: it is exiting, a blocking wait is short */
			if (rc)
				goto failed;
			continue;
		}
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
		if (r > 0)
			rc = on_ready(p, fds, n, err);
		if (rc) {
			if (p->state == ST_REAPED)
				goto failed;
			return rc;
		}
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
failed:
	return pump_failed(p, rc);
}

int assay_proc_finish(assay_proc *p, assay_proc_result *out)
{
	const struct assay_init_report *r = report_of(p);
	int st;

	if (p->state != ST_DONE)
		return ASSAY_EINVALID;
	memset(out, 0, sizeof(*out));
	out->tmp_errno = p->tmp_errno;
	out->cwd_errno = p->cwd_errno;
	if (r && p->served) { /* a server's -C and -t (init/protocol.h) */
		out->tmp_removed = r->tmp_removed != 0;
		out->cwd_removed = r->cwd_removed != 0;
		if (r->tmp_errno)
			out->tmp_errno = r->tmp_errno;
		if (r->cwd_errno)
			out->cwd_errno = r->cwd_errno;
	}
	if (p->never_started) {
		out->status = ASSAY_PROC_EXEC_FAILED;
		out->exec_errno = p->exec_errno;
		return 0;
	}
	out->out_truncated = p->out_trunc;
	out->err_truncated = p->err_trunc;
	if (!r && p->cg_oom && !p->hard_killed) {
		/* The kernel's OOM kill in the case's cgroup took the supervisor too. */
		out->status = ASSAY_PROC_SIGNALED;
		out->term_signal = SIGKILL;
		out->limit = ASSAY_LIMIT_MEMORY;
		out->max_rss = p->cg_peak;
		out->wall_s = now_s() - p->t_start;
		return 0;
	}
	if (!r) {
		/* Only after a timeout the supervisor did not obey: SIGKILLed, no figures. A case
		 * may have brought that about (it stopped its supervisor): as a death, it fails */
		out->status = ASSAY_PROC_TIMED_OUT;
		out->term_signal = SIGKILL;
		out->limit = ASSAY_LIMIT_WALL;
		out->supervisor_died = true;
		out->wall_s = now_s() - p->t_start;
		return 0;
	}
	st = r->wait_status;
	/* a gated case's t_start_ns is its go's, not its fork's (protocol.h) */
	out->wall_s = (double)(r->t_exit_ns - r->t_start_ns) / 1e9;
	out->start_s = (double)r->t_start_ns / 1e9;
	out->end_s = (double)(r->t_done_ns > r->t_exit_ns ? r->t_done_ns : r->t_exit_ns) / 1e9;
	out->sandbox_applied = r->applied;
	out->sandbox_refused = r->refused;
	out->limit = (assay_limit)r->limit;
	if (r->exec_errno) {
		out->status = ASSAY_PROC_EXEC_FAILED;
		out->exec_errno = r->exec_errno;
		return 0;
	}
	out->cpu_user_s = (double)r->utime_us / 1e6;
	out->cpu_sys_s = (double)r->stime_us / 1e6;
	out->max_rss = (long long)r->maxrss_kb * 1024; /* Linux reports KiB */
	if (p->cg_peak > out->max_rss)
		out->max_rss = p->cg_peak; /* shared and memfd pages count too */
	if (p->cg_oom && (out->limit == ASSAY_LIMIT_NONE || out->limit == ASSAY_LIMIT_WALL))
		out->limit = ASSAY_LIMIT_MEMORY;
	if (WIFSIGNALED(st))
		out->term_signal = WTERMSIG(st);
	else
		out->exit_code = WEXITSTATUS(st);
	if (p->timed_out) {
		out->status = ASSAY_PROC_TIMED_OUT;
		if (!WIFSIGNALED(st))
			out->term_signal = SIGTERM;
		if (out->limit == ASSAY_LIMIT_NONE)
			out->limit = ASSAY_LIMIT_WALL;
	} else {
		out->status = WIFSIGNALED(st) ? ASSAY_PROC_SIGNALED : ASSAY_PROC_EXITED;
	}
	/* A shell between assay and the process that hit a limit exits with 128 + its signal. */
	if (out->limit == ASSAY_LIMIT_NONE && out->status == ASSAY_PROC_EXITED) {
		if (out->exit_code == 128 + SIGXFSZ && p->limits.file_size_bytes > 0)
			out->limit = ASSAY_LIMIT_FILE_SIZE;
		else if (out->exit_code == 128 + SIGXCPU && p->limits.cpu_s > 0)
			out->limit = ASSAY_LIMIT_CPU;
	}
	return 0;
}

int assay_proc_run(assay_proc *p, assay_proc_result *out, assay_err *err)
{
	bool done = false;
	int rc = assay_proc_start(p, err);

	if (!rc)
		rc = assay_proc_go(p, err);
	while (!rc && !done)
		rc = assay_proc_pump(p, -1, &done, err);
	return rc ? rc : assay_proc_finish(p, out);
}

void assay_proc_release(assay_proc *p)
{
	if (p->follower)
		p->follower->leader = NULL;
	if (p->leader)
		p->leader->follower = NULL;
	kill_and_reap(p);
	cg_drop(p);
	close_fd(&p->fd_in);
	close_fd(&p->fd_out);
	close_fd(&p->fd_err);
	close_fd(&p->fd_rep);
	close_fd(&p->fd_pid);
	close_fd(&p->fd_ctl);
	close_fd(&p->fd_go);
	close_fd(&p->fd_go_r);
	close_fd(&p->fd_relay_r);
	close_fd(&p->fd_relay_w);
	assay_strvec_clear(&p->argv);
	assay_strvec_clear(&p->env);
	free(p->cwd);
	assay_buf_release(&p->out);
	assay_buf_release(&p->err);
	slot_give_back(p);
	*p = (assay_proc)ASSAY_PROC_INIT;
}

int assay_sandbox_probe(assay_sandbox_report *out, assay_err *err)
{
	assay_proc p = ASSAY_PROC_INIT;
	const struct assay_init_report *r = NULL;
	bool done = false;
	int rc;

	memset(out, 0, sizeof(*out));
	p.sandbox.enabled = true;
	rc = start(&p, "probe", err);
	while (!rc && !done)
		rc = assay_proc_pump(&p, -1, &done, err);
	if (!rc && !(r = report_of(&p)))
		rc = assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "the sandbox probe did not report");
	if (!rc) {
		out->granted = r->applied;
		out->refused = r->refused;
		for (int i = 0; i < ASSAY_SANDBOX_NLAYERS; i++)
			out->refused_errno[i] = r->refused_errno[i];
		out->landlock_abi = r->landlock_abi;
	}
	assay_proc_release(&p);
	return rc;
}
