/**
 * @file csv.h
 * CSV and TSV text as values (value.h): an array of records, each an array of its fields as
 * strings. Spec: suite-format.md "Verifiers (built in)" (`csv`, `tsv`); RFC 4180;
 * docs/verifiers.md ("csv and tsv": quoted fields, embedded newlines, CRLF).
 *
 * The rules (RFC 4180, and Python's csv module where the RFC is silent):
 * - Records end at CRLF, LF or a lone CR; the last may end without one. A line with nothing on
 *   it is skipped (pandas skips it; the csv module gives an empty record); a leading UTF-8 byte
 *   order mark is skipped (Excel writes one).
 * - A field that starts with the quote character is quoted: it runs to the next quote that is
 *   not doubled (`""` is one quote) and may hold delimiters, CR and LF as they are. After the
 *   closing quote comes a delimiter, a record end or the end of the text; anything else is an
 *   error, and so is a quote never closed.
 * - A quote inside an unquoted field is a plain character (`5'11"`), as in the csv module;
 *   spaces are kept everywhere.
 * - Records may have different numbers of fields (the verifier says so).
 */
#ifndef ASSAY_CSV_H
#define ASSAY_CSV_H

#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How to read. Set up with ASSAY_CSV_OPTS_INIT. */
typedef struct assay_csv_opts {
	char delimiter;     /**< ',' (CSV), '\t' (TSV), or another byte but CR, LF and the quote */
	char quote;         /**< '"' */
	const char *source; /**< name put in error messages, or NULL */
} assay_csv_opts;

#define ASSAY_CSV_OPTS_INIT { ',', '"', NULL }

/**
 * Parses `len` bytes of `text` into `*out`, an array of records (arrays of strings), made in
 * `a`. Bytes are kept as they are (a field may hold invalid UTF-8 or NUL).
 * @param opts NULL for ASSAY_CSV_OPTS_INIT
 * @return 0; ASSAY_EPARSE with `err` holding the 1-based line and column (of the text, counting
 *         the lines inside quoted fields) and "a quoted field is never closed (it opens at line
 *         L, column C)" or "'x' after the closing quote of a field (expected the delimiter or
 *         the end of the record)"; ASSAY_EINVALID for a delimiter or quote that cannot be
 *         used; ASSAY_ETOOBIG when `a` went past its limit
 */
ASSAY_EXTERN int assay_csv_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
				 const assay_csv_opts *opts, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
