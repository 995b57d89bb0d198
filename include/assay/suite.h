/**
 * @file suite.h
 * The suite model and its loader: suite.yaml, checkpoints, groups and cases, with defaults and
 * case_defaults merged, static assets substituted and regression groups resolved.
 * Spec: suite-format.md (all of "Layout", "suite.yaml" and "A case (cli adapter)").
 *
 * Everything here is owned by the assay_suite and freed by assay_suite_free(); callers read the
 * structs and never free or change their parts. JSON values are jansson references owned by
 * the suite (json.h explains the conventions).
 */
#ifndef ASSAY_SUITE_H
#define ASSAY_SUITE_H

#include <jansson.h>

#include "strvec.h"

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

/** An input file to write into the working folder before the case runs. */
typedef struct assay_input_file {
	char *path;      /**< relative to the working folder; checked to stay inside it */
	char *content;   /**< the bytes to write (already decoded/serialised per file_type) */
	size_t len;
} assay_input_file;

/** One case, ready to run. */
typedef struct assay_case {
	char *id;              /**< file name without extension, or folder name */
	char *file;            /**< the case file (…/<id>.yaml or …/<id>/case.yaml) */
	char *files_dir;       /**< a case folder's files/ subfolder, or NULL */
	/**
	 * Why the case could not be loaded ("path:line:col: message"), or NULL. A case with an
	 * error is reported as an error and never run; of its other fields only id, file and
	 * files_dir are reliable (the rest may be partly filled).
	 */
	char *error;

	assay_strvec arguments; /**< appended to the adapter command, exact argv */
	char *stdin_data;       /**< standard input bytes, or NULL for empty */
	size_t stdin_len;
	assay_input_file *input_files;
	size_t ninput_files;
	assay_strvec env;       /**< "K=V": adapter env, then checkpoint env, then case env */
	double timeout;         /**< seconds: case, else group, else checkpoint, else adapter */
	json_t *expected;       /**< object: attribute -> expected value ({} if none) */
	json_t *verify;         /**< object: attribute -> {verifier, weight, ...} ({} if none) */
	json_t *definition;     /**< the merged case mapping, as written in reports' "case" */
} assay_case;

typedef struct assay_group {
	char *name;                 /**< as in suite.yaml; `<checkpoint>_<group>` for regressions */
	assay_group_type type;
	bool isolated;              /**< fresh working folder per case (default true) */
	char *original_checkpoint;  /**< regression groups: where the cases come from, else NULL */
	char *original_group;
	char *dir;                  /**< the folder the cases were read from */
	assay_case *cases;          /**< in run order */
	size_t ncases;
} assay_group;

typedef struct assay_checkpoint {
	char *name;
	int order;
	char *path;        /**< folder, relative to the suite */
	char *submission;  /**< absolute submission folder for this checkpoint, or NULL */
	assay_group *groups;
	size_t ngroups;
} assay_checkpoint;

typedef enum assay_adapter_type {
	ASSAY_ADAPTER_CLI = 0,
	ASSAY_ADAPTER_API,
} assay_adapter_type;

typedef struct assay_suite {
	char *name;
	char *description;
	char *root;                  /**< absolute path of the suite folder */
	assay_adapter_type adapter;
	assay_strvec command;        /**< adapter.command (argv prefix) */
	char *submission;            /**< absolute adapter.submission, or NULL */
	double timeout;              /**< adapter.timeout, seconds */
	assay_strvec tracked_files;  /**< globs relative to the working folder */
	json_t *raw;                 /**< suite.yaml as loaded */
	assay_checkpoint *checkpoints; /**< sorted by `order`, then as written */
	size_t ncheckpoints;
	size_t ncases;               /**< over all checkpoints and groups */
	size_t nerrors;              /**< cases whose `error` is set */
} assay_suite;

/** What to load: all NULL means everything. */
typedef struct assay_suite_filter {
	const char *checkpoint;  /**< exact checkpoint name, or NULL */
	const char *group_glob;  /**< fnmatch() pattern on group names, or NULL */
	const char *case_glob;   /**< fnmatch() pattern on case ids, or NULL */
} assay_suite_filter;

/** Receives warnings (unknown keys, missing group folders, ...). */
typedef void (*assay_warn_fn)(void *payload, const char *msg);

/**
 * Loads the suite in folder `dir` (suite.yaml, or suite.yml / suite.json).
 *
 * A case file that cannot be read, parsed or understood does not fail the load: that case gets
 * its `error` and the rest load. Problems in suite.yaml itself do fail it.
 *
 * @param out     receives the suite (caller frees with assay_suite_free)
 * @param filter  NULL or which checkpoints/groups/cases to keep
 * @param warn    NULL or a callback for warnings; `payload` is passed to it
 * @return 0; ASSAY_ENOTFOUND (no suite.yaml in `dir`), ASSAY_EPARSE (malformed suite.yaml),
 *         ASSAY_EINVALID (a wrong key, value or reference in suite.yaml, or a filter that
 *         matches no checkpoint), ASSAY_EIO; `err` holds "path:line:col" and the message
 */
ASSAY_EXTERN int assay_suite_load(assay_suite **out, const char *dir,
				  const assay_suite_filter *filter, assay_warn_fn warn,
				  void *payload, assay_err *err);

/** Frees the suite and everything in it. NULL is allowed. */
ASSAY_EXTERN void assay_suite_free(assay_suite *suite);

/**
 * Splits `s` into words with POSIX shell quoting rules ('…', "…" with \ escapes of $`"\ and
 * newline, backslash outside quotes), with no expansion and no globbing; appends them to `out`.
 * @return 0, or ASSAY_EINVALID for an unterminated quote or trailing backslash
 */
ASSAY_EXTERN int assay_shell_split(assay_strvec *out, const char *s, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
