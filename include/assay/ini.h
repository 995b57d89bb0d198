/**
 * @file ini.h
 * INI documents as values (value.h), read as Python's configparser reads them with
 * `ConfigParser(interpolation=None)` and `read_string()`. Spec: suite-format.md "Verifiers
 * (built in)" (`ini`); docs/verifiers.md ("yaml, toml, ini": INI as configparser: sections ->
 * keys -> string values, `=` and `:`, comments, continuation lines, the DEFAULT section's keys
 * inherited by every section, keys case-preserved); docs/decisions.md says why this is not
 * libinih.
 *
 * What a document becomes: an object of sections in the order the text first names them, each
 * an object of its keys and their string values: `{name: dict(parser[name]) for name in
 * parser}`, with DEFAULT first and only when it has keys, and every other section holding
 * DEFAULT's keys it does not set itself (after its own). The rules are configparser's:
 * - A line is split at '\n'; white space is Python's (str.isspace, Unicode).
 * - A line whose first non-blank character is `#` or `;` is a comment, wherever it is; `;` or
 *   `#` later in a line is part of the value.
 * - `[name]` starts a section: the name runs from the first `[` to the last `]` of the line
 *   (`[a] x` is section `a`); `[DEFAULT]` is the defaults; a section named twice is an error.
 * - `key = value` or `key: value`: the first `=` or `:` splits; key and value are stripped; an
 *   empty key, or a line that is none of these, is an error; a key set twice in a section is an
 *   error.
 * - A line indented deeper than its key's line continues the value (joined with '\n'); blank
 *   lines inside a value are kept, trailing ones dropped; comment lines are skipped.
 * - Keys keep their case unless `lower_keys` (configparser's default optionxform, str.lower);
 *   section names always do. Values are never interpolated (`%(x)s` stays as written).
 */
#ifndef ASSAY_INI_H
#define ASSAY_INI_H

#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How to read INI text. Set up with ASSAY_INI_OPTS_INIT. */
typedef struct assay_ini_opts {
	const char *source; /**< name put in error messages (a file name, "output"), or NULL */
	bool lower_keys;    /**< keys lower-cased as str.lower() does (configparser's default) */
} assay_ini_opts;

#define ASSAY_INI_OPTS_INIT { NULL, false }

/**
 * Parses `len` bytes of INI `text` (UTF-8) into `*out`, making the values in `a`.
 * @param out  receives the document (null on failure); its data lives in `a`
 * @param opts NULL for ASSAY_INI_OPTS_INIT
 * @return 0; ASSAY_EPARSE with `err` holding the 1-based line and column and the message:
 *         "file contains no section headers", "section 'a' already exists", "option 'k' in
 *         section 'a' already exists", "not a section, option or continuation line: 'x'",
 *         "an option needs a name", "not valid UTF-8" (configparser collects line errors
 *         and reports them at the end of the text, after any of the others: so does this);
 *         ASSAY_ETOOBIG when `a` went past its limit
 */
ASSAY_EXTERN int assay_ini_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
				 const assay_ini_opts *opts, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
