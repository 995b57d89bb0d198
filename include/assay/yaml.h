/**
 * @file yaml.h
 * YAML documents as JSON values (libyaml), with the source position of every node so that later
 * checks can report `path:line:col`. Spec: suite-format.md (suite.yaml and case files are YAML);
 * issue #2 item 2 ("every malformed file is reported as path:line:col: message").
 *
 * Scalars resolve as PyYAML's YAML 1.1 resolver does (suites are often written by PyYAML):
 * plain `~`, `null`, `Null`, `NULL` or empty -> null; `true/false/yes/no/on/off` in lower,
 * Capitalised or UPPER case -> boolean; decimal, 0x, 0-octal (not 0o), 0b and sexagesimal
 * (`1:30`) integers with `_` -> integer (too big for int64: a bignum, see json.h); decimals with
 * a '.' (`1.5`, `1.0e+3`; but `1e3` stays a string, as in PyYAML) -> real; `.inf`, `-.inf`,
 * `.nan` -> the bignums Infinity, -Infinity, NaN (jansson holds no such reals); anything else,
 * timestamps included, and every quoted scalar -> string. Explicit tags !!str, !!int,
 * !!float, !!bool, !!null are obeyed; !!binary yields the base64 text as a string. Anchors,
 * aliases and `<<` merge keys work. Mapping keys must be scalars and are used as strings: the
 * scalar's source text (`1: a` -> "1", `true: a` -> "true"), except that a null key (`~`, `null`,
 * empty) is "null"; a duplicated key is an error. Aliased nodes are shared, not copied.
 */
#ifndef ASSAY_YAML_H
#define ASSAY_YAML_H

#include <jansson.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Source positions of the nodes of a loaded document (opaque). */
typedef struct assay_yaml_marks assay_yaml_marks;

/**
 * Parses the first document of `len` bytes of YAML `text`. An empty stream is null. A second
 * document in the stream is an error.
 * @param out       receives a new reference (caller json_decref()s)
 * @param marks_out NULL, or receives the node positions (caller frees with assay_yaml_marks_free)
 * @param path      file name used in error messages; may be NULL
 * @return 0, or ASSAY_EPARSE with `err` holding path, 1-based line and column and the message
 *         (libyaml's problem and context, or "duplicate key 'x'", "mapping keys must be scalars",
 *         "unknown alias 'a'")
 */
ASSAY_EXTERN int assay_yaml_parse(json_t **out, assay_yaml_marks **marks_out, const char *text,
				  size_t len, const char *path, assay_err *err);

/**
 * The 1-based position where `node` (a value inside the document returned with `marks`) starts.
 * For an object member, pass the member's value. @return true if known (never for true, false
 * and null, which jansson shares between all documents).
 */
ASSAY_EXTERN bool assay_yaml_mark(const assay_yaml_marks *marks, const json_t *node, int *line,
				  int *column);

/** Frees `marks`; NULL is allowed. */
ASSAY_EXTERN void assay_yaml_marks_free(assay_yaml_marks *marks);

#ifdef __cplusplus
}
#endif
#endif
