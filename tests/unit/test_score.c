/* Unit tests of scoring and report building (src/lib/run/case_report.c, verification.md). */
#include <criterion/criterion.h>
#include <string.h>

#include "assay/json.h"
#include "assay/run.h"

struct fixture {
	assay_group group;
	assay_case kase;
	assay_case_result result;
};

static void setup(struct fixture *f, const char *expected, const char *verify, int status,
		  const char *out)
{
	memset(f, 0, sizeof(*f));
	f->group.name = "core";
	f->group.type = ASSAY_GROUP_CORE;
	f->kase.id = "c1";
	f->kase.expected = json_loads(expected, 0, NULL);
	f->kase.verify = json_loads(verify, 0, NULL);
	f->kase.definition = json_pack("{s:[s]}", "arguments", "x");
	cr_assert(f->kase.expected && f->kase.verify);
	f->result.output = (assay_buf)ASSAY_BUF_INIT;
	f->result.stderr_text = (assay_buf)ASSAY_BUF_INIT;
	f->result.status_code = status;
	assay_buf_adds(&f->result.output, out);
}

static void teardown(struct fixture *f)
{
	json_decref(f->kase.expected);
	json_decref(f->kase.verify);
	json_decref(f->kase.definition);
	assay_case_result_release(&f->result);
}

static const json_t *attr(const json_t *report, const char *name)
{
	const json_t *a = json_object_get(json_object_get(report, "results"), name);
	cr_assert_not_null(a, "no attribute %s", name);
	return a;
}

Test(score, weighted_mean_of_verified_attributes)
{
	struct fixture f;
	json_t *report;
	double score;
	bool passed;
	char *error;

	setup(&f, "{\"output\": \"yes\\n\", \"status_code\": 0}",
	      "{\"output\": {\"weight\": 3}, \"status_code\": {\"weight\": 1}}", 0, "no\n");
	assay_case_report_build(&report, &score, &passed, &error, &f.group, &f.kase, &f.result,
				0.5);
	cr_assert_float_eq(score, 0.25, 1e-12);
	cr_assert_not(passed);
	cr_assert_null(error);
	cr_assert(json_is_false(json_object_get(attr(report, "output"), "is_correct")));
	cr_assert(json_is_true(json_object_get(attr(report, "status_code"), "is_correct")));
	cr_assert_float_eq(json_real_value(json_object_get(attr(report, "output"), "weight")), 3,
			   1e-12);
	json_decref(report);
	teardown(&f);
}

Test(score, passing_ignores_weights_and_needs_every_attribute)
{
	struct fixture f;
	json_t *report;
	double score;
	bool passed;
	char *error;

	setup(&f, "{\"output\": \"ok\\n\", \"status_code\": 1}",
	      "{\"output\": {\"weight\": 100}, \"status_code\": {\"weight\": 0.01}}", 0, "ok\n");
	assay_case_report_build(&report, &score, &passed, &error, &f.group, &f.kase, &f.result,
				0);
	cr_assert_not(passed);
	cr_assert_float_eq(score, 100 / 100.01, 1e-12);
	json_decref(report);
	teardown(&f);

	setup(&f, "{\"output\": \"ok\\n\"}", "{}", 0, "ok\n");
	assay_case_report_build(&report, &score, &passed, &error, &f.group, &f.kase, &f.result,
				0);
	cr_assert(passed);
	cr_assert_float_eq(score, 1.0, 1e-12);
	json_decref(report);
	teardown(&f);
}

Test(score, unverified_attributes_are_listed_with_null_verdict_and_zero_weight)
{
	struct fixture f;
	json_t *report;
	double score;
	bool passed;
	char *error;

	setup(&f, "{\"output\": \"ok\\n\"}", "{}", 0, "ok\n");
	assay_buf_adds(&f.result.stderr_text, "warning\n");
	assay_case_report_build(&report, &score, &passed, &error, &f.group, &f.kase, &f.result,
				0.25);
	const json_t *st = attr(report, "stderr");
	cr_assert(json_is_null(json_object_get(st, "is_correct")));
	cr_assert(json_is_null(json_object_get(st, "expected")));
	cr_assert_float_eq(json_real_value(json_object_get(st, "weight")), 0.0, 1e-12);
	cr_assert_str_eq(json_string_value(json_object_get(st, "actual")), "warning\n");
	const json_t *sc = attr(report, "status_code");
	cr_assert_eq(json_integer_value(json_object_get(sc, "actual")), 0);
	/* the VerifierReport fields, in order */
	static const char *const keys[] = { "id", "group", "type", "timestamp", "duration",
					    "results", "case", "original_checkpoint",
					    "original_group" };
	const char *key;
	json_t *v;
	size_t i = 0;
	json_object_foreach(report, key, v)
		cr_assert_str_eq(key, keys[i++]);
	cr_assert_eq(i, 9);
	cr_assert_str_eq(json_string_value(json_object_get(report, "type")), "Core");
	cr_assert_float_eq(json_real_value(json_object_get(report, "duration")), 0.25, 1e-12);
	json_decref(report);
	teardown(&f);
}

Test(score, missing_expected_file_fails)
{
	struct fixture f;
	json_t *report;
	double score;
	bool passed;
	char *error;

	setup(&f, "{\"files-out.txt\": \"x\", \"status_code\": 0}", "{}", 0, "");
	assay_case_report_build(&report, &score, &passed, &error, &f.group, &f.kase, &f.result,
				0);
	const json_t *a = attr(report, "files-out.txt");
	cr_assert(json_is_false(json_object_get(a, "is_correct")));
	cr_assert(json_is_null(json_object_get(a, "actual")));
	cr_assert_float_eq(score, 0.5, 1e-12);
	json_decref(report);
	teardown(&f);
}

Test(score, verifier_refusal_fails_the_case_with_an_error)
{
	struct fixture f;
	json_t *report;
	double score;
	bool passed;
	char *error;

	setup(&f, "{\"output\": \"ok\"}", "{\"output\": {\"verifier\": \"nope\"}}", 0, "ok");
	assay_case_report_build(&report, &score, &passed, &error, &f.group, &f.kase, &f.result,
				0);
	cr_assert_not(passed);
	cr_assert_not_null(error);
	cr_assert(strstr(error, "output: unknown verifier 'nope'"), "%s", error);
	cr_assert(json_is_false(json_object_get(attr(report, "output"), "is_correct")));
	free(error);
	json_decref(report);
	teardown(&f);
}

Test(score, error_report_fails_every_expected_attribute)
{
	struct fixture f;
	setup(&f, "{\"output\": \"ok\", \"status_code\": 0}", "{\"output\": {\"weight\": 2}}", 0,
	      "");
	json_t *r = assay_case_report_error(&f.group, &f.kase, "cannot load", 0);
	const json_t *o = attr(r, "output");
	cr_assert(json_is_false(json_object_get(o, "is_correct")));
	cr_assert_str_eq(json_string_value(json_object_get(o, "diff")), "cannot load");
	cr_assert_float_eq(json_real_value(json_object_get(o, "weight")), 2.0, 1e-12);
	cr_assert_not_null(attr(r, "status_code"));
	json_decref(r);
	json_decref(f.kase.expected);
	f.kase.expected = NULL;
	r = assay_case_report_error(&f.group, &f.kase, "cannot load", 0);
	cr_assert(json_is_false(json_object_get(attr(r, "error"), "is_correct")));
	json_decref(r);
	teardown(&f);
}
