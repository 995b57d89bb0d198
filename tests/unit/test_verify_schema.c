/*
 * The json_schema verifier (verify_schema.c) against jsonschema's Draft7Validator: every case
 * of tests/fixtures/formats/schema.jsonl (made by tests/formats/gen_corpus.py) must give the
 * same violations, at the same JSON paths, with the same messages, in the same order. Plus the
 * verifier's own promises: refusals of schemas it cannot honour, the depth bound, a document
 * in another format, a document that does not parse.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/verify.h"

static assay_arena *A;

static void setup(void)
{
	A = assay_arena_new(0);
}

static void teardown(void)
{
	assay_arena_free(A);
}

TestSuite(json_schema, .init = setup, .fini = teardown);

static assay_value js(const char *text)
{
	assay_value v;

	cr_assert_eq(assay_json_parse(&v, A, text, strlen(text), NULL, NULL), 0, "bad JSON %s",
		     text);
	return v;
}

struct res {
	int rc;
	assay_verification v;
	assay_err err;
	char *diff;
};

static struct res check_until(const assay_value *schema, const char *actual,
			      const char *options, double deadline)
{
	struct res r = { 0, ASSAY_VERIFICATION_INIT, ASSAY_ERR_INIT, NULL };
	assay_value opts = js(options ? options : "{\"verifier\": \"json_schema\"}");
	assay_actual ac = { ASSAY_ACTUAL_BYTES, actual, strlen(actual), false, 0, 0 };
	assay_verify_call call = { "g", "c", "output", schema, &ac, &opts, A, deadline };
	assay_buf b = ASSAY_BUF_INIT;

	r.rc = assay_verify_attribute(&r.v, &call, &r.err);
	assay_json_write(&b, &r.v.diff, 0);
	r.diff = assay_buf_detach(&b, NULL);
	return r;
}

static struct res check(const assay_value *schema, const char *actual, const char *options)
{
	return check_until(schema, actual, options, 0);
}

/* The diff jsonschema's errors make: {path: "rule: message; rule: message"}, first seen first. */
static char *expected_diff(const assay_value *errors)
{
	assay_value d = assay_value_object();
	assay_buf b = ASSAY_BUF_INIT;

	for (uint32_t i = 0; i < errors->len; i++) {
		const assay_value *e = &errors->u.items[i];
		const assay_value *path = &e->u.items[0], *rule = &e->u.items[1],
				  *msg = &e->u.items[2];
		assay_value *prev = (assay_value *)assay_object_getn(&d, path->u.s, path->len);
		assay_value text = assay_value_stringf(A, "%s%s%.*s: %.*s", prev ? prev->u.s : "",
						       prev ? "; " : "", (int)rule->len, rule->u.s,
						       (int)msg->len, msg->u.s);

		if (prev)
			*prev = text;
		else
			assay_object_setn(A, &d, path->u.s, path->len, text);
	}
	if (!errors->len)
		d = assay_value_null();
	assay_json_write(&b, &d, 0);
	return assay_buf_detach(&b, NULL);
}

Test(json_schema, reports_as_jsonschema_draft7_does)
{
	assay_buf file = ASSAY_BUF_INIT;
	assay_value cases;
	int bad = 0;

	cr_assert_eq(assay_fs_read(&file, ASSAY_FIXTURES "/formats/schema.jsonl", 0, NULL), 0);
	cr_assert_eq(assay_json_parse_lines(&cases, A, file.ptr, file.len, false, NULL, NULL), 0);
	cr_assert_gt(cases.len, 100);
	for (uint32_t i = 0; i < cases.len; i++) {
		const assay_value *c = &cases.u.items[i];
		assay_buf inst = ASSAY_BUF_INIT;

		assay_json_write(&inst, assay_object_get(c, "instance"), 0);
		struct res r = check(assay_object_get(c, "schema"), inst.ptr, NULL);
		char *want = expected_diff(assay_object_get(c, "errors"));

		if (r.rc || strcmp(r.diff, want) ||
		    r.v.is_correct != !assay_object_get(c, "errors")->len) {
			fprintf(stderr, "%s:\n  jsonschema %s\n  assay      %s (rc %d %s)\n",
				assay_object_get(c, "name")->u.s, want, r.diff, r.rc, r.err.msg);
			bad++;
		}
		free(want);
		free(r.diff);
		assay_buf_release(&inst);
	}
	assay_buf_release(&file);
	cr_assert_eq(bad, 0, "%d cases differ from jsonschema (listed above)", bad);
}

Test(json_schema, refuses_what_it_cannot_honour)
{
	static const struct {
		const char *schema, *msg;
	} cases[] = {
		{ "{\"properties\": {\"a\": {\"contains\": {}}}}",
		  "json_schema: the draft-07 keyword 'contains' is not supported by assay (at "
		  "#/properties/a)" },
		{ "{\"if\": {}, \"then\": {}}", "the draft-07 keyword 'if' is not supported" },
		{ "{\"$ref\": \"other.json#/a\"}", "$ref 'other.json#/a' is not a pointer into" },
		{ "{\"$ref\": \"#/definitions/none\"}", "points at nothing in the schema" },
		{ "{\"definitions\": {\"a\": {\"$ref\": \"#/definitions/b\"}, \"b\": {\"$ref\": "
		  "\"#/definitions/a\"}}, \"$ref\": \"#/definitions/a\"}",
		  "$ref cycle" },
		{ "{\"pattern\": \"(\"}", "the pattern '(' does not compile" },
		{ "{\"type\": 5}", "type must be a name or a list of names" },
		{ "{\"minLength\": -1}", "minLength must be a non-negative integer" },
		{ "{\"anyOf\": []}", "anyOf must be a non-empty list of schemas" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assay_value schema = js(cases[i].schema);
		struct res r = check(&schema, "\"x\"", NULL);

		cr_assert_eq(r.rc, ASSAY_EINVALID, "%s: rc %d", cases[i].schema, r.rc);
		cr_assert(strstr(r.err.msg, cases[i].msg), "%s: %s", cases[i].schema, r.err.msg);
		cr_assert_not(r.v.is_correct);
		free(r.diff);
	}
}

Test(json_schema, a_deep_document_is_a_violation_not_a_crash)
{
	assay_value schema = js("{\"$ref\": \"#/definitions/n\", \"definitions\": {\"n\": "
				"{\"items\": {\"$ref\": \"#/definitions/n\"}}}}");
	size_t depth = 5000; /* above the schema walk's 1000, below the readers' 100,000 */
	char *doc = malloc(2 * depth + 1);

	memset(doc, '[', depth);
	memset(doc + depth, ']', depth);
	doc[2 * depth] = '\0';
	struct res r = check(&schema, doc, NULL);
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_not(r.v.is_correct);
	cr_assert(strstr(r.diff, "depth: the document is nested deeper than 1000 levels"), "%.300s",
		  r.diff);
	free(r.diff);
	free(doc);
}

Test(json_schema, passes_fails_and_reads_other_formats)
{
	assay_value schema = js("{\"type\": \"object\", \"required\": [\"name\"], \"properties\": "
				"{\"port\": {\"type\": \"integer\", \"maximum\": 65535}}}");
	struct res ok = check(&schema, "{\"name\": \"a\", \"port\": 80}", NULL);
	struct res bad = check(&schema, "name: a\nport: 70000\n",
			       "{\"verifier\": \"json_schema\", \"format\": \"yaml\"}");
	struct res toml = check(&schema, "name = 'a'\nport = 1\n",
				"{\"verifier\": \"json_schema\", \"format\": \"toml\"}");
	struct res garbled = check(&schema, "{\"name\": ", NULL);

	cr_assert(ok.v.is_correct && !ok.rc);
	cr_assert_str_eq(ok.diff, "null");
	cr_assert_not(bad.v.is_correct);
	cr_assert_str_eq(bad.diff,
			 "{\"$.port\": \"maximum: 70000 is greater than the maximum of 65535\"}");
	cr_assert(toml.v.is_correct, "%s", toml.diff);
	cr_assert_eq(garbled.rc, 0);
	cr_assert_not(garbled.v.is_correct);
	cr_assert(strstr(garbled.diff, "output is not valid JSON: line 1, column 10"), "%s",
		  garbled.diff);
	free(ok.diff);
	free(bad.diff);
	free(toml.diff);
	free(garbled.diff);
}

Test(json_schema, the_schema_may_be_json_text)
{
	assay_value schema = assay_value_strz(A, "{\"type\": \"array\", \"maxItems\": 1}");
	struct res r = check(&schema, "[1, 2]", NULL);

	cr_assert_not(r.v.is_correct);
	cr_assert_str_eq(r.diff, "{\"$\": \"maxItems: [1, 2] is too long\"}");
	free(r.diff);
}

/* "[[0],[1],...]" of n items, or with `dup` the last item repeating the first (written as a
 * real, so equal by value only). */
static char *pairs_doc(size_t n, bool dup)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_buf_addch(&b, '[');
	for (size_t i = 0; i < n; i++)
		assay_buf_addf(&b, "%s[%zu]", i ? "," : "", i);
	if (dup)
		assay_buf_adds(&b, ",[0.0]");
	assay_buf_addch(&b, ']');
	return assay_buf_detach(&b, NULL);
}

/* uniqueItems was quadratic (185 s on 160k items): now hashed, and bounded by the deadline. */
Test(json_schema, unique_items_is_not_quadratic)
{
	assay_value schema = js("{\"type\": \"array\", \"uniqueItems\": true}");
	char *doc = pairs_doc(160000, false);
	struct res r = check(&schema, doc, NULL);

	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert(r.v.is_correct, "%.300s", r.diff);
	free(r.diff);
	free(doc);
	doc = pairs_doc(160000, true);
	r = check(&schema, doc, NULL);
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_not(r.v.is_correct);
	cr_assert(strstr(r.diff, "has non-unique elements"), "%.300s", r.diff);
	free(r.diff);
	/* past the deadline: the budget reason, not a verdict */
	r = check_until(&schema, doc, NULL, 1e-9);
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_not(r.v.is_correct);
	cr_assert(r.v.budget);
	cr_assert(strstr(r.diff, "verification budget"), "%.300s", r.diff);
	free(r.diff);
	free(doc);
}

/* Equal as jsonschema's equal(): numbers by value, objects unordered, booleans not numbers. */
Test(json_schema, unique_items_equality)
{
	assay_value schema = js("{\"uniqueItems\": true}");
	static const char *const dups[] = {
		"[1, 1.0]",
		"[{\"a\": 1, \"b\": [2]}, {\"b\": [2.0], \"a\": 1}]",
		"[null, 3, null]",
		"[\"x\", [\"x\"], \"x\"]",
		"[100000000000000000000000000000, 100000000000000000000000000000]",
		"[[], {}, []]",
	};
	static const char *const uniques[] = {
		"[1, true]", "[0, false]", "[[1], [true]]", "[{\"a\": 1}, {\"a\": 1, \"b\": 1}]",
		"[{\"a\": 1, \"b\": 2}, {\"a\": 2, \"b\": 1}]", "[\"1\", 1]", "[[], {}]",
		"[[1, 2], [2, 1]]", "[null, \"null\"]", "[1.5, 1]",
	};

	for (size_t i = 0; i < sizeof(dups) / sizeof(*dups); i++) {
		struct res r = check(&schema, dups[i], NULL);

		cr_assert_eq(r.rc, 0, "%s", r.err.msg);
		cr_assert_not(r.v.is_correct, "%s should have duplicates", dups[i]);
		free(r.diff);
	}
	for (size_t i = 0; i < sizeof(uniques) / sizeof(*uniques); i++) {
		struct res r = check(&schema, uniques[i], NULL);

		cr_assert_eq(r.rc, 0, "%s", r.err.msg);
		cr_assert(r.v.is_correct, "%s should be unique: %s", uniques[i], r.diff);
		free(r.diff);
	}
}

/* A catastrophic pattern against many strings: each match is bounded by the match limit, and
 * the attribute fails with the budget reason (it took ~0.18 s a string, without end). */
Test(json_schema, a_catastrophic_pattern_meets_the_budget)
{
	assay_value schema = js("{\"items\": {\"pattern\": \"^(a|aa)+$\"}}");
	assay_buf b = ASSAY_BUF_INIT;

	assay_buf_addch(&b, '[');
	for (int i = 0; i < 2000; i++)
		assay_buf_addf(&b, "%s\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\"", i ? "," : "");
	assay_buf_addch(&b, ']');
	struct res r = check(&schema, b.ptr, NULL);
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_not(r.v.is_correct);
	cr_assert(r.v.budget);
	cr_assert(strstr(r.diff, "within the verification budget (the pattern match limit)"),
		  "%.300s", r.diff);
	free(r.diff);
	assay_buf_release(&b);

	/* harmless matches, but many of them, past the deadline: the budget again */
	schema = js("{\"items\": {\"pattern\": \"^a\"}}");
	assay_buf_addch(&b, '[');
	for (int i = 0; i < 3000; i++)
		assay_buf_addf(&b, "%s\"ab\"", i ? "," : "");
	assay_buf_addch(&b, ']');
	r = check(&schema, b.ptr, NULL);
	cr_assert(r.v.is_correct, "%.300s", r.diff);
	free(r.diff);
	r = check_until(&schema, b.ptr, NULL, 1e-9);
	cr_assert(r.v.budget);
	cr_assert_not(r.v.is_correct);
	cr_assert(strstr(r.diff, "within the verification budget (time)"), "%.300s", r.diff);
	free(r.diff);
	assay_buf_release(&b);
}
