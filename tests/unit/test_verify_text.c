/*
 * Tests of the verifier framework (verify.c), the text verifiers (verify_text.c) and Python's
 * text rules under them (pytext.c): every pass and fail path, the diff texts, the options, the
 * errors a suite author can cause, and case folding and white space held against Python.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "assay/verify.h"
#include "value/pytext_int.h"
#include "util/banned.h"

/* Every value of a test lives in this arena (made and freed around each test). */
static assay_arena *A;

static void setup(void)
{
	A = assay_arena_new(0);
}

static void teardown(void)
{
	assay_arena_free(A);
	A = NULL;
}

TestSuite(verify, .init = setup, .fini = teardown);
TestSuite(exact, .init = setup, .fini = teardown);
TestSuite(text, .init = setup, .fini = teardown);
TestSuite(contains, .init = setup, .fini = teardown);
TestSuite(regex, .init = setup, .fini = teardown);
TestSuite(pytext, .init = setup, .fini = teardown);

/*
 * Values
 */

static assay_value str_v(const char *s)
{
	return assay_value_strz(A, s);
}

static assay_value strn_v(const char *s, size_t len)
{
	return assay_value_string(A, s, len);
}

static assay_value int_v(int64_t i)
{
	return assay_value_int(i);
}

static assay_value real_v(double d)
{
	return assay_value_real(d);
}

static assay_value bool_v(bool b)
{
	return assay_value_bool(b);
}

static assay_value null_v(void)
{
	return assay_value_null();
}

/* An integer from its digits: a bigint when it does not fit in 64 bits. */
static assay_value integer_v(const char *digits)
{
	assay_value v;
	cr_assert_eq(assay_value_integer_text(&v, A, digits, strlen(digits)), 0);
	return v;
}

/* A value from JSON text. */
static assay_value json_v(const char *text)
{
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_json_parse(&v, A, text, strlen(text), NULL, &err), 0,
		     "bad JSON in test: %s (%s)", text, err.msg);
	return v;
}

/*
 * Actual values
 */

static assay_actual bytes_n(const char *s, size_t len)
{
	assay_actual a = { ASSAY_ACTUAL_BYTES, s, len, false, 0, 0.0 };
	return a;
}

static assay_actual bytes(const char *s)
{
	return bytes_n(s, strlen(s));
}

static assay_actual integer(long long v)
{
	assay_actual a = { ASSAY_ACTUAL_INT, NULL, 0, false, v, 0.0 };
	return a;
}

static assay_actual real(double v)
{
	assay_actual a = { ASSAY_ACTUAL_REAL, NULL, 0, false, 0, v };
	return a;
}

static assay_actual missing(void)
{
	assay_actual a = { ASSAY_ACTUAL_MISSING, NULL, 0, false, 0, 0.0 };
	return a;
}

/*
 * Running the framework
 */

/*
 * Runs the framework on `attribute` with `expected` and the verify entry `options` (JSON text,
 * NULL for none). Returns the code; the result is in *out.
 */
static int run(assay_verification *out, assay_err *err, const char *attribute,
	       assay_value expected, assay_actual actual, const char *options)
{
	assay_value opts = json_v(options ? options : "{}");
	assay_verify_call call = { "group", "case", attribute, &expected, &actual, &opts, A, 0 };
	*out = (assay_verification)ASSAY_VERIFICATION_INIT;
	assay_err_clear(err);
	return assay_verify_attribute(out, &call, err);
}

/* The diff of `v`, which must be a string (made in the arena, so NUL-terminated). */
static const char *diff_text(const assay_verification *v)
{
	cr_assert_eq(v->diff.kind, ASSAY_V_STRING, "diff is a string (kind %d)", v->diff.kind);
	cr_assert_eq(strlen(v->diff.u.s), v->diff.len, "diff holds no NUL");
	return v->diff.u.s;
}

/* Expects a pass. */
static void ok(const char *attribute, assay_value expected, assay_actual actual,
	       const char *options)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	cr_assert(v.is_correct, "expected a pass (options %s), diff: %s",
		  options ? options : "{}", v.diff.kind == ASSAY_V_STRING ? v.diff.u.s : "-");
	cr_assert_eq(v.diff.kind, ASSAY_V_NULL);
	cr_assert_not(v.budget);
}

/* Expects a fail whose diff is the string `diff` (NULL: any string). */
static void bad(const char *attribute, assay_value expected, assay_actual actual,
		const char *options, const char *diff)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	cr_assert_not(v.is_correct, "expected a fail (options %s)", options ? options : "{}");
	cr_assert_not(v.budget);
	const char *d = diff_text(&v);
	if (diff)
		cr_assert_str_eq(d, diff);
}

/* Expects an error `code` whose message is `msg` (NULL: any). */
static void refused(int code, const char *msg, const char *attribute, assay_value expected,
		    assay_actual actual, const char *options)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, code, "code %d (%s)", rc, err.msg);
	cr_assert_eq(err.code, code);
	if (msg)
		cr_assert_str_eq(err.msg, msg);
	cr_assert_eq(v.diff.kind, ASSAY_V_NULL);
	cr_assert_not(v.is_correct);
}

/* The diff string of a failed verification. */
static const char *diff_of(assay_verification *v, const char *attribute, assay_value expected,
			   assay_actual actual, const char *options)
{
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	cr_assert_not(v->is_correct);
	return diff_text(v);
}

/*
 * The framework
 */

Test(verify, finds_every_builtin)
{
	const char *names[] = { "exact", "text", "contains", "regex", "json", "jsonl" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const assay_verifier *v = assay_verifier_find(names[i]);
		cr_assert_not_null(v, "%s", names[i]);
		cr_assert_str_eq(v->name, names[i]);
		cr_assert_not_null(v->fn);
	}
	cr_assert_null(assay_verifier_find("nope"));
	cr_assert_null(assay_verifier_find(NULL));
}

static int always_fn(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	(void)err;
	out->is_correct = true;
	out->diff = assay_value_strz(call->arena, "always");
	return 0;
}

static int refuse_fn(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	out->diff = assay_value_strz(call->arena, "partial");
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "no thanks");
}

static int silent_refuse_fn(assay_verification *out, const assay_verify_call *call,
			    assay_err *err)
{
	(void)out;
	(void)call;
	(void)err;
	return ASSAY_EINVALID;
}

/* What the last call of spy_fn saw. */
static assay_verify_call spied;
static const assay_value *spied_options;

static int spy_fn(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	(void)err;
	spied = *call;
	spied_options = call->options;
	out->is_correct = true;
	return 0;
}

static const char *const always_options[] = { "level", NULL };
static const assay_verifier always_v = { "always", always_fn, always_options };
static const assay_verifier exact_override = { "exact", always_fn, NULL };
static const assay_verifier refuse_v = { "refuse", refuse_fn, NULL };
static const assay_verifier silent_v = { "silent", silent_refuse_fn, NULL };
static const assay_verifier spy_v = { "spy", spy_fn, NULL };

Test(verify, registered_verifiers_are_found_newest_first)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_verifier_register(&always_v), 0);
	cr_assert_eq(assay_verifier_find("always"), &always_v);
	cr_assert_eq(run(&v, &err, "output", str_v("x"), bytes("y"),
			 "{\"verifier\": \"always\", \"level\": 3}"), 0);
	cr_assert(v.is_correct);
	cr_assert_str_eq(diff_text(&v), "always");

	/* Same name as a built-in: the registered one wins. */
	cr_assert_eq(assay_verifier_find("exact"), &assay_verifier_exact);
	cr_assert_eq(assay_verifier_register(&exact_override), 0);
	cr_assert_eq(assay_verifier_find("exact"), &exact_override);
	cr_assert_eq(assay_verifier_find("text"), &assay_verifier_text);
}

Test(verify, register_refuses_nameless_or_fnless)
{
	static const assay_verifier noname = { "", always_fn, NULL };
	static const assay_verifier nofn = { "x", NULL, NULL };
	cr_assert_eq(assay_verifier_register(&noname), ASSAY_EINVALID);
	cr_assert_eq(assay_verifier_register(&nofn), ASSAY_EINVALID);
	cr_assert_eq(assay_verifier_register(NULL), ASSAY_EINVALID);
	cr_assert_null(assay_verifier_find("x"));
}

Test(verify, a_verifier_error_drops_its_partial_diff)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_verifier_register(&refuse_v), 0);
	cr_assert_eq(run(&v, &err, "output", str_v("x"), bytes("x"),
			 "{\"verifier\": \"refuse\"}"), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "no thanks");
	cr_assert_eq(v.diff.kind, ASSAY_V_NULL);
	cr_assert_not(v.is_correct);
}

Test(verify, a_verifier_error_without_a_message_gets_one)
{
	cr_assert_eq(assay_verifier_register(&silent_v), 0);
	refused(ASSAY_EINVALID, "verifier 'silent' failed on stderr", "stderr", str_v("x"),
		bytes("x"), "{\"verifier\": \"silent\"}");
}

Test(verify, the_verifier_gets_the_call_with_options_never_null)
{
	assay_verification v = ASSAY_VERIFICATION_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_actual a = bytes("x");
	assay_value e = str_v("x");
	assay_verify_call call = { "g", "c", "output", &e, &a, NULL, A, 12.5 };

	cr_assert_eq(assay_verifier_register(&spy_v), 0);
	/* No entry at all: exact runs, with the default weight. */
	cr_assert_eq(assay_verify_attribute(&v, &call, &err), 0);
	cr_assert(v.is_correct);

	assay_value opts = json_v("{\"verifier\": \"spy\", \"weight\": 2}");
	call.options = &opts;
	v = (assay_verification)ASSAY_VERIFICATION_INIT;
	cr_assert_eq(assay_verify_attribute(&v, &call, &err), 0, "%s", err.msg);
	cr_assert_eq(spied.arena, A);
	cr_assert_float_eq(spied.deadline, 12.5, 1e-12);
	cr_assert_eq(spied.expected, &e);
	cr_assert_eq(spied.actual, &a);
	cr_assert_str_eq(spied.attribute, "output");
	cr_assert_eq(spied_options, &opts);
	cr_assert_float_eq(v.weight, 2.0, 1e-12);
}

Test(verify, unknown_verifier_and_options_are_refused)
{
	refused(ASSAY_ENOTFOUND,
		"unknown verifier 'nope' (known: exact, text, contains, regex, json, jsonl, yaml, "
		"toml, ini, csv, tsv, numeric, json_fields, json_keys, json_schema, file, flexible, "
		"command; a plug-in's verifier needs its shared object loaded: --plugin PATH, or "
		"plugins: [PATH] in suite.yaml)",
		"output", str_v("x"), bytes("x"), "{\"verifier\": \"nope\"}");
	refused(ASSAY_ENOTFOUND,
		"unknown verifier 'jsonn' (did you mean 'json'? known: exact, text, contains, "
		"regex, json, jsonl, yaml, toml, ini, csv, tsv, numeric, json_fields, json_keys, "
		"json_schema, file, flexible, command)",
		"output", str_v("x"), bytes("x"), "{\"verifier\": \"jsonn\"}");
	refused(ASSAY_EINVALID, "unknown option 'x' for verifier 'text'", "output", str_v("x"),
		bytes("x"), "{\"verifier\": \"text\", \"x\": true}");
	refused(ASSAY_EINVALID, "unknown option 'strip' for verifier 'exact'", "output",
		str_v("x"), bytes("x"), "{\"strip\": true}");
	refused(ASSAY_EINVALID, "unknown option 'ignore_cse' for verifier 'contains' (did you mean "
		"'ignore_case'?)", "output",
		str_v("x"), bytes("x"), "{\"verifier\": \"contains\", \"ignore_cse\": true}");
	refused(ASSAY_EINVALID, "option 'verifier' must be a string", "output", str_v("x"),
		bytes("x"), "{\"verifier\": 3}");
	/* A key is compared by its length, not as a C string. */
	refused(ASSAY_EINVALID, "unknown option 'strip' for verifier 'text'", "output",
		str_v("x"), bytes("x"), "{\"verifier\": \"text\", \"strip\\u0000\": true}");
}

Test(verify, null_options_keep_their_defaults)
{
	/* verifier: null is exact, as if absent. */
	ok("output", str_v("x"), bytes("x"), "{\"verifier\": null}");
	bad("output", str_v("x"), bytes("X"), "{\"verifier\": null}", NULL);
	ok("output", str_v("x"), bytes("x"), "{\"verifier\": \"text\", \"strip\": null}");
	bad("output", str_v("x"), bytes(" x"), "{\"verifier\": \"text\", \"strip\": null}", NULL);
	ok("output", str_v("a.c"), bytes("abc"),
	   "{\"verifier\": \"regex\", \"match\": null, \"flags\": null}");
	bad("output", str_v("b"), bytes("abc"), "{\"verifier\": \"regex\", \"match\": null}",
	    "pattern did not match (full): b");
}

static double weight_of(const char *options)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, "output", str_v("x"), bytes("y"), options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	return v.weight;
}

Test(verify, weight_defaults_to_one_and_must_be_positive)
{
	cr_assert_float_eq(weight_of(NULL), 1.0, 1e-12);
	cr_assert_float_eq(weight_of("{\"weight\": 0.5}"), 0.5, 1e-12);
	cr_assert_float_eq(weight_of("{\"weight\": 2}"), 2.0, 1e-12);
	cr_assert_float_eq(weight_of("{\"verifier\": \"text\", \"weight\": 0.25}"), 0.25, 1e-12);
	cr_assert_float_eq(weight_of("{\"weight\": 100000000000000000000}"), 1e20, 1e8);
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got 0)", "output", str_v("x"),
		bytes("x"), "{\"weight\": 0}");
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got 0.0)", "output", str_v("x"),
		bytes("x"), "{\"weight\": 0.0}");
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got -1)", "output", str_v("x"),
		bytes("x"), "{\"weight\": -1}");
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got -100000000000000000000)",
		"output", str_v("x"), bytes("x"), "{\"weight\": -100000000000000000000}");
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got inf)", "output", str_v("x"),
		bytes("x"), "{\"weight\": Infinity}");
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got nan)", "output", str_v("x"),
		bytes("x"), "{\"weight\": NaN}");
	refused(ASSAY_EINVALID, "weight must be a number > 0", "output", str_v("x"), bytes("x"),
		"{\"weight\": \"x\"}");
	refused(ASSAY_EINVALID, "weight must be a number > 0", "output", str_v("x"), bytes("x"),
		"{\"weight\": true}");
	refused(ASSAY_EINVALID, "weight must be a number > 0", "output", str_v("x"), bytes("x"),
		"{\"weight\": null}");
}

Test(verify, check_without_running)
{
	const assay_verifier *v = NULL;
	double w = 0;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_verify_check(&v, &w, NULL, "output", &err), 0);
	cr_assert_eq(v, &assay_verifier_exact);
	cr_assert_float_eq(w, 1.0, 1e-12);

	assay_value o = json_v("{\"verifier\": \"regex\", \"weight\": 3, \"flags\": \"i\"}");
	cr_assert_eq(assay_verify_check(&v, &w, &o, "output", &err), 0);
	cr_assert_eq(v, &assay_verifier_regex);
	cr_assert_float_eq(w, 3.0, 1e-12);
	cr_assert_eq(assay_verify_check(NULL, NULL, &o, "output", &err), 0);

	assay_value list = json_v("[\"text\"]");
	cr_assert_eq(assay_verify_check(&v, &w, &list, "files-a.txt", &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "verify.files-a.txt must be a mapping");

	assay_err_clear(&err);
	assay_value unknown = json_v("{\"verifier\": \"text\", \"flags\": \"i\"}");
	cr_assert_eq(assay_verify_check(&v, &w, &unknown, "output", &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "unknown option 'flags' for verifier 'text'");
}

Test(verify, verification_init)
{
	assay_verification v = ASSAY_VERIFICATION_INIT;
	cr_assert_eq(v.diff.kind, ASSAY_V_NULL);
	cr_assert_not(v.is_correct);
	cr_assert_float_eq(v.weight, 1.0, 1e-12);
	cr_assert_not(v.budget);
}

Test(verify, option_readers)
{
	assay_value o = json_v("{\"b\": true, \"n\": 1, \"s\": \"str\", \"z\": null, "
			       "\"nul\": \"a\\u0000b\"}");
	assay_err err = ASSAY_ERR_INIT;
	bool b = false;
	const char *s = "default";

	cr_assert_eq(assay_verify_opt_bool(&o, "b", &b, &err), 0);
	cr_assert(b);
	b = false;
	cr_assert_eq(assay_verify_opt_bool(&o, "absent", &b, &err), 0);
	cr_assert_not(b);
	cr_assert_eq(assay_verify_opt_bool(&o, "z", &b, &err), 0);
	cr_assert_not(b);
	cr_assert_eq(assay_verify_opt_bool(&o, "n", &b, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'n' must be true or false");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_string(&o, "s", &s, &err), 0);
	cr_assert_str_eq(s, "str");
	cr_assert_eq(assay_verify_opt_string(&o, "absent", &s, &err), 0);
	cr_assert_str_eq(s, "str");
	cr_assert_eq(assay_verify_opt_string(&o, "z", &s, &err), 0);
	cr_assert_str_eq(s, "str");
	cr_assert_eq(assay_verify_opt_string(&o, "b", &s, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'b' must be a string");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_string(&o, "nul", &s, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'nul' must not contain a NUL byte");
	cr_assert_str_eq(s, "str");
}

Test(verify, number_option_reader)
{
	assay_value o = json_v("{\"i\": 2, \"r\": 0.5, \"big\": 100000000000000000000, "
			       "\"neg\": -1, \"nan\": NaN, \"inf\": Infinity, \"b\": true, "
			       "\"s\": \"1\", \"z\": null}");
	assay_err err = ASSAY_ERR_INIT;
	double d = 7;

	cr_assert_eq(assay_verify_opt_number(&o, "i", 0, &d, &err), 0);
	cr_assert_float_eq(d, 2.0, 1e-12);
	cr_assert_eq(assay_verify_opt_number(&o, "r", 0, &d, &err), 0);
	cr_assert_float_eq(d, 0.5, 1e-12);
	cr_assert_eq(assay_verify_opt_number(&o, "big", 0, &d, &err), 0);
	cr_assert_float_eq(d, 1e20, 1e8);
	d = 7;
	cr_assert_eq(assay_verify_opt_number(&o, "absent", 0, &d, &err), 0);
	cr_assert_eq(assay_verify_opt_number(&o, "z", 0, &d, &err), 0);
	cr_assert_float_eq(d, 7.0, 1e-12);
	cr_assert_eq(assay_verify_opt_number(&o, "neg", -1, &d, &err), 0);
	cr_assert_float_eq(d, -1.0, 1e-12);

	d = 7;
	cr_assert_eq(assay_verify_opt_number(&o, "neg", 0, &d, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'neg' must be a number >= 0 (got -1)");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_number(&o, "nan", 0, &d, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'nan' must be a number >= 0 (got nan)");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_number(&o, "inf", 0, &d, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'inf' must be a number >= 0 (got inf)");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_number(&o, "r", 1, &d, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'r' must be a number >= 1 (got 0.5)");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_number(&o, "b", 0, &d, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'b' must be a number");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_number(&o, "s", 0, &d, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 's' must be a number");
	cr_assert_float_eq(d, 7.0, 1e-12);
}

static void expect_text_n(assay_value e, const char *want, size_t want_len)
{
	assay_buf scratch = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;
	const char *p = NULL;
	size_t len = 0;

	cr_assert_eq(assay_verify_expected_text(&p, &len, &e, &scratch, "output", &err), 0,
		     "%s", err.msg);
	cr_assert_eq(len, want_len, "got '%.*s', want '%s'", (int)len, p, want);
	cr_assert(!memcmp(p, want, len), "got '%.*s', want '%s'", (int)len, p, want);
	assay_buf_release(&scratch);
}

static void expect_text(assay_value e, const char *want)
{
	expect_text_n(e, want, strlen(want));
}

Test(verify, expected_text_from_scalars)
{
	expect_text(str_v("hi\n"), "hi\n");
	expect_text(str_v(""), "");
	expect_text_n(strn_v("a\0b", 3), "a\0b", 3);
	/* A borrowed string is not NUL-terminated: its length is what counts. */
	expect_text(assay_value_string_ref("hello world", 5), "hello");
	expect_text(int_v(42), "42");
	expect_text(int_v(-7), "-7");
	expect_text(int_v(INT64_MIN), "-9223372036854775808");
	expect_text(integer_v("123456789012345678901234567890"), "123456789012345678901234567890");
	expect_text(integer_v("-99999999999999999999"), "-99999999999999999999");
	/* Reals as Python's repr. */
	expect_text(real_v(1.5), "1.5");
	expect_text(real_v(0.1), "0.1");
	expect_text(real_v(1.0), "1.0");
	expect_text(real_v(1e16), "1e+16");
	expect_text(real_v(1.5e-5), "1.5e-05");
	expect_text(real_v(-0.0), "-0.0");
	/* As Python's str(float), not JSON's NaN/Infinity. */
	expect_text(real_v(NAN), "nan");
	expect_text(real_v(-INFINITY), "-inf");
	expect_text(bool_v(true), "true");
	expect_text(bool_v(false), "false");
	expect_text(assay_value_datetime(A, ASSAY_DT_DATE, "2024-01-31", 10), "2024-01-31");
}

Test(verify, expected_text_refuses_structures)
{
	assay_value bad_values[] = { null_v(), json_v("[]"), json_v("{}") };
	for (size_t i = 0; i < 3; i++) {
		assay_buf scratch = ASSAY_BUF_INIT;
		assay_err err = ASSAY_ERR_INIT;
		const char *p;
		size_t len;
		cr_assert_eq(assay_verify_expected_text(&p, &len, &bad_values[i], &scratch,
							"stderr", &err), ASSAY_EINVALID);
		cr_assert_str_eq(err.msg, "expected stderr must be a string for a text verifier; "
					  "use verifier json for structured values");
		assay_buf_release(&scratch);
	}
	assay_buf scratch = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;
	const char *p;
	size_t len;
	cr_assert_eq(assay_verify_expected_text(&p, &len, NULL, &scratch, "stderr", &err),
		     ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "expected stderr is missing");
}

/*
 * exact
 */

Test(exact, equal_bytes_pass)
{
	ok("output", str_v("hello\n"), bytes("hello\n"), NULL);
	ok("output", str_v(""), bytes(""), NULL);
	ok("output", strn_v("a\0b", 3), bytes_n("a\0b", 3), NULL);
	ok("output", int_v(42), bytes("42"), NULL);
	ok("output", real_v(2.5), bytes("2.5"), NULL);
	ok("output", real_v(3.0), bytes("3.0"), NULL);
	ok("output", bool_v(true), bytes("true"), NULL);
	ok("output", str_v(""), bytes_n(NULL, 0), NULL);
}

Test(exact, bigint_expected_is_its_digits)
{
	ok("output", integer_v("123456789012345678901234567890"),
	   bytes("123456789012345678901234567890"), NULL);
	bad("output", integer_v("123456789012345678901234567890"),
	    bytes("1.2345678901234568e+29"), NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-123456789012345678901234567890\n"
	    "\\ No newline at end of file\n+1.2345678901234568e+29\n"
	    "\\ No newline at end of file\n");
	/* No string imitates a number any more: this one is only text. */
	ok("output", strn_v("\0assay-number:1", 15), bytes_n("\0assay-number:1", 15), NULL);
}

Test(exact, different_bytes_give_a_unified_diff)
{
	bad("output", str_v("hello\n"), bytes("world\n"), NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-hello\n+world\n");
	bad("output", str_v("a\nb\nc\n"), bytes("a\nB\nc\n"), NULL,
	    "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
	bad("output", str_v("one"), bytes("two"), NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-one\n\\ No newline at end of file\n"
	    "+two\n\\ No newline at end of file\n");
	bad("output", str_v("x\n"), bytes("x"), NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n");
	bad("output", str_v(""), bytes("out\n"), NULL,
	    "--- expected\n+++ actual\n@@ -0,0 +1 @@\n+out\n");
}

Test(exact, truncated_actual_is_noted)
{
	assay_actual a = bytes("abc\n");
	a.truncated = true;
	bad("output", str_v("abcdef\n"), a, NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-abcdef\n+abc\n"
	    "(actual output was truncated at its cap)\n");
}

Test(exact, diff_is_valid_utf8)
{
	assay_verification v;
	const char *d = diff_of(&v, "output", str_v("caf\xc3\xa9\n"), bytes("caf\xe9\n"), NULL);
	cr_assert_str_eq(d, "--- expected\n+++ actual\n@@ -1 +1 @@\n-caf\xc3\xa9\n"
			    "+caf\xef\xbf\xbd\n");
	/* A cut sequence is one U+FFFD; an encoded surrogate is three, as Python decodes it. */
	d = diff_of(&v, "output", str_v("x\n"), bytes("\xe2\x82\n\xed\xa0\x80\n"), NULL);
	cr_assert_str_eq(d, "--- expected\n+++ actual\n@@ -1 +1,2 @@\n-x\n+\xef\xbf\xbd\n"
			    "+\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\n");
}

Test(exact, the_diff_lives_in_the_call_arena)
{
	assay_verification v;
	size_t before = assay_arena_used(A);
	const char *d = diff_of(&v, "output", str_v("a\n"), bytes("b\n"), NULL);
	cr_assert_gt(assay_arena_used(A), before);
	cr_assert_str_eq(d, "--- expected\n+++ actual\n@@ -1 +1 @@\n-a\n+b\n");
}

Test(exact, long_diffs_are_capped)
{
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT;
	assay_verification v;

	for (int i = 0; i < 20000; i++) {
		assay_buf_addf(&e, "expected line %d\n", i);
		assay_buf_addf(&a, "actual line %d\n", i);
	}
	const char *d = diff_of(&v, "output", strn_v(e.ptr, e.len), bytes_n(a.ptr, a.len), NULL);
	size_t len = strlen(d);
	const char tail[] = "\n... (diff truncated)\n";
	cr_assert_leq(len, 64 * 1024 + sizeof(tail));
	cr_assert_gt(len, 60 * 1024);
	cr_assert_str_eq(d + len - (sizeof(tail) - 1), tail);
	cr_assert(!strncmp(d, "--- expected\n+++ actual\n@@ -1,20000 +1,20000 @@\n-expected "
			      "line 0\n", 60));
	assay_buf_release(&e);
	assay_buf_release(&a);
}

Test(exact, a_huge_line_is_cut_inside_not_dropped)
{
	assay_buf a = ASSAY_BUF_INIT;
	assay_verification v;

	for (int i = 0; i < 200000; i++)
		assay_buf_addch(&a, 'x');
	const char *d = diff_of(&v, "output", str_v("x"), bytes_n(a.ptr, a.len), NULL);
	cr_assert(strstr(d, "\n+xxxxxxxxxx"), "the start of the actual line must show:\n%.200s", d);
	cr_assert_leq(strlen(d), 64 * 1024 + 64);
	assay_buf_release(&a);
}

Test(exact, a_huge_line_is_cut_on_a_character_boundary)
{
	assay_buf a = ASSAY_BUF_INIT;
	assay_verification v;

	for (int i = 0; i < 100000; i++)
		assay_buf_adds(&a, "\xc3\xa9");
	const char *d = diff_of(&v, "output", str_v("x"), bytes_n(a.ptr, a.len), NULL);
	cr_assert_null(strstr(d, "\xef\xbf\xbd"), "no character cut in two");
	cr_assert(strstr(d, "\xc3\xa9\n... (diff truncated)\n"));
	assay_buf_release(&a);
}

Test(exact, missing_file_fails)
{
	bad("files-out.txt", str_v("x"), missing(), NULL, "file was not produced");
	refused(ASSAY_EINVALID, NULL, "files-out.txt", json_v("{}"), missing(), NULL);
}

Test(exact, structured_expected_is_refused)
{
	refused(ASSAY_EINVALID,
		"expected output must be a string for a text verifier; use verifier json for "
		"structured values",
		"output", json_v("{\"a\": 1}"), bytes("{\"a\": 1}"), NULL);
	refused(ASSAY_EINVALID, NULL, "output", null_v(), bytes(""), NULL);
}

Test(exact, status_code)
{
	ok("status_code", int_v(0), integer(0), NULL);
	ok("status_code", int_v(-1), integer(-1), NULL);
	ok("status_code", int_v(INT64_MIN), integer(INT64_MIN), NULL);
	bad("status_code", int_v(3), integer(0), NULL, "expected 3, got 0");
	bad("status_code", int_v(0), integer(-1), NULL, "expected 0, got -1");
	ok("status_code", real_v(3.0), integer(3), NULL);
	bad("status_code", real_v(3.5), integer(3), NULL, "expected 3.5, got 3");
}

Test(exact, status_code_against_a_bigint)
{
	/* Compared exactly, not as doubles: no status equals a number beyond int64. */
	bad("status_code", integer_v("99999999999999999999"), integer(0), NULL,
	    "expected 99999999999999999999, got 0");
	bad("status_code", integer_v("9223372036854775808"), integer(INT64_MAX), NULL,
	    "expected 9223372036854775808, got 9223372036854775807");
	bad("status_code", integer_v("-9223372036854775809"), integer(INT64_MIN), NULL,
	    "expected -9223372036854775809, got -9223372036854775808");
}

Test(exact, status_code_nonzero)
{
	ok("status_code", str_v("nonzero"), integer(2), NULL);
	ok("status_code", str_v("nonzero"), integer(-1), NULL);
	bad("status_code", str_v("nonzero"), integer(0), NULL, "expected nonzero, got 0");
	refused(ASSAY_EINVALID, NULL, "status_code", str_v("nonzero "), integer(1), NULL);
}

Test(exact, status_code_as_digit_string)
{
	ok("status_code", str_v("3"), integer(3), NULL);
	ok("status_code", str_v("-1"), integer(-1), NULL);
	ok("status_code", str_v("007"), integer(7), NULL);
	ok("status_code", str_v("-9223372036854775808"), integer(INT64_MIN), NULL);
	bad("status_code", str_v("3"), integer(4), NULL, "expected 3, got 4");
	/* Past int64, a digit string is the same number unquoted: a bigint. */
	bad("status_code", str_v("99999999999999999999"), integer(0), NULL,
	    "expected 99999999999999999999, got 0");
	refused(ASSAY_EINVALID, "expected status_code must be an integer or \"nonzero\"",
		"status_code", str_v("x3"), integer(3), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", str_v(""), integer(0), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", str_v("-"), integer(0), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", str_v(" 3"), integer(3), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", str_v("+3"), integer(3), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", strn_v("3\0", 2), integer(3), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", bool_v(true), integer(1), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", null_v(), integer(0), NULL);
}

Test(exact, execution_time_is_a_maximum)
{
	ok("execution_time", int_v(2), real(1.5), NULL);
	ok("execution_time", real_v(1.5), real(1.5), NULL);
	ok("execution_time", str_v("2.5"), real(1.5), NULL);
	ok("execution_time", integer_v("100000000000000000000"), real(1e6), NULL);
	bad("execution_time", int_v(2), real(2.5), NULL, "expected at most 2, got 2.5");
	bad("execution_time", real_v(0.1), real(0.30000000000000004), NULL,
	    "expected at most 0.1, got 0.30000000000000004");
	refused(ASSAY_EINVALID, "expected execution_time must be a number", "execution_time",
		json_v("[]"), real(1.0), NULL);
	refused(ASSAY_EINVALID, NULL, "execution_time", str_v("2s"), real(1.0), NULL);
	refused(ASSAY_EINVALID, NULL, "execution_time", str_v(""), real(1.0), NULL);
	refused(ASSAY_EINVALID, NULL, "execution_time", bool_v(true), real(1.0), NULL);
}

Test(exact, max_rss_is_a_maximum)
{
	ok("max_rss", int_v(2000), integer(1000), NULL);
	ok("max_rss", int_v(2000), integer(2000), NULL);
	ok("max_rss", real_v(1e9), integer(5000000), NULL);
	ok("max_rss", str_v("2000"), integer(2000), NULL);
	bad("max_rss", int_v(2000), integer(3000), NULL, "expected at most 2000, got 3000");
	bad("max_rss", real_v(1e3), integer(3000), NULL, "expected at most 1e+03, got 3000");
	refused(ASSAY_EINVALID, "expected max_rss must be an integer", "max_rss",
		str_v("nonzero"), integer(1), NULL);
}

Test(exact, max_rss_against_a_bigint)
{
	ok("max_rss", integer_v("100000000000000000000"), integer(INT64_MAX), NULL);
	bad("max_rss", integer_v("-100000000000000000000"), integer(INT64_MIN), NULL,
	    "expected at most -100000000000000000000, got -9223372036854775808");
}

/*
 * text
 */

#define TEXT_ICASE "{\"verifier\": \"text\", \"ignore_case\": true}"
#define TEXT_STRIP "{\"verifier\": \"text\", \"strip\": true}"
#define TEXT_COLLAPSE "{\"verifier\": \"text\", \"collapse_whitespace\": true}"

Test(text, plain_text_is_exact)
{
	ok("output", str_v("a b\n"), bytes("a b\n"), "{\"verifier\": \"text\"}");
	bad("output", str_v("a b\n"), bytes("a b"), "{\"verifier\": \"text\"}",
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-a b\n+a b\n\\ No newline at end of file\n");
}

Test(text, strip)
{
	ok("output", str_v("hi"), bytes("  hi \n\n"), TEXT_STRIP);
	ok("output", str_v("\thi\n"), bytes("hi"), TEXT_STRIP);
	ok("output", str_v(""), bytes(" \n\t"), TEXT_STRIP);
	bad("output", str_v("hi"), bytes("  hi \n"), "{\"verifier\": \"text\"}", NULL);
	/* Inside the text, whitespace still counts. */
	bad("output", str_v("a b"), bytes(" a  b "), TEXT_STRIP,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-a b\n\\ No newline at end of file\n"
	    "+a  b\n\\ No newline at end of file\n");
}

Test(text, strip_is_pythons_str_strip)
{
	/* U+00A0, U+2003, U+3000, U+0085, U+2028 and \x1c-\x1f are white space to Python. */
	ok("output", str_v("hi"), bytes("\xc2\xa0hi\xe2\x80\x83"), TEXT_STRIP);
	ok("output", str_v("hi"), bytes("\xe3\x80\x80 hi \xe3\x80\x80\n"), TEXT_STRIP);
	ok("output", str_v("hi"), bytes("\x1c\x1d\x1e\x1fhi\xc2\x85\xe2\x80\xa8"), TEXT_STRIP);
	ok("output", str_v("\xe3\x80\x80hi"), bytes("hi\xc2\xa0"), TEXT_STRIP);
	/* Not white space: U+200B (a format character), U+FEFF, U+180E. */
	bad("output", str_v("hi"), bytes("\xe2\x80\x8bhi"), TEXT_STRIP, NULL);
	bad("output", str_v("hi"), bytes("hi\xef\xbb\xbf"), TEXT_STRIP, NULL);
	bad("output", str_v("hi"), bytes("\xe1\xa0\x8ehi"), TEXT_STRIP, NULL);
	/* A lone 0xa0 byte is not UTF-8, so not a no-break space: kept (shown as U+FFFD). */
	bad("output", str_v("hi"), bytes("hi\xa0"), TEXT_STRIP,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-hi\n\\ No newline at end of file\n"
	    "+hi\xef\xbf\xbd\n\\ No newline at end of file\n");
	/* Nor is a cut sequence of one. */
	bad("output", str_v("hi"), bytes("hi\xe3\x80"), TEXT_STRIP, NULL);
}

Test(text, ignore_case)
{
	ok("output", str_v("Hello World\n"), bytes("hELLO wORLD\n"), TEXT_ICASE);
	bad("output", str_v("Hello\n"), bytes("hello\n"), "{\"verifier\": \"text\"}", NULL);
	/* The diff shows the normalised texts. */
	bad("output", str_v("Hello\nWorld\n"), bytes("HELLO\nThere\n"), TEXT_ICASE,
	    "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n");
}

Test(text, ignore_case_folds_unicode_as_python)
{
	/* Issue 5: café and CAFÉ match, as 'café'.casefold() == 'CAFÉ'.casefold(). */
	ok("output", str_v("caf\xc3\xa9"), bytes("CAF\xc3\x89"), TEXT_ICASE);
	/* ß folds to ss (and ẞ too), ﬁ to fi. */
	ok("output", str_v("STRASSE"), bytes("Stra\xc3\x9f" "e"), TEXT_ICASE);
	ok("output", str_v("\xe1\xba\x9e"), bytes("ss"), TEXT_ICASE);
	ok("output", str_v("FILE"), bytes("\xef\xac\x81le"), TEXT_ICASE);
	/* Σ, σ and final ς all fold to σ. */
	ok("output", str_v("\xce\x9f\xce\x94\xce\x9f\xce\xa3"),
	   bytes("\xce\xbf\xce\xb4\xce\xbf\xcf\x82"), TEXT_ICASE);
	/* Turkish: İ folds to i + U+0307 and dotless ı stays itself, as in Python. */
	ok("output", str_v("\xc4\xb0"), bytes("i\xcc\x87"), TEXT_ICASE);
	bad("output", str_v("\xc4\xb0"), bytes("i"), TEXT_ICASE, NULL);
	bad("output", str_v("I"), bytes("\xc4\xb1"), TEXT_ICASE, NULL);
	/* Cherokee folds to its capitals; Georgian Mtavruli to Mkhedruli; fullwidth letters. */
	ok("output", str_v("\xea\xad\xb0"), bytes("\xe1\x8e\xa0"), TEXT_ICASE);
	ok("output", str_v("\xe1\xb2\x90"), bytes("\xe1\x83\x90"), TEXT_ICASE);
	ok("output", str_v("\xef\xbc\xa1"), bytes("\xef\xbd\x81"), TEXT_ICASE);
	/* No normalisation: e + U+0301 is not é (Python agrees). */
	bad("output", str_v("\xc3\xa9"), bytes("e\xcc\x81"), TEXT_ICASE, NULL);
	/* The diff shows folded text. */
	bad("output", str_v("Stra\xc3\x9f" "e\n"), bytes("STRASSE\nX\n"), TEXT_ICASE,
	    "--- expected\n+++ actual\n@@ -1 +1,2 @@\n strasse\n+x\n");
}

Test(text, ignore_case_keeps_invalid_bytes)
{
	/* Invalid UTF-8 in the output does not stop folding: valid runs fold, bad bytes stay. */
	ok("output", strn_v("\xff" "CAF\xc3\x89\xc3", 7), bytes("\xff" "caf\xc3\xa9\xc3"),
	   TEXT_ICASE);
	bad("output", str_v("CAF\xc3\x89 OK"), bytes("caf\xc3\xa9\xff ok"), TEXT_ICASE,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-caf\xc3\xa9 ok\n\\ No newline at end of file\n"
	    "+caf\xc3\xa9\xef\xbf\xbd ok\n\\ No newline at end of file\n");
	/* A byte that is not UTF-8 is not the Latin-1 letter it would be: 0xc9 is not É. */
	bad("output", str_v("\xc3\xa9"), bytes("\xc9"), TEXT_ICASE, NULL);
}

Test(text, collapse_whitespace)
{
	ok("output", str_v("a b c\n"), bytes("a  b\t\tc\n"), TEXT_COLLAPSE);
	ok("output", str_v("a b"), bytes("a\n\n b"), TEXT_COLLAPSE);
	bad("output", str_v("a b"), bytes("ab"), TEXT_COLLAPSE, NULL);
	/* Ends are kept as one space each unless strip is on too. */
	bad("output", str_v("a"), bytes("  a"), TEXT_COLLAPSE, NULL);
	bad("output", str_v("a b"), bytes("a b "), TEXT_COLLAPSE,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-a b\n\\ No newline at end of file\n"
	    "+a b \n\\ No newline at end of file\n");
	ok("output", str_v("a b"), bytes("  a \n b\n"),
	   "{\"verifier\": \"text\", \"collapse_whitespace\": true, \"strip\": true}");
}

Test(text, collapse_whitespace_is_pythons_white_space)
{
	ok("output", str_v("a b c d"), bytes("a\xe3\x80\x80 b\xc2\xa0\xc2\xa0" "c\x1f" "d"),
	   TEXT_COLLAPSE);
	ok("output", str_v("a b"), bytes("a\xe2\x80\x83\xe2\x80\xa9\t b"), TEXT_COLLAPSE);
	/* U+200B is not white space; invalid bytes are not either. */
	bad("output", str_v("a b"), bytes("a\xe2\x80\x8b" "b"), TEXT_COLLAPSE, NULL);
	bad("output", str_v("a b"), bytes("a\xa0" "b"), TEXT_COLLAPSE, NULL);
	/* White space right after an invalid byte is still white space. */
	ok("output", strn_v("a\xe3 b", 4), bytes("a\xe3\xe3\x80\x80\xe3\x80\x80 b"),
	   TEXT_COLLAPSE);
}

Test(text, all_options_together)
{
	const char *all = "{\"verifier\": \"text\", \"strip\": true, \"ignore_case\": true, "
			  "\"collapse_whitespace\": true, \"ignore_trailing_newline\": true}";
	ok("output", str_v("Gr\xc3\xbc\xc3\x9f" "e aus K\xc3\xb6ln"),
	   bytes("\xe3\x80\x80GR\xc3\x9c\xe1\xba\x9e" "E \xc2\xa0 AUS\tK\xc3\x96LN \r\n"), all);
	bad("output", str_v("Gr\xc3\xbc\xc3\x9f" "e"), bytes("GRUSSE\n"), all,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-gr\xc3\xbcsse\n"
	    "\\ No newline at end of file\n+grusse\n\\ No newline at end of file\n");
}

Test(text, ignore_trailing_newline)
{
	const char *o = "{\"verifier\": \"text\", \"ignore_trailing_newline\": true}";
	ok("output", str_v("x"), bytes("x\n"), o);
	ok("output", str_v("x\n"), bytes("x"), o);
	ok("output", str_v("x"), bytes("x\r\n"), o);
	bad("output", str_v("x"), bytes("x\n\n"), o,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n");
	bad("output", str_v("x"), bytes(" x\n"), o, NULL);
	/* Only "\n": a final U+2028 is white space, not a newline. */
	bad("output", str_v("x"), bytes("x\xe2\x80\xa8"), o, NULL);
}

Test(text, bad_option_values_are_refused)
{
	refused(ASSAY_EINVALID, "option 'strip' must be true or false", "output", str_v("x"),
		bytes("x"), "{\"verifier\": \"text\", \"strip\": \"yes\"}");
	refused(ASSAY_EINVALID, "option 'ignore_case' must be true or false", "output",
		str_v("x"), bytes("x"), "{\"verifier\": \"text\", \"ignore_case\": 1}");
	refused(ASSAY_EINVALID, NULL, "output", json_v("[1]"), bytes("x"),
		"{\"verifier\": \"text\"}");
}

Test(text, missing_file_and_numbers)
{
	bad("files-a", str_v("x"), missing(), "{\"verifier\": \"text\"}", "file was not produced");
	ok("status_code", str_v("0"), integer(0), "{\"verifier\": \"text\"}");
	ok("status_code", int_v(0), integer(0), "{\"verifier\": \"text\"}");
	ok("execution_time", str_v("1.5"), real(1.5), "{\"verifier\": \"text\"}");
	/* Reals of the actual value are their shortest %g text. */
	ok("execution_time", str_v("2"), real(2.0), "{\"verifier\": \"text\"}");
	ok("output", integer_v("-123456789012345678901234567890"),
	   bytes("-123456789012345678901234567890\n"), TEXT_STRIP);
}

/*
 * contains
 */

#define CONTAINS "{\"verifier\": \"contains\"}"
#define CONTAINS_ICASE "{\"verifier\": \"contains\", \"ignore_case\": true}"

Test(contains, substring)
{
	ok("output", str_v("needle"), bytes("hay needle hay"), CONTAINS);
	ok("output", str_v(""), bytes("anything"), CONTAINS);
	ok("output", str_v(""), bytes(""), CONTAINS);
	ok("output", strn_v("a\0b", 3), bytes_n("x a\0b y", 7), CONTAINS);
	bad("output", str_v("Needle"), bytes("hay needle hay"), CONTAINS, NULL);
	ok("output", str_v("Needle"), bytes("hay needle hay"), CONTAINS_ICASE);
	ok("output", int_v(42), bytes("answer: 42\n"), CONTAINS);
	ok("status_code", str_v("2"), integer(127), CONTAINS);
}

Test(contains, ignore_case_folds_unicode_as_python)
{
	ok("output", str_v("CAF\xc3\x89"), bytes("un caf\xc3\xa9 noir"), CONTAINS_ICASE);
	ok("output", str_v("STRASSE"), bytes("die Stra\xc3\x9f" "e ist lang"), CONTAINS_ICASE);
	ok("output", str_v("\xc3\x9f"), bytes("SS"), CONTAINS_ICASE);
	/* As 's' in 'ß'.casefold() is true in Python. */
	ok("output", str_v("s"), bytes("\xc3\x9f"), CONTAINS_ICASE);
	ok("output", str_v("\xcf\x82"), bytes("\xce\xa3"), CONTAINS_ICASE);
	ok("output", str_v("\xef\xac\x81"), bytes("FI"), CONTAINS_ICASE);
	bad("output", str_v("\xc3\xa9"), bytes("E"), CONTAINS_ICASE, NULL);
	/* Invalid bytes around do not stop the search, and are never folded. */
	ok("output", str_v("CAF\xc3\x89"), bytes("\xff\xfe" "caf\xc3\xa9\xc3"), CONTAINS_ICASE);
	ok("output", strn_v("\xff" "A", 2), bytes("x\xff" "a"), CONTAINS_ICASE);
	bad("output", strn_v("\xc9", 1), bytes("\xe9"), CONTAINS_ICASE, NULL);
}

Test(contains, failure_shows_an_excerpt)
{
	bad("output", str_v("total: 42\n"), bytes("items: 3\ntotal: 41\n"), CONTAINS,
	    "expected text not found in actual\nexpected: \"total: 42\\n\"\n"
	    "actual from byte 9 (where the first 8 bytes of expected are found): "
	    "\"total: 41\\n\"\n");
	bad("output", str_v("zzz"), bytes("abc\tdef"), CONTAINS,
	    "expected text not found in actual\nexpected: \"zzz\"\nactual: \"abc\\tdef\"\n");
	assay_actual a = bytes("abc");
	a.truncated = true;
	bad("output", str_v("zzz"), a, CONTAINS,
	    "expected text not found in actual\nexpected: \"zzz\"\nactual: \"abc\"\n"
	    "(actual output was truncated at its cap)\n");
	bad("files-x", str_v("x"), missing(), CONTAINS, "file was not produced");
}

Test(contains, folded_failure_points_into_the_texts_as_given)
{
	/* Offsets and counts are of the unfolded texts. */
	bad("output", str_v("STRASSE 9"), bytes("x Stra\xc3\x9f" "e 8"), CONTAINS_ICASE,
	    "expected text not found in actual\nexpected: \"STRASSE 9\"\n"
	    "actual from byte 2 (where the first 8 bytes of expected are found): "
	    "\"Stra\xc3\x9f" "e 8\"\n");
	bad("output", str_v("\xc3\x89T\xc3\x89!"), bytes("un \xc3\xa9t\xc3\xa9?"), CONTAINS_ICASE,
	    "expected text not found in actual\nexpected: \"\xc3\x89T\xc3\x89!\"\n"
	    "actual from byte 3 (where the first 5 bytes of expected are found): "
	    "\"\xc3\xa9t\xc3\xa9?\"\n");
	/* The match starts inside the fold of ß: the excerpt starts at the ß. */
	bad("output", str_v("SX"), bytes("a\xc3\x9fy"), CONTAINS_ICASE,
	    "expected text not found in actual\nexpected: \"SX\"\n"
	    "actual from byte 1 (where the first 1 bytes of expected are found): "
	    "\"\xc3\x9fy\"\n");
	/* Only part of the fold of ß was found: no whole character, so no place to show. */
	bad("output", str_v("\xc3\x9fX"), bytes("s!"), CONTAINS_ICASE,
	    "expected text not found in actual\nexpected: \"\xc3\x9fX\"\nactual: \"s!\"\n");
}

Test(contains, long_excerpts_are_cut)
{
	assay_buf a = ASSAY_BUF_INIT;
	assay_verification v;

	for (int i = 0; i < 100; i++)
		assay_buf_adds(&a, "0123456789");
	const char *d = diff_of(&v, "output", str_v("xyz"), bytes_n(a.ptr, a.len), CONTAINS);
	cr_assert_not_null(strstr(d, "\"... (1000 bytes)\n"), "%s", d);
	cr_assert_lt(strlen(d), 400);
	assay_buf_release(&a);
}

Test(contains, excerpts_are_valid_utf8)
{
	bad("output", str_v("zzz"), bytes("a\xff\x1b[2J"), CONTAINS,
	    "expected text not found in actual\nexpected: \"zzz\"\n"
	    "actual: \"a\xef\xbf\xbd\\x1b[2J\"\n");
}

/*
 * regex
 */

#define REGEX "{\"verifier\": \"regex\"}"
#define REGEX_SEARCH "{\"verifier\": \"regex\", \"match\": \"search\"}"

Test(regex, full_is_the_default)
{
	ok("output", str_v("\\d+"), bytes("123"), REGEX);
	ok("output", str_v("a|ab"), bytes("ab"), REGEX);
	bad("output", str_v("\\d+"), bytes("123a"), REGEX, "pattern did not match (full): \\d+");
	bad("output", str_v("\\d+"), bytes("a123"),
	    "{\"verifier\": \"regex\", \"match\": \"full\"}", "pattern did not match (full): \\d+");
	/* $ would accept a final newline; full does not. */
	bad("output", str_v("ok"), bytes("ok\n"), REGEX, NULL);
	ok("output", str_v("ok\\n"), bytes("ok\n"), REGEX);
}

Test(regex, prefix)
{
	const char *o = "{\"verifier\": \"regex\", \"match\": \"prefix\"}";
	ok("output", str_v("\\d+"), bytes("123abc"), o);
	bad("output", str_v("\\d+"), bytes("abc123"), o, "pattern did not match (prefix): \\d+");
}

Test(regex, search)
{
	ok("output", str_v("\\d+"), bytes("abc123def"), REGEX_SEARCH);
	bad("output", str_v("\\d+"), bytes("abcdef"), REGEX_SEARCH,
	    "pattern did not match (search): \\d+");
}

Test(regex, bad_match_mode_is_refused)
{
	refused(ASSAY_EINVALID, "option 'match' must be full, prefix or search (got 'all')",
		"output", str_v("x"), bytes("x"), "{\"verifier\": \"regex\", \"match\": \"all\"}");
	refused(ASSAY_EINVALID, "option 'match' must be a string", "output", str_v("x"),
		bytes("x"), "{\"verifier\": \"regex\", \"match\": true}");
}

Test(regex, flag_i)
{
	ok("output", str_v("abc"), bytes("ABC"), "{\"verifier\": \"regex\", \"flags\": \"i\"}");
	bad("output", str_v("abc"), bytes("ABC"), REGEX, NULL);
	/* Caseless matching is Unicode-aware. */
	ok("output", str_v("\xc3\xa9t\xc3\xa9"), bytes("\xc3\x89T\xc3\x89"),
	   "{\"verifier\": \"regex\", \"flags\": \"i\"}");
}

Test(regex, flag_m)
{
	const char *with = "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": \"m\"}";
	ok("output", str_v("^b$"), bytes("a\nb\nc"), with);
	bad("output", str_v("^b$"), bytes("a\nb\nc"), REGEX_SEARCH, NULL);
}

Test(regex, flag_s)
{
	ok("output", str_v("a.b"), bytes("a\nb"), "{\"verifier\": \"regex\", \"flags\": \"s\"}");
	bad("output", str_v("a.b"), bytes("a\nb"), REGEX, NULL);
}

Test(regex, flag_x)
{
	ok("output", str_v("a b  c # letters"), bytes("abc"),
	   "{\"verifier\": \"regex\", \"flags\": \"x\"}");
	bad("output", str_v("a b c"), bytes("abc"), REGEX, NULL);
}

Test(regex, flags_as_a_list_or_a_string)
{
	ok("output", str_v("^B$"), bytes("a\nb\nc"),
	   "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": [\"i\", \"m\"]}");
	ok("output", str_v("^B$"), bytes("a\nb\nc"),
	   "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": \"mi\"}");
	ok("output", str_v("abc"), bytes("abc"), "{\"verifier\": \"regex\", \"flags\": []}");
	ok("output", str_v("abc"), bytes("abc"), "{\"verifier\": \"regex\", \"flags\": \"\"}");
}

Test(regex, unknown_flags_are_refused)
{
	refused(ASSAY_EINVALID, "unknown regex flag 'q' (use i, m, s, x)", "output", str_v("x"),
		bytes("x"), "{\"verifier\": \"regex\", \"flags\": \"iq\"}");
	refused(ASSAY_EINVALID, "unknown regex flag 'g' (use i, m, s, x)", "output", str_v("x"),
		bytes("x"), "{\"verifier\": \"regex\", \"flags\": [\"g\"]}");
	refused(ASSAY_EINVALID, "unknown regex flag byte 0x00 (use i, m, s, x)", "output",
		str_v("x"), bytes("x"), "{\"verifier\": \"regex\", \"flags\": \"i\\u0000\"}");
	refused(ASSAY_EINVALID,
		"option 'flags' must be a string of letters or a list of letters (i, m, s, x)",
		"output", str_v("x"), bytes("x"), "{\"verifier\": \"regex\", \"flags\": 1}");
	refused(ASSAY_EINVALID, NULL, "output", str_v("x"), bytes("x"),
		"{\"verifier\": \"regex\", \"flags\": [1]}");
}

Test(regex, bad_pattern_is_refused_with_pcre2_message)
{
	refused(ASSAY_EINVALID, "regex does not compile at offset 4: missing closing parenthesis",
		"output", str_v("(abc"), bytes("abc"), REGEX);
	refused(ASSAY_EINVALID,
		"regex does not compile at offset 2: quantifier does not follow a repeatable item",
		"output", str_v("a**"), bytes("abc"), REGEX);
	/* Refused even when there is nothing to match against. */
	refused(ASSAY_EINVALID, NULL, "files-x", str_v("("), missing(), REGEX);
}

Test(regex, invalid_utf8_subjects_are_matched_not_refused)
{
	ok("output", str_v("abc"), bytes("\xff\xfe" "abc\xc3"), REGEX_SEARCH);
	bad("output", str_v("x"), bytes("\xff\xfe"), REGEX_SEARCH,
	    "pattern did not match (search): x");
	/* An invalid byte is not a character: . does not match it. */
	bad("output", str_v("a.c"), bytes("a\xff" "c"), REGEX, NULL);
	ok("output", str_v("a.c"), bytes("a\xc3\xa9" "c"), REGEX);
	/* Caseless, anchored and class matching all work between invalid bytes. */
	ok("output", str_v("caf\xc3\xa9"), bytes("\xff" "CAF\xc3\x89\xfe"),
	   "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": \"i\"}");
	ok("output", str_v("^\\w+$"), bytes("\xed\xa0\x80\nh\xc3\xa9llo\n\xc0\xaf"),
	   "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": \"m\"}");
	bad("output", str_v("\\w+"), bytes("ab\xe2\x82" "cd"), REGEX, NULL);
}

Test(regex, full_and_prefix_hold_across_invalid_bytes)
{
	const char *prefix = "{\"verifier\": \"regex\", \"match\": \"prefix\"}";
	/* PCRE2 alone would pass each of these on the run before or after the bad byte. */
	bad("output", str_v("OK"), bytes("\xff" "OK"), REGEX, "pattern did not match (full): OK");
	bad("output", str_v("OK"), bytes("OK\xff"), REGEX, NULL);
	bad("output", str_v("(?s).*"), bytes("ab\xff" "cd"), REGEX, NULL);
	bad("output", str_v(""), bytes("\xff"), REGEX, NULL);
	bad("output", str_v("cd"), bytes("ab\xff" "cd"), prefix, NULL);
	bad("output", str_v("\\d+$"), bytes("12\xff"), prefix, NULL);
	ok("output", str_v("ab"), bytes("ab\xff" "cd"), prefix);
	ok("output", str_v("cd"), bytes("ab\xff" "cd"), REGEX_SEARCH);
	/* \K moves the reported start, not where the match began. */
	ok("output", str_v("ab\\Kcd"), bytes("abcdxx"), prefix);
	ok("output", str_v("ab\\Kcd"), bytes("abcd"), REGEX);
}

Test(regex, classes_are_unicode_aware)
{
	ok("output", str_v("\\w+"), bytes("h\xc3\xa9llo"), REGEX);
	ok("output", str_v("\\d"), bytes("\xd9\xa3"), REGEX);
	ok("output", str_v("a\\sb"), bytes("a\xe3\x80\x80" "b"), REGEX);
}

Test(regex, on_numbers_and_missing_files)
{
	ok("status_code", str_v("[12]"), integer(2), REGEX);
	bad("status_code", str_v("[12]"), integer(0), REGEX, "pattern did not match (full): [12]");
	ok("status_code", int_v(7), integer(7), REGEX);
	ok("execution_time", str_v("0\\.\\d+"), real(0.25), REGEX);
	bad("files-x", str_v("x"), missing(), REGEX, "file was not produced");
}

Test(regex, truncated_actual_is_noted)
{
	assay_actual a = bytes("abc");
	a.truncated = true;
	bad("output", str_v("abcd"), a, REGEX,
	    "pattern did not match (full): abcd\n(actual output was truncated at its cap)\n");
}

Test(regex, a_runaway_pattern_stops_at_the_match_limit)
{
	assay_buf a = ASSAY_BUF_INIT;
	for (int i = 0; i < 40; i++)
		assay_buf_addch(&a, 'a');
	assay_buf_addch(&a, '!');
	bad("output", str_v("(?:a|aa)+(?:\\d|$)"), bytes_n(a.ptr, a.len), REGEX_SEARCH,
	    "pattern could not be matched (search: match limit exceeded): (?:a|aa)+(?:\\d|$)");
	assay_buf_release(&a);
}

/*
 * Python's text rules (pytext.c)
 */

/*
 * (input, input.casefold()) pairs made once by Python 3.11.7 (Unicode 14.0.0, as
 * libunistring 1.0), by running this with /usr/bin/python3:
 *
 *   cps = [*range(0x41, 0x5b), *range(0xc0, 0xdf), 0xb5, 0xdf, 0xff, 0x100, 0x130,
 *          0x131, 0x149, 0x178, 0x17f, 0x1c4, 0x1c5, 0x1c6, 0x1c7, 0x1c8, 0x1f0, 0x1f1,
 *          0x1f2, 0x345, *range(0x386, 0x391), *range(0x391, 0x3ab), 0x390, 0x3b0, 0x3c2,
 *          0x3c3, 0x3cf, 0x3d0, 0x3d1, 0x3d5, 0x3d6, 0x3f0, 0x3f1, 0x3f4, 0x3f5, 0x400,
 *          0x401, 0x40f, 0x410, 0x42f, 0x460, 0x4c0, 0x531, 0x532, 0x556, 0x587, 0x10a0,
 *          0x10c5, 0x10c7, 0x10cd, 0x10d0, 0x1c90, 0x1cbf, 0x13a0, 0x13a1, 0x13c4, 0x13ef,
 *          0x13f4, 0x13f5, 0x13f8, 0x13fd, 0xab70, 0xabbf, 0x1e00, 0x1e96, 0x1e9a, 0x1e9b,
 *          0x1e9e, 0x1f08, 0x1f50, 0x1f80, 0x1f88, 0x1fb3, 0x1fb6, 0x1fbc, 0x1fbe, 0x1fe3,
 *          0x1ff3, 0x1ffc, 0x2126, 0x212a, 0x212b, 0x2132, 0x2160, 0x216f, 0x2183, 0x24b6,
 *          0x24cf, 0x2c00, 0x2c2f, 0x2c62, 0xa640, 0xa77d, 0xa7ae, 0xa7c5,
 *          *range(0xfb00, 0xfb07), *range(0xfb13, 0xfb18), 0xff21, 0xff26, 0xff3a, 0xff41,
 *          0xff10, 0x10400, 0x10427, 0x104b0, 0x10c80, 0x118a0, 0x16e40, 0x1e900, 0x1e921,
 *          0x61, 0x7a, 0xe0, 0x3b1, 0x430, 0x2d00, 0x10d0, 0x3000]
 *   strs = ["Stra\u00dfe", "STRASSE", "\u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3",
 *           "\u1f08\u0399", "\u01c5ungla", "\u0130stanbul", "\u0131I\u0130i",
 *           "\uff21\uff22\uff23", "\u13a3\u13b3\u13a9", "\uabb3\uab83\uab79",
 *           "\u1ca5\u1c90\u1ca0\u1c97", "\u0535\u0582 \u0587", "caf\u00e9 CAF\u00c9",
 *           "e\u0301 E\u0301", "\ufb03ce \ufb04"]
 *   def esc(t):
 *       out, prev = "", False
 *       for b in t.encode():
 *           if 0x20 <= b < 0x7f and chr(b) not in '"\\?':
 *               hexdigit = chr(b) in "0123456789abcdefABCDEF"
 *               out += ('" "' if prev and hexdigit else "") + chr(b)
 *               prev = False
 *           else:
 *               out += "\\x%02x" % b
 *               prev = True
 *       return out
 *   seen = set()
 *   for s in [chr(c) for c in cps] + strs:
 *       if s in seen:
 *           continue
 *       seen.add(s)
 *       a, b = esc(s), esc(s.casefold())
 *       line = '\t{ "%s", "%s" },' % (a, b)
 *       print(line if len(line) <= 92 else '\t{ "%s",\n\t  "%s" },' % (a, b))
 */
static const struct {
	const char *in, *folded;
} casefold_table[] = {
	{ "A", "a" },
	{ "B", "b" },
	{ "C", "c" },
	{ "D", "d" },
	{ "E", "e" },
	{ "F", "f" },
	{ "G", "g" },
	{ "H", "h" },
	{ "I", "i" },
	{ "J", "j" },
	{ "K", "k" },
	{ "L", "l" },
	{ "M", "m" },
	{ "N", "n" },
	{ "O", "o" },
	{ "P", "p" },
	{ "Q", "q" },
	{ "R", "r" },
	{ "S", "s" },
	{ "T", "t" },
	{ "U", "u" },
	{ "V", "v" },
	{ "W", "w" },
	{ "X", "x" },
	{ "Y", "y" },
	{ "Z", "z" },
	{ "\xc3\x80", "\xc3\xa0" },
	{ "\xc3\x81", "\xc3\xa1" },
	{ "\xc3\x82", "\xc3\xa2" },
	{ "\xc3\x83", "\xc3\xa3" },
	{ "\xc3\x84", "\xc3\xa4" },
	{ "\xc3\x85", "\xc3\xa5" },
	{ "\xc3\x86", "\xc3\xa6" },
	{ "\xc3\x87", "\xc3\xa7" },
	{ "\xc3\x88", "\xc3\xa8" },
	{ "\xc3\x89", "\xc3\xa9" },
	{ "\xc3\x8a", "\xc3\xaa" },
	{ "\xc3\x8b", "\xc3\xab" },
	{ "\xc3\x8c", "\xc3\xac" },
	{ "\xc3\x8d", "\xc3\xad" },
	{ "\xc3\x8e", "\xc3\xae" },
	{ "\xc3\x8f", "\xc3\xaf" },
	{ "\xc3\x90", "\xc3\xb0" },
	{ "\xc3\x91", "\xc3\xb1" },
	{ "\xc3\x92", "\xc3\xb2" },
	{ "\xc3\x93", "\xc3\xb3" },
	{ "\xc3\x94", "\xc3\xb4" },
	{ "\xc3\x95", "\xc3\xb5" },
	{ "\xc3\x96", "\xc3\xb6" },
	{ "\xc3\x97", "\xc3\x97" },
	{ "\xc3\x98", "\xc3\xb8" },
	{ "\xc3\x99", "\xc3\xb9" },
	{ "\xc3\x9a", "\xc3\xba" },
	{ "\xc3\x9b", "\xc3\xbb" },
	{ "\xc3\x9c", "\xc3\xbc" },
	{ "\xc3\x9d", "\xc3\xbd" },
	{ "\xc3\x9e", "\xc3\xbe" },
	{ "\xc2\xb5", "\xce\xbc" },
	{ "\xc3\x9f", "ss" },
	{ "\xc3\xbf", "\xc3\xbf" },
	{ "\xc4\x80", "\xc4\x81" },
	{ "\xc4\xb0", "i\xcc\x87" },
	{ "\xc4\xb1", "\xc4\xb1" },
	{ "\xc5\x89", "\xca\xbcn" },
	{ "\xc5\xb8", "\xc3\xbf" },
	{ "\xc5\xbf", "s" },
	{ "\xc7\x84", "\xc7\x86" },
	{ "\xc7\x85", "\xc7\x86" },
	{ "\xc7\x86", "\xc7\x86" },
	{ "\xc7\x87", "\xc7\x89" },
	{ "\xc7\x88", "\xc7\x89" },
	{ "\xc7\xb0", "j\xcc\x8c" },
	{ "\xc7\xb1", "\xc7\xb3" },
	{ "\xc7\xb2", "\xc7\xb3" },
	{ "\xcd\x85", "\xce\xb9" },
	{ "\xce\x86", "\xce\xac" },
	{ "\xce\x87", "\xce\x87" },
	{ "\xce\x88", "\xce\xad" },
	{ "\xce\x89", "\xce\xae" },
	{ "\xce\x8a", "\xce\xaf" },
	{ "\xce\x8b", "\xce\x8b" },
	{ "\xce\x8c", "\xcf\x8c" },
	{ "\xce\x8d", "\xce\x8d" },
	{ "\xce\x8e", "\xcf\x8d" },
	{ "\xce\x8f", "\xcf\x8e" },
	{ "\xce\x90", "\xce\xb9\xcc\x88\xcc\x81" },
	{ "\xce\x91", "\xce\xb1" },
	{ "\xce\x92", "\xce\xb2" },
	{ "\xce\x93", "\xce\xb3" },
	{ "\xce\x94", "\xce\xb4" },
	{ "\xce\x95", "\xce\xb5" },
	{ "\xce\x96", "\xce\xb6" },
	{ "\xce\x97", "\xce\xb7" },
	{ "\xce\x98", "\xce\xb8" },
	{ "\xce\x99", "\xce\xb9" },
	{ "\xce\x9a", "\xce\xba" },
	{ "\xce\x9b", "\xce\xbb" },
	{ "\xce\x9c", "\xce\xbc" },
	{ "\xce\x9d", "\xce\xbd" },
	{ "\xce\x9e", "\xce\xbe" },
	{ "\xce\x9f", "\xce\xbf" },
	{ "\xce\xa0", "\xcf\x80" },
	{ "\xce\xa1", "\xcf\x81" },
	{ "\xce\xa2", "\xce\xa2" },
	{ "\xce\xa3", "\xcf\x83" },
	{ "\xce\xa4", "\xcf\x84" },
	{ "\xce\xa5", "\xcf\x85" },
	{ "\xce\xa6", "\xcf\x86" },
	{ "\xce\xa7", "\xcf\x87" },
	{ "\xce\xa8", "\xcf\x88" },
	{ "\xce\xa9", "\xcf\x89" },
	{ "\xce\xaa", "\xcf\x8a" },
	{ "\xce\xb0", "\xcf\x85\xcc\x88\xcc\x81" },
	{ "\xcf\x82", "\xcf\x83" },
	{ "\xcf\x83", "\xcf\x83" },
	{ "\xcf\x8f", "\xcf\x97" },
	{ "\xcf\x90", "\xce\xb2" },
	{ "\xcf\x91", "\xce\xb8" },
	{ "\xcf\x95", "\xcf\x86" },
	{ "\xcf\x96", "\xcf\x80" },
	{ "\xcf\xb0", "\xce\xba" },
	{ "\xcf\xb1", "\xcf\x81" },
	{ "\xcf\xb4", "\xce\xb8" },
	{ "\xcf\xb5", "\xce\xb5" },
	{ "\xd0\x80", "\xd1\x90" },
	{ "\xd0\x81", "\xd1\x91" },
	{ "\xd0\x8f", "\xd1\x9f" },
	{ "\xd0\x90", "\xd0\xb0" },
	{ "\xd0\xaf", "\xd1\x8f" },
	{ "\xd1\xa0", "\xd1\xa1" },
	{ "\xd3\x80", "\xd3\x8f" },
	{ "\xd4\xb1", "\xd5\xa1" },
	{ "\xd4\xb2", "\xd5\xa2" },
	{ "\xd5\x96", "\xd6\x86" },
	{ "\xd6\x87", "\xd5\xa5\xd6\x82" },
	{ "\xe1\x82\xa0", "\xe2\xb4\x80" },
	{ "\xe1\x83\x85", "\xe2\xb4\xa5" },
	{ "\xe1\x83\x87", "\xe2\xb4\xa7" },
	{ "\xe1\x83\x8d", "\xe2\xb4\xad" },
	{ "\xe1\x83\x90", "\xe1\x83\x90" },
	{ "\xe1\xb2\x90", "\xe1\x83\x90" },
	{ "\xe1\xb2\xbf", "\xe1\x83\xbf" },
	{ "\xe1\x8e\xa0", "\xe1\x8e\xa0" },
	{ "\xe1\x8e\xa1", "\xe1\x8e\xa1" },
	{ "\xe1\x8f\x84", "\xe1\x8f\x84" },
	{ "\xe1\x8f\xaf", "\xe1\x8f\xaf" },
	{ "\xe1\x8f\xb4", "\xe1\x8f\xb4" },
	{ "\xe1\x8f\xb5", "\xe1\x8f\xb5" },
	{ "\xe1\x8f\xb8", "\xe1\x8f\xb0" },
	{ "\xe1\x8f\xbd", "\xe1\x8f\xb5" },
	{ "\xea\xad\xb0", "\xe1\x8e\xa0" },
	{ "\xea\xae\xbf", "\xe1\x8f\xaf" },
	{ "\xe1\xb8\x80", "\xe1\xb8\x81" },
	{ "\xe1\xba\x96", "h\xcc\xb1" },
	{ "\xe1\xba\x9a", "a\xca\xbe" },
	{ "\xe1\xba\x9b", "\xe1\xb9\xa1" },
	{ "\xe1\xba\x9e", "ss" },
	{ "\xe1\xbc\x88", "\xe1\xbc\x80" },
	{ "\xe1\xbd\x90", "\xcf\x85\xcc\x93" },
	{ "\xe1\xbe\x80", "\xe1\xbc\x80\xce\xb9" },
	{ "\xe1\xbe\x88", "\xe1\xbc\x80\xce\xb9" },
	{ "\xe1\xbe\xb3", "\xce\xb1\xce\xb9" },
	{ "\xe1\xbe\xb6", "\xce\xb1\xcd\x82" },
	{ "\xe1\xbe\xbc", "\xce\xb1\xce\xb9" },
	{ "\xe1\xbe\xbe", "\xce\xb9" },
	{ "\xe1\xbf\xa3", "\xcf\x85\xcc\x88\xcc\x81" },
	{ "\xe1\xbf\xb3", "\xcf\x89\xce\xb9" },
	{ "\xe1\xbf\xbc", "\xcf\x89\xce\xb9" },
	{ "\xe2\x84\xa6", "\xcf\x89" },
	{ "\xe2\x84\xaa", "k" },
	{ "\xe2\x84\xab", "\xc3\xa5" },
	{ "\xe2\x84\xb2", "\xe2\x85\x8e" },
	{ "\xe2\x85\xa0", "\xe2\x85\xb0" },
	{ "\xe2\x85\xaf", "\xe2\x85\xbf" },
	{ "\xe2\x86\x83", "\xe2\x86\x84" },
	{ "\xe2\x92\xb6", "\xe2\x93\x90" },
	{ "\xe2\x93\x8f", "\xe2\x93\xa9" },
	{ "\xe2\xb0\x80", "\xe2\xb0\xb0" },
	{ "\xe2\xb0\xaf", "\xe2\xb1\x9f" },
	{ "\xe2\xb1\xa2", "\xc9\xab" },
	{ "\xea\x99\x80", "\xea\x99\x81" },
	{ "\xea\x9d\xbd", "\xe1\xb5\xb9" },
	{ "\xea\x9e\xae", "\xc9\xaa" },
	{ "\xea\x9f\x85", "\xca\x82" },
	{ "\xef\xac\x80", "ff" },
	{ "\xef\xac\x81", "fi" },
	{ "\xef\xac\x82", "fl" },
	{ "\xef\xac\x83", "ffi" },
	{ "\xef\xac\x84", "ffl" },
	{ "\xef\xac\x85", "st" },
	{ "\xef\xac\x86", "st" },
	{ "\xef\xac\x93", "\xd5\xb4\xd5\xb6" },
	{ "\xef\xac\x94", "\xd5\xb4\xd5\xa5" },
	{ "\xef\xac\x95", "\xd5\xb4\xd5\xab" },
	{ "\xef\xac\x96", "\xd5\xbe\xd5\xb6" },
	{ "\xef\xac\x97", "\xd5\xb4\xd5\xad" },
	{ "\xef\xbc\xa1", "\xef\xbd\x81" },
	{ "\xef\xbc\xa6", "\xef\xbd\x86" },
	{ "\xef\xbc\xba", "\xef\xbd\x9a" },
	{ "\xef\xbd\x81", "\xef\xbd\x81" },
	{ "\xef\xbc\x90", "\xef\xbc\x90" },
	{ "\xf0\x90\x90\x80", "\xf0\x90\x90\xa8" },
	{ "\xf0\x90\x90\xa7", "\xf0\x90\x91\x8f" },
	{ "\xf0\x90\x92\xb0", "\xf0\x90\x93\x98" },
	{ "\xf0\x90\xb2\x80", "\xf0\x90\xb3\x80" },
	{ "\xf0\x91\xa2\xa0", "\xf0\x91\xa3\x80" },
	{ "\xf0\x96\xb9\x80", "\xf0\x96\xb9\xa0" },
	{ "\xf0\x9e\xa4\x80", "\xf0\x9e\xa4\xa2" },
	{ "\xf0\x9e\xa4\xa1", "\xf0\x9e\xa5\x83" },
	{ "a", "a" },
	{ "z", "z" },
	{ "\xc3\xa0", "\xc3\xa0" },
	{ "\xce\xb1", "\xce\xb1" },
	{ "\xd0\xb0", "\xd0\xb0" },
	{ "\xe2\xb4\x80", "\xe2\xb4\x80" },
	{ "\xe3\x80\x80", "\xe3\x80\x80" },
	{ "Stra\xc3\x9f" "e", "strasse" },
	{ "STRASSE", "strasse" },
	{ "\xce\xa3\xce\x8a\xce\xa3\xce\xa5\xce\xa6\xce\x9f\xce\xa3",
	  "\xcf\x83\xce\xaf\xcf\x83\xcf\x85\xcf\x86\xce\xbf\xcf\x83" },
	{ "\xe1\xbc\x88\xce\x99", "\xe1\xbc\x80\xce\xb9" },
	{ "\xc7\x85ungla", "\xc7\x86ungla" },
	{ "\xc4\xb0stanbul", "i\xcc\x87stanbul" },
	{ "\xc4\xb1I\xc4\xb0i", "\xc4\xb1ii\xcc\x87i" },
	{ "\xef\xbc\xa1\xef\xbc\xa2\xef\xbc\xa3", "\xef\xbd\x81\xef\xbd\x82\xef\xbd\x83" },
	{ "\xe1\x8e\xa3\xe1\x8e\xb3\xe1\x8e\xa9", "\xe1\x8e\xa3\xe1\x8e\xb3\xe1\x8e\xa9" },
	{ "\xea\xae\xb3\xea\xae\x83\xea\xad\xb9", "\xe1\x8f\xa3\xe1\x8e\xb3\xe1\x8e\xa9" },
	{ "\xe1\xb2\xa5\xe1\xb2\x90\xe1\xb2\xa0\xe1\xb2\x97",
	  "\xe1\x83\xa5\xe1\x83\x90\xe1\x83\xa0\xe1\x83\x97" },
	{ "\xd4\xb5\xd6\x82 \xd6\x87", "\xd5\xa5\xd6\x82 \xd5\xa5\xd6\x82" },
	{ "caf\xc3\xa9 CAF\xc3\x89", "caf\xc3\xa9 caf\xc3\xa9" },
	{ "e\xcc\x81 E\xcc\x81", "e\xcc\x81 e\xcc\x81" },
	{ "\xef\xac\x83" "ce \xef\xac\x84", "ffice ffl" },
};

static void expect_fold_n(const char *in, size_t len, const char *want, size_t want_len)
{
	assay_buf out = ASSAY_BUF_INIT;
	assay_pytext__casefold(&out, in, len);
	cr_assert_eq(out.len, want_len, "fold of '%.*s' is '%s', want '%.*s'", (int)len, in,
		     out.ptr, (int)want_len, want);
	cr_assert(!memcmp(out.ptr, want, want_len), "fold of '%.*s' is '%s', want '%.*s'",
		  (int)len, in, out.ptr, (int)want_len, want);
	assay_buf_release(&out);
}

static void expect_fold(const char *in, const char *want)
{
	expect_fold_n(in, strlen(in), want, strlen(want));
}

Test(pytext, casefold_is_pythons)
{
	size_t n = sizeof(casefold_table) / sizeof(casefold_table[0]);
	cr_assert_geq(n, 200);
	for (size_t i = 0; i < n; i++)
		expect_fold(casefold_table[i].in, casefold_table[i].folded);
}

Test(pytext, casefold_table_through_the_text_verifier)
{
	size_t n = sizeof(casefold_table) / sizeof(casefold_table[0]);
	for (size_t i = 0; i < n; i++) {
		ok("output", str_v(casefold_table[i].in), bytes(casefold_table[i].folded),
		   TEXT_ICASE);
		ok("output", str_v(casefold_table[i].folded), bytes(casefold_table[i].in),
		   TEXT_ICASE);
	}
}

Test(pytext, casefold_keeps_bytes_that_are_not_utf8)
{
	expect_fold("", "");
	expect_fold_n("A\0B", 3, "a\0b", 3);
	/* Lone bytes, cut sequences, overlong forms, encoded surrogates, past U+10FFFF: kept
	 * byte for byte, with the valid text around them folded (Python, with
	 * errors="surrogateescape", gives the same). */
	expect_fold("\xff" "A\xc3\x89\xfe", "\xff" "a\xc3\xa9\xfe");
	expect_fold("\xc3" "A", "\xc3" "a");
	expect_fold("\xe2\x82" "A\xc3", "\xe2\x82" "a\xc3");
	expect_fold("\xc0\xaf" "A", "\xc0\xaf" "a");
	expect_fold("\xed\xa0\x80\xc3\x89", "\xed\xa0\x80\xc3\xa9");
	expect_fold("\xf4\x90\x80\x80" "A", "\xf4\x90\x80\x80" "a");
	expect_fold("\x80\xbf\xc3\x9f", "\x80\xbfss");
}

Test(pytext, fold_origin_maps_back_to_characters)
{
	/* "Aßé" folds to a | ss | é (2 bytes). */
	const char *s = "A\xc3\x9f\xc3\xa9";
	size_t len = strlen(s);
	size_t want[] = { 0, 1, 1, 3, 3, 5 };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_assert_eq(assay_pytext__fold_origin(s, len, i), want[i], "offset %zu", i);
	cr_assert_eq(assay_pytext__fold_origin(s, len, 99), len);
	/* ΐ (2 bytes) folds to 6 bytes; an invalid byte is one byte of its own. */
	const char *t = "\xce\x90\xff" "x";
	size_t twant[] = { 0, 0, 0, 0, 0, 0, 2, 3, 4 };
	for (size_t i = 0; i < sizeof(twant) / sizeof(twant[0]); i++)
		cr_assert_eq(assay_pytext__fold_origin(t, 4, i), twant[i], "offset %zu", i);
	cr_assert_eq(assay_pytext__fold_origin("", 0, 0), 0);
}

/* Appends the UTF-8 encoding of `c`. */
static size_t utf8(char out[4], uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/*
 * Every code point for which str.isspace() is true, from /usr/bin/python3 (3.11.7):
 *   print(', '.join('0x%x' % c for c in range(0x110000) if chr(c).isspace()))
 */
static const uint32_t py_spaces[] = {
	0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
	0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
	0x2029, 0x202f, 0x205f, 0x3000,
};

Test(pytext, white_space_is_str_isspace)
{
	char b[8];
	size_t n;

	for (size_t i = 0; i < sizeof(py_spaces) / sizeof(py_spaces[0]); i++) {
		n = utf8(b, py_spaces[i]);
		b[n] = 'x';
		cr_assert_eq(assay_pytext__space(b, n + 1), n, "U+%04X", py_spaces[i]);
		cr_assert_eq(assay_pytext__space_before(b, n), n, "U+%04X", py_spaces[i]);
		cr_assert_eq(assay_pytext__space(b, n - 1), 0, "U+%04X cut", py_spaces[i]);
	}
	/* No other code point of the BMP is (checked without an assert each: they are slow). */
	for (uint32_t c = 0; c < 0x10000; c++) {
		bool listed = false;
		for (size_t i = 0; i < sizeof(py_spaces) / sizeof(py_spaces[0]); i++)
			listed |= py_spaces[i] == c;
		if (listed || (c >= 0xd800 && c <= 0xdfff))
			continue;
		n = utf8(b, c);
		if (assay_pytext__space(b, n) || assay_pytext__space_before(b, n))
			cr_assert_fail("U+%04X is not white space to Python", c);
	}
	/* Bytes that are not UTF-8 are not white space, even where Latin-1 would be. */
	cr_assert_eq(assay_pytext__space("\xa0", 1), 0);
	cr_assert_eq(assay_pytext__space_before("\xa0", 1), 0);
	cr_assert_eq(assay_pytext__space_before("\x85", 1), 0);
	cr_assert_eq(assay_pytext__space_before("\x80\x80", 2), 0);
	cr_assert_eq(assay_pytext__space_before("\xc2\xc2\xa0", 3), 2);
	cr_assert_eq(assay_pytext__space_before("\xe3\x80\x80\x80", 4), 0);
	cr_assert_eq(assay_pytext__space("", 0), 0);
	cr_assert_eq(assay_pytext__space_before("", 0), 0);
}
