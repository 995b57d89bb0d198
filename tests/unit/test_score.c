/*
 * Unit tests of the case result (src/lib/adapter/adapter.c) and of report building and scoring
 * (src/lib/run/case_report.c; verification.md: from_verifier_result, calculate_score,
 * did_pass).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/adapter.h"
#include "assay/json.h"
#include "assay/report.h"
#include "assay/run.h"

struct fixture {
	assay_suite suite;
	assay_group group;
	assay_case kase;
	assay_case_result result;
	assay_arena *report_arena; /* the report's: the verification budget */
};

static struct fixture F;

static void fixture_teardown(void)
{
	assay_case_result_release(&F.result);
	assay_arena_free(F.kase.arena);
	assay_arena_free(F.report_arena);
	memset(&F, 0, sizeof(F));
}

TestSuite(score, .fini = fixture_teardown);

static assay_value js(assay_arena *a, const char *text)
{
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_json_parse(&v, a, text, strlen(text), NULL, &err), 0, "%s: %s", text,
		     err.msg);
	return v;
}

static void add_bytes(assay_case_result *r, const char *name, const char *bytes)
{
	assay_case_result_add(r, name, (assay_actual){ .kind = ASSAY_ACTUAL_BYTES, .bytes = bytes,
						       .len = strlen(bytes) });
}

/* A cli case expecting `expected` with `verify` (JSON texts), whose run exited `status` and
 * printed `out`, as the cli adapter reports it. */
/* The execution time setup() gives a case, seconds. */
static double exec_time_s = 1.25;

static void setup(const char *expected, const char *verify, int status, const char *out)
{
	fixture_teardown();
	F.suite.adapter = &assay_adapter_cli;
	F.suite.adapter_type = ASSAY_ADAPTER_CLI;
	F.group.name = "core";
	F.group.type = ASSAY_GROUP_CORE;
	F.kase.arena = assay_arena_new(0);
	F.kase.id = "c1";
	F.kase.expected = js(F.kase.arena, expected);
	F.kase.verify = js(F.kase.arena, verify);
	F.kase.definition = js(F.kase.arena, "{\"arguments\": [\"x\"]}");
	F.result = (assay_case_result)ASSAY_CASE_RESULT_INIT;
	assay_case_result_add(&F.result, "status_code",
			      (assay_actual){ .kind = ASSAY_ACTUAL_INT, .integer = status });
	add_bytes(&F.result, "output", out);
	add_bytes(&F.result, "stderr", "");
	assay_case_result_add(&F.result, "execution_time",
			      (assay_actual){ .kind = ASSAY_ACTUAL_REAL, .real = exec_time_s });
	assay_case_result_add(&F.result, "max_rss",
			      (assay_actual){ .kind = ASSAY_ACTUAL_INT, .integer = 4096 });
	F.report_arena = assay_arena_new(0);
}

static assay_value build(assay_verdict *v, double t0)
{
	assay_value report;

	cr_assert_eq(assay_case_report_build(&report, v, F.report_arena, &F.suite, &F.group,
					     &F.kase, &F.result, 0, t0),
		     0);
	cr_assert_eq(report.kind, ASSAY_V_OBJECT);
	return report;
}

static const assay_value *attr(const assay_value *report, const char *name)
{
	const assay_value *a = assay_object_get(assay_object_get(report, "results"), name);
	cr_assert_not_null(a, "no attribute %s", name);
	return a;
}

static const assay_value *field(const assay_value *a, const char *name)
{
	const assay_value *v = assay_object_get(a, name);
	cr_assert_not_null(v, "no field %s", name);
	return v;
}

static bool is_bool(const assay_value *v, bool b)
{
	return v->kind == ASSAY_V_BOOL && v->u.b == b;
}

static char *written(const assay_value *v)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_json_write(&b, v, 0);
	return assay_buf_detach(&b, NULL);
}

/*
 * The case result
 */

Test(score, case_result_grows_keeps_and_releases)
{
	assay_case_result r = ASSAY_CASE_RESULT_INIT;
	assay_buf b = ASSAY_BUF_INIT;
	size_t len = 0;
	char name[32];

	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "files-f%d", i);
		assay_case_result_add(&r, name, (assay_actual){ .kind = ASSAY_ACTUAL_INT,
								.integer = i });
	}
	cr_assert_eq(r.nattrs, 40);
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "files-f%d", i);
		const assay_attribute *a = assay_case_result_get(&r, name);
		cr_assert_not_null(a, "%s", name);
		cr_assert_str_eq(a->name, name);
		cr_assert_eq(a->actual.integer, i);
	}
	cr_assert_null(assay_case_result_get(&r, "nope"));
	/* a buffer moves into the result and lives as long as it */
	assay_buf_adds(&b, "captured");
	const char *kept = assay_case_result_keep(&r, &b, &len);
	cr_assert_eq(len, 8);
	cr_assert_str_eq(kept, "captured");
	cr_assert_eq(b.len, 0, "the buffer is left INIT");
	cr_assert_not_null(assay_case_result_arena(&r));
	assay_case_result_release(&r);
	cr_assert_eq(r.nattrs, 0);
	cr_assert_null(r.attrs);
	cr_assert_null(r.arena);
	assay_case_result_release(&r); /* twice is fine */
}

/*
 * Scoring
 */

Test(score, weighted_mean_of_verified_attributes)
{
	assay_verdict v;
	assay_value report;

	setup("{\"output\": \"yes\\n\", \"status_code\": 0}",
	      "{\"output\": {\"weight\": 3}, \"status_code\": {\"weight\": 1}}", 0, "no\n");
	report = build(&v, assay_now());
	cr_assert_float_eq(v.score, 0.25, 1e-12);
	cr_assert_not(v.passed);
	cr_assert_null(v.error);
	cr_assert(is_bool(field(attr(&report, "output"), "is_correct"), false));
	cr_assert(is_bool(field(attr(&report, "status_code"), "is_correct"), true));
	cr_assert_float_eq(field(attr(&report, "output"), "weight")->u.d, 3, 1e-12);
	cr_assert_float_eq(field(attr(&report, "status_code"), "weight")->u.d, 1, 1e-12);
	/* the exact verifier's diff of text */
	cr_assert_neq(field(attr(&report, "output"), "diff")->kind, ASSAY_V_NULL);
	cr_assert_eq(field(attr(&report, "status_code"), "diff")->kind, ASSAY_V_NULL);
}

Test(score, passing_ignores_weights_and_needs_every_attribute)
{
	assay_verdict v;

	setup("{\"output\": \"ok\\n\", \"status_code\": 1}",
	      "{\"output\": {\"weight\": 100}, \"status_code\": {\"weight\": 0.01}}", 0, "ok\n");
	build(&v, assay_now());
	cr_assert_not(v.passed);
	cr_assert_float_eq(v.score, 100 / 100.01, 1e-12);

	setup("{\"output\": \"ok\\n\"}", "{}", 0, "ok\n");
	build(&v, assay_now());
	cr_assert(v.passed);
	cr_assert_float_eq(v.score, 1.0, 1e-12);
}

Test(score, unverified_attributes_are_listed_with_null_verdict_and_zero_weight)
{
	assay_verdict v;
	assay_value report;
	double t0 = assay_now() - 0.25;

	setup("{\"output\": \"ok\\n\"}", "{}", 0, "ok\n");
	/* the stderr attribute said "warning" */
	F.result.attrs[2].actual.bytes = "warning\n";
	F.result.attrs[2].actual.len = 8;
	report = build(&v, t0);
	const assay_value *st = attr(&report, "stderr");
	cr_assert_eq(field(st, "is_correct")->kind, ASSAY_V_NULL);
	cr_assert_eq(field(st, "expected")->kind, ASSAY_V_NULL);
	cr_assert_eq(field(st, "diff")->kind, ASSAY_V_NULL);
	cr_assert_float_eq(field(st, "weight")->u.d, 0.0, 1e-12);
	cr_assert(assay_value_is_str(field(st, "actual"), "warning\n"));
	cr_assert(assay_value_is_str(field(st, "attribute"), "stderr"));
	const assay_value *sc = attr(&report, "status_code");
	cr_assert_eq(field(sc, "actual")->kind, ASSAY_V_INT);
	cr_assert_eq(field(sc, "actual")->u.i, 0);
	/* resource figures are limits: listed only when expected */
	cr_assert_null(assay_object_get(assay_object_get(&report, "results"), "execution_time"));
	cr_assert_null(assay_object_get(assay_object_get(&report, "results"), "max_rss"));
	/* the VerifierReport fields, in order */
	static const char *const keys[] = { "id", "group", "type", "timestamp", "duration",
					    "results", "case", "original_checkpoint",
					    "original_group" };
	cr_assert_eq(report.len, 9);
	for (uint32_t i = 0; i < report.len; i++)
		cr_assert_str_eq(report.u.members[i].key.u.s, keys[i]);
	cr_assert(assay_value_is_str(field(&report, "id"), "c1"));
	cr_assert(assay_value_is_str(field(&report, "group"), "core"));
	cr_assert(assay_value_is_str(field(&report, "type"), "Core"));
	/* duration runs from t0 to the end of verification */
	cr_assert_geq(field(&report, "duration")->u.d, 0.25);
	cr_assert_lt(field(&report, "duration")->u.d, 60);
	/* UTC, ISO 8601 with microseconds and Z: 2026-11-23T11:33:15.123456Z */
	const assay_value *ts = field(&report, "timestamp");
	cr_assert_eq(ts->kind, ASSAY_V_STRING);
	cr_assert_eq(ts->len, 27, "%s", ts->u.s);
	cr_assert(ts->u.s[10] == 'T' && ts->u.s[19] == '.' && ts->u.s[26] == 'Z', "%s", ts->u.s);
	/* "case" is the case's definition with the adapter's type */
	char *c = written(field(&report, "case"));
	cr_assert_str_eq(c, "{\"arguments\": [\"x\"], \"type\": \"cli\"}");
	free(c);
	cr_assert_eq(field(&report, "original_checkpoint")->kind, ASSAY_V_NULL);
}

Test(score, regression_reports_keep_their_origin)
{
	assay_verdict v;
	assay_value report;

	setup("{\"status_code\": 0}", "{}", 0, "");
	F.group.type = ASSAY_GROUP_REGRESSION;
	F.group.original_checkpoint = "checkpoint_1";
	F.group.original_group = "core";
	report = build(&v, assay_now());
	cr_assert(assay_value_is_str(field(&report, "type"), "Regression"));
	cr_assert(assay_value_is_str(field(&report, "original_checkpoint"), "checkpoint_1"));
	cr_assert(assay_value_is_str(field(&report, "original_group"), "core"));
}

Test(score, missing_expected_file_fails)
{
	assay_verdict v;
	assay_value report;

	/* not produced, and not even listed by the adapter */
	setup("{\"files-out.txt\": \"x\", \"status_code\": 0}", "{}", 0, "");
	report = build(&v, assay_now());
	const assay_value *a = attr(&report, "files-out.txt");
	cr_assert(is_bool(field(a, "is_correct"), false));
	cr_assert_eq(field(a, "actual")->kind, ASSAY_V_NULL);
	cr_assert(assay_value_is_str(field(a, "diff"), "file was not produced"));
	cr_assert_float_eq(v.score, 0.5, 1e-12);
	cr_assert_not(v.passed);

	/* listed by the adapter as missing: the same */
	setup("{\"files-out.txt\": \"x\", \"status_code\": 0}", "{}", 0, "");
	assay_case_result_add(&F.result, "files-out.txt",
			      (assay_actual){ .kind = ASSAY_ACTUAL_MISSING });
	report = build(&v, assay_now());
	cr_assert(is_bool(field(attr(&report, "files-out.txt"), "is_correct"), false));
	cr_assert_float_eq(v.score, 0.5, 1e-12);

	/* produced: verified as bytes */
	setup("{\"files-out.txt\": \"x\", \"status_code\": 0}", "{}", 0, "");
	add_bytes(&F.result, "files-out.txt", "x");
	report = build(&v, assay_now());
	cr_assert(is_bool(field(attr(&report, "files-out.txt"), "is_correct"), true));
	cr_assert(v.passed);
}

Test(score, resource_limits_pass_at_most_the_limit)
{
	assay_verdict v;
	assay_value report;
	char *d;

	/* execution_time 1.25 s, max_rss 4096 bytes */
	setup("{\"status_code\": 0, \"execution_time\": {\"max\": 2}, \"max_rss\": 4096}", "{}", 0,
	      "");
	report = build(&v, assay_now());
	cr_assert(v.passed);
	cr_assert(is_bool(field(attr(&report, "execution_time"), "is_correct"), true));
	cr_assert(is_bool(field(attr(&report, "max_rss"), "is_correct"), true));

	setup("{\"status_code\": 0, \"execution_time\": 1, \"max_rss\": {\"max\": 1000}}",
	      "{\"max_rss\": {\"weight\": 2}}", 0, "");
	report = build(&v, assay_now());
	cr_assert_not(v.passed);
	cr_assert_float_eq(v.score, 1.0 / 4.0, 1e-12);
	d = written(field(attr(&report, "execution_time"), "diff"));
	cr_assert_str_eq(d, "\"execution_time: 1.25 seconds, over the limit of 1.0\"");
	free(d);
	d = written(field(attr(&report, "max_rss"), "diff"));
	cr_assert_str_eq(d, "\"max_rss: 4096 bytes, over the limit of 1000\"");
	free(d);
	cr_assert_float_eq(field(attr(&report, "max_rss"), "weight")->u.d, 2.0, 1e-12);
}

/* A time over its limit is said to the millisecond (the report's execution_time has every
 * digit), unless the rounding would bring it down to the limit: then in full. */
Test(score, a_time_over_its_limit_is_said_to_the_millisecond)
{
	const struct {
		double got;
		const char *limit, *said;
	} t[] = {
		{ 0.525314942, "0.2", "\"execution_time: 0.525 seconds, over the limit of 0.2\"" },
		{ 1.25, "1", "\"execution_time: 1.25 seconds, over the limit of 1.0\"" },
		{ 2.0004, "2", "\"execution_time: 2.0004 seconds, over the limit of 2.0\"" },
		{ 0.0021, "0.001", "\"execution_time: 0.002 seconds, over the limit of 0.001\"" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assay_verdict v;
		assay_value report;
		char expected[96], *d;

		snprintf(expected, sizeof(expected), "{\"status_code\": 0, \"execution_time\": %s}",
			 t[i].limit);
		exec_time_s = t[i].got;
		setup(expected, "{}", 0, "");
		report = build(&v, assay_now());
		cr_assert_not(v.passed);
		d = written(field(attr(&report, "execution_time"), "diff"));
		cr_assert_str_eq(d, t[i].said);
		free(d);
	}
	exec_time_s = 1.25;
}

/*
 * Issue #17: the case score is calculate_score (sum of is_correct * weight over the verified
 * attributes' weights); a verifier's partial credit is reported beside it, in case.partial, and
 * never counts. (Before, the attribute counted 0.75 * 2 and the case scored 2.5 / 3.)
 */
Test(score, partial_credit_is_shown_but_never_counts)
{
	assay_verdict v;
	assay_value report;

	/* json with per-path weights: root['a'] weighs 3, the rest 1; only root['b'] differs */
	setup("{\"output\": {\"a\": 1, \"b\": 2}, \"status_code\": 0}",
	      "{\"output\": {\"verifier\": \"json\", \"weights\": {\"root['a']\": 3}, "
	      "\"weight\": 2}}",
	      0, "{\"a\": 1, \"b\": 3}");
	report = build(&v, assay_now());
	cr_assert_not(v.passed);
	cr_assert(is_bool(field(attr(&report, "output"), "is_correct"), false));
	/* (0 * 2 + 1 * 1) / 3 */
	cr_assert_float_eq(v.score, 1.0 / 3.0, 1e-12);
	/* an AttributeResult has the contract's fields only */
	cr_assert_null(assay_object_get(attr(&report, "output"), "score"));
	cr_assert_null(assay_object_get(attr(&report, "status_code"), "score"));
	const assay_value *partial = assay_report_get(&report, "partial");
	cr_assert_float_eq(field(partial, "output")->u.d, 0.75, 1e-12);
	cr_assert_null(assay_object_get(partial, "status_code"));
}

Test(score, format_result_maps_verified_attributes_to_p_or_f)
{
	assay_verdict v;
	assay_value report, pf;

	setup("{\"output\": \"yes\\n\", \"status_code\": 0}", "{}", 0, "no\n");
	report = build(&v, assay_now());
	assay_report_format_result(&pf, F.report_arena, assay_object_get(&report, "results"));
	char *s = written(&pf);
	/* stderr was not verified: left out */
	cr_assert_str_eq(s, "{\"status_code\": \"P\", \"output\": \"F\"}");
	free(s);
}

Test(score, verifier_refusal_fails_the_case_with_an_error)
{
	assay_verdict v;
	assay_value report;

	setup("{\"output\": \"ok\"}", "{\"output\": {\"verifier\": \"nope\"}}", 0, "ok");
	report = build(&v, assay_now());
	cr_assert_not(v.passed);
	cr_assert_not_null(v.error);
	cr_assert(strstr(v.error, "output: unknown verifier 'nope'"), "%s", v.error);
	cr_assert(is_bool(field(attr(&report, "output"), "is_correct"), false));
	cr_assert(!strncmp(field(attr(&report, "output"), "diff")->u.s,
			   "verifier error: unknown verifier 'nope' (known: exact, ", 55));

	/* a regex that does not compile is a refusal too */
	setup("{\"output\": \"(unclosed\"}", "{\"output\": {\"verifier\": \"regex\"}}", 0, "x");
	build(&v, assay_now());
	cr_assert_not(v.passed);
	cr_assert(v.error && strstr(v.error, "output: regex does not compile"), "%s", v.error);
}

Test(score, error_report_fails_every_expected_attribute)
{
	assay_value r;

	setup("{\"output\": \"ok\", \"status_code\": 0}", "{\"output\": {\"weight\": 2}}", 0, "");
	r = assay_case_report_error(F.report_arena, &F.suite, &F.group, "c1", &F.kase,
				    "cannot load", assay_now());
	const assay_value *o = attr(&r, "output");
	cr_assert(is_bool(field(o, "is_correct"), false));
	cr_assert(assay_value_is_str(field(o, "diff"), "cannot load"));
	cr_assert_float_eq(field(o, "weight")->u.d, 2.0, 1e-12);
	cr_assert(assay_value_is_str(field(o, "expected"), "ok"));
	cr_assert_eq(field(o, "actual")->kind, ASSAY_V_NULL);
	cr_assert_float_eq(field(attr(&r, "status_code"), "weight")->u.d, 1.0, 1e-12);
	cr_assert_null(assay_object_get(assay_object_get(&r, "results"), "error"));

	/* nothing known about the expectations: one "error" attribute */
	F.kase.expected = assay_value_object();
	r = assay_case_report_error(F.report_arena, &F.suite, &F.group, "c1", &F.kase,
				    "cannot load", assay_now());
	cr_assert(is_bool(field(attr(&r, "error"), "is_correct"), false));
	cr_assert_eq(assay_object_get(&r, "results")->len, 1);
	/* not even a case, only its id */
	r = assay_case_report_error(F.report_arena, &F.suite, &F.group, "lost", NULL, "gone",
				    assay_now());
	cr_assert(assay_value_is_str(field(&r, "id"), "lost"));
	cr_assert(assay_value_is_str(field(attr(&r, "error"), "diff"), "gone"));
}

Test(score, verification_budget_fails_the_attribute_and_goes_on)
{
	assay_verdict v;
	assay_value report;
	assay_buf big = ASSAY_BUF_INIT;

	/* a json output bigger than the report arena's limit */
	assay_buf_addch(&big, '[');
	for (int i = 0; i < 50000; i++)
		assay_buf_adds(&big, i ? ", [\"x\"]" : "[\"x\"]");
	assay_buf_addch(&big, ']');
	setup("{\"output\": [], \"status_code\": 0}", "{\"output\": {\"verifier\": \"json\"}}", 0,
	      big.ptr);
	assay_arena_free(F.report_arena);
	F.report_arena = assay_arena_new(64 * 1024);
	report = build(&v, assay_now());
	cr_assert_not(v.passed);
	cr_assert_null(v.error, "a budget is not a suite bug");
	cr_assert(is_bool(field(attr(&report, "output"), "is_correct"), false));
	const assay_value *d = field(attr(&report, "output"), "diff");
	cr_assert_eq(d->kind, ASSAY_V_STRING);
	cr_assert(strstr(d->u.s, "verification budget"), "%s", d->u.s);
	/* the other attributes are still verified */
	cr_assert(is_bool(field(attr(&report, "status_code"), "is_correct"), true));
	cr_assert_float_eq(v.score, 0.5, 1e-12);
	assay_buf_release(&big);
}
