/*
 * Internals shared by the files of the Parquet writer (src/lib/parquet) and its unit tests.
 * Never installed. The numbers are those of parquet.thrift (Apache parquet-format).
 */
#ifndef ASSAY_PARQUET_INT_H
#define ASSAY_PARQUET_INT_H

#include <stdint.h>

#include "assay/buf.h"
#include "assay/parquet.h"

/* parquet.thrift enums. */
enum { PQ_BOOLEAN = 0, PQ_INT32 = 1, PQ_INT64 = 2, PQ_DOUBLE = 5, PQ_BYTE_ARRAY = 6 };
enum { PQ_REQUIRED = 0, PQ_OPTIONAL = 1, PQ_REPEATED = 2 };
enum { PQ_CT_UTF8 = 0, PQ_CT_LIST = 3, PQ_CT_TIMESTAMP_MICROS = 10 };
enum { PQ_ENC_PLAIN = 0, PQ_ENC_RLE = 3 };
enum { PQ_CODEC_UNCOMPRESSED = 0, PQ_CODEC_ZSTD = 6 };
enum { PQ_PAGE_DATA = 0 };

/* Logical type annotations (the LogicalType union's members we write). */
enum pq_logical { PQ_LT_NONE, PQ_LT_STRING, PQ_LT_LIST, PQ_LT_TIMESTAMP_US_UTC };

/* One SchemaElement of the footer's flattened schema tree (depth-first). */
struct assay_pq__elem {
	const char *name;
	int type;          /* physical type, or -1 for a group */
	int repetition;    /* -1 for the root */
	int num_children;  /* groups only */
	int converted;     /* -1 for none */
	enum pq_logical logical;
};

/* A column chunk as the footer describes it (ColumnChunk + ColumnMetaData). */
struct assay_pq__chunk_meta {
	int type;                 /* physical type */
	const char *path[4];      /* path_in_schema */
	int npath;
	int codec;
	bool levels;              /* any definition or repetition levels (lists RLE too) */
	int64_t num_values;       /* level entries, nulls included */
	int64_t total_uncompressed;
	int64_t total_compressed;
	int64_t data_page_offset;
	bool stats;               /* write a Statistics struct */
	int64_t null_count;
	const void *min, *max;    /* PLAIN-encoded min_value/max_value, or NULL */
	size_t min_len, max_len;
};

/* RLE/bit-packed hybrid encoding (Encodings.md) of `n` levels of `bit_width` (1..8) bits,
 * appended to `out` without the 4-byte length prefix of data pages. */
void assay_pq__rle_encode(assay_buf *out, const uint8_t *levels, size_t n, int bit_width);

/* Bits needed for levels up to max_level (0 for 0). */
int assay_pq__bit_width(int max_level);

/* Thrift PageHeader of a version 1 data page. */
void assay_pq__page_header(assay_buf *out, int32_t uncompressed, int32_t compressed,
			   int32_t num_values);

/* Thrift RowGroup (an element of FileMetaData.row_groups); a negative ordinal is left out. */
void assay_pq__row_group(assay_buf *out, const struct assay_pq__chunk_meta *chunks,
			 size_t nchunks, int64_t num_rows, int16_t ordinal);

/* What a file's footer says (assay_pq__file_metadata): borrowed for the call. */
struct assay_pq__file_meta {
	const struct assay_pq__elem *schema; /* `nschema` elements, the root first */
	size_t nschema, nleaves;
	int64_t num_rows;
	const assay_buf *row_groups; /* `nrow_groups` RowGroup encodings back to back */
	size_t nrow_groups;
	const char *created_by;
};

/* Thrift FileMetaData of `m`, appended to `out`. */
void assay_pq__file_metadata(assay_buf *out, const struct assay_pq__file_meta *m);

/* True if the `len` bytes at `s` are valid UTF-8 (RFC 3629: no overlongs, surrogates or code
 * points past U+10FFFF). */
bool assay_pq__utf8_valid(const char *s, size_t len);

/* One leaf column of the file: its place in the schema, the data page being filled, the pages
 * of the current row group's column chunk, and that chunk's statistics. (column.c) */
struct assay_pq__leaf {
	const char *path[4];      /* borrowed from the writer's copy of the schema */
	int npath;
	assay_pq_type type;       /* a flat type */
	int max_def, max_rep;
	bool stats;               /* keep null_count/min/max (flat columns, unless turned off) */

	/* the data page being filled */
	assay_buf values;         /* PLAIN-encoded values */
	size_t nbools;            /* BOOL: values bit-packed into `values` so far */
	assay_buf def, rep;       /* one byte per level entry (levels never pass 4) */
	size_t entries;           /* level entries, nulls included */

	/* the column chunk of the current row group */
	assay_buf chunk;          /* page headers and (compressed) pages */
	int64_t chunk_entries;
	int64_t chunk_uncompressed;

	/* statistics of the chunk */
	int64_t nulls;
	bool has_minmax;
	bool has_nan;             /* DOUBLE: a NaN was seen (no bounds then) */
	int64_t imin, imax;
	double dmin, dmax;
	assay_buf smin, smax;
	unsigned char minb[8], maxb[8]; /* PLAIN min/max of fixed-size types, for the footer */
};

/* Compression settings and scratch space shared by a writer's leaves. */
struct assay_pq__codec {
	int codec;                /* PQ_CODEC_* */
	int level;
	void *zctx;               /* ZSTD_CCtx */
	assay_buf page, zpage;
};

void assay_pq__leaf_init(struct assay_pq__leaf *l, assay_pq_type type, int max_def,
			 int max_rep, bool stats);
void assay_pq__leaf_release(struct assay_pq__leaf *l);
/* Appends one level entry, with `v` (non-NULL, not null, UTF-8 already checked for strings)
 * when def == max_def. */
void assay_pq__leaf_add(struct assay_pq__leaf *l, int rep, int def, const assay_pq_value *v);
/* Bytes the current page holds (values and one byte per level). */
size_t assay_pq__leaf_page_size(const struct assay_pq__leaf *l);
/* Encodes the current page (if any entries) into the chunk. 0 or ASSAY_ERROR (zstd). */
int assay_pq__leaf_flush_page(struct assay_pq__leaf *l, struct assay_pq__codec *c,
			      assay_err *err);
/* The footer's description of the chunk; pointers borrow from `l`. */
void assay_pq__leaf_meta(struct assay_pq__leaf *l, struct assay_pq__chunk_meta *m,
			 int codec, int64_t offset);
/* Empties the chunk and its statistics for the next row group. */
void assay_pq__leaf_chunk_reset(struct assay_pq__leaf *l);

#endif
