/**
 * @file proc.h
 * Running one untrusted program: argv, environment, working folder, standard input, capped
 * captures of stdout and stderr, a timeout that kills the whole process group, and resource use.
 * Spec: style.md §7.7; suite-format.md "A case (cli adapter)"; issue #2 item 3.
 *
 * Calling sequence (one process, blocking):   ASSAY_PROC_INIT, fill fields, assay_proc_run(),
 *                                              assay_proc_release().
 * Calling sequence (driven by a pool, never blocking): assay_proc_start(); then, whenever poll()
 * says one of assay_proc_pollfds() is ready or assay_proc_deadline_ms() has passed,
 * assay_proc_pump(p, 0, &done); once done, assay_proc_finish(); assay_proc_release().
 *
 * Guarantees: the child is the leader of a new process group; its standard input is the given
 * bytes or empty (never assay's own); descriptors above 2 are closed in it; signal dispositions
 * and mask are reset before exec. On timeout the group gets SIGTERM, then SIGKILL after
 * `kill_grace_s`. When the child ends (for any reason) the whole group is sent SIGKILL, so no
 * descendant that stayed in the group survives it. Captures past their cap are read and dropped,
 * so the child never blocks on a full pipe.
 */
#ifndef ASSAY_PROC_H
#define ASSAY_PROC_H

#include <poll.h>
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

/** What happened to the process. Filled by assay_proc_finish()/assay_proc_run(). */
typedef struct assay_proc_result {
	assay_proc_status status;
	int exit_code;       /**< EXITED: the exit status (0-255) */
	int term_signal;     /**< SIGNALED/TIMED_OUT: the signal that ended it (TIMED_OUT and it
				  exited by itself after SIGTERM: SIGTERM) */
	int exec_errno;      /**< EXEC_FAILED: errno of the failed chdir or exec */
	double wall_s;       /**< seconds from start to exit (CLOCK_MONOTONIC) */
	double cpu_user_s;   /**< user CPU seconds of the child (wait4 rusage) */
	double cpu_sys_s;    /**< system CPU seconds of the child (wait4 rusage) */
	long long max_rss;   /**< peak resident set size of the child, bytes */
	bool out_truncated;  /**< stdout was longer than its cap */
	bool err_truncated;  /**< stderr was longer than its cap */
} assay_proc_result;

#define ASSAY_PROC_DEFAULT_CAP (64u * 1024 * 1024)

typedef struct assay_proc {
	/* Input: set by the caller before start. Strings are owned by the struct. */
	assay_strvec argv;       /**< argv[0] without '/' is looked up in the child's PATH */
	assay_strvec env;        /**< "K=V" sets K for the child; "K" unsets it */
	bool clear_env;          /**< start from an empty environment instead of assay's own */
	char *cwd;               /**< malloc'd folder to run in, or NULL for assay's own */
	const char *stdin_data;  /**< borrowed standard input bytes (must outlive the run);
				      NULL: empty */
	size_t stdin_len;
	size_t out_cap;          /**< stdout cap in bytes (0: ASSAY_PROC_DEFAULT_CAP) */
	size_t err_cap;          /**< stderr cap in bytes (0: ASSAY_PROC_DEFAULT_CAP) */
	double timeout_s;        /**< seconds; <= 0: no timeout */
	double kill_grace_s;     /**< seconds between SIGTERM and SIGKILL on timeout (< 0: 0; default 1) */

	/* Output: captured bytes (read them after finish; release frees them). */
	assay_buf out;
	assay_buf err;

	/* Private state. */
	pid_t pid;
	int fd_in, fd_out, fd_err;
	int fd_pid;              /* pidfd of the child: readable once it has exited */
	size_t stdin_off;
	double t_start, t_deadline, t_kill, t_exit, t_drain;
	int state;
	bool timed_out, out_trunc, err_trunc;
	int wait_status;
	int exec_errno;
	struct rusage rusage;
} assay_proc;

#define ASSAY_PROC_INIT                                                                        \
	{ .argv = ASSAY_STRVEC_INIT, .env = ASSAY_STRVEC_INIT, .kill_grace_s = 1.0,            \
	  .out = ASSAY_BUF_INIT, .err = ASSAY_BUF_INIT, .pid = -1, .fd_in = -1, .fd_out = -1,  \
	  .fd_err = -1, .fd_pid = -1 }

/** How many descriptors assay_proc_pollfds() may fill: stdin, stdout, stderr, the child. */
#define ASSAY_PROC_MAX_POLLFDS 4

/**
 * Starts the process. A program that cannot be found or a cwd that cannot be entered is not an
 * error here: assay_proc_finish() reports it as ASSAY_PROC_EXEC_FAILED.
 * @return 0; ASSAY_EINVALID if argv is empty or the proc was already started; ASSAY_ESPAWN if
 *         pipe/fork failed (details in `err`).
 */
ASSAY_EXTERN int assay_proc_start(assay_proc *p, assay_err *err);

/**
 * Fills `fds` (room for `max`; pass ASSAY_PROC_MAX_POLLFDS) with the descriptors to poll() for this
 * process: the pipes still open to the child, then a descriptor that becomes readable when the
 * child exits. With `max` of 3 the exit watch can be left out; the pipes and
 * assay_proc_deadline_ms() still wake the caller. @return how many were filled (0 once done).
 */
ASSAY_EXTERN size_t assay_proc_pollfds(const assay_proc *p, struct pollfd *fds, size_t max);

/**
 * Milliseconds until the next timed action is due (SIGTERM or SIGKILL on timeout, or giving up on
 * pipes that a descendant outside the group still holds after the child exited), -1 if none, 0 if
 * overdue. A pool uses the least of these as its poll() timeout.
 */
ASSAY_EXTERN int assay_proc_deadline_ms(const assay_proc *p);

/**
 * Moves data between assay and the child, waiting at most `wait_ms` milliseconds (0: do not wait;
 * -1: until something happens), applies due timeout actions, and reaps the child when it exits.
 * @param done set to true once the child has exited and every pipe is closed
 * @return 0 or ASSAY_EIO (details in `err`)
 */
ASSAY_EXTERN int assay_proc_pump(assay_proc *p, int wait_ms, bool *done, assay_err *err);

/**
 * After `done`: fills `out`. Nothing of the process group survives: the group was sent SIGKILL
 * when the child's exit was seen, before it was reaped (so the group id could not yet have been
 * reused). @return 0, or ASSAY_EINVALID if the process has not finished.
 */
ASSAY_EXTERN int assay_proc_finish(assay_proc *p, assay_proc_result *out);

/** Start, pump until done, finish. @return as assay_proc_start() and assay_proc_pump(). */
ASSAY_EXTERN int assay_proc_run(assay_proc *p, assay_proc_result *out, assay_err *err);

/**
 * Frees everything the struct owns (argv, env, cwd, captures). If the process is still running
 * it is killed with its group and reaped first. Returns `p` to ASSAY_PROC_INIT.
 */
ASSAY_EXTERN void assay_proc_release(assay_proc *p);

/**
 * Makes the calling process a child subreaper (Linux PR_SET_CHILD_SUBREAPER), so descendants
 * that leave their process group (setsid, double fork) are re-parented to assay instead of init
 * and can be found by assay_proc_kill_orphans(). Call once at program start. @return 0 or
 * ASSAY_ERROR where unsupported.
 */
ASSAY_EXTERN int assay_proc_become_subreaper(void);

/**
 * Kills (SIGKILL) and reaps every child of the calling process that is not in `keep` (`nkeep`
 * pids of processes still being run): descendants of finished cases that were re-parented to
 * assay. @return how many were killed.
 */
ASSAY_EXTERN int assay_proc_kill_orphans(const pid_t *keep, size_t nkeep);

#ifdef __cplusplus
}
#endif
#endif
