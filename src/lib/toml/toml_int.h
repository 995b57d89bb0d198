/*
 * Internals of the TOML reader (src/lib/toml): the C++ half that drives toml++, and the check
 * that keeps toml++'s recursion bounded. Never installed.
 */
#ifndef ASSAY_TOML_INT_H
#define ASSAY_TOML_INT_H

#include "assay/toml.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parses `len` bytes of `text` with toml++ and makes the document in `a` (toml.cc). Recurses
 * once per nesting level of the document: run it on a large stack, after
 * assay_toml__check_keys(). 0, ASSAY_EPARSE (line, column and toml++'s message in `err`) or
 * ASSAY_ETOOBIG (the arena's limit).
 */
int assay_toml__parse_cc(assay_value *out, assay_arena *a, const char *text, size_t len,
			 assay_err *err);

/*
 * Refuses a dotted key or table header of more than ASSAY_TOML_MAX_KEY_PARTS parts, located at
 * the dot that passes the limit: ASSAY_EPARSE, else 0. Strings and comments are skipped; every
 * other run of dots between separators (= , [ ] { } and line ends) counts, which a value never
 * comes near (a float has one dot).
 */
int assay_toml__check_keys(const char *text, size_t len, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
