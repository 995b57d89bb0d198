/**
 * @file common.h
 * Error codes, the error-detail struct, allocation helpers and export markers shared by every
 * assay module. Spec: docs/architecture.md ("Errors").
 */
#ifndef ASSAY_COMMON_H
#define ASSAY_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ASSAY_EXTERN __attribute__((visibility("default")))
#define ASSAY_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define ASSAY_WARN_UNUSED __attribute__((warn_unused_result))
#define ASSAY_NORETURN __attribute__((noreturn))

#define ASSAY_VERSION "0.1.0"

/**
 * Error codes returned by fallible functions: 0 on success, one of these (negative) otherwise.
 * The numbers are part of the ABI: never renumber, never reuse a retired value.
 */
enum assay_error_code {
	ASSAY_OK = 0,
	ASSAY_ERROR = -1,     /**< generic failure */
	ASSAY_ENOTFOUND = -2, /**< a named file, case, verifier or key does not exist */
	ASSAY_EPARSE = -3,    /**< malformed YAML/JSON or other syntax */
	ASSAY_EINVALID = -4,  /**< well-formed input with a wrong shape or value */
	ASSAY_ESPAWN = -5,    /**< fork/pipe/exec plumbing failed (not: the program is missing) */
	ASSAY_ETOOBIG = -6,   /**< a size cap was reached */
	ASSAY_EIO = -7,       /**< a read or write failed */
	ASSAY_ESTORE = -8,    /**< the results store failed */
	ASSAY_EINTERRUPTED = -9, /**< stopped on request (SIGINT/SIGTERM) before finishing */
	ASSAY_EBUSY = -10,    /**< a resource is held by someone else (a results folder's lock) */
	ASSAY_ENOMATCH = -11, /**< a selection (checkpoint, group or case names) matches nothing */
};

/**
 * Details of the first error met by a call. Fixed arrays: filling it never allocates.
 * `line` and `column` are 1-based; 0 means unknown. `path` is the file the error is about ("" if
 * none). Callers may pass NULL wherever an `assay_err *` is taken.
 */
typedef struct assay_err {
	int code;
	int line;
	int column;
	char path[512];
	char msg[512];
} assay_err;

#define ASSAY_ERR_INIT { 0, 0, 0, "", "" }

/** Fixed English text for an error code; never NULL, never to be freed. */
ASSAY_EXTERN const char *assay_strerror(int code);

/**
 * Records an error in `err` unless one is already recorded (the first error wins).
 * @param err   NULL or the detail struct to fill
 * @param code  one of enum assay_error_code (negative)
 * @param path  file the error is about, or NULL
 * @param line  1-based line, 0 if unknown
 * @param col   1-based column, 0 if unknown
 * @return `code`, so that `return assay_err_set(err, ...)` reads naturally
 */
ASSAY_EXTERN int assay_err_set(assay_err *err, int code, const char *path, int line, int col,
			       const char *fmt, ...) ASSAY_PRINTF(6, 7);

/** Clears `err` back to ASSAY_ERR_INIT. NULL is allowed. */
ASSAY_EXTERN void assay_err_clear(assay_err *err);

/**
 * Formats `err` as "path:line:col: msg" (parts that are unknown are left out) into `out`
 * (`size` bytes, always NUL-terminated). Returns `out`.
 */
ASSAY_EXTERN const char *assay_err_format(const assay_err *err, char *out, size_t size);

/**
 * Allocation that never returns NULL: on exhaustion the handler set by assay_set_oom_handler()
 * (default: none) runs, then the process aborts. Memory is freed with free().
 */
ASSAY_EXTERN void *assay_xmalloc(size_t size);
ASSAY_EXTERN void *assay_xcalloc(size_t n, size_t size);
ASSAY_EXTERN void *assay_xrealloc(void *ptr, size_t size);
ASSAY_EXTERN char *assay_xstrdup(const char *s);
ASSAY_EXTERN char *assay_xstrndup(const char *s, size_t n);
/** printf into a new string (caller frees). */
ASSAY_EXTERN char *assay_xasprintf(const char *fmt, ...) ASSAY_PRINTF(1, 2);
/** Sets the function called before abort() when memory runs out. */
ASSAY_EXTERN void assay_set_oom_handler(void (*handler)(size_t size));

/** Aborts with file:line and a message: for programmer errors only. */
#define ASSAY_BUG(msg) assay__bug(__FILE__, __LINE__, (msg))
#define ASSAY_ASSERT(cond) ((cond) ? (void)0 : assay__bug(__FILE__, __LINE__, #cond))
ASSAY_EXTERN ASSAY_NORETURN void assay__bug(const char *file, int line, const char *msg);

#ifdef __cplusplus
}
#endif
#endif
