/*
 * The contract between libassay (src/lib/proc) and the case supervisor (assay-init, this
 * folder): how the library starts it and what it reports back. Included by both sides; the
 * supervisor is freestanding, so this header uses nothing but <stdint.h>.
 *
 * Start: the library exec's the supervisor (with the sandbox on, as PID 1 of new user and PID
 * namespaces) with
 *   fd 0, 1, 2   the program's standard input, output and error
 *   fd 3         the write end of the report pipe
 *   fd 4         the supervisor's own image (a memfd); the supervisor closes it first thing
 *   fd 5         (-n 1 only) the read end of the "go" pipe: the library writes the namespace's
 *                uid and gid maps from outside once the supervisor has been exec'd (a fresh,
 *                dumpable process whose maps its owner may write, which the library, made
 *                non-dumpable by its caller, is not), then writes one byte. EOF instead means
 *                the maps could not be written: the supervisor exits at once, reporting nothing.
 *   argv         "assay-init", ASSAY_INIT_VERSION, then options, then "--" and the program's
 *                argv; the program's environment is the supervisor's environment.
 * Options (each a flag word followed by its value):
 *   -m run|probe     run the program, or only try every layer and report (no program)
 *   -f HEX           ASSAY_INIT_F_* flags
 *   -R HEX           layers to pretend the kernel refused (test hook, ASSAY_SANDBOX_REFUSE)
 *   -n 1             the library started us as PID 1 of new user and PID namespaces
 *   -e ERRNO         the library could not make those namespaces: why
 *   -u UID:GID|-     the ids to take ("-": none). With -n 1: the supervisor takes them itself
 *                    after the maps (ids of the namespace; it holds CAP_SETUID and CAP_SETGID
 *                    there as ambient capabilities until then, drops its supplementary groups
 *                    and every capability); without: the program takes them before exec (the
 *                    supervisor runs as root)
 *   -c DIR           working folder of the program
 *   -C DIR           (a case server's request) -c DIR, a folder that does not exist yet: the
 *                    server makes it (0755, the program's ids) before the case's layers and,
 *                    once everything of the case is reaped, removes it when it is empty
 *                    (report: cwd_removed); one it cannot make ends the case before its
 *                    program (report: cwd_errno). A supervisor of its own is given it made
 *   -t DIR           (a case server's request) the case's temporary folder, which does not
 *                    exist yet: the server makes it (0700, the program's ids) before the
 *                    case's layers and, once everything of the case is reaped, removes it
 *                    when it is empty (report: tmp_removed); a folder it cannot make ends the
 *                    case before its program (report: tmp_errno). A supervisor of its own
 *                    (no server) is given it made by the library, and leaves it alone
 *   -r PATH          Landlock: read and execute beneath PATH (a folder or one file)
 *   -w PATH          Landlock: also write, create and remove beneath PATH (folder or file)
 *   -l R=N           resource limit: c (CPU s), d (data bytes), f (file bytes), n (open files),
 *                    p (processes)
 *   -p PORT          network off, but the program may serve TCP on PORT (an api server): TCP
 *                    sockets are allowed, Landlock lets it bind PORT only and connect nowhere
 *   -a HEX           the CPUs the program runs on: a sched_setaffinity mask, two hex digits a
 *                    byte, byte 0 (CPUs 0-7) first, at most 128 bytes; set just before exec
 *                    (without it the program keeps the supervisor's CPUs)
 *   -k SLOT          the case's place (0-1023) among the cases the library runs at once
 *                    (src/lib/proc/proc.c, slots): its process is set up on one CPU (moved
 *                    there first), or, gated, waits for its go there: the SLOT-th (modulo their
 *                    count) of the program's CPUs its supervisor is not on, or of all the
 *                    program's CPUs when none is left; the program gets them all back before
 *                    exec. With no -a, the program's CPUs are the supervisor's.
 * Control: SIGTERM from the library means "terminate the case" (SIGTERM + SIGCONT to the
 * program's process group, or to every process of the PID namespace); SIGUSR1 means "kill the
 * case now". Both are honoured only when sent by the parent.
 * Report: one struct assay_init_report written to fd 3 once everything the case started has
 * been killed and reaped; then the supervisor exits. No report (EOF first) means the supervisor
 * itself was killed.
 *
 * Case server (-m serve, no "--" and no program): the same start, but fd 3 is one end of a
 * SOCK_SEQPACKET socket pair, and the supervisor runs case after case (src/lib/proc/server.c).
 *   Its -f, -R and -p are those of its cases: with ASSAY_INIT_F_SANDBOX it installs the seccomp
 *   filter they ask for in itself, once (init/serve.c), and a request whose -f (sandbox and
 *   network flags), -R (seccomp) or -p (set or not) ask for another gets a usage failure.
 *   Ready: once set up (namespaces entered, ids taken, non-dumpable) it sends one struct
 *   assay_init_report on fd 3: failure 0 and the layers of its own (namespaces) applied or
 *   refused; or a failure, and exits.
 *   Request: one message per case: struct assay_init_request, then `nargs` strings (an argv
 *   exactly as a per-case supervisor would get it: "assay-init", ASSAY_INIT_VERSION, options,
 *   "--", the program's argv) and `nenv` strings (the program's environment), each
 *   NUL-terminated, at most ASSAY_INIT_REQ_MAX bytes in all; and, as SCM_RIGHTS, five
 *   descriptors: the program's standard input, output and error, the write end of the case's
 *   report pipe, and the read end of its control pipe. The options -n, -e and -u of a request
 *   are ignored: the server's own hold.
 *   Gated case (flag ASSAY_INIT_REQ_F_GATED): a sixth descriptor, the read end of the case's
 *   go pipe. The case is set up as any other (forked, every layer and limit in force) and the
 *   program is exec'd only once a byte comes on that pipe; its end of file first means
 *   "never": the case ends with exec_errno ECANCELED. Meanwhile the server reads no control and
 *   no request: the library abandons a gated case by closing every write end of the go pipe.
 *   The report's t_start_ns is when the byte came (else: just before the fork). The go pipe
 *   is the case's control pipe too: its read end is the fifth descriptor as well as the sixth
 *   (a pipe less per case). A byte on the control pipe that is no command (a go written both
 *   by the library and by a relay) is ignored.
 *   Relay (flag ASSAY_INIT_REQ_F_RELAY): one more descriptor, the write end of a pipe whose
 *   read end the library may give the next case of the lane as its go pipe. Once the case is
 *   wholly reaped, the server writes one byte on it (report `relayed`), so the next case
 *   starts without a round trip through the library, when: the case ended on its own (no KILL
 *   from the library, its report pipe not dropped), and the file system of its working folder
 *   has half its room and inodes free (a case that filled it must not fail the next: the
 *   library gives its folder back first). Then it closes it.
 *   Control: a byte on the case's control pipe, ASSAY_INIT_CTL_TERM ("terminate the case", as
 *   SIGTERM above) or ASSAY_INIT_CTL_KILL ("kill the case now", as SIGUSR1); its end of file,
 *   the same as KILL. Control signals are not used: a pipe of the case's own cannot reach the
 *   next case, which a signal sent as a case ends could.
 *   Report: one struct assay_init_report on the case's report pipe once everything the case
 *   started has been killed and reaped, then the pipe is closed. The server holds its copies
 *   of the case's standard output and error until then and closes them just before the
 *   report (its standard input at the program's start). A request that is malformed
 *   gets a usage failure on its report pipe. The library closing its end of the report pipe
 *   or of the control pipe means "kill the case"; closing fd 3 means "exit" (the running case
 *   is killed first).
 */
#ifndef ASSAY_INIT_PROTOCOL_H
#define ASSAY_INIT_PROTOCOL_H

#include <stdint.h>

#define ASSAY_INIT_VERSION "assay-init-3"
#define ASSAY_INIT_MAGIC 0x61737931u /* "asy1" */

#define ASSAY_INIT_FD_REPORT 3
#define ASSAY_INIT_FD_SELF 4
#define ASSAY_INIT_FD_GO 5

/* A case server's request (see above). */
#define ASSAY_INIT_REQ_MAGIC 0x61737971u /* "asyq" */
#define ASSAY_INIT_REQ_MAX 196608        /* bytes of a request, header included */
#define ASSAY_INIT_REQ_STRINGS 16384     /* nargs + nenv */
#define ASSAY_INIT_REQ_FDS 5
#define ASSAY_INIT_REQ_FDS_MAX 7 /* with a go pipe's read end and a relay pipe's write end */
#define ASSAY_INIT_REQ_F_GATED 1u /* request flags: a go pipe's read end follows the five */
#define ASSAY_INIT_REQ_F_RELAY 2u /* a relay pipe's write end follows (after the go pipe) */
#define ASSAY_INIT_CTL_TERM 'T' /* on a case's control pipe: SIGTERM to the case */
#define ASSAY_INIT_CTL_KILL 'K' /* kill the case now */

struct assay_init_request {
	uint32_t magic;
	uint32_t nargs;
	uint32_t nenv;
	uint32_t flags; /* ASSAY_INIT_REQ_F_* */
};

/* -f flags */
#define ASSAY_INIT_F_SANDBOX (1u << 0)  /* apply the sandbox layers */
#define ASSAY_INIT_F_REQUIRED (1u << 1) /* a refused layer stops the case before exec */
#define ASSAY_INIT_F_NO_NET (1u << 2)   /* network off */

/* Layer bits: the same values as the public ASSAY_SANDBOX_* (proc.h checks it). */
#define ASSAY_INIT_L_USERNS (1u << 0)
#define ASSAY_INIT_L_PIDNS (1u << 1)
#define ASSAY_INIT_L_LANDLOCK_FS (1u << 2)
#define ASSAY_INIT_L_LANDLOCK_NET (1u << 3)
#define ASSAY_INIT_L_LANDLOCK_SCOPE (1u << 4)
#define ASSAY_INIT_L_SECCOMP (1u << 5)
#define ASSAY_INIT_L_NO_NEW_PRIVS (1u << 6)
#define ASSAY_INIT_NLAYERS 7

/* Limit codes: the same values as the public assay_limit (proc.h checks it). */
#define ASSAY_INIT_LIMIT_NONE 0
#define ASSAY_INIT_LIMIT_CPU 1
#define ASSAY_INIT_LIMIT_MEMORY 2
#define ASSAY_INIT_LIMIT_FILE_SIZE 3
#define ASSAY_INIT_LIMIT_OPEN_FILES 4
#define ASSAY_INIT_LIMIT_PROCESSES 5

/* What went wrong in the supervisor itself (report.failure); 0: nothing. */
#define ASSAY_INIT_FAIL_USAGE 1    /* bad arguments: a library/supervisor mismatch */
#define ASSAY_INIT_FAIL_SYSTEM 2   /* a syscall the supervisor needs failed: see fail_errno */
#define ASSAY_INIT_FAIL_REQUIRED 3 /* a required layer was refused: the program never ran */

struct assay_init_report {
	uint32_t magic;
	uint32_t size;           /* sizeof(struct assay_init_report) */
	int32_t failure;         /* ASSAY_INIT_FAIL_*, 0 if the supervisor did its job */
	int32_t fail_errno;      /* errno (or signal) of the failure */
	int32_t exec_errno;      /* the program could not be started (chdir or exec): its errno */
	int32_t wait_status;     /* the program's wait status */
	int32_t limit;           /* ASSAY_INIT_LIMIT_* that ended the program, best effort */
	uint32_t applied;        /* layers in force when the program was exec'd */
	uint32_t refused;        /* layers asked for that the kernel (or the test hook) refused */
	int32_t refused_errno[ASSAY_INIT_NLAYERS]; /* why, per layer bit */
	int32_t landlock_abi;    /* 0: no Landlock */
	int32_t processes;       /* processes of the case alive when the program ended (counted
				    only with a process limit; -1 otherwise) */
	int64_t utime_us;        /* user CPU of every process of the case, microseconds */
	int64_t stime_us;        /* system CPU of every process of the case */
	int64_t maxrss_kb;       /* the largest peak RSS among the case's processes, KiB */
	int64_t t_start_ns;      /* CLOCK_MONOTONIC: just before the program was forked */
	int64_t t_exit_ns;       /* CLOCK_MONOTONIC: when the program's exit was seen */
	int32_t retired;         /* a case server: this was its last case; it exits after this
				    report (the case changed what the server's next cases would
				    inherit: limits, priority, CPUs, scheduling, I/O class) */
	int32_t relayed;         /* a case server: a byte was written on the case's relay pipe */
	int64_t t_relay_ns;      /* CLOCK_MONOTONIC: when it was written (relayed only): the
				    start of the case that follows, for its timeout */
	int32_t tmp_errno;       /* a case server, -t: the folder could not be made (errno; the
				    program never ran: exec_errno is the same) */
	int32_t tmp_removed;     /* a case server, -t: the folder was empty after the case and
				    is gone */
	int32_t cwd_errno;       /* a case server, -C: the working folder could not be made
				    (errno; the program never ran: exec_errno is the same) */
	int32_t cwd_removed;     /* a case server, -C: it was empty after the case and is gone */
	int64_t t_done_ns;       /* CLOCK_MONOTONIC: when this report was written (the case's
				    processes all ended, its folders given back): the end of the
				    supervisor's work for the case */
};

#endif
