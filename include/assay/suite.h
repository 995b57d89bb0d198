/**
 * @file suite.h
 * The suite model and its loader: suite.yaml (the problem, its adapter, checkpoints, groups and
 * defaults), the cases found on disk, and the loading of one case when it is about to run.
 * Spec: suite-format.md ("Layout", "suite.yaml", "A case (cli adapter)", "A case (api
 * adapter)").
 *
 * Two steps, so that a suite of any size costs little memory: assay_suite_load() reads
 * suite.yaml and lists each group's cases (ids and files, not their content);
 * assay_case_load() reads one case file, merges the defaults under it, checks every value and
 * returns the case ready to run, in an arena of its own that assay_case_free() releases.
 *
 * Everything in an assay_suite is owned by it and read-only to callers; values (value.h) live in
 * the suite's arena.
 */
#ifndef ASSAY_SUITE_H
#define ASSAY_SUITE_H

#include "proc.h"
#include "strvec.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum assay_group_type {
	ASSAY_GROUP_CORE = 0,
	ASSAY_GROUP_FUNCTIONALITY,
	ASSAY_GROUP_ERROR,
	ASSAY_GROUP_REGRESSION,
} assay_group_type;

/** "Core", "Functionality", "Error" or "Regression" (the GroupType values of the contract). */
ASSAY_EXTERN const char *assay_group_type_name(assay_group_type type);

/** A case found on disk, not loaded yet. */
typedef struct assay_case_ref {
	char *id;        /**< file name without extension, or folder name (any bytes but '/') */
	char *file;      /**< …/<id>.yaml (.yml, .json) or …/<id>/case.yaml */
	char *files_dir; /**< a case folder's files/ subfolder, or NULL */
	char *problem;   /**< why the case cannot be loaded whatever its content (a duplicate id),
			      or NULL */
} assay_case_ref;

struct assay_adapter;

typedef struct assay_group {
	char *name;                 /**< as in suite.yaml; `<checkpoint>_<group>` for regressions */
	assay_group_type type;
	bool isolated;              /**< fresh working folder per case (default true) */
	char *original_checkpoint;  /**< regression groups: where the cases come from, else NULL */
	char *original_group;
	char *dir;                  /**< the folder the cases are read from */
	assay_case_ref *cases;      /**< in run order (case_order first, then byte order) */
	size_t ncases;
	size_t ncases_found;        /**< cases in its folder before the selection (case globs,
				         case names) kept `ncases` of them */
	/* What every case of the group inherits (read by assay_case_load). */
	assay_value case_defaults;  /**< defaults deep-merged with case_defaults (a mapping) */
	double timeout;             /**< seconds: group, else checkpoint, else adapter */
	assay_limits limits;        /**< adapter.limits, then checkpoint's, then group's */
	assay_strvec env;           /**< "K=V" / "K": adapter env, then checkpoint env */
	/* A Python verifier deciding every case of the group (`verifier: {python, class}` of its
	 * checkpoint, else of the suite; verification.md "Verifier Protocol"), or NULL. */
	const char *verifier_python; /**< absolute path of the .py file (in the suite's arena) */
	const char *verifier_class;  /**< the class to build (default "Verifier") */
	assay_value verifier_config; /**< the checkpoint's mapping in suite.yaml: its config */
	double verifier_timeout;     /**< verifier.timeout: seconds per case's answer (0: the
					  verification budget's time, 60 s by default) */
} assay_group;

typedef struct assay_checkpoint {
	char *name;
	int order;
	char *path;        /**< folder, relative to the suite */
	char *submission;  /**< absolute submission folder for this checkpoint, or NULL */
	assay_group *groups;
	size_t ngroups;
} assay_checkpoint;

/** adapter.sandbox (docs/security.md). */
typedef enum assay_sandbox_mode {
	ASSAY_SANDBOX_ON = 0,       /**< the default: every layer the kernel grants */
	ASSAY_SANDBOX_OFF,          /**< none (the program runs as assay's user, anywhere) */
	ASSAY_SANDBOX_REQUIRED,     /**< every layer, or no case runs */
} assay_sandbox_mode;

/**
 * The built-in adapters, as programs written before the adapter registry (adapter.h) tell them
 * apart. Kept for them only: the library itself goes by `assay_suite.adapter` and its name.
 */
typedef enum assay_adapter_type {
	ASSAY_ADAPTER_CLI = 0,
	ASSAY_ADAPTER_API,
} assay_adapter_type;

struct assay_load_hooks;

typedef struct assay_suite {
	char *name;
	char *description;
	char *root;                  /**< absolute path of the suite folder */
	char *file;                  /**< absolute path of suite.yaml (or .yml, .json) */
	assay_adapter_type adapter_type; /**< set by the cli and api adapters' load_suite, for
					      compatibility only (another adapter leaves 0): use
					      `adapter` */
	const struct assay_adapter *adapter; /**< the adapter that runs its cases: the one of the
					          registry (adapter.h) adapter.type names */
	assay_value adapter_config;  /**< the `adapter` mapping of suite.yaml */
	void *adapter_data;          /**< what the adapter read of that mapping (its load_suite),
					  in `arena`, or NULL */
	assay_strvec command;        /**< adapter.command (argv prefix): a common key (the cli
					  adapter's program, the api adapter's server) */
	char *submission;            /**< absolute adapter.submission, or NULL */
	double timeout;              /**< adapter.timeout, seconds */
	assay_sandbox_mode sandbox;  /**< adapter.sandbox (default on) */
	bool network;                /**< adapter.network (default false: no network) */
	assay_strvec read_paths;     /**< adapter.read_paths: absolute folders or files cases may
					  also read, besides the static assets */
	assay_limits limits;         /**< adapter.limits (default: processes 512, the rest none) */
	assay_strvec tracked_files;  /**< the cli adapter's adapter.tracked_files: globs relative
					  to the working folder, read by its load_suite (kept in
					  the suite, public, for programs that read it; empty for
					  another adapter) */
	assay_value assets;          /**< static asset NAME -> absolute path (a mapping) */
	assay_value raw;             /**< suite.yaml as loaded */
	assay_arena *arena;          /**< holds the values above */
	assay_checkpoint *checkpoints; /**< sorted by `order`, then as written */
	size_t ncheckpoints;
	size_t ncases;               /**< over all checkpoints and groups */
	bool strict;                 /**< warnings are errors: assay_suite_filter.strict or
					  `strict: true` in suite.yaml; assay_case_load obeys it */
	size_t unrun_case_files;     /**< case files in folders that no checkpoint or group of
					  suite.yaml declares (a misspelled group or checkpoint
					  folder): they never run; each folder is also a warning
					  ("... never run"). summary.json's `unrun_case_files` */
	const struct assay_load_hooks *hooks; /**< the library's own (opaque): what the loader
						  asks of the modules above it (the adapter
						  table, the verifier registry), set by
						  assay_suite_load for assay_case_load. NULL in a
						  suite made by hand: assay_case_load then leaves
						  verify entries unchecked (they are checked when
						  they run, verify.h) */
} assay_suite;

/**
 * What to load: all NULL/0 means everything, loaded leniently. A case is kept when its
 * checkpoint, its group and the case itself are each selected (spec: docs/cli.md, "Selecting
 * cases").
 */
typedef struct assay_suite_filter {
	const char *checkpoint;        /**< exact checkpoint name, or NULL */
	const char *const *group_globs; /**< fnmatch() patterns on group names or on
					    `checkpoint/group` (any matches), or NULL;
					    NULL-terminated */
	const char *const *case_globs;  /**< fnmatch() patterns on case ids or on
					    `checkpoint/group/id` (any matches), or NULL;
					    NULL-terminated */
	const char *const *case_names;  /**< exact `checkpoint/group/id` names (any matches; a
					    re-run of failed cases), or NULL; NULL-terminated */
	bool strict;                    /**< every warning is an error (also `strict: true` in
					    suite.yaml): see assay_suite_load */
} assay_suite_filter;

/** Receives warnings (unknown keys, missing group folders, ...), located "path:line:col: ...". */
typedef void (*assay_warn_fn)(void *payload, const char *msg);

/**
 * Loads the suite in folder `dir` (suite.yaml, or suite.yml / suite.json) and lists its cases
 * (their files are read later, by assay_case_load). adapter.type names an adapter of the
 * registry (adapter.h); suite.yaml's `plugins:` are loaded (plugin.h) and register their
 * verifiers, so that case files can name them.
 *
 * A selection never silently keeps nothing: a checkpoint that does not exist, or patterns
 * under which no case is left, are ASSAY_ENOMATCH, the message naming the closest names; a
 * pattern that alone matches nothing while others match is a warning. Unknown keys and other
 * doubtful things are warnings (located "path:line:col: ..."); under strictness (the filter's
 * `strict` or `strict: true` in suite.yaml) every warning still goes to `warn`, so a checker
 * sees them all, and the load then fails with ASSAY_EINVALID located at the first.
 *
 * @param out     receives the suite (caller frees with assay_suite_free)
 * @param filter  NULL or which checkpoints/groups/cases to keep, and strictness
 * @param warn    NULL or a callback for warnings; `payload` is passed to it
 * @return 0; ASSAY_ENOTFOUND (no such folder or no suite.yaml in it), ASSAY_EPARSE (malformed
 *         suite.yaml), ASSAY_EINVALID (a wrong key, value or reference in suite.yaml; under
 *         strictness, a warning), ASSAY_ENOMATCH (the selection keeps no case, or under
 *         strictness one of its patterns matches nothing), ASSAY_EIO; `err` holds
 *         "path:line:col" and the message
 */
ASSAY_EXTERN int assay_suite_load(assay_suite **out, const char *dir,
				  const assay_suite_filter *filter, assay_warn_fn warn,
				  void *payload, assay_err *err);

/**
 * Records, in `err`, ASSAY_EINVALID with the printf-formatted message located at `at` (a value
 * of suite.yaml: "suite.yaml:LINE:COL: message") and returns ASSAY_EINVALID. For an adapter's
 * load_suite (adapter.h).
 */
ASSAY_EXTERN int assay_suite_error_at(const assay_suite *s, const assay_value *at, assay_err *err,
				      const char *fmt, ...) ASSAY_PRINTF(4, 5);
/** Frees the suite and everything in it. NULL is allowed. */
ASSAY_EXTERN void assay_suite_free(assay_suite *suite);

/**
 * Do the cases of group `g` of `suite` build on one another's state: `isolated: false` (one
 * working folder for the group), or any group of an adapter with `serial_groups` (the api
 * adapter: one server per group)? Then they run one at a time and in order, a resumed run
 * replays them only when all of them finished, and a shard takes them whole (suite-format.md,
 * `groups.*.isolated`; docs/cli.md, "Resuming an interrupted run"; scale-out.md).
 * @return true or false; no error. `g` is one of `suite`'s groups.
 */
ASSAY_EXTERN bool assay_group_shares_state(const assay_suite *suite, const assay_group *g);

/**
 * May a resumed run replay, for case `ref`, the result an earlier run kept under its id (made
 * from a case file of the same content), whose error is `error` (NULL: none)? Not when either is
 * a duplicate (a case whose id another case of its group has: suite-format.md, "duplicate case
 * id"): its result comes from which files its group holds, not from its file alone (c1.yml
 * renamed c1~2.yaml to end a duplicate must run, not replay the duplicate's error; docs/cli.md,
 * "Resuming an interrupted run").
 * @return true or false; no error. `ref` is a group's case of a loaded suite.
 */
ASSAY_EXTERN bool assay_case_result_replayable(const assay_case_ref *ref, const char *error);

/**
 * The content hash of a suite: SHA-256 over suite.yaml, whose settings every case inherits.
 * Resuming a run checks it, so a run is never completed against a changed suite.yaml; each
 * case's own file is checked by its own hash (store.h). Spec: docs/cli.md ("Resuming an
 * interrupted run").
 * @param out receives 64 lower-case hex digits and a NUL
 * @return 0, or ASSAY_EIO / ASSAY_ENOTFOUND naming suite.yaml
 */
ASSAY_EXTERN int assay_suite_hash(const assay_suite *suite, char out[65], assay_err *err);

/** An input file to write into the working folder before the case runs. */
typedef struct assay_input_file {
	const char *path;    /**< relative to the working folder; checked to stay inside it */
	const char *content; /**< the bytes to write (already decoded/serialised per file_type) */
	size_t len;
} assay_input_file;

/**
 * One loaded case. Everything in it lives in its arena and is read-only to callers.
 */
typedef struct assay_case {
	assay_arena *arena;      /**< owns the case */
	const char *id;
	const char *file;
	const char *files_dir;   /**< a case folder's files/ subfolder, or NULL */
	char sha256[65];         /**< hex SHA-256 of the file's bytes as loaded ("" when it
				      could not be read): a stored result names the file it
				      was made from (store.h) */
	/**
	 * Why the case could not be loaded ("path:line:col: message"), or NULL. A case with an
	 * error is reported as an error and never run; then only id, file and files_dir are
	 * set, and `expected`/`verify` are empty (what was read before the error is dropped).
	 */
	const char *error;
	assay_value definition;  /**< the merged case mapping, as reports show it in "case" */
	assay_value expected;    /**< attribute -> expected value (a mapping; files as
				      files-<path>) */
	assay_value verify;      /**< attribute -> {verifier, weight, ...} (a mapping) */
	assay_strvec env;        /**< "K=V"/"K": adapter, checkpoint, then case env */
	double timeout;          /**< seconds: case, else group, checkpoint, adapter */
	assay_limits limits;     /**< resource limits: case, else group, checkpoint, adapter */
	void *adapter_data;      /**< what the suite's adapter read of the case (its own keys),
				      owned by the arena */
} assay_case;

/**
 * Loads case `index` of group `g` (of checkpoint `cp` of `suite`): reads its file, merges
 * `defaults` and `case_defaults` under it, substitutes `{{static:NAME}}`, checks every common
 * key and lets the suite's adapter read its own keys.
 *
 * A case that cannot be loaded is not an error of this function: the returned case has its
 * `error` set ("path:line:col: message") and the run reports it as that case's error. When
 * `suite->strict`, a warning about the case is such an error too (every warning still goes to
 * `warn` first).
 * @param out     receives the case (free with assay_case_free); never NULL afterwards
 * @param warn    NULL or a callback for warnings about the case (unknown keys, ...)
 * @return 0 (loading problems are in `(*out)->error`)
 */
ASSAY_EXTERN int assay_case_load(assay_case **out, const assay_suite *suite,
				 const assay_checkpoint *cp, const assay_group *g, size_t index,
				 assay_warn_fn warn, void *payload);

/**
 * Which case assay_case_load_all() loads and who hears about it. Everything is borrowed, for
 * the length of the call; the callbacks are called during it only.
 */
typedef struct assay_case_load_in {
	const assay_suite *suite;    /**< the loaded suite */
	const assay_checkpoint *cp;  /**< a checkpoint of `suite` */
	const assay_group *g;        /**< a group of `cp` */
	size_t index;                /**< the case: an index into `g->cases` */
	assay_warn_fn warn;          /**< NULL or a callback for warnings about the case (unknown
	                                 keys, ...); `payload` is passed to it */
	void *payload;
	assay_warn_fn errors;        /**< NULL (then as assay_case_load) or a callback for each
	                                 error ("path:line:col: message"); `epayload` is passed
	                                 to it */
	void *epayload;
} assay_case_load_in;

/**
 * As assay_case_load() of case `in->index` of `in->g`, but every error of the case goes to
 * `in->errors` ("path:line:col: message", each once), not only the first: after an error
 * loading goes on with the next expected attribute, verify entry and common key (the case file
 * must still read as a mapping). `(*out)->error` is the first. What `assay check-suite` lists
 * (docs/cli.md, "assay check-suite").
 * @param out     receives the case (free with assay_case_free); never NULL afterwards
 * @param in      the case and the callbacks (see assay_case_load_in)
 * @return 0 (loading problems are in `(*out)->error`)
 */
ASSAY_EXTERN int assay_case_load_all(assay_case **out, const assay_case_load_in *in);

/** Frees a case and its arena. NULL is allowed. */
ASSAY_EXTERN void assay_case_free(assay_case *c);

/**
 * Finds where `v` (a value of a loaded case or of the suite: a string, bigint, datetime or
 * container) is written, and formats "path:line:col" (or just the path) into `out` (`size`
 * bytes). Values without data (numbers, booleans, null) have no position: pass the member key
 * or the container instead.
 * @return true if a position was found
 */
ASSAY_EXTERN bool assay_case_locate(const assay_case *c, const assay_suite *suite,
				    const assay_value *v, char *out, size_t size);

/**
 * Splits `s` into words with POSIX shell quoting rules ('…', "…" with \ escapes of $`"\ and
 * newline, backslash outside quotes), with no expansion and no globbing; appends them to `out`.
 * @return 0, or ASSAY_EINVALID for an unterminated quote or trailing backslash
 */
ASSAY_EXTERN int assay_shell_split(assay_strvec *out, const char *s, assay_err *err);

/**
 * The attribute name of an expected or collected file: "files-" followed by `path` (the one
 * place that spells that format; verification.md, VerifierProtocol keys). Caller frees.
 */
ASSAY_EXTERN char *assay_file_attribute(const char *path);

/** If `attribute` names a file ("files-<path>"), its path (borrowed from `attribute`), else NULL. */
ASSAY_EXTERN const char *assay_file_attribute_path(const char *attribute);

/**
 * Whether `expected` (the expected value of a file attribute) is `{absent: true}`: the file must
 * not be produced (suite-format.md, "A case (cli adapter)").
 */
ASSAY_EXTERN bool assay_expected_is_absent(const assay_value *expected);

/** One expected value to write into a case file (assay_case_file_set_expected). */
typedef struct assay_expected_edit {
	const char *attribute;  /**< status_code, output, stderr, files-<path>, ... */
	assay_value value;      /**< the new expected value (`{absent: true}` for a file that
				     must not be produced) */
} assay_expected_edit;

/**
 * Writes expected values into case file `file` (`assay run --accept`; docs/cli.md, "Writing
 * expected values back"): each edit sets `expected.<attribute>` (a file's
 * `expected.files.<path>`), adding the key, and the mappings around it, when the case
 * inherited the value or had none. A YAML file is edited by
 * position: every other key, comment and line stays as written; a JSON file is written whole
 * (pretty, key order kept). Nothing is written unless every edit reads back as the old
 * document with exactly those values set; the file is replaced atomically, keeping its mode.
 * @param edits  `n` edits, applied in order
 * @return 0; ASSAY_ENOTFOUND (no such file), ASSAY_EPARSE (the file does not parse),
 *         ASSAY_EINVALID (an edit cannot be made safely by position: an anchored value, a value
 *         that is not UTF-8 text, a non-mapping on the path; the message says to edit by hand),
 *         ASSAY_EIO; nothing is changed on error
 */
ASSAY_EXTERN int assay_case_file_set_expected(const char *file, const assay_expected_edit *edits,
					      size_t n, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
