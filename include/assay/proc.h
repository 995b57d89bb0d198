/**
 * @file proc.h
 * Running one untrusted program: argv, environment, working folder, standard input, capped
 * captures of stdout and stderr, a timeout, resource limits, an optional sandbox, and honest
 * resource use. Spec: suite-format.md "A case (cli adapter)"; docs/cli.md ("How a case runs
 * (cli adapter)"); docs/security.md says what the sandbox promises and how each promise is
 * tested.
 *
 * Calling sequence (one process, blocking):   ASSAY_PROC_INIT, fill fields, assay_proc_run(),
 *                                              assay_proc_release().
 * Calling sequence (driven by a pool, never blocking): assay_proc_start(); then, whenever poll()
 * says one of assay_proc_pollfds() is ready or assay_proc_deadline_ms() has passed,
 * assay_proc_pump(p, 0, &done) (or assay_proc_pump_polled() with what that poll() said); once
 * done, assay_proc_finish(); assay_proc_release().
 *
 * How it works: every case runs under a small supervisor program (assay-init, built with the
 * library and embedded in it) that the library exec's; the supervisor forks the program, so
 * the program's resource figures are its own, not assay's. The supervisor ends the case: when
 * the program exits, everything it started is killed and reaped before the library learns the
 * result.
 *
 * Guarantees: the program leads a new session and process group, without a controlling
 * terminal; its standard input is the given bytes or empty (never assay's own); descriptors
 * above 2 are closed in it; signal dispositions and mask are reset before exec. On timeout the
 * program's process group (with the sandbox's PID namespace: every process of the case) gets
 * SIGTERM, then SIGKILL after `kill_grace_s`. When the program ends (for any reason) every
 * process it started is killed and reaped, however it detached (new session, double fork): in
 * the PID namespace by ending the namespace; without it by the supervisor, a child subreaper,
 * walking its descendants. Captures past their cap are read and dropped, so the program never
 * blocks on a full pipe. `cpu_user_s`, `cpu_sys_s` and `max_rss` cover every process of the
 * case that the supervisor or one of the case's processes waited for (orphans included: the
 * supervisor waits for them); not a child the kernel reaped unwaited because its parent ignored
 * SIGCHLD (SIG_IGN or SA_NOCLDWAIT), whose figures no one receives.
 *
 * What the library does NOT do to its caller: it changes no signal disposition (SIGPIPE is
 * blocked in the calling thread only while it writes standard input), does not make the caller
 * a subreaper, and never waits for or signals any process but the supervisors it started. It
 * keeps one sealed, close-on-exec memfd (the supervisor's image) and, once a case without
 * standard input has run, one read-only descriptor of /dev/null open for the life of the
 * process. Every descriptor it opens is close-on-exec.
 */
#ifndef ASSAY_PROC_H
#define ASSAY_PROC_H

#include <poll.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "buf.h"
#include "strvec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum assay_proc_status {
	ASSAY_PROC_EXITED = 0,   /**< exited normally: see exit_code */
	ASSAY_PROC_SIGNALED,     /**< killed by a signal it did not get from the timeout */
	ASSAY_PROC_TIMED_OUT,    /**< killed because the timeout passed */
	ASSAY_PROC_EXEC_FAILED,  /**< could not be started: see exec_errno (ENOENT: no such program) */
} assay_proc_status;

/**
 * The layers of the sandbox: bits of assay_proc_result.sandbox_applied and .sandbox_refused and
 * of assay_sandbox_report. docs/security.md says what each blocks.
 */
enum assay_sandbox_layer {
	ASSAY_SANDBOX_USERNS = 1 << 0,         /**< user namespace: no capability; with root, nobody
						    outside */
	ASSAY_SANDBOX_PIDNS = 1 << 1,          /**< PID namespace (with an IPC namespace): signals
						    and outlives nothing else */
	ASSAY_SANDBOX_LANDLOCK_FS = 1 << 2,    /**< Landlock: files only where allowed */
	ASSAY_SANDBOX_LANDLOCK_NET = 1 << 3,   /**< Landlock: no TCP bind or connect (network off) */
	ASSAY_SANDBOX_LANDLOCK_SCOPE = 1 << 4, /**< Landlock: no signal or abstract socket outside */
	ASSAY_SANDBOX_SECCOMP = 1 << 5,        /**< seccomp: no keyring, no new namespace
						    (unshare, setns, clone with CLONE_NEW*;
						    clone3 is ENOSYS); network off: no socket(),
						    no datagram socketpair */
	ASSAY_SANDBOX_NO_NEW_PRIVS = 1 << 6,   /**< no setuid or file capability gains at exec */
};
#define ASSAY_SANDBOX_NLAYERS 7

/** Which limit a case ran into (assay_proc_result.limit). */
typedef enum assay_limit {
	ASSAY_LIMIT_NONE = 0,
	ASSAY_LIMIT_CPU,        /**< killed by SIGXCPU, or by SIGKILL at the hard CPU limit */
	ASSAY_LIMIT_MEMORY,     /**< best effort: see assay_limits.memory_bytes */
	ASSAY_LIMIT_FILE_SIZE,  /**< killed by SIGXFSZ */
	ASSAY_LIMIT_OPEN_FILES, /**< never reported: a full descriptor table is not observable */
	ASSAY_LIMIT_PROCESSES,  /**< best effort: see assay_limits.processes */
	ASSAY_LIMIT_WALL,       /**< the timeout (status ASSAY_PROC_TIMED_OUT) */
} assay_limit;

/** What happened to the process. Filled by assay_proc_finish()/assay_proc_run(). */
typedef struct assay_proc_result {
	assay_proc_status status;
	int exit_code;       /**< EXITED: the exit status (0-255) */
	int term_signal;     /**< SIGNALED/TIMED_OUT: the signal that ended it (TIMED_OUT and it
				  exited by itself after SIGTERM: SIGTERM) */
	int exec_errno;      /**< EXEC_FAILED: errno of the failed chdir or exec */
	double wall_s;       /**< seconds from the program's start to its exit (CLOCK_MONOTONIC) */
	double start_s;      /**< when its program started (CLOCK_MONOTONIC seconds, as
				  assay_now()): its fork, or a gated case's go (its relay, when the
				  server of the case before it let it go); 0: not known */
	double end_s;        /**< when its supervisor was done with it (CLOCK_MONOTONIC seconds,
				  as assay_now()): the program had exited, everything it started had
				  ended, and the report was written; which may be long before the
				  caller's finish (a caller busy elsewhere). 0: not known (no report:
				  the supervisor was killed) */
	double cpu_user_s;   /**< user CPU seconds of every waited-for process of the case */
	double cpu_sys_s;    /**< system CPU seconds of every waited-for process of the case */
	long long max_rss;   /**< the largest peak resident set size among the case's processes,
				  bytes (not their sum); with a memory cgroup (a memory limit and
				  assay_memory_cgroups()), at least the cgroup's peak, which counts
				  every page of the case, shared and memfd pages included */
	bool out_truncated;  /**< stdout was longer than its cap */
	bool err_truncated;  /**< stderr was longer than its cap */
	assay_limit limit;   /**< the limit the case ran into, first of: cpu, file size,
				  processes, memory, wall; ASSAY_LIMIT_NONE if none is known. A
				  program that exits with 128 + SIGXFSZ or SIGXCPU under that limit
				  (a shell whose child hit it) counts as having hit it */
	unsigned sandbox_applied; /**< ASSAY_SANDBOX_* layers in force when the program started */
	unsigned sandbox_refused; /**< layers asked for that the kernel refused (sandbox on and
				       not required: the program ran without them) */
	int tmp_errno;       /**< with assay_sandbox.tmp_make: the temporary folder could not be
				  made (errno); the program never ran (EXEC_FAILED, exec_errno the
				  same). 0 otherwise */
	int cwd_errno;       /**< with assay_sandbox.cwd_make: the working folder could not be
				  made (errno); the program never ran (EXEC_FAILED, exec_errno the
				  same). 0 otherwise */
	bool cwd_removed;    /**< with assay_sandbox.cwd_make: the working folder was empty after
				  the case and its case server removed it; false: the caller's to
				  remove */
	bool tmp_removed;    /**< with assay_sandbox.tmp_make: the folder was empty after the case
				  and its case server removed it; false: it may still be there
				  (full, or the case did not run on a server), the caller's to
				  remove */
	bool supervisor_died; /**< its supervisor (or case server) died during the case, which
				   the case may have brought about (docs/security.md): no report,
				   so its times and resources are unknown (0); a case report fails
				   it, whatever its attributes (case_report.c). Set by
				   assay_proc_finish for a supervisor killed after a timeout it did
				   not obey (TIMED_OUT, no figures); a death assay_proc_pump reports
				   as ASSAY_ESPAWN is for its caller to mark (the cli adapter does) */
} assay_proc_result;

/**
 * What a case may do when assay_proc.sandbox.enabled is set. Every pointer is borrowed and must
 * stay valid until assay_proc_start() returns. Paths may be relative to assay's working folder.
 * Always readable (and executable): /usr, /bin, /sbin, /lib*, /etc, /opt, /proc, /sys,
 * /dev/random, /dev/urandom, and the program file itself (unless it lies in `cwd`, `tmp_dir` or
 * a write_path, where it may be a planted link; a script's "#!" interpreter gets no rule).
 * Always writable: `cwd` (when set), `tmp_dir`, /dev/null, /dev/zero and /dev/full. Anything
 * else (the user's home, /tmp, the suite, assay's results, the rest of /dev and every
 * terminal) is unreadable unless listed here.
 */
typedef struct assay_sandbox {
	bool enabled;        /**< false (ASSAY_PROC_INIT): no sandbox layer at all */
	bool required;       /**< a layer the kernel refuses is an error (ASSAY_ESPAWN from
				  assay_proc_pump()), and the program does not run */
	bool network;        /**< true: the network is open (unix sockets included); false: no
				  socket() of any family, no SOCK_DGRAM socketpair, no TCP
				  (Landlock and seccomp) */
	unsigned short tcp_port; /**< with `network` false: a TCP port the program may bind and
				      listen on (an api server's; 0: none). It may then make TCP
				      sockets (IPv4 and IPv6; still no unix, UDP, raw or other
				      family), bind only that port and connect nowhere, not even
				      to it (Landlock ABI >= 4; on older kernels landlock-net is
				      refused and TCP is open) */
	const char *tmp_dir; /**< NULL, or a private temporary folder the caller made (or, with
				  tmp_make, named): writable, and TMPDIR in the program's
				  environment unless `env` sets it */
	bool tmp_make;       /**< `tmp_dir` does not exist yet: assay_proc_start() has the case
				  server make it for the case (empty, mode 0700, the program's ids),
				  and the server removes it after the case when it is still empty
				  (assay_proc_result.tmp_removed); without a server it makes it
				  itself (and gives it, as assay_sandbox_give(), with root). Its
				  parent must be writable by the program's ids (with root: `uid`,
				  `gid`), best not theirs and not listable by them (root's, 0733:
				  a parent it owns, a case can chmod, failing the cases after it),
				  one the sandbox's Landlock keeps the programs out of (else a case
				  could fill it, or make another's name first: that case then
				  fails, tmp_errno EEXIST), and reachable only through folders only
				  the caller writes; the name must be one no case can guess. A
				  folder that cannot be made ends the case before its program
				  (assay_proc_result.tmp_errno). Ignored when `tmp_dir` is NULL.
				  docs/security.md, "Folders made by the case's server" */
	const char *const *write_paths; /**< NULL, or a NULL-terminated list of folders or files
					     the program may also write, create and remove in */
	const char *const *read_paths;  /**< NULL, or a NULL-terminated list of folders or files
					     the program may also read and execute */
	const char *const *hide_paths;  /**< NULL, or a NULL-terminated list of folders that must
					     stay unreadable although below a system folder or a
					     read_path (a suite under /opt, expected answers inside
					     a readable suite); a read_path, write_path, tmp_dir or
					     cwd inside one is still granted */
	bool paths_resolved; /**< read_paths and hide_paths are absolute and resolved already
				  (realpath(): no link, no "..") and are used as they are; false:
				  each is resolved at every start (a missing one is skipped) */
	unsigned uid, gid;   /**< when assay runs as root: the unprivileged outer uid and gid the
				  program runs as (0: 65534, nobody). assay_proc_start() then gives
				  `cwd` and `tmp_dir` and everything in them to these ids (without
				  following links, skipping files with more than one hard link);
				  the folders above them must let these ids through, and
				  write_paths must be writable by them. Ignored without root */
	bool cwd_empty;      /**< with root: the caller made `cwd` for this case, empty, and has
				  put nothing in it since (nothing has run in it): its owner is
				  changed without reading it. A folder that holds a sub-folder
				  after all is read; files in it would stay the caller's (the
				  program could not change them). false: `cwd` is read */
	bool tmp_empty;      /**< the same for `tmp_dir` */
	bool cwd_given;      /**< with root: the caller gave `cwd` to the program's ids itself as
				  it made it (assay_sandbox_give() returned true) and, with
				  cwd_empty, has put nothing in it since: assay_proc_start()
				  leaves it as it is. Without cwd_empty it is handed over as
				  any other */
	bool tmp_given;      /**< the same for `tmp_dir` (with tmp_empty) */
	bool cwd_make;       /**< the process's `cwd` does not exist yet: as tmp_make for
				  `tmp_dir`, its case server makes it for the case (empty, mode 0755
				  less the umask, the program's ids) and removes it after the case
				  when it is still empty (assay_proc_result.cwd_removed); without a
				  server assay_proc_start() makes it. Its parent: as tmp_make's. A
				  folder that cannot be made ends the case before its program
				  (assay_proc_result.cwd_errno). Made before the temporary folder
				  (which is not made when it fails); ignored when `cwd` is NULL */
} assay_sandbox;

/**
 * Gives folder `path`, which the caller has just made for one case, empty, beneath folders only
 * the caller may write (so that nothing can have been put in its place), to the ids a program
 * sandboxed by `sb` runs as when assay is root (`uid`, `gid` above): what assay_proc_start()
 * does to a `cwd_empty` folder, at the cost of one fchownat instead of opening and checking it.
 * The last component is not followed (a link there would change owner itself, not its target).
 * The path is judged by its name, not where it resolves: the caller vouches that no link lies
 * on the way (a path it built itself beneath a folder it made; the start's hand-over resolves
 * what it is given). The caller then sets `cwd_given` or `tmp_given` (docs/security.md,
 * "How a case runs").
 * @param sb the case's sandbox settings (not changed; NULL: nothing is done)
 * @param path the folder, absolute, with no ".", ".." or empty component
 * @return true: given. false: nothing changed, and assay_proc_start() hands the folder over
 *         with every check as before: no sandbox, assay is not root, `path` is not such a
 *         path, a folder the hand-over refuses by its name (the root or a top folder, a
 *         system folder, $HOME or one above it), or fchownat failed (errno is not kept).
 */
ASSAY_EXTERN bool assay_sandbox_give(const assay_sandbox *sb, const char *path);

/**
 * The first folder on the way to `path`, or `path` itself, that a program sandboxed by `sb`
 * may not pass (search a folder, run a file) when assay is root, judged by the mode bits of
 * each against the ids the program then runs as (`uid`, `gid` above; no other group; ACLs
 * are not read). `path` is resolved first, so that a link cannot lead past a closed folder.
 * What the program's own PATH search skips (a `python3` under /root is not the one it runs),
 * and what makes every case fail to start in working folders below (docs/security.md, "Not
 * promised": with root, what cases need must be readable by nobody).
 * @param sb the case's sandbox settings (not changed). NULL, the sandbox off, or assay not
 *        root: the program keeps assay's ids, and NULL is returned
 * @param path an absolute or relative path (to assay's working folder)
 * @return NULL when the program may pass every folder and `path`; else the resolved path of
 *         the first one it may not (malloc'd: the caller frees it), or `path` itself, copied,
 *         when it does not resolve (a missing file or folder, a loop of links). No error.
 */
ASSAY_EXTERN char *assay_sandbox_unreachable(const assay_sandbox *sb, const char *path);

/**
 * Resource limits of a case; 0 means no limit (ASSAY_PROC_INIT). They apply with or without the
 * sandbox, to the program and everything it starts, each process on its own except
 * `processes`. A value above the hard limit assay runs under is lowered to it.
 */
typedef struct assay_limits {
	double cpu_s;              /**< CPU seconds per process, rounded up to whole seconds
				        (RLIMIT_CPU; SIGXCPU at the limit, SIGKILL a second later) */
	long long memory_bytes;    /**< memory of the whole case. With memory cgroups
				        (assay_memory_cgroups()): every page its processes bring
				        in, shared and memfd pages included, no swap; past it the
				        kernel kills a process of the case (reported as
				        ASSAY_LIMIT_MEMORY). Without: data memory per process
				        (RLIMIT_DATA: heap and private writable mappings, not
				        address space reserved with PROT_NONE); an allocation
				        past it fails, and the limit is reported only as a guess:
				        when the program ended abnormally and its peak RSS
				        reached half the limit */
	long long file_size_bytes; /**< the largest file a process may write (RLIMIT_FSIZE) */
	long open_files;           /**< descriptors per process (RLIMIT_NOFILE) */
	long processes;            /**< processes of the case at once. Exact inside the sandbox's
				        user namespace (RLIMIT_NPROC of its own uid there; with root
				        the program is nobody outside, whom it binds). Without the
				        namespaces, RLIMIT_NPROC counts every process of the user
				        (with root and the sandbox: of nobody). Not enforced for a
				        root program (assay as root, sandbox off). Reported when
				        the count was at the limit as the program ended abnormally */
} assay_limits;

/** Which sandbox layers this kernel grants (assay_sandbox_probe()). */
typedef struct assay_sandbox_report {
	unsigned granted;  /**< ASSAY_SANDBOX_* layers that work */
	unsigned refused;  /**< layers that do not */
	int refused_errno[ASSAY_SANDBOX_NLAYERS]; /**< why, indexed by bit position (0 if granted) */
	int landlock_abi;  /**< Landlock ABI version, 0 if none */
} assay_sandbox_report;

#define ASSAY_PROC_DEFAULT_CAP (64u * 1024 * 1024)

/**
 * A set of case servers (docs/security.md, "How a case runs"): long-lived supervisors, each
 * already inside the namespaces and ids that the cases of a run share, that run case after
 * case, so that a case costs one fork instead of a new supervisor and new namespaces. A proc
 * whose `servers` points to a set runs on an idle server of the set that fits its sandbox
 * (started when none is idle: a pool running N cases at once keeps N), with its own Landlock
 * ruleset, limits, session and working folder, under the seccomp filter its server holds for
 * cases of its network setting, in the server's IPC namespace unless it leaves IPC objects
 * there (the server then retires), and with every process it
 * started killed and reaped before it is reported, as without a set. A case that needs what a
 * server cannot give runs under a supervisor of its own, as without a set: one with a memory
 * cgroup (assay_memory_cgroups()), or whose argv and environment exceed 192 KiB. A server that
 * dies (on a timeout it did not obey, or killed by anyone) fails its running case as a
 * supervisor's death does, and the next case starts a new one. Thread-safe; the servers are
 * children of the calling process until assay_proc_servers_free().
 */
typedef struct assay_proc_servers assay_proc_servers;

/**
 * Process-wide: the CPUs every program the library starts from now on runs on, set in its child
 * just before exec (sched_setaffinity), whatever CPUs the caller and its case servers run on.
 * For a caller that keeps its own work off the CPUs its cases run on (the CLI: docs/cli.md,
 * "The CPUs of the harness"). `mask`: `len` bytes as sched_setaffinity(2) takes them (bit i%8
 * of byte i/8 for CPU i), copied; bytes past 128 (CPU 1024 on) are ignored. NULL or `len` 0:
 * programs inherit the caller's CPUs again (the default). Not synchronised: call it while no
 * proc is being started. A mask the kernel refuses for a program (no CPU it may use) leaves the
 * program on its supervisor's CPUs. No errors.
 */
ASSAY_EXTERN void assay_proc_set_program_cpus(const unsigned char *mask, size_t len);

/** An empty set (no server runs until a case needs one). Never NULL; free with
 * assay_proc_servers_free(). */
ASSAY_EXTERN assay_proc_servers *assay_proc_servers_new(void);

/**
 * Stops every server of the set (each kills the case it runs, if any, and exits; SIGKILL after
 * 2 seconds), reaps them and frees the set. No proc using the set may be running. NULL: nothing.
 */
ASSAY_EXTERN void assay_proc_servers_free(assay_proc_servers *set);

/** How many servers `set` started, and how many of them were lost (died, or killed). Either
 * pointer may be NULL. */
ASSAY_EXTERN void assay_proc_servers_stats(assay_proc_servers *set, unsigned *started,
					   unsigned *lost);

typedef struct assay_proc {
	/* Input: set by the caller before start. Strings are owned by the struct. */
	assay_strvec argv;       /**< argv[0] without '/' is looked up in the child's PATH */
	assay_strvec env;        /**< "K=V" sets K for the child; "K" unsets it */
	bool clear_env;          /**< start from an empty environment instead of assay's own */
	char *cwd;               /**< malloc'd folder to run in, or NULL for assay's own */
	const char *stdin_data;  /**< borrowed standard input bytes (must outlive the run);
				      NULL: empty */
	size_t stdin_len;
	bool stdin_stream;       /**< standard input stays open after `stdin_data` is written:
				      more is given with assay_proc_write_stdin(), and the pipe is
				      closed by assay_proc_close_stdin() or release (a plug-in that
				      answers request after request) */
	size_t out_cap;          /**< stdout cap in bytes (0: ASSAY_PROC_DEFAULT_CAP) */
	size_t err_cap;          /**< stderr cap in bytes (0: ASSAY_PROC_DEFAULT_CAP) */
	double timeout_s;        /**< seconds; <= 0: no timeout */
	double kill_grace_s;     /**< seconds between SIGTERM and SIGKILL on timeout (< 0: 0; default 1) */
	assay_sandbox sandbox;   /**< what the case may do (default: no sandbox) */
	assay_limits limits;     /**< resource limits (default: none) */
	assay_proc_servers *servers; /**< borrowed; NULL (default): a supervisor of its own per
				      case; else the case runs on a server of this set */
	bool gated;              /**< assay_proc_start() prepares the case and the program starts
				      at assay_proc_go() (a pool's next case, set up while the one
				      before it runs) */
	bool relay;              /**< on a case server, the case can let the proc that follows it
				      (assay_proc_follow) start itself, the moment it ends */

	/* Output: captured bytes (read them after finish; release frees them). A caller may also
	 * take and empty them (assay_buf_reset) between pumps of a long-running program, an api
	 * server's output case by case: the cap then applies to what is read until the next
	 * reset, and out_truncated/err_truncated stay set once set. */
	assay_buf out;
	assay_buf err;

	/* Private state. */
	pid_t pid;               /* the supervisor */
	int fd_in, fd_out, fd_err;
	int fd_rep;              /* the supervisor's report pipe: EOF once it has exited */
	int fd_pid;              /* pidfd of the supervisor */
	size_t stdin_off;
	double t_start, t_deadline, t_kill, t_hard, t_drain;
	int state;
	bool timed_out, out_trunc, err_trunc, hard_killed;
	int wait_status;
	int exec_errno;
	int tmp_errno;           /* tmp_make without a server: the folder could not be made */
	int cwd_errno;           /* cwd_make without a server: the folder could not be made */
	size_t rep_len;
	unsigned char rep[192];  /* the supervisor's report */
	char *cg;                /* the case's memory cgroup while it runs, or NULL */
	struct assay_proc__server *srv; /* the case server it runs on, or NULL */
	int fd_ctl;              /* on a server: the write end of the case's control pipe (a
				    gated case's: its go pipe's, from its go on) */
	bool served;             /* it ran on a case server */
	bool never_started;      /* execve would refuse its argv (E2BIG): finish says so */
	bool died;               /* its supervisor or server died without a report (pump's
				    ASSAY_ESPAWN): a case's failure, not the caller's */
	int fd_go;               /* gated, on a server: the write end of the case's go pipe,
				    which is its control pipe too (init/protocol.h): fd_ctl once
				    it has gone */
	int fd_go_r;             /* gated: the read end of the go pipe its predecessor relays to
				    (assay_proc_follow), or -1: one of its own is made */
	int fd_relay_r, fd_relay_w; /* relay, on a server: the pipe the server writes a byte on
				    when the case ends, until a follower takes it */
	bool deferred;           /* gated, not on a server: nothing started until go */
	struct assay_proc *follower, *leader; /* assay_proc_follow(): the proc its relay pipe
				    went to, and the one whose relay pipe it has, until either is
				    released */
	bool go_relayed;         /* gated: its leader's report says its server wrote the go */
	double go_relayed_s;     /* then when (CLOCK_MONOTONIC seconds): its start, for its
				    timeout */
	double t_armed;          /* gated on a server: when its request was sent (nothing of it
				    ran before: a go written earlier starts it from here) */
	long long cg_peak;       /* its peak, bytes (read once the supervisor is reaped) */
	int cg_oom;              /* the kernel's OOM kills in it */
	bool has_slot;           /* it holds `slot` (proc.c, slot_take), until released */
	unsigned slot;           /* its place among the procs that run at once, which the proc
				    that follows it takes over: the case is set up, or waits for
				    its go, on the CPU of that place (init/protocol.h, -k) */
} assay_proc;

#define ASSAY_PROC_INIT                                                                        \
	{ .argv = ASSAY_STRVEC_INIT, .env = ASSAY_STRVEC_INIT, .kill_grace_s = 1.0,            \
	  .out = ASSAY_BUF_INIT, .err = ASSAY_BUF_INIT, .pid = -1, .fd_in = -1, .fd_out = -1,  \
	  .fd_err = -1, .fd_rep = -1, .fd_pid = -1, .fd_ctl = -1, .fd_go = -1,                \
	  .fd_go_r = -1, .fd_relay_r = -1, .fd_relay_w = -1 }

/** How many descriptors assay_proc_pollfds() may fill: stdin, stdout, stderr, the supervisor. */
#define ASSAY_PROC_MAX_POLLFDS 4

/**
 * Starts the case: the supervisor, which starts the program. A program that cannot be found or
 * a cwd that cannot be entered is not an error here: assay_proc_finish() reports it as
 * ASSAY_PROC_EXEC_FAILED. Sandbox layers the kernel refuses are not an error here either.
 * @param p   set up from ASSAY_PROC_INIT; its inputs are read, its borrowed pointers must stay
 *            valid until the process is finished
 * @param err NULL or details of an error
 * @return 0; ASSAY_EINVALID if argv is empty or the proc was already started; ASSAY_ESPAWN if
 *         pipe, memfd or fork failed or the supervisor could not be exec'd (details in `err`).
 */
ASSAY_EXTERN int assay_proc_start(assay_proc *p, assay_err *err);

/**
 * Starts the program of a proc started with `gated`: until then it is prepared but not run (on
 * a case server: forked with its folder, descriptors, limits and every sandbox layer in force,
 * waiting for this; without one, nothing is started and this starts it). Its timeout and
 * `wall_s` count from here (from its relay when assay_proc_follow()'s server started it
 * earlier). Until go, assay_proc_pollfds() gives nothing,
 * assay_proc_deadline_ms() -1 and assay_proc_pump() does nothing; assay_proc_release() of a
 * proc never let go runs nothing of its program. A proc not gated, or already let go: 0, no
 * change.
 * @return 0, or as assay_proc_start() when nothing was started yet (details in `err`)
 */
ASSAY_EXTERN int assay_proc_go(assay_proc *p, assay_err *err);

/**
 * Before `next` (gated, not started) starts: its program may start the moment `prev` (started
 * with `relay`, on a case server) ends, without waiting for assay_proc_go(): the server writes
 * the go itself once every process of `prev` is reaped, unless the caller killed `prev` (released
 * it while it ran, or its timeout came to SIGKILL) or the file system of its working folder has
 * less than half of its room (used + available) or inodes free (then assay_proc_go() starts it,
 * after the caller gave `prev`'s folder back). The caller still calls assay_proc_go() when
 * `next` is to run; its timeout and `wall_s` count from its program's start (the relay, when
 * there was one, else the go). Release `prev` before `next` when
 * abandoning both (released first, `next` waits up to 2 seconds for `prev`'s server to let
 * go). Nothing happens if `prev` cannot relay (not started with `relay`, not on a server, or
 * already followed) or `next` is not a gated proc that has not started.
 */
ASSAY_EXTERN void assay_proc_follow(assay_proc *next, assay_proc *prev);

/**
 * Fills `fds` (room for `max`; pass ASSAY_PROC_MAX_POLLFDS) with the descriptors to poll() for this
 * process: the pipes still open to the program, then a descriptor that becomes readable when the
 * supervisor has reported or exited. With `max` of 3 the last can be left out; the pipes and
 * assay_proc_deadline_ms() still wake the caller. @return how many were filled (0 once done).
 */
ASSAY_EXTERN size_t assay_proc_pollfds(const assay_proc *p, struct pollfd *fds, size_t max);

/**
 * Milliseconds until the next timed action is due (SIGTERM or SIGKILL on timeout, or giving up on
 * pipes still held open after the case ended), -1 if none, 0 if overdue. A pool uses the least
 * of these as its poll() timeout.
 */
ASSAY_EXTERN int assay_proc_deadline_ms(const assay_proc *p);

/**
 * Moves data between assay and the program, waiting at most `wait_ms` milliseconds (0: do not
 * wait; -1: until something happens), applies due timeout actions, and reads the supervisor's
 * report and reaps it once the case has ended.
 * @param done set to true once the case has ended and every pipe is closed
 * @return 0; ASSAY_EINVALID if the process was not started; ASSAY_EIO if a pipe failed;
 *         ASSAY_ESPAWN if the supervisor failed (a required sandbox layer was refused, or it
 *         died without reporting): details in `err`, and the process is done (finish refuses).
 */
ASSAY_EXTERN int assay_proc_pump(assay_proc *p, int wait_ms, bool *done, assay_err *err);

/**
 * assay_proc_pump() with `wait_ms` 0, for a caller that has just polled: `fds` holds the `n`
 * descriptors assay_proc_pollfds() gave for `p`, with the revents of one poll() made since,
 * and `p` was not pumped in between. Acts on those that are ready, without polling them
 * again, and applies due timeout actions (a pool saves one poll() per process and turn).
 * Entries that are no longer the process's descriptors are passed over.
 * @param done as assay_proc_pump()
 * @return as assay_proc_pump()
 */
ASSAY_EXTERN int assay_proc_pump_polled(assay_proc *p, const struct pollfd *fds, size_t n,
					bool *done, assay_err *err);

/**
 * After `done`: fills `out`. Nothing the case started survives: the supervisor killed and reaped
 * every process of the case before it reported. @return 0, or ASSAY_EINVALID if the process has
 * not finished or assay_proc_pump() reported a failure of the supervisor.
 */
ASSAY_EXTERN int assay_proc_finish(assay_proc *p, assay_proc_result *out);

/**
 * With `stdin_stream`: gives the program `len` more bytes of standard input, written at once as
 * far as the pipe takes them and the rest by assay_proc_pump(). `data` is borrowed until
 * assay_proc_stdin_pending() is 0.
 * @return 0; ASSAY_EINVALID if the process does not stream its input, its standard input is
 *         closed (it closed its end, or it ended) or earlier bytes are still pending;
 *         ASSAY_EIO if the pipe failed
 */
ASSAY_EXTERN int assay_proc_write_stdin(assay_proc *p, const char *data, size_t len,
					assay_err *err);

/** Bytes given to assay_proc_write_stdin() (or `stdin_data`) not written yet (0 once closed). */
ASSAY_EXTERN size_t assay_proc_stdin_pending(const assay_proc *p);

/** Closes the program's standard input (it reads end of file). */
ASSAY_EXTERN void assay_proc_close_stdin(assay_proc *p);

/**
 * Gives a running process `seconds` more before its timeout acts (and, once it timed out, before
 * the next step of killing it): for a caller that could not pump it for that long (a pool busy
 * verifying another case), so that time the program spent blocked on a full pipe nobody read
 * does not count against it. `seconds` <= 0 or a process not running: nothing changes.
 */
ASSAY_EXTERN void assay_proc_extend(assay_proc *p, double seconds);

/** Start, pump until done, finish. @return as assay_proc_start() and assay_proc_pump(). */
ASSAY_EXTERN int assay_proc_run(assay_proc *p, assay_proc_result *out, assay_err *err);

/**
 * Frees everything the struct owns (argv, env, cwd, captures). If the case is still running,
 * the supervisor is told to kill it and is reaped first (SIGKILL to the supervisor if it has not
 * exited within 2 seconds). Returns `p` to ASSAY_PROC_INIT.
 */
ASSAY_EXTERN void assay_proc_release(assay_proc *p);

/**
 * Finds out which sandbox layers this kernel grants, by running the supervisor once with every
 * layer asked for and no program (about a millisecond). Meant for a command line that says once
 * "sandbox: landlock-fs unavailable (…)". Honours the ASSAY_SANDBOX_REFUSE test hook.
 * @param out filled on success
 * @param err NULL or details of an error
 * @return 0, or ASSAY_ESPAWN if the supervisor could not be run (details in `err`)
 */
ASSAY_EXTERN int assay_sandbox_probe(assay_sandbox_report *out, assay_err *err);

/** What assay_memory_cgroups_enable() found. */
typedef struct assay_cgroup_report {
	int version;    /**< 2 (cgroup v2), 1 (cgroup v1's memory hierarchy), 0: none */
	char base[512]; /**< the cgroup folder the cases' cgroups are made in, or "" */
	char why[256];  /**< with version 0: why there are none, else "" */
} assay_cgroup_report;

/**
 * Lets a case with a memory limit run in a memory cgroup of its own (docs/security.md,
 * "Limits"). Until a caller calls this the library makes no cgroup, and
 * `limits.memory_bytes` is RLIMIT_DATA per process. It looks for assay's own cgroup of cgroup
 * v2 with the memory controller enabled for its children, else of cgroup v1's memory
 * hierarchy, and makes and removes a probe cgroup there (root, or a delegated subtree). When
 * it may: from then on every case with a memory limit gets a cgroup beneath that one, named
 * assay-PID-START-N, the supervisor written into it before anything of the case runs; the
 * limit bounds every page the case brings in (heap, shared and memfd pages, tmpfs files, no
 * swap), the kernel's OOM kill there is ASSAY_LIMIT_MEMORY, `max_rss` is at least the cgroup's
 * peak, and a case whose cgroup cannot be made fails to start (ASSAY_ESPAWN). assay itself is
 * never moved into a cgroup. Looks once; later calls report the same. Thread-safe.
 * @param out NULL, or filled with what was found
 * @return true when cgroups are used
 */
ASSAY_EXTERN bool assay_memory_cgroups_enable(assay_cgroup_report *out);

/**
 * Whether assay_memory_cgroups_enable() enabled them.
 * @param why NULL, or `len` bytes for the reason when false (not enabled, or not available)
 */
ASSAY_EXTERN bool assay_memory_cgroups(char *why, size_t len);

/**
 * Removes the case cgroups beneath the enabled base whose assay is gone (its pid not alive with
 * the start time in the cgroup's name: an assay killed mid-case), SIGKILLing the processes
 * still in them first. Never touches a cgroup not named assay-PID-START-N, or one whose owner
 * is alive. Nothing unless cgroups are enabled.
 * @return how many were removed
 */
ASSAY_EXTERN int assay_memory_cgroups_sweep(void);

/**
 * A short fixed name for one layer bit ("user-namespace", "pid-namespace", "landlock-fs",
 * "landlock-net", "landlock-scope", "seccomp", "no-new-privs"), or "unknown". Never NULL,
 * never to be freed. The same names are accepted by the ASSAY_SANDBOX_REFUSE test hook: an
 * environment variable of assay's own process holding a comma-separated list of them (or "all")
 * makes the library treat those layers as refused by the kernel, so that the paths taken on
 * kernels without them can be tested.
 */
ASSAY_EXTERN const char *assay_sandbox_layer_name(unsigned layer);

#ifdef __cplusplus
}
#endif
#endif
