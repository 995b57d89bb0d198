/**
 * @file yaml.h
 * YAML documents as values (value.h, through libyaml), with the source position of every node
 * that has data, so that later checks can report `path:line:col`. Spec: suite-format.md
 * (suite.yaml and case files are YAML); docs/decisions.md ("Loading": YAML 1.1 as PyYAML
 * resolves it; a malformed file is reported as path:line:col: message).
 *
 * Scalars resolve as PyYAML's YAML 1.1 resolver does (suites are often written by PyYAML):
 * plain `~`, `null`, `Null`, `NULL` or empty -> null; `true/false/yes/no/on/off` in lower,
 * Capitalised or UPPER case -> boolean; decimal, 0x, 0-octal (not 0o), 0b and sexagesimal
 * (`1:30`) integers with `_` -> integer, exact (too big for int64: a bigint; more than 4300
 * decimal digits, Python's limit, is an error); decimals with a '.' (`1.5`, `1_000.5`, `.5`,
 * `1.`, `1.0e+3`, `1:30.5`; but `1e3` stays a string, as in PyYAML) -> real; `.inf`, `-.inf`,
 * `.nan` -> the reals inf, -inf, NaN; timestamps -> strings, or with `timestamps` datetimes;
 * anything else and every quoted scalar -> string. Explicit tags !!str, !!int, !!float, !!bool,
 * !!null (and !!timestamp with `timestamps`) are obeyed; !!binary yields the base64 text as a
 * string. Anchors, aliases and `<<` merge keys work; aliased nodes are shared, not copied (a
 * struct copy of the anchored value: its data, and so its position, is shared). Mapping keys
 * must be scalars and are used as strings: the scalar's source text (`1: a` -> "1", `true: a`
 * -> "true"), except that a null key (`~`, `null`, empty) is "null"; a duplicated key is an
 * error.
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
	bool positions;       /**< record where values start (value.h: assay_arena_position): every
				   string, bigint, datetime, sequence, mapping and mapping key */
	bool multi_document;  /**< the stream's documents become an array of them (positioned at
				   1:1; anchors do not cross documents); otherwise a second
				   document is an error */
	bool timestamps;      /**< resolve timestamps as PyYAML's safe_load does (PyYAML >= 5.3):
				   `2001-12-14` a date (ASSAY_DT_DATE), `2001-12-14 21:59:43.10 -5`
				   a datetime with its offset (ASSAY_DT_OFFSET), one without an
				   offset a local one (ASSAY_DT_LOCAL), each as the RFC 3339 text
				   Python's isoformat() prints: "2001-12-14T21:59:43.100000-05:00";
				   an impossible date is an error; otherwise they stay strings */
} assay_yaml_opts;

#define ASSAY_YAML_OPTS_INIT { NULL, false, false, false }

/**
 * Parses `len` bytes of YAML `text` into `*out` (an empty stream is null; with
 * `multi_document`, an empty array), making the values in `a`. Any depth of block nesting;
 * flow collections (`[...]`, `{...}`) nest at most 1000 deep (libyaml slows down with the
 * square of their depth).
 * @param out  receives the value (null on failure); its data lives in `a`
 * @param a    the arena the values are made in; its limit bounds the parse
 * @param opts NULL for ASSAY_YAML_OPTS_INIT
 * @return 0; ASSAY_EPARSE with `err` holding the source, 1-based line and column and the
 *         message (libyaml's problem and context, or "duplicate key 'x'", "mapping keys must be
 *         scalars", "unknown alias 'a'", "recursive alias 'a'", "invalid integer '0b_'",
 *         "invalid timestamp '2001-02-29' (day is out of range for month)", "a second document
 *         in the stream", "aliases expand the document past 1000000 nodes", "flow collections
 *         nested deeper than 1000 levels"); ASSAY_ETOOBIG when the arena went past its limit
 */
ASSAY_EXTERN int assay_yaml_parse(assay_value *out, assay_arena *a, const char *text,
				  size_t len, const assay_yaml_opts *opts, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
