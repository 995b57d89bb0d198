/**
 * @file parquet.h
 * A streaming writer of Apache Parquet files: flat columns of strings, doubles, 64-bit integers,
 * booleans and UTC timestamps, plus lists of structs (what SlopCodeBench's reports.parquet
 * holds in its `results` and `case` columns), each column REQUIRED or OPTIONAL.
 * Spec: docs/reports.md ("reports.parquet", one row per case); the Apache Parquet format
 * specification (external: the apache/parquet-format repository's README "File format",
 * Encodings.md "PLAIN" and "RLE/bit-packed hybrid", LogicalTypes.md "STRING", "TIMESTAMP",
 * "LIST", Compression.md "ZSTD"); the file layout and what
 * SlopCodeBench writes are in docs/internals/parquet.md.
 *
 * What is written: format version 1 data pages (PLAIN values, RLE/bit-packed hybrid definition
 * and repetition levels), one column chunk per column per row group, zstd-compressed pages
 * (libzstd) unless asked otherwise, and the Thrift compact footer. No dictionary encoding, no
 * page indexes, no bloom filters, no encryption. A row group is written to the file every
 * `row_group_rows` rows or once its buffered pages reach `row_group_bytes`, so memory stays
 * bounded by one row group however many rows are appended.
 *
 * Calling sequence: assay_pq_writer_open() (or _open_fd), assay_pq_writer_append() per row,
 * assay_pq_writer_finish(), then always assay_pq_writer_free(). With a path, the file appears
 * under its name only when finish succeeds (a temp file in the same folder is renamed over it);
 * freeing an unfinished writer removes the temp file, so readers never see a partial file.
 *
 * Strings: bytes that are not valid UTF-8 are the caller's problem, but they never make an
 * unreadable file: a string that is not valid UTF-8 is written with each invalid sequence
 * replaced by U+FFFD, as assay_json_write() does (Python's "replace"). NUL bytes are
 * kept. A string longer than ASSAY_PQ_MAX_STRING bytes is refused (ASSAY_ETOOBIG); one that
 * needs repairing counts three bytes per input byte against that limit.
 *
 * Not thread-safe: one writer is used by one thread at a time. Different writers are independent.
 */
#ifndef ASSAY_PARQUET_H
#define ASSAY_PARQUET_H

#include <stdint.h>
#include <string.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Column types, each a Parquet physical type with its logical annotation. */
typedef enum assay_pq_type {
	ASSAY_PQ_STRING = 1,   /**< BYTE_ARRAY annotated STRING (converted type UTF8) */
	ASSAY_PQ_DOUBLE = 2,   /**< DOUBLE (IEEE 754 binary64) */
	ASSAY_PQ_INT64 = 3,    /**< INT64, no annotation (signed) */
	ASSAY_PQ_BOOL = 4,     /**< BOOLEAN */
	ASSAY_PQ_TIMESTAMP = 5, /**< INT64 annotated TIMESTAMP(isAdjustedToUTC=true, MICROS):
				     microseconds since 1970-01-01T00:00:00Z */
	ASSAY_PQ_LIST = 6,     /**< a LIST of structs whose members are `fields` (flat types only),
				    in the three-level layout LogicalTypes.md recommends:
				    `<name> (LIST) { repeated group list { optional group element
				    { fields } } }`, as pyarrow writes it */
} assay_pq_type;

/** Compression of data pages. */
typedef enum assay_pq_codec {
	ASSAY_PQ_ZSTD = 0,         /**< zstd through libzstd (Parquet codec ZSTD) */
	ASSAY_PQ_UNCOMPRESSED = 1, /**< pages stored as they are */
} assay_pq_codec;

/** Longest string value accepted, in bytes (a page's size is a 32-bit number). */
#define ASSAY_PQ_MAX_STRING ((size_t)1 << 30)

/**
 * One column of the schema. For ASSAY_PQ_LIST, `fields` (borrowed until open returns: the
 * writer copies the schema) names `nfields` >= 1 members, none of them a list themselves.
 * `optional`: the column (or member) may hold nulls; a list column that is optional may be
 * null as a whole, and an empty list is always allowed.
 */
typedef struct assay_pq_column {
	const char *name;  /**< UTF-8 column name, non-empty, unique among its siblings */
	assay_pq_type type;
	bool optional;     /**< OPTIONAL (true) or REQUIRED (false) */
	const struct assay_pq_column *fields; /**< ASSAY_PQ_LIST only: the struct's members */
	size_t nfields;
} assay_pq_column;

/** Options of a writer; start from ASSAY_PQ_OPTIONS_INIT. Zero fields take their defaults. */
typedef struct assay_pq_options {
	int version;            /**< ASSAY_PQ_OPTIONS_VERSION */
	assay_pq_codec codec;   /**< default ASSAY_PQ_ZSTD */
	int zstd_level;         /**< 1..ZSTD_maxCLevel() (22); 0 = 3, libzstd's default.
				     SlopCodeBench uses 10. */
	size_t row_group_rows;  /**< rows per row group; 0 = 65536 */
	size_t row_group_bytes; /**< flush a row group once its pages reach this many bytes
				     (compressed, as buffered); 0 = 64 MiB */
	size_t page_bytes;      /**< start a new data page past this many uncompressed bytes of
				     values and levels; 0 = 1 MiB */
	bool no_statistics;     /**< leave out column statistics (null_count, min_value,
				     max_value); by default they are written for flat columns */
	int file_mode;          /**< permission bits of a file made by _open; 0 = 0644 */
} assay_pq_options;

#define ASSAY_PQ_OPTIONS_VERSION 1
#define ASSAY_PQ_OPTIONS_INIT { ASSAY_PQ_OPTIONS_VERSION, ASSAY_PQ_ZSTD, 0, 0, 0, 0, false, 0 }

/**
 * One value of a row: set the member matching its column's type, or `is_null` for a null
 * (OPTIONAL columns and members only). Strings are borrowed for the call only and need not be
 * NUL-terminated. A list value holds `count` items, each `nfields` values in the order of the
 * column's `fields`, laid out item after item (`items[i * nfields + f]`).
 * The assay_pq_*() helpers below build values.
 */
typedef struct assay_pq_value {
	bool is_null;
	union {
		struct {
			const char *ptr;
			size_t len;
		} str;           /**< ASSAY_PQ_STRING */
		double f64;      /**< ASSAY_PQ_DOUBLE (NaN and infinities are written as they are) */
		int64_t i64;     /**< ASSAY_PQ_INT64, ASSAY_PQ_TIMESTAMP (microseconds, UTC) */
		bool b;          /**< ASSAY_PQ_BOOL */
		struct {
			const struct assay_pq_value *items;
			size_t count;
		} list;          /**< ASSAY_PQ_LIST */
	} u;
} assay_pq_value;

static inline assay_pq_value assay_pq_null(void)
{
	assay_pq_value v = { 0 };
	v.is_null = true;
	return v;
}

/** A string value of `len` bytes (borrowed). */
static inline assay_pq_value assay_pq_strn(const char *s, size_t len)
{
	assay_pq_value v = { 0 };
	v.u.str.ptr = s;
	v.u.str.len = len;
	return v;
}

/** A NUL-terminated string value (borrowed), or a null value when `s` is NULL. */
static inline assay_pq_value assay_pq_str(const char *s)
{
	return s ? assay_pq_strn(s, strlen(s)) : assay_pq_null();
}

static inline assay_pq_value assay_pq_f64(double d)
{
	assay_pq_value v = { 0 };
	v.u.f64 = d;
	return v;
}

/** An INT64 value, or a TIMESTAMP value in microseconds since the Unix epoch (UTC). */
static inline assay_pq_value assay_pq_i64(int64_t i)
{
	assay_pq_value v = { 0 };
	v.u.i64 = i;
	return v;
}

static inline assay_pq_value assay_pq_bool(bool b)
{
	assay_pq_value v = { 0 };
	v.u.b = b;
	return v;
}

/** A list value of `count` items of the column's `nfields` values each (borrowed). */
static inline assay_pq_value assay_pq_list(const assay_pq_value *items, size_t count)
{
	assay_pq_value v = { 0 };
	v.u.list.items = items;
	v.u.list.count = count;
	return v;
}

/** A writer (opaque). */
typedef struct assay_pq_writer assay_pq_writer;

/**
 * Starts a Parquet file at `path`, written to a temp file beside it (`path`.tmp.<pid>.<n>,
 * created exclusively) that assay_pq_writer_finish() renames over `path`.
 * @param out     receives the writer; free it with assay_pq_writer_free() whatever happens next
 * @param path    where the finished file goes; its folder must exist
 * @param columns `ncolumns` >= 1 top-level columns (copied: borrowed for the call only)
 * @param opts    NULL for the defaults
 * @return 0; ASSAY_EINVALID if the schema is unusable (no columns, an empty or duplicate name,
 *         an unknown type, a list with no fields or a list inside a list, an unknown option
 *         version, a zstd level out of range); ASSAY_EIO if the temp file cannot be created
 *         (`err->path` names it). On error `*out` is NULL.
 */
ASSAY_EXTERN int assay_pq_writer_open(assay_pq_writer **out, const char *path,
				      const assay_pq_column *columns, size_t ncolumns,
				      const assay_pq_options *opts, assay_err *err);

/**
 * Like assay_pq_writer_open(), but writes to the open file descriptor `fd` from its current
 * position (which must be its start, or where the caller wants the file to begin: offsets in
 * the footer count from where writing began). The descriptor stays the caller's: it is neither
 * closed nor fsync'd, and nothing is renamed.
 * @param name  how errors name the file (e.g. its path, or "<stdout>"); copied
 * @return as assay_pq_writer_open(); ASSAY_EIO if writing the leading magic bytes fails
 */
ASSAY_EXTERN int assay_pq_writer_open_fd(assay_pq_writer **out, int fd, const char *name,
					 const assay_pq_column *columns, size_t ncolumns,
					 const assay_pq_options *opts, assay_err *err);

/**
 * Appends one row: `row` holds one value per top-level column, in schema order. The row is
 * checked whole before anything is kept, so a refused row leaves the writer as it was.
 * May write a row group to the file.
 * @return 0; ASSAY_EINVALID (a null in a REQUIRED column or member, a list with items but no
 *         item array; nothing kept); ASSAY_ETOOBIG (a string longer than ASSAY_PQ_MAX_STRING,
 *         or a row whose buffered levels and values would pass 2 GiB; nothing kept);
 *         ASSAY_EIO (writing a row group failed: `err->path` names the file, and the writer is
 *         broken: every later call returns ASSAY_EIO); ASSAY_ERROR (zstd failed; the writer is
 *         broken likewise)
 */
ASSAY_EXTERN int assay_pq_writer_append(assay_pq_writer *w, const assay_pq_value *row,
					assay_err *err);

/**
 * Writes what is buffered and the footer. With a path: fsyncs the temp file, renames it over
 * the path and fsyncs the folder. Call once; the writer must still be freed.
 * @return 0; ASSAY_EIO (a write, fsync or the rename failed, or the writer was already broken or
 *         finished: `err->path` names the file; the temp file is removed); ASSAY_ERROR (zstd)
 */
ASSAY_EXTERN int assay_pq_writer_finish(assay_pq_writer *w, assay_err *err);

/** Rows appended so far (including rows already written in row groups). */
ASSAY_EXTERN uint64_t assay_pq_writer_rows(const assay_pq_writer *w);

/**
 * Frees the writer. If it was opened on a path and not finished, the temp file is removed and
 * the target path is left untouched. NULL is allowed.
 */
ASSAY_EXTERN void assay_pq_writer_free(assay_pq_writer *w);

struct assay_value;

/**
 * Reads a Parquet file of the kind this writer makes (verification.md: from_parquet_row's
 * side): version 1 data pages, PLAIN values, RLE/bit-packed levels, uncompressed or zstd;
 * flat BOOLEAN, INT32, INT64, DOUBLE and BYTE_ARRAY columns and top-level lists of structs of
 * them. Calls `fn` with each row, in file order, as an object: column name -> value (a string
 * for BYTE_ARRAY, an integer for INT32/INT64 and timestamps, a real, a boolean, null; a list
 * column as an array of objects, member name -> value, or null). A row lives until `fn`
 * returns. The file is read whole into memory (at most 4 GiB); one row group is decoded at a
 * time. The file is untrusted: anything it holds outside that subset, or inconsistent, is an
 * error, never a crash.
 * @param nrows NULL, or receives the rows the footer announces (set before the first `fn`)
 * @return 0; `fn`'s non-zero code; ASSAY_ENOTFOUND, ASSAY_EIO, ASSAY_ETOOBIG (the file);
 *         ASSAY_EPARSE ("not a Parquet file as assay writes them: ..." saying what was found)
 */
ASSAY_EXTERN int assay_pq_read(const char *path,
			       int (*fn)(void *payload, const struct assay_value *row,
					 assay_err *err),
			       void *payload, uint64_t *nrows, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
