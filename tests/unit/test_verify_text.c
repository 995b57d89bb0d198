/*
 * Tests of the verifier framework (verify.c) and the text verifiers (verify_text.c): every pass
 * and fail path, the diff texts, the options, and the errors a suite author can cause.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "assay/verify.h"
#include "util/banned.h"

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
 * Runs the framework on `attribute` with `expected` (a reference is taken over) and the
 * verify entry `options` (JSON text, NULL for none). Returns the code; the result is in *out.
 */
static int run(assay_verification *out, assay_err *err, const char *attribute, json_t *expected,
	       assay_actual actual, const char *options)
{
	json_error_t jerr;
	json_t *opts = options ? json_loads(options, 0, &jerr) : json_object();
	cr_assert(opts, "bad options in test: %s", options);
	assay_verify_call call = { "group", "case", attribute, expected, &actual, opts };
	*out = (assay_verification)ASSAY_VERIFICATION_INIT;
	assay_err_clear(err);
	int rc = assay_verify_attribute(out, &call, err);
	json_decref(opts);
	json_decref(expected);
	return rc;
}

/* Expects a pass. */
static void ok(const char *attribute, json_t *expected, assay_actual actual, const char *options)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	cr_assert(v.is_correct, "expected a pass (options %s), diff: %s",
		  options ? options : "{}", json_string_value(v.diff));
	cr_assert_null(v.diff);
	assay_verification_release(&v);
}

/* Expects a fail whose diff is the string `diff` (NULL: any string). */
static void bad(const char *attribute, json_t *expected, assay_actual actual, const char *options,
		const char *diff)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	cr_assert_not(v.is_correct, "expected a fail (options %s)", options ? options : "{}");
	cr_assert(json_is_string(v.diff), "diff is a string");
	if (diff)
		cr_assert_str_eq(json_string_value(v.diff), diff);
	assay_verification_release(&v);
}

/* Expects an error `code` whose message is `msg`. */
static void refused(int code, const char *msg, const char *attribute, json_t *expected,
		    assay_actual actual, const char *options)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, code, "code %d (%s)", rc, err.msg);
	cr_assert_eq(err.code, code);
	if (msg)
		cr_assert_str_eq(err.msg, msg);
	cr_assert_null(v.diff);
	cr_assert_not(v.is_correct);
	assay_verification_release(&v);
}

/* The diff string of a failed verification (caller releases v). */
static const char *diff_of(assay_verification *v, const char *attribute, json_t *expected,
			   assay_actual actual, const char *options)
{
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(v, &err, attribute, expected, actual, options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	cr_assert_not(v->is_correct);
	cr_assert(json_is_string(v->diff));
	return json_string_value(v->diff);
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
	(void)call;
	(void)err;
	out->is_correct = true;
	out->diff = json_string("always");
	return 0;
}

static int refuse_fn(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	(void)call;
	out->diff = json_string("partial");
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "no thanks");
}

static const char *const always_options[] = { "level", NULL };
static const assay_verifier always_v = { "always", always_fn, always_options };
static const assay_verifier exact_override = { "exact", always_fn, NULL };
static const assay_verifier refuse_v = { "refuse", refuse_fn, NULL };

Test(verify, registered_verifiers_are_found_newest_first)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_verifier_register(&always_v), 0);
	cr_assert_eq(assay_verifier_find("always"), &always_v);
	cr_assert_eq(run(&v, &err, "output", json_string("x"), bytes("y"),
			 "{\"verifier\": \"always\", \"level\": 3}"), 0);
	cr_assert(v.is_correct);
	cr_assert_str_eq(json_string_value(v.diff), "always");
	assay_verification_release(&v);

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
	cr_assert_eq(run(&v, &err, "output", json_string("x"), bytes("x"),
			 "{\"verifier\": \"refuse\"}"), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "no thanks");
	cr_assert_null(v.diff);
	cr_assert_not(v.is_correct);
}

Test(verify, unknown_verifier_and_options_are_refused)
{
	refused(ASSAY_ENOTFOUND, "unknown verifier 'nope'", "output", json_string("x"),
		bytes("x"), "{\"verifier\": \"nope\"}");
	refused(ASSAY_EINVALID, "unknown option 'x' for verifier 'text'", "output",
		json_string("x"), bytes("x"), "{\"verifier\": \"text\", \"x\": true}");
	refused(ASSAY_EINVALID, "unknown option 'strip' for verifier 'exact'", "output",
		json_string("x"), bytes("x"), "{\"strip\": true}");
	refused(ASSAY_EINVALID, "unknown option 'ignore_cse' for verifier 'contains'", "output",
		json_string("x"), bytes("x"), "{\"verifier\": \"contains\", \"ignore_cse\": true}");
	refused(ASSAY_EINVALID, "option 'verifier' must be a string", "output", json_string("x"),
		bytes("x"), "{\"verifier\": 3}");
}

static double weight_of(const char *options)
{
	assay_verification v;
	assay_err err = ASSAY_ERR_INIT;
	int rc = run(&v, &err, "output", json_string("x"), bytes("y"), options);
	cr_assert_eq(rc, 0, "error: %s", err.msg);
	double w = v.weight;
	assay_verification_release(&v);
	return w;
}

Test(verify, weight_defaults_to_one_and_must_be_positive)
{
	cr_assert_float_eq(weight_of(NULL), 1.0, 1e-12);
	cr_assert_float_eq(weight_of("{\"weight\": 0.5}"), 0.5, 1e-12);
	cr_assert_float_eq(weight_of("{\"weight\": 2}"), 2.0, 1e-12);
	cr_assert_float_eq(weight_of("{\"verifier\": \"text\", \"weight\": 0.25}"), 0.25, 1e-12);
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got 0)", "output", json_string("x"),
		bytes("x"), "{\"weight\": 0}");
	refused(ASSAY_EINVALID, "weight must be a number > 0 (got -1)", "output",
		json_string("x"), bytes("x"), "{\"weight\": -1}");
	refused(ASSAY_EINVALID, "weight must be a number > 0", "output", json_string("x"),
		bytes("x"), "{\"weight\": \"x\"}");
	refused(ASSAY_EINVALID, "weight must be a number > 0", "output", json_string("x"),
		bytes("x"), "{\"weight\": true}");
}

Test(verify, missing_options_mean_exact)
{
	assay_verification v = ASSAY_VERIFICATION_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_actual a = bytes("x");
	json_t *e = json_string("x");
	assay_verify_call call = { "g", "c", "output", e, &a, NULL };

	cr_assert_eq(assay_verify_attribute(&v, &call, &err), 0);
	cr_assert(v.is_correct);
	cr_assert_float_eq(v.weight, 1.0, 1e-12);
	json_decref(e);
}

Test(verify, release_returns_to_init)
{
	assay_verification v = { json_string("d"), true, 3.0 };
	assay_verification_release(&v);
	cr_assert_null(v.diff);
	cr_assert_not(v.is_correct);
	cr_assert_float_eq(v.weight, 1.0, 1e-12);
	assay_verification_release(NULL);
}

Test(verify, option_readers)
{
	json_t *o = json_loads("{\"b\": true, \"n\": 1, \"s\": \"str\"}", 0, NULL);
	assay_err err = ASSAY_ERR_INIT;
	bool b = false;
	const char *s = "default";

	cr_assert_eq(assay_verify_opt_bool(o, "b", &b, &err), 0);
	cr_assert(b);
	b = false;
	cr_assert_eq(assay_verify_opt_bool(o, "absent", &b, &err), 0);
	cr_assert_not(b);
	cr_assert_eq(assay_verify_opt_bool(o, "n", &b, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'n' must be true or false");
	assay_err_clear(&err);
	cr_assert_eq(assay_verify_opt_string(o, "s", &s, &err), 0);
	cr_assert_str_eq(s, "str");
	cr_assert_eq(assay_verify_opt_string(o, "absent", &s, &err), 0);
	cr_assert_str_eq(s, "str");
	cr_assert_eq(assay_verify_opt_string(o, "b", &s, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "option 'b' must be a string");
	json_decref(o);
}

static void expect_text_n(json_t *e, const char *want, size_t want_len)
{
	assay_buf scratch = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;
	const char *p = NULL;
	size_t len = 0;

	cr_assert_eq(assay_verify_expected_text(&p, &len, e, &scratch, "output", &err), 0,
		     "%s", err.msg);
	cr_assert_eq(len, want_len);
	cr_assert(!memcmp(p, want, len), "got '%.*s', want '%s'", (int)len, p, want);
	assay_buf_release(&scratch);
	json_decref(e);
}

static void expect_text(json_t *e, const char *want)
{
	expect_text_n(e, want, strlen(want));
}

Test(verify, expected_text_from_scalars)
{
	expect_text(json_string("hi\n"), "hi\n");
	expect_text_n(json_stringn("a\0b", 3), "a\0b", 3);
	expect_text(json_integer(42), "42");
	expect_text(json_integer(-7), "-7");
	expect_text(json_real(1.5), "1.5");
	expect_text(json_real(0.1), "0.1");
	expect_text(json_true(), "true");
	expect_text(json_false(), "false");
}

Test(verify, expected_text_refuses_structures)
{
	json_t *bad_values[] = { json_null(), json_array(), json_object() };
	for (size_t i = 0; i < 3; i++) {
		assay_buf scratch = ASSAY_BUF_INIT;
		assay_err err = ASSAY_ERR_INIT;
		const char *p;
		size_t len;
		cr_assert_eq(assay_verify_expected_text(&p, &len, bad_values[i], &scratch, "stderr",
							&err), ASSAY_EINVALID);
		cr_assert_str_eq(err.msg, "expected stderr must be a string for a text verifier; "
					  "use verifier json for structured values");
		json_decref(bad_values[i]);
		assay_buf_release(&scratch);
	}
}

/*
 * exact
 */

Test(exact, equal_bytes_pass)
{
	ok("output", json_string("hello\n"), bytes("hello\n"), NULL);
	ok("output", json_string(""), bytes(""), NULL);
	ok("output", json_stringn("a\0b", 3), bytes_n("a\0b", 3), NULL);
	ok("output", json_integer(42), bytes("42"), NULL);
	ok("output", json_real(2.5), bytes("2.5"), NULL);
	ok("output", json_true(), bytes("true"), NULL);
}

Test(exact, different_bytes_give_a_unified_diff)
{
	bad("output", json_string("hello\n"), bytes("world\n"), NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-hello\n+world\n");
	bad("output", json_string("a\nb\nc\n"), bytes("a\nB\nc\n"), NULL,
	    "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
	bad("output", json_string("one"), bytes("two"), NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-one\n\\ No newline at end of file\n"
	    "+two\n\\ No newline at end of file\n");
	bad("output", json_string("x\n"), bytes("x"), NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n");
	bad("output", json_string(""), bytes("out\n"), NULL,
	    "--- expected\n+++ actual\n@@ -0,0 +1 @@\n+out\n");
}

Test(exact, truncated_actual_is_noted)
{
	assay_actual a = bytes("abc\n");
	a.truncated = true;
	bad("output", json_string("abcdef\n"), a, NULL,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-abcdef\n+abc\n"
	    "(actual output was truncated at its cap)\n");
}

Test(exact, diff_is_valid_utf8)
{
	assay_verification v;
	const char *d = diff_of(&v, "output", json_string("caf\xc3\xa9\n"),
				bytes("caf\xe9\n"), NULL);
	cr_assert_str_eq(d, "--- expected\n+++ actual\n@@ -1 +1 @@\n-caf\xc3\xa9\n"
			    "+caf\xef\xbf\xbd\n");
	assay_verification_release(&v);
}

Test(exact, long_diffs_are_capped)
{
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT;
	assay_verification v;

	for (int i = 0; i < 20000; i++) {
		assay_buf_addf(&e, "expected line %d\n", i);
		assay_buf_addf(&a, "actual line %d\n", i);
	}
	const char *d = diff_of(&v, "output", json_stringn(e.ptr, e.len), bytes_n(a.ptr, a.len),
				NULL);
	size_t len = strlen(d);
	const char tail[] = "\n... (diff truncated)\n";
	cr_assert_leq(len, 64 * 1024 + sizeof(tail));
	cr_assert_gt(len, 60 * 1024);
	cr_assert_str_eq(d + len - (sizeof(tail) - 1), tail);
	cr_assert(!strncmp(d, "--- expected\n+++ actual\n@@ -1,20000 +1,20000 @@\n-expected "
			      "line 0\n", 60));
	assay_verification_release(&v);
	assay_buf_release(&e);
	assay_buf_release(&a);
}

Test(exact, a_huge_line_is_cut_inside_not_dropped)
{
	assay_buf a = ASSAY_BUF_INIT;
	assay_verification v;

	for (int i = 0; i < 200000; i++)
		assay_buf_addch(&a, 'x');
	const char *d = diff_of(&v, "output", json_string("x"), bytes_n(a.ptr, a.len), NULL);
	cr_assert(strstr(d, "\n+xxxxxxxxxx"), "the start of the actual line must show:\n%.200s", d);
	cr_assert_leq(strlen(d), 64 * 1024 + 64);
	assay_verification_release(&v);
	assay_buf_release(&a);
}

Test(exact, missing_file_fails)
{
	bad("files-out.txt", json_string("x"), missing(), NULL, "file was not produced");
	refused(ASSAY_EINVALID, NULL, "files-out.txt", json_object(), missing(), NULL);
}

Test(exact, structured_expected_is_refused)
{
	refused(ASSAY_EINVALID,
		"expected output must be a string for a text verifier; use verifier json for "
		"structured values",
		"output", json_pack("{s:i}", "a", 1), bytes("{\"a\": 1}"), NULL);
	refused(ASSAY_EINVALID, NULL, "output", json_null(), bytes(""), NULL);
}

Test(exact, status_code)
{
	ok("status_code", json_integer(0), integer(0), NULL);
	ok("status_code", json_integer(-1), integer(-1), NULL);
	bad("status_code", json_integer(3), integer(0), NULL, "expected 3, got 0");
	bad("status_code", json_integer(0), integer(-1), NULL, "expected 0, got -1");
}

Test(exact, status_code_nonzero)
{
	ok("status_code", json_string("nonzero"), integer(2), NULL);
	ok("status_code", json_string("nonzero"), integer(-1), NULL);
	bad("status_code", json_string("nonzero"), integer(0), NULL, "expected nonzero, got 0");
}

Test(exact, status_code_as_digit_string)
{
	ok("status_code", json_string("3"), integer(3), NULL);
	ok("status_code", json_string("-1"), integer(-1), NULL);
	bad("status_code", json_string("3"), integer(4), NULL, "expected 3, got 4");
	refused(ASSAY_EINVALID, "expected status_code must be an integer or \"nonzero\"",
		"status_code", json_string("x3"), integer(3), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", json_string(""), integer(0), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", json_string(" 3"), integer(3), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", json_true(), integer(1), NULL);
	refused(ASSAY_EINVALID, NULL, "status_code", json_null(), integer(0), NULL);
}

Test(exact, execution_time_is_a_maximum)
{
	ok("execution_time", json_integer(2), real(1.5), NULL);
	ok("execution_time", json_real(1.5), real(1.5), NULL);
	bad("execution_time", json_integer(2), real(2.5), NULL, "expected at most 2, got 2.5");
	bad("execution_time", json_real(0.1), real(0.30000000000000004), NULL,
	    "expected at most 0.1, got 0.30000000000000004");
	refused(ASSAY_EINVALID, "expected execution_time must be a number", "execution_time",
		json_array(), real(1.0), NULL);
}

Test(exact, max_rss_is_a_maximum)
{
	ok("max_rss", json_integer(2000), integer(1000), NULL);
	ok("max_rss", json_integer(2000), integer(2000), NULL);
	ok("max_rss", json_real(1e9), integer(5000000), NULL);
	bad("max_rss", json_integer(2000), integer(3000), NULL, "expected at most 2000, got 3000");
	refused(ASSAY_EINVALID, "expected max_rss must be an integer", "max_rss",
		json_string("nonzero"), integer(1), NULL);
}

/*
 * text
 */

Test(text, plain_text_is_exact)
{
	ok("output", json_string("a b\n"), bytes("a b\n"), "{\"verifier\": \"text\"}");
	bad("output", json_string("a b\n"), bytes("a b"), "{\"verifier\": \"text\"}",
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-a b\n+a b\n\\ No newline at end of file\n");
}

Test(text, strip)
{
	const char *o = "{\"verifier\": \"text\", \"strip\": true}";
	ok("output", json_string("hi"), bytes("  hi \n\n"), o);
	ok("output", json_string("\thi\n"), bytes("hi"), o);
	ok("output", json_string(""), bytes(" \n\t"), o);
	bad("output", json_string("hi"), bytes("  hi \n"), "{\"verifier\": \"text\"}", NULL);
	/* Inside the text, whitespace still counts. */
	bad("output", json_string("a b"), bytes(" a  b "), o,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-a b\n\\ No newline at end of file\n"
	    "+a  b\n\\ No newline at end of file\n");
}

Test(text, ignore_case)
{
	const char *o = "{\"verifier\": \"text\", \"ignore_case\": true}";
	ok("output", json_string("Hello World\n"), bytes("hELLO wORLD\n"), o);
	bad("output", json_string("Hello\n"), bytes("hello\n"), "{\"verifier\": \"text\"}", NULL);
	/* The diff shows the normalised texts. */
	bad("output", json_string("Hello\nWorld\n"), bytes("HELLO\nThere\n"), o,
	    "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n");
	/* ASCII only: É and é stay different. */
	bad("output", json_string("\xc3\x89"), bytes("\xc3\xa9"), o, NULL);
}

Test(text, collapse_whitespace)
{
	const char *o = "{\"verifier\": \"text\", \"collapse_whitespace\": true}";
	ok("output", json_string("a b c\n"), bytes("a  b\t\tc\n"), o);
	ok("output", json_string("a b"), bytes("a\n\n b"), o);
	bad("output", json_string("a b"), bytes("ab"), o, NULL);
	/* Ends are kept as one space each unless strip is on too. */
	bad("output", json_string("a"), bytes("  a"), o, NULL);
	ok("output", json_string("a b"), bytes("  a \n b\n"),
	   "{\"verifier\": \"text\", \"collapse_whitespace\": true, \"strip\": true}");
}

Test(text, ignore_trailing_newline)
{
	const char *o = "{\"verifier\": \"text\", \"ignore_trailing_newline\": true}";
	ok("output", json_string("x"), bytes("x\n"), o);
	ok("output", json_string("x\n"), bytes("x"), o);
	ok("output", json_string("x"), bytes("x\r\n"), o);
	bad("output", json_string("x"), bytes("x\n\n"), o,
	    "--- expected\n+++ actual\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n");
	bad("output", json_string("x"), bytes(" x\n"), o, NULL);
}

Test(text, bad_option_values_are_refused)
{
	refused(ASSAY_EINVALID, "option 'strip' must be true or false", "output", json_string("x"),
		bytes("x"), "{\"verifier\": \"text\", \"strip\": \"yes\"}");
	refused(ASSAY_EINVALID, NULL, "output", json_pack("[i]", 1), bytes("x"),
		"{\"verifier\": \"text\"}");
}

Test(text, missing_file_and_numbers)
{
	bad("files-a", json_string("x"), missing(), "{\"verifier\": \"text\"}",
	    "file was not produced");
	ok("status_code", json_string("0"), integer(0), "{\"verifier\": \"text\"}");
}

/*
 * contains
 */

Test(contains, substring)
{
	const char *o = "{\"verifier\": \"contains\"}";
	ok("output", json_string("needle"), bytes("hay needle hay"), o);
	ok("output", json_string(""), bytes("anything"), o);
	ok("output", json_string("a\0b"), bytes_n("x a\0b y", 7), o);
	bad("output", json_string("Needle"), bytes("hay needle hay"), o, NULL);
	ok("output", json_string("Needle"), bytes("hay needle hay"),
	   "{\"verifier\": \"contains\", \"ignore_case\": true}");
}

Test(contains, failure_shows_an_excerpt)
{
	const char *o = "{\"verifier\": \"contains\"}";
	bad("output", json_string("total: 42\n"), bytes("items: 3\ntotal: 41\n"), o,
	    "expected text not found in actual\nexpected: \"total: 42\\n\"\n"
	    "actual from byte 9 (where the first 8 bytes of expected are found): "
	    "\"total: 41\\n\"\n");
	bad("output", json_string("zzz"), bytes("abc\tdef"), o,
	    "expected text not found in actual\nexpected: \"zzz\"\nactual: \"abc\\tdef\"\n");
	assay_actual a = bytes("abc");
	a.truncated = true;
	bad("output", json_string("zzz"), a, o,
	    "expected text not found in actual\nexpected: \"zzz\"\nactual: \"abc\"\n"
	    "(actual output was truncated at its cap)\n");
}

Test(contains, long_excerpts_are_cut)
{
	assay_buf a = ASSAY_BUF_INIT;
	assay_verification v;

	for (int i = 0; i < 100; i++)
		assay_buf_adds(&a, "0123456789");
	const char *d = diff_of(&v, "output", json_string("xyz"), bytes_n(a.ptr, a.len),
				"{\"verifier\": \"contains\"}");
	cr_assert_not_null(strstr(d, "\"... (1000 bytes)\n"), "%s", d);
	cr_assert_lt(strlen(d), 400);
	assay_verification_release(&v);
	assay_buf_release(&a);
}

/*
 * regex
 */

Test(regex, full_is_the_default)
{
	ok("output", json_string("\\d+"), bytes("123"), "{\"verifier\": \"regex\"}");
	ok("output", json_string("a|ab"), bytes("ab"), "{\"verifier\": \"regex\"}");
	bad("output", json_string("\\d+"), bytes("123a"), "{\"verifier\": \"regex\"}",
	    "pattern did not match (full): \\d+");
	bad("output", json_string("\\d+"), bytes("a123"),
	    "{\"verifier\": \"regex\", \"match\": \"full\"}", "pattern did not match (full): \\d+");
	/* $ would accept a final newline; full does not. */
	bad("output", json_string("ok"), bytes("ok\n"), "{\"verifier\": \"regex\"}", NULL);
	ok("output", json_string("ok\\n"), bytes("ok\n"), "{\"verifier\": \"regex\"}");
}

Test(regex, prefix)
{
	const char *o = "{\"verifier\": \"regex\", \"match\": \"prefix\"}";
	ok("output", json_string("\\d+"), bytes("123abc"), o);
	bad("output", json_string("\\d+"), bytes("abc123"), o,
	    "pattern did not match (prefix): \\d+");
}

Test(regex, search)
{
	const char *o = "{\"verifier\": \"regex\", \"match\": \"search\"}";
	ok("output", json_string("\\d+"), bytes("abc123def"), o);
	bad("output", json_string("\\d+"), bytes("abcdef"), o,
	    "pattern did not match (search): \\d+");
}

Test(regex, bad_match_mode_is_refused)
{
	refused(ASSAY_EINVALID, "option 'match' must be full, prefix or search (got 'all')",
		"output", json_string("x"), bytes("x"),
		"{\"verifier\": \"regex\", \"match\": \"all\"}");
}

Test(regex, flag_i)
{
	ok("output", json_string("abc"), bytes("ABC"),
	   "{\"verifier\": \"regex\", \"flags\": \"i\"}");
	bad("output", json_string("abc"), bytes("ABC"), "{\"verifier\": \"regex\"}", NULL);
	/* Caseless matching is Unicode-aware. */
	ok("output", json_string("\xc3\xa9t\xc3\xa9"), bytes("\xc3\x89T\xc3\x89"),
	   "{\"verifier\": \"regex\", \"flags\": \"i\"}");
}

Test(regex, flag_m)
{
	const char *with = "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": \"m\"}";
	const char *without = "{\"verifier\": \"regex\", \"match\": \"search\"}";
	ok("output", json_string("^b$"), bytes("a\nb\nc"), with);
	bad("output", json_string("^b$"), bytes("a\nb\nc"), without, NULL);
}

Test(regex, flag_s)
{
	ok("output", json_string("a.b"), bytes("a\nb"),
	   "{\"verifier\": \"regex\", \"flags\": \"s\"}");
	bad("output", json_string("a.b"), bytes("a\nb"), "{\"verifier\": \"regex\"}", NULL);
}

Test(regex, flag_x)
{
	ok("output", json_string("a b  c # letters"), bytes("abc"),
	   "{\"verifier\": \"regex\", \"flags\": \"x\"}");
	bad("output", json_string("a b c"), bytes("abc"), "{\"verifier\": \"regex\"}", NULL);
}

Test(regex, flags_as_a_list_or_a_string)
{
	ok("output", json_string("^B$"), bytes("a\nb\nc"),
	   "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": [\"i\", \"m\"]}");
	ok("output", json_string("^B$"), bytes("a\nb\nc"),
	   "{\"verifier\": \"regex\", \"match\": \"search\", \"flags\": \"mi\"}");
	ok("output", json_string("abc"), bytes("abc"),
	   "{\"verifier\": \"regex\", \"flags\": []}");
}

Test(regex, unknown_flags_are_refused)
{
	refused(ASSAY_EINVALID, "unknown regex flag 'q' (use i, m, s, x)", "output",
		json_string("x"), bytes("x"), "{\"verifier\": \"regex\", \"flags\": \"iq\"}");
	refused(ASSAY_EINVALID, "unknown regex flag 'g' (use i, m, s, x)", "output",
		json_string("x"), bytes("x"), "{\"verifier\": \"regex\", \"flags\": [\"g\"]}");
	refused(ASSAY_EINVALID,
		"option 'flags' must be a string of letters or a list of letters (i, m, s, x)",
		"output", json_string("x"), bytes("x"), "{\"verifier\": \"regex\", \"flags\": 1}");
	refused(ASSAY_EINVALID, NULL, "output", json_string("x"), bytes("x"),
		"{\"verifier\": \"regex\", \"flags\": [1]}");
}

Test(regex, bad_pattern_is_refused_with_pcre2_message)
{
	refused(ASSAY_EINVALID,
		"regex does not compile at offset 4: missing closing parenthesis",
		"output", json_string("(abc"), bytes("abc"), "{\"verifier\": \"regex\"}");
	refused(ASSAY_EINVALID,
		"regex does not compile at offset 2: quantifier does not follow a repeatable item",
		"output", json_string("a**"), bytes("abc"), "{\"verifier\": \"regex\"}");
	/* Refused even when there is nothing to match against. */
	refused(ASSAY_EINVALID, NULL, "files-x", json_string("("), missing(),
		"{\"verifier\": \"regex\"}");
}

Test(regex, invalid_utf8_subjects_are_matched_not_refused)
{
	const char *s = "{\"verifier\": \"regex\", \"match\": \"search\"}";
	ok("output", json_string("abc"), bytes("\xff\xfe" "abc\xc3"), s);
	bad("output", json_string("x"), bytes("\xff\xfe"), s, "pattern did not match (search): x");
	/* An invalid byte is not a character: . does not match it. */
	bad("output", json_string("a.c"), bytes("a\xff" "c"), "{\"verifier\": \"regex\"}", NULL);
	ok("output", json_string("a.c"), bytes("a\xc3\xa9" "c"), "{\"verifier\": \"regex\"}");
}

Test(regex, classes_are_unicode_aware)
{
	ok("output", json_string("\\w+"), bytes("h\xc3\xa9llo"), "{\"verifier\": \"regex\"}");
	ok("output", json_string("\\d"), bytes("\xd9\xa3"), "{\"verifier\": \"regex\"}");
}

Test(regex, on_numbers_and_missing_files)
{
	ok("status_code", json_string("[12]"), integer(2), "{\"verifier\": \"regex\"}");
	bad("status_code", json_string("[12]"), integer(0), "{\"verifier\": \"regex\"}",
	    "pattern did not match (full): [12]");
	ok("status_code", json_integer(7), integer(7), "{\"verifier\": \"regex\"}");
	bad("files-x", json_string("x"), missing(), "{\"verifier\": \"regex\"}",
	    "file was not produced");
}

Test(regex, truncated_actual_is_noted)
{
	assay_actual a = bytes("abc");
	a.truncated = true;
	bad("output", json_string("abcd"), a, "{\"verifier\": \"regex\"}",
	    "pattern did not match (full): abcd\n(actual output was truncated at its cap)\n");
}
