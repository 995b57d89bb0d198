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

#endif
