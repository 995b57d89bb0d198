/*
 * Tests of src/lib/json: parsing as Python's json.loads (messages, 1-based character columns,
 * NaN and infinities, bigints, duplicate keys, the 4300-digit limit, positions, the arena's
 * limit), JSON Lines, and the writer in json.dumps(ensure_ascii=False)'s shape (reals as repr,
 * escapes, bytes that are not UTF-8). The structural diff is tested in test_diff.c.
 *
 * Python is the reference: expectations that changed from the jansson days say so, with what
 * /usr/bin/python3 (3.11) prints.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "json/json_int.h"

/*
 * Helpers: every test parses into one arena, freed after it.
 */

static assay_arena *arena;

static void arena_setup(void)
{
	arena = assay_arena_new(0);
}

static void arena_teardown(void)
{
	assay_arena_free(arena);
}

TestSuite(json, .init = arena_setup, .fini = arena_teardown);

static assay_value parse_okn(const char *text, size_t len)
{
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_json_parse(&v, arena, text, len, NULL, &err);

	cr_assert_eq(rc, 0, "parse of %s failed: %d:%d: %s", text, err.line, err.column, err.msg);
	return v;
}

static assay_value parse_ok(const char *text)
{
	return parse_okn(text, strlen(text));
}

static assay_err parse_err(const char *text, size_t len)
{
	assay_value v = assay_value_bool(true);
	assay_json_opts o = ASSAY_JSON_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	o.source = "output";
	rc = assay_json_parse(&v, arena, text, len, &o, &err);
	cr_assert_eq(rc, ASSAY_EPARSE, "parse of %s did not fail (%d)", text, rc);
	cr_assert_eq(v.kind, ASSAY_V_NULL, "a failed parse leaves null");
	cr_assert_eq(err.code, ASSAY_EPARSE);
	cr_assert_str_eq(err.path, "output");
	return err;
}

/* Python's JSONDecodeError for `text`: its msg, lineno and colno. */
static void check_error(const char *text, int line, int col, const char *msg)
{
	assay_err err = parse_err(text, strlen(text));

	cr_expect_str_eq(err.msg, msg, "message for %s", text);
	cr_expect_eq(err.line, line, "line for %s: %d", text, err.line);
	cr_expect_eq(err.column, col, "column for %s: %d", text, err.column);
}

/* assay_json_write into a malloc'd string */
static char *written(const assay_value *v, int flags)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_json_write(&b, v, flags);
	return assay_buf_detach(&b, NULL);
}

static void check_write(const char *text, int flags, const char *want)
{
	assay_value v = parse_ok(text);
	char *got = written(&v, flags);

	cr_expect_str_eq(got, want, "write of %s", text);
	free(got);
}

static void check_real(double d, const char *want)
{
	assay_value v = assay_value_real(d);
	char *got = written(&v, 0);

	cr_expect_str_eq(got, want, "real %.17g", d);
	free(got);
}

/* The written form of a string value holding `len` raw bytes. */
static void check_bytes(const char *in, size_t len, const char *want)
{
	assay_value v = assay_value_string(arena, in, len);
	char *got = written(&v, 0);

	cr_expect_str_eq(got, want, "write of %zu bytes", len);
	free(got);
}

static const assay_value *item(const assay_value *arr, size_t i)
{
	const assay_value *v = assay_array_get(arr, i);

	cr_assert_not_null(v, "no item %zu", i);
	return v;
}

static const assay_value *member(const assay_value *obj, const char *key)
{
	const assay_value *v = assay_object_get(obj, key);

	cr_assert_not_null(v, "no member %s", key);
	return v;
}

static void check_bigint(const assay_value *v, const char *digits)
{
	cr_assert_eq(v->kind, ASSAY_V_BIGINT, "kind %d, not a bigint", v->kind);
	cr_expect_eq(v->len, strlen(digits));
	cr_expect_eq(memcmp(v->u.s, digits, v->len), 0, "%.*s", (int)v->len, v->u.s);
}

/*
 * Parsing
 */

Test(json, parse_reads_values_of_every_type)
{
	assay_value v = parse_ok(" {\"a\": [1, 2.5, \"x\", true, false, null], \"b\": {}} \n");
	const assay_value *a = member(&v, "a");

	cr_assert_eq(v.kind, ASSAY_V_OBJECT);
	cr_assert_eq(v.len, 2);
	cr_assert_str_eq(v.u.members[0].key.u.s, "a");
	cr_assert_str_eq(v.u.members[1].key.u.s, "b");
	cr_assert_eq(a->kind, ASSAY_V_ARRAY);
	cr_assert_eq(a->len, 6);
	cr_assert_eq(item(a, 0)->kind, ASSAY_V_INT);
	cr_assert_eq(item(a, 0)->u.i, 1);
	cr_assert_eq(item(a, 1)->kind, ASSAY_V_REAL);
	cr_assert_float_eq(item(a, 1)->u.d, 2.5, 1e-12);
	cr_assert(assay_value_is_str(item(a, 2), "x"));
	cr_assert_eq(item(a, 3)->kind, ASSAY_V_BOOL);
	cr_assert(item(a, 3)->u.b);
	cr_assert_eq(item(a, 4)->kind, ASSAY_V_BOOL);
	cr_assert_not(item(a, 4)->u.b);
	cr_assert_eq(item(a, 5)->kind, ASSAY_V_NULL);
	cr_assert_eq(member(&v, "b")->kind, ASSAY_V_OBJECT);
	cr_assert_eq(member(&v, "b")->len, 0);
}

Test(json, parse_accepts_scalars_at_top_level)
{
	assay_value v = parse_ok("42");

	cr_assert_eq(v.kind, ASSAY_V_INT);
	cr_assert_eq(v.u.i, 42);
	v = parse_ok("  \"s\"\r\n");
	cr_assert(assay_value_is_str(&v, "s"));
	v = parse_ok("null");
	cr_assert_eq(v.kind, ASSAY_V_NULL);
}

Test(json, parse_error_has_line_column_and_message)
{
	/* jansson said "']' expected near end of file" at column 5; Python (json.loads("[1, 2"))
	 * says "Expecting ',' delimiter: line 1 column 6 (char 5)" */
	assay_err err = parse_err("[1, 2", 5);
	char buf[600];

	cr_expect_eq(err.line, 1);
	cr_expect_eq(err.column, 6);
	cr_expect_str_eq(err.msg, "Expecting ',' delimiter");
	cr_expect_str_eq(assay_err_format(&err, buf, sizeof(buf)),
			 "output:1:6: Expecting ',' delimiter");

	/* jansson: "invalid token near 'tru'" at 3:4; Python: "Expecting value: line 3 column 2
	 * (char 9)", the start of the token */
	check_error("[1,\n 2,\n tru]", 3, 2, "Expecting value");
}

Test(json, parse_rejects_trailing_garbage_and_empty_input)
{
	/* Python: "Extra data: line 1 column 9 (char 8)" (jansson: "end of file expected") */
	check_error("{\"a\":1} x", 1, 9, "Extra data");
	/* Python: "Expecting value: line 1 column 1 (char 0)"; white space only: column 3 */
	check_error("", 1, 1, "Expecting value");
	check_error("  ", 1, 3, "Expecting value");
	check_error("[1] [2]", 1, 5, "Extra data");
}

Test(json, parse_errors_are_pythons)
{
	/* Each: msg, lineno, colno of Python 3.11's json.loads(text). */
	check_error("\"abc", 1, 1, "Unterminated string starting at");
	check_error("[\"a\",\n \"bc", 2, 2, "Unterminated string starting at");
	check_error("\"\\", 1, 1, "Unterminated string starting at");
	check_error("\"a\\x\"", 1, 3, "Invalid \\escape");
	check_error("\"a\tb\"", 1, 3, "Invalid control character at");
	check_error("\"\x1f\"", 1, 2, "Invalid control character at");
	check_error("{bad", 1, 2, "Expecting property name enclosed in double quotes");
	check_error("{\"a\":1,}", 1, 8, "Expecting property name enclosed in double quotes");
	check_error("{", 1, 2, "Expecting property name enclosed in double quotes");
	check_error("{\"a\" 1}", 1, 6, "Expecting ':' delimiter");
	check_error("{\"a\"", 1, 5, "Expecting ':' delimiter");
	check_error("{\"a\":", 1, 6, "Expecting value");
	check_error("{\"a\":1 \"b\":2}", 1, 8, "Expecting ',' delimiter");
	check_error("[1 2]", 1, 4, "Expecting ',' delimiter");
	check_error("[1,]", 1, 4, "Expecting value");
	check_error("[", 1, 2, "Expecting value");
	check_error("'a'", 1, 1, "Expecting value");
	check_error("nul", 1, 1, "Expecting value");
	check_error("tRUE", 1, 1, "Expecting value");
	check_error("-Inf", 1, 1, "Expecting value");
	check_error("[-NaN]", 1, 2, "Expecting value");
	check_error("Infinityx", 1, 9, "Extra data");
	/* no leading zeros, '+' signs, bare points or exponents: what follows is extra data */
	check_error("01", 1, 2, "Extra data");
	check_error("1.", 1, 2, "Extra data");
	check_error("1e", 1, 2, "Extra data");
	check_error("-", 1, 1, "Expecting value");
	check_error(".5", 1, 1, "Expecting value");
	check_error("+1", 1, 1, "Expecting value");
	/* a NUL byte after the value is extra data, not the end of the text */
	cr_expect_eq(parse_err("[1]\0", 4).column, 4);
}

Test(json, parse_columns_count_characters_not_bytes)
{
	/* Python: json.loads('{"é": "x", tru}') -> "Expecting property name enclosed in double
	 * quotes: line 1 column 12 (char 11)": é is one character (two bytes) */
	check_error("{\"\xc3\xa9\": \"x\", tru}", 1, 12,
		    "Expecting property name enclosed in double quotes");
	check_error("[\n  \"\xc3\xbc\",\n  \"\xe6\x97\xa5\xe6\x9c\xac\", tru]", 3, 9,
		    "Expecting value");
	check_error("\"\xc3\xa9\xc3\xa9\xc3\xa9\\q\"", 1, 5, "Invalid \\escape");
}

Test(json, parse_keeps_nul_in_strings)
{
	assay_value v = parse_ok("[\"a\\u0000b\", \"\\u0000assay-number:5\"]");
	const assay_value *s = item(&v, 0);

	cr_assert_eq(s->kind, ASSAY_V_STRING);
	cr_assert_eq(s->len, 3);
	cr_assert_eq(memcmp(s->u.s, "a\0b", 3), 0);
	/* no string imitates a number, whatever it holds (the old in-band marker was a string
	 * starting with NUL) */
	cr_assert_eq(item(&v, 1)->kind, ASSAY_V_STRING);
	cr_assert_eq(item(&v, 1)->len, 15);
}

Test(json, parse_decodes_escapes_and_surrogate_pairs)
{
	assay_value v = parse_ok("[\"\\u00e9\\u20ac\\/\\b\\f\\n\\r\\t\\\"\\\\\", \"\\ud83d\\ude00\", "
				 "\"\\ud83dx\"]");

	cr_assert_eq(item(&v, 0)->len, 13);
	cr_assert_eq(memcmp(item(&v, 0)->u.s, "\xc3\xa9\xe2\x82\xac/\b\f\n\r\t\"\\", 13), 0);
	/* a pair is one code point (U+1F600), as Python's '\U0001f600' */
	cr_assert(assay_value_is_str(item(&v, 1), "\xf0\x9f\x98\x80"));
	/* a lone surrogate is kept (Python keeps '\ud83d'); the writer escapes it back */
	char *got = written(item(&v, 2), 0);
	cr_expect_str_eq(got, "\"\\ud83dx\"");
	free(got);
}

Test(json, parse_finds_every_special_byte_at_every_offset)
{
	/* strings are scanned several bytes at a time: each kind of byte that ends a plain run
	 * is found wherever it sits in a word, and the bytes around it stay plain */
	static const struct {
		const char *special, *want; /* want: the string read, or NULL for an error */
	} cases[] = {
		{ "\\n", "\n" },
		{ "\xc3\xa9", "\xc3\xa9" },
		{ "\x7f", "\x7f" },
		{ " ", " " },
		{ "\x1f", NULL },
		{ "\x01", NULL },
		{ "\xff", NULL },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (int before = 0; before < 20; before++) {
			for (int after = 0; after < 12; after += 5) {
				char text[64], want[64];
				int n = 0, w = 0;

				text[n++] = '"';
				for (int k = 0; k < before; k++)
					text[n++] = want[w++] = (char)('a' + k % 26);
				n += sprintf(text + n, "%s", cases[c].special);
				if (cases[c].want)
					w += sprintf(want + w, "%s", cases[c].want);
				for (int k = 0; k < after; k++)
					text[n++] = want[w++] = '~';
				text[n++] = '"';
				text[n] = want[w] = '\0';
				if (cases[c].want) {
					assay_value v = parse_okn(text, (size_t)n);

					cr_expect(v.kind == ASSAY_V_STRING && v.len == (uint32_t)w &&
							  !memcmp(v.u.s, want, (size_t)w),
						  "case %zu at offset %d", c, before);
				} else {
					assay_err e = parse_err(text, (size_t)n);

					cr_expect_eq(e.column, before + 2, "case %zu at offset %d: %d", c,
						     before, e.column);
				}
			}
		}
	}
}

Test(json, parse_refuses_bytes_that_are_not_utf8_inside_strings)
{
	/* Python would not get this far (the bytes do not decode); assay says where */
	check_error("\"a\xff\"", 1, 3, "Invalid UTF-8 byte in string");
	check_error("\"\xc0\xaf\"", 1, 2, "Invalid UTF-8 byte in string");
	check_error("\"\xed\xa0\x80\"", 1, 2, "Invalid UTF-8 byte in string");
	check_error("[\"ok\", \xff]", 1, 8, "Expecting value");
}

Test(json, parse_keeps_big_integers_exactly)
{
	assay_value v = parse_ok("123456789012345678901234567890");

	check_bigint(&v, "123456789012345678901234567890");
	cr_assert(assay_value_is_number(&v));
	cr_assert(assay_value_is_integer(&v));
	v = parse_ok("-123456789012345678901234567890");
	check_bigint(&v, "-123456789012345678901234567890");
}

Test(json, parse_reads_reals_past_dbl_max_as_infinities)
{
	/* jansson kept "1e400" as a number literal; Python's json.loads("[1e400, -1E+999,
	 * 1.8e308, 1.7976931348623157e308]") gives [inf, -inf, inf, 1.7976931348623157e+308] */
	assay_value v = parse_ok("[1e400, -1E+999, 1.8e308, 1.7976931348623157e308, 1e-400]");

	for (size_t i = 0; i < 5; i++)
		cr_assert_eq(item(&v, i)->kind, ASSAY_V_REAL);
	cr_expect(isinf(item(&v, 0)->u.d) && item(&v, 0)->u.d > 0);
	cr_expect(isinf(item(&v, 1)->u.d) && item(&v, 1)->u.d < 0);
	cr_expect(isinf(item(&v, 2)->u.d));
	cr_expect_eq(item(&v, 3)->u.d, 1.7976931348623157e308);
	cr_expect_eq(item(&v, 4)->u.d, 0.0);
}

Test(json, parse_accepts_nan_and_infinities_as_python)
{
	/* json.loads("[NaN, Infinity, -Infinity, -0.0]") -> [nan, inf, -inf, -0.0] */
	assay_value v = parse_ok("[NaN, Infinity, -Infinity, -0.0]");

	cr_assert(isnan(item(&v, 0)->u.d));
	cr_assert(isinf(item(&v, 1)->u.d) && item(&v, 1)->u.d > 0);
	cr_assert(isinf(item(&v, 2)->u.d) && item(&v, 2)->u.d < 0);
	cr_assert_eq(item(&v, 3)->kind, ASSAY_V_REAL);
	cr_assert(signbit(item(&v, 3)->u.d));
	/* and json.dumps writes them back as NaN, Infinity, -Infinity, -0.0 */
	char *got = written(&v, 0);
	cr_expect_str_eq(got, "[NaN, Infinity, -Infinity, -0.0]");
	free(got);
}

Test(json, parse_uses_plain_integers_up_to_int64)
{
	assay_value v = parse_ok("[9223372036854775807, -9223372036854775808, "
				 "9223372036854775808, -9223372036854775809, 999999999999999999, "
				 "1000000000000000000, -0, 123.456e-2]");

	cr_assert_eq(item(&v, 0)->kind, ASSAY_V_INT);
	cr_assert_eq(item(&v, 0)->u.i, INT64_MAX);
	cr_assert_eq(item(&v, 1)->kind, ASSAY_V_INT);
	cr_assert_eq(item(&v, 1)->u.i, INT64_MIN);
	check_bigint(item(&v, 2), "9223372036854775808");
	check_bigint(item(&v, 3), "-9223372036854775809");
	cr_assert_eq(item(&v, 4)->u.i, 999999999999999999);
	cr_assert_eq(item(&v, 5)->kind, ASSAY_V_INT);
	cr_assert_eq(item(&v, 5)->u.i, 1000000000000000000);
	/* json.loads("-0") is the int 0 */
	cr_assert_eq(item(&v, 6)->kind, ASSAY_V_INT);
	cr_assert_eq(item(&v, 6)->u.i, 0);
	cr_assert_eq(item(&v, 7)->kind, ASSAY_V_REAL);
	cr_assert_eq(item(&v, 7)->u.d, 1.23456);
}

Test(json, parse_stops_at_pythons_4300_digit_limit)
{
	/* int('1' * 4300) works; 4301 digits raise "Exceeds the limit (4300 digits) for integer
	 * string conversion" (Python's int_max_str_digits; the sign does not count) */
	char text[4400];
	assay_value v;
	assay_err err;

	memset(text, '7', sizeof(text));
	v = parse_okn(text, 4300);
	cr_assert_eq(v.kind, ASSAY_V_BIGINT);
	cr_assert_eq(v.len, 4300);
	text[0] = '-';
	v = parse_okn(text, 4301);
	cr_assert_eq(v.len, 4301);
	err = parse_err(text + 1, 4301);
	cr_expect(strstr(err.msg, "Exceeds the limit (4300 digits) for integer string conversion"),
		  "%s", err.msg);
	err = parse_err(text, 4302);
	cr_expect(strstr(err.msg, "Exceeds the limit (4300 digits)"), "%s", err.msg);
	/* the digits of a real are not limited: float('1.' + '1' * 5000) is 1.1111111111111112 */
	text[0] = '1';
	text[1] = '.';
	memset(text + 2, '1', 4000);
	v = parse_okn(text, 4002);
	cr_assert_eq(v.kind, ASSAY_V_REAL);
	cr_assert_eq(v.u.d, 1.1111111111111112);
}

Test(json, parse_duplicate_keys_keep_first_place_and_last_value)
{
	/* json.loads('{"a":1,"b":2,"a":3}') -> {'a': 3, 'b': 2} (a dict assignment) */
	assay_value v = parse_ok("{\"a\":1,\"b\":2,\"a\":3, \"c\": {\"x\": 1, \"x\": [2]}}");
	char *got = written(&v, 0);

	cr_expect_str_eq(got, "{\"a\": 3, \"b\": 2, \"c\": {\"x\": [2]}}");
	free(got);

	/* past the small-object path (more than 8 members), the same */
	v = parse_ok("{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,"
		     "\"k8\":8,\"k1\":10,\"k9\":9,\"k8\":80}");
	cr_expect_eq(v.len, 10);
	cr_expect_str_eq(v.u.members[1].key.u.s, "k1");
	cr_expect_eq(v.u.members[1].value.u.i, 10);
	cr_expect_str_eq(v.u.members[8].key.u.s, "k8");
	cr_expect_eq(v.u.members[8].value.u.i, 80);
	cr_expect_str_eq(v.u.members[9].key.u.s, "k9");
}

Test(json, parse_bignums_inside_structures_and_around_strings)
{
	/* strings that look like big numbers stay strings */
	assay_value v = parse_ok("{\"s\": \"\\\"123456789012345678901234567890\", "
				 "\"n\": [1, 123456789012345678901234567890, 2.5], \"k\": 7}");
	const assay_value *n = member(&v, "n");

	cr_assert(assay_value_is_str(member(&v, "s"), "\"123456789012345678901234567890"));
	cr_assert_eq(item(n, 0)->u.i, 1);
	check_bigint(item(n, 1), "123456789012345678901234567890");
	cr_assert_float_eq(item(n, 2)->u.d, 2.5, 1e-12);
	cr_assert_eq(member(&v, "k")->u.i, 7);
}

Test(json, parse_error_after_a_bignum_points_into_the_original_text)
{
	/* Python: json.loads('[123456789012345678901234567890, tru]') -> "Expecting value: line
	 * 1 column 34 (char 33)" (jansson said column 36, the end of the token) */
	const char *big = "[123456789012345678901234567890, tru]";
	const char *same = "[\"xxxxxxxxxxxxxxxxxxxxxxxxxxxx\", tru]"; /* same length */
	assay_err e1 = parse_err(big, strlen(big)), e2 = parse_err(same, strlen(same));

	cr_expect_eq(e1.line, e2.line);
	cr_expect_eq(e1.column, e2.column);
	cr_expect_eq(e1.column, 34);
	cr_expect_str_eq(e1.msg, "Expecting value");
}

Test(json, parse_refuses_a_bignum_object_key)
{
	/* jansson: "too big integer" at column 31; Python: "Expecting property name enclosed in
	 * double quotes: line 1 column 2 (char 1)", as for any key that is not a string */
	check_error("{123456789012345678901234567890: 1}", 1, 2,
		    "Expecting property name enclosed in double quotes");
	check_error("{1: 1}", 1, 2, "Expecting property name enclosed in double quotes");
}

Test(json, integer_text_makes_ints_and_normalised_bigints)
{
	assay_value v;

	cr_assert_eq(assay_value_integer_text(&v, arena, "-0042", 5), 0);
	cr_assert_eq(v.kind, ASSAY_V_INT);
	cr_assert_eq(v.u.i, -42);
	cr_assert_eq(assay_value_integer_text(&v, arena, "+000123456789012345678901234567890", 34),
		     0);
	check_bigint(&v, "123456789012345678901234567890");
	char *got = written(&v, 0);
	cr_expect_str_eq(got, "123456789012345678901234567890");
	free(got);
	cr_assert_eq(assay_value_integer_text(&v, arena, "-1e999", 6), ASSAY_EINVALID);
	cr_assert_eq(assay_value_integer_text(&v, arena, "", 0), ASSAY_EINVALID);
}

Test(json, parse_records_positions_on_request)
{
	const char *text = "{\"a\": [1, \"x\"],\n \"\xc3\xa9\": {\"k\": \"\"}, \"n\": 5}";
	assay_json_opts o = ASSAY_JSON_OPTS_INIT;
	assay_value v;
	assay_pos pos;

	o.positions = true;
	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), &o, NULL), 0);
	cr_assert(assay_arena_position(arena, &v, &pos));
	cr_expect(pos.line == 1 && pos.col == 1, "%u:%u", pos.line, pos.col);
	/* a key and its value */
	cr_assert(assay_arena_position(arena, &v.u.members[0].key, &pos));
	cr_expect(pos.line == 1 && pos.col == 2, "%u:%u", pos.line, pos.col);
	cr_assert(assay_arena_position(arena, &v.u.members[0].value, &pos));
	cr_expect(pos.line == 1 && pos.col == 7, "%u:%u", pos.line, pos.col);
	cr_assert(assay_arena_position(arena, item(&v.u.members[0].value, 1), &pos));
	cr_expect(pos.line == 1 && pos.col == 11, "%u:%u", pos.line, pos.col);
	/* line 2, columns in characters; an empty string has a position too */
	cr_assert(assay_arena_position(arena, &v.u.members[1].key, &pos));
	cr_expect(pos.line == 2 && pos.col == 2, "%u:%u", pos.line, pos.col);
	cr_assert(assay_arena_position(arena, &v.u.members[1].value, &pos));
	cr_expect(pos.line == 2 && pos.col == 7, "%u:%u", pos.line, pos.col);
	cr_assert(assay_arena_position(arena, member(&v.u.members[1].value, "k"), &pos));
	cr_expect(pos.line == 2 && pos.col == 13, "%u:%u", pos.line, pos.col);
	/* ... and stays a NUL-terminated string (value.h) */
	cr_expect_str_eq(member(&v.u.members[1].value, "k")->u.s, "");
	/* numbers carry no position: messages point at their key */
	cr_expect_not(assay_arena_position(arena, member(&v, "n"), &pos));
	cr_expect_not(assay_arena_position(arena, item(&v.u.members[0].value, 0), &pos));

	/* without the option nothing is recorded */
	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), NULL, NULL), 0);
	cr_expect_not(assay_arena_position(arena, &v, &pos));
}

Test(json, parse_borrows_plain_strings_on_request)
{
	const char *text = "[\"plain\", \"esc\\n\"]";
	assay_json_opts o = ASSAY_JSON_OPTS_INIT;
	assay_value v;

	o.borrow = true;
	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), &o, NULL), 0);
	cr_expect_eq(item(&v, 0)->u.s, text + 2, "a string without escapes points into the text");
	cr_expect(item(&v, 1)->u.s < text || item(&v, 1)->u.s > text + strlen(text));
	cr_expect(assay_value_is_str(item(&v, 1), "esc\n"));
	/* without it, strings are copies */
	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), NULL, NULL), 0);
	cr_expect_neq(item(&v, 0)->u.s, text + 2);
}

/* assay_json__parse_like with `like`, borrowing, checked against a plain parse of `text` */
static assay_value parse_like_ok(const char *text, const assay_value *like, bool positions)
{
	assay_json_opts o = ASSAY_JSON_OPTS_INIT;
	assay_value v, plain = parse_ok(text);
	char *got, *want;

	o.borrow = true;
	o.positions = positions;
	cr_assert_eq(assay_json__parse_like(&v, arena, text, strlen(text), &o, like, NULL), 0);
	got = written(&v, 0);
	want = written(&plain, 0);
	cr_expect_str_eq(got, want, "the value read is the same with a like document");
	free(got);
	free(want);
	return v;
}

Test(json, parse_like_shares_only_equal_containers)
{
	assay_value like = parse_ok("{\"a\": [1, 2.5, \"x\", null, true, [], {}], \"b\": {\"c\": [1]}, "
				    "\"d\": [1], \"e\": {\"k\": -0.0}, \"f\": [1], "
				    "\"g\": [\"\\ud800\"], \"h\": [\"\\u00e9\"], \"i\": {\"p\": 1, \"q\": 2}, "
				    "\"j\": [123456789012345678901234567890]}");
	const char *text = "{\"b\": {\"c\": [1]}, \"a\": [1, 2.5, \"x\", null, true, [], {}], "
			   "\"d\": [1.0], \"e\": {\"k\": 0.0}, \"f\": [1, 2], \"g\": [\"\\ud800\"], "
			   "\"h\": [\"\xc3\xa9\"], \"i\": {\"q\": 2, \"p\": 1}, "
			   "\"j\": [123456789012345678901234567891], \"z\": [1]}";
	assay_value v = parse_like_ok(text, &like, false);

	/* the same path, bytes, bits and kinds: shared, even under members in another order */
	cr_expect_eq(member(&v, "a")->u.items, member(&like, "a")->u.items);
	cr_expect_eq(member(&v, "b")->u.members, member(&like, "b")->u.members);
	cr_expect_eq(member(&v, "g")->u.items, member(&like, "g")->u.items, "a lone surrogate");
	cr_expect_eq(member(&v, "h")->u.items, member(&like, "h")->u.items, "escaped or not");
	/* anything else is a copy of its own */
	cr_expect_neq(v.u.members, like.u.members, "the members' order differs");
	cr_expect_neq(member(&v, "d")->u.items, member(&like, "d")->u.items, "1.0 is not 1");
	cr_expect_neq(member(&v, "e")->u.members, member(&like, "e")->u.members, "0.0, -0.0");
	cr_expect_neq(member(&v, "f")->u.items, member(&like, "f")->u.items, "an item more");
	cr_expect_neq(member(&v, "i")->u.members, member(&like, "i")->u.members, "order");
	cr_expect_neq(member(&v, "j")->u.items, member(&like, "j")->u.items, "a bigint");

	/* a like value of another kind shares nothing (and changes nothing) */
	parse_like_ok("[{\"a\": 1}, [2, {\"b\": \"c\"}]]", member(&like, "b"), false);
	/* a like value built by pushes (its storage grown in place) is shared all the same */
	like = assay_value_array();
	assay_array_push(arena, &like, assay_value_int(1));
	{
		assay_value inner = assay_value_array();

		assay_array_push(arena, &inner, assay_value_strz(arena, "x"));
		assay_array_push(arena, &like, inner);
	}
	v = parse_like_ok("[1, [\"x\"]]", &like, false);
	cr_expect_eq(v.u.items, like.u.items);
	/* an identical document is the like document's storage */
	like = parse_ok("[{\"a\": 1}, [2, {\"b\": \"c\"}]]");
	v = parse_like_ok("[{\"a\": 1}, [2, {\"b\": \"c\"}]]", &like, false);
	cr_expect_eq(v.u.items, like.u.items);
	/* positions are keyed by storage: recorded, nothing is shared */
	v = parse_like_ok("[{\"a\": 1}, [2, {\"b\": \"c\"}]]", &like, true);
	cr_expect_neq(v.u.items, like.u.items);
	cr_expect_neq(item(&v, 0)->u.members, item(&like, 0)->u.members);
}

Test(json, parse_shares_repeated_keys_where_no_position_is_recorded)
{
	const char *text = "[{\"id\": 1, \"name\": \"a\"}, {\"id\": 2, \"name\": \"id\"}]";
	assay_json_opts o = ASSAY_JSON_OPTS_INIT;
	assay_value v;
	assay_pos p0, p1;

	/* a key made before is reused (values are not: their strings are mostly unique) */
	v = parse_ok(text);
	cr_expect_eq(item(&v, 0)->u.members[0].key.u.s, item(&v, 1)->u.members[0].key.u.s);
	cr_expect_eq(item(&v, 0)->u.members[1].key.u.s, item(&v, 1)->u.members[1].key.u.s);
	cr_expect_str_eq(item(&v, 1)->u.members[0].key.u.s, "id", "NUL-terminated as ever");
	cr_expect_neq(item(&v, 1)->u.members[1].value.u.s, item(&v, 1)->u.members[0].key.u.s);
	/* with positions, each key keeps its own storage and its own position */
	o.positions = true;
	cr_assert_eq(assay_json_parse(&v, arena, text, strlen(text), &o, NULL), 0);
	cr_expect_neq(item(&v, 0)->u.members[0].key.u.s, item(&v, 1)->u.members[0].key.u.s);
	cr_assert(assay_arena_position(arena, &item(&v, 0)->u.members[0].key, &p0));
	cr_assert(assay_arena_position(arena, &item(&v, 1)->u.members[0].key, &p1));
	cr_expect(p0.col == 3 && p1.col == 27, "%u, %u", p0.col, p1.col);
}

Test(json, parse_stops_past_the_arenas_limit)
{
	assay_arena *small = assay_arena_new(64 * 1024);
	assay_buf text = ASSAY_BUF_INIT;
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	assay_buf_addch(&text, '[');
	for (int i = 0; i < 100000; i++)
		assay_buf_adds(&text, i ? ", [1, \"abc\"]" : "[1, \"abc\"]");
	assay_buf_addch(&text, ']');
	cr_expect_eq(assay_json_parse(&v, small, text.ptr, text.len, NULL, &err), ASSAY_ETOOBIG);
	cr_expect_eq(err.code, ASSAY_ETOOBIG);
	cr_expect_eq(v.kind, ASSAY_V_NULL);
	/* under the limit it parses */
	cr_expect_eq(assay_json_parse(&v, arena, text.ptr, text.len, NULL, NULL), 0);
	cr_expect_eq(v.len, 100000);
	assay_buf_release(&text);
	assay_arena_free(small);
}

Test(json, deep_nesting_counts_against_the_budget)
{
	/*
	 * Issue 18, item 7: a 60 MB `[[[...]]]` took assay to 1.48 GB under a 512 MiB budget, in
	 * the parser's stacks, which the arena did not see. Now they are charged to it, and
	 * nesting stops at ASSAY_MAX_DEPTH.
	 */
	size_t n = 90000;
	assay_buf text = ASSAY_BUF_INIT;
	assay_arena *small = assay_arena_new(2u << 20);
	assay_err err = ASSAY_ERR_INIT;
	assay_value v;

	for (size_t i = 0; i < n; i++)
		assay_buf_addch(&text, '[');
	for (size_t i = 0; i < n; i++)
		assay_buf_addch(&text, ']');
	/* its values take 1.4 MB, under the 2 MiB; the stacks of 90,000 open arrays do not fit */
	cr_expect_eq(assay_json_parse(&v, small, text.ptr, text.len, NULL, &err), ASSAY_ETOOBIG,
		     "%s", err.msg);
	cr_expect_lt(assay_arena_used(small), 2u << 20); /* nothing stays charged */
	assay_arena_free(small);
	small = assay_arena_new(64u << 20);
	cr_expect_eq(assay_json_parse(&v, small, text.ptr, text.len, NULL, NULL), 0);
	cr_expect_eq(assay_value_depth(&v), n);
	assay_arena_free(small);
	/* past 100,000 levels: a parse error at the level too many */
	assay_buf_reset(&text);
	for (size_t i = 0; i < 1000000; i++)
		assay_buf_addch(&text, '[');
	assay_err_clear(&err);
	cr_expect_eq(assay_json_parse(&v, arena, text.ptr, text.len, NULL, &err), ASSAY_EPARSE);
	cr_expect_eq(err.line, 1);
	cr_expect_eq(err.column, 100001);
	cr_expect_str_eq(err.msg, "Nested deeper than 100000 levels");
	assay_buf_release(&text);
}

Test(json, parse_and_write_any_depth)
{
	/* up to ASSAY_MAX_DEPTH: {"a": [ is two levels */
	enum { DEPTH = ASSAY_MAX_DEPTH / 2 };
	assay_buf text = ASSAY_BUF_INIT;
	assay_value v;

	for (int i = 0; i < DEPTH; i++)
		assay_buf_adds(&text, "{\"a\": [");
	assay_buf_addch(&text, '1');
	for (int i = 0; i < DEPTH; i++)
		assay_buf_adds(&text, "]}");
	v = parse_okn(text.ptr, text.len);
	cr_expect_eq(assay_value_depth(&v), 2 * (size_t)DEPTH);
	char *got = written(&v, 0);
	/* compact: "{"a": [" per level, as read but for the space */
	cr_expect_eq(strlen(got), text.len);
	cr_expect_eq(memcmp(got, text.ptr, text.len), 0);
	free(got);
	assay_buf_release(&text);
}

/*
 * JSON Lines
 */

Test(json, lines_skip_blank_lines_and_crlf)
{
	const char *t = "{\"a\":1}\n\n  \t\n[2]\r\n\r\n3";
	assay_value v;

	cr_assert_eq(assay_json_parse_lines(&v, arena, t, strlen(t), false, NULL, NULL), 0);
	cr_assert_eq(v.kind, ASSAY_V_ARRAY);
	cr_assert_eq(v.len, 3);
	cr_assert_eq(member(item(&v, 0), "a")->u.i, 1);
	cr_assert_eq(item(&v, 1)->kind, ASSAY_V_ARRAY);
	cr_assert_eq(item(&v, 2)->u.i, 3);
}

Test(json, lines_of_empty_text_are_an_empty_list)
{
	assay_value v;

	cr_assert_eq(assay_json_parse_lines(&v, arena, "", 0, false, NULL, NULL), 0);
	cr_assert_eq(v.kind, ASSAY_V_ARRAY);
	cr_assert_eq(v.len, 0);
	cr_assert_eq(assay_json_parse_lines(&v, arena, "\n \n\r\n", 5, false, NULL, NULL), 0);
	cr_assert_eq(v.len, 0);
}

Test(json, lines_error_names_the_text_line)
{
	const char *t = "1\n\n2\n{bad\n4\n";
	assay_json_opts o = ASSAY_JSON_OPTS_INIT;
	assay_value v = assay_value_bool(true);
	assay_err err = ASSAY_ERR_INIT;

	o.source = "out.jsonl";
	cr_assert_eq(assay_json_parse_lines(&v, arena, t, strlen(t), false, &o, &err),
		     ASSAY_EPARSE);
	cr_assert_eq(v.kind, ASSAY_V_NULL);
	/* the 4th line of the text; the column and message are Python's for the line alone
	 * (json.loads('{bad'): column 2; jansson said column 4, "string or '}' expected") */
	cr_expect_eq(err.line, 4);
	cr_expect_eq(err.column, 2);
	cr_expect_str_eq(err.path, "out.jsonl");
	cr_expect_str_eq(err.msg, "Expecting property name enclosed in double quotes");
}

Test(json, lines_skip_invalid_drops_bad_lines)
{
	const char *t = "1\nnope\n{\"b\": 123456789012345678901234567890}\n[1,\n";
	assay_value v;

	cr_assert_eq(assay_json_parse_lines(&v, arena, t, strlen(t), true, NULL, NULL), 0);
	cr_assert_eq(v.len, 2);
	cr_assert_eq(item(&v, 0)->u.i, 1);
	check_bigint(member(item(&v, 1), "b"), "123456789012345678901234567890");
}

Test(json, lines_stop_past_the_arenas_limit)
{
	assay_arena *small = assay_arena_new(16 * 1024);
	assay_buf text = ASSAY_BUF_INIT;
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	for (int i = 0; i < 20000; i++)
		assay_buf_adds(&text, "[\"a line of json\", 1, 2, 3]\n");
	cr_expect_eq(assay_json_parse_lines(&v, small, text.ptr, text.len, true, NULL, &err),
		     ASSAY_ETOOBIG);
	cr_expect_eq(err.code, ASSAY_ETOOBIG);
	assay_buf_release(&text);
	assay_arena_free(small);
}

/*
 * Writing bytes that are not UTF-8 (the lossy strings of old): as Python's
 * json.dumps(b.decode("utf-8", "replace"), ensure_ascii=False)
 */

#define FFFD "\xef\xbf\xbd"

Test(json, write_keeps_valid_utf8_and_escapes_nul)
{
	check_bytes("h\xc3\xa9llo \xf0\x9f\x98\x80", 11, "\"h\xc3\xa9llo \xf0\x9f\x98\x80\"");
	check_bytes("a\0b", 3, "\"a\\u0000b\"");
	check_bytes("", 0, "\"\"");
}

Test(json, write_replaces_bad_bytes_as_python)
{
	check_bytes("a\xff" "b", 3, "\"a" FFFD "b\"");
	check_bytes("\x80\x80", 2, "\"" FFFD FFFD "\"");
	/* overlong, past U+10FFFF: one replacement per byte, as Python */
	check_bytes("\xc0\xaf", 2, "\"" FFFD FFFD "\"");
	check_bytes("\xf4\x90\x80\x80", 4, "\"" FFFD FFFD FFFD FFFD "\"");
	/* a truncated sequence is one replacement (Python's maximal subpart) */
	check_bytes("\xe2\x82" "a", 3, "\"" FFFD "a\"");
	check_bytes("x\xe2\x82", 3, "\"x" FFFD "\"");
	check_bytes("\xf0\x9f\x98", 3, "\"" FFFD "\"");
}

/*
 * Raw bytes ED A0 80 (a program's output) are not UTF-8: three U+FFFD, as
 * b"\xed\xa0\x80".decode("utf-8", "replace"). Only a lone surrogate the parser read from a
 * \udXXX escape is written back as that escape (json.dumps(json.loads('"\\ud800"'))).
 */
Test(json, write_replaces_raw_surrogate_bytes_as_python)
{
	check_bytes("\xed\xa0\x80", 3, "\"" FFFD FFFD FFFD "\"");
	check_write("\"\\ud800\"", 0, "\"\\ud800\"");
	check_write("[\"a\\udfffb\", {\"\\udc00\": 1}]", 0, "[\"a\\udfffb\", {\"\\udc00\": 1}]");
	/* a pair stays one character */
	check_write("\"\\ud83d\\ude00\"", 0, "\"\xf0\x9f\x98\x80\"");
}

/*
 * Writing values
 */

Test(json, write_is_python_compact)
{
	check_write("{\"a\":1,\"b\":[1,2],\"c\":{},\"d\":[]}", 0,
		    "{\"a\": 1, \"b\": [1, 2], \"c\": {}, \"d\": []}");
	check_write("[true,false,null,-5,9223372036854775807]", 0,
		    "[true, false, null, -5, 9223372036854775807]");
	check_write("[[[[]]], {}, [{}]]", 0, "[[[[]]], {}, [{}]]");
}

Test(json, write_pretty_indents_by_two)
{
	/* json.dumps(v, indent=2) */
	check_write("{\"a\":1,\"b\":[1,{}],\"c\":[]}", ASSAY_JSON_PRETTY,
		    "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    {}\n  ],\n  \"c\": []\n}");
	check_write("[]", ASSAY_JSON_PRETTY, "[]");
	check_write("5", ASSAY_JSON_PRETTY, "5");
}

Test(json, write_sorts_keys_on_request)
{
	/* json.dumps(v, sort_keys=True): code point order, which is UTF-8 byte order */
	check_write("{\"b\":1,\"a\":{\"z\":1,\"y\":2},\"B\":0}", ASSAY_JSON_SORT_KEYS,
		    "{\"B\": 0, \"a\": {\"y\": 2, \"z\": 1}, \"b\": 1}");
	check_write("{\"\xc3\xa9\":1,\"e\":2,\"\xef\xbd\x9a\":3,\"\xf0\x9f\x98\x80\":4,\"z\":5}",
		    ASSAY_JSON_SORT_KEYS,
		    "{\"e\": 2, \"z\": 5, \"\xc3\xa9\": 1, \"\xef\xbd\x9a\": 3, "
		    "\"\xf0\x9f\x98\x80\": 4}");
	check_write("{\"b\":1,\"a\":2}", 0, "{\"b\": 1, \"a\": 2}");
	check_write("{\"b\":1,\"a\":[2]}", ASSAY_JSON_SORT_KEYS | ASSAY_JSON_PRETTY,
		    "{\n  \"a\": [\n    2\n  ],\n  \"b\": 1\n}");
}

Test(json, write_reals_as_python_repr)
{
	check_real(1.0, "1.0");
	check_real(0.1, "0.1");
	check_real(0.1 + 0.2, "0.30000000000000004");
	check_real(2.5, "2.5");
	check_real(123.0, "123.0");
	check_real(-0.0, "-0.0");
	check_real(0.0, "0.0");
	check_real(1e15, "1000000000000000.0");
	check_real(1e16, "1e+16");
	check_real(9999999999999998.0, "9999999999999998.0");
	check_real(1.5e-5, "1.5e-05");
	check_real(1e-7, "1e-07");
	check_real(0.0001, "0.0001");
	check_real(1e22, "1e+22");
	check_real(123456.789, "123456.789");
	check_real(1.7976931348623157e308, "1.7976931348623157e+308");
	check_real(5e-324, "5e-324");
	check_real(-1.25e100, "-1.25e+100");
	check_real(1.0 / 3.0, "0.3333333333333333");
	/* json.dumps(float('nan')), json.dumps(float('-inf')) */
	check_real(NAN, "NaN");
	check_real(INFINITY, "Infinity");
	check_real(-INFINITY, "-Infinity");
}

Test(json, write_escapes_strings_as_python)
{
	assay_value v = assay_value_string(arena, "a\"b\\c\n\t\r\b\f\x01\x1f\x7f \xc3\xa9\0z", 18);
	char *got = written(&v, 0);

	/* json.dumps(..., ensure_ascii=False): lower-case \u00xx, DEL and é as they are */
	cr_expect_str_eq(got, "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\x7f \xc3\xa9\\u0000z\"");
	free(got);
	/* U+2028 and U+2029 are not escaped either */
	check_write("\"\xe2\x80\xa8\xe2\x80\xa9\"", 0, "\"\xe2\x80\xa8\xe2\x80\xa9\"");
}

Test(json, write_bigints_bare_and_datetimes_as_strings)
{
	check_write("{\"n\": [123456789012345678901234567890, -98765432109876543210]}", 0,
		    "{\"n\": [123456789012345678901234567890, -98765432109876543210]}");
	assay_value d = assay_value_datetime(arena, ASSAY_DT_DATE, "2001-12-14", 10);
	char *got = written(&d, 0);
	cr_expect_str_eq(got, "\"2001-12-14\"");
	free(got);
}

Test(json, write_respects_a_capped_buffer)
{
	assay_value v = parse_ok("[\"0123456789\", \"0123456789\", \"0123456789\"]");
	assay_buf b = ASSAY_BUF_INIT;

	assay_buf_init(&b, 0, 16);
	assay_json_write(&b, &v, 0);
	cr_expect_eq(b.len, 16);
	cr_expect_str_eq(b.ptr, "[\"0123456789\", \"");
	assay_buf_release(&b);
}

/* Python points "Invalid \uXXXX escape" at the 'u' (json.loads('"\\u12"'): line 1 column 3). */
Test(json, parse_bad_unicode_escape_points_at_the_u_as_python)
{
	check_error("\"\\u12\"", 1, 3, "Invalid \\uXXXX escape");
	check_error("[\"ab\\u12x4\"]", 1, 6, "Invalid \\uXXXX escape");
}

/* Python refuses a leading byte order mark with its own message (json.loads of the decoded
 * text, as a verifier reading a program's output as str does). */
Test(json, parse_names_a_byte_order_mark_as_python)
{
	check_error("\xef\xbb\xbf[1]", 1, 1, "Unexpected UTF-8 BOM (decode using utf-8-sig)");
}

/*
 * assay_json__reads_back (json_lib.h): true only where parsing the writer's text gives the value
 * back, member order and all; each refused kind is one where it would not.
 */
static void reads_back_as_said(const assay_value *v, bool expect)
{
	assay_buf b = ASSAY_BUF_INIT, again = ASSAY_BUF_INIT;
	assay_value back;
	assay_err e = ASSAY_ERR_INIT;

	cr_assert_eq(assay_json__reads_back(v), expect);
	assay_json_write(&b, v, 0);
	cr_assert_eq(assay_json_parse(&back, arena, b.ptr, b.len, NULL, &e), 0, "%s", e.msg);
	assay_json_write(&again, &back, 0);
	/* what it says true of reads back exactly; what it refuses here does not */
	cr_assert_eq(assay_value_equal(&back, v) && !strcmp(again.ptr, b.ptr) &&
			     back.kind == v->kind,
		     expect, "%s", b.ptr);
	assay_buf_release(&b);
	assay_buf_release(&again);
}

Test(json, reads_back_only_what_parses_back)
{
	assay_value o = assay_value_object(), arr = assay_value_array();

	assay_object_set(arena, &o, "id", assay_value_strz(arena, "e1"));
	assay_object_set(arena, &o, "ctl\n\"\\", assay_value_strz(arena, "a\tb\x01 \xc3\xa9 \xe2\x82\xac"));
	assay_object_set(arena, &o, "n", assay_value_int(-42));
	assay_object_set(arena, &o, "r", assay_value_real(0.1));
	assay_object_set(arena, &o, "big", assay_value_real(1e300));
	assay_object_set(arena, &o, "inf", assay_value_real(-INFINITY));
	assay_object_set(arena, &o, "z", assay_value_real(-0.0));
	assay_object_set(arena, &o, "b", assay_value_bool(true));
	assay_object_set(arena, &o, "null", assay_value_null());
	assay_array_push(arena, &arr, assay_value_string(arena, "nul\0byte", 8));
	assay_array_push(arena, &arr, assay_value_object());
	assay_object_set(arena, &o, "arr", arr);
	reads_back_as_said(&o, true);

	/* bytes that are not UTF-8 come back as U+FFFD */
	assay_value bad = assay_value_string(arena, "a\xff", 2);
	reads_back_as_said(&bad, false);
	/* a key twice: the parser keeps one */
	assay_value dup = assay_value_object();
	assay_object_append(arena, &dup, assay_value_strz(arena, "k"), assay_value_int(1));
	assay_object_append(arena, &dup, assay_value_strz(arena, "k"), assay_value_int(2));
	reads_back_as_said(&dup, false);
	/* a datetime comes back a string */
	assay_value dt = assay_value_datetime(arena, ASSAY_DT_DATE, "2024-01-02", 10);
	reads_back_as_said(&dt, false);
	/* a bigint an int64 holds comes back an int */
	assay_value bi = { .kind = ASSAY_V_BIGINT, .len = 2, .u.s = "12" };
	reads_back_as_said(&bi, false);
}

/* The cut writer says whether its text is the plain writer's. */
Test(json, write_cut_says_whether_it_cut)
{
	assay_value o = assay_value_object();
	assay_json_cut cut = { 16, NULL, 1 };
	assay_buf b = ASSAY_BUF_INIT, plain = ASSAY_BUF_INIT;
	assay_err e = ASSAY_ERR_INIT;
	bool any = true;

	assay_object_set(arena, &o, "a", assay_value_strz(arena, "short"));
	cr_assert_eq(assay_json__write_cut_any(&b, &o, 0, &cut, &any, &e), 0);
	assay_json_write(&plain, &o, 0);
	cr_assert(!any);
	cr_assert_str_eq(b.ptr, plain.ptr);
	assay_buf_reset(&b);
	assay_object_set(arena, &o, "$assay_cut", assay_value_int(1));
	cr_assert_eq(assay_json__write_cut_any(&b, &o, 0, &cut, &any, &e), 0);
	cr_assert(any, "a key written with one '$' more");
	assay_buf_reset(&b);
	any = false;
	assay_value o2 = assay_value_object();
	assay_object_set(arena, &o2, "long", assay_value_strz(arena, "a string of more than 16 bytes"));
	cr_assert_eq(assay_json__write_cut_any(&b, &o2, 0, &cut, &any, &e), 0);
	cr_assert(any, "%s", b.ptr);
	cr_assert(strstr(b.ptr, "$assay_cut"));
	assay_buf_release(&b);
	assay_buf_release(&plain);
}
