/**
 * @file yaml.h
 * YAML documents as values (value.h, through libyaml), with the source position of every node
 * that has data, so that later checks can report `path:line:col`. Spec: suite-format.md (suite.yaml and case files are YAML);
 * issue #2 item 2 ("every malformed file is reported as path:line:col: message").
 *
 * Scalars resolve as PyYAML's YAML 1.1 resolver does (suites are often written by PyYAML):
 * plain `~`, `null`, `Null`, `NULL` or empty -> null; `true/false/yes/no/on/off` in lower,
 * Capitalised or UPPER case -> boolean; decimal, 0x, 0-octal (not 0o), 0b and sexagesimal
 * (`1:30`) integers with `_` -> integer (too big for int64: a bigint); decimals with a '.' (`1.5`,
 * `1.0e+3`; but `1e3` stays a string, as in PyYAML) -> real; `.inf`, `-.inf`, `.nan` -> the
 * reals inf, -inf, NaN; timestamps -> strings, or with `timestamps` datetime values (PyYAML's
 * safe_load makes date and datetime objects); anything else and every quoted scalar -> string. Explicit tags !!str, !!int,
 * !!float, !!bool, !!null are obeyed; !!binary yields the base64 text as a string. Anchors,
 * aliases and `<<` merge keys work. Mapping keys must be scalars and are used as strings: the
 * scalar's source text (`1: a` -> "1", `true: a` -> "true"), except that a null key (`~`, `null`,
 * empty) is "null"; a duplicated key is an error. Aliased nodes are shared, not copied (a struct
 * copy of the anchored value: its data is shared).
 */
#ifndef ASSAY_YAML_H
#define ASSAY_YAML_H

#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How to read a YAML stream. Set up with ASSAY_YAML_OPTS_INIT. */
typedef struct assay_yaml_opts {
	const char *source;   /**< file name used in error messages, or NULL */
	bool positions;       /**< record where values start (value.h: assay_arena_position) */
	bool multi_document;  /**< the stream's documents become an array of them; otherwise a
				   second document is an error */
	bool timestamps;      /**< resolve timestamps as PyYAML's safe_load does: `2001-12-14` a
				   date, `2001-12-14 21:59:43.10 -5` a datetime (ASSAY_V_DATETIME,
				   as RFC 3339 text); otherwise they stay strings */
} assay_yaml_opts;

#define ASSAY_YAML_OPTS_INIT { NULL, false, false, false }

/**
 * Parses `len` bytes of YAML `text` into `*out` (an empty stream is null; with
 * `multi_document`, an empty array), making the values in `a`.
 * @param opts NULL for ASSAY_YAML_OPTS_INIT
 * @return 0; ASSAY_EPARSE with `err` holding the source, 1-based line and column and the
 *         message (libyaml's problem and context, or "duplicate key 'x'", "mapping keys must be
 *         scalars", "unknown alias 'a'", "a second document in the stream", "aliases expand this
 *         document past 1000000 nodes"); ASSAY_ETOOBIG when the arena went past its limit
 */
ASSAY_EXTERN int assay_yaml_parse(assay_value *out, assay_arena *a, const char *text,
				  size_t len, const assay_yaml_opts *opts, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
