/*
 * Internals shared by the files of src/lib/proc: starting the case supervisor (spawn.c) and
 * building its arguments (sandbox.c). The supervisor's side of the contract is
 * init/protocol.h.
 */
#ifndef ASSAY_PROC_INT_H
#define ASSAY_PROC_INT_H

#include <stdbool.h>
#include <sys/types.h>

#include "assay/proc.h"
#include "proc/init/protocol.h"

/* Where assay_proc__init_argv() leaves room for the namespace outcome ("-n 1" or "-e N") and
 * the ids to take ("-u UID:GID" or "-u -"): four slots. */
#define ASSAY_PROC__ARGV_NS 2

/* How to start one supervisor. */
struct assay_proc__spawn {
	char **argv;   /* from assay_proc__init_argv(); the spawn fills in ASSAY_PROC__ARGV_NS.. in a
			  copy of the array */
	char **envp;   /* the program's environment */
	int in;        /* becomes 0: a pipe, or /dev/null */
	int out, err;  /* become 1 and 2 */
	int rep;       /* becomes ASSAY_INIT_FD_REPORT */
	bool namespaces; /* try new user and PID namespaces */
	int ns_errno;  /* !namespaces: nonzero if the sandbox wanted them (the refusal to report) */
	bool drop_root; /* assay runs as root with the sandbox on: the program runs as uid/gid */
	bool keep_admin; /* a case server: it keeps CAP_SYS_ADMIN in its user namespace (ambient
			    across its exec) to give each case an IPC namespace of its own */
	unsigned uid, gid; /* outer ids of the program when drop_root */
	const char *cg;  /* NULL, or the case's memory cgroup (cgroup.c): the supervisor is
			    written into it before its "go" (a go pipe is made for that) */
	/* what the case's argv says of its seccomp filter, which a case server (server.c)
	 * installs once in itself for all its cases: its -f flags (ASSAY_INIT_F_SANDBOX and
	 * ASSAY_INIT_F_NO_NET only; 0: sandbox off), -R (the test hook's layers) and -p (an api
	 * server's TCP port, 0: none) */
	unsigned filter_flags, refuse, tcp_port;
};

/*
 * Starts the supervisor. Every descriptor of `s` must be above 5 (so the moves onto 0-4 cannot
 * clobber one another). With s->namespaces, a kernel that refuses them is not an error: the
 * supervisor runs without and `*ns_errno` says why (0 when they were made).
 * @return 0 or ASSAY_ESPAWN (details in `err`)
 */
int assay_proc__spawn(const struct assay_proc__spawn *s, pid_t *pid, int *ns_errno,
		      assay_err *err);

/* write(2) with SIGPIPE blocked in the calling thread, and a SIGPIPE it raised consumed (the
 * caller's dispositions stay as they are). */
ssize_t assay_proc__write_nosigpipe(int fd, const void *buf, size_t len);

/* The outer ids a program sandboxed by `sb` runs as (owner.c): when the sandbox is on and assay
 * is root, sb's uid and gid (0: 65534, nobody), and true; else false, `uid` and `gid` untouched
 * (the program keeps assay's ids). */
bool assay_proc__case_ids(const assay_sandbox *sb, uid_t *uid, gid_t *gid);

/* Moves `*fd` above 5, the supervisor's last fixed descriptor (close-on-exec). @return 0 or -1
 * with errno. */
int assay_proc__fd_high(int *fd);

/*
 * Assay runs as root with the sandbox on: gives p->cwd and p->sandbox.tmp_dir, and everything
 * in them, to uid:gid (owner.c: without following links, skipping files with other hard links;
 * a folder marked cwd_empty or tmp_empty is not read, and one marked given as well is not
 * touched: the caller gave it, proc.h assay_sandbox_give()). @return 0 or ASSAY_ESPAWN (a
 * folder that cannot be opened, or is a link, or was not made for the case:
 * assay_proc__hand_over_refusal())
 */
int assay_proc__hand_over(const assay_proc *p, unsigned uid, unsigned gid, assay_err *err);

/*
 * Why `real` (an absolute, resolved folder path) must never be handed over: "/" or a folder at
 * the top of the tree, a system folder (/usr, /etc, …) or one below it, assay's working folder
 * or $HOME or a folder above either. @return a static reason, or NULL if none applies.
 */
const char *assay_proc__hand_over_refusal(const char *real);

/* The layers the ASSAY_SANDBOX_REFUSE test hook makes the library treat as refused. */
unsigned assay_proc__refuse_hook(void);

/*
 * Appends to `out` the supervisor's argv for `p`: protocol version, a two-slot room at
 * ASSAY_PROC__ARGV_NS, the mode ("run" or "probe"), flags, limits, Landlock rules (the program
 * is looked up in `envp`'s PATH), "--" and p->argv.
 */
void assay_proc__init_argv(const assay_proc *p, char *const *envp, const char *mode,
			   unsigned refuse, assay_strvec *out);

/* The program's environment (see proc.h): a NULL-terminated array of pointers into environ,
 * p->env and `*tmpdir_var` (which the caller frees after the spawn, with the array). */
char **assay_proc__build_env(const assay_proc *p, char **tmpdir_var);

/* ---- server.c: case servers (proc.h assay_proc_servers) ---- */

struct assay_proc__server;

/*
 * An idle server of `set` for cases started as `sp` says (its namespaces, ids and seccomp
 * filter; `sandbox`: the sandbox is on), started if none is idle, marked busy. @return 0 with `*out`, or
 * ASSAY_ESPAWN (`err`): run the case under its own supervisor instead.
 */
int assay_proc__server_acquire(assay_proc_servers *set, const struct assay_proc__spawn *sp,
			       bool sandbox, struct assay_proc__server **out, assay_err *err);

/* The ASSAY_PROC_SERVERS test hook: with it set to 1 in assay's environment, a proc without a
 * set of servers uses one set of the process (made on first use, never freed: its servers exit
 * with the process), so that the proc tests run every case on a server. NULL otherwise. */
assay_proc_servers *assay_proc__servers_hook(void);

/* Whether a case of this argv and environment fits in a request (ASSAY_INIT_REQ_MAX). */
bool assay_proc__server_fits(char *const *argv, char *const *envp);

/* The server's pid (its control signals: protocol.h). */
pid_t assay_proc__server_pid(const struct assay_proc__server *srv);

/* Whether `srv` runs its cases in user and PID namespaces of its own (asked for, and made). */
bool assay_proc__server_isolated(const struct assay_proc__server *srv);

/*
 * Sends one case: its supervisor argv and environment (NULL-terminated), its request `flags`
 * (ASSAY_INIT_REQ_F_*) and its `nfds` descriptors (stdin, stdout, stderr, the report pipe's
 * write end, the control pipe's read end, then the go pipe's read end and the relay pipe's
 * write end as the flags say: protocol.h), which stay the caller's to close.
 * @return 0, EMSGSIZE (too big for a request: use a supervisor of its own), or the errno of
 * sendmsg (the server is gone: give it to assay_proc__server_done() as lost).
 */
int assay_proc__server_send(struct assay_proc__server *srv, char *const *argv, char *const *envp,
			    const int *fds, int nfds, uint32_t flags);

/*
 * The case on `srv` is over. `lost`: its report pipe closed without a report, or the case could
 * not be sent: the server is SIGKILLed (if it lives), reaped into `*status` (may be NULL) and
 * dropped from the set. Else it is idle again.
 */
void assay_proc__server_done(assay_proc_servers *set, struct assay_proc__server *srv, bool lost,
			     int *status);

/* ---- cgroup.c: the case's memory cgroup ---- */

/* Makes a memory cgroup bounding the case at `limit` bytes, with no swap, into `*out` (its
 * folder, malloc'd). `*out` stays NULL when `limit` <= 0 or cgroups are not enabled
 * (assay_memory_cgroups_enable()): then RLIMIT_DATA bounds the case. @return 0, or
 * ASSAY_ESPAWN when enabled and the cgroup cannot be made. */
int assay_proc__cg_make(long long limit, char **out, assay_err *err);

/* Writes `pid` into cgroup `dir`. @return 0 or an errno. */
int assay_proc__cg_attach(const char *dir, pid_t pid);

/* The case is over (its supervisor reaped): reads the cgroup's peak (bytes) and OOM kill
 * count, removes it (killing what is left in it) and frees and clears `*dir`. Nothing when
 * `*dir` is NULL (both figures 0). */
void assay_proc__cg_done(char **dir, long long *peak, int *oom_kills);

/* Field 22 of /proc/PID/stat (start time, clock ticks), 0 if unknown; and whether process
 * `pid` exists with that start time (an owner that is gone, or whose pid was reused, is not). */
unsigned long long assay_proc__start_time(long pid);
bool assay_proc__owner_alive(long pid, unsigned long long start);

#endif
