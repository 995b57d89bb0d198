/*
 * The Thrift compact protocol, encoding side only: what Parquet's footer and page headers need
 * (docs/internals/parquet.md; Thrift's "compact protocol" specification, doc/specs/
 * thrift-compact-protocol.md in the Apache Thrift repository). Internal to src/lib/parquet and
 * its unit tests; never installed.
 *
 * Usage: assay_tc__init() on a buffer, then field writers in increasing or decreasing field-id
 * order inside each struct, struct_begin/struct_end around nested structs, and
 * assay_tc__stop() to close the outermost struct. Lists are written with list_begin followed by
 * exactly `n` element writers. Appends to an uncapped assay_buf never fail.
 */
#ifndef ASSAY_PARQUET_THRIFT_COMPACT_H
#define ASSAY_PARQUET_THRIFT_COMPACT_H

#include <stdint.h>

#include "assay/buf.h"

/* Compact type ids (the low nibble of a field header). */
enum assay_tc_type {
	ASSAY_TC_BOOL_TRUE = 1,
	ASSAY_TC_BOOL_FALSE = 2,
	ASSAY_TC_BYTE = 3,
	ASSAY_TC_I16 = 4,
	ASSAY_TC_I32 = 5,
	ASSAY_TC_I64 = 6,
	ASSAY_TC_DOUBLE = 7,
	ASSAY_TC_BINARY = 8,
	ASSAY_TC_LIST = 9,
	ASSAY_TC_SET = 10,
	ASSAY_TC_MAP = 11,
	ASSAY_TC_STRUCT = 12,
};

#define ASSAY_TC_MAX_DEPTH 16

typedef struct assay_tc {
	assay_buf *out;
	int depth;                          /* structs open, the outermost counting as 1 */
	int16_t last[ASSAY_TC_MAX_DEPTH];   /* last field id written at each depth */
} assay_tc;

/** ULEB128 varint of `v` (Thrift's "varint"). */
void assay_tc__varint(assay_buf *out, uint64_t v);
/** Zigzag mapping of a signed 64-bit value: 0,-1,1,-2 → 0,1,2,3. */
uint64_t assay_tc__zigzag(int64_t v);

/** Starts encoding the outermost struct into `out` (appending). */
void assay_tc__init(assay_tc *tc, assay_buf *out);
/** Ends the outermost struct (its stop byte). */
void assay_tc__stop(assay_tc *tc);

void assay_tc__field_bool(assay_tc *tc, int16_t id, bool v);
void assay_tc__field_i16(assay_tc *tc, int16_t id, int16_t v);
void assay_tc__field_i32(assay_tc *tc, int16_t id, int32_t v);
void assay_tc__field_i64(assay_tc *tc, int16_t id, int64_t v);
void assay_tc__field_double(assay_tc *tc, int16_t id, double v);
void assay_tc__field_binary(assay_tc *tc, int16_t id, const void *data, size_t len);
/** A struct-typed field: its header, then its fields, then assay_tc__struct_end(). */
void assay_tc__struct_begin(assay_tc *tc, int16_t id);
void assay_tc__struct_end(assay_tc *tc);
/** A list-typed field of `n` elements of compact type `elem`; the elements follow. */
void assay_tc__list_begin(assay_tc *tc, int16_t id, enum assay_tc_type elem, size_t n);

/* List elements. */
void assay_tc__elem_i32(assay_tc *tc, int32_t v);
void assay_tc__elem_binary(assay_tc *tc, const void *data, size_t len);
/** A struct element: its fields follow, then assay_tc__struct_end(). */
void assay_tc__elem_struct_begin(assay_tc *tc);

#endif
