/**
 * @file json.h
 * JSON text <-> values (value.h), as Python's json module reads and writes it.
 * Spec: suite-format.md "Verifiers (built in)" (json, jsonl); docs/decisions.md ("Loading":
 * read as Python's json.loads reads them, integers of any size, floats as Python writes them).
 */
#ifndef ASSAY_JSON_H
#define ASSAY_JSON_H

#include "buf.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How to parse. Set up with ASSAY_JSON_OPTS_INIT. */
typedef struct assay_json_opts {
	const char *source; /**< name used in error messages (a path, "output"), or NULL */
	bool positions;     /**< record where each value starts, in the arena's position table
				 (value.h: assay_arena_position); a little slower */
	bool borrow;        /**< strings without escapes point into the text instead of being
				 copied: the text must then outlive the values */
} assay_json_opts;

#define ASSAY_JSON_OPTS_INIT { NULL, false, false }

/**
 * Parses one JSON value (any type at top level) from `len` bytes of UTF-8 `text`, as Python's
 * json.loads does: NaN, Infinity and -Infinity are numbers; integers of any size are exact (up
 * to Python's 4300-digit limit); reals are correctly rounded doubles; a duplicated key keeps
 * its first place and its last value. White space around the value is allowed.
 * @param out  receives the value (null on failure); its data lives in `a` (and, with
 *             `borrow`, in `text`)
 * @param a    the arena the values are made in; its limit bounds the parse
 * @param opts NULL for ASSAY_JSON_OPTS_INIT
 * @return 0; ASSAY_EPARSE with `err` holding source, 1-based line and column (in characters)
 *         and Python's message ("Expecting value", "Expecting ',' delimiter", "Unterminated
 *         string starting at", "Invalid control character at", "Extra data", ...);
 *         ASSAY_ETOOBIG when the arena went past its limit
 */
ASSAY_EXTERN int assay_json_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
				  const assay_json_opts *opts, assay_err *err);

/**
 * Parses JSON Lines: one value per non-blank line (lines end at '\n'; a '\r' before it and lines
 * of only white space are ignored) into an array.
 * @param skip_invalid true: lines that are not JSON are dropped; false: the first is an error
 * @return 0, ASSAY_EPARSE naming the line (counting every line of `text`) and column,
 *         ASSAY_ETOOBIG as assay_json_parse()
 */
ASSAY_EXTERN int assay_json_parse_lines(assay_value *out, assay_arena *a, const char *text,
					size_t len, bool skip_invalid,
					const assay_json_opts *opts, assay_err *err);

/** assay_json_write() flags. */
#define ASSAY_JSON_SORT_KEYS 0x1 /**< object keys in byte order (Python's sort_keys) */
#define ASSAY_JSON_PRETTY 0x2    /**< indent by 2, one item per line (json.dumps(indent=2));
				      the indentation stops growing at 64 levels */

/**
 * Appends `v` as JSON text to `out`, as Python's json.dumps(ensure_ascii=False) writes it:
 * separators ", " and ": ", reals in repr form, NaN/Infinity/-Infinity, non-ASCII kept as
 * UTF-8; bytes that are not UTF-8 become U+FFFD (so the text is always valid UTF-8); datetimes
 * as strings. Any depth. Appends to `out` are uncapped unless `out->max` is set.
 * @param flags 0 or ASSAY_JSON_SORT_KEYS | ASSAY_JSON_PRETTY
 */
ASSAY_EXTERN void assay_json_write(assay_buf *out, const assay_value *v, int flags);

/**
 * Where values cut out of a report line go (docs/reports.md, "Report lines, cut values"): blobs
 * named by the SHA-256 of their bytes.
 * A blob is written in pieces (`open`, `write`..., then `close` with its name), since a cut
 * value may be too big to hold in memory twice. Every function returns 0 or an error code with
 * `err` set.
 */
typedef struct assay_blob_store {
	/** Starts a blob; `*handle` is passed to the others. */
	int (*open)(void *payload, void **handle, assay_err *err);
	/** Appends `len` bytes. */
	int (*write)(void *handle, const char *data, size_t len, assay_err *err);
	/** Finishes the blob under its name (64 hex digits); a blob of that name already kept is
	 *  left as it is. `json`: the bytes are JSON text (a container), else a string's bytes. */
	int (*close)(void *handle, const char *sha256, bool json, assay_err *err);
	/** Drops an unfinished blob (after an error). */
	void (*abort)(void *handle);
	void *payload;
} assay_blob_store;

/** How assay_json_write_cut() cuts. */
typedef struct assay_json_cut {
	size_t max;          /**< a string whose bytes, or a container whose JSON text, pass this
				  many bytes is cut (0: never) */
	const assay_blob_store *store; /**< receives what is cut */
	size_t keep_depth;   /**< containers nested less deeply than this are never cut (the root
				  is depth 0), so a report keeps its own structure */
} assay_json_cut;

/**
 * assay_json_write(), but every string or container whose JSON text would pass `cut->max`
 * bytes is written as a cut marker instead, and its whole content goes to `cut->store`:
 *   {"$assay_cut": {"kind": "string"|"json", "bytes": N, "sha256": HEX, "head": TEXT}}
 * where N is the size of the whole (a string's bytes, or a container's JSON text), and HEAD
 * its start (whole UTF-8 characters) as a string whose JSON text takes at most `max` / 8
 * bytes. A value cut once is named again
 * without being written twice when it occurs again in `v`. A container whose text grows past
 * a few times `max` is streamed to its blob as it is written (with everything inside it:
 * nothing is cut within a streamed blob), so memory stays bounded whatever its size.
 * An object key of the data made of one or more '$' then "assay_" is written with one '$'
 * more, in the line and in blobs alike, so that every "$assay_cut" key of the text is a real
 * marker: a program cannot plant one (assay_json_uncut() takes the '$' away again).
 * @return 0, or the store's error (the line in `out` is then incomplete)
 */
ASSAY_EXTERN int assay_json_write_cut(assay_buf *out, const assay_value *v, int flags,
				      const assay_json_cut *cut, assay_err *err);

/** Fetches the whole content of blob `sha256` (64 hex digits) into `out`; returns 0,
 *  ASSAY_ENOTFOUND or another error code (with `err`). */
typedef int (*assay_blob_fetch_fn)(void *payload, const char *sha256, assay_buf *out,
				   assay_err *err);

/**
 * Undoes assay_json_write_cut() on a value parsed from its text: every cut marker in `v` is
 * replaced by the whole value from its blob (a string's bytes as a string, a container's JSON
 * parsed into `a`), and the extra '$' of escaped keys is taken away. Iterative: any depth.
 * @param v      the value to change in place (made in `a`)
 * @return 0; ASSAY_EPARSE (a marker or a blob's JSON is malformed); ASSAY_ETOOBIG (`a`'s
 *         limit); or `fetch`'s error (ASSAY_ENOTFOUND: a blob is missing)
 */
ASSAY_EXTERN int assay_json_uncut(assay_value *v, assay_arena *a, assay_blob_fetch_fn fetch,
				  void *payload, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
