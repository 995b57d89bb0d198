/*
 * What the json module offers the other modules of the library beyond json.h: the writer's
 * string and number literals (report views, the Parquet writer) and the parser that shares
 * storage with a value it resembles (the json verifier). Library-internal: never installed.
 */
#ifndef ASSAY_JSON_LIB_H
#define ASSAY_JSON_LIB_H

#include <stdbool.h>

#include "assay/json.h"

/* Appends `len` bytes of `s` as a JSON string literal (assay_json_write's rules). */
void assay_json__write_string(assay_buf *out, const char *s, size_t len, bool wtf8);

/* Appends an int, bigint or real as a JSON number literal (assay_json_write's rules). */
void assay_json__write_number(assay_buf *out, const assay_value *v);

/*
 * assay_json_parse(), where the document probably resembles `like` (an actual output and its
 * expected value): a container equal to its counterpart in `like` (same path, same kinds,
 * bytes and bits all the way down) shares the counterpart's storage instead of a copy, so the
 * value is valid only while `like`'s data lives too. NULL `like`, or opts->positions: no
 * sharing. The value read is the same either way.
 */
int assay_json__parse_like(assay_value *out, assay_arena *a, const char *text, size_t len,
			   const assay_json_opts *opts, const assay_value *like, assay_err *err);

/*
 * assay_json_write_cut(), also telling whether the text differs from assay_json_write()'s:
 * *cut_any (when not NULL) is set when a value was cut or a key written with one '$' more.
 */
int assay_json__write_cut_any(assay_buf *out, const assay_value *v, int flags,
			      const assay_json_cut *cut, bool *cut_any, assay_err *err);

/*
 * Whether assay_json_parse() of assay_json_write()'s text of `v` gives `v` back: the same
 * kinds, bytes, numbers, members in the same order. True only for what surely does (false
 * may be said of a value that would): null, bools, ints, finite or infinite reals, strings
 * and keys of valid UTF-8 (no lone-surrogate mark), arrays of those, objects of those with
 * at most 32 members and no key twice (the parser keeps one), nested at most 64 deep. Never
 * for bigints, NaN (the parser's NaN has no sign) or datetimes (they read back as strings).
 */
bool assay_json__reads_back(const assay_value *v);

#endif
