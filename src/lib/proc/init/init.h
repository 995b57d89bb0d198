/*
 * Internal interface of the case supervisor (assay-init): its configuration, its state, and the
 * functions its files share. See protocol.h for the contract with the library.
 */
#ifndef ASSAY_INIT_INIT_H
#define ASSAY_INIT_INIT_H

#include "sys.h" /* first: it may set the feature macros the others read */

#include <stdbool.h>

#include "protocol.h"

#define MAX_RULES 4096 /* Landlock rules (paths) per case; more are ignored (less access) */

enum init_mode { MODE_RUN = 0, MODE_PROBE, MODE_SERVE };

enum rule_kind { RULE_READ = 0, RULE_WRITE };

/* What the library asked for (protocol.h): pointers into argv, nothing copied. */
#define CPUS_BYTES 128 /* CPUs 0-1023 */

struct cfg {
	enum init_mode mode;
	unsigned flags;      /* ASSAY_INIT_F_* */
	unsigned refuse;     /* layers to pretend refused (test hook) */
	const char *cwd;     /* NULL: stay where started */
	bool cwd_make;       /* -C: a case server makes `cwd` for the case and removes it after,
				when empty (protocol.h) */
	const char *tmp;     /* -t: a case server makes this folder for the case and removes it
				after, when empty (protocol.h); NULL: none */
	bool in_ns;          /* started as PID 1 of new user and PID namespaces */
	int ns_errno;        /* else, with the sandbox on: why the library could not make them */
	bool take_ids;       /* -u: take uid/gid (in_ns: the supervisor, else the program) */
	uint32_t uid, gid;
	int nrules;
	uint64_t cpu_s, data_bytes, fsize_bytes, nofile, nproc; /* 0: no limit */
	uint64_t tcp_port;   /* with ASSAY_INIT_F_NO_NET: the one TCP port it may bind (0: none) */
	unsigned char cpus[CPUS_BYTES]; /* -a: the CPUs the program runs on (a sched_setaffinity */
	unsigned ncpus_bytes;           /* mask of ncpus_bytes bytes); 0: the supervisor's */
	bool has_slot;       /* -k: a gated case's place among the cases run at once */
	uint32_t slot;
	char **argv;         /* the program's argv (NULL-terminated); argv[-2..-1] are ours to
				overwrite (the /bin/sh fallback uses them) */
	char **envp;
	/* last, and not zeroed for each case (cfg_clear): only the first nrules are read */
	const char *rule_path[MAX_RULES];
	enum rule_kind rule_kind[MAX_RULES];
};

/* Zeroes `c` up to its rules (48 KiB a case server would otherwise clear for every case). */
#define cfg_clear(c) memset((c), 0, offsetof(struct cfg, rule_path))

/* The supervisor's state while the case runs. */
struct sup {
	const struct cfg *cfg;
	bool pidns;          /* running as PID 1 of a new PID namespace */
	int sigfd;           /* signalfd for SIGCHLD and the control signals */
	int ruleset;         /* Landlock ruleset to enforce in the program, or -1 */
	unsigned ll_layers;  /* the layers that ruleset brings */
	bool want_seccomp;   /* install the seccomp filter in the program */
	bool filter_held;    /* serving: the server holds the seccomp filter its cases ask for
				(serve.c), which every program it starts inherits */
	bool ipc_shared;     /* serving: the case runs in the server's IPC namespace, not one of
				its own (ipc.c) */
	struct assay_init_report rep;
	int prog;            /* pid of the program, 0 once reaped */
	bool prog_exited;    /* its exit has been seen (it may still be a zombie) */
	bool killing;        /* the library asked to kill the case, or the program ended */
	bool kill_requested; /* the library asked to kill the case before the program ended */
	int orphan_limit;    /* a reaped descendant died of SIGXCPU/SIGXFSZ: that limit */
	int64_t utime_us, stime_us, maxrss_kb; /* of every process of the case reaped so far */
	int rep_fd;          /* where the case's report goes (ASSAY_INIT_FD_REPORT, or a case
				server's per-case pipe) */
	bool serving;        /* a case server (protocol.h): one case of many */
	int case_fd[3];      /* serving: the case's standard input, output and error */
	int ctl_fd;          /* serving: the case's control pipe (protocol.h), or -1 */
	int go_fd;           /* serving: a gated case's go pipe (protocol.h), or -1: the
				program is exec'd once a byte comes on it */
	int relay_fd;        /* serving: the case's relay pipe (protocol.h), or -1 */
	bool case_dropped;   /* serving: the library closed the report pipe: kill, no report */
};

/* layers.c */
void layer_refuse(struct assay_init_report *rep, unsigned layer, int err);
void layer_apply(struct assay_init_report *rep, unsigned layer);
int landlock_prepare(const struct cfg *cfg, struct assay_init_report *rep, unsigned *layers);
void landlock_enforce(int ruleset, unsigned layers, struct assay_init_report *rep);
void seccomp_enforce(struct assay_init_report *rep, bool no_net, bool tcp_server);
void set_limits(const struct cfg *cfg, bool pidns);
void drop_stdio(void);

/* ids.c */
void go_expect(void);
void go_wait(void);
void ids_take(const struct cfg *cfg, uint32_t keep);

/* supervise.c */
__attribute__((noreturn)) void supervise(struct sup *s);
__attribute__((noreturn)) void report_and_exit(const struct assay_init_report *rep);
void report_init(struct assay_init_report *rep);
void report_write(int fd, const struct assay_init_report *rep);
void prepare_layers(struct sup *s);
void case_run(struct sup *s);
__attribute__((noreturn)) void abandon(struct sup *s);

/* main.c: parses a per-case argv (protocol.h) into `c`, cleared first (cfg_clear). @return 0 or -1 */
int parse_case(struct cfg *c, int argc, char **argv, char **envp);

/* ipc.c: the IPC namespace a case server's cases share. ipc_share_prepare(), once, as the
 * server starts (before its seccomp filter): mounts the namespace's mqueue file system and
 * sets its System V *_next_id; @return whether cases may share the namespace (the mount made,
 * the ids set, the namespace empty).
 * ipc_left(): whether anything is left in the namespace (System V objects, message queues),
 * or a System V object was made since (the ids the next case gets would tell), or it cannot be
 * told. */
bool ipc_share_prepare(void);
bool ipc_left(void);

/* serve.c */
__attribute__((noreturn)) void serve(struct sup *s);

#endif
