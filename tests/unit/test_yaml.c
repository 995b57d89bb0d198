/*
 * Tests of assay_yaml_parse: PyYAML's answer for every scalar resolution rule (the expected
 * values were produced by PyYAML 6.0 safe_load), exact integers in every base, reals in every
 * PyYAML spelling, timestamps, block and quoted scalars, collections, anchors, merge keys, key
 * stringification, explicit tags, exact error positions, source positions, several documents,
 * the arena's limit, deep nesting, every case file of the jq-1.6 example suite, and 2000 mutated
 * inputs that must load or fail cleanly.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "assay/yaml.h"
#include "json/json_int.h"
#include "util/hash.h"
#include "fnv_flood.h"
#include "util/banned.h"

/* the example suite kept in the source tree */
#define JQ_EXAMPLE ASSAY_FIXTURES "/../../examples/jq-1.6"

/*
 * Helpers
 */

/* the arena of the running test (each test runs in a process of its own) */
static assay_arena *A;

static void setup(void)
{
	A = assay_arena_new(0);
}

static void teardown(void)
{
	assay_arena_free(A);
}

TestSuite(yaml, .init = setup, .fini = teardown);

static assay_value load_opts(const char *text, size_t len, const assay_yaml_opts *o)
{
	assay_err err = ASSAY_ERR_INIT;
	assay_value v;
	int rc = assay_yaml_parse(&v, A, text, len, o, &err);

	cr_assert_eq(rc, 0, "parse of <<%.200s>> failed: %d:%d: %s", text, err.line, err.column,
		     err.msg);
	return v;
}

static assay_value load(const char *text)
{
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

	o.source = "t.yaml";
	return load_opts(text, strlen(text), &o);
}

/* With positions recorded. */
static assay_value load_pos(const char *text, size_t len)
{
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

	o.source = "t.yaml";
	o.positions = true;
	return load_opts(text, len, &o);
}

/* Parses `text` with `o` (NULL: defaults), which must fail; returns "line:col: msg". */
static const char *load_fail_opts(const char *text, const assay_yaml_opts *o)
{
	static char out[1200];
	assay_yaml_opts d = ASSAY_YAML_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_value v = assay_value_int(7);
	int rc;

	if (!o) {
		d.positions = true;
		o = &d;
	}
	d = *o;
	d.source = "bad.yaml";
	rc = assay_yaml_parse(&v, A, text, strlen(text), &d, &err);
	cr_assert_eq(rc, ASSAY_EPARSE, "<<%.200s>> gave %d, not EPARSE", text, rc);
	cr_assert_eq(err.code, ASSAY_EPARSE);
	cr_assert_eq(v.kind, ASSAY_V_NULL, "no value on failure");
	cr_assert_str_eq(err.path, "bad.yaml");
	snprintf(out, sizeof(out), "%d:%d: %s", err.line, err.column, err.msg);
	return out;
}

static const char *load_fail(const char *text)
{
	return load_fail_opts(text, NULL);
}

/* Compact JSON (no spaces), reals as Python's repr, datetimes as strings. Small values only. */
static void dump_to(assay_buf *b, const assay_value *v)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL: assay_buf_adds(b, "null"); break;
	case ASSAY_V_BOOL: assay_buf_adds(b, v->u.b ? "true" : "false"); break;
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT:
	case ASSAY_V_REAL: assay_json__write_number(b, v); break;
	case ASSAY_V_STRING:
	case ASSAY_V_DATETIME: assay_json__write_string(b, v->u.s, v->len, false); break;
	case ASSAY_V_ARRAY:
		assay_buf_addch(b, '[');
		for (uint32_t i = 0; i < v->len; i++) {
			if (i)
				assay_buf_addch(b, ',');
			dump_to(b, &v->u.items[i]);
		}
		assay_buf_addch(b, ']');
		break;
	case ASSAY_V_OBJECT:
		assay_buf_addch(b, '{');
		for (uint32_t i = 0; i < v->len; i++) {
			if (i)
				assay_buf_addch(b, ',');
			dump_to(b, &v->u.members[i].key);
			assay_buf_addch(b, ':');
			dump_to(b, &v->u.members[i].value);
		}
		assay_buf_addch(b, '}');
		break;
	}
}

/* The dump of `v`, valid until the next call. */
static const char *dump(const assay_value *v)
{
	static assay_buf b = ASSAY_BUF_INIT;

	assay_buf_reset(&b);
	dump_to(&b, v);
	return b.ptr;
}

/* `text` loads to the JSON `expected` (same types, same key order). */
static void check(const char *text, const char *expected)
{
	assay_value v = load(text);

	cr_expect_str_eq(dump(&v), expected, "<<%s>>", text);
}

/* A JSON value (for comparisons by kind and value). */
static assay_value json(const char *text)
{
	assay_err err = ASSAY_ERR_INIT;
	assay_value v;

	cr_assert_eq(assay_json_parse(&v, A, text, strlen(text), NULL, &err), 0, "%s: %s", text,
		     err.msg);
	return v;
}

/*
 * Scalar resolution
 */

struct resolve_case {
	const char *scalar;
	const char *expected; /* JSON as Python's json.dumps writes it */
};

/*
 * Generated once with PyYAML 6.0 under Python 3.11, one scalar per line on stdin:
 *   /usr/bin/python3 -c 'import sys, json, yaml
 *   for s in sys.stdin.read().splitlines():
 *       v = yaml.safe_load("v: " + s + "\n")["v"]
 *       print("{ %s, %s }," % (json.dumps(s), json.dumps(json.dumps(v))))'
 * `<<`, `=` and a timestamp, where PyYAML gives no JSON value, are tested apart.
 */
static const struct resolve_case resolve_cases[] = {
	{ "~", "null" },
	{ "null", "null" },
	{ "Null", "null" },
	{ "NULL", "null" },
	{ "nULL", "\"nULL\"" },
	{ "", "null" },
	{ "yes", "true" },
	{ "Yes", "true" },
	{ "YES", "true" },
	{ "yEs", "\"yEs\"" },
	{ "no", "false" },
	{ "No", "false" },
	{ "NO", "false" },
	{ "true", "true" },
	{ "True", "true" },
	{ "TRUE", "true" },
	{ "tRUE", "\"tRUE\"" },
	{ "false", "false" },
	{ "False", "false" },
	{ "FALSE", "false" },
	{ "on", "true" },
	{ "On", "true" },
	{ "ON", "true" },
	{ "off", "false" },
	{ "Off", "false" },
	{ "OFF", "false" },
	{ "y", "\"y\"" },
	{ "n", "\"n\"" },
	{ "0", "0" },
	{ "-0", "0" },
	{ "+0", "0" },
	{ "00", "0" },
	{ "07", "7" },
	{ "017", "15" },
	{ "0_17", "15" },
	{ "08", "\"08\"" },
	{ "0o17", "\"0o17\"" },
	{ "0x1F", "31" },
	{ "0X1F", "\"0X1F\"" },
	{ "-0x1f", "-31" },
	{ "+0x_1_f", "31" },
	{ "0b101", "5" },
	{ "-0b1_0", "-2" },
	{ "0b2", "\"0b2\"" },
	{ "1_000", "1000" },
	{ "1__", "1" },
	{ "_1", "\"_1\"" },
	{ "12", "12" },
	{ "+1", "1" },
	{ "-12", "-12" },
	{ "190:20:30", "685230" },
	{ "-1:30", "-90" },
	{ "1:60", "\"1:60\"" },
	{ "1:5", "65" },
	{ "1:05", "65" },
	{ "0:30", "\"0:30\"" },
	{ "1:3:5", "3785" },
	{ "9223372036854775807", "9223372036854775807" },
	{ "9223372036854775808", "9223372036854775808" },
	{ "-9223372036854775808", "-9223372036854775808" },
	{ "-9223372036854775809", "-9223372036854775809" },
	{ "99999999999999999999999999", "99999999999999999999999999" },
	{ "+99999999999999999999999999", "99999999999999999999999999" },
	{ "1_000_000_000_000_000_000_000", "1000000000000000000000" },
	{ "0x7fffffffffffffff", "9223372036854775807" },
	{ "0x8000000000000000", "9223372036854775808" },
	{ "-0x8000000000000000", "-9223372036854775808" },
	{ "-0x8000000000000001", "-9223372036854775809" },
	{ "0xffffffffffffffffffffffffffff", "5192296858534827628530496329220095" },
	{ "0x_FFFF_FFFF_FFFF_FFFF_FFFF", "1208925819614629174706175" },
	{ "0777777777777777777777777", "4722366482869645213695" },
	{ "-0777777777777777777777777", "-4722366482869645213695" },
	{ "01_000_000_000_000_000_000_000_000", "4722366482869645213696" },
	{ "0b11111111111111111111111111111111111111111111111111111111111111111111",
	  "295147905179352825855" },
	{ "-0b1_0000000000000000000000000000000000000000000000000000000000000000",
	  "-18446744073709551616" },
	{ "100000000:00:00:00:00:00:00:00", "279936000000000000000" },
	{ "-1:00:00:00:00:00:00:00:00:00:00:00:00", "-2176782336000000000000" },
	{ "1.0", "1.0" },
	{ "1.", "1.0" },
	{ ".5", "0.5" },
	{ "-.5", "\"-.5\"" },
	{ "+.5", "\"+.5\"" },
	{ ".", "\".\"" },
	{ "1e3", "\"1e3\"" },
	{ "1E3", "\"1E3\"" },
	{ "1.0e+3", "1000.0" },
	{ "1.0e3", "\"1.0e3\"" },
	{ "1.0E-3", "0.001" },
	{ "-1.5", "-1.5" },
	{ "+1.5", "1.5" },
	{ "1_0.5_0", "10.5" },
	{ "1_000.5", "1000.5" },
	{ "1.e+2", "100.0" },
	{ ".5e+1", "5.0" },
	{ ".5E-1", "0.05" },
	{ "190:20:30.15", "685230.15" },
	{ "0:30.5", "30.5" },
	{ "-1:30.5", "-90.5" },
	{ "+1:30.5", "90.5" },
	{ "1:30.", "90.0" },
	{ "1:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00.5", "4.70184984576e+26" },
	{ "-1:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:07.25",
	  "-6.09359740010496e+33" },
	{ "1:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00.0",
	  "2.193695064037786e+37" },
	{ "3:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00.5",
	  "8.529086408978911e+44" },
	{ "1:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59.99",
	  "4.387390128075572e+37" },
	{ "1_000.", "1000.0" },
	{ "00.5", "0.5" },
	{ "0.1", "0.1" },
	{ "0.30000000000000004", "0.30000000000000004" },
	{ "1.7976931348623157e+308", "1.7976931348623157e+308" },
	{ "2.2250738585072014e-308", "2.2250738585072014e-308" },
	{ "4.9e-324", "5e-324" },
	{ "1.0e-400", "0.0" },
	{ "123456789012345678901234567890.5", "1.2345678901234568e+29" },
	{ "0.000000000000000000000000000001e+10", "1e-20" },
	{ "-0.0", "-0.0" },
	{ ".inf", "Infinity" },
	{ ".Inf", "Infinity" },
	{ ".INF", "Infinity" },
	{ "-.inf", "-Infinity" },
	{ "+.inf", "Infinity" },
	{ ".nan", "NaN" },
	{ ".NaN", "NaN" },
	{ ".NAN", "NaN" },
	{ "-.nan", "\"-.nan\"" },
	{ "inf", "\"inf\"" },
	{ "nan", "\"nan\"" },
	{ "1.0e+999", "Infinity" },
	{ "-1.0e+999", "-Infinity" },
	{ "1.0e-999", "0.0" },
	{ "1.5e+", "\"1.5e+\"" },
	{ "1.5.5", "\"1.5.5\"" },
	{ "abc", "\"abc\"" },
	{ "1x", "\"1x\"" },
	{ "0x1g", "\"0x1g\"" },
};

static void check_scalar(const char *scalar, const char *expected)
{
	char doc[4096];
	assay_value root, want;
	const assay_value *v;

	snprintf(doc, sizeof(doc), "v: %s\n", scalar);
	root = load(doc);
	v = assay_object_get(&root, "v");
	cr_assert_not_null(v, "%s", doc);
	want = json(expected);
	/* exact: same kind (int, bigint, real, ...), same value, for reals the same double */
	cr_expect(assay_value_equal(v, &want), "'%s' gave %s (kind %d), expected %s (kind %d)",
		  scalar, dump(v), v->kind, expected, want.kind);
	if (v->kind == ASSAY_V_REAL && want.kind == ASSAY_V_REAL && v->u.d == 0)
		cr_expect_eq(!!signbit(v->u.d), !!signbit(want.u.d), "'%s': sign of zero", scalar);
}

Test(yaml, plain_scalars_resolve_as_pyyaml)
{
	for (size_t i = 0; i < sizeof(resolve_cases) / sizeof(resolve_cases[0]); i++)
		check_scalar(resolve_cases[i].scalar, resolve_cases[i].expected);
	/* PyYAML has no constructor for these two: strings here */
	check_scalar("<<", "\"<<\"");
	check_scalar("=", "\"=\"");
	/* a timestamp stays a string unless asked for */
	check_scalar("2001-12-14", "\"2001-12-14\"");
	check_scalar("2001-12-14 21:59:43.10 -5", "\"2001-12-14 21:59:43.10 -5\"");
}

Test(yaml, integers_past_int64_are_exact_bigints_in_every_base)
{
	static const struct {
		const char *scalar, *digits;
	} cases[] = {
		{ "9223372036854775808", "9223372036854775808" },
		{ "-9_223_372_036_854_775_809", "-9223372036854775809" },
		{ "0x10000000000000000", "18446744073709551616" },
		{ "-0x1_0000_0000_0000_0000", "-18446744073709551616" },
		{ "0b1" "0000000000000000000000000000000000000000000000000000000000000000",
		  "18446744073709551616" },
		{ "02000000000000000000000", "18446744073709551616" },
		{ "-0_2000000000000000000000", "-18446744073709551616" },
		{ "5124095576030431:0:16", "18446744073709551616" },
		{ "-5124095576030431:00:16", "-18446744073709551616" },
		{ "1:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0", "6093597400104960000000000000000000" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char doc[256];
		assay_value root;
		const assay_value *v;

		snprintf(doc, sizeof(doc), "v: %s\n", cases[i].scalar);
		root = load(doc);
		v = assay_object_get(&root, "v");
		cr_assert_eq(v->kind, ASSAY_V_BIGINT, "'%s' is kind %d", cases[i].scalar, v->kind);
		cr_expect_eq(v->len, strlen(cases[i].digits));
		cr_expect(!memcmp(v->u.s, cases[i].digits, v->len), "'%s' gave %.*s",
			  cases[i].scalar, (int)v->len, v->u.s);
	}
	/* the edges of int64 stay ints */
	check("[0x7fffffffffffffff, -0x8000000000000000, -9223372036854775808, 0b0]",
	      "[9223372036854775807,-9223372036854775808,-9223372036854775808,0]");
	assay_value v = load("[-9223372036854775808, 9223372036854775807]");
	cr_expect_eq(v.u.items[0].kind, ASSAY_V_INT);
	cr_expect_eq(v.u.items[1].kind, ASSAY_V_INT);
}

Test(yaml, integers_past_pythons_digit_limit_are_errors)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_value v;

	/* 4300 decimal digits: fine; 4301: Python's int() refuses the text */
	assay_buf_adds(&b, "v: 1");
	for (int i = 1; i < 4300; i++)
		assay_buf_addch(&b, '0');
	v = load(b.ptr);
	cr_expect_eq(v.u.members[0].value.kind, ASSAY_V_BIGINT);
	cr_expect_eq(v.u.members[0].value.len, 4300);
	assay_buf_addch(&b, '0');
	cr_expect(strstr(load_fail(b.ptr), "1:4: invalid integer '1000"), "%s", load_fail(b.ptr));
	cr_expect(strstr(load_fail(b.ptr), "more than 4300 digits"), "%s", load_fail(b.ptr));
	/* 0x followed by 3571 f's is 4300 decimal digits; one more is past the limit */
	assay_buf_reset(&b);
	assay_buf_adds(&b, "v: 0x");
	for (int i = 0; i < 3571; i++)
		assay_buf_addch(&b, 'f');
	v = load(b.ptr);
	cr_expect_eq(v.u.members[0].value.len, 4300);
	assay_buf_addch(&b, 'f');
	cr_expect(strstr(load_fail(b.ptr), "more than 4300 digits"), "%s", load_fail(b.ptr));
	/* a megabyte of hex digits is refused quickly, not converted */
	assay_buf_reset(&b);
	assay_buf_adds(&b, "- 0x");
	for (int i = 0; i < 1000000; i++)
		assay_buf_addch(&b, '7');
	cr_expect(strstr(load_fail(b.ptr), "more than 4300 digits"));
	/* leading zeros cost nothing */
	assay_buf_reset(&b);
	assay_buf_adds(&b, "- 0x");
	for (int i = 0; i < 100000; i++)
		assay_buf_addch(&b, '0');
	assay_buf_adds(&b, "1f");
	check(b.ptr, "[31]");
	assay_buf_release(&b);
}

Test(yaml, infinities_and_nan_are_reals)
{
	assay_value v = load("[.inf, -.inf, +.INF, .NaN, !!float -inf, !!float nan, 1.0e+999]");

	cr_assert_eq(v.len, 7);
	for (uint32_t i = 0; i < v.len; i++)
		cr_expect_eq(v.u.items[i].kind, ASSAY_V_REAL, "item %u", i);
	cr_expect(isinf(v.u.items[0].u.d) && v.u.items[0].u.d > 0);
	cr_expect(isinf(v.u.items[1].u.d) && v.u.items[1].u.d < 0);
	cr_expect(isinf(v.u.items[2].u.d) && v.u.items[2].u.d > 0);
	cr_expect(isnan(v.u.items[3].u.d));
	cr_expect(isinf(v.u.items[4].u.d) && v.u.items[4].u.d < 0);
	cr_expect(isnan(v.u.items[5].u.d));
	cr_expect(isinf(v.u.items[6].u.d) && v.u.items[6].u.d > 0);
}

Test(yaml, reals_in_every_pyyaml_spelling)
{
	/* PyYAML's float pattern: '_' anywhere after the first digit, a sign, no digits on
	 * either side of the point, an exponent only with a sign and after a point */
	check("[1_000.5, +1.5, .5, 1., -1., 0_0.0_1, 1.e+2, .5e-1, 1_0.e-0_1x, 1.5E+3]",
	      "[1000.5,1.5,0.5,1.0,-1.0,0.01,100.0,0.05,\"1_0.e-0_1x\",1500.0]");
	/* sexagesimal reals: each part a float, summed with powers of 60 */
	check("[1:30.5, -1:30.5, 1_0:00.25, 190:20:30.15, 1:30., 0:0:0.5]",
	      "[90.5,-90.5,600.25,685230.15,90.0,0.5]");
	/* 60**21 rounded once from the exact integer, as Python does (repeated doubling in
	 * double precision would give 2.1936950640377853e+37) */
	check("- 1:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00.0\n",
	      "[2.193695064037786e+37]");
	/* shortest round trip, correctly rounded */
	check("[0.1, 0.30000000000000004, 2.2250738585072011e-308, 4.9e-324, 1.0e-400]",
	      "[0.1,0.30000000000000004,2.225073858507201e-308,5e-324,0.0]");
}

Test(yaml, explicit_float_tag_accepts_what_python_float_does)
{
	/* generated with PyYAML 6.0: yaml.safe_load('v: !!float ' + s)['v'] */
	check("[!!float 1e3, !!float 1E3, !!float 1_0, !!float +.5, !!float 1:30, !!float 1.,"
	      " !!float \"1.5\", !!float -Infinity]",
	      "[1000.0,1000.0,10.0,0.5,90.0,1.0,1.5,-Infinity]");
	cr_expect_str_eq(load_fail("v: !!float 1e\n"), "1:4: invalid !!float value '1e'");
	cr_expect_str_eq(load_fail("v: !!float .\n"), "1:4: invalid !!float value '.'");
}

Test(yaml, sexagesimal_real_past_the_largest_double_is_an_error)
{
	assay_buf b = ASSAY_BUF_INIT;

	/* 60**173 is a double; 60**174 is not, and Python's float * int raises OverflowError */
	assay_buf_adds(&b, "v: 1");
	for (int i = 0; i < 173; i++)
		assay_buf_adds(&b, ":00");
	assay_buf_adds(&b, ".0");
	check(b.ptr, "{\"v\":4.170290573391028e+307}");
	assay_buf_setlen(&b, b.len - 2);
	assay_buf_adds(&b, ":00.0");
	cr_expect(strstr(load_fail(b.ptr), "1:4: invalid float '1:00:00"), "%s", load_fail(b.ptr));
	cr_expect(strstr(load_fail(b.ptr), "(int too large to convert to float)"));
	/* whatever the first part: 0:00:...:00.0 fails too */
	b.ptr[3] = '0';
	cr_expect(strstr(load_fail(b.ptr), "int too large to convert to float"));
	assay_buf_release(&b);
}

Test(yaml, resolution_also_applies_in_flow_and_sequences)
{
	check("[1, 1.5, true, ~, '1', x, 0x10]", "[1,1.5,true,null,\"1\",\"x\",16]");
	check("- 017\n- 1e3\n- .5\n- +1\n- 190:20:30\n", "[15,\"1e3\",0.5,1,685230]");
	check("{a: , b: no}", "{\"a\":null,\"b\":false}");
}

Test(yaml, negative_zero_real_keeps_its_sign)
{
	assay_value v = load("-0.0");

	cr_assert_eq(v.kind, ASSAY_V_REAL);
	cr_assert(signbit(v.u.d));
}

Test(yaml, quoted_and_block_scalars_are_always_strings)
{
	check("- '123'\n- \"true\"\n- '~'\n- \"1.5\"\n- ''\n- \"\"\n- |\n  12\n- >-\n  yes\n",
	      "[\"123\",\"true\",\"~\",\"1.5\",\"\",\"\",\"12\\n\",\"yes\"]");
}

Test(yaml, integer_pyyaml_cannot_convert_is_an_error)
{
	cr_expect_str_eq(load_fail("a: 1\nb: 0b_\n"), "2:4: invalid integer '0b_'");
	cr_expect_str_eq(load_fail("- -0x__\n"), "1:3: invalid integer '-0x__'");
	/* keys are constructed too */
	cr_expect_str_eq(load_fail("0b_: 1\n"), "1:1: invalid integer '0b_'");
}

/*
 * Timestamps
 */

struct timestamp_case {
	const char *scalar;
	int kind;          /* an assay_datetime_kind, NOT_A_DATE or REFUSED */
	const char *text;  /* isoformat(); JSON of the value; the exception */
};

#define NOT_A_DATE (-1)
#define REFUSED (-2)

/*
 * Generated once with PyYAML 6.0 under Python 3.11, one scalar per line on stdin:
 *   /usr/bin/python3 -c 'import sys, json, yaml, datetime
 *   for s in sys.stdin.read().splitlines():
 *       try:
 *           v = yaml.safe_load("v: " + s + "\n")["v"]
 *           if isinstance(v, datetime.datetime):
 *               k = "ASSAY_DT_OFFSET" if v.tzinfo else "ASSAY_DT_LOCAL"; t = v.isoformat()
 *           elif isinstance(v, datetime.date): k, t = "ASSAY_DT_DATE", v.isoformat()
 *           else: k, t = "NOT_A_DATE", json.dumps(v)
 *       except Exception as e: k, t = "REFUSED", type(e).__name__
 *       print("{ %s, %s, %s }," % (json.dumps(s), k, json.dumps(t)))'
 */
static const struct timestamp_case timestamp_cases[] = {
	{ "2001-12-14", ASSAY_DT_DATE, "2001-12-14" },
	{ "2002-12-14", ASSAY_DT_DATE, "2002-12-14" },
	{ "2001-12-14t21:59:43.10-05:00", ASSAY_DT_OFFSET, "2001-12-14T21:59:43.100000-05:00" },
	{ "2001-12-14 21:59:43.10 -5", ASSAY_DT_OFFSET, "2001-12-14T21:59:43.100000-05:00" },
	{ "2001-12-15T02:59:43.1Z", ASSAY_DT_OFFSET, "2001-12-15T02:59:43.100000+00:00" },
	{ "2001-12-15 2:59:43.10", ASSAY_DT_LOCAL, "2001-12-15T02:59:43.100000" },
	{ "2001-12-14T21:59:43", ASSAY_DT_LOCAL, "2001-12-14T21:59:43" },
	{ "2001-12-14T21:59:43Z", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+00:00" },
	{ "2001-12-14T21:59:43+00:00", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+00:00" },
	{ "2001-12-14T21:59:43-00:00", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+00:00" },
	{ "2001-12-14T21:59:43 Z", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+00:00" },
	{ "2001-12-14  21:59:43", ASSAY_DT_LOCAL, "2001-12-14T21:59:43" },
	{ "2001-1-1", NOT_A_DATE, "\"2001-1-1\"" },
	{ "2001-1-1 1:00:00", ASSAY_DT_LOCAL, "2001-01-01T01:00:00" },
	{ "2001-01-1T01:00:00", ASSAY_DT_LOCAL, "2001-01-01T01:00:00" },
	{ "2001-12-14T21:59:43.", ASSAY_DT_LOCAL, "2001-12-14T21:59:43" },
	{ "2001-12-14T21:59:43.000000", ASSAY_DT_LOCAL, "2001-12-14T21:59:43" },
	{ "2001-12-14T21:59:43.0000001", ASSAY_DT_LOCAL, "2001-12-14T21:59:43" },
	{ "2001-12-14T21:59:43.1234567", ASSAY_DT_LOCAL, "2001-12-14T21:59:43.123456" },
	{ "2001-12-14T21:59:43.999999999", ASSAY_DT_LOCAL, "2001-12-14T21:59:43.999999" },
	{ "2001-12-14T21:59:43.000001", ASSAY_DT_LOCAL, "2001-12-14T21:59:43.000001" },
	{ "2001-12-14T21:59:43+5", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+05:00" },
	{ "2001-12-14T21:59:43+05", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+05:00" },
	{ "2001-12-14T21:59:43-05:30", ASSAY_DT_OFFSET, "2001-12-14T21:59:43-05:30" },
	{ "2001-12-14T21:59:43+5:99", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+06:39" },
	{ "2001-12-14T21:59:43+23:59", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+23:59" },
	{ "2001-12-14T21:59:43+24", REFUSED, "ValueError" },
	{ "2001-12-14T21:59:43+23:60", REFUSED, "ValueError" },
	{ "2001-12-14T21:59:43+123", NOT_A_DATE, "\"2001-12-14T21:59:43+123\"" },
	{ "2001-12-14T21:59:43+05:3", NOT_A_DATE, "\"2001-12-14T21:59:43+05:3\"" },
	{ "2001-12-14T21:59:43+05:300", NOT_A_DATE, "\"2001-12-14T21:59:43+05:300\"" },
	{ "2000-02-29", ASSAY_DT_DATE, "2000-02-29" },
	{ "1900-02-29", REFUSED, "ValueError" },
	{ "2001-02-29", REFUSED, "ValueError" },
	{ "2004-02-29T00:00:00", ASSAY_DT_LOCAL, "2004-02-29T00:00:00" },
	{ "2001-13-01", REFUSED, "ValueError" },
	{ "2001-00-10", REFUSED, "ValueError" },
	{ "2001-04-31", REFUSED, "ValueError" },
	{ "2001-12-00", REFUSED, "ValueError" },
	{ "0000-01-01", REFUSED, "ValueError" },
	{ "0001-01-01", ASSAY_DT_DATE, "0001-01-01" },
	{ "9999-12-31T23:59:59.999999", ASSAY_DT_LOCAL, "9999-12-31T23:59:59.999999" },
	{ "2001-12-14T24:00:00", REFUSED, "ValueError" },
	{ "2001-12-14T23:60:00", REFUSED, "ValueError" },
	{ "2001-12-14T23:59:60", REFUSED, "ValueError" },
	{ "2001-12-14T99:99:99", REFUSED, "ValueError" },
	{ "20011-12-14", NOT_A_DATE, "\"20011-12-14\"" },
	{ "2001-12-14T", NOT_A_DATE, "\"2001-12-14T\"" },
	{ "2001-12-14T1:2:3", NOT_A_DATE, "\"2001-12-14T1:2:3\"" },
	{ "2001-12-14T21:59", NOT_A_DATE, "\"2001-12-14T21:59\"" },
	{ "2001-12-14T21:59:43Z+01", NOT_A_DATE, "\"2001-12-14T21:59:43Z+01\"" },
	{ "2001-12-14 21:59:43 +01:00", ASSAY_DT_OFFSET, "2001-12-14T21:59:43+01:00" },
	{ "2001-12-14x", NOT_A_DATE, "\"2001-12-14x\"" },
	{ "2001-12-14T21:59:43.5Z", ASSAY_DT_OFFSET, "2001-12-14T21:59:43.500000+00:00" },
	{ "2001-12-14T21:59:43z", NOT_A_DATE, "\"2001-12-14T21:59:43z\"" },
	{ "1:30", NOT_A_DATE, "90" },
	{ "12:30:45", NOT_A_DATE, "45045" },
	{ "2001-12-14 ", ASSAY_DT_DATE, "2001-12-14" },
	{ "! \"2001-12-14\\t21:59:43.5\\t+01:30\"",
	  ASSAY_DT_OFFSET, "2001-12-14T21:59:43.500000+01:30" },
	{ "! \"2001-12-14 21:59:43.5 +01:30\"",
	  ASSAY_DT_OFFSET, "2001-12-14T21:59:43.500000+01:30" },
	{ "!!timestamp 2001-1-1", ASSAY_DT_DATE, "2001-01-01" },
	{ "!!timestamp \"2001-12-14\"", ASSAY_DT_DATE, "2001-12-14" },
	{ "!!timestamp 2001-12-14x", REFUSED, "AttributeError" },
	{ "!!str 2001-12-14", NOT_A_DATE, "\"2001-12-14\"" },
	{ "'2001-12-14'", NOT_A_DATE, "\"2001-12-14\"" },
	{ "!!timestamp 2001-02-30", REFUSED, "ValueError" },
};

Test(yaml, timestamps_resolve_as_pyyaml_when_asked)
{
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

	o.timestamps = true;
	o.positions = true;
	for (size_t i = 0; i < sizeof(timestamp_cases) / sizeof(timestamp_cases[0]); i++) {
		const struct timestamp_case *c = &timestamp_cases[i];
		char doc[256];

		snprintf(doc, sizeof(doc), "v: %s\n", c->scalar);
		if (c->kind == REFUSED) {
			const char *msg = load_fail_opts(doc, &o);

			cr_expect(strstr(msg, "1:4: invalid ") && strstr(msg, "timestamp"),
				  "'%s': %s", c->scalar, msg);
			continue;
		}
		assay_value root = load_opts(doc, strlen(doc), &o);
		const assay_value *v = assay_object_get(&root, "v");
		assay_pos p;

		if (c->kind == NOT_A_DATE) {
			assay_value want = json(c->text);

			cr_expect(assay_value_equal(v, &want), "'%s' gave %s, expected %s",
				  c->scalar, dump(v), c->text);
			continue;
		}
		cr_assert_eq(v->kind, ASSAY_V_DATETIME, "'%s' gave %s", c->scalar, dump(v));
		cr_expect_eq(assay_value_datetime_kind(v), (assay_datetime_kind)c->kind,
			     "'%s': sub-kind %d", c->scalar, assay_value_datetime_kind(v));
		cr_expect_eq(v->len, strlen(c->text), "'%s' gave %.*s", c->scalar, (int)v->len,
			     v->u.s);
		cr_expect(!memcmp(v->u.s, c->text, v->len), "'%s' gave %.*s, expected %s",
			  c->scalar, (int)v->len, v->u.s, c->text);
		cr_assert(assay_arena_position(A, v, &p));
		cr_expect(p.line == 1 && p.col == 4);
	}
}

Test(yaml, timestamp_errors_name_pythons_reason)
{
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

	o.timestamps = true;
	cr_expect_str_eq(load_fail_opts("a: 2001-02-29\n", &o),
			 "1:4: invalid timestamp '2001-02-29' (day is out of range for month)");
	cr_expect_str_eq(load_fail_opts("- 2001-12-14T21:59:43+24\n", &o),
			 "1:3: invalid timestamp '2001-12-14T21:59:43+24' (offset must be a "
			 "timedelta strictly between -timedelta(hours=24) and "
			 "timedelta(hours=24))");
	cr_expect_str_eq(load_fail_opts("- 0000-01-01\n", &o),
			 "1:3: invalid timestamp '0000-01-01' (year 0 is out of range)");
	cr_expect_str_eq(load_fail_opts("- !!timestamp 2001-12-14x\n", &o),
			 "1:3: invalid !!timestamp value '2001-12-14x'");
	/* keys are constructed too (and keep their text) */
	cr_expect_str_eq(load_fail_opts("2001-13-01: a\n", &o),
			 "1:1: invalid timestamp '2001-13-01' (month must be in 1..12)");
}

Test(yaml, timestamps_off_are_strings_and_keys_keep_their_text)
{
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
	const char *text;
	assay_value v;

	/* without the option even impossible dates and !!timestamp are strings, as before */
	check("[2001-02-29, !!timestamp x, 2001-12-14T21:59:43Z]",
	      "[\"2001-02-29\",\"x\",\"2001-12-14T21:59:43Z\"]");
	o.timestamps = true;
	text = "2001-12-14: &d 2002-01-01\nx: *d\n";
	v = load_opts(text, strlen(text), &o);
	cr_expect_str_eq(dump(&v), "{\"2001-12-14\":\"2002-01-01\",\"x\":\"2002-01-01\"}");
	cr_expect_eq(v.u.members[0].key.kind, ASSAY_V_STRING);
	cr_expect_eq(v.u.members[1].value.kind, ASSAY_V_DATETIME);
	cr_expect_eq(assay_value_datetime_kind(&v.u.members[1].value), ASSAY_DT_DATE);
}

/*
 * Block and quoted scalars
 */

Test(yaml, block_scalars_exact_text)
{
	check("a: |\n  x\n   y\n\n", "{\"a\":\"x\\n y\\n\"}");
	check("a: |-\n  x\n  y\n\n", "{\"a\":\"x\\ny\"}");
	check("a: |+\n  x\n  y\n\n\nb: 1", "{\"a\":\"x\\ny\\n\\n\\n\",\"b\":1}");
	check("a: >\n  x\n  y\n\n  z\n   w\n", "{\"a\":\"x y\\nz\\n w\\n\"}");
	check("a: >-\n  x\n  y\n", "{\"a\":\"x y\"}");
	check("a: |2\n   x\n  y\n", "{\"a\":\" x\\ny\\n\"}");
	check("a: |\n  last", "{\"a\":\"last\"}");
	check("a: |\nb: 1\n", "{\"a\":\"\",\"b\":1}");
	check("- |\n  null\n", "[\"null\\n\"]");
}

Test(yaml, quoted_scalar_escapes)
{
	check("a: \"\\uFEFFbom\"", "{\"a\":\"\xEF\xBB\xBF" "bom\"}");
	check("a: \"\\x41\\t\\\\ \\\"q\\\" \\U0001F600 \\u00e9\"",
	      "{\"a\":\"A\\t\\\\ \\\"q\\\" \xF0\x9F\x98\x80 \xC3\xA9\"}");
	check("a: 'it''s'", "{\"a\":\"it's\"}");
	check("a: 'no \\escape'", "{\"a\":\"no \\\\escape\"}");
	check("a: 'multi\n  line\n\n  x'", "{\"a\":\"multi line\\nx\"}");
	check("a: \"a\n  b\\\n  c\"", "{\"a\":\"a bc\"}");
	check("a: plain\n  folded\n\n  text", "{\"a\":\"plain folded\\ntext\"}");
}

Test(yaml, nul_escape_is_kept)
{
	assay_value v = load("- \"a\\0b\"\n");
	const assay_value *s = assay_array_get(&v, 0);

	cr_assert_eq(s->kind, ASSAY_V_STRING);
	cr_assert_eq(s->len, 3);
	cr_assert(!memcmp(s->u.s, "a\0b", 3));
}

/*
 * Collections
 */

Test(yaml, nested_block_collections)
{
	check("a:\n  b:\n    - 1\n    - c: d\n      e: [f]\n  g: {}\nh:\n- - x\n  - y\n-\n",
	      "{\"a\":{\"b\":[1,{\"c\":\"d\",\"e\":[\"f\"]}],\"g\":{}},"
	      "\"h\":[[\"x\",\"y\"],null]}");
}

Test(yaml, flow_collections)
{
	check("{a: [1, 2, {c: d}], e: f, g: [], h: {}}",
	      "{\"a\":[1,2,{\"c\":\"d\"}],\"e\":\"f\",\"g\":[],\"h\":{}}");
	check("[a, b, ]", "[\"a\",\"b\"]");
	check("{a, b: }", "{\"a\":null,\"b\":null}");
	check("[a: 1, b]", "[{\"a\":1},\"b\"]");
}

Test(yaml, key_order_is_kept)
{
	check("z: 1\na: 2\nm: 3\n", "{\"z\":1,\"a\":2,\"m\":3}");
}

Test(yaml, empty_inputs_are_null)
{
	assay_value v = assay_value_int(1);

	check("", "null");
	check("# only a comment\n\n", "null");
	check("---\n", "null");
	check("--- 5\n...\n", "5");
	check("%YAML 1.1\n---\na: 1\n", "{\"a\":1}");
	check("\xEF\xBB\xBF" "a: 1\n", "{\"a\":1}");
	check("a: 1\r\nb: |\r\n  x\r\n", "{\"a\":1,\"b\":\"x\\n\"}");
	cr_assert_eq(assay_yaml_parse(&v, A, NULL, 0, NULL, NULL), 0);
	cr_assert_eq(v.kind, ASSAY_V_NULL);
}

Test(yaml, big_mapping_keeps_order_and_finds_duplicates)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_value v;

	for (int i = 0; i < 20000; i++)
		assay_buf_addf(&b, "k%d: %d\n", i, i);
	v = load(b.ptr);
	cr_assert_eq(v.len, 20000);
	cr_expect_str_eq(v.u.members[12345].key.u.s, "k12345");
	cr_expect_eq(v.u.members[12345].value.u.i, 12345);
	assay_buf_adds(&b, "k777: again\n");
	cr_expect_str_eq(load_fail(b.ptr), "20001:1: duplicate key 'k777'");
	assay_buf_release(&b);
}

/*
 * Keys
 */

Test(yaml, non_string_keys_use_their_source_text)
{
	check("1: a\ntrue: b\n0x1F: c\n1.5: d\nYes: e\n",
	      "{\"1\":\"a\",\"true\":\"b\",\"0x1F\":\"c\",\"1.5\":\"d\",\"Yes\":\"e\"}");
	check("~: a\n", "{\"null\":\"a\"}");
	check("? \n: a\n", "{\"null\":\"a\"}");
	check("Null: a\n", "{\"null\":\"a\"}");
	check("'~': a\n'': b\n", "{\"~\":\"a\",\"\":\"b\"}");
	check("!!str 012: a\n", "{\"012\":\"a\"}");
	check("99999999999999999999: a\n.inf: b\n",
	      "{\"99999999999999999999\":\"a\",\".inf\":\"b\"}");
}

Test(yaml, key_with_nul_is_kept_whole)
{
	assay_value v = load("\"a\\0b\": 1\n\"a\": 2\n");

	cr_assert_eq(v.len, 2);
	cr_assert_eq(assay_object_getn(&v, "a\0b", 3)->u.i, 1);
	cr_assert_eq(assay_object_get(&v, "a")->u.i, 2);
}

Test(yaml, duplicate_keys_are_errors_at_the_second)
{
	cr_expect_str_eq(load_fail("a: 1\nb: 2\na: 3\n"), "3:1: duplicate key 'a'");
	cr_expect_str_eq(load_fail("x:\n  y: 1\n  z:\n    q: 1\n  y: 2\n"),
			 "5:3: duplicate key 'y'");
	cr_expect_str_eq(load_fail("{a: 1, 'a': 2}"), "1:8: duplicate key 'a'");
	/* both are the key "null" */
	cr_expect_str_eq(load_fail("~: 1\nnull: 2\n"), "2:1: duplicate key 'null'");
	cr_expect_str_eq(load_fail("&k a: 1\n*k : 2\n"), "2:1: duplicate key 'a'");
	cr_expect_str_eq(load_fail("\"a\\0b\": 1\n\"a\\0b\": 2\n"), "2:1: duplicate key 'a?b'");
}

Test(yaml, complex_keys_are_errors)
{
	cr_expect_str_eq(load_fail("? [a]\n: 1\n"), "1:3: mapping keys must be scalars");
	cr_expect_str_eq(load_fail("a: 1\n? {b: c}\n: 1\n"), "2:3: mapping keys must be scalars");
	cr_expect_str_eq(load_fail("a: &l [1]\n*l : 2\n"), "2:1: mapping keys must be scalars");
}

/*
 * Anchors, aliases, merge keys
 */

Test(yaml, aliases_share_the_anchored_node)
{
	assay_value v = load("a: &x [1, 2]\nb: *x\nc: &s str\nd: *s\ne: &n ~\nf: *n\n");

	cr_expect_str_eq(dump(&v), "{\"a\":[1,2],\"b\":[1,2],\"c\":\"str\",\"d\":\"str\","
			 "\"e\":null,\"f\":null}");
	/* shared, not copied: the same data */
	cr_expect_eq(v.u.members[0].value.u.items, v.u.members[1].value.u.items);
	cr_expect_eq(v.u.members[2].value.u.s, v.u.members[3].value.u.s);
}

Test(yaml, alias_keys_and_redefined_anchors)
{
	check("- &x 1\n- {*x : 2}\n", "[1,{\"1\":2}]");
	check("&k key: *k\n", "{\"key\":\"key\"}");
	check("- &a 1\n- *a\n- &a 2\n- *a\n", "[1,1,2,2]");
	check("- &n ~\n- {*n : 1}\n", "[null,{\"null\":1}]");
	check("- &b 0x10000000000000000\n- *b\n- {*b : x}\n",
	      "[18446744073709551616,18446744073709551616,{\"0x10000000000000000\":\"x\"}]");
}

Test(yaml, alias_errors)
{
	cr_expect_str_eq(load_fail("a: 1\nb: *nope\n"), "2:4: unknown alias 'nope'");
	cr_expect_str_eq(load_fail("a: &a\n  b: *a\n"), "2:6: recursive alias 'a'");
	cr_expect_str_eq(load_fail("&a [*a]\n"), "1:5: recursive alias 'a'");
}

Test(yaml, merge_keys)
{
	/* explicit keys win, merged keys come first (PyYAML's order) */
	check("base: &b {x: 1, y: 2}\nd:\n  y: 3\n  <<: *b\n  z: 4\n",
	      "{\"base\":{\"x\":1,\"y\":2},\"d\":{\"x\":1,\"y\":3,\"z\":4}}");
	/* in a list the first mapping wins */
	check("- &a {x: 1, y: 1}\n- &b {x: 2, z: 2}\n- {w: 0, <<: [*a, *b]}\n",
	      "[{\"x\":1,\"y\":1},{\"x\":2,\"z\":2},{\"x\":1,\"z\":2,\"y\":1,\"w\":0}]");
	/* of two merge keys, the later wins */
	check("- &a {x: 1}\n- &b {x: 2, q: 3}\n- <<: *a\n  <<: *b\n",
	      "[{\"x\":1},{\"x\":2,\"q\":3},{\"x\":2,\"q\":3}]");
	/* inline and nested merges */
	check("m: {<<: {a: 1, <<: {c: 5}}, b: 2}", "{\"m\":{\"c\":5,\"a\":1,\"b\":2}}");
	/* a quoted << is an ordinary key */
	check("'<<': {a: 1}", "{\"<<\":{\"a\":1}}");
	check("!!merge <<: {a: 1}", "{\"a\":1}");
	/* merging empties, and a merge that is the whole mapping */
	check("- &e {}\n- {<<: *e}\n- {<<: [], a: 1}\n- {<<: [*e, {b: 2}]}\n",
	      "[{},{},{\"a\":1},{\"b\":2}]");
}

Test(yaml, merge_of_many_keys_keeps_first_places)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_value v;

	assay_buf_adds(&b, "base: &b\n");
	for (int i = 0; i < 1000; i++)
		assay_buf_addf(&b, "  k%d: %d\n", i, i);
	assay_buf_adds(&b, "m:\n  k999: last\n  <<: *b\n  k0: first\n  new: 1\n");
	v = load(b.ptr);
	const assay_value *m = assay_object_get(&v, "m");
	cr_assert_eq(m->len, 1001);
	cr_expect_str_eq(m->u.members[0].key.u.s, "k0");
	cr_expect_str_eq(m->u.members[0].value.u.s, "first");
	cr_expect_str_eq(m->u.members[999].value.u.s, "last");
	cr_expect_str_eq(m->u.members[1000].key.u.s, "new");
	cr_expect_eq(m->u.members[500].value.u.i, 500);
	assay_buf_release(&b);
}

Test(yaml, merged_keys_are_not_duplicates_and_sources_are_untouched)
{
	check("b: &b {k: 1}\nm:\n  k: 2\n  <<: *b\n", "{\"b\":{\"k\":1},\"m\":{\"k\":2}}");
}

Test(yaml, merge_errors)
{
	cr_expect_str_eq(load_fail("a:\n  <<: 5\n"),
			 "2:7: expected a mapping or list of mappings for merging");
	cr_expect_str_eq(load_fail("a:\n  <<: [{b: 1}, 2]\n"),
			 "2:7: expected a mapping or list of mappings for merging");
	cr_expect_str_eq(load_fail("x: &x [1]\na:\n  <<: *x\n"),
			 "3:7: expected a mapping or list of mappings for merging");
}

/*
 * Tags
 */

Test(yaml, explicit_tags)
{
	check("a: !!str 123\nb: !!int '12'\nc: !!float 1\nd: !!float 1e3\ne: !!bool 'YES'\n"
	      "f: !!null ''\ng: !!binary aGVsbG8=\nh: !!str\ni: !!int 0x10\nj: !!float '.inf'\n",
	      "{\"a\":\"123\",\"b\":12,\"c\":1.0,\"d\":1000.0,\"e\":true,\"f\":null,"
	      "\"g\":\"aGVsbG8=\",\"h\":\"\",\"i\":16,\"j\":Infinity}");
	/* "!" makes PyYAML resolve even a quoted scalar; unknown tags are ignored */
	check("- ! 12\n- ! '12'\n- !foo 12\n- !foo '12'\n- !<tag:x.org,1:y> true\n",
	      "[12,12,12,\"12\",true]");
	check("a: !!binary |\n  aGVs\n  bG8=\n", "{\"a\":\"aGVs\\nbG8=\\n\"}");
	check("- !!set {a, b}\n- !!omap [a: 1]\n- !!map {a: 1}\n- !!seq [1]\n",
	      "[{\"a\":null,\"b\":null},[{\"a\":1}],{\"a\":1},[1]]");
}

Test(yaml, explicit_tag_with_invalid_content)
{
	cr_expect_str_eq(load_fail("a: 1\nb: !!int abc\n"), "2:4: invalid !!int value 'abc'");
	cr_expect_str_eq(load_fail("b: !!int 1.5\n"), "1:4: invalid !!int value '1.5'");
	cr_expect_str_eq(load_fail("b: !!float x1\n"), "1:4: invalid !!float value 'x1'");
	cr_expect_str_eq(load_fail("b: !!float 0x10\n"), "1:4: invalid !!float value '0x10'");
	cr_expect_str_eq(load_fail("b: !!bool maybe\n"), "1:4: invalid !!bool value 'maybe'");
	cr_expect_str_eq(load_fail("b: !!null foo\n"), "1:4: invalid !!null value 'foo'");
	cr_expect_str_eq(load_fail("b: !!str [1]\n"), "1:4: !!str cannot tag a sequence");
	cr_expect_str_eq(load_fail("b: !!seq {a: 1}\n"), "1:4: !!seq cannot tag a mapping");
	cr_expect_str_eq(load_fail("b: !!map x\n"), "1:4: !!map cannot tag a scalar");
}

/*
 * Errors
 */

Test(yaml, libyaml_error_positions)
{
	/* a tab where indentation is expected: at the tab */
	cr_expect_str_eq(load_fail("a: 1\n\tb: 2\n"),
			 "2:1: found a tab character that violates indentation (while scanning a "
			 "plain scalar at line 1, column 4)");
	/* an unclosed quote: at the opening quote, not at the end of the input */
	cr_expect_str_eq(load_fail("a: 1\nb: 'unclosed\nc: 2\n"),
			 "2:4: found unexpected end of stream (while scanning a quoted scalar)");
	cr_expect_str_eq(load_fail("a: \"x\\q\"\n"),
			 "1:6: found unknown escape character (while parsing a quoted scalar at "
			 "line 1, column 4)");
	/* a key indented less than its siblings */
	cr_expect_str_eq(load_fail("a:\n  b: 1\n c: 2\n"),
			 "3:2: did not find expected key (while parsing a block mapping at line 1, "
			 "column 1)");
	/* a key indented more than its sibling */
	cr_expect_str_eq(load_fail("a: 1\n  b: 2\n"),
			 "2:4: mapping values are not allowed in this context");
	cr_expect_str_eq(load_fail("a: [1, 2\nb: 3\n"),
			 "2:2: did not find expected ',' or ']' (while parsing a flow sequence at "
			 "line 1, column 4)");
	cr_expect_str_eq(load_fail("a: [1, 2\n"),
			 "1:4: did not find expected ',' or ']' (while parsing a flow sequence)");
	cr_expect_str_eq(load_fail("a: 1\nkey\nb: 2\n"),
			 "2:1: could not find expected ':' (while scanning a simple key)");
	cr_expect_str_eq(load_fail("- a\nb: c\n"),
			 "2:1: did not find expected '-' indicator (while parsing a block "
			 "collection at line 1, column 1)");
	cr_expect_str_eq(load_fail("a: @x\n"), "1:4: found character that cannot start any token "
			 "(while scanning for the next token)");
}

Test(yaml, invalid_utf8_and_control_characters)
{
	cr_expect_str_eq(load_fail("a: ok\nb: \xFF\n"), "2:4: invalid leading UTF-8 octet (0xFF)");
	cr_expect_str_eq(load_fail("a: ok\nb: caf\xC3\n"),
			 "2:7: invalid trailing UTF-8 octet (0x0A)");
	cr_expect_str_eq(load_fail("a: \xC3\xA9x\x01y\n"),
			 "1:6: control characters are not allowed (0x01)");
}

Test(yaml, a_second_document_is_an_error_unless_asked_for)
{
	cr_expect_str_eq(load_fail("a: 1\n---\nb: 2\n"), "2:1: a second document in the stream");
	cr_expect_str_eq(load_fail("--- 1\n--- 2\n"), "2:1: a second document in the stream");
	cr_expect_str_eq(load_fail("--- 1\n...\n\n\n--- [2"),
			 "5:1: a second document in the stream");
}

Test(yaml, error_inside_pending_structure_frees_everything)
{
	/* run under ASan: open frames, a pending merge, anchors and keys are all released */
	cr_expect_str_eq(load_fail("a: &x {b: 1}\nc:\n  <<: *x\n  d: [1, {e: &y [2], f: *nope}]\n"),
			 "4:25: unknown alias 'nope'");
	cr_expect_str_eq(load_fail("&r a: &x {b: 1}\nc:\n  <<: [*x, {q: 1}]\n  d: {e: [2, 3]\n"),
			 "4:6: did not find expected ',' or '}' (while parsing a flow mapping)");
}

Test(yaml, first_error_wins_and_fields_are_filled)
{
	assay_yaml_opts f = ASSAY_YAML_OPTS_INIT, g = ASSAY_YAML_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_value v;

	f.source = "f.yaml";
	g.source = "g.yaml";
	cr_assert_eq(assay_yaml_parse(&v, A, "a: *x\n", 6, &f, &err), ASSAY_EPARSE);
	cr_assert_eq(assay_yaml_parse(&v, A, "a: [\n", 5, &g, &err), ASSAY_EPARSE);
	cr_expect_str_eq(err.path, "f.yaml");
	cr_expect_eq(err.line, 1);
	cr_expect_eq(err.column, 4);
	cr_expect_str_eq(err.msg, "unknown alias 'x'");
	cr_assert_eq(assay_yaml_parse(&v, A, "a: [\n", 5, NULL, NULL), ASSAY_EPARSE);
}

/*
 * Several documents
 */

Test(yaml, multi_document_streams_are_arrays_of_documents)
{
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
	const char *text;
	assay_value v;

	o.multi_document = true;
	o.positions = true;
	v = load_opts("--- 1\n--- 2\n", 12, &o);
	cr_expect_str_eq(dump(&v), "[1,2]");
	v = load_opts("", 0, &o);
	cr_expect_eq(v.kind, ASSAY_V_ARRAY);
	cr_expect_eq(v.len, 0);
	v = load_opts("# nothing\n", 10, &o);
	cr_expect_str_eq(dump(&v), "[]");
	v = load_opts("---\n", 4, &o);
	cr_expect_str_eq(dump(&v), "[null]");
	text = "a: 1\n---\nb: [x]\n...\n--- 3\n--- ''\n";
	v = load_opts(text, strlen(text), &o);
	cr_expect_str_eq(dump(&v), "[{\"a\":1},{\"b\":[\"x\"]},3,\"\"]");

	/* each document's values have their positions; the array starts with the stream */
	assay_pos p;
	cr_assert(assay_arena_position(A, &v, &p));
	cr_expect(p.line == 1 && p.col == 1, "%u:%u", p.line, p.col);
	cr_assert(assay_arena_position(A, &v.u.items[1], &p));
	cr_expect(p.line == 3 && p.col == 1, "%u:%u", p.line, p.col);
	cr_assert(assay_arena_position(A, &v.u.items[3], &p));
	cr_expect(p.line == 6 && p.col == 5, "%u:%u", p.line, p.col);
}

Test(yaml, anchors_do_not_cross_documents)
{
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

	o.multi_document = true;
	cr_expect_str_eq(load_fail_opts("--- &a 1\n--- *a\n", &o), "2:5: unknown alias 'a'");
	/* a name may be anchored again in the next document */
	const char *again = "--- &a 1\n--- &a [2]\n";
	assay_value v = load_opts(again, strlen(again), &o);
	cr_expect_str_eq(dump(&v), "[1,[2]]");
	cr_expect_str_eq(load_fail_opts("--- &a 1\n--- &a [*a]\n", &o), "2:9: recursive alias 'a'");
	cr_expect_str_eq(load_fail_opts("--- &a 1\n--- [&a 2, *a]\n--- *a\n", &o),
			 "3:5: unknown alias 'a'");
}

/*
 * Positions
 */

static void expect_pos(const assay_value *v, unsigned line, unsigned col)
{
	assay_pos p = { 0, 0 };

	cr_assert(assay_arena_position(A, v, &p), "no position for %s", dump(v));
	cr_expect_eq(p.line, line, "line %u, expected %u (%s)", p.line, line, dump(v));
	cr_expect_eq(p.col, col, "column %u, expected %u (%s)", p.col, col, dump(v));
}

/* The key of member `key` of `obj`. */
static const assay_value *key_of(const assay_value *obj, const char *key)
{
	for (uint32_t i = 0; i < obj->len; i++)
		if (assay_value_is_str(&obj->u.members[i].key, key))
			return &obj->u.members[i].key;
	cr_assert_fail("no key %s", key);
	return NULL;
}

Test(yaml, positions_of_values)
{
	const char *text = "top:\n  nested:\n    value: 42\n    list:\n      - a\n      -   [x, "
			   "{y: z}]\n  s: |\n    text\n";
	assay_value v = load_pos(text, strlen(text));
	const assay_value *top = assay_object_get(&v, "top");
	const assay_value *nested = assay_object_get(top, "nested");
	const assay_value *list = assay_object_get(nested, "list");
	const assay_value *flow = assay_array_get(list, 1);
	assay_pos p;

	expect_pos(&v, 1, 1);
	expect_pos(top, 2, 3);
	expect_pos(nested, 3, 5);
	expect_pos(list, 5, 7);
	expect_pos(assay_array_get(list, 0), 5, 9);
	expect_pos(flow, 6, 11);
	expect_pos(assay_array_get(flow, 1), 6, 15);
	expect_pos(assay_object_get(assay_array_get(flow, 1), "y"), 6, 19);
	expect_pos(assay_object_get(top, "s"), 7, 6);
	/* numbers, booleans and null have no data, so no position: their key has one */
	cr_expect(!assay_arena_position(A, assay_object_get(nested, "value"), &p));
	expect_pos(key_of(nested, "value"), 3, 5);
}

Test(yaml, positions_of_keys)
{
	const char *text = "a: 1\n\"b\": {c: x, ~: y, 7: z}\n'': [q]\n? d\n: e\n";
	assay_value v = load_pos(text, strlen(text));
	const assay_value *b = assay_object_get(&v, "b");

	expect_pos(key_of(&v, "a"), 1, 1);
	expect_pos(key_of(&v, "b"), 2, 1);
	expect_pos(key_of(b, "c"), 2, 7);
	expect_pos(key_of(b, "null"), 2, 13);
	expect_pos(key_of(b, "7"), 2, 19);
	expect_pos(key_of(&v, ""), 3, 1);
	expect_pos(key_of(&v, "d"), 4, 3);
	expect_pos(assay_object_get(&v, "d"), 5, 3);
}

Test(yaml, positions_of_empty_strings_and_collections)
{
	const char *text = "a: []\nb: {}\nc: ''\nd: \"\"\ne: [[], {}, '']\nf: |\n";
	assay_value v = load_pos(text, strlen(text));
	const assay_value *e = assay_object_get(&v, "e");

	expect_pos(assay_object_get(&v, "a"), 1, 4);
	expect_pos(assay_object_get(&v, "b"), 2, 4);
	expect_pos(assay_object_get(&v, "c"), 3, 4);
	expect_pos(assay_object_get(&v, "d"), 4, 4);
	expect_pos(assay_array_get(e, 0), 5, 5);
	expect_pos(assay_array_get(e, 1), 5, 9);
	expect_pos(assay_array_get(e, 2), 5, 13);
	expect_pos(assay_object_get(&v, "f"), 6, 4);
	/* each has its own data, so its own position */
	cr_expect_neq(assay_object_get(&v, "a")->u.items, assay_array_get(e, 0)->u.items);
}

Test(yaml, positions_of_singletons_aliases_and_strangers)
{
	const char *text = "a: true\nb: ~\nc: &x\n  k: 1\nd: *x\n&s e: *s\n";
	assay_value v = load_pos(text, strlen(text));
	assay_value stranger = assay_value_strz(A, "k");
	assay_pos p;

	cr_assert(!assay_arena_position(A, assay_object_get(&v, "a"), &p));
	cr_assert(!assay_arena_position(A, assay_object_get(&v, "b"), &p));
	cr_assert(!assay_arena_position(A, &stranger, &p));
	cr_assert(!assay_arena_position(NULL, &v, &p));
	/* an alias has its anchor's node's position, which starts at the anchor (as in PyYAML) */
	expect_pos(assay_object_get(&v, "d"), 3, 4);
	/* a key's anchor: the value *s is the key's string, at the key */
	expect_pos(key_of(&v, "e"), 6, 1);
	expect_pos(assay_object_get(&v, "e"), 6, 1);
}

Test(yaml, positions_only_when_asked)
{
	assay_value v = load("a: [x, {}]\n");
	assay_pos p;

	cr_expect(!assay_arena_position(A, &v, &p));
	cr_expect(!assay_arena_position(A, &v.u.members[0].key, &p));
	cr_expect(!assay_arena_position(A, assay_array_get(&v.u.members[0].value, 0), &p));
}

/* Every key and every value with data of `v` has a position (iterative: any depth). */
static bool all_positioned(const assay_value *v)
{
	size_t n = 0, alloc = 64;
	const assay_value **todo = malloc(alloc * sizeof(*todo));
	bool ok = true;

	todo[n++] = v;
	while (n && ok) {
		const assay_value *c = todo[--n];
		bool obj = c->kind == ASSAY_V_OBJECT;
		assay_pos p;

		if (c->kind == ASSAY_V_NULL || c->kind == ASSAY_V_BOOL || c->kind == ASSAY_V_INT ||
		    c->kind == ASSAY_V_REAL)
			continue;
		ok = assay_arena_position(A, c, &p) && p.line >= 1 && p.col >= 1;
		if (!obj && c->kind != ASSAY_V_ARRAY)
			continue;
		if (n + 2 * c->len > alloc) {
			while (n + 2 * c->len > alloc)
				alloc *= 2;
			todo = realloc(todo, alloc * sizeof(*todo));
		}
		for (uint32_t i = 0; i < c->len; i++) {
			if (obj) {
				todo[n++] = &c->u.members[i].key;
				todo[n++] = &c->u.members[i].value;
			} else {
				todo[n++] = &c->u.items[i];
			}
		}
	}
	free(todo);
	return ok;
}

Test(yaml, positions_after_merges)
{
	const char *text = "b: &b {x: 1}\nm:\n  <<: [*b, {y: 2}]\n  z: 3\n";
	assay_value v = load_pos(text, strlen(text));
	const assay_value *m = assay_object_get(&v, "m");

	expect_pos(m, 3, 3);
	/* merged keys are the source's keys */
	expect_pos(key_of(m, "x"), 1, 8);
	expect_pos(key_of(m, "y"), 3, 13);
	expect_pos(key_of(m, "z"), 4, 3);
	cr_expect(all_positioned(&v));
}

/*
 * The jq-1.6 example
 */

static char *read_file(const char *path, size_t *len)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_fs_read(&b, path, 0, &err), 0, "cannot read %s: %s", path, err.msg);
	return assay_buf_detach(&b, len);
}

Test(yaml, sample_case_has_the_expected_structure)
{
	size_t len;
	char *text = read_file(ASSAY_FIXTURES "/yaml/jq-l0008.yaml", &len);
	assay_value v = load_pos(text, len);

	cr_expect_str_eq(dump(&v), "{\"arguments\":[\"-L\",\"{{static:modules}}\",\"-c\",\"true\"],"
			 "\"stdin\":\"null\\n\",\"expected\":{\"output\":\"true\\n\"},"
			 "\"verify\":{\"output\":{\"verifier\":\"jsonl\"}}}");
	expect_pos(assay_object_get(&v, "stdin"), 7, 8);
	expect_pos(assay_object_get(assay_object_get(assay_object_get(&v, "verify"), "output"),
				    "verifier"), 14, 15);
	free(text);
}

Test(yaml, suite_file_loads)
{
	size_t len;
	char *text = read_file(ASSAY_FIXTURES "/yaml/suite.yaml", &len);
	assay_value v = load_pos(text, len);

	cr_expect(assay_value_is_str(assay_object_get(&v, "name"), "jq-1.6"));
	cr_expect_eq(assay_object_get(assay_object_get(&v, "adapter"), "timeout")->u.i, 10);
	free(text);
}

struct paths {
	char **v;
	size_t n, alloc;
};

/* Appends the paths of the .yaml files under `dir` to `out`. */
static void find_yaml(const char *dir, struct paths *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	cr_assert_not_null(d, "cannot open %s", dir);
	while ((e = readdir(d))) {
		char path[4096];
		struct stat st;
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			find_yaml(path, out);
		} else if (n > 5 && !strcmp(e->d_name + n - 5, ".yaml")) {
			if (out->n == out->alloc) {
				out->alloc = out->alloc ? out->alloc * 2 : 64;
				out->v = realloc(out->v, out->alloc * sizeof(*out->v));
			}
			out->v[out->n++] = strdup(path);
		}
	}
	closedir(d);
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
}

Test(yaml, every_file_of_the_jq_example_loads)
{
	struct paths files = { 0 };
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

	o.positions = true;
	find_yaml(JQ_EXAMPLE, &files);
	cr_assert_geq(files.n, 300);
	for (size_t i = 0; i < files.n; i++) {
		size_t len;
		char *text = read_file(files.v[i], &len);
		assay_err err = ASSAY_ERR_INIT;
		assay_value v;
		int rc;

		o.source = files.v[i];
		rc = assay_yaml_parse(&v, A, text, len, &o, &err);
		cr_expect_eq(rc, 0, "%s:%d:%d: %s", files.v[i], err.line, err.column, err.msg);
		cr_expect(rc || all_positioned(&v), "%s: a node without a position", files.v[i]);
		free(text);
	}
	paths_free(&files);
}

Test(yaml, jq_bom_case_keeps_the_escape)
{
	check("stdin: \"\\uFEFF\\\"byte order mark\\\"\\n\"\n",
	      "{\"stdin\":\"\xEF\xBB\xBF\\\"byte order mark\\\"\\n\"}");
}

/*
 * Limits and depth
 */

Test(yaml, alias_bombs_are_refused_at_the_alias)
{
	static const char bomb[] =
		"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
		"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_value v;

	o.source = "bomb.yaml";
	cr_assert_eq(assay_yaml_parse(&v, A, bomb, sizeof(bomb) - 1, &o, &err), ASSAY_EPARSE);
	cr_assert_eq(v.kind, ASSAY_V_NULL);
	/* f expands to 1,111,111 nodes: the alias that crosses the limit is on line 6 */
	cr_assert_eq(err.line, 6, "%d:%d %s", err.line, err.column, err.msg);
	cr_assert(strstr(err.msg, "aliases expand the document past 1000000 nodes"), "%s",
		  err.msg);
	/* the same shape up to e (111,111 nodes) is fine */
	const char *f = strstr(bomb, "f: &f");
	cr_assert_eq(assay_yaml_parse(&v, A, bomb, (size_t)(f - bomb), &o, NULL), 0);
	cr_assert_eq(v.len, 5);
	/* with several documents the count is the stream's */
	o.multi_document = true;
	assay_buf b = ASSAY_BUF_INIT;
	for (int i = 0; i < 10; i++)
		assay_buf_addf(&b, "---\n%.*s", (int)(f - bomb), bomb);
	assay_err_clear(&err);
	cr_assert_eq(assay_yaml_parse(&v, A, b.ptr, b.len, &o, &err), ASSAY_EPARSE);
	cr_assert(strstr(err.msg, "aliases expand the stream past 1000000 nodes"), "%s", err.msg);
	/* the limit is on what aliases add: a big document without them is bounded by the arena */
	assay_buf_reset(&b);
	assay_buf_adds(&b, "[0");
	for (int i = 1; i < 1200000; i++)
		assay_buf_adds(&b, ",1");
	assay_buf_adds(&b, ", &x [1], *x]");
	cr_assert_eq(assay_yaml_parse(&v, A, b.ptr, b.len, NULL, NULL), 0);
	cr_expect_eq(v.len, 1200002);
	assay_buf_release(&b);
}

Test(yaml, the_arena_limit_stops_the_parse)
{
	assay_arena *small = assay_arena_new(64 * 1024);
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
	assay_buf b = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_value v;

	o.source = "big.yaml";
	for (int i = 0; i < 100000; i++)
		assay_buf_addf(&b, "- [item %d]\n", i);
	cr_expect_eq(assay_yaml_parse(&v, small, b.ptr, b.len, &o, &err), ASSAY_ETOOBIG);
	cr_expect_eq(err.code, ASSAY_ETOOBIG);
	cr_expect_str_eq(err.path, "big.yaml");
	cr_expect(strstr(err.msg, "the document needs more than"), "%s", err.msg);
	cr_expect_eq(v.kind, ASSAY_V_NULL);
	/* it stopped soon after the limit, not at the end */
	cr_expect_lt(assay_arena_used(small), 2 * 64 * 1024);
	assay_arena_free(small);

	/* one long scalar is seen at once */
	small = assay_arena_new(64 * 1024);
	assay_buf_reset(&b);
	assay_buf_adds(&b, "a: ");
	for (int i = 0; i < 100000; i++)
		assay_buf_addch(&b, 'x');
	assay_err_clear(&err);
	cr_expect_eq(assay_yaml_parse(&v, small, b.ptr, b.len, &o, &err), ASSAY_ETOOBIG);
	assay_arena_free(small);

	/* the same document fits a bigger limit */
	small = assay_arena_new(1024 * 1024);
	cr_expect_eq(assay_yaml_parse(&v, small, b.ptr, b.len, &o, NULL), 0);
	assay_arena_free(small);
	assay_buf_release(&b);
}

Test(yaml, keys_made_to_collide_cost_linear_work)
{
	/*
	 * 65,536 keys whose unkeyed FNV-1a agree in their low 32 bits (the hash the key index
	 * used): 12.5 s before util/hash.h, as every key walked past all the others. With the
	 * keyed table each look-up takes a few probes: the count is bounded, not timed.
	 */
	enum { BLOCKS = 16, N = 1 << BLOCKS };
	char pairs[BLOCKS][2][FNV_FLOOD_LEN], key[FNV_FLOOD_LEN * BLOCKS + 1];
	assay_buf b = ASSAY_BUF_INIT;
	uint64_t before;
	assay_value v;

	fnv_flood_pairs(BLOCKS, pairs);
	for (uint32_t i = 0; i < N; i++) {
		fnv_flood_key(pairs, BLOCKS, i, key);
		assay_buf_addf(&b, "%s: %u\n", key, i);
	}
	before = assay_htab_probes();
	v = load_opts(b.ptr, b.len, NULL);
	cr_assert_eq(v.kind, ASSAY_V_OBJECT);
	cr_expect_eq(v.len, N);
	cr_expect_lt(assay_htab_probes() - before, 16u * N, "%llu probes for %d keys",
		     (unsigned long long)(assay_htab_probes() - before), N);
	/* a duplicate among them is still found */
	fnv_flood_key(pairs, BLOCKS, 12345, key);
	assay_buf_addf(&b, "%s: again\n", key);
	char want[128];
	snprintf(want, sizeof(want), "65537:1: duplicate key '%.40s", key); /* quoted, cut */
	cr_expect_eq(strncmp(load_fail(b.ptr), want, strlen(want)), 0, "%s", load_fail(b.ptr));
	/* and as merged mappings (the dedup of `<<`) */
	assay_buf_reset(&b);
	assay_buf_adds(&b, "base: &b\n");
	for (uint32_t i = 0; i < N; i += 2) {
		fnv_flood_key(pairs, BLOCKS, i, key);
		assay_buf_addf(&b, "  %s: %u\n", key, i);
	}
	assay_buf_adds(&b, "top:\n  <<: *b\n");
	for (uint32_t i = 0; i < N; i += 2) {
		fnv_flood_key(pairs, BLOCKS, i, key);
		assay_buf_addf(&b, "  %s: x\n", key);
	}
	before = assay_htab_probes();
	v = load_opts(b.ptr, b.len, NULL);
	cr_assert_eq(v.kind, ASSAY_V_OBJECT);
	cr_expect_eq(assay_object_get(&v, "top")->len, N / 2);
	cr_expect_lt(assay_htab_probes() - before, 16u * 2 * N);
	assay_buf_release(&b);
}

Test(yaml, deep_flow_nesting_is_refused_past_1000_levels)
{
	/*
	 * libyaml 0.2.5 walks every open flow level for each token: 100,000 levels would take
	 * it 35 s, so flow nesting stops at 1000 (the first 1001 levels cost it a millisecond)
	 */
	size_t n = 100000;
	char *deep = malloc(2 * n + 1);
	assay_value v;

	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = '\0';
	cr_expect_str_eq(load_fail(deep),
			 "1:1001: flow collections nested deeper than 1000 levels");
	free(deep);
	deep = malloc(5 * n + 2);
	for (size_t i = 0; i < n; i++)
		memcpy(deep + 4 * i, "{a: ", 4);
	deep[4 * n] = '1';
	memset(deep + 4 * n + 1, '}', n);
	deep[5 * n + 1] = '\0';
	cr_expect_str_eq(load_fail(deep),
			 "1:4001: flow collections nested deeper than 1000 levels");
	/* 1000 levels are fine */
	memset(deep, '[', 1000);
	memset(deep + 1000, ']', 1000);
	deep[2000] = '\0';
	v = load_pos(deep, 2000);
	cr_expect_eq(assay_value_depth(&v), 1000);
	cr_expect(all_positioned(&v));
	/* inside a block structure too */
	memcpy(deep, "a:\n  - ", 7);
	memset(deep + 7, '[', 998);
	memset(deep + 7 + 998, ']', 998);
	deep[7 + 2 * 998] = '\0';
	v = load(deep);
	cr_expect_eq(assay_value_depth(&v), 1000);
	free(deep);
}

Test(yaml, deep_block_nesting_is_parsed_without_recursion)
{
	/* 100,000 nested block sequences on one line ("- - - ... x") */
	size_t n = 100000;
	assay_buf b = ASSAY_BUF_INIT;
	const assay_value *c;
	assay_value v;

	for (size_t i = 0; i < n; i++)
		assay_buf_add(&b, "- ", 2);
	assay_buf_addch(&b, 'x');
	v = load_pos(b.ptr, b.len);
	cr_expect_eq(assay_value_depth(&v), n);
	/* past ASSAY_ARENA_MAX_POSITIONS values a document is data: the first values finished
	 * (the innermost) have their positions, the rest none */
	cr_expect_not(assay_arena_position(A, &v, &(assay_pos){ 0, 0 }));
	c = &v;
	for (size_t i = 0; i < n; i++)
		c = assay_array_get(c, 0);
	cr_expect(assay_value_is_str(c, "x"));
	expect_pos(c, 1, (unsigned)(2 * n + 1));
	assay_arena_free(A);
	A = assay_arena_new(0);

	/* under the limit, every value has one */
	n = 30000;
	assay_buf_reset(&b);
	for (size_t i = 0; i < n; i++)
		assay_buf_add(&b, "- ", 2);
	assay_buf_addch(&b, 'x');
	v = load_pos(b.ptr, b.len);
	cr_expect_eq(assay_value_depth(&v), n);
	cr_expect(all_positioned(&v));
	c = &v;
	for (size_t i = 0; i < n; i++)
		c = assay_array_get(c, 0);
	expect_pos(c, 1, (unsigned)(2 * n + 1));

	/* a block mapping 3000 deep: its indentation grows with the square of the depth (4.5 MB
	 * here; 100,000 levels would need 5 GB of spaces), libyaml reads it in linear time */
	n = 3000;
	assay_buf_reset(&b);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < i; k++)
			assay_buf_addch(&b, ' ');
		assay_buf_addf(&b, "k%zu:\n", i);
	}
	for (size_t k = 0; k < n; k++)
		assay_buf_addch(&b, ' ');
	assay_buf_adds(&b, "end\n");
	v = load_pos(b.ptr, b.len);
	cr_expect_eq(assay_value_depth(&v), n);
	c = &v;
	for (size_t i = 0; i + 1 < n; i++)
		c = &c->u.members[0].value;
	expect_pos(&c->u.members[0].key, (unsigned)n, (unsigned)n);
	cr_expect_str_eq(c->u.members[0].key.u.s, "k2999");
	cr_expect(assay_value_is_str(&c->u.members[0].value, "end"));
	expect_pos(&c->u.members[0].value, (unsigned)n + 1, (unsigned)n + 1);
	assay_buf_release(&b);
}

Test(yaml, deep_nesting_counts_against_the_budget)
{
	/*
	 * Issue 18, item 7: a 60 MB `- - - ... x` (30 million levels) took assay to 6.4 GB under a
	 * 512 MiB budget, in our stacks and libyaml's, which the arena did not see. Now they are
	 * charged to it, and nesting stops at ASSAY_MAX_DEPTH as the events come.
	 */
	size_t n = 90000;
	assay_buf b = ASSAY_BUF_INIT;
	assay_arena *small = assay_arena_new(2u << 20);
	assay_err err = ASSAY_ERR_INIT;
	assay_value v;

	for (size_t i = 0; i < n; i++)
		assay_buf_add(&b, "- ", 2);
	assay_buf_addch(&b, 'x');
	/* its values take 1.4 MB: under the 2 MiB, but the stacks of 90,000 open levels are not */
	cr_expect_eq(assay_yaml_parse(&v, small, b.ptr, b.len, NULL, &err), ASSAY_ETOOBIG,
		     "%s", err.msg);
	cr_expect(strstr(err.msg, "the document needs more than"), "%s", err.msg);
	/* nothing stays charged after the parse */
	cr_expect_lt(assay_arena_used(small), 2u << 20);
	assay_arena_free(small);
	small = assay_arena_new(64u << 20);
	cr_expect_eq(assay_yaml_parse(&v, small, b.ptr, b.len, NULL, NULL), 0);
	cr_expect_eq(assay_value_depth(&v), n);
	assay_arena_free(small);

	/* a million levels (2 MB of text) stop at the depth limit, whatever the arena's limit */
	n = 1000000;
	assay_buf_reset(&b);
	for (size_t i = 0; i < n; i++)
		assay_buf_add(&b, "- ", 2);
	assay_buf_addch(&b, 'x');
	cr_expect_str_eq(load_fail(b.ptr), "1:200001: collections nested deeper than 100000 levels");
	assay_buf_release(&b);
}

/*
 * Robustness
 */

static const char seed_doc[] =
	"# seed\n"
	"name: &n demo\n"
	"base: &b {x: 1, y: [a, b], z: 'q''s'}\n"
	"list:\n"
	"  - <<: *b\n"
	"    w: \"esc \\t \\u00e9 \\x41\"\n"
	"  - ? complex\n"
	"    : 0x1F\n"
	"  - !!str 12\n"
	"  - |\n"
	"    block\n"
	"     more\n"
	"  - >-\n"
	"    folded\n"
	"    text\n"
	"  - *n\n"
	"  - [1.5, .inf, -.nan, 190:20:30, 99999999999999999999999, ~, yes, 1:30.5]\n"
	"  - [2001-12-14, 2001-12-14 21:59:43.10 -5, !!timestamp 2001-1-1, 0b1_0, 0777]\n"
	"flow: {a: [1, {b: 2}], c: d}\n"
	"---\n"
	"second: doc\n";

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

static void mutate(assay_buf *b)
{
	static const char *const tokens[] = { ":", "- ", "[", "]", "{", "}", "&a ", "*a", "<<: ",
					      "\t", "\"", "'", "|", ">", "\n", "  ", "? ", "!!int ",
					      "#", "\\u", "\xC3", "\xFF", "---\n", ",", "%", "!",
					      "!!timestamp ", "2001-02-29", ":59", "0x", ".5" };
	int edits = 1 + (int)(rnd() % 4);

	for (int e = 0; e < edits; e++) {
		size_t pos = b->len ? rnd() % (b->len + 1) : 0;
		switch (rnd() % 5) {
		case 0: /* flip a bit */
			if (pos < b->len)
				b->ptr[pos] ^= (char)(1u << (rnd() % 8));
			break;
		case 1: { /* insert a random byte */
			char c = (char)(rnd() % 256);
			assay_buf_grow(b, 1);
			memmove(b->ptr + pos + 1, b->ptr + pos, b->len - pos);
			b->ptr[pos] = c;
			assay_buf_setlen(b, b->len + 1);
			break;
		}
		case 2: { /* delete a run */
			size_t n = 1 + rnd() % 8;
			if (pos + n > b->len)
				n = b->len - pos;
			memmove(b->ptr + pos, b->ptr + pos + n, b->len - pos - n);
			assay_buf_setlen(b, b->len - n);
			break;
		}
		case 3: { /* insert a YAML token */
			const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(tokens[0]))];
			size_t n = strlen(t);
			assay_buf_grow(b, n);
			memmove(b->ptr + pos + n, b->ptr + pos, b->len - pos);
			memcpy(b->ptr + pos, t, n);
			assay_buf_setlen(b, b->len + n);
			break;
		}
		default: /* truncate */
			assay_buf_setlen(b, pos);
			break;
		}
	}
}

Test(yaml, mutated_inputs_load_or_fail_cleanly)
{
	struct paths files = { 0 };
	assay_buf *seeds = calloc(64, sizeof(*seeds));
	size_t nseeds = 0;
	int ok = 0, failed = 0;

	seeds[nseeds] = (assay_buf)ASSAY_BUF_INIT;
	assay_buf_adds(&seeds[nseeds++], seed_doc);
	seeds[nseeds] = (assay_buf)ASSAY_BUF_INIT;
	assay_buf_add(&seeds[nseeds++], seed_doc, (size_t)(strstr(seed_doc, "---") - seed_doc));
	find_yaml(JQ_EXAMPLE, &files);
	for (size_t i = 0; i < files.n && nseeds < 64; i += 7) {
		size_t len;
		char *text = read_file(files.v[i], &len);

		seeds[nseeds] = (assay_buf)ASSAY_BUF_INIT;
		assay_buf_add(&seeds[nseeds++], text, len);
		free(text);
	}
	paths_free(&files);
	rng_state = 0x9E3779B97F4A7C15ull;
	for (int i = 0; i < 2000; i++) {
		const assay_buf *seed = &seeds[rnd() % nseeds];
		assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
		assay_buf b = ASSAY_BUF_INIT;
		assay_err err = ASSAY_ERR_INIT;
		assay_value v;
		int rc;

		o.source = "fuzz.yaml";
		o.positions = true;
		o.multi_document = i % 2;
		o.timestamps = i % 3 == 0;
		assay_buf_add(&b, seed->ptr, seed->len);
		mutate(&b);
		rc = assay_yaml_parse(&v, A, b.ptr, b.len, &o, &err);
		if (rc == 0) {
			ok++;
			cr_assert(all_positioned(&v), "input %d: a node without a position", i);
		} else {
			failed++;
			cr_assert_eq(rc, ASSAY_EPARSE, "input %d: code %d", i, rc);
			cr_assert_eq(err.code, ASSAY_EPARSE);
			cr_assert_geq(err.line, 1, "input %d: %s", i, err.msg);
			cr_assert_geq(err.column, 1, "input %d: %s", i, err.msg);
			cr_assert(err.msg[0], "input %d: no message", i);
			cr_assert_str_eq(err.path, "fuzz.yaml");
			cr_assert_eq(v.kind, ASSAY_V_NULL);
		}
		assay_buf_release(&b);
	}
	/* the mutations must exercise both outcomes */
	cr_log_info("%d loaded, %d failed", ok, failed);
	cr_expect_gt(ok, 100);
	cr_expect_gt(failed, 100);
	for (size_t i = 0; i < nseeds; i++)
		assay_buf_release(&seeds[i]);
	free(seeds);
}
