/*
 * Case servers (proc.h, assay_proc_servers; the supervisor's side is init/serve.c): a set of
 * long-lived supervisors, each already in the namespaces and ids that every case of a run
 * shares, that run case after case for the procs given the set.
 *
 * Key decisions:
 * - Why: per case, the exec of the supervisor, the user and PID namespaces with their maps, and
 *   a supervisor process between the server and the program cost more than the program itself
 *   does for a small case (../shared/design/case-server.md measured the layers one by one). A
 *   server pays them once, and the seccomp filter too (init/serve.c); each case is one fork
 *   from it, still with its own Landlock ruleset, limits and session, and still killed and
 *   reaped whole before it reports.
 * - The key also holds what decides the filter: the network setting, an api server's port and
 *   the test hook's refused layers; a server's -f, -R and -p are its cases'.
 * - A server serves a case whose namespaces and ids are its own (the key: sandbox on, the
 *   namespaces asked for or refused by the test hook, the outer ids with root), and what a
 *   program inherits from assay that a caller may change between cases: assay's effective
 *   ids and its session keyring (readable with the sandbox off); everything else
 *   (rules, limits, flags, environment, working folder) comes with each request. A case that
 *   needs what a server cannot give runs under its own supervisor, as without a set: a memory
 *   cgroup (the supervisor is written into it before it runs), the sandbox probe, a request
 *   above ASSAY_INIT_REQ_MAX bytes.
 * - One case at a time per server; a busy set starts another server (a pool at -jN keeps 2N:
 *   N running, N armed, proc.h `gated`; a gated case waits for its go in the server's child,
 *   so the case before it, on another server, shares none of its namespaces).
 * - A server that dies (killed on a timeout it did not obey, or by anyone) is found at its
 *   case's end (the report pipe closes without a report), SIGKILLed to be sure, reaped, and
 *   dropped; the next case starts a new one. Starting one that fails falls back to a per-case
 *   supervisor for that case; after MAX_START_FAILURES failures in a row the set stops trying.
 * - The set is freed by closing each server's socket (the server kills a running case and
 *   exits) and reaping it, SIGKILLed if it has not exited within RELEASE_WAIT_MS.
 *
 * Refuses to: send a case to a server whose key differs; give a server two cases at once;
 * wait for or signal any process but the servers it started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_int.h"
#include "util/banned.h"

#define READY_WAIT_MS 10000   /* how long a new server may take to say it is ready */
#define RELEASE_WAIT_MS 2000  /* how long a server gets to exit when the set is freed */
#define MAX_START_FAILURES 3  /* servers that failed to start in a row before the set gives up */

struct server_key {
	bool sandbox;    /* the supervisor's sandbox flag: namespaces refused are reported */
	bool namespaces; /* new user, PID and IPC namespaces asked for */
	int ns_errno;    /* !namespaces: the test hook's refusal to report */
	bool drop_root;
	unsigned uid, gid;
	/* what the program would inherit from assay, and gets from the server instead */
	unsigned euid, egid;
	long keyring; /* the session keyring's serial (sandbox off: the program may read it) */
	/* the seccomp filter the server holds for all its cases (init/serve.c hold_filter) */
	unsigned filter_flags, refuse, tcp_port;
};

struct assay_proc__server {
	struct assay_proc__server *next;
	struct server_key key;
	pid_t pid;
	bool isolated; /* in user and PID namespaces of its own (asked for and made) */
	int sock;  /* the library's end of the server's socket pair */
	int pidfd; /* of the server, or -1 */
	bool busy;
};

struct assay_proc_servers {
	pthread_mutex_t lock;
	struct assay_proc__server *list;
	unsigned started, lost, failures;
};

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void reap_pid(pid_t pid)
{
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
}

assay_proc_servers *assay_proc_servers_new(void)
{
	assay_proc_servers *set = assay_xcalloc(1, sizeof(*set));

	pthread_mutex_init(&set->lock, NULL);
	return set;
}

/* Closes the server's socket (it kills what runs and exits), waits for it, SIGKILL after
 * RELEASE_WAIT_MS, reaps it and frees it. */
static void server_stop(struct assay_proc__server *srv)
{
	close_fd(&srv->sock);
	if (srv->pidfd >= 0) {
		struct pollfd p = { srv->pidfd, POLLIN, 0 };
		int r;

		while ((r = poll(&p, 1, RELEASE_WAIT_MS)) < 0 && errno == EINTR)
			;
		if (r <= 0)
			kill(srv->pid, SIGKILL);
	} else {
		kill(srv->pid, SIGKILL);
	}
	close_fd(&srv->pidfd);
	reap_pid(srv->pid);
	free(srv);
}

void assay_proc_servers_free(assay_proc_servers *set)
{
	if (!set)
		return;
	while (set->list) {
		struct assay_proc__server *srv = set->list;

		set->list = srv->next;
		server_stop(srv);
	}
	pthread_mutex_destroy(&set->lock);
	free(set);
}

void assay_proc_servers_stats(assay_proc_servers *set, unsigned *started, unsigned *lost)
{
	pthread_mutex_lock(&set->lock);
	if (started)
		*started = set->started;
	if (lost)
		*lost = set->lost;
	pthread_mutex_unlock(&set->lock);
}

static struct server_key key_of(const struct assay_proc__spawn *sp, bool sandbox)
{
	struct server_key k;

	memset(&k, 0, sizeof(k));
	k.sandbox = sandbox;
	k.namespaces = sp->namespaces;
	k.ns_errno = sp->namespaces ? 0 : sp->ns_errno;
	k.drop_root = sp->drop_root;
	k.uid = sp->drop_root ? sp->uid : 0;
	k.gid = sp->drop_root ? sp->gid : 0;
	k.euid = (unsigned)geteuid();
	k.egid = (unsigned)getegid();
	/* KEYCTL_GET_KEYRING_ID of KEY_SPEC_SESSION_KEYRING, not created if there is none */
	k.keyring = syscall(SYS_keyctl, 0, -3, 0);
	if (sandbox) {
		k.filter_flags = sp->filter_flags;
		k.refuse = sp->refuse;
		k.tcp_port = sp->tcp_port;
	}
	return k;
}

static bool key_eq(const struct server_key *a, const struct server_key *b)
{
	return a->sandbox == b->sandbox && a->namespaces == b->namespaces &&
	       a->ns_errno == b->ns_errno && a->drop_root == b->drop_root && a->uid == b->uid &&
	       a->gid == b->gid && a->euid == b->euid && a->egid == b->egid &&
	       a->keyring == b->keyring && a->filter_flags == b->filter_flags &&
	       a->refuse == b->refuse && a->tcp_port == b->tcp_port;
}

/* Waits for the server's ready report. @return 0, or an errno-like code (EPROTO: it failed). */
static int await_ready(int sock)
{
	struct assay_init_report r;
	struct pollfd p = { sock, POLLIN, 0 };
	ssize_t n;
	int rc;

	while ((rc = poll(&p, 1, READY_WAIT_MS)) < 0 && errno == EINTR)
		;
	if (rc <= 0)
		return rc == 0 ? ETIMEDOUT : errno;
	while ((n = recv(sock, &r, sizeof(r), 0)) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(r) || r.magic != ASSAY_INIT_MAGIC || r.size != sizeof(r) ||
	    r.failure)
		return EPROTO;
	return 0;
}

static int server_start(const struct assay_proc__spawn *sp, const struct server_key *key,
			struct assay_proc__server **out, assay_err *err)
{
	int sv[2] = { -1, -1 }, devnull = -1, ns_errno = 0, e;
	char flags[16], refuse[16], port[16];
	/* its cases' -f, -R and -p: the seccomp filter it holds for them (init/serve.c) */
	char *argv[] = { (char *)"assay-init", (char *)ASSAY_INIT_VERSION,
			 (char *)"-n", (char *)"0", (char *)"-u", (char *)"-",
			 (char *)"-m", (char *)"serve", (char *)"-f", flags,
			 (char *)"-R", refuse, key->tcp_port ? (char *)"-p" : NULL, port, NULL };
	char *envp[] = { NULL };
	struct assay_proc__spawn own = *sp;
	struct assay_proc__server *srv;
	pid_t pid = -1;
	int rc;

	snprintf(flags, sizeof(flags), "%x",
		 key->sandbox ? ASSAY_INIT_F_SANDBOX | key->filter_flags : 0);
	snprintf(refuse, sizeof(refuse), "%x", key->refuse);
	snprintf(port, sizeof(port), "%u", key->tcp_port);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) ||
	    assay_proc__fd_high(&sv[0]) || assay_proc__fd_high(&sv[1]) ||
	    (devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0 ||
	    assay_proc__fd_high(&devnull)) {
		e = errno;
		rc = assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "cannot start a case server: %s",
				   strerror(e));
		goto out;
	}
	own.argv = argv;
	own.envp = envp;
	own.in = own.out = own.err = devnull;
	own.rep = sv[1];
	own.cg = NULL;
	own.keep_admin = key->namespaces;
	if ((rc = assay_proc__spawn(&own, &pid, &ns_errno, err)))
		goto out;
	close_fd(&sv[1]);
	if ((e = await_ready(sv[0]))) {
		kill(pid, SIGKILL);
		reap_pid(pid);
		rc = assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "a case server did not start: %s",
				   strerror(e));
		goto out;
	}
	srv = assay_xcalloc(1, sizeof(*srv));
	srv->key = *key;
	srv->pid = pid;
	srv->isolated = key->namespaces && !ns_errno;
	srv->sock = sv[0];
	srv->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	sv[0] = -1;
	*out = srv;
out:
	close_fd(&sv[0]);
	close_fd(&sv[1]);
	close_fd(&devnull);
	return rc;
}

int assay_proc__server_acquire(assay_proc_servers *set, const struct assay_proc__spawn *sp,
			       bool sandbox, struct assay_proc__server **out, assay_err *err)
{
	struct server_key key = key_of(sp, sandbox);
	struct assay_proc__server *srv, *made = NULL;
	int rc;

	*out = NULL;
	pthread_mutex_lock(&set->lock);
	for (srv = set->list; srv; srv = srv->next)
		if (!srv->busy && key_eq(&srv->key, &key)) {
			srv->busy = true;
			*out = srv;
			pthread_mutex_unlock(&set->lock);
			return 0;
		}
	if (set->failures >= MAX_START_FAILURES) {
		pthread_mutex_unlock(&set->lock);
		return assay_err_set(err, ASSAY_ESPAWN, NULL, 0, 0, "case servers failed to start");
	}
	pthread_mutex_unlock(&set->lock);

	rc = server_start(sp, &key, &made, err); /* not under the lock: it takes a while */
	pthread_mutex_lock(&set->lock);
	if (rc) {
		set->failures++;
	} else {
		set->failures = 0;
		set->started++;
		made->busy = true;
		made->next = set->list;
		set->list = made;
		*out = made;
	}
	pthread_mutex_unlock(&set->lock);
	return rc;
}

assay_proc_servers *assay_proc__servers_hook(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static assay_proc_servers *hook;
	static int on = -1;
	assay_proc_servers *set;

	pthread_mutex_lock(&lock);
	if (on < 0) {
		const char *v = getenv("ASSAY_PROC_SERVERS");

		on = v && !strcmp(v, "1");
	}
	if (on && !hook)
		hook = assay_proc_servers_new();
	set = hook;
	pthread_mutex_unlock(&lock);
	return set;
}

pid_t assay_proc__server_pid(const struct assay_proc__server *srv)
{
	return srv->pid;
}

bool assay_proc__server_isolated(const struct assay_proc__server *srv)
{
	return srv->isolated;
}

/* The size of the request for `argv` and `envp`, or 0 if it exceeds what a request holds. */
static size_t request_size(char *const *argv, char *const *envp, uint32_t *nargs, uint32_t *nenv)
{
	size_t len = sizeof(struct assay_init_request);

	*nargs = *nenv = 0;
	for (size_t i = 0; argv[i]; i++, (*nargs)++)
		len += strlen(argv[i]) + 1;
	for (size_t i = 0; envp[i]; i++, (*nenv)++)
		len += strlen(envp[i]) + 1;
	if (len > ASSAY_INIT_REQ_MAX || (size_t)*nargs + *nenv > ASSAY_INIT_REQ_STRINGS)
		return 0;
	return len;
}

bool assay_proc__server_fits(char *const *argv, char *const *envp)
{
	uint32_t nargs, nenv;

	return request_size(argv, envp, &nargs, &nenv) > 0;
}

int assay_proc__server_send(struct assay_proc__server *srv, char *const *argv, char *const *envp,
			    const int *fds, int nfds, uint32_t flags)
{
	struct assay_init_request h = { ASSAY_INIT_REQ_MAGIC, 0, 0, flags };
	size_t len = request_size(argv, envp, &h.nargs, &h.nenv);
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * ASSAY_INIT_REQ_FDS_MAX)];
	} ctl;
	struct iovec iov;
	struct msghdr m;
	char *req, *p;
	ssize_t sent;
	int e = 0;

	if (!len)
		return EMSGSIZE;
	if (nfds < ASSAY_INIT_REQ_FDS || nfds > ASSAY_INIT_REQ_FDS_MAX)
		return EINVAL;
	req = assay_xmalloc(len);
	memcpy(req, &h, sizeof(h));
	p = req + sizeof(h);
	for (int k = 0; k < 2; k++)
		for (char *const *s = k ? envp : argv; *s; s++) {
			size_t l = strlen(*s) + 1;

			memcpy(p, *s, l);
			p += l;
		}
	memset(&ctl, 0, sizeof(ctl));
	memset(&m, 0, sizeof(m));
	iov.iov_base = req;
	iov.iov_len = len;
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = ctl.buf;
	m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
	ctl.h.cmsg_level = SOL_SOCKET;
	ctl.h.cmsg_type = SCM_RIGHTS;
	ctl.h.cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
	memcpy(CMSG_DATA(&ctl.h), fds, sizeof(int) * (size_t)nfds);
	while ((sent = sendmsg(srv->sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	if (sent < 0)
		e = errno;
	else if ((size_t)sent != len)
		e = EMSGSIZE;
	free(req);
	return e;
}

/* Takes `srv` out of the set and stops it (SIGKILL: it is dead or not to be trusted). */
static void server_drop(assay_proc_servers *set, struct assay_proc__server *srv, int *status)
{
	struct assay_proc__server **pp;

	pthread_mutex_lock(&set->lock);
	for (pp = &set->list; *pp; pp = &(*pp)->next)
		if (*pp == srv) {
			*pp = srv->next;
			break;
		}
	set->lost++;
	pthread_mutex_unlock(&set->lock);
	close_fd(&srv->sock);
	kill(srv->pid, SIGKILL);
	close_fd(&srv->pidfd);
	while (waitpid(srv->pid, status, __WALL) < 0 && errno == EINTR)
		;
	free(srv);
}

void assay_proc__server_done(assay_proc_servers *set, struct assay_proc__server *srv, bool lost,
			     int *status)
{
	if (lost) {
		server_drop(set, srv, status);
		return;
	}
	pthread_mutex_lock(&set->lock);
	srv->busy = false;
	pthread_mutex_unlock(&set->lock);
}
