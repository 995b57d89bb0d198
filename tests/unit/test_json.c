/*
 * Tests of src/lib/json: parsing (positions, bignums, JSON Lines), lossy strings, the
 * Python-shaped writer and the deepdiff-shaped structural diff with its options.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "json/json_int.h"

/*
 * Helpers
 */

static json_t *parse_ok(const char *text)
{
	json_t *v = NULL;
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_json_parse(&v, text, strlen(text), "test", &err);

	cr_assert_eq(rc, 0, "parse of %s failed: %s", text, err.msg);
	cr_assert_not_null(v);
	return v;
}

static assay_err parse_err(const char *text, size_t len)
{
	json_t *v = (json_t *)1;
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_json_parse(&v, text, len, "output", &err);

	cr_assert_eq(rc, ASSAY_EPARSE, "parse of %s did not fail", text);
	cr_assert_null(v);
	cr_assert_eq(err.code, ASSAY_EPARSE);
	cr_assert_str_eq(err.path, "output");
	return err;
}

/* assay_json_dump into a malloc'd string */
static char *dumps(const json_t *v, int flags)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_json_dump(&b, v, flags);
	return assay_buf_detach(&b, NULL);
}

static void check_dump(const char *text, int flags, const char *want)
{
	json_t *v = parse_ok(text);
	char *got = dumps(v, flags);

	cr_expect_str_eq(got, want, "dump of %s", text);
	free(got);
	json_decref(v);
}

static void check_real(double d, const char *want)
{
	json_t *v = json_real(d);
	char *got = dumps(v, 0);

	cr_expect_str_eq(got, want, "real %.17g", d);
	free(got);
	json_decref(v);
}

/* The diff of two JSON texts under options given as JSON text (or NULL), dumped. */
static char *diff_of(const char *e, const char *a, const char *options)
{
	assay_json_diff_opts o = ASSAY_JSON_DIFF_OPTS_INIT;
	json_t *ev = parse_ok(e), *av = parse_ok(a), *ov = NULL, *d;
	char *out;

	if (options) {
		assay_err err = ASSAY_ERR_INIT;

		ov = parse_ok(options);
		cr_assert_eq(assay_json_diff_opts_parse(&o, ov, &err), 0, "options: %s", err.msg);
	}
	d = assay_json_diff(ev, av, &o);
	cr_assert_not_null(d);
	out = dumps(d, 0);
	json_decref(d);
	json_decref(ev);
	json_decref(av);
	json_decref(ov);
	assay_json_diff_opts_release(&o);
	return out;
}

static void check_diff(const char *e, const char *a, const char *options, const char *want)
{
	char *got = diff_of(e, a, options);

	cr_expect_str_eq(got, want, "diff of %s and %s (%s)", e, a, options ? options : "defaults");
	free(got);
}

/*
 * Parsing
 */

Test(json, parse_reads_values_of_every_type)
{
	json_t *v = parse_ok(" {\"a\": [1, 2.5, \"x\", true, false, null], \"b\": {}} \n");

	cr_assert(json_is_object(v));
	json_t *a = json_object_get(v, "a");
	cr_assert_eq(json_array_size(a), 6);
	cr_assert_eq(json_integer_value(json_array_get(a, 0)), 1);
	cr_assert_float_eq(json_real_value(json_array_get(a, 1)), 2.5, 1e-12);
	cr_assert_str_eq(json_string_value(json_array_get(a, 2)), "x");
	cr_assert(json_is_true(json_array_get(a, 3)));
	cr_assert(json_is_false(json_array_get(a, 4)));
	cr_assert(json_is_null(json_array_get(a, 5)));
	cr_assert_eq(json_object_size(json_object_get(v, "b")), 0);
	json_decref(v);
}

Test(json, parse_accepts_scalars_at_top_level)
{
	json_t *v = parse_ok("42");

	cr_assert_eq(json_integer_value(v), 42);
	json_decref(v);
	v = parse_ok("  \"s\"\r\n");
	cr_assert_str_eq(json_string_value(v), "s");
	json_decref(v);
}

Test(json, parse_error_has_line_column_and_message)
{
	assay_err err = parse_err("[1, 2", 5);
	char buf[600];

	cr_expect_eq(err.line, 1);
	cr_expect_eq(err.column, 5);
	cr_expect_str_eq(err.msg, "']' expected near end of file");
	cr_expect_str_eq(assay_err_format(&err, buf, sizeof(buf)),
			 "output:1:5: ']' expected near end of file");

	err = parse_err("[1,\n 2,\n tru]", 13);
	cr_expect_eq(err.line, 3);
	cr_expect_eq(err.column, 4);
	cr_expect_str_eq(err.msg, "invalid token near 'tru'");
}

Test(json, parse_rejects_trailing_garbage_and_empty_input)
{
	assay_err err = parse_err("{\"a\":1} x", 9);

	cr_expect_eq(err.line, 1);
	cr_expect_eq(err.column, 9);
	cr_expect_str_eq(err.msg, "end of file expected near 'x'");
	err = parse_err("", 0);
	cr_expect_str_eq(err.msg, "unexpected token near end of file");
	err = parse_err("[1] [2]", 7);
	cr_expect_eq(err.column, 5);
}

Test(json, parse_keeps_nul_in_strings)
{
	json_t *v = parse_ok("[\"a\\u0000b\"]");
	json_t *s = json_array_get(v, 0);

	cr_assert_eq(json_string_length(s), 3);
	cr_assert_eq(memcmp(json_string_value(s), "a\0b", 3), 0);
	cr_assert_not(assay_json_is_bignum(s));
	json_decref(v);
}

Test(json, parse_keeps_big_integers_exactly)
{
	json_t *v = parse_ok("123456789012345678901234567890");

	cr_assert(assay_json_is_bignum(v));
	cr_assert(assay_json_is_number(v));
	cr_assert_str_eq(assay_json_bignum_literal(v), "123456789012345678901234567890");
	json_decref(v);
	v = parse_ok("-123456789012345678901234567890");
	cr_assert_str_eq(assay_json_bignum_literal(v), "-123456789012345678901234567890");
	json_decref(v);
}

Test(json, parse_keeps_reals_past_dbl_max)
{
	json_t *v = parse_ok("[1e400, -1E+999, 1.8e308, 1.7976931348623157e308]");

	cr_assert_str_eq(assay_json_bignum_literal(json_array_get(v, 0)), "1e400");
	cr_assert_str_eq(assay_json_bignum_literal(json_array_get(v, 1)), "-1E+999");
	cr_assert_str_eq(assay_json_bignum_literal(json_array_get(v, 2)), "1.8e308");
	cr_assert(json_is_real(json_array_get(v, 3)));
	json_decref(v);
}

Test(json, parse_uses_plain_numbers_up_to_int64)
{
	json_t *v = parse_ok("[9223372036854775807, -9223372036854775808, 9223372036854775808]");

	cr_assert(json_is_integer(json_array_get(v, 0)));
	cr_assert_eq(json_integer_value(json_array_get(v, 1)), INT64_MIN);
	cr_assert_str_eq(assay_json_bignum_literal(json_array_get(v, 2)), "9223372036854775808");
	json_decref(v);
}

Test(json, parse_bignums_inside_structures_and_around_strings)
{
	/* the scanner must skip strings (with escaped quotes) that look like big numbers */
	json_t *v = parse_ok("{\"s\": \"\\\"123456789012345678901234567890\", "
			     "\"n\": [1, 123456789012345678901234567890, 2.5], \"k\": 7}");
	json_t *n = json_object_get(v, "n");

	cr_assert_str_eq(json_string_value(json_object_get(v, "s")),
			 "\"123456789012345678901234567890");
	cr_assert_not(assay_json_is_bignum(json_object_get(v, "s")));
	cr_assert_eq(json_integer_value(json_array_get(n, 0)), 1);
	cr_assert_str_eq(assay_json_bignum_literal(json_array_get(n, 1)),
			 "123456789012345678901234567890");
	cr_assert_float_eq(json_real_value(json_array_get(n, 2)), 2.5, 1e-12);
	cr_assert_eq(json_integer_value(json_object_get(v, "k")), 7);
	json_decref(v);
}

Test(json, parse_error_after_a_bignum_points_into_the_original_text)
{
	const char *big = "[123456789012345678901234567890, tru]";
	const char *same = "[\"xxxxxxxxxxxxxxxxxxxxxxxxxxxx\", tru]"; /* same length */
	assay_err e1 = parse_err(big, strlen(big)), e2 = parse_err(same, strlen(same));

	cr_expect_eq(e1.line, e2.line);
	cr_expect_eq(e1.column, e2.column);
	cr_expect_eq(e1.column, 36);
	cr_expect_str_eq(e1.msg, "invalid token near 'tru'");
}

Test(json, parse_refuses_a_bignum_object_key)
{
	assay_err err = parse_err("{123456789012345678901234567890: 1}", 35);

	cr_expect_eq(err.column, 31);
	cr_expect_str_eq(err.msg, "too big integer");
}

Test(json, bignum_constructor_round_trips)
{
	json_t *v = assay_json_bignum("-1e999");

	cr_assert(assay_json_is_bignum(v));
	cr_assert_str_eq(assay_json_bignum_literal(v), "-1e999");
	json_decref(v);
	v = json_string("plain");
	cr_assert_null(assay_json_bignum_literal(v));
	json_decref(v);
}

/*
 * JSON Lines
 */

Test(json, lines_skip_blank_lines_and_crlf)
{
	const char *t = "{\"a\":1}\n\n  \t\n[2]\r\n\r\n3";
	json_t *v = NULL;

	cr_assert_eq(assay_json_parse_lines(&v, t, strlen(t), false, "out", NULL), 0);
	cr_assert_eq(json_array_size(v), 3);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(v, 0), "a")), 1);
	cr_assert(json_is_array(json_array_get(v, 1)));
	cr_assert_eq(json_integer_value(json_array_get(v, 2)), 3);
	json_decref(v);
}

Test(json, lines_of_empty_text_are_an_empty_list)
{
	json_t *v = NULL;

	cr_assert_eq(assay_json_parse_lines(&v, "", 0, false, "out", NULL), 0);
	cr_assert(json_is_array(v));
	cr_assert_eq(json_array_size(v), 0);
	json_decref(v);
}

Test(json, lines_error_names_the_text_line)
{
	const char *t = "1\n\n2\n{bad\n4\n";
	json_t *v = (json_t *)1;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_json_parse_lines(&v, t, strlen(t), false, "out.jsonl", &err),
		     ASSAY_EPARSE);
	cr_assert_null(v);
	cr_expect_eq(err.line, 4);
	cr_expect_eq(err.column, 4);
	cr_expect_str_eq(err.path, "out.jsonl");
	cr_expect_str_eq(err.msg, "string or '}' expected near 'bad'");
}

Test(json, lines_skip_invalid_drops_bad_lines)
{
	const char *t = "1\nnope\n{\"b\": 123456789012345678901234567890}\n[1,\n";
	json_t *v = NULL;

	cr_assert_eq(assay_json_parse_lines(&v, t, strlen(t), true, "out", NULL), 0);
	cr_assert_eq(json_array_size(v), 2);
	cr_assert_eq(json_integer_value(json_array_get(v, 0)), 1);
	cr_assert(assay_json_is_bignum(json_object_get(json_array_get(v, 1), "b")));
	json_decref(v);
}

/*
 * Lossy strings
 */

static void check_lossy(const char *in, size_t len, const char *want, size_t want_len)
{
	json_t *v = assay_json_string_lossy(in, len);

	cr_assert_not_null(v);
	cr_expect_eq(json_string_length(v), want_len, "length for %zu input bytes", len);
	cr_expect_eq(memcmp(json_string_value(v), want, want_len), 0);
	json_decref(v);
}

#define FFFD "\xef\xbf\xbd"

Test(json, lossy_keeps_valid_utf8_and_nul)
{
	check_lossy("h\xc3\xa9llo \xf0\x9f\x98\x80", 11, "h\xc3\xa9llo \xf0\x9f\x98\x80", 11);
	check_lossy("a\0b", 3, "a\0b", 3);
	check_lossy("", 0, "", 0);
}

Test(json, lossy_replaces_bad_bytes)
{
	check_lossy("a\xff" "b", 3, "a" FFFD "b", 5);
	check_lossy("\x80\x80", 2, FFFD FFFD, 6);
	/* overlong, surrogate, past U+10FFFF: byte by byte */
	check_lossy("\xc0\xaf", 2, FFFD FFFD, 6);
	check_lossy("\xed\xa0\x80", 3, FFFD FFFD FFFD, 9);
	check_lossy("\xf4\x90\x80\x80", 4, FFFD FFFD FFFD FFFD, 12);
	/* a truncated sequence is one replacement, as Python's errors="replace" */
	check_lossy("\xe2\x82" "a", 3, FFFD "a", 4);
	check_lossy("x\xe2\x82", 3, "x" FFFD, 4);
}

/*
 * Dump
 */

Test(json, dump_is_python_compact)
{
	check_dump("{\"a\":1,\"b\":[1,2],\"c\":{},\"d\":[]}", 0,
		   "{\"a\": 1, \"b\": [1, 2], \"c\": {}, \"d\": []}");
	check_dump("[true,false,null,-5,9223372036854775807]", 0,
		   "[true, false, null, -5, 9223372036854775807]");
}

Test(json, dump_pretty_indents_by_two)
{
	check_dump("{\"a\":1,\"b\":[1,{}],\"c\":[]}", ASSAY_JSON_PRETTY,
		   "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    {}\n  ],\n  \"c\": []\n}");
}

Test(json, dump_sorts_keys_on_request)
{
	check_dump("{\"b\":1,\"a\":{\"z\":1,\"y\":2},\"B\":0}", ASSAY_JSON_SORT_KEYS,
		   "{\"B\": 0, \"a\": {\"y\": 2, \"z\": 1}, \"b\": 1}");
	check_dump("{\"b\":1,\"a\":2}", 0, "{\"b\": 1, \"a\": 2}");
}

Test(json, dump_reals_as_python_repr)
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
	check_real(1.5e-5, "1.5e-05");
	check_real(1e-7, "1e-07");
	check_real(0.0001, "0.0001");
	check_real(1e22, "1e+22");
	check_real(123456.789, "123456.789");
	check_real(1.7976931348623157e308, "1.7976931348623157e+308");
	check_real(5e-324, "5e-324");
	check_real(-1.25e100, "-1.25e+100");
	check_real(1.0 / 3.0, "0.3333333333333333");
}

Test(json, dump_escapes_strings_as_python)
{
	json_t *v = json_stringn("a\"b\\c\n\t\r\b\f\x01\x1f\x7f \xc3\xa9\0z", 18);
	char *got = dumps(v, 0);

	cr_expect_str_eq(got, "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\x7f \xc3\xa9\\u0000z\"");
	free(got);
	json_decref(v);
}

Test(json, dump_writes_bignums_bare)
{
	check_dump("{\"n\": [123456789012345678901234567890, -1E+999]}", 0,
		   "{\"n\": [123456789012345678901234567890, -1E+999]}");
}

/*
 * Diff: deepdiff's categories
 */

Test(json, diff_of_equal_values_is_empty)
{
	check_diff("{\"a\": [1, {\"b\": null}], \"c\": \"x\"}",
		   "{\"c\": \"x\", \"a\": [1, {\"b\": null}]}",
		   NULL, "{}");
}

Test(json, diff_values_changed)
{
	check_diff("{\"a\": 1}", "{\"a\": 2}", NULL,
		   "{\"values_changed\": {\"root['a']\": {\"new_value\": 2, \"old_value\": 1}}}");
	check_diff("\"x\"", "\"y\"", NULL,
		   "{\"values_changed\": {\"root\": {\"new_value\": \"y\", \"old_value\": \"x\"}}}");
	check_diff("[true]", "[false]", NULL,
		   "{\"values_changed\": {\"root[0]\": {\"new_value\": false, \"old_value\": true}}}");
}

Test(json, diff_type_changes_use_python_names)
{
	check_diff("{\"a\": 1}", "{\"a\": \"1\"}", NULL,
		   "{\"type_changes\": {\"root['a']\": {\"old_type\": \"int\", \"new_type\": \"str\", "
		   "\"old_value\": 1, \"new_value\": \"1\"}}}");
	check_diff("true", "1", NULL,
		   "{\"type_changes\": {\"root\": {\"old_type\": \"bool\", \"new_type\": \"int\", "
		   "\"old_value\": true, \"new_value\": 1}}}");
	check_diff("null", "{}", NULL,
		   "{\"type_changes\": {\"root\": {\"old_type\": \"NoneType\", \"new_type\": \"dict\", "
		   "\"old_value\": null, \"new_value\": {}}}}");
	check_diff("[1.5]", "[[]]", NULL,
		   "{\"type_changes\": {\"root[0]\": {\"old_type\": \"float\", \"new_type\": \"list\", "
		   "\"old_value\": 1.5, \"new_value\": []}}}");
}

Test(json, diff_dictionary_items_added_and_removed)
{
	check_diff("{\"a\": 1, \"b\": 2, \"e\": 5}", "{\"d\": 4, \"a\": 1, \"c\": 3}", NULL,
		   "{\"dictionary_item_added\": [\"root['d']\", \"root['c']\"], "
		   "\"dictionary_item_removed\": [\"root['b']\", \"root['e']\"]}");
}

Test(json, diff_categories_come_in_deepdiff_order)
{
	check_diff("{\"a\": 1, \"b\": \"x\", \"c\": [1], \"e\": [1, 2]}",
		   "{\"a\": \"1\", \"b\": \"y\", \"c\": [1, 2], \"d\": 0, \"e\": [1]}", NULL,
		   "{\"type_changes\": {\"root['a']\": {\"old_type\": \"int\", \"new_type\": \"str\", "
		   "\"old_value\": 1, \"new_value\": \"1\"}}, "
		   "\"dictionary_item_added\": [\"root['d']\"], "
		   "\"values_changed\": {\"root['b']\": {\"new_value\": \"y\", \"old_value\": \"x\"}}, "
		   "\"iterable_item_added\": {\"root['c'][1]\": 2}, "
		   "\"iterable_item_removed\": {\"root['e'][1]\": 2}}");
}

Test(json, diff_paths_nest_keys_and_indices)
{
	check_diff("{\"a\": {\"b\": [1, {\"c\": \"x\"}]}}", "{\"a\": {\"b\": [1, {\"c\": \"y\"}]}}", NULL,
		   "{\"values_changed\": {\"root['a']['b'][1]['c']\": "
		   "{\"new_value\": \"y\", \"old_value\": \"x\"}}}");
}

Test(json, diff_paths_quote_keys_as_deepdiff)
{
	check_diff("{\"it's\": 1, \"say \\\"hi\\\"\": 1, \"both'\\\"\": 1}",
		   "{\"it's\": 2, \"say \\\"hi\\\"\": 2, \"both'\\\"\": 2}", NULL,
		   "{\"values_changed\": {"
		   "\"root[\\\"it's\\\"]\": {\"new_value\": 2, \"old_value\": 1}, "
		   "\"root['say \\\"hi\\\"']\": {\"new_value\": 2, \"old_value\": 1}, "
		   "\"root[\\\"both'\\\"\\\"]\": {\"new_value\": 2, \"old_value\": 1}}}");
}

Test(json, diff_iterable_items_added_and_removed_at_the_end)
{
	check_diff("[1, 2]", "[1, 2, 3]", NULL, "{\"iterable_item_added\": {\"root[2]\": 3}}");
	check_diff("[1, 2, 3]", "[1]", NULL,
		   "{\"iterable_item_removed\": {\"root[1]\": 2, \"root[2]\": 3}}");
	check_diff("[{\"a\": 1}]", "[{\"a\": 1}, {\"b\": 2}]", NULL,
		   "{\"iterable_item_added\": {\"root[1]\": {\"b\": 2}}}");
}

Test(json, diff_aligns_scalar_lists_like_difflib)
{
	/* one deletion in the middle is one report, not three changed values */
	check_diff("[1, 2, 3, 4]", "[1, 3, 4]", NULL, "{\"iterable_item_removed\": {\"root[1]\": 2}}");
	check_diff("[\"a\", \"b\", \"c\"]", "[\"a\", \"x\", \"b\", \"c\"]", NULL,
		   "{\"iterable_item_added\": {\"root[1]\": \"x\"}}");
	/* alignment says 2 (delete + insert), index by index says 2: ties go index by index */
	check_diff("[1, 2, 3]", "[1, 3, 4]", NULL,
		   "{\"values_changed\": {\"root[1]\": {\"new_value\": 3, \"old_value\": 2}, "
		   "\"root[2]\": {\"new_value\": 4, \"old_value\": 3}}}");
}

Test(json, diff_compares_lists_of_containers_index_by_index)
{
	check_diff("[{\"a\": 1}, {\"a\": 2}]", "[{\"a\": 2}]", NULL,
		   "{\"values_changed\": {\"root[0]['a']\": {\"new_value\": 2, \"old_value\": 1}}, "
		   "\"iterable_item_removed\": {\"root[1]\": {\"a\": 2}}}");
}

/*
 * Diff: numbers
 */

Test(json, diff_int_equals_float_by_value)
{
	check_diff("{\"a\": 1, \"b\": [2.0]}", "{\"a\": 1.0, \"b\": [2]}", NULL, "{}");
	check_diff("1", "1.5", NULL,
		   "{\"values_changed\": {\"root\": {\"new_value\": 1.5, \"old_value\": 1}}}");
}

Test(json, diff_abs_tol)
{
	check_diff("1.0", "1.0000001", NULL, "{}");
	check_diff("0.3", "0.30000000000000004", NULL, "{}");
	check_diff("1.0", "1.001", NULL,
		   "{\"values_changed\": {\"root\": {\"new_value\": 1.001, \"old_value\": 1.0}}}");
	check_diff("1.0", "1.001", "{\"abs_tol\": 0.01}", "{}");
	check_diff("1.0", "1.0000001", "{\"abs_tol\": 0}",
		   "{\"values_changed\": {\"root\": {\"new_value\": 1.0000001, \"old_value\": 1.0}}}");
}

Test(json, diff_rel_tol)
{
	check_diff("1000.0", "1001.0", "{\"rel_tol\": 0.01}", "{}");
	check_diff("1000.0", "1001.0", "{\"rel_tol\": 0.0001}",
		   "{\"values_changed\": {\"root\": {\"new_value\": 1001.0, \"old_value\": 1000.0}}}");
}

Test(json, diff_integers_are_exact_with_default_tolerances)
{
	check_diff("9007199254740993", "9007199254740992", NULL,
		   "{\"values_changed\": {\"root\": {\"new_value\": 9007199254740992, "
		   "\"old_value\": 9007199254740993}}}");
	check_diff("100", "101", "{\"rel_tol\": 0.1}", "{}");
}

Test(json, diff_bignums_by_value)
{
	check_diff("[123456789012345678901234567890]", "[123456789012345678901234567890]", NULL,
		   "{}");
	check_diff("123456789012345678901234567890", "123456789012345678901234567891", NULL,
		   "{\"values_changed\": {\"root\": {\"new_value\": 123456789012345678901234567891, "
		   "\"old_value\": 123456789012345678901234567890}}}");
	check_diff("-123456789012345678901234567890", "123456789012345678901234567890", NULL,
		   "{\"values_changed\": {\"root\": {\"new_value\": 123456789012345678901234567890, "
		   "\"old_value\": -123456789012345678901234567890}}}");
	/* against a float: by value, with the tolerances */
	check_diff("123456789012345678901234567890", "1.2345678901234568e29", "{\"rel_tol\": 1e-9}",
		   "{}");
	check_diff("1e400", "1e400", NULL, "{}");
	check_diff("1e400", "2e400", NULL,
		   "{\"values_changed\": {\"root\": {\"new_value\": 2e400, \"old_value\": 1e400}}}");
	check_diff("1e400", "\"1e400\"", NULL,
		   "{\"type_changes\": {\"root\": {\"old_type\": \"float\", \"new_type\": \"str\", "
		   "\"old_value\": 1e400, \"new_value\": \"1e400\"}}}");
	check_diff("123456789012345678901234567890", "null", NULL,
		   "{\"type_changes\": {\"root\": {\"old_type\": \"int\", \"new_type\": \"NoneType\", "
		   "\"old_value\": 123456789012345678901234567890, \"new_value\": null}}}");
}

Test(json, diff_small_bignum_equals_integer)
{
	json_t *b = assay_json_bignum("-0042"), *i = json_integer(-42), *d;

	d = assay_json_diff(b, i, NULL);
	cr_expect_eq(json_object_size(d), 0);
	json_decref(d);
	json_decref(b);
	json_decref(i);
}

/*
 * Diff: options
 */

Test(json, diff_ignore_order_matches_multisets)
{
	check_diff("[1, 2, 3]", "[3, 1, 2]", "{\"ignore_order\": true}", "{}");
	check_diff("[1, 1, 2]", "[1, 2, 2]", "{\"ignore_order\": true}",
		   "{\"iterable_item_added\": {\"root[2]\": 2}, "
		   "\"iterable_item_removed\": {\"root[1]\": 1}}");
	check_diff("[1, 1]", "[1]", "{\"ignore_order\": true}",
		   "{\"iterable_item_removed\": {\"root[1]\": 1}}");
	/* removed and added at the same path become one changed value, as deepdiff */
	check_diff("[1, 2, 3]", "[1, 2, 4]", "{\"ignore_order\": true}",
		   "{\"values_changed\": {\"root[2]\": {\"new_value\": 4, \"old_value\": 3}}}");
}

Test(json, diff_ignore_order_uses_tolerances_and_nests)
{
	check_diff("[1.0, 2.0]", "[2.0000001, 0.9999999]", "{\"ignore_order\": true}", "{}");
	check_diff("[{\"id\": 1, \"v\": [1, 2]}, {\"id\": 2, \"v\": [3]}]",
		   "[{\"id\": 2, \"v\": [3]}, {\"v\": [2, 1], \"id\": 1}]", "{\"ignore_order\": true}",
		   "{}");
}

Test(json, diff_ignore_order_pairs_similar_containers)
{
	check_diff("[{\"id\": 1, \"name\": \"a\"}, {\"id\": 2, \"name\": \"b\"}]",
		   "[{\"id\": 2, \"name\": \"b\"}, {\"id\": 1, \"name\": \"x\"}]",
		   "{\"ignore_order\": true}",
		   "{\"values_changed\": {\"root[0]['name']\": {\"new_value\": \"x\", "
		   "\"old_value\": \"a\"}}}");
	/* the closest candidate is chosen, not the first */
	check_diff("[{\"id\": 1, \"a\": 1, \"b\": 1}]",
		   "[{\"id\": 9, \"a\": 9, \"b\": 9}, {\"id\": 1, \"a\": 1, \"b\": 2}]",
		   "{\"ignore_order\": true}",
		   "{\"values_changed\": {\"root[0]['b']\": {\"new_value\": 2, \"old_value\": 1}}, "
		   "\"iterable_item_added\": {\"root[0]\": {\"id\": 9, \"a\": 9, \"b\": 9}}}");
}

Test(json, diff_ignore_order_is_fast_on_big_lists)
{
	json_t *e = json_array(), *a = json_array(), *d;
	assay_json_diff_opts o = ASSAY_JSON_DIFF_OPTS_INIT;

	o.ignore_order = true;
	for (int i = 0; i < 20000; i++) {
		json_array_append_new(e, json_integer(i % 7));
		json_array_append_new(a, json_integer((19999 - i) % 7));
	}
	d = assay_json_diff(e, a, &o);
	cr_expect_eq(json_object_size(d), 0);
	json_decref(d);
	json_array_set_new(a, 5, json_integer(100));
	d = assay_json_diff(e, a, &o);
	cr_expect_eq(json_object_size(json_object_get(d, "values_changed")) +
			     json_object_size(json_object_get(d, "iterable_item_added")),
		     1);
	json_decref(d);
	json_decref(e);
	json_decref(a);
}

Test(json, diff_ordered_lists_of_many_duplicates_stay_fast)
{
	json_t *e = json_array(), *a = json_array(), *d;
	char *got;

	for (int i = 0; i < 20000; i++) {
		json_array_append_new(e, json_integer(0));
		json_array_append_new(a, json_integer(i == 19999));
	}
	d = assay_json_diff(e, a, NULL);
	got = dumps(d, 0);
	cr_expect_str_eq(got,
			 "{\"values_changed\": {\"root[19999]\": {\"new_value\": 1, \"old_value\": 0}}}");
	free(got);
	json_decref(d);
	json_decref(e);
	json_decref(a);
}

Test(json, diff_ignore_extra_keys)
{
	check_diff("{\"a\": 1}", "{\"a\": 1, \"b\": 2}", "{\"ignore_extra_keys\": true}", "{}");
	check_diff("{\"a\": {\"x\": 1}, \"c\": 3}", "{\"a\": {\"x\": 1, \"y\": 2}}",
		   "{\"ignore_extra_keys\": true}", "{\"dictionary_item_removed\": [\"root['c']\"]}");
}

Test(json, diff_exclude_paths)
{
	check_diff("{\"a\": 1, \"t\": \"x\", \"n\": {\"t\": 1}}",
		   "{\"a\": 1, \"t\": \"y\", \"n\": {\"t\": 2}}",
		   "{\"exclude_paths\": [\"root['t']\"]}",
		   "{\"values_changed\": {\"root['n']['t']\": {\"new_value\": 2, \"old_value\": 1}}}");
	/* a bare key means root['key'], as deepdiff */
	check_diff("{\"a\": 1, \"t\": \"x\"}", "{\"a\": 1, \"t\": \"y\"}", "{\"exclude_paths\": \"t\"}",
		   "{}");
	check_diff("{\"a\": 1, \"t\": \"x\"}", "{\"a\": 1}", "{\"exclude_paths\": [\"root['t']\"]}",
		   "{}");
	check_diff("[1, 2, 3]", "[1, 2]", "{\"exclude_paths\": [\"root[2]\"]}", "{}");
	check_diff("[[1, 2, 3]]", "[[3, 1]]", "{\"exclude_paths\": [\"root[0][1]\"], "
		   "\"ignore_order\": true}", "{}");
}

Test(json, diff_sort_by_sorts_top_level_lists)
{
	const char *opt = "{\"sort_by\": [\"id\"]}";

	check_diff("[{\"id\": 2, \"v\": \"b\"}, {\"id\": 1, \"v\": \"a\"}]",
		   "[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"b\"}]", opt, "{}");
	check_diff("[{\"id\": 2, \"v\": \"b\"}, {\"id\": 1, \"v\": \"a\"}]",
		   "[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"c\"}]", opt,
		   "{\"values_changed\": {\"root[1]['v']\": {\"new_value\": \"c\", "
		   "\"old_value\": \"b\"}}}");
	/* a missing key sorts first; ties keep their order (stable) */
	check_diff("[{\"v\": 0}, {\"id\": 1, \"n\": 1}, {\"id\": 1, \"n\": 2}]",
		   "[{\"id\": 1, \"n\": 1}, {\"id\": 1, \"n\": 2}, {\"v\": 0}]", opt, "{}");
	/* second key breaks ties */
	check_diff("[{\"a\": 1, \"b\": \"y\"}, {\"a\": 1, \"b\": \"x\"}]",
		   "[{\"b\": \"x\", \"a\": 1}, {\"b\": \"y\", \"a\": 1}]", "{\"sort_by\": [\"a\", \"b\"]}",
		   "{}");
	/* without sort_by order matters */
	check_diff("[{\"id\": 2}, {\"id\": 1}]", "[{\"id\": 1}, {\"id\": 2}]", NULL,
		   "{\"values_changed\": {\"root[0]['id']\": {\"new_value\": 1, \"old_value\": 2}, "
		   "\"root[1]['id']\": {\"new_value\": 2, \"old_value\": 1}}}");
}

Test(json, diff_regex_paths)
{
	check_diff("{\"ts\": \"\\\\d{4}-\\\\d{2}\"}", "{\"ts\": \"2024-01\"}",
		   "{\"regex_paths\": {\"root['ts']\": \"full\"}}", "{}");
	check_diff("{\"ts\": \"\\\\d{4}-\\\\d{2}\"}", "{\"ts\": \"2024-01x\"}",
		   "{\"regex_paths\": {\"root['ts']\": \"full\"}}",
		   "{\"values_changed\": {\"root['ts']\": {\"new_value\": \"2024-01x\", "
		   "\"old_value\": \"\\\\d{4}-\\\\d{2}\"}}}");
	check_diff("{\"ts\": \"\\\\d{4}-\\\\d{2}\"}", "{\"ts\": \"2024-01x\"}",
		   "{\"regex_paths\": {\"root['ts']\": \"prefix\"}}", "{}");
	check_diff("{\"ts\": \"\\\\d{4}\"}", "{\"ts\": \"at 2024!\"}",
		   "{\"regex_paths\": {\"root['ts']\": \"search\"}}", "{}");
	check_diff("{\"ts\": \"\\\\d{4}\"}", "{\"ts\": \"at 2024!\"}",
		   "{\"regex_paths\": [\"root['ts']\"]}",
		   "{\"values_changed\": {\"root['ts']\": {\"new_value\": \"at 2024!\", "
		   "\"old_value\": \"\\\\d{4}\"}}}");
	/* elsewhere the same string is compared as text */
	check_diff("{\"a\": \"a.c\"}", "{\"a\": \"abc\"}", "{\"regex_paths\": [\"root['b']\"]}",
		   "{\"values_changed\": {\"root['a']\": {\"new_value\": \"abc\", "
		   "\"old_value\": \"a.c\"}}}");
}

Test(json, diff_reports_a_regex_that_does_not_compile)
{
	assay_json_diff_opts o = ASSAY_JSON_DIFF_OPTS_INIT;
	json_t *e = parse_ok("{\"x\": \"a(\"}"), *a = parse_ok("{\"x\": \"a(\"}"), *d;
	assay_err err = ASSAY_ERR_INIT;

	o.regex_paths = parse_ok("{\"root['x']\": \"full\"}");
	d = assay_json__diff_ex(e, a, &o, &err);
	cr_expect_eq(err.code, ASSAY_EINVALID);
	cr_expect(strstr(err.msg, "root['x']") != NULL, "message: %s", err.msg);
	cr_expect(strstr(err.msg, "does not compile") != NULL, "message: %s", err.msg);
	cr_expect_eq(json_object_size(json_object_get(d, "values_changed")), 1);
	json_decref(d);
	json_decref(e);
	json_decref(a);
	assay_json_diff_opts_release(&o);
}

Test(json, diff_handles_deep_nesting)
{
	enum { DEPTH = 2000 };
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT, want = ASSAY_BUF_INIT;
	json_t *ev, *av, *d;

	for (int i = 0; i < DEPTH; i++) {
		assay_buf_addch(&e, '[');
		assay_buf_addch(&a, '[');
	}
	assay_buf_addch(&e, '1');
	assay_buf_addch(&a, '2');
	for (int i = 0; i < DEPTH; i++) {
		assay_buf_addch(&e, ']');
		assay_buf_addch(&a, ']');
	}
	ev = parse_ok(e.ptr);
	av = parse_ok(a.ptr);
	d = assay_json_diff(ev, av, NULL);
	assay_buf_adds(&want, "root");
	for (int i = 0; i < DEPTH; i++)
		assay_buf_adds(&want, "[0]");
	cr_assert(json_object_getn(json_object_get(d, "values_changed"), want.ptr, want.len));
	json_decref(d);
	d = assay_json_diff(ev, ev, NULL);
	cr_expect_eq(json_object_size(d), 0);
	json_decref(d);
	json_decref(ev);
	json_decref(av);
	assay_buf_release(&e);
	assay_buf_release(&a);
	assay_buf_release(&want);
}

Test(json, diff_opts_parse_reads_and_checks_options)
{
	assay_json_diff_opts o = ASSAY_JSON_DIFF_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	json_t *v = parse_ok("{\"verifier\": \"json\", \"weight\": 2, \"ignore_order\": true, "
			     "\"abs_tol\": 1, \"rel_tol\": 0.5, \"exclude_paths\": \"root['a']\", "
			     "\"sort_by\": \"id\", \"regex_paths\": {\"root\": \"search\"}}");

	cr_assert_eq(assay_json_diff_opts_parse(&o, v, &err), 0, "%s", err.msg);
	cr_expect(o.ignore_order);
	cr_expect_float_eq(o.abs_tol, 1.0, 1e-12);
	cr_expect_float_eq(o.rel_tol, 0.5, 1e-12);
	cr_expect_eq(json_array_size(o.exclude_paths), 1);
	cr_expect_str_eq(json_string_value(json_array_get(o.sort_by, 0)), "id");
	cr_expect_str_eq(json_string_value(json_object_get(o.regex_paths, "root")), "search");
	assay_json_diff_opts_release(&o);
	cr_expect_null(o.exclude_paths);
	json_decref(v);
}

static void check_bad_option(const char *options, const char *msg)
{
	assay_json_diff_opts o = ASSAY_JSON_DIFF_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	json_t *v = parse_ok(options);

	cr_expect_eq(assay_json_diff_opts_parse(&o, v, &err), ASSAY_EINVALID, "%s", options);
	cr_expect_str_eq(err.msg, msg);
	cr_expect_null(o.exclude_paths);
	cr_expect_null(o.sort_by);
	json_decref(v);
}

Test(json, diff_opts_parse_refuses_bad_values)
{
	check_bad_option("{\"abs_tol\": -1}", "option 'abs_tol' must be a number >= 0");
	check_bad_option("{\"rel_tol\": \"x\"}", "option 'rel_tol' must be a number >= 0");
	check_bad_option("{\"ignore_order\": 1}", "option 'ignore_order' must be true or false");
	check_bad_option("{\"exclude_paths\": [\"root\", 1]}",
			 "option 'exclude_paths' must be a list of paths like root['a'][0]");
	check_bad_option("{\"sort_by\": \"id\", \"regex_paths\": {\"root\": \"fuzzy\"}}",
			 "option 'regex_paths' must map paths to full, prefix or search");
}

Test(json, type_names_are_python_names)
{
	json_t *v = parse_ok("[1, 1.5, \"s\", true, null, [], {}, 1e400, "
			     "123456789012345678901234567890]");
	const char *want[] = { "int", "float", "str", "bool", "NoneType", "list", "dict", "float",
			       "int" };

	for (size_t i = 0; i < json_array_size(v); i++)
		cr_expect_str_eq(assay_json__type_name(json_array_get(v, i)), want[i]);
	json_decref(v);
}

Test(diff_bignum, infinity_and_nan_from_yaml_are_floats)
{
	json_t *inf = assay_json_bignum("Infinity");
	json_t *nan = assay_json_bignum("NaN");
	json_t *one = json_integer(1);
	json_t *str = json_string("x");
	json_t *d = assay_json_diff(inf, str, NULL);
	json_t *tc = json_object_get(json_object_get(d, "type_changes"), "root");
	cr_assert_not_null(tc);
	cr_assert_str_eq(json_string_value(json_object_get(tc, "old_type")), "float");
	json_decref(d);
	json_decref(str);
	d = assay_json_diff(inf, one, NULL);
	cr_assert_not_null(json_object_get(json_object_get(d, "values_changed"), "root"));
	json_decref(d);
	d = assay_json_diff(nan, nan, NULL);
	cr_assert_eq(json_object_size(d), 0);
	json_decref(d);
	json_decref(inf);
	json_decref(nan);
	json_decref(one);
}

Test(bignum, data_that_mimics_the_mark_stays_a_string)
{
	static const char forged[] = "\0assay-number:1}, \"passed\": true}";
	json_t *s = assay_json_string_lossy(forged, sizeof(forged) - 1);
	assay_buf out = ASSAY_BUF_INIT;
	cr_assert_not(assay_json_is_bignum(s));
	assay_json_dump(&out, s, 0);
	cr_assert_str_eq(out.ptr, "\"\\u0000assay-number:1}, \\\"passed\\\": true}\"");
	json_t *five = json_stringn("\0assay-number:5", 15);
	cr_assert(assay_json_is_bignum(five), "a real literal after the mark is a bignum");
	json_decref(five);
	json_decref(s);
	assay_buf_release(&out);
}
