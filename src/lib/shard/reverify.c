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
 * - A line names no case on its own word: its identity (id, group, checkpoint, type,
 *   original_*) must be the suite's case of the row's own key, and it holds no field a run
 *   never writes (else refused); the run's own word (timestamp, duration, execution) is kept
 *   once of its kind.
 * - The merged line is made anew: the case's identity, remade results, case definition,
 *   score, passed and error, and the shard's timestamp, duration and execution, in the places
 *   the runner puts them: the bytes an unsharded run writes.
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

/* The fields of a report line an `assay run` writes, in its order (runner.c, case_report.c):
 * the VerifierReport's, assay's additions being in `case` (report.h). */
static const char *const line_fields[] = { "id", "group", "type", "timestamp", "duration",
					   "results", "case", "original_checkpoint",
					   "original_group", NULL };

/* The case's identity fields: the suite's, those of the remade report. */
static const char *const identity[] = { "id", "group", "type", "original_checkpoint",
					"original_group", NULL };

/* "YYYY-MM-DDTHH:MM:SS", an optional fraction, "Z": the runner's timestamp (case_report.c). */
static bool is_timestamp(const assay_value *v)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	const char *s = str(v);
	size_t i = 0;

	if (!s || v->len > 40)
		return false;
	for (; shape[i]; i++)
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
			return false;
	if (s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			;
	return s[i] == 'Z' && !s[i + 1];
}

/* `v` as JSON for a message, at most 60 bytes of it. */
static void shown(assay_buf *b, const assay_value *v)
{
	static const assay_value null = { .kind = ASSAY_V_NULL };

	assay_json_write(b, v ? v : &null, 0);
	if (b->len > 60) {
		assay_buf_setlen(b, 57);
		assay_buf_adds(b, "...");
	}
}

/* ASSAY_EINVALID: the line's `field` says `says`, the suite's case `want`. */
static int names_another(assay_err *err, const char *field, const assay_value *says,
			 const assay_value *want)
{
	assay_buf x = ASSAY_BUF_INIT, y = ASSAY_BUF_INIT;

	shown(&x, says);
	shown(&y, want);
	assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
		      "its report line says %s %s but the suite's case has %s: a line never names "
		      "another case (was the store changed by hand?)", field, x.ptr, y.ptr);
	assay_buf_release(&x);
	assay_buf_release(&y);
	return ASSAY_EINVALID;
}

/*
 * The shard's `line` names the case it is the row of (`report`, remade from the suite's case
 * for the row's own key, and its checkpoint `cp`) and holds only fields a run writes; the
 * run's own word (timestamp, duration) is at least of its kind. 0, or ASSAY_EINVALID saying
 * what is not.
 */
static int check_line(const assay_value *line, const assay_value *report,
		      const assay_checkpoint *cp, assay_arena *a, assay_err *err)
{
	const assay_value *d = assay_object_get(line, "duration");
	assay_value cpv = assay_value_strz(a, cp->name);

	for (uint32_t i = 0; line->kind == ASSAY_V_OBJECT && i < line->len; i++) {
		const char *key = line->u.members[i].key.u.s;
		const char *const *f = line_fields;

		while (*f && strcmp(*f, key))
			f++;
		if (!*f)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "its report line has a field '%.60s' that assay run "
					     "does not write: was the store changed by hand?", key);
	}
	for (size_t i = 0; identity[i]; i++)
		if (!same_json(assay_object_get(line, identity[i]), assay_object_get(report, identity[i])))
			return names_another(err, identity[i], assay_object_get(line, identity[i]),
					     assay_object_get(report, identity[i]));
	if (!same_json(assay_report_get(line, "checkpoint"), &cpv))
		return names_another(err, "checkpoint", assay_report_get(line, "checkpoint"), &cpv);
	const assay_value *ex = assay_report_get(line, "execution"), *e = assay_report_get(line, "error");

	if ((ex && ex->kind != ASSAY_V_OBJECT) || (e && e->kind != ASSAY_V_STRING))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "its %s is not one a run writes: was the store changed by "
				     "hand?", ex && ex->kind != ASSAY_V_OBJECT ? "execution" : "error");
	if (!is_timestamp(assay_object_get(line, "timestamp")))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "its timestamp is not a time (YYYY-MM-DDTHH:MM:SS.ffffffZ): "
				     "was the store changed by hand?");
	if (!d || (d->kind != ASSAY_V_INT && d->kind != ASSAY_V_REAL) ||
	    !(assay_value_number(d) >= 0) || !isfinite(assay_value_number(d)))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "its duration is not a number of seconds: was the store "
				     "changed by hand?");
	return 0;
}

int assay_shard__reverify(assay_value *line, assay_verdict *verdict, const assay_suite *suite,
			  struct shard_case_at at, assay_arena *a, assay_err *err)
{
	const assay_checkpoint *cp = &suite->checkpoints[at.icp];
	const assay_group *g = &cp->groups[at.ig];
	const char *shard_error = str(assay_report_get(line, "error"));
	const assay_value *was = assay_object_get(line, "results");
	const assay_value *pv = assay_report_get(line, "passed");
	bool says = pv && pv->kind == ASSAY_V_BOOL && pv->u.b;
	double says_score = num(assay_report_get(line, "score"), -1);
	assay_case_result r = ASSAY_CASE_RESULT_INIT;
	assay_arena *va = assay_arena_new(ASSAY_VERIFY_MEMORY_DEFAULT); /* the budget */
	assay_case *c = NULL;
	assay_value report;
	assay_verdict v = { 0, false, NULL };
	const char *why = NULL, *attr = NULL;
	int rc = 0;

	assay_case_load(&c, suite, cp, g, at.k, NULL, NULL);
	if (c->error) {
		report = assay_case_report_error(va, suite, g, c->id, c, c->error, 0);
		v.error = assay_value_stringf(va, "%s", c->error).u.s;
	} else {
		result_of(&r, line);
		assay_case_report_build(&report, &v, va, suite, g, c, &r,
					ASSAY_VERIFY_SECONDS_DEFAULT, assay_now());
		if (!v.error && shard_error) {
			/* an error of the run that the line cannot give again (its supervisor
			 * died during the case): the runner failed every attribute with it */
			r.proc.supervisor_died = true;
			r.error = shard_error;
			assay_case_report_build(&report, &v, va, suite, g, c, &r,
						ASSAY_VERIFY_SECONDS_DEFAULT, assay_now());
		}
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
	if ((rc = check_line(line, &report, cp, va, err)))
		; /* the line names another case, or is not a run's */
	else if (c->error && !shard_error)
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
		/*
		 * The merged line, made as the runner makes it: the case's identity, results and
		 * definition remade (deep-copied: the case and the result are freed below), the
		 * verdict, and of the shard's line only the run's own word (timestamp, duration,
		 * execution), checked above.
		 */
		static const char *const remade[] = { "id", "group", "type" };
		static const char *const own[] = { "timestamp", "duration" };
		static const char *const defined[] = { "original_checkpoint", "original_group" };
		assay_value out = assay_value_object();
		const assay_value *ex = assay_report_get(line, "execution");

		for (size_t i = 0; i < 3; i++)
			assay_object_set(a, &out, remade[i],
					 assay_value_copy(a, assay_object_get(&report, remade[i])));
		for (size_t i = 0; i < 2; i++)
			assay_object_set(a, &out, own[i], *assay_object_get(line, own[i]));
		assay_object_set(a, &out, "results", assay_value_copy(a, now));
		assay_object_set(a, &out, "case",
				 assay_value_copy(a, assay_object_get(&report, "case")));
		for (size_t i = 0; i < 2; i++)
			assay_object_set(a, &out, defined[i],
					 assay_value_copy(a, assay_object_get(&report, defined[i])));
		/* assay's additions in `case`, in the runner's order (runner.c) */
		assay_report_set(a, &out, "checkpoint", assay_value_strz(a, cp->name));
		assay_report_set(a, &out, "score", assay_value_real(v.score));
		assay_report_set(a, &out, "passed", assay_value_bool(v.passed));
		if (ex)
			assay_report_set(a, &out, "execution", *ex);
		if (v.error)
			assay_report_set(a, &out, "error", assay_value_strz(a, v.error));
		*line = out;
		verdict->score = v.score;
		verdict->passed = v.passed;
		verdict->error = v.error ? str(assay_report_get(line, "error")) : NULL;
	}
	assay_case_result_release(&r);
	assay_case_free(c);
	assay_arena_free(va);
	return rc;
}
