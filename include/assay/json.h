/**
 * @file json.h
 * JSON values for assay: parsing with exact big numbers and precise error positions, lossless
 * serialisation, and a structural diff in deepdiff's vocabulary.
 * Spec: suite-format.md "Verifiers (built in)" (json, jsonl) and the deepdiff paragraph below it;
 * verification.md (VerificationResult.diff); issue #2 item 4.
 *
 * Values are jansson `json_t`. Ownership follows jansson: a `json_t *` returned through `**out`
 * or as a function result is a new reference the caller must json_decref(); `const json_t *`
 * arguments are borrowed and never consumed.
 *
 * Big numbers: jansson holds integers in 64 bits and reals in doubles. A number literal that does
 * not fit (an integer past int64, a real past DBL_MAX) is kept exactly as a *bignum*: a string
 * value whose text is ASSAY_JSON_BIGNUM_MARK followed by the literal. assay_json_is_bignum()
 * recognises it, the comparison code compares it by value (integers exactly, digit for digit),
 * and assay_json_dump() writes it back as the bare number literal.
 */
#ifndef ASSAY_JSON_H
#define ASSAY_JSON_H

#include <jansson.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Prefix of a bignum's string value ("\0" + "assay-number:"); 14 bytes. */
#define ASSAY_JSON_BIGNUM_MARK "\0assay-number:"
#define ASSAY_JSON_BIGNUM_MARK_LEN 14

/**
 * Parses one JSON value (any type at top level) from `len` bytes of `text`. Strings may hold
 * U+0000. Surrounding white space is allowed; anything else after the value is an error.
 * @param out    receives a new reference on success (NULL on failure)
 * @param source name used in error messages (a path, or "output"); may be NULL
 * @return 0, or ASSAY_EPARSE with `err` holding source, 1-based line and column and jansson's
 *         message (e.g. "output:1:5: '[' or '{' expected near 'x'")
 */
ASSAY_EXTERN int assay_json_parse(json_t **out, const char *text, size_t len, const char *source,
				  assay_err *err);

/**
 * Parses JSON Lines: one value per non-blank line (lines end at '\n'; a '\r' before it and lines
 * of only white space are ignored) into a new array.
 * @param skip_invalid true: lines that are not JSON are dropped; false: the first is an error
 * @return 0, or ASSAY_EPARSE naming the line (line numbers count every line of `text`)
 */
ASSAY_EXTERN int assay_json_parse_lines(json_t **out, const char *text, size_t len,
					bool skip_invalid, const char *source, assay_err *err);

/** A new bignum value holding `literal` (a JSON number literal, not checked). */
ASSAY_EXTERN json_t *assay_json_bignum(const char *literal);
/** True if `v` is a bignum (see the file comment). */
ASSAY_EXTERN bool assay_json_is_bignum(const json_t *v);
/** The number literal of a bignum (borrowed from `v`), or NULL if `v` is not one. */
ASSAY_EXTERN const char *assay_json_bignum_literal(const json_t *v);
/** True if `v` is an integer, a real or a bignum. */
ASSAY_EXTERN bool assay_json_is_number(const json_t *v);

/**
 * A new JSON string from arbitrary bytes: valid UTF-8 is kept, invalid bytes become U+FFFD as
 * Python's bytes.decode("utf-8", "replace") does (one U+FFFD per bad byte, except that a
 * truncated multi-byte sequence is one U+FFFD). NUL bytes are kept. Never returns NULL.
 */
ASSAY_EXTERN json_t *assay_json_string_lossy(const char *bytes, size_t len);

/**
 * Appends `v` serialised as compact JSON to `out`: object keys in insertion order (or sorted with
 * ASSAY_JSON_SORT_KEYS), reals in the shortest form that reads back to the same double (always
 * with a '.' or exponent, as Python writes them; NaN/Infinity as Python's json does), bignums as
 * bare literals, non-ASCII kept as UTF-8. `flags`: 0 or ASSAY_JSON_SORT_KEYS | ASSAY_JSON_PRETTY.
 */
#define ASSAY_JSON_SORT_KEYS 0x1
#define ASSAY_JSON_PRETTY 0x2
ASSAY_EXTERN void assay_json_dump(assay_buf *out, const json_t *v, int flags);

/**
 * Options of the structural comparison (suite-format.md, json verifier). Set up with
 * ASSAY_JSON_DIFF_OPTS_INIT or assay_json_diff_opts_parse(); free with _release.
 */
typedef struct assay_json_diff_opts {
	bool ignore_order;       /**< arrays compare as multisets */
	double abs_tol;          /**< numbers equal if |a-b| <= abs_tol (default 1e-6) */
	double rel_tol;          /**< ... or |a-b| <= rel_tol * max(|a|,|b|) (default 0) */
	bool ignore_extra_keys;  /**< keys only in actual are not differences */
	json_t *exclude_paths;   /**< array of path strings like "root['a'][0]" (owned), or NULL */
	json_t *sort_by;         /**< array of key names (owned), or NULL */
	json_t *regex_paths;     /**< object path -> "full"|"prefix"|"search" (owned), or NULL */
} assay_json_diff_opts;

#define ASSAY_JSON_DIFF_OPTS_INIT { false, 1e-6, 0.0, false, NULL, NULL, NULL }

/**
 * Reads the comparison options out of a verify entry (`{verifier, weight, ignore_order, ...}`);
 * keys it does not know are ignored (the verifier checks those). `opts` must be INIT.
 * @return 0, or ASSAY_EINVALID naming the bad key (e.g. "abs_tol must be a number >= 0")
 */
ASSAY_EXTERN int assay_json_diff_opts_parse(assay_json_diff_opts *opts, const json_t *options,
					    assay_err *err);
ASSAY_EXTERN void assay_json_diff_opts_release(assay_json_diff_opts *opts);

/**
 * Compares `expected` (deepdiff's t1, "old") with `actual` (t2, "new") and returns a new object
 * in deepdiff's JSON vocabulary, empty when they are equal:
 *   values_changed:          {path: {"new_value": a, "old_value": e}}
 *   type_changes:            {path: {"old_type": "int", "new_type": "str", "old_value": e,
 *                                    "new_value": a}}     (Python type names)
 *   dictionary_item_added:   [path, ...]   keys only in actual
 *   dictionary_item_removed: [path, ...]   keys only in expected
 *   iterable_item_added:     {path: value} items only in actual
 *   iterable_item_removed:   {path: value} items only in expected
 * Paths look like root['a'][0]. Integers, reals and bignums compare by value (1 == 1.0).
 * As deepdiff does, a list index reported both added and removed becomes one values_changed.
 * `opts` may be NULL (ASSAY_JSON_DIFF_OPTS_INIT). Never returns NULL.
 */
ASSAY_EXTERN json_t *assay_json_diff(const json_t *expected, const json_t *actual,
				     const assay_json_diff_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
