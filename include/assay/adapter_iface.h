/**
 * @file adapter_iface.h
 * The adapter interface: what one adapter supplies (an `assay_adapter`, a line of the registry
 * in adapter.h) and what it is given. The cli adapter runs a program per case; the api adapter
 * starts a server per group and sends each case as a request. The loader and the runner only
 * ever call an adapter through this interface.
 *
 * The interface belongs to the loader's layer (load, docs/architecture.md "Layers"), below the
 * adapters themselves: the loader calls an adapter's load_suite and load_case through it, and is
 * handed the registry's table by assay_suite_load(), so it never names an adapter. adapter.h
 * (the adapters and their registry) includes it; include that one.
 * Spec: suite-format.md ("A case (cli adapter)", "A case (api adapter)"); verification.md
 * (CaseResult: the attributes a verifier compares).
 *
 * Life of a case: the loader calls `load_case` to read the adapter's own keys of a case into
 * typed data; the runner calls `group_begin` before the first case of a group, then for each
 * case `start`, `pump` (or `pump_polled`) until done (driven by poll() on `pollfds` and
 * `deadline_ms`, so a pool can run many cases at once), `finish` (the attributes), and
 * `group_end` after the group.
 * A runner that could not pump a job for a while (busy verifying another case) calls `extend`
 * so that the pause does not count against the job's timeout.
 * A case that fails, times out or cannot start is not an error: it is data in the result.
 * Functions return an error code only when assay itself cannot go on.
 */
#ifndef ASSAY_ADAPTER_IFACE_H
#define ASSAY_ADAPTER_IFACE_H

#include <poll.h>

#include "buf.h"
#include "fs.h"
#include "model.h"
#include "proc.h"
#include "suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the runner passes an adapter: the resolved settings of the run. All borrowed. */
typedef struct assay_run_ctx {
	const assay_suite *suite;
	const assay_checkpoint *checkpoint;
	const assay_group *group;
	const assay_strvec *command;  /**< argv prefix (adapter.command or --entry) */
	const char *submission;       /**< absolute folder copied into working folders, or NULL */
	size_t out_cap;               /**< bytes kept of stdout, of stderr and of each file */
	size_t err_cap;
	double kill_grace_s;          /**< SIGTERM -> SIGKILL on timeout, seconds */
	const char *group_dir;        /**< the group's folder (api: where the server runs) */
	const assay_sandbox *sandbox; /**< what a case may do (docs/security.md); its tmp_dir is
					   unset: the adapter makes one per case under tmp_root */
	const char *tmp_root;         /**< where per-case temporary folders are made */
	const char *const *pass_env;  /**< assay_run_opts.pass_env */
	assay_proc_servers *servers;  /**< case servers for the run's procs (proc.h), or NULL */
	assay_fs_spares *spares;      /**< spare folders for per-case folders (fs.h), or NULL */
	bool relay;                   /**< a case may let the case armed after it start itself
					   as it ends (arm's `after`; any -j: at -jN assay lets
					   it go too if another case ends first) */
	bool workdir_empty;           /**< true only during the one `start` or `arm` call it is
					   passed to, and only when that case's working folder was
					   made for it just now and nothing was put in it (no
					   submission, no files/): the adapter may then tell the
					   sandbox so (proc.h assay_sandbox.cwd_empty) once it has
					   written nothing there either */
	bool start_again;             /**< true only during the one `start` call it is passed
					   to, when another case runs beside it: an error then
					   only makes the pool start the case again once a case
					   ends (that case may have filled the working folders'
					   file system), so the adapter may return one for what
					   is otherwise the case's verdict (the cli adapter: a
					   temporary folder or input file that cannot be made;
					   the api adapter: a server folder that could not be
					   prepared, when the pool undoes the group with it) */
	bool tmp_by_server;           /**< a case's temporary folder is named under tmp_root,
					   not made: the case's server makes and removes it
					   (proc.h assay_sandbox.tmp_make); tmp_root is writable
					   by the sandbox's ids (with root: root's, 0733). The
					   pool starts such a case beside a running one only when
					   an inode is free for that folder, and again once a case
					   ends when its server found no room (pool.c inodes_free,
					   again); a lane's first case started beside another has
					   it false (its failure must undo the lane) */
	bool workdir_unmade;          /**< true only during the one `start` or `arm` call it is
					   passed to (an adapter with `makes_workdir` only), when
					   that case's working folder was not made: a fresh folder
					   of an isolated case in the run's tmpfs, with nothing to
					   go in it from the pool (no submission, no files/). The
					   adapter makes it (as workdir_empty's) or has the case's
					   server make it (proc.h assay_sandbox.cwd_make); its
					   parent is writable by the sandbox's ids (with root:
					   root's, 0733) and only Landlock keeps a case out of it.
					   The pool removes it after the case, if it is there */
} assay_run_ctx;

/** Passed to `load_case`: where the case comes from, for located messages. */
typedef struct assay_case_load_ctx {
	const assay_suite *suite;
	const assay_group *group;
	assay_case *kase;         /**< the case being loaded (its arena, id, file) */
	const assay_value *own;   /**< the case file's own mapping (warnings are about it) */
	assay_warn_fn warn;
	void *payload;
} assay_case_load_ctx;

/**
 * Records, in `err`, ASSAY_EINVALID with the printf-formatted message located at `at` (a value
 * of the case or the suite; see assay_case_locate) and returns ASSAY_EINVALID.
 */
ASSAY_EXTERN int assay_case_error_at(const assay_case_load_ctx *ctx, const assay_value *at,
				     assay_err *err, const char *fmt, ...) ASSAY_PRINTF(4, 5);
/** Sends a warning located at `at` to ctx->warn (when set). */
ASSAY_EXTERN void assay_case_warn_at(const assay_case_load_ctx *ctx, const assay_value *at,
				     const char *fmt, ...) ASSAY_PRINTF(3, 4);

/** What a case is given besides its environment (assay_adapter.case_inputs); all borrowed from
 *  the case. */
typedef struct assay_case_inputs {
	const char *const *argv;        /**< the case's own arguments (after the command), or
					     NULL */
	size_t argc;
	const char *stdin_data;         /**< its standard input, or NULL: empty */
	size_t stdin_len;
	const assay_input_file *files;  /**< files written into its working folder before it runs */
	size_t nfiles;
} assay_case_inputs;

/** A list of a case that merges with the list it inherits entry by entry, not replacing it
 *  (assay_adapter.merge_lists). */
typedef struct assay_list_merge {
	const char *key; /**< the case key holding the list ("input_files") */
	const char *by;  /**< the string field naming an entry ("path") */
} assay_list_merge;

typedef struct assay_adapter {
	const char *name;                 /**< adapter.type in suite.yaml: "cli", "api" (reports'
					       case.type); unique in the registry */
	const char *const *case_keys;     /**< NULL-terminated keys of a case it reads */
	const char *const *attributes;    /**< NULL-terminated expected attributes it can produce,
					       besides files-<path> (when `files` is true) */
	bool files;                       /**< it collects files-<path> attributes */
	bool serial_groups;               /**< the cases of a group must run one at a time, in
					       order, whatever `isolated` says (the api adapter:
					       one server per group, whose state a case may
					       build on for the next) */
	/**
	 * Reads the adapter's own keys of suite.yaml's `adapter` mapping `config` into
	 * `s->adapter_data` (in s->arena); may be NULL. Called by assay_suite_load() once the
	 * common adapter keys are read. @return 0 or ASSAY_EINVALID located with
	 * assay_suite_error_at()
	 */
	int (*load_suite)(assay_suite *s, const assay_value *config, assay_err *err);
	/**
	 * Reads the adapter's own keys of the merged case `def` into `c->adapter_data` (in
	 * c->arena). It may also complete `c->verify` with the default entry of an attribute it
	 * produces (the api adapter: headers and a JSON output are compared as JSON) and normalise
	 * `c->expected` of its own attributes (header names in lower case).
	 * @return 0 or ASSAY_EINVALID located with assay_case_error_at()
	 */
	int (*load_case)(assay_case *c, const assay_value *def, const assay_case_load_ctx *ctx,
			 assay_err *err);
	/** Before the first case of a group (may be NULL). `*state` is passed to the rest. It
	 *  should not wait long: the api adapter only starts its server here, and the group's
	 *  first case waits for it to be ready through start/pump. On error it frees what it
	 *  made (group_end is called only after a success). */
	int (*group_begin)(void **state, const assay_run_ctx *ctx, assay_err *err);
	/** Starts case `c` in `workdir` (which holds the submission and input files already). */
	int (*start)(void **job, void *state, const assay_run_ctx *ctx, const assay_case *c,
		     const char *workdir, assay_err *err);
	/**
	 * Like start, but the case's program does not run until `go` (may be NULL, with `go`:
	 * the pool then starts each case when a slot frees). The pool arms the next case while
	 * the one before it runs, so that everything but the program's own start (its folder,
	 * its process, its sandbox) is done by the time its slot frees. Until go the pool neither
	 * polls nor pumps the job, but may abort it: nothing of its program has run then.
	 * `after`: NULL, or the running job (of this adapter, started with ctx->relay) this case
	 * follows: its program may then start the moment that job's case ends on its own, before
	 * `go` (proc.h assay_proc_follow); the pool aborts `after` before this one. An error
	 * (any code: the case's own, such as an input file the full working folders' file system
	 * cannot take, or assay's) means only that the case is not armed: the pool starts it with
	 * `start` in its turn, and what that reports counts.
	 */
	int (*arm)(void **job, void *state, const assay_run_ctx *ctx, const assay_case *c,
		   const char *workdir, void *after, assay_err *err);
	/** Lets an armed job's program start; its timeout counts from here (from the end of
	 *  `after`'s case, when its server let it start then). @return 0, or an error as
	 *  start's. */
	int (*go)(void *job, assay_err *err);
	/** Fills `fds` (room for `max`) with what to poll for `job`; @return how many. */
	size_t (*pollfds)(void *job, struct pollfd *fds, size_t max);
	/** Milliseconds until `job` has something timed to do, -1 if nothing, 0 if overdue. */
	int (*deadline_ms)(void *job);
	/** Does whatever is ready without waiting; `*done` once the case has ended. */
	int (*pump)(void *job, bool *done, assay_err *err);
	/**
	 * Like pump, for a runner that has just polled: `fds` holds the `n` descriptors `pollfds`
	 * gave for `job`, with the revents of one poll() made since, and the job was not pumped
	 * in between; they are not polled again. May be NULL: the runner calls pump.
	 */
	int (*pump_polled)(void *job, const struct pollfd *fds, size_t n, bool *done,
			   assay_err *err);
	/** After done: fills `out` (attributes, process result) and frees the job. */
	int (*finish)(void *job, assay_case_result *out, assay_err *err);
	/** Kills and frees a job that will not be finished (interrupt). */
	void (*abort)(void *job);
	/** After the last case of a group (may be NULL). */
	void (*group_end)(void *state);
	/** The runner could not pump `job` for `seconds` (it was verifying or storing another
	 *  case): push its timed actions back as much, so that time does not count against the
	 *  case's timeout (may be NULL). */
	void (*extend)(void *job, double seconds);
	/**
	 * How many groups of `suite` may be set up at once (between group_begin and group_end),
	 * whatever the number of jobs: 0 for no limit. May be NULL (no limit). The api adapter
	 * returns 1 when suite.yaml fixes `adapter.port` (two servers cannot listen on it at
	 * once), else 0. The pool (run.h) starts no case of another group while that many are set
	 * up. Spec: suite-format.md ("A case (api adapter)").
	 */
	size_t (*groups_at_once)(const assay_suite *suite);
	/**
	 * Fills `out` with what case `c` (loaded by this adapter, without error) is given besides
	 * its environment: its arguments, standard input and input files, for a repro bundle
	 * (render.h, assay_sink_repro_new). May be NULL: the adapter's cases are given nothing of
	 * the kind, and their bundles have no argv.json, env.json, stdin or files/.
	 */
	void (*case_inputs)(const assay_case *c, assay_case_inputs *out);
	/**
	 * NULL-terminated keys of suite.yaml's `adapter` mapping that the adapter reads itself
	 * (in load_suite), besides the common ones every adapter has (type, command, submission,
	 * timeout, env, sandbox, network, read_paths, limits). May be NULL: none. The loader
	 * warns about a key no adapter of the registry (adapter.h) knows.
	 */
	const char *const *suite_keys;
	/** A run cannot start without a command (adapter.command or --entry):
	 *  assay_run_suite() refuses it before any case runs ("no command to run: ..."). False:
	 *  the adapter says so itself when it needs one (the api adapter, as a group starts
	 *  its server). */
	bool needs_command;
	/** A case is a request to the server its group started, not a process of its own: its
	 *  report's `execution` leaves out exit code, signal, CPU, memory and sandbox (the
	 *  server's are the group's) rather than show zeros. Spec: docs/reports.md. */
	bool requests;
	/** It takes a working folder not made yet (assay_run_ctx.workdir_unmade). */
	bool makes_workdir;
	/**
	 * For the command line reproducing a failed case by hand (the terminal report, render.h):
	 * from `def`, the case as its report line shows it (reports.jsonl's `case`; a replayed
	 * case's line may hold a long value cut, json.h's `$assay_cut`), sets `*args` to the
	 * value whose items are the program's arguments after the command (scalars, given as
	 * their text; NULL: none) and `*stdin_value` to what it reads on standard input (a
	 * scalar as its text, a list or mapping as one line of JSON; NULL: nothing). Both are
	 * borrowed from `def`. @return false when the case cannot be reproduced by a command.
	 * May be NULL: the adapter's cases have no such line (the api adapter: a request needs
	 * its group's server).
	 */
	bool (*repro_inputs)(const assay_value *def, const assay_value **args,
			     const assay_value **stdin_value);
	/**
	 * The adapter's case keys holding lists that merge with the inherited list (defaults,
	 * case_defaults, then the case file) entry by entry: the inherited entries in their
	 * order, each replaced by the overriding entry with the same `by` field, then the other
	 * overriding entries; `KEY: null` drops the inherited list. Ended by { NULL, NULL }; may
	 * be NULL: every list a case sets replaces the inherited one. The cli adapter's
	 * input_files merge by path (suite-format.md, "A case (cli adapter)").
	 */
	const assay_list_merge *merge_lists;
	/**
	 * Rewrites the merged case `def` (in ctx->kase->arena) before `{{static:NAME}}` is
	 * substituted in it (the cli adapter splits a shell-quoted `arguments` string into a list
	 * here, so that an asset path with spaces stays one word). May be NULL.
	 * @return 0 or ASSAY_EINVALID located with assay_case_error_at()
	 */
	int (*prepare_case)(assay_value *def, const assay_case_load_ctx *ctx, assay_err *err);
} assay_adapter;

#ifdef __cplusplus
}
#endif
#endif
