/*
 * Unit tests of the Parquet writer: the Thrift compact encoder and the RLE/bit-packed hybrid
 * byte for byte against vectors worked out by hand from their specifications, the page header,
 * and the writer's file structure and error paths. Values are read back by an independent
 * reader in tests/cli/t5102-parquet-duckdb.sh.
 */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/parquet.h"
#include "parquet/parquet_int.h"
#include "parquet/thrift_compact.h"

/* Asserts that `b` holds exactly the `n` bytes of `want`, showing both in hex otherwise. */
static void expect_bytes(const assay_buf *b, const unsigned char *want, size_t n)
{
	char got[1024] = "", exp[1024] = "";

	for (size_t i = 0; i < b->len && i < 300; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%02x ",
			 (unsigned char)b->ptr[i]);
	for (size_t i = 0; i < n && i < 300; i++)
		snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "%02x ", want[i]);
	cr_assert(b->len == n && !memcmp(b->ptr, want, n), "got      %s\nexpected %s", got, exp);
}

#define EXPECT(b, ...)                                                                    \
	do {                                                                              \
		static const unsigned char want_[] = { __VA_ARGS__ };                     \
		expect_bytes((b), want_, sizeof(want_));                                  \
	} while (0)

/* ---- Thrift compact protocol ---- */

Test(thrift_compact, varints_are_uleb128)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_tc__varint(&b, 0);
	assay_tc__varint(&b, 1);
	assay_tc__varint(&b, 127);
	assay_tc__varint(&b, 128);
	assay_tc__varint(&b, 300);
	assay_tc__varint(&b, 16384);
	EXPECT(&b, 0x00, 0x01, 0x7f, 0x80, 0x01, 0xac, 0x02, 0x80, 0x80, 0x01);
	assay_buf_reset(&b);
	assay_tc__varint(&b, UINT64_MAX);
	EXPECT(&b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	assay_buf_release(&b);
}

Test(thrift_compact, zigzag_interleaves_signs)
{
	cr_assert_eq(assay_tc__zigzag(0), 0);
	cr_assert_eq(assay_tc__zigzag(-1), 1);
	cr_assert_eq(assay_tc__zigzag(1), 2);
	cr_assert_eq(assay_tc__zigzag(-2), 3);
	cr_assert_eq(assay_tc__zigzag(2147483647), 4294967294u);
	cr_assert_eq(assay_tc__zigzag(-2147483648LL), 4294967295u);
	cr_assert_eq(assay_tc__zigzag(INT64_MAX), UINT64_MAX - 1);
	cr_assert_eq(assay_tc__zigzag(INT64_MIN), UINT64_MAX);
}

Test(thrift_compact, field_ids_use_short_deltas_up_to_15_and_long_form_otherwise)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_tc tc;

	assay_tc__init(&tc, &b);
	assay_tc__field_i32(&tc, 1, 0);    /* delta 1: 0x15 */
	assay_tc__field_i32(&tc, 2, -1);   /* delta 1: 0x15, zigzag 1 */
	assay_tc__field_i64(&tc, 17, 150); /* delta 15: 0xf6, zigzag 300 */
	assay_tc__field_i32(&tc, 40, 1);   /* delta 23: type byte, then id 40 zigzag = 80 */
	assay_tc__field_i16(&tc, 3, -3);   /* going back: long form, id zigzag 6 */
	assay_tc__stop(&tc);
	EXPECT(&b, 0x15, 0x00, 0x15, 0x01, 0xf6, 0xac, 0x02, 0x05, 0x50, 0x02, 0x04, 0x06, 0x05,
	       0x00);
	assay_buf_release(&b);
}

Test(thrift_compact, bools_live_in_the_type_nibble)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_tc tc;

	assay_tc__init(&tc, &b);
	assay_tc__field_bool(&tc, 1, true);
	assay_tc__field_bool(&tc, 2, false);
	assay_tc__stop(&tc);
	EXPECT(&b, 0x11, 0x12, 0x00);
	assay_buf_release(&b);
}

Test(thrift_compact, doubles_are_little_endian_and_binaries_length_prefixed)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_tc tc;

	assay_tc__init(&tc, &b);
	assay_tc__field_double(&tc, 1, 1.0);
	assay_tc__field_binary(&tc, 4, "ab", 2);
	assay_tc__field_binary(&tc, 5, "", 0);
	assay_tc__stop(&tc);
	EXPECT(&b, 0x17, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x38, 0x02, 'a', 'b', 0x18, 0x00, 0x00);
	assay_buf_release(&b);
}

Test(thrift_compact, nested_structs_restore_the_outer_field_id)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_tc tc;

	assay_tc__init(&tc, &b);
	assay_tc__field_i32(&tc, 1, 1);
	assay_tc__struct_begin(&tc, 3);   /* delta 2 from 1: 0x2c */
	assay_tc__field_i32(&tc, 1, 2);   /* ids restart inside: delta 1 */
	assay_tc__struct_begin(&tc, 2);
	assay_tc__struct_end(&tc);
	assay_tc__struct_end(&tc);
	assay_tc__field_i32(&tc, 4, 3);   /* delta 1 from 3, not from the inner ids */
	assay_tc__stop(&tc);
	EXPECT(&b, 0x15, 0x02, 0x2c, 0x15, 0x04, 0x1c, 0x00, 0x00, 0x15, 0x06, 0x00);
	assay_buf_release(&b);
}

Test(thrift_compact, lists_short_and_long_headers_and_struct_elements)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_tc tc;

	assay_tc__init(&tc, &b);
	assay_tc__list_begin(&tc, 2, ASSAY_TC_I32, 2);  /* 0x29, then size 2 of i32: 0x25 */
	assay_tc__elem_i32(&tc, 0);
	assay_tc__elem_i32(&tc, 3);
	assay_tc__list_begin(&tc, 3, ASSAY_TC_BINARY, 0); /* an empty list: 0x08 */
	assay_tc__list_begin(&tc, 4, ASSAY_TC_STRUCT, 1); /* 0x1c */
	assay_tc__elem_struct_begin(&tc);
	assay_tc__field_i64(&tc, 1, -1);
	assay_tc__struct_end(&tc);
	assay_tc__stop(&tc);
	EXPECT(&b, 0x29, 0x25, 0x00, 0x06, 0x19, 0x08, 0x19, 0x1c, 0x16, 0x01, 0x00, 0x00);

	assay_buf_reset(&b);
	assay_tc__init(&tc, &b);
	assay_tc__list_begin(&tc, 1, ASSAY_TC_I32, 15); /* 15 and up: 0xf5 then the size */
	for (int i = 0; i < 15; i++)
		assay_tc__elem_i32(&tc, 1);
	assay_tc__stop(&tc);
	cr_assert_eq(b.len, 2 + 1 + 15 + 1);
	cr_assert_eq((unsigned char)b.ptr[0], 0x19);
	cr_assert_eq((unsigned char)b.ptr[1], 0xf5);
	cr_assert_eq((unsigned char)b.ptr[2], 15);
	cr_assert_eq((unsigned char)b.ptr[3], 0x02);
	assay_buf_release(&b);
}

/* ---- RLE/bit-packed hybrid ---- */

static void rle(assay_buf *b, const uint8_t *v, size_t n, int bw)
{
	assay_buf_reset(b);
	assay_pq__rle_encode(b, v, n, bw);
}

Test(rle, bit_widths_of_max_levels)
{
	cr_assert_eq(assay_pq__bit_width(0), 0);
	cr_assert_eq(assay_pq__bit_width(1), 1);
	cr_assert_eq(assay_pq__bit_width(2), 2);
	cr_assert_eq(assay_pq__bit_width(3), 2);
	cr_assert_eq(assay_pq__bit_width(4), 3);
}

Test(rle, the_specification_example_packs_from_the_low_bit)
{
	/* Encodings.md: bit width 3, values 0..7 pack to 10001000 11000110 11111010. */
	static const uint8_t v[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	assay_buf b = ASSAY_BUF_INIT;

	rle(&b, v, 8, 3);
	EXPECT(&b, 0x03, 0x88, 0xc6, 0xfa);
	assay_buf_release(&b);
}

Test(rle, repeats_become_runs_and_the_rest_padded_groups)
{
	static const uint8_t ones[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const uint8_t alt[10] = { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1 };
	static const uint8_t mixed[11] = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0 };
	uint8_t lit_then_run[23] = { 1, 0, 1 };
	assay_buf b = ASSAY_BUF_INIT;

	rle(&b, ones, 10, 1);
	EXPECT(&b, 0x14, 0x01);              /* run of 10: header 10 << 1, value */
	rle(&b, alt, 10, 1);
	EXPECT(&b, 0x05, 0xaa, 0x02);        /* 2 groups: header 2 << 1 | 1, last one padded */
	rle(&b, mixed, 11, 2);
	EXPECT(&b, 0x12, 0x02, 0x03, 0x01, 0x00);
	/* Literals fill a whole group of 8 before the run of zeros takes over. */
	rle(&b, lit_then_run, 23, 1);
	EXPECT(&b, 0x03, 0x05, 0x1e, 0x00);
	assay_buf_release(&b);
}

Test(rle, bit_packed_runs_stop_at_63_groups)
{
	uint8_t v[1000];
	assay_buf b = ASSAY_BUF_INIT;

	for (size_t i = 0; i < sizeof(v); i++)
		v[i] = i % 2;
	rle(&b, v, sizeof(v), 1);
	cr_assert_eq(b.len, 1 + 63 + 1 + 62);
	cr_assert_eq((unsigned char)b.ptr[0], 63 << 1 | 1);
	cr_assert_eq((unsigned char)b.ptr[64], 62 << 1 | 1);
	assay_buf_release(&b);
}

/* ---- metadata ---- */

Test(metadata, data_page_header)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_pq__page_header(&b, 100, 50, 10);
	EXPECT(&b, 0x15, 0x00,             /* type DATA_PAGE */
	       0x15, 0xc8, 0x01,           /* uncompressed_page_size 100 */
	       0x15, 0x64,                 /* compressed_page_size 50 */
	       0x2c,                       /* data_page_header (field 5) */
	       0x15, 0x14,                 /*   num_values 10 */
	       0x15, 0x00,                 /*   encoding PLAIN */
	       0x15, 0x06, 0x15, 0x06,     /*   level encodings RLE */
	       0x00, 0x00);
	assay_buf_release(&b);
}

Test(utf8, validation_follows_rfc3629)
{
	cr_assert(assay_pq__utf8_valid("", 0));
	cr_assert(assay_pq__utf8_valid("a\0b", 3));
	cr_assert(assay_pq__utf8_valid("\xc3\xa9\xe6\x97\xa5\xf0\x9f\x8e\x89", 9));
	cr_assert(assay_pq__utf8_valid("\xf4\x8f\xbf\xbf", 4));     /* U+10FFFF */
	cr_assert_not(assay_pq__utf8_valid("\xff", 1));
	cr_assert_not(assay_pq__utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
	cr_assert_not(assay_pq__utf8_valid("\xe0\x80\xaf", 3));     /* overlong */
	cr_assert_not(assay_pq__utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
	cr_assert_not(assay_pq__utf8_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
	cr_assert_not(assay_pq__utf8_valid("\xe2\x82", 2));         /* cut short */
	cr_assert_not(assay_pq__utf8_valid("\xc3(", 2));
}

/* ---- the writer ---- */

static char *tmpdir(void)
{
	char *dir = NULL;
	cr_assert_eq(assay_fs_mkdtemp(&dir, NULL, "assay-pq-test.", NULL), 0);
	return dir;
}

static void slurp(assay_buf *out, const char *path)
{
	assay_buf_reset(out);
	cr_assert_eq(assay_fs_read(out, path, 0, NULL), 0, "cannot read %s", path);
}

static uint32_t u32le(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	return u[0] | u[1] << 8 | u[2] << 16 | (uint32_t)u[3] << 24;
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static const assay_pq_column one_int[] = { { "n", ASSAY_PQ_INT64, false } };
static const assay_pq_column one_opt_int[] = { { "n", ASSAY_PQ_INT64, true } };

Test(writer, a_required_column_is_magic_page_header_plain_values_footer)
{
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;
	assay_pq_writer *w;
	assay_buf b = ASSAY_BUF_INIT;
	assay_pq_value v;

	o.codec = ASSAY_PQ_UNCOMPRESSED;
	cr_assert_eq(assay_pq_writer_open(&w, path, one_int, 1, &o, NULL), 0);
	v = assay_pq_i64(1);
	cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	v = assay_pq_i64(2);
	cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	cr_assert_eq(assay_pq_writer_rows(w), 2);
	cr_assert_not(assay_fs_exists(path), "the file appeared before finish");
	cr_assert_eq(assay_pq_writer_finish(w, NULL), 0);
	assay_pq_writer_free(w);

	slurp(&b, path);
	static const unsigned char head[] = {
		'P', 'A', 'R', '1',
		0x15, 0x00, 0x15, 0x20, 0x15, 0x20, /* DATA_PAGE, 16 bytes, 16 bytes */
		0x2c, 0x15, 0x04, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00, /* 2 values */
		1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, /* PLAIN int64s, no levels */
	};
	cr_assert_gt(b.len, sizeof(head) + 8);
	cr_assert_eq(memcmp(b.ptr, head, sizeof(head)), 0);
	cr_assert_eq(memcmp(b.ptr + b.len - 4, "PAR1", 4), 0);
	/* The footer fills the file between the page and its length. */
	cr_assert_eq(u32le(b.ptr + b.len - 8), b.len - sizeof(head) - 8);
	cr_assert_eq(count_entries(dir), 1, "a temp file was left behind");
	assay_buf_release(&b);
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}

Test(writer, optional_values_carry_rle_definition_levels)
{
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;
	assay_pq_writer *w;
	assay_buf b = ASSAY_BUF_INIT;
	assay_pq_value v[3] = { assay_pq_i64(5), assay_pq_null(), assay_pq_i64(7) };

	o.codec = ASSAY_PQ_UNCOMPRESSED;
	cr_assert_eq(assay_pq_writer_open(&w, path, one_opt_int, 1, &o, NULL), 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(assay_pq_writer_append(w, &v[i], NULL), 0);
	cr_assert_eq(assay_pq_writer_finish(w, NULL), 0);
	assay_pq_writer_free(w);
	slurp(&b, path);
	static const unsigned char head[] = {
		'P', 'A', 'R', '1',
		0x15, 0x00, 0x15, 0x2c, 0x15, 0x2c, /* 22 bytes */
		0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00, /* 3 values */
		2, 0, 0, 0, 0x03, 0x05,  /* levels 1,0,1: 2 bytes, one bit-packed group */
		5, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, /* the two present values */
	};
	cr_assert_eq(memcmp(b.ptr, head, sizeof(head)), 0);
	assay_buf_release(&b);
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}

Test(writer, zstd_pages_are_zstd_frames)
{
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_writer *w;
	assay_buf b = ASSAY_BUF_INIT;

	cr_assert_eq(assay_pq_writer_open(&w, path, one_int, 1, NULL, NULL), 0);
	for (int i = 0; i < 1000; i++) {
		assay_pq_value v = assay_pq_i64(i % 3);
		cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	}
	cr_assert_eq(assay_pq_writer_finish(w, NULL), 0);
	assay_pq_writer_free(w);
	slurp(&b, path);
	/* PAR1, a page header of 8000 bytes uncompressed (0x15 0x00 0x15 zigzag(8000)), and the
	 * page: a zstd frame starts with its magic number 0xFD2FB528, little-endian. */
	static const unsigned char head[] = { 'P', 'A', 'R', '1', 0x15, 0x00, 0x15, 0x80, 0x7d };
	cr_assert_eq(memcmp(b.ptr, head, sizeof(head)), 0);
	const char *frame = memmem(b.ptr, 40, "\x28\xb5\x2f\xfd", 4);
	cr_assert_not_null(frame, "no zstd frame after the page header");
	cr_assert_lt(b.len, 8000, "1000 repetitive int64s did not compress (%zu bytes)", b.len);
	assay_buf_release(&b);
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}

Test(writer, strings_that_are_not_utf8_are_repaired_not_copied)
{
	static const assay_pq_column cols[] = { { "s", ASSAY_PQ_STRING, false } };
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;
	assay_pq_writer *w;
	assay_buf b = ASSAY_BUF_INIT;
	assay_pq_value v = assay_pq_strn("zq\xff", 3);

	o.codec = ASSAY_PQ_UNCOMPRESSED;
	o.no_statistics = true;
	cr_assert_eq(assay_pq_writer_open(&w, path, cols, 1, &o, NULL), 0);
	cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	cr_assert_eq(assay_pq_writer_finish(w, NULL), 0);
	assay_pq_writer_free(w);
	slurp(&b, path);
	cr_assert_not_null(memmem(b.ptr, b.len, "\x05\0\0\0zq\xef\xbf\xbd", 9));
	cr_assert_null(memmem(b.ptr, b.len, "zq\xff", 3));
	assay_buf_release(&b);
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}

Test(writer, refused_schemas_and_options)
{
	static const assay_pq_column dup[] = { { "a", ASSAY_PQ_INT64 }, { "a", ASSAY_PQ_BOOL } };
	static const assay_pq_column noname[] = { { "", ASSAY_PQ_INT64 } };
	static const assay_pq_column badtype[] = { { "a", (assay_pq_type)42 } };
	static const assay_pq_column nofields[] = { { "l", ASSAY_PQ_LIST, true, NULL, 0 } };
	static const assay_pq_column inner[] = { { "x", ASSAY_PQ_INT64 } };
	static const assay_pq_column mid[] = { { "m", ASSAY_PQ_LIST, true, inner, 1 } };
	static const assay_pq_column nested[] = { { "l", ASSAY_PQ_LIST, true, mid, 1 } };
	static const assay_pq_column dupfield[] = { { "x", ASSAY_PQ_INT64 }, { "x", ASSAY_PQ_BOOL } };
	static const assay_pq_column dupfields[] = { { "l", ASSAY_PQ_LIST, true, dupfield, 2 } };
	assay_pq_writer *w = (assay_pq_writer *)1;
	char *dir = tmpdir(), *x = assay_path_join(dir, "x"); /* never made */
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_pq_writer_open(&w, x, NULL, 0, NULL, &err), ASSAY_EINVALID);
	cr_assert_null(w);
	cr_assert_eq(assay_pq_writer_open(&w, x, dup, 2, NULL, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_pq_writer_open(&w, x, noname, 1, NULL, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_pq_writer_open(&w, x, badtype, 1, NULL, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_pq_writer_open(&w, x, nofields, 1, NULL, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_pq_writer_open(&w, x, nested, 1, NULL, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_pq_writer_open(&w, x, dupfields, 1, NULL, NULL), ASSAY_EINVALID);

	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;
	o.version = 99;
	cr_assert_eq(assay_pq_writer_open(&w, x, one_int, 1, &o, NULL), ASSAY_EINVALID);
	o = (assay_pq_options)ASSAY_PQ_OPTIONS_INIT;
	o.zstd_level = 99;
	cr_assert_eq(assay_pq_writer_open(&w, x, one_int, 1, &o, NULL), ASSAY_EINVALID);
	o = (assay_pq_options)ASSAY_PQ_OPTIONS_INIT;
	o.codec = (assay_pq_codec)7;
	cr_assert_eq(assay_pq_writer_open(&w, x, one_int, 1, &o, NULL), ASSAY_EINVALID);
	cr_assert_not(assay_fs_exists(x));
	cr_assert_eq(count_entries(dir), 0);
	assay_fs_remove_tree(dir, NULL);
	free(x);
	free(dir);
}

Test(writer, a_missing_folder_is_an_io_error_naming_the_file)
{
	assay_pq_writer *w;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_pq_writer_open(&w, "/nonexistent-assay-dir/r.parquet", one_int, 1, NULL,
					  &err), ASSAY_EIO);
	cr_assert_null(w);
	cr_assert_eq(strncmp(err.path, "/nonexistent-assay-dir/r.parquet.tmp.", 37), 0, "path '%s'",
		     err.path);
}

Test(writer, a_refused_row_changes_nothing)
{
	static const assay_pq_column fields[] = { { "a", ASSAY_PQ_STRING, false } };
	static const assay_pq_column cols[] = {
		{ "n", ASSAY_PQ_INT64, true }, { "l", ASSAY_PQ_LIST, false, fields, 1 } };
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_writer *w;
	assay_err err = ASSAY_ERR_INIT;
	assay_pq_value item = assay_pq_null();
	assay_pq_value row[2] = { assay_pq_i64(1), assay_pq_list(&item, 1) };

	cr_assert_eq(assay_pq_writer_open(&w, path, cols, 2, NULL, NULL), 0);
	/* a null member that is REQUIRED */
	cr_assert_eq(assay_pq_writer_append(w, row, &err), ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "'a' is REQUIRED"), "%s", err.msg);
	/* a null list that is REQUIRED */
	row[1] = assay_pq_null();
	cr_assert_eq(assay_pq_writer_append(w, row, NULL), ASSAY_EINVALID);
	/* items promised but missing */
	row[1] = assay_pq_list(NULL, 2);
	cr_assert_eq(assay_pq_writer_append(w, row, NULL), ASSAY_EINVALID);
	/* a string past the limit (never read: the length alone refuses it) */
	item = assay_pq_strn("x", ASSAY_PQ_MAX_STRING + 1);
	row[1] = assay_pq_list(&item, 1);
	cr_assert_eq(assay_pq_writer_append(w, row, NULL), ASSAY_ETOOBIG);
	cr_assert_eq(assay_pq_writer_rows(w), 0);
	/* the writer goes on */
	item = assay_pq_str("ok");
	row[1] = assay_pq_list(&item, 1);
	cr_assert_eq(assay_pq_writer_append(w, row, NULL), 0);
	row[1] = assay_pq_list(NULL, 0);
	cr_assert_eq(assay_pq_writer_append(w, row, NULL), 0);
	cr_assert_eq(assay_pq_writer_rows(w), 2);
	cr_assert_eq(assay_pq_writer_finish(w, NULL), 0);
	assay_pq_writer_free(w);
	cr_assert(assay_fs_exists(path));
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}

Test(writer, freeing_an_unfinished_writer_leaves_the_old_file)
{
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_writer *w;
	assay_buf b = ASSAY_BUF_INIT;
	assay_pq_value v = assay_pq_i64(3);

	cr_assert_eq(assay_fs_write(path, "old", 3, 0644, NULL), 0);
	cr_assert_eq(assay_pq_writer_open(&w, path, one_int, 1, NULL, NULL), 0);
	cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	cr_assert_eq(count_entries(dir), 2);
	assay_pq_writer_free(w);
	slurp(&b, path);
	cr_assert_str_eq(b.ptr, "old");
	cr_assert_eq(count_entries(dir), 1, "the temp file was left behind");

	/* finishing replaces it */
	cr_assert_eq(assay_pq_writer_open(&w, path, one_int, 1, NULL, NULL), 0);
	cr_assert_eq(assay_pq_writer_finish(w, NULL), 0);
	cr_assert_eq(assay_pq_writer_finish(w, NULL), ASSAY_EIO, "a second finish succeeded");
	cr_assert_eq(assay_pq_writer_append(w, &v, NULL), ASSAY_EIO);
	assay_pq_writer_free(w);
	slurp(&b, path);
	cr_assert_eq(memcmp(b.ptr, "PAR1", 4), 0);
	cr_assert_eq(count_entries(dir), 1);
	assay_buf_release(&b);
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}

Test(writer, row_groups_reach_the_file_before_finish)
{
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;
	assay_pq_writer *w;
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	cr_assert_geq(fd, 0);
	o.row_group_rows = 100;
	cr_assert_eq(assay_pq_writer_open_fd(&w, fd, path, one_int, 1, &o, NULL), 0);
	for (int i = 0; i < 99; i++) {
		assay_pq_value v = assay_pq_i64(i);
		cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	}
	cr_assert_eq(fstat(fd, &st), 0);
	cr_assert_eq(st.st_size, 4, "only the magic bytes before the first row group is full");
	assay_pq_value v = assay_pq_i64(99);
	cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	cr_assert_eq(fstat(fd, &st), 0);
	cr_assert_gt(st.st_size, 4, "the full row group was not written");
	off_t after_one = st.st_size;
	for (int i = 0; i < 250; i++)
		cr_assert_eq(assay_pq_writer_append(w, &v, NULL), 0);
	cr_assert_eq(fstat(fd, &st), 0);
	cr_assert_gt(st.st_size, after_one);
	cr_assert_eq(assay_pq_writer_finish(w, NULL), 0);
	assay_pq_writer_free(w);
	cr_assert_eq(close(fd), 0, "open_fd closed the caller's descriptor");
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}

Test(writer, a_write_error_is_eio_naming_the_file)
{
	assay_pq_writer *w = (assay_pq_writer *)1;
	assay_err err = ASSAY_ERR_INIT;
	int fd = open("/dev/full", O_WRONLY);

	cr_assert_geq(fd, 0);
	cr_assert_eq(assay_pq_writer_open_fd(&w, fd, "/dev/full", one_int, 1, NULL, &err),
		     ASSAY_EIO);
	cr_assert_null(w);
	cr_assert_str_eq(err.path, "/dev/full");
	close(fd);
}

Test(writer, a_full_disk_midway_breaks_the_writer_and_leaves_no_file)
{
	static const assay_pq_column cols[] = { { "s", ASSAY_PQ_STRING, false } };
	char *dir = tmpdir(), *path = assay_path_join(dir, "f.parquet");
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;
	assay_pq_writer *w;
	assay_err err = ASSAY_ERR_INIT;
	struct rlimit rl = { 8192, 8192 };
	char text[200];
	int rc = 0, i;

	/* Each test runs in its own process: the file size limit stays here. */
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	o.codec = ASSAY_PQ_UNCOMPRESSED;
	o.row_group_rows = 10;
	cr_assert_eq(assay_pq_writer_open(&w, path, cols, 1, &o, NULL), 0);
	memset(text, 'x', sizeof(text));
	assay_pq_value v = assay_pq_strn(text, sizeof(text));
	for (i = 0; i < 1000 && !rc; i++)
		rc = assay_pq_writer_append(w, &v, &err);
	cr_assert_eq(rc, ASSAY_EIO, "1000 rows of 200 bytes fit in 8 KiB?");
	cr_assert_eq(strncmp(err.path, path, strlen(path)), 0, "path '%s'", err.path);
	cr_assert(strstr(err.msg, "cannot write"), "%s", err.msg);
	cr_assert_eq(assay_pq_writer_append(w, &v, NULL), ASSAY_EIO);
	cr_assert_eq(assay_pq_writer_finish(w, NULL), ASSAY_EIO);
	assay_pq_writer_free(w);
	cr_assert_not(assay_fs_exists(path));
	cr_assert_eq(count_entries(dir), 0, "the temp file was left behind");
	assay_fs_remove_tree(dir, NULL);
	free(path);
	free(dir);
}
