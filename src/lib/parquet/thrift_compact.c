/*
 * Thrift compact protocol encoder (see thrift_compact.h). Written from the protocol's
 * specification, not from a Thrift library: Parquet needs only structs, i16/i32/i64, double,
 * bool, binary and lists, so that is all this file does.
 *
 * Key decisions: a field header is one byte (delta << 4 | type) when the field id is 1 to 15
 * above the previous one in the same struct, else the type byte followed by the id as a zigzag
 * varint; a bool field carries its value in the type nibble; doubles are 8 bytes little-endian.
 * Refuses to: decode anything, or nest structs deeper than ASSAY_TC_MAX_DEPTH (a bug).
 */
#include <string.h>

#include "parquet/thrift_compact.h"
#include "util/banned.h"

void assay_tc__varint(assay_buf *out, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (unsigned char)v;
	(void)assay_buf_add(out, b, n);
}

uint64_t assay_tc__zigzag(int64_t v)
{
	/* (v << 1) ^ (v >> 63), computed on unsigned values to avoid signed overflow. */
	return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

static void byte(assay_tc *tc, unsigned v)
{
	(void)assay_buf_addch(tc->out, (char)(unsigned char)v);
}

static void field_header(assay_tc *tc, int16_t id, enum assay_tc_type type)
{
	int16_t *last = &tc->last[tc->depth - 1];
	int delta = (int)id - (int)*last;

	if (delta > 0 && delta <= 15) {
		byte(tc, (unsigned)(delta << 4) | type);
	} else {
		byte(tc, type);
		assay_tc__varint(tc->out, assay_tc__zigzag(id));
	}
	*last = id;
}

static void push(assay_tc *tc)
{
	if (tc->depth >= ASSAY_TC_MAX_DEPTH)
		ASSAY_BUG("thrift structs nested too deep");
	tc->last[tc->depth++] = 0;
}

void assay_tc__init(assay_tc *tc, assay_buf *out)
{
	tc->out = out;
	tc->depth = 0;
	push(tc);
}

void assay_tc__stop(assay_tc *tc)
{
	ASSAY_ASSERT(tc->depth == 1);
	byte(tc, 0);
	tc->depth = 0;
}

void assay_tc__field_bool(assay_tc *tc, int16_t id, bool v)
{
	field_header(tc, id, v ? ASSAY_TC_BOOL_TRUE : ASSAY_TC_BOOL_FALSE);
}

void assay_tc__field_i16(assay_tc *tc, int16_t id, int16_t v)
{
	field_header(tc, id, ASSAY_TC_I16);
	assay_tc__varint(tc->out, assay_tc__zigzag(v));
}

void assay_tc__field_i32(assay_tc *tc, int16_t id, int32_t v)
{
	field_header(tc, id, ASSAY_TC_I32);
	assay_tc__varint(tc->out, assay_tc__zigzag(v));
}

void assay_tc__field_i64(assay_tc *tc, int16_t id, int64_t v)
{
	field_header(tc, id, ASSAY_TC_I64);
	assay_tc__varint(tc->out, assay_tc__zigzag(v));
}

void assay_tc__field_double(assay_tc *tc, int16_t id, double v)
{
	uint64_t bits;
	unsigned char b[8];

	field_header(tc, id, ASSAY_TC_DOUBLE);
	memcpy(&bits, &v, sizeof(bits));
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(bits >> (8 * i));
	(void)assay_buf_add(tc->out, b, sizeof(b));
}

void assay_tc__field_binary(assay_tc *tc, int16_t id, const void *data, size_t len)
{
	field_header(tc, id, ASSAY_TC_BINARY);
	assay_tc__elem_binary(tc, data, len);
}

void assay_tc__struct_begin(assay_tc *tc, int16_t id)
{
	field_header(tc, id, ASSAY_TC_STRUCT);
	push(tc);
}

void assay_tc__struct_end(assay_tc *tc)
{
	ASSAY_ASSERT(tc->depth > 1);
	byte(tc, 0);
	tc->depth--;
}

void assay_tc__list_begin(assay_tc *tc, int16_t id, enum assay_tc_type elem, size_t n)
{
	field_header(tc, id, ASSAY_TC_LIST);
	if (n < 15) {
		byte(tc, (unsigned)(n << 4) | elem);
	} else {
		byte(tc, 0xf0 | elem);
		assay_tc__varint(tc->out, n);
	}
}

void assay_tc__elem_i32(assay_tc *tc, int32_t v)
{
	assay_tc__varint(tc->out, assay_tc__zigzag(v));
}

void assay_tc__elem_binary(assay_tc *tc, const void *data, size_t len)
{
	assay_tc__varint(tc->out, len);
	(void)assay_buf_add(tc->out, data, len);
}

void assay_tc__elem_struct_begin(assay_tc *tc)
{
	push(tc);
}
