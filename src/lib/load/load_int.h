/*
 * Internals of the suite loader (src/lib/load): reading files into values with positions,
 * located messages, merging and substitution. Never installed.
 */
#ifndef ASSAY_LOAD_INT_H
#define ASSAY_LOAD_INT_H

#include "assay/adapter_iface.h"
#include "assay/suite.h"

/* Suite and case files are small; anything past this is a mistake, not a suite. */
#define ASSAY_LOAD_MAX_FILE (256u * 1024 * 1024)

/*
 * Reads `path` and parses it (.json as JSON, anything else as YAML) into `a`, recording
 * positions. 0, ASSAY_EPARSE, ASSAY_ENOTFOUND, ASSAY_EIO, ASSAY_ETOOBIG (details in `err`).
 */
/* Reads and parses file `path` (JSON by its .json name, else YAML) into `out` (in `a`); when
 * `sha256` is not NULL it receives the hex SHA-256 of the bytes read ("" when none were). */
int assay_load__file(assay_value *out, assay_arena *a, const char *path, char *sha256,
		     assay_err *err);

/* Where a value was read: the arenas to look in, each with the file its values came from. */
struct locator {
	const assay_arena *arena[3];
	const char *path[3];
	size_t n;
};

/* Formats "path:line:col" for `v` (or the first path when not found) into `out`. */
bool assay_load__locate(const struct locator *loc, const assay_value *v, char *out, size_t size);

/* Records `code` and the message at `v`'s position in `err`; returns `code`. */
int assay_load__err_at(const struct locator *loc, const assay_value *v, assay_err *err, int code,
		       const char *fmt, ...) ASSAY_PRINTF(5, 6);
int assay_load__verr_at(const struct locator *loc, const assay_value *v, assay_err *err,
			int code, const char *fmt, va_list ap);

/* A located message "path:line:col: message" in a malloc'd string. */
char *assay_load__msg_at(const struct locator *loc, const assay_value *v, const char *fmt,
			 va_list ap);

/*
 * `over` deep-merged onto `base` (mappings merge key by key; anything else in `over` replaces;
 * null in `over` clears the key), made in `a`. Unchanged subtrees are shared, not copied, so
 * they keep their positions. Either may be NULL (absent).
 */
assay_value assay_load__merge(assay_arena *a, const assay_value *base, const assay_value *over);

/*
 * assay_load__merge for case mappings (defaults, case_defaults, a case file): as it, except that
 * the lists named by `lists` (the suite's adapter's merge_lists, adapter_iface.h; may be NULL)
 * merge entry by entry: the inherited entries in their order, each replaced by the overriding
 * entry with the same `by` field, then the other overriding entries. `KEY: null` drops the
 * inherited list.
 */
assay_value assay_load__merge_case(assay_arena *a, const assay_value *base,
				   const assay_value *over, const assay_list_merge *lists);

/*
 * `v` with every "{{static:NAME}}" in every string replaced by the asset's absolute path
 * (`assets`: NAME -> path). Unchanged subtrees are shared. 0, or ASSAY_EINVALID located at the
 * string for an unknown asset name.
 */
int assay_load__substitute(assay_value *out, assay_arena *a, const assay_value *v,
			   const assay_value *assets, const struct locator *loc, assay_err *err);

/* The text of a scalar (string as is, number or bool as written), into `scratch` if needed;
 * NULL for null, arrays, objects and datetimes' absence. */
const char *assay_load__scalar_text(const assay_value *v, char *scratch, size_t size);

/* Shared member readers (`m` may be NULL: absent): an env mapping into "K=V"/"K" entries; a
 * timeout in seconds > 0; a list of strings or one shell-split string (argv). 0 or
 * ASSAY_EINVALID located at the member. */
int assay_load__env(assay_strvec *env, const assay_member *m, const struct locator *loc,
		    assay_err *err);
int assay_load__timeout(double *out, const assay_member *m, const struct locator *loc,
			assay_err *err);
/* Reads a `limits` mapping (cpu_time seconds, memory and file_size bytes or "512M", open_files,
 * processes; null clears one) over the limits already in `out`. */
int assay_load__limits(assay_limits *out, const assay_member *m, const struct locator *loc,
		       assay_err *err);
int assay_load__argv(assay_strvec *out, const assay_member *m, const char *what,
		     const struct locator *loc, assay_err *err);

/* True if `s` is one of the NULL-terminated `list`. */
bool assay_load__in_list(const char *const *list, const char *s);

/* ---- undeclared folders (undeclared.c) ---- */

/* A case folder's case file names, in the order the loader takes the first one there is. */
extern const char *const assay_load__case_files[3];

/* How many of assay_load__case_files folder `dir` holds; `*first` (when not NULL) gets the
 * first of them, or NULL. */
size_t assay_load__case_files_in(const char *dir, const char **first);

/*
 * Warns (`warn`) about each folder of case files suite.yaml does not declare: a folder of a
 * loaded checkpoint's folder that is no group of it, and, when `whole` (no checkpoint was
 * selected), a folder at the suite's top shaped like a checkpoint that is none. Each message
 * names the folder, its number of case files and the closest declared name.
 * Returns the number of case files in those folders (they never run).
 */
size_t assay_load__undeclared(const assay_suite *s, bool whole, void (*warn)(void *, const char *),
			    void *ctx);

/* ---- selection (select.c) ---- */

/* The edit distance of two strings (insert, delete, substitute, swap neighbours: 1 each). */
size_t assay_load__distance(const char *a, const char *b);
/* The word of the NULL-terminated `list` that `word` is a typo of (a few edits), or NULL. */
const char *assay_load__closest(const char *word, const char *const *list);

/* One pattern of a selection and what it met. */
struct assay_load__pattern {
	const char *text;  /* as given (borrowed) */
	char *plain;       /* without glob characters: what names are measured against */
	bool exact;        /* a case name, not a glob */
	size_t matched;    /* candidates it matched */
	char *near[3];     /* the closest candidates it did not match, best first */
	size_t dist[3];
};

/* The patterns of an assay_suite_filter while the suite is listed. */
struct assay_load__selection {
	struct assay_load__pattern *groups, *cases, *names;
	size_t ngroups, ncases, nnames;
};

void assay_load__select_init(struct assay_load__selection *s, const assay_suite_filter *f);
/* Whether group `group` of checkpoint `cp` is kept (counting what matched). */
bool assay_load__select_group(struct assay_load__selection *s, const char *cp, const char *group);
/* Whether case `id` of cp/group is kept. */
bool assay_load__select_case(struct assay_load__selection *s, const char *cp, const char *group,
			     const char *id);
/*
 * After listing `ncases` kept cases: a pattern that matched nothing is a warning (`warn`), or
 * ASSAY_ENOMATCH under `strict` or when no case is kept at all; the message names the closest
 * names. Returns 0 or ASSAY_ENOMATCH (in `err`).
 */
int assay_load__select_finish(struct assay_load__selection *s, size_t ncases, bool strict,
			      void (*warn)(void *ctx, const char *msg),
			      void *ctx, assay_err *err);
void assay_load__select_release(struct assay_load__selection *s);

#endif
