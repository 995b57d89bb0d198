/*
 * A shard's case verified again at merge (shard.h, docs/security.md "What a merge trusts"): the
 * verdict is remade from the suite's own case file (expected values, verify options, defaults,
 * as `assay run` loads them) and the actual values the shard recorded, by the runner's own code
 * (assay_case_report_build). The shard's results, verdict and score are only compared with it.
 *
 * Key decisions:
 * - What a shard can still lie about is what the program did: each attribute's actual value
 *   (what it printed, its status code, its files, its times and memory), how its run ended
 *   (`execution`: exit status, truncated captures) and an error that fails the case (an error
 *   only ever fails a case, so it is kept). Everything else is remade here.
 * - An actual value is read back as the runner had it: a string as bytes (cut off captures
 *   flagged from `execution`), an integer or a real as such, null (or an attribute deleted) as
 *   not produced, a mapping or list (an api response shown parsed) as its JSON text with the
 *   value beside it, as the api adapter gives it.
 * - A shard whose verdict, score, or any attribute's expected value, is_correct, weight or
 *   score is not what re-verification makes is refused, naming the case and what differs:
 *   a store changed by hand (or verified by another assay); nothing is written.
 * - The merged line carries the remade results, case definition, score, passed and error, in
 *   the places the runner puts them: the bytes an unsharded run writes.
 */
#include <math.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "assay/report.h"
#include "assay/run.h"
#include "assay/suite.h"
#include "shard/shard_int.h"
#include "util/banned.h"

static const char *str(const assay_value *v)
{
	return v && v->kind == ASSAY_V_STRING ? v->u.s : NULL;
}

static bool flag(const assay_value *o, const char *key)
{
	const assay_value *v = assay_object_get(o, key);

	return v && v->kind == ASSAY_V_BOOL && v->u.b;
}

/* The case result the shard's line says the program gave. */
static void result_of(assay_case_result *r, const assay_value *line)
{
	static const char *const status[] = { "exited", "signaled", "timed_out", "exec_failed" };
	const assay_value *results = assay_object_get(line, "results");
	const assay_value *ex = assay_report_get(line, "execution");
	const char *st = str(assay_object_get(ex, "status"));

	for (int i = 0; st && i < 4; i++)
		if (!strcmp(st, status[i]))
			r->proc.status = (assay_proc_status)i;
	r->error = str(assay_object_get(ex, "message"));
	for (uint32_t i = 0; results && results->kind == ASSAY_V_OBJECT && i < results->len; i++) {
		const char *name = results->u.members[i].key.u.s;
		const assay_value *v = assay_object_get(&results->u.members[i].value, "actual");
		assay_actual ac = { .kind = ASSAY_ACTUAL_MISSING };

		if (!v || v->kind == ASSAY_V_NULL) {
			/* not produced */
		} else if (v->kind == ASSAY_V_INT) {
			ac = (assay_actual){ .kind = ASSAY_ACTUAL_INT, .integer = v->u.i };
		} else if (v->kind == ASSAY_V_REAL) {
			ac = (assay_actual){ .kind = ASSAY_ACTUAL_REAL, .real = v->u.d };
		} else if (v->kind == ASSAY_V_STRING) {
			ac = (assay_actual){ .kind = ASSAY_ACTUAL_BYTES, .bytes = v->u.s,
					     .len = v->len };
			if (!strcmp(name, "output"))
				ac.truncated = flag(ex, "stdout_truncated");
			else if (!strcmp(name, "stderr"))
				ac.truncated = flag(ex, "stderr_truncated");
		} else {
			assay_buf text = ASSAY_BUF_INIT;
			size_t len;

			assay_json_write(&text, v, 0);
			ac = (assay_actual){ .kind = ASSAY_ACTUAL_BYTES };
			ac.bytes = assay_case_result_keep(r, &text, &len);
			ac.len = len;
			if (v->kind == ASSAY_V_OBJECT || v->kind == ASSAY_V_ARRAY)
				ac.value = v;
		}
		assay_case_result_add(r, name, ac);
	}
}

static double num(const assay_value *v, double dflt)
{
	return v && (v->kind == ASSAY_V_INT || v->kind == ASSAY_V_REAL) ? assay_value_number(v)
									: dflt;
}

static bool same_json(const assay_value *x, const assay_value *y)
{
	static const assay_value null = { .kind = ASSAY_V_NULL };
	assay_buf bx = ASSAY_BUF_INIT, by = ASSAY_BUF_INIT;
	bool same;

	assay_json_write(&bx, x ? x : &null, ASSAY_JSON_SORT_KEYS);
	assay_json_write(&by, y ? y : &null, ASSAY_JSON_SORT_KEYS);
	same = bx.len == by.len && !memcmp(bx.ptr, by.ptr, bx.len);
	assay_buf_release(&bx);
	assay_buf_release(&by);
	return same;
}

/* What of attribute result `was` (the shard's) differs from `now` (remade), or NULL. */
static const char *differs(const assay_value *was, const assay_value *now)
{
	const assay_value *wc = assay_object_get(was, "is_correct");
	const assay_value *nc = assay_object_get(now, "is_correct");

	if (!was)
		return "is missing from the shard's results";
	if (!same_json(assay_object_get(was, "expected"), assay_object_get(now, "expected")))
		return "has another expected value than the case file";
	if (!wc || !nc || wc->kind != nc->kind || (nc->kind == ASSAY_V_BOOL && wc->u.b != nc->u.b))
		return "has another is_correct than re-verification makes";
	if (fabs(num(assay_object_get(was, "weight"), -1) -
		 num(assay_object_get(now, "weight"), -1)) > 1e-9)
		return "has another weight than the case file gives";
	if (fabs(num(assay_object_get(was, "score"), -1) -
		 num(assay_object_get(now, "score"), -1)) > 1e-9)
		return "has another score than re-verification makes";
	return NULL;
}

int assay_shard__reverify(assay_value *line, double *score_out, bool *passed_out,
			  const char **error_out, const assay_suite *suite, size_t icp, size_t ig,
			  size_t k, assay_arena *a, assay_err *err)
{
	const assay_checkpoint *cp = &suite->checkpoints[icp];
	const assay_group *g = &cp->groups[ig];
	const char *shard_error = str(assay_report_get(line, "error"));
	const assay_value *was = assay_object_get(line, "results");
	const assay_value *pv = assay_report_get(line, "passed");
	bool says = pv && pv->kind == ASSAY_V_BOOL && pv->u.b;
	double says_score = num(assay_report_get(line, "score"), -1);
	const assay_value *was_ex = assay_report_get(line, "execution");
	assay_value execution = was_ex ? *was_ex : assay_value_null();
	assay_case_result r = ASSAY_CASE_RESULT_INIT;
	assay_arena *va = assay_arena_new(ASSAY_VERIFY_MEMORY_DEFAULT); /* the budget */
	assay_case *c = NULL;
	assay_value report;
	assay_verdict v = { 0, false, NULL };
	const char *why = NULL, *attr = NULL;
	int rc = 0;

	assay_case_load(&c, suite, cp, g, k, NULL, NULL);
	if (c->error) {
		report = assay_case_report_error(va, suite, g, c->id, c, c->error, 0);
		v.error = assay_value_stringf(va, "%s", c->error).u.s;
	} else {
		result_of(&r, line);
		assay_case_report_build(&report, &v, va, suite, g, c, &r,
					ASSAY_VERIFY_SECONDS_DEFAULT, assay_now());
	}
	/*
	 * An error only fails a case: the shard's is kept when re-verification has none. The
	 * score stays calculate_score over the results (an error case's verified attributes
	 * fail, case_report.c), as the runner makes it; for an error only the shard has, the
	 * runner had failed every attribute, so its score is 0.
	 */
	if (!v.error && shard_error) {
		v.error = shard_error;
		v.score = 0;
	}
	if (v.error)
		v.passed = false;
	const assay_value *now = assay_object_get(&report, "results");
	/* a shard's error report of a case without expected values: only its verdict counts */
	if (!(shard_error && assay_object_get(was, "error") && !assay_object_get(now, "error"))) {
		for (uint32_t i = 0; now && i < now->len && !why; i++) {
			attr = now->u.members[i].key.u.s;
			why = differs(assay_object_get(was, attr), &now->u.members[i].value);
		}
		for (uint32_t i = 0; was && was->kind == ASSAY_V_OBJECT && i < was->len && !why;
		     i++) {
			attr = was->u.members[i].key.u.s;
			if (!assay_object_get(now, attr))
				why = "is not an attribute of the case";
		}
	}
	if (c->error && !shard_error)
		/* the shard loaded the case and the suite at hand cannot: not a forgery to guess */
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				   "cannot be verified again here: %s (a verifier plug-in the run "
				   "loaded with --plugin? give it to merge too)", c->error);
	else if (why)
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				   "its attribute %s %s: was the store changed by hand?", attr, why);
	else if (says != v.passed)
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				   "says %s but re-verification %s it: was the store changed by "
				   "hand?", says ? "passed" : "failed", v.passed ? "passes" : "fails");
	else if (!(fabs(says_score - v.score) <= 1e-9))
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				   "says score %g but re-verification makes %g: was the store "
				   "changed by hand?", says_score, v.score);
	if (!rc) {
		/* the remade results, deep-copied: the case and the result are freed below */
		assay_object_set(a, line, "results", assay_value_copy(a, now));
		assay_object_set(a, line, "case",
				 assay_value_copy(a, assay_object_get(&report, "case")));
		/* assay's additions in `case`, in the runner's order (runner.c); a line of the
		 * layout before (or a forged one) leaves none at the top level */
		static const char *const top[] = { "checkpoint", "score",   "passed",
						   "execution",  "error",   "partial" };

		for (size_t i = 0; i < sizeof top / sizeof *top; i++)
			assay_object_deln(line, top[i], strlen(top[i]));
		assay_report_set(a, line, "checkpoint", assay_value_strz(a, cp->name));
		assay_report_set(a, line, "score", assay_value_real(v.score));
		assay_report_set(a, line, "passed", assay_value_bool(v.passed));
		if (execution.kind != ASSAY_V_NULL)
			assay_report_set(a, line, "execution", execution);
		if (v.error)
			assay_report_set(a, line, "error", assay_value_strz(a, v.error));
		*score_out = v.score;
		*passed_out = v.passed;
		*error_out = v.error ? str(assay_report_get(line, "error")) : NULL;
	}
	assay_case_result_release(&r);
	assay_case_free(c);
	assay_arena_free(va);
	return rc;
}
