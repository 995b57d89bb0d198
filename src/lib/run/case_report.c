/*
 * From a case result to its VerifierReport (verification.md: from_verifier_result,
 * calculate_score, did_pass): every attribute of actual and expected is listed, those that are
 * expected are verified, the others carry is_correct null and weight 0. Score is the weighted
 * mean of verified attributes; passing needs every verified attribute correct.
 *
 * Key decisions:
 * - The report is a value in the caller's arena, which is also the verification budget: a
 *   verifier that parses a huge output there and goes past the arena's limit, or passes the
 *   deadline, fails its attribute with that reason and the run goes on.
 * - Captured bytes go into the report as they are (the JSON writer turns bytes that are not
 *   UTF-8 into U+FFFD), without a copy.
 * - Resource attributes (execution_time, max_rss, cpu_time) are limits: the report lists them
 *   only when expected, and `N` or `{max: N}` passes when the actual figure is at most N
 *   (seconds, bytes), unless a verify entry names another verifier.
 * - The case score is calculate_score (verification.md) and nothing else. A verifier's partial
 *   credit (numeric, json_fields, file, flexible, json with per-path weights) is a figure of
 *   its own, kept in the report's `case.partial` ({attribute: credit}); it never enters the
 *   score, and an AttributeResult carries only the contract's fields.
 * - A cut output is never judged: an attribute whose captured bytes hit their cap fails with
 *   a diff saying where it was cut, unless its verify entry says `allow_truncated: true`.
 *   Under a Python verifier one cut capture fails every attribute it returns (which comes
 *   from which capture is the verifier's secret).
 * - A case with an error has a failing attribute, so that calculate_score and did_pass over
 *   its results give what the report says: a program that never started fails every verified
 *   attribute, and a strict run's killed program fails every attribute it verified.
 * - A file expected `{absent: true}` is correct when it was not produced, whatever its verify
 *   entry names (only its weight counts).
 * - A verifier that refuses its options or expected value (a regex that does not compile) makes
 *   its attribute fail with the reason as diff, and the case is flagged as an error: that is a
 *   suite bug the user must see, not a silent zero.
 * - A program that could not be started (no such command) never ran: the case is an error
 *   whatever its expectations, so `status_code: nonzero` cannot pass on a missing submission.
 *   A program that timed out or was killed by a signal has a status other than 0, which
 *   `nonzero` accepts (suite-format.md); the terminal says so, and under strictness
 *   (--strict, `strict: true`) such a case is an error instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "assay/plugin.h"
#include "assay/report.h"
#include "assay/run.h"
#include "assay/verify.h"
#include "util/banned.h"

static const char *const limit_attributes[] = { "execution_time", "max_rss", "cpu_time", NULL };

static bool is_limit(const char *name)
{
	for (const char *const *l = limit_attributes; *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

/* Key `key` (a literal) of a fresh object: appended, not copied and not looked for first. */
static void put(assay_arena *a, assay_value *o, const char *key, assay_value v)
{
	assay_object_append(a, o, assay_value_string_ref(key, strlen(key)), v);
}

/* A static string (a literal, a name from a static table) as a value, not copied. */
static assay_value lit(const char *s)
{
	return assay_value_string_ref(s, strlen(s));
}

static assay_value timestamp_now(assay_arena *a)
{
	struct timeval tv;
	struct tm tm;
	char buf[64];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	size_t n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%06ldZ", (long)tv.tv_usec);
	return assay_value_strz(a, buf);
}

static assay_value skeleton(assay_arena *a, const assay_group *g, const char *id,
			    const assay_case *c, const char *adapter)
{
	assay_value o = assay_value_object();
	assay_value def = assay_value_object();

	/* A case id is a file name (any bytes but '/'); the writer shows it as UTF-8. */
	put(a, &o, "id", assay_value_strz(a, id));
	put(a, &o, "group", assay_value_strz(a, g->name));
	put(a, &o, "type", lit(assay_group_type_name(g->type)));
	put(a, &o, "timestamp", timestamp_now(a));
	put(a, &o, "duration", assay_value_real(0));
	put(a, &o, "results", assay_value_object());
	if (c && c->definition.kind == ASSAY_V_OBJECT) {
		for (uint32_t i = 0; i < c->definition.len; i++) {
			const assay_member *m = &c->definition.u.members[i];

			/* (an unknown case key, ignored: it must not pose as assay's own) */
			if (!assay_report_key_is_addition(m->key.u.s))
				assay_object_append(a, &def, m->key, m->value);
		}
	}
	assay_object_set(a, &def, "type", assay_value_strz(a, adapter));
	put(a, &o, "case", def);
	put(a, &o, "original_checkpoint", g->original_checkpoint
						 ? assay_value_strz(a, g->original_checkpoint)
						 : assay_value_null());
	put(a, &o, "original_group",
	    g->original_group ? assay_value_strz(a, g->original_group) : assay_value_null());
	return o;
}

static void set_duration(assay_value *report, double t0)
{
	assay_value *d = (assay_value *)assay_object_get(report, "duration");

	*d = assay_value_real(assay_now() - t0);
}

static assay_value *results_of(assay_value *report)
{
	return (assay_value *)assay_object_get(report, "results");
}

static void add_result(assay_arena *a, assay_value *results, const char *name, assay_value actual,
		       const assay_value *expected, assay_value diff, int is_correct,
		       double weight)
{
	assay_value r = assay_value_object();

	put(a, &r, "attribute", assay_value_strz(a, name));
	put(a, &r, "actual", actual);
	put(a, &r, "expected", expected ? *expected : assay_value_null());
	put(a, &r, "diff", diff);
	put(a, &r, "is_correct",
	    is_correct < 0 ? assay_value_null() : assay_value_bool(is_correct));
	put(a, &r, "weight", assay_value_real(weight));
	assay_object_set(a, results, name, r);
}

static assay_value actual_value(const assay_actual *ac)
{
	switch (ac->kind) {
	case ASSAY_ACTUAL_BYTES:
		return ac->value ? *ac->value : assay_value_string_ref(ac->bytes, ac->len);
	case ASSAY_ACTUAL_INT: return assay_value_int(ac->integer);
	case ASSAY_ACTUAL_REAL: return assay_value_real(ac->real);
	case ASSAY_ACTUAL_MISSING: break;
	}
	return assay_value_null();
}

/* A resource limit (`N` or `{max: N}`) with no verifier named: at most N passes. */
static bool check_limit(assay_verification *v, assay_arena *a, const char *name,
			const assay_value *expected, const assay_actual *ac)
{
	const assay_value *max = expected->kind == ASSAY_V_OBJECT
					 ? assay_object_get(expected, "max")
					 : expected;
	double limit = assay_value_number(max);
	double got = ac->kind == ASSAY_ACTUAL_INT ? (double)ac->integer : ac->real;
	const char *unit = strcmp(name, "max_rss") ? "seconds" : "bytes";
	char gb[ASSAY_DOUBLE_BUFSIZE], lb[ASSAY_DOUBLE_BUFSIZE];

	if (!assay_value_is_number(max))
		return false;
	if (ac->kind != ASSAY_ACTUAL_INT && ac->kind != ASSAY_ACTUAL_REAL) {
		/* nothing measured (the program never ran, or the adapter has no such figure):
		 * a limit cannot hold of nothing */
		v->is_correct = false;
		v->diff = assay_value_stringf(a, "%s: not measured for this case", name);
		return true;
	}
	v->is_correct = got <= limit;
	if (v->is_correct)
		return true;
	/* to the millisecond (the report's figure has every digit), unless that would bring it
	 * down to the limit */
	double ms = round(got * 1000.0) / 1000.0;

	assay_format_double(gb, ms > limit ? ms : got);
	assay_format_double(lb, limit);
	if (ac->kind == ASSAY_ACTUAL_INT)
		v->diff = assay_value_stringf(a, "%s: %lld %s, over the limit of %lld", name,
					      ac->integer, unit, (long long)limit);
	else
		v->diff = assay_value_stringf(a, "%s: %s %s, over the limit of %s", name, gb, unit,
					      lb);
	return true;
}

/* A file expected {absent: true}: correct when not produced. */
static void check_absent(assay_verification *v, assay_arena *a, const char *name,
			 const assay_actual *ac)
{
	v->is_correct = ac->kind == ASSAY_ACTUAL_MISSING;
	if (!v->is_correct)
		v->diff = assay_value_stringf(a, "file '%s' was produced (%zu bytes), but it should "
					      "not exist", assay_file_attribute_path(name),
					      ac->kind == ASSAY_ACTUAL_BYTES ? ac->len : 0);
}

/*
 * The case has an error: every verified attribute fails with the reason (its diff kept when
 * it had one), and a case with none verified gets an `error` attribute, so that
 * calculate_score and did_pass over the results agree with the report.
 */
static void fail_all(assay_arena *a, assay_value *results, assay_score *acc, const char *why)
{
	bool any = false;

	*acc = (assay_score)ASSAY_SCORE_INIT;
	for (uint32_t i = 0; i < results->len; i++) {
		assay_value *r = &results->u.members[i].value;
		assay_value *ok = (assay_value *)assay_object_get(r, "is_correct");
		assay_value *diff = (assay_value *)assay_object_get(r, "diff");

		if (!ok || ok->kind != ASSAY_V_BOOL)
			continue;
		any = true;
		*ok = assay_value_bool(false);
		if (diff && diff->kind == ASSAY_V_NULL)
			*diff = assay_value_strz(a, why);
		assay_score_add(acc, false, assay_value_number(assay_object_get(r, "weight")));
	}
	if (!any) {
		add_result(a, results, "error", assay_value_null(), NULL, assay_value_strz(a, why),
			   0, 1.0);
		assay_score_add(acc, false, 1.0);
	}
}

/* ---- a Python verifier (verification.md "Verifier Protocol"; issue 17) ------------------ */

/* The CaseResult attributes the verifier reads as `actual`: output, stderr, status_code,
 * execution_time..., files as a mapping path -> content (files not produced are absent). The
 * output is the text received, whatever it reads as. */
static assay_value python_actual(assay_arena *a, const assay_group *g, const assay_case *c,
				 const assay_case_result *r)
{
	assay_value o = assay_value_object(), files = assay_value_object();

	assay_object_set(a, &o, "id", assay_value_strz(a, c->id));
	assay_object_set(a, &o, "group", assay_value_strz(a, g->name));
	assay_object_set(a, &o, "group_type", assay_value_strz(a, assay_group_type_name(g->type)));
	for (size_t i = 0; i < r->nattrs; i++) {
		const assay_attribute *at = &r->attrs[i];
		const char *path = assay_file_attribute_path(at->name);

		if (path) {
			if (at->actual.kind == ASSAY_ACTUAL_BYTES)
				assay_object_set(a, &files, path,
						 assay_value_string_ref(at->actual.bytes,
									at->actual.len));
		} else if (!strcmp(at->name, "output") && at->actual.kind == ASSAY_ACTUAL_BYTES) {
			assay_object_set(a, &o, at->name,
					 assay_value_string_ref(at->actual.bytes, at->actual.len));
		} else {
			assay_object_set(a, &o, at->name, actual_value(&at->actual));
		}
	}
	assay_object_set(a, &o, "files", files);
	return o;
}

/* `expected`: the case's expected mapping as written (extra keys such as `fields` included),
 * the CaseResult attributes it does not give being null (files: an empty mapping). */
static assay_value python_expected(assay_arena *a, const assay_group *g, const assay_case *c)
{
	static const char *const base[] = { "output", "stderr", "status_code", NULL };
	const assay_value *written = assay_object_get(&c->definition, "expected");
	assay_value o = assay_value_object();

	assay_object_set(a, &o, "id", assay_value_strz(a, c->id));
	assay_object_set(a, &o, "group", assay_value_strz(a, g->name));
	assay_object_set(a, &o, "group_type", assay_value_strz(a, assay_group_type_name(g->type)));
	for (const char *const *k = base; *k; k++)
		assay_object_set(a, &o, *k, assay_value_null());
	assay_object_set(a, &o, "files", assay_value_object());
	for (uint32_t i = 0; written && written->kind == ASSAY_V_OBJECT && i < written->len; i++)
		assay_object_set(a, &o, written->u.members[i].key.u.s,
				 written->u.members[i].value);
	return o;
}

/* The actual value shown for a result named `name`: the attribute of that name, or null. */
static assay_value shown_actual(const assay_case_result *r, const char *name)
{
	const assay_attribute *at = assay_case_result_get(r, name);

	return at ? actual_value(&at->actual) : assay_value_null();
}

/*
 * The first capture a Python verifier would read that was cut at its cap (output, stderr, a
 * file, a body) and whose verify entry does not say `allow_truncated: true`, or NULL. Which of
 * the verifier's attributes come from which capture cannot be known, so one cut capture makes
 * every attribute it returns incorrect: a cut output is never judged, by any verifier.
 */
static const assay_attribute *cut_capture(const assay_case *c, const assay_case_result *r)
{
	for (size_t i = 0; i < r->nattrs; i++) {
		const assay_attribute *at = &r->attrs[i];
		const assay_value *options = assay_object_get(&c->verify, at->name);
		bool cut_ok = false;

		if (at->actual.kind != ASSAY_ACTUAL_BYTES || !at->actual.truncated)
			continue;
		if (options && assay_verify_opt_bool(options, "allow_truncated", &cut_ok, NULL) == 0 &&
		    cut_ok)
			continue;
		return at;
	}
	return NULL;
}

static void python_results(assay_score *acc, assay_verdict *verdict, assay_arena *a,
			   assay_value *results, const assay_group *g, const assay_case *c,
			   const assay_case_result *r, double deadline_s)
{
	const assay_attribute *cut = cut_capture(c, r);

	assay_value actual = python_actual(a, g, c, r), expected = python_expected(a, g, c);
	assay_value got;
	assay_err e = ASSAY_ERR_INIT;
	double timeout = deadline_s > 0 ? deadline_s : 0;
	assay_python_call call = { g->verifier_python, g->verifier_class, &g->verifier_config,
				   g->name, c->id, &actual, &expected, 0, assay_arena_limit(a), a };

	/* verifier.timeout, within the verification budget's time */
	if (g->verifier_timeout > 0 && (!timeout || g->verifier_timeout < timeout))
		timeout = g->verifier_timeout;
	call.timeout = timeout;

	if (assay_python_verify(&got, &call, &e)) {
		verdict->error = assay_value_stringf(a, "%s", e.msg).u.s;
		add_result(a, results, "error", assay_value_null(), NULL,
			   assay_value_stringf(a, "verifier error: %s", e.msg), 0, 1.0);
		assay_score_add(acc, false, 1.0);
		return;
	}
	for (uint32_t i = 0; i < got.len; i++) {
		const char *name = got.u.members[i].key.u.s;
		const assay_value *v = &got.u.members[i].value;
		const assay_value *ok = assay_object_get(v, "is_correct");
		const assay_value *w = assay_object_get(v, "weight");
		const assay_value *d = assay_object_get(v, "diff");
		const assay_value *exp = assay_object_get(&expected, name);
		bool correct = ok && ok->kind == ASSAY_V_BOOL && ok->u.b;
		double weight = assay_value_is_number(w) ? assay_value_number(w) : 1.0;
		assay_value cut_diff;

		if (cut) {
			correct = false;
			cut_diff = assay_value_stringf(
				a, "%s was cut at %zu bytes (its capture's cap): a cut output is never "
				   "judged, by a Python verifier either (verify: {%s: {allow_truncated: "
				   "true}} judges it)",
				cut->name, cut->actual.len, cut->name);
			d = &cut_diff;
		}

		if (!exp && assay_file_attribute_path(name))
			exp = assay_object_get(&c->expected, name);
		assay_score_add(acc, correct, weight);
		add_result(a, results, name, shown_actual(r, name), exp,
			   d ? *d : assay_value_null(), correct, weight);
	}
	/* the attributes the verifier did not judge are listed, unverified */
	for (size_t i = 0; i < r->nattrs; i++)
		if (!assay_object_get(&got, r->attrs[i].name) && !is_limit(r->attrs[i].name))
			add_result(a, results, r->attrs[i].name, actual_value(&r->attrs[i].actual),
				   NULL, assay_value_null(), -1, 0.0);
}

int assay_case_report_build(assay_value *out, assay_verdict *verdict, assay_arena *a,
			    const assay_suite *s, const assay_group *g, const assay_case *c,
			    const assay_case_result *r, double deadline_s, double t0)
{
	static const assay_value empty = { .kind = ASSAY_V_OBJECT };
	assay_value report = skeleton(a, g, c->id, c, s->adapter->name);
	assay_value *results = results_of(&report);
	assay_score acc = ASSAY_SCORE_INIT;
	assay_value partial = assay_value_null();

	*verdict = (assay_verdict){ 0, false, NULL };
	if (g->verifier_python)
		python_results(&acc, verdict, a, results, g, c, r, deadline_s);
	/* the attributes of actual, then expected ones the adapter did not produce */
	for (size_t i = 0; !g->verifier_python && i < r->nattrs + c->expected.len; i++) {
		const assay_attribute *at = i < r->nattrs ? &r->attrs[i] : NULL;
		const char *name = at ? at->name : c->expected.u.members[i - r->nattrs].key.u.s;
		const assay_value *expected = assay_object_get(&c->expected, name);
		assay_actual missing = { .kind = ASSAY_ACTUAL_MISSING };
		const assay_actual *ac = at ? &at->actual : &missing;

		if (!at && assay_case_result_get(r, name))
			continue;
		if (!expected) {
			if (!is_limit(name))
				add_result(a, results, name, actual_value(ac), NULL,
					   assay_value_null(), -1, 0.0);
			continue;
		}
		const assay_value *options = assay_object_get(&c->verify, name);
		assay_verify_call call = { g->name, c->id, name, expected, ac,
					   options ? options : &empty, a,
					   deadline_s > 0 ? assay_now() + deadline_s : 0 };
		assay_verification v = ASSAY_VERIFICATION_INIT;
		assay_err e = ASSAY_ERR_INIT;

		bool cut_ok = false;

		if (ac->kind == ASSAY_ACTUAL_BYTES && ac->truncated &&
		    assay_verify_check(NULL, &v.weight, options, name, &e) == 0 &&
		    assay_verify_opt_bool(options, "allow_truncated", &cut_ok, NULL) == 0 &&
		    !cut_ok) {
			v.is_correct = false;
			v.diff = assay_value_stringf(
				a, "%s was cut at %zu bytes (its capture's cap): a cut output is "
				   "never judged (verify: {%s: {allow_truncated: true}} judges it)",
				name, ac->len, name);
		} else if (assay_expected_is_absent(expected) && assay_file_attribute_path(name) &&
		    assay_verify_check(NULL, &v.weight, options, name, &e) == 0) {
			check_absent(&v, a, name, ac);
		} else if (is_limit(name) && !assay_object_get(options, "verifier") &&
		    assay_verify_check(NULL, &v.weight, options, name, &e) == 0 &&
		    check_limit(&v, a, name, expected, ac)) {
			/* done: a resource limit */
		} else if (assay_verify_attribute(&v, &call, &e)) {
			v.diff = assay_value_stringf(a, "verifier error: %s", e.msg);
			v.is_correct = false;
			if (!verdict->error)
				verdict->error = assay_value_stringf(a, "%s: %s", name, e.msg).u.s;
		}
		assay_score_add(&acc, v.is_correct, v.weight);
		add_result(a, results, name, actual_value(ac), expected, v.diff, v.is_correct,
			   v.weight);
		if (v.partial >= 0) {
			if (partial.kind != ASSAY_V_OBJECT)
				partial = assay_value_object();
			assay_object_set(a, &partial, name, assay_value_real(v.partial));
		}
	}
	/* a program that never started; or what watched it is gone (the case may have killed
	 * it): whatever it printed, it cannot pass on figures no one kept (docs/security.md) */
	const char *lost = r->proc.status == ASSAY_PROC_EXEC_FAILED
				   ? "the program could not be started"
			   : r->proc.supervisor_died ? "its supervisor died during the case"
						     : NULL;

	if (!verdict->error && lost) {
		verdict->error = assay_value_stringf(a, "%s", r->error ? r->error : lost).u.s;
		fail_all(a, results, &acc, verdict->error);
	}
	verdict->score = assay_score_end(&acc, verdict->error != NULL, &verdict->passed);
	if (verdict->passed && s->strict && (r->proc.status == ASSAY_PROC_TIMED_OUT ||
					     r->proc.status == ASSAY_PROC_SIGNALED)) {
		verdict->error = assay_value_stringf(
			a, "%s, and strict mode passes no case whose program did not exit",
			r->error ? r->error : "the program was killed by a signal").u.s;
		fail_all(a, results, &acc, verdict->error);
		verdict->score = assay_score_end(&acc, true, &verdict->passed);
	}
	if (partial.kind == ASSAY_V_OBJECT)
		assay_report_set(a, &report, "partial", partial);
	set_duration(&report, t0);
	*out = report;
	return 0;
}

assay_value assay_case_report_error(assay_arena *a, const assay_suite *s, const assay_group *g,
				    const char *id, const assay_case *c, const char *message,
				    double t0)
{
	assay_value report = skeleton(a, g, id, c, s->adapter->name);
	assay_value *results = results_of(&report);
	assay_value msg = assay_value_strz(a, message);

	if (c && c->expected.len) {
		for (uint32_t i = 0; i < c->expected.len; i++) {
			const assay_member *m = &c->expected.u.members[i];
			const assay_value *opts = assay_object_get(&c->verify, m->key.u.s);
			const assay_value *w = assay_object_get(opts, "weight");

			add_result(a, results, m->key.u.s, assay_value_null(), &m->value, msg, 0,
				   assay_value_is_number(w) ? assay_value_number(w) : 1.0);
		}
	} else {
		add_result(a, results, "error", assay_value_null(), NULL, msg, 0, 1.0);
	}
	set_duration(&report, t0);
	return report;
}
