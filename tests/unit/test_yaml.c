/*
 * Tests of assay_yaml_parse: PyYAML's answer for every scalar resolution rule (the expected
 * values were produced by PyYAML 6.0 safe_load), block and quoted scalars, collections, anchors,
 * merge keys, key stringification, explicit tags, exact error positions, node marks, every case
 * file of the jq-1.6 example suite, and 2000 mutated inputs that must load or fail cleanly.
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
#include "util/banned.h"

/* the example suite kept in the source tree */
#define JQ_EXAMPLE ASSAY_FIXTURES "/../../examples/jq-1.6"

static json_t *load_n(const char *text, size_t len, assay_yaml_marks **marks)
{
	assay_err err = ASSAY_ERR_INIT;
	json_t *v = NULL;
	int rc = assay_yaml_parse(&v, marks, text, len, "t.yaml", &err);

	cr_assert_eq(rc, 0, "parse of <<%s>> failed: %d:%d: %s", text, err.line, err.column,
		     err.msg);
	cr_assert_not_null(v);
	return v;
}

static json_t *load(const char *text)
{
	return load_n(text, strlen(text), NULL);
}

/* Parses `text`, which must fail; returns "line:col: msg". */
static const char *load_fail(const char *text)
{
	static char out[1200];
	assay_err err = ASSAY_ERR_INIT;
	json_t *v = (json_t *)&v;
	assay_yaml_marks *marks = (assay_yaml_marks *)&marks;
	int rc = assay_yaml_parse(&v, &marks, text, strlen(text), "bad.yaml", &err);

	cr_assert_eq(rc, ASSAY_EPARSE, "<<%s>> gave %d, not EPARSE", text, rc);
	cr_assert_eq(err.code, ASSAY_EPARSE);
	cr_assert_null(v, "no value on failure");
	cr_assert_null(marks, "no marks on failure");
	cr_assert_str_eq(err.path, "bad.yaml");
	snprintf(out, sizeof(out), "%d:%d: %s", err.line, err.column, err.msg);
	return out;
}

static char *dump(const json_t *v)
{
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* `text` loads to the JSON `expected` (same types, same key order). */
static void check(const char *text, const char *expected)
{
	json_t *v = load(text);
	char *got = dump(v);

	cr_expect_str_eq(got, expected, "<<%s>>", text);
	free(got);
	json_decref(v);
}

/* ---- scalar resolution ---- */

struct resolve_case {
	const char *scalar;
	const char *expected; /* JSON, or "BIG:<literal>" for a bignum */
};

/* Generated with PyYAML 6.0: yaml.safe_load('v: ' + scalar)['v']. */
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
	{ "9223372036854775808", "BIG:9223372036854775808" },
	{ "-9223372036854775808", "-9223372036854775808" },
	{ "-9223372036854775809", "BIG:-9223372036854775809" },
	{ "99999999999999999999999999", "BIG:99999999999999999999999999" },
	{ "0x7fffffffffffffff", "9223372036854775807" },
	{ "0x8000000000000000", "BIG:9223372036854775808" },
	{ "-0x8000000000000000", "-9223372036854775808" },
	{ "0xffffffffffffffffffffffffffff", "BIG:5192296858534827628530496329220095" },
	{ "0777777777777777777777777", "BIG:4722366482869645213695" },
	{ "0b11111111111111111111111111111111111111111111111111111111111111111111",
	  "BIG:295147905179352825855" },
	{ "100000000:00:00:00:00:00:00:00", "BIG:279936000000000000000" },
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
	{ "1.e+2", "100.0" },
	{ ".5e+1", "5.0" },
	{ "190:20:30.15", "685230.15" },
	{ "0:30.5", "30.5" },
	{ "-1:30.5", "-90.5" },
	{ "1:30.", "90.0" },
	{ "1_000.", "1000.0" },
	{ "00.5", "0.5" },
	{ ".inf", "BIG:Infinity" },
	{ ".Inf", "BIG:Infinity" },
	{ ".INF", "BIG:Infinity" },
	{ "-.inf", "BIG:-Infinity" },
	{ "+.inf", "BIG:Infinity" },
	{ ".nan", "BIG:NaN" },
	{ ".NaN", "BIG:NaN" },
	{ ".NAN", "BIG:NaN" },
	{ "-.nan", "\"-.nan\"" },
	{ "inf", "\"inf\"" },
	{ "nan", "\"nan\"" },
	{ "1.0e+999", "BIG:1.0e+999" },
	{ "-1.0e+999", "BIG:-1.0e+999" },
	{ "1.0e-999", "0.0" },
	{ "1.5e+", "\"1.5e+\"" },
	{ "1.5.5", "\"1.5.5\"" },
	{ "2001-12-14", "\"2001-12-14\"" },
	{ "abc", "\"abc\"" },
	{ "1x", "\"1x\"" },
	{ "0x1g", "\"0x1g\"" },
	{ "<<", "\"<<\"" },
	{ "=", "\"=\"" },
};

static bool is_bignum(const json_t *v, const char *literal)
{
	size_t n = strlen(literal);

	return json_is_string(v) && json_string_length(v) == ASSAY_JSON_BIGNUM_MARK_LEN + n &&
	       !memcmp(json_string_value(v), ASSAY_JSON_BIGNUM_MARK, ASSAY_JSON_BIGNUM_MARK_LEN) &&
	       !memcmp(json_string_value(v) + ASSAY_JSON_BIGNUM_MARK_LEN, literal, n);
}

static void check_scalar(const char *doc, const char *scalar, const char *expected)
{
	json_t *root = load(doc);
	json_t *v = json_object_get(root, "v");

	cr_assert_not_null(v, "%s", doc);
	if (!strncmp(expected, "BIG:", 4)) {
		cr_expect(is_bignum(v, expected + 4), "'%s' should be the bignum %s", scalar,
			  expected + 4);
	} else {
		/* exact: same type, and for reals the same double */
		json_t *want = json_loads(expected, JSON_DECODE_ANY, NULL);
		char *got = dump(v);
		cr_assert_not_null(want);
		cr_expect(json_equal(v, want), "'%s' gave %s, expected %s", scalar, got, expected);
		free(got);
		json_decref(want);
	}
	json_decref(root);
}

Test(yaml, plain_scalars_resolve_as_pyyaml)
{
	for (size_t i = 0; i < sizeof(resolve_cases) / sizeof(resolve_cases[0]); i++) {
		char doc[256];
		snprintf(doc, sizeof(doc), "v: %s\n", resolve_cases[i].scalar);
		check_scalar(doc, resolve_cases[i].scalar, resolve_cases[i].expected);
	}
}

Test(yaml, resolution_also_applies_in_flow_and_sequences)
{
	check("[1, 1.5, true, ~, '1', x, 0x10]", "[1,1.5,true,null,\"1\",\"x\",16]");
	check("- 017\n- 1e3\n- .5\n- +1\n- 190:20:30\n", "[15,\"1e3\",0.5,1,685230]");
	check("{a: , b: no}", "{\"a\":null,\"b\":false}");
}

Test(yaml, negative_zero_real_keeps_its_sign)
{
	json_t *v = load("-0.0");

	cr_assert(json_is_real(v));
	cr_assert(signbit(json_real_value(v)));
	json_decref(v);
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
}

/* ---- block and quoted scalars ---- */

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
	json_t *v = load("- \"a\\0b\"\n");
	json_t *s = json_array_get(v, 0);

	cr_assert_eq(json_string_length(s), 3);
	cr_assert(!memcmp(json_string_value(s), "a\0b", 3));
	json_decref(v);
}

/* ---- collections ---- */

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
	check("", "null");
	check("# only a comment\n\n", "null");
	check("---\n", "null");
	check("--- 5\n...\n", "5");
	check("%YAML 1.1\n---\na: 1\n", "{\"a\":1}");
	check("\xEF\xBB\xBF" "a: 1\n", "{\"a\":1}");
	check("a: 1\r\nb: |\r\n  x\r\n", "{\"a\":1,\"b\":\"x\\n\"}");

	json_t *v = NULL;
	cr_assert_eq(assay_yaml_parse(&v, NULL, NULL, 0, NULL, NULL), 0);
	cr_assert(json_is_null(v));
}

/* ---- keys ---- */

Test(yaml, non_string_keys_use_their_source_text)
{
	check("1: a\ntrue: b\n0x1F: c\n1.5: d\nYes: e\n",
	      "{\"1\":\"a\",\"true\":\"b\",\"0x1F\":\"c\",\"1.5\":\"d\",\"Yes\":\"e\"}");
	check("~: a\n", "{\"null\":\"a\"}");
	check("? \n: a\n", "{\"null\":\"a\"}");
	check("Null: a\n", "{\"null\":\"a\"}");
	check("'~': a\n'': b\n", "{\"~\":\"a\",\"\":\"b\"}");
	check("!!str 012: a\n", "{\"012\":\"a\"}");
}

Test(yaml, key_with_nul_is_kept_whole)
{
	json_t *v = load("\"a\\0b\": 1\n\"a\": 2\n");

	cr_assert_eq(json_object_size(v), 2);
	cr_assert_eq(json_integer_value(json_object_getn(v, "a\0b", 3)), 1);
	cr_assert_eq(json_integer_value(json_object_get(v, "a")), 2);
	json_decref(v);
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
}

Test(yaml, complex_keys_are_errors)
{
	cr_expect_str_eq(load_fail("? [a]\n: 1\n"), "1:3: mapping keys must be scalars");
	cr_expect_str_eq(load_fail("a: 1\n? {b: c}\n: 1\n"), "2:3: mapping keys must be scalars");
	cr_expect_str_eq(load_fail("a: &l [1]\n*l : 2\n"), "2:1: mapping keys must be scalars");
}

/* ---- anchors, aliases, merge keys ---- */

Test(yaml, aliases_share_the_anchored_node)
{
	json_t *v = load("a: &x [1, 2]\nb: *x\nc: &s str\nd: *s\ne: &n ~\nf: *n\n");
	char *s = dump(v);

	cr_expect_str_eq(s, "{\"a\":[1,2],\"b\":[1,2],\"c\":\"str\",\"d\":\"str\",\"e\":null,"
			 "\"f\":null}");
	cr_expect_eq(json_object_get(v, "a"), json_object_get(v, "b"));
	cr_expect_eq(json_object_get(v, "c"), json_object_get(v, "d"));
	free(s);
	json_decref(v);
}

Test(yaml, alias_keys_and_redefined_anchors)
{
	check("- &x 1\n- {*x : 2}\n", "[1,{\"1\":2}]");
	check("&k key: *k\n", "{\"key\":\"key\"}");
	check("- &a 1\n- *a\n- &a 2\n- *a\n", "[1,1,2,2]");
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
}

Test(yaml, merged_keys_are_not_duplicates_and_sources_are_untouched)
{
	json_t *v = load("b: &b {k: 1}\nm:\n  k: 2\n  <<: *b\n");
	char *s = dump(v);

	cr_expect_str_eq(s, "{\"b\":{\"k\":1},\"m\":{\"k\":2}}");
	free(s);
	json_decref(v);
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

/* ---- tags ---- */

Test(yaml, explicit_tags)
{
	check("a: !!str 123\nb: !!int '12'\nc: !!float 1\nd: !!float 1e3\ne: !!bool 'YES'\n"
	      "f: !!null ''\ng: !!binary aGVsbG8=\nh: !!str\ni: !!int 0x10\nj: !!float '.inf'\n",
	      "{\"a\":\"123\",\"b\":12,\"c\":1.0,\"d\":1000.0,\"e\":true,\"f\":null,"
	      "\"g\":\"aGVsbG8=\",\"h\":\"\",\"i\":16,\"j\":\"\\u0000assay-number:Infinity\"}");
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

/* ---- errors ---- */

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

Test(yaml, more_than_one_document)
{
	cr_expect_str_eq(load_fail("a: 1\n---\nb: 2\n"), "2:1: more than one document");
	cr_expect_str_eq(load_fail("--- 1\n--- 2\n"), "2:1: more than one document");
}

Test(yaml, nesting_is_limited)
{
	size_t n = 5000;
	char *deep = malloc(2 * n + 1);

	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = '\0';
	cr_expect_str_eq(load_fail(deep), "1:1001: nesting deeper than 1000 levels");
	deep[1000] = '\0';
	memset(deep + 500, ']', 500);
	json_t *v = load(deep);
	json_decref(v);
	free(deep);
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
	assay_err err = ASSAY_ERR_INIT;
	json_t *v;

	cr_assert_eq(assay_yaml_parse(&v, NULL, "a: *x\n", 6, "f.yaml", &err), ASSAY_EPARSE);
	cr_assert_eq(assay_yaml_parse(&v, NULL, "a: [\n", 5, "g.yaml", &err), ASSAY_EPARSE);
	cr_expect_str_eq(err.path, "f.yaml");
	cr_expect_eq(err.line, 1);
	cr_expect_eq(err.column, 4);
	cr_expect_str_eq(err.msg, "unknown alias 'x'");
	cr_assert_eq(assay_yaml_parse(&v, NULL, "a: [\n", 5, NULL, NULL), ASSAY_EPARSE);
}

/* ---- marks ---- */

static void expect_mark(const assay_yaml_marks *m, const json_t *node, int line, int col)
{
	int l = 0, c = 0;

	cr_assert(assay_yaml_mark(m, node, &l, &c), "no mark");
	cr_expect_eq(l, line, "line %d, expected %d", l, line);
	cr_expect_eq(c, col, "column %d, expected %d", c, col);
}

Test(yaml, marks_give_node_positions)
{
	const char *text = "top:\n  nested:\n    value: 42\n    list:\n      - a\n      -   [x, "
			   "{y: z}]\n  s: |\n    text\n";
	assay_yaml_marks *m = NULL;
	json_t *v = load_n(text, strlen(text), &m);
	json_t *top = json_object_get(v, "top");
	json_t *nested = json_object_get(top, "nested");
	json_t *list = json_object_get(nested, "list");
	json_t *flow = json_array_get(list, 1);

	expect_mark(m, v, 1, 1);
	expect_mark(m, top, 2, 3);
	expect_mark(m, nested, 3, 5);
	expect_mark(m, json_object_get(nested, "value"), 3, 12);
	expect_mark(m, list, 5, 7);
	expect_mark(m, json_array_get(list, 0), 5, 9);
	expect_mark(m, flow, 6, 11);
	expect_mark(m, json_array_get(flow, 1), 6, 15);
	expect_mark(m, json_object_get(json_array_get(flow, 1), "y"), 6, 19);
	expect_mark(m, json_object_get(top, "s"), 7, 6);
	json_decref(v);
	assay_yaml_marks_free(m);
}

Test(yaml, marks_of_singletons_aliases_and_strangers)
{
	assay_yaml_marks *m = NULL;
	const char *text = "a: true\nb: ~\nc: &x\n  k: 1\nd: *x\n";
	json_t *v = load_n(text, strlen(text), &m);
	json_t *stranger = json_integer(1);

	cr_assert(!assay_yaml_mark(m, json_object_get(v, "a"), NULL, NULL));
	cr_assert(!assay_yaml_mark(m, json_object_get(v, "b"), NULL, NULL));
	cr_assert(!assay_yaml_mark(m, stranger, NULL, NULL));
	cr_assert(!assay_yaml_mark(NULL, v, NULL, NULL));
	/* an alias has its anchor's node's mark, which starts at the anchor (as in PyYAML) */
	expect_mark(m, json_object_get(v, "d"), 3, 4);
	json_decref(stranger);
	json_decref(v);
	assay_yaml_marks_free(m);
	assay_yaml_marks_free(NULL);
}

/* Every node of `v` except true/false/null has a mark. */
static bool all_marked(const assay_yaml_marks *m, const json_t *v)
{
	int line = 0, col = 0;

	if (json_is_null(v) || json_is_boolean(v))
		return true;
	if (!assay_yaml_mark(m, v, &line, &col) || line < 1 || col < 1)
		return false;
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			if (!all_marked(m, json_array_get(v, i)))
				return false;
	} else if (json_is_object(v)) {
		const char *k;
		json_t *c;
		json_object_foreach((json_t *)v, k, c)
			if (!all_marked(m, c))
				return false;
	}
	return true;
}

Test(yaml, marks_after_merges)
{
	assay_yaml_marks *m = NULL;
	const char *text = "b: &b {x: 1}\nm:\n  <<: [*b, {y: 2}]\n  z: 3\n";
	json_t *v = load_n(text, strlen(text), &m);
	json_t *mm = json_object_get(v, "m");

	expect_mark(m, mm, 3, 3);
	expect_mark(m, json_object_get(mm, "x"), 1, 11);
	expect_mark(m, json_object_get(mm, "y"), 3, 16);
	expect_mark(m, json_object_get(mm, "z"), 4, 6);
	cr_expect(all_marked(m, v));
	json_decref(v);
	assay_yaml_marks_free(m);
}

/* ---- the jq-1.6 example ---- */

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
	assay_yaml_marks *m = NULL;
	json_t *v = load_n(text, len, &m);
	char *s = dump(v);

	cr_expect_str_eq(s, "{\"arguments\":[\"-L\",\"{{static:modules}}\",\"-c\",\"true\"],"
			 "\"stdin\":\"null\\n\",\"expected\":{\"output\":\"true\\n\"},"
			 "\"verify\":{\"output\":{\"verifier\":\"jsonl\"}}}");
	expect_mark(m, json_object_get(v, "stdin"), 7, 8);
	expect_mark(m, json_object_get(json_object_get(json_object_get(v, "verify"), "output"),
				       "verifier"), 14, 15);
	free(s);
	free(text);
	json_decref(v);
	assay_yaml_marks_free(m);
}

Test(yaml, suite_file_loads)
{
	size_t len;
	char *text = read_file(ASSAY_FIXTURES "/yaml/suite.yaml", &len);
	json_t *v = load_n(text, len, NULL);

	cr_expect_str_eq(json_string_value(json_object_get(v, "name")), "jq-1.6");
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(v, "adapter"),
							"timeout")), 10);
	free(text);
	json_decref(v);
}

/* Appends the paths of the .yaml files under `dir` to `out`. */
static void find_yaml(const char *dir, json_t *out)
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
		if (S_ISDIR(st.st_mode))
			find_yaml(path, out);
		else if (n > 5 && !strcmp(e->d_name + n - 5, ".yaml"))
			json_array_append_new(out, json_string(path));
	}
	closedir(d);
}

Test(yaml, every_file_of_the_jq_example_loads)
{
	json_t *files = json_array();

	find_yaml(JQ_EXAMPLE, files);
	cr_assert_geq(json_array_size(files), 300);
	for (size_t i = 0; i < json_array_size(files); i++) {
		const char *path = json_string_value(json_array_get(files, i));
		size_t len;
		char *text = read_file(path, &len);
		assay_err err = ASSAY_ERR_INIT;
		assay_yaml_marks *m = NULL;
		json_t *v = NULL;
		int rc = assay_yaml_parse(&v, &m, text, len, path, &err);
		cr_expect_eq(rc, 0, "%s:%d:%d: %s", path, err.line, err.column, err.msg);
		cr_expect(rc || all_marked(m, v), "%s: a node without a mark", path);
		json_decref(v);
		assay_yaml_marks_free(m);
		free(text);
	}
	json_decref(files);
}

Test(yaml, jq_bom_case_keeps_the_escape)
{
	check("stdin: \"\\uFEFF\\\"byte order mark\\\"\\n\"\n",
	      "{\"stdin\":\"\xEF\xBB\xBF\\\"byte order mark\\\"\\n\"}");
}

/* ---- robustness ---- */

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
	"  - [1.5, .inf, -.nan, 190:20:30, 99999999999999999999999, ~, yes]\n"
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
					      "#", "\\u", "\xC3", "\xFF", "---\n", ",", "%", "!" };
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
	json_t *seeds = json_array();
	json_t *files = json_array();
	int ok = 0, failed = 0;

	json_array_append_new(seeds, json_string(seed_doc));
	json_array_append_new(seeds, json_stringn(seed_doc, strstr(seed_doc, "---") - seed_doc));
	find_yaml(JQ_EXAMPLE, files);
	for (size_t i = 0; i < json_array_size(files); i += 7) {
		size_t len;
		char *text = read_file(json_string_value(json_array_get(files, i)), &len);
		json_array_append_new(seeds, json_stringn(text, len));
		free(text);
	}
	json_decref(files);
	rng_state = 0x9E3779B97F4A7C15ull;
	for (int i = 0; i < 2000; i++) {
		json_t *seed = json_array_get(seeds, rnd() % json_array_size(seeds));
		assay_buf b = ASSAY_BUF_INIT;
		assay_err err = ASSAY_ERR_INIT;
		assay_yaml_marks *m = NULL;
		json_t *v = NULL;

		assay_buf_add(&b, json_string_value(seed), json_string_length(seed));
		mutate(&b);
		int rc = assay_yaml_parse(&v, &m, b.ptr, b.len, "fuzz.yaml", &err);
		if (rc == 0) {
			ok++;
			cr_assert_not_null(v);
			cr_assert(all_marked(m, v), "input %d: a node without a mark", i);
		} else {
			failed++;
			cr_assert_eq(rc, ASSAY_EPARSE, "input %d: code %d", i, rc);
			cr_assert_eq(err.code, ASSAY_EPARSE);
			cr_assert_geq(err.line, 1, "input %d: %s", i, err.msg);
			cr_assert_geq(err.column, 1, "input %d: %s", i, err.msg);
			cr_assert(err.msg[0], "input %d: no message", i);
			cr_assert_str_eq(err.path, "fuzz.yaml");
			cr_assert_null(v);
		}
		json_decref(v);
		assay_yaml_marks_free(m);
		assay_buf_release(&b);
	}
	/* the mutations must exercise both outcomes */
	cr_log_info("%d loaded, %d failed", ok, failed);
	cr_expect_gt(ok, 100);
	cr_expect_gt(failed, 100);
	json_decref(seeds);
}

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
	json_t *v = NULL;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_yaml_parse(&v, NULL, bomb, sizeof(bomb) - 1, "bomb.yaml", &err),
		     ASSAY_EPARSE);
	cr_assert_null(v);
	/* f expands to 1,111,111 nodes: the alias that crosses the limit is on line 6 */
	cr_assert_eq(err.line, 6, "%d:%d %s", err.line, err.column, err.msg);
	cr_assert(strstr(err.msg, "aliases expand the document past"), "%s", err.msg);
	/* the same shape up to e (111,111 nodes) is fine */
	const char *f = strstr(bomb, "f: &f");
	cr_assert_eq(assay_yaml_parse(&v, NULL, bomb, (size_t)(f - bomb), "ok.yaml", NULL), 0);
	cr_assert_eq(json_object_size(v), 5);
	json_decref(v);
}
