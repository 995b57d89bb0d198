/*
 * `assay skill report` (issue #8 item 8): per version and case, the pass rate, mean and range
 * of overall_score across runs and the flaky criteria; across versions, the criteria that
 * never discriminate; and the "evals too easy" warning (skill-evals.md 3.5 and 4.6).
 *
 * Decisions: a criterion is flaky in a (version, case) when its `passed` differs between runs
 * or its score spans 2 points or more; it never discriminates when it passed in every graded
 * run of every version (at least two runs in all); the evals are too easy when the baseline
 * (the lowest version graded) passes every case in every run, or every criterion of it scored
 * 5. Only grading files named <case>_v<N>_run<R>.json are read; an unreadable one is listed
 * under `unreadable`. A run whose grading failed has no grading file: it is counted apart, as
 * `grading_errors` (from runs/<case>/vN/runR/grading_error.json, or run_error.json when the
 * executor could not be started), never in the pass rate, so that the table shows it rather
 * than a pass rate that silently lost a run.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "skill/skill_int.h"
#include "util/banned.h"

struct grade {
	char case_id[256];
	int version, run;
	assay_value g;
};

static int by_name(const void *x, const void *y)
{
	const struct grade *a = x, *b = y;
	int c = a->version - b->version;

	if (!c)
		c = strcmp(a->case_id, b->case_id);
	return c ? c : a->run - b->run;
}

/* The runs under `runs` (a workspace folder holding run<R>/, `grades`_run<R>.json their grades;
 * both relative to `ws`) whose grading failed: run folders holding grading_error.json or
 * run_error.json (a new run removes its folder, so only the latest attempt of each run counts).
 * Only a regular file counts (never a link), and only for a run without a grading file: a run is
 * graded or failed to be, never both, so an error beside a grade is not assay's (skill check
 * agrees). Used for a version's runs and for the no-skill baseline's. */
static size_t failed_runs(const char *ws, const char *runs, const char *grades)
{
	char *dir = assay_skill__path(ws, "%s", runs);
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		char *end;
		long run;
		struct stat st;

		if (strncmp(e->d_name, "run", 3))
			continue;
		run = strtol(e->d_name + 3, &end, 10);
		if (end == e->d_name + 3 || *end || run < 1)
			continue;
		char *p = assay_skill__path(ws, "%s/%s/grading_error.json", runs, e->d_name);
		char *q = assay_skill__path(ws, "%s/%s/run_error.json", runs, e->d_name);
		char *g = assay_skill__path(ws, "%s_run%ld.json", grades, run);
		bool failed = (!lstat(p, &st) && S_ISREG(st.st_mode)) ||
			      (!lstat(q, &st) && S_ISREG(st.st_mode));
		n += failed && !assay_fs_exists(g);
		free(p);
		free(q);
		free(g);
	}
	if (d)
		closedir(d);
	free(dir);
	return n;
}

static size_t grading_errors(const char *ws, const char *id, int64_t ver)
{
	char *runs = assay_xasprintf("runs/%s/v%lld", id, (long long)ver);
	char *grades = assay_xasprintf("grading/%s_v%lld", id, (long long)ver);
	size_t n = failed_runs(ws, runs, grades);

	free(runs);
	free(grades);
	return n;
}

/* Failed runs of the baseline for one case: run_error.json or grading_error.json, no grade. */
static size_t baseline_errors(const char *ws, const char *id)
{
	char *runs = assay_xasprintf("without_skill/runs/%s", id);
	char *grades = assay_xasprintf("without_skill/grading/%s", id);
	size_t n = failed_runs(ws, runs, grades);

	free(runs);
	free(grades);
	return n;
}

/* What the parts of a report share. */
struct report {
	assay_arena *a;
	const char *ws;
	const struct grade *gs;       /* the gradings, by version, case and run */
	size_t ng;
	const assay_value *cases;     /* evals.json's cases */
	size_t bruns, bpass;          /* the no-skill baseline's runs, passes and sum of */
	double bsum;                  /* overall_score */
	int baseline;                 /* the lowest version graded, -1 when none */
};

/*
 * The no-skill baseline (issue 20 item 2) as a value {runs, grading_errors, passed, pass_rate,
 * mean, cases: [{case_id, runs, grading_errors, pass_rate, mean}]}, or null when it never ran;
 * its totals into r->bruns, r->bpass and r->bsum (of overall_score).
 */
static assay_value without_skill_value(struct report *rep, assay_value *unreadable)
{
	assay_arena *a = rep->a;
	const char *ws = rep->ws;
	const assay_value *cases = rep->cases;
	size_t *runs = &rep->bruns, *passed = &rep->bpass;
	double *sum = &rep->bsum;
	char *gdir = assay_path_join(ws, "without_skill/grading");
	assay_value out = assay_value_object(), vcases = assay_value_array();
	size_t errors = 0;
	struct dirent **names = NULL;
	int n = scandir(gdir, &names, NULL, alphasort);

	*runs = *passed = 0;
	*sum = 0;
	for (uint32_t ci = 0; cases && ci < cases->len; ci++) {
		const char *id = assay_skill__str(&cases->u.items[ci], "id");
		size_t r = 0, p = 0, gerr = id ? baseline_errors(ws, id) : 0;
		double s = 0;

		for (int i = 0; id && i < n; i++) {
			char cid[256];
			int run;
			assay_value g;
			if (!assay_skill__baseline_name(names[i]->d_name, cid, sizeof(cid), &run) ||
			    strcmp(cid, id))
				continue;
			char *path = assay_path_join(gdir, names[i]->d_name);
			if (assay_skill__load_json(&g, a, path, NULL) || g.kind != ASSAY_V_OBJECT) {
				assay_array_push(a, unreadable, assay_value_strz(a, path));
			} else {
				const assay_value *os = assay_object_get(&g, "overall_score");
				r++;
				p += assay_value_is_str(assay_object_get(&g, "overall"), "pass");
				s += os && assay_value_is_number(os) ? assay_value_number(os) : 0;
			}
			free(path);
		}
		errors += gerr;
		if (!r && !gerr)
			continue;
		assay_value ce = assay_value_object();
		assay_object_set(a, &ce, "case_id", assay_value_strz(a, id));
		assay_object_set(a, &ce, "runs", assay_value_int((int64_t)r));
		assay_object_set(a, &ce, "grading_errors", assay_value_int((int64_t)gerr));
		assay_object_set(a, &ce, "pass_rate", r ? assay_value_real((double)p / (double)r)
							: assay_value_null());
		assay_object_set(a, &ce, "mean", r ? assay_value_real(assay_skill_round1(
								  s / (double)r))
						   : assay_value_null());
		assay_array_push(a, &vcases, ce);
		*runs += r;
		*passed += p;
		*sum += s;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(gdir);
	if (!*runs && !errors)
		return assay_value_null();
	assay_object_set(a, &out, "runs", assay_value_int((int64_t)*runs));
	assay_object_set(a, &out, "grading_errors", assay_value_int((int64_t)errors));
	assay_object_set(a, &out, "passed", assay_value_int((int64_t)*passed));
	assay_object_set(a, &out, "pass_rate", *runs ? assay_value_real((double)*passed /
									 (double)*runs)
						     : assay_value_null());
	assay_object_set(a, &out, "mean", *runs ? assay_value_real(assay_skill_round1(
							  *sum / (double)*runs))
						: assay_value_null());
	assay_object_set(a, &out, "cases", vcases);
	return out;
}

static const assay_value *result(const assay_value *g, const char *crit)
{
	const assay_value *rs = assay_object_get(g, "results");

	for (uint32_t i = 0; rs && rs->kind == ASSAY_V_ARRAY && i < rs->len; i++)
		if (assay_value_is_str(assay_object_get(&rs->u.items[i], "criterion"), crit))
			return &rs->u.items[i];
	return NULL;
}

/* The gradings of a workspace (grading/<case>_v<N>_run<R>.json), by version, case and run;
 * the files that cannot be read go to `unreadable`. */
static struct grade *load_gradings(assay_arena *a, const char *ws, size_t *ng,
				   assay_value *unreadable)
{
	char *gdir = assay_path_join(ws, "grading");
	DIR *d = opendir(gdir);
	struct dirent *e;
	struct grade *gs = NULL;
	size_t alloc = 0;

	*ng = 0;
	while (d && (e = readdir(d))) {
		struct grade g;
		if (!assay_skill__grading_name(e->d_name, g.case_id, sizeof(g.case_id), &g.version,
					       &g.run))
			continue;
		char *p = assay_path_join(gdir, e->d_name);
		if (assay_skill__load_json(&g.g, a, p, NULL) || g.g.kind != ASSAY_V_OBJECT) {
			assay_array_push(a, unreadable, assay_value_strz(a, p));
		} else {
			if (*ng == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				gs = assay_xrealloc(gs, alloc * sizeof(*gs));
			}
			gs[(*ng)++] = g;
		}
		free(p);
	}
	if (d)
		closedir(d);
	free(gdir);
	if (*ng) /* qsort must not be given NULL, even for 0 items */
		qsort(gs, *ng, sizeof(*gs), by_name);
	return gs;
}

/* One version's figures, over its cases. */
struct version_tally {
	size_t runs, pass, graded_cases, passed_cases, errors;
	double sum;
	bool all_five;                /* every criterion of every run scored 5 */
	bool any;                     /* a case has graded runs */
};

static bool of(const struct grade *g, int64_t ver, const char *id)
{
	return g->version == ver && !strcmp(g->case_id, id);
}

/* The criteria of case `ec` that are flaky in version `ver`: `passed` differs between runs, or
 * the score spans 2 points or more. */
static assay_value flaky_criteria(const struct report *r, int64_t ver, const assay_value *ec,
				  const char *id)
{
	const assay_value *exps = assay_object_get(ec, "expectations");
	assay_value flaky = assay_value_array();

	for (uint32_t k = 0; exps && k < exps->len; k++) {
		const char *crit = assay_skill__str(&exps->u.items[k], "criterion");
		int seen = 0, passes = 0;
		double slo = INFINITY, shi = -INFINITY;
		for (size_t i = 0; crit && i < r->ng; i++) {
			if (!of(&r->gs[i], ver, id))
				continue;
			const assay_value *res = result(&r->gs[i].g, crit);
			if (!res)
				continue;
			double s = assay_value_number(assay_object_get(res, "score"));
			seen++;
			passes += s >= 3;
			slo = fmin(slo, s);
			shi = fmax(shi, s);
		}
		if (seen > 1 && ((passes && passes < seen) || shi - slo >= 2))
			assay_array_push(r->a, &flaky, assay_value_strz(r->a, crit));
	}
	return flaky;
}

/* Case `ec`'s entry in version `ver` into *ce, its figures added to `t`; false when it has
 * neither runs nor failed gradings (no entry). */
static bool case_value(const struct report *r, int64_t ver, const assay_value *ec,
		       struct version_tally *t, assay_value *ce)
{
	assay_arena *a = r->a;
	const char *id = assay_skill__str(ec, "id");
	size_t runs = 0, pass = 0, gerr;
	double sum = 0, lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < r->ng; i++) {
		if (!of(&r->gs[i], ver, id))
			continue;
		const assay_value *os = assay_object_get(&r->gs[i].g, "overall_score");
		double s = os && assay_value_is_number(os) ? assay_value_number(os) : 0;
		runs++;
		pass += assay_value_is_str(assay_object_get(&r->gs[i].g, "overall"), "pass");
		sum += s;
		lo = fmin(lo, s);
		hi = fmax(hi, s);
		const assay_value *rs = assay_object_get(&r->gs[i].g, "results");
		for (uint32_t k = 0; rs && rs->kind == ASSAY_V_ARRAY && k < rs->len; k++)
			t->all_five &= assay_value_number(assay_object_get(&rs->u.items[k],
									    "score")) == 5;
	}
	gerr = grading_errors(r->ws, id, ver);
	t->errors += gerr;
	if (!runs && !gerr)
		return false;
	*ce = assay_value_object();
	assay_object_set(a, ce, "case_id", assay_value_strz(a, id));
	assay_object_set(a, ce, "runs", assay_value_int((int64_t)runs));
	assay_object_set(a, ce, "grading_errors", assay_value_int((int64_t)gerr));
	if (!runs) {
		/* only failed gradings: listed, with no pass rate */
		assay_object_set(a, ce, "pass_rate", assay_value_null());
		assay_object_set(a, ce, "mean", assay_value_null());
		assay_object_set(a, ce, "min", assay_value_null());
		assay_object_set(a, ce, "max", assay_value_null());
		assay_object_set(a, ce, "flaky", assay_value_array());
		return true;
	}
	t->any = true;
	assay_value flaky = flaky_criteria(r, ver, ec, id);
	assay_object_set(a, ce, "pass_rate", assay_value_real((double)pass / (double)runs));
	assay_object_set(a, ce, "mean", assay_value_real(assay_skill_round1(sum / (double)runs)));
	assay_object_set(a, ce, "min", assay_value_real(lo));
	assay_object_set(a, ce, "max", assay_value_real(hi));
	assay_object_set(a, ce, "flaky", flaky);
	t->runs += runs;
	t->pass += pass;
	t->sum += sum;
	t->graded_cases++;
	t->passed_cases += pass == runs;
	return true;
}

/* The skill's effect: a version's runs against the runs without the skill (null when either
 * has none). */
static assay_value delta_without_skill(const struct report *r, const struct version_tally *t)
{
	double dd, lo, hi;
	assay_value de = assay_value_object();

	if (!t->runs || !r->bruns)
		return assay_value_null();
	assay_skill_delta_ci((double)t->pass, (double)t->runs, (double)r->bpass, (double)r->bruns,
			     1.959963984540054, &dd, &lo, &hi);
	assay_object_set(r->a, &de, "pass_rate", assay_value_real(dd));
	assay_object_set(r->a, &de, "ci_lo", assay_value_real(lo));
	assay_object_set(r->a, &de, "ci_hi", assay_value_real(hi));
	assay_object_set(r->a, &de, "mean", assay_value_real(assay_skill_round1(
		t->sum / (double)t->runs - r->bsum / (double)r->bruns)));
	return de;
}

/* "evals too easy", when version `ver` is the baseline and passes everything. */
static void easy_warning(const struct report *r, int64_t ver, const struct version_tally *t,
			 assay_value *warnings)
{
	if (ver != r->baseline || !t->any)
		return;
	if (r->cases && t->graded_cases == r->cases->len && t->passed_cases == t->graded_cases)
		assay_array_push(r->a, warnings, assay_value_stringf(
			r->a, "evals too easy: the baseline v%d passes every case in every run: "
			"tighten the expectations before improving the skill", r->baseline));
	else if (t->all_five)
		assay_array_push(r->a, warnings, assay_value_stringf(
			r->a, "evals too easy: every criterion of the baseline v%d scored 5",
			r->baseline));
}

/* Version `ver` (`hv`, its history.json entry): its figures and cases. */
static assay_value version_value(const struct report *r, const assay_value *hv, int64_t ver,
				 assay_value *warnings)
{
	assay_arena *a = r->a;
	assay_value ve = assay_value_object(), vcases = assay_value_array();
	struct version_tally t = { .all_five = true };
	const assay_value *desc = assay_object_get(hv, "description");
	const assay_value *avg = assay_object_get(hv, "average_score");

	assay_object_set(a, &ve, "version", assay_value_int(ver));
	assay_object_set(a, &ve, "description", desc ? assay_value_copy(a, desc)
						     : assay_value_null());
	assay_object_set(a, &ve, "average_score", avg ? assay_value_copy(a, avg)
						      : assay_value_null());
	for (uint32_t ci = 0; r->cases && ci < r->cases->len; ci++) {
		assay_value ce;

		if (case_value(r, ver, &r->cases->u.items[ci], &t, &ce))
			assay_array_push(a, &vcases, ce);
	}
	assay_object_set(a, &ve, "runs", assay_value_int((int64_t)t.runs));
	assay_object_set(a, &ve, "grading_errors", assay_value_int((int64_t)t.errors));
	assay_object_set(a, &ve, "pass_rate", t.runs ? assay_value_real((double)t.pass /
									 (double)t.runs)
						     : assay_value_null());
	assay_object_set(a, &ve, "cases", vcases);
	assay_object_set(a, &ve, "delta_without_skill", delta_without_skill(r, &t));
	easy_warning(r, ver, &t, warnings);
	return ve;
}

/* The criteria that passed in every graded run of every version (at least two runs). */
static assay_value never_discriminating(const struct report *r)
{
	assay_arena *a = r->a;
	assay_value nd = assay_value_array();

	for (uint32_t ci = 0; r->cases && ci < r->cases->len; ci++) {
		const char *id = assay_skill__str(&r->cases->u.items[ci], "id");
		const assay_value *exps = assay_object_get(&r->cases->u.items[ci], "expectations");
		for (uint32_t k = 0; exps && k < exps->len; k++) {
			const char *crit = assay_skill__str(&exps->u.items[k], "criterion");
			int seen = 0, passes = 0;
			for (size_t i = 0; crit && i < r->ng; i++) {
				const assay_value *res = strcmp(r->gs[i].case_id, id)
							 ? NULL : result(&r->gs[i].g, crit);
				if (!res)
					continue;
				seen++;
				passes += assay_value_number(assay_object_get(res, "score")) >= 3;
			}
			if (seen >= 2 && passes == seen) {
				assay_value x = assay_value_object();
				assay_object_set(a, &x, "case_id", assay_value_strz(a, id));
				assay_object_set(a, &x, "criterion", assay_value_strz(a, crit));
				assay_object_set(a, &x, "runs", assay_value_int(seen));
				assay_array_push(a, &nd, x);
			}
		}
	}
	return nd;
}

int assay_skill_report(assay_value *out, assay_arena *a, const char *workspace, assay_err *err)
{
	struct skill_config c = { 0 };
	assay_value history, evals, versions = assay_value_array();
	assay_value warnings = assay_value_array(), unreadable = assay_value_array();
	struct grade *gs = NULL;
	struct report r = { .a = a, .baseline = -1 };
	int rc;

	*out = assay_value_null();
	if ((rc = assay_skill__config_load(&c, workspace, err)) ||
	    (rc = assay_skill__history_load(&history, a, c.workspace, err)) ||
	    (rc = assay_skill__evals_load(&evals, a, &c, err)))
		goto out;
	r.ws = c.workspace;
	r.gs = gs = load_gradings(a, c.workspace, &r.ng, &unreadable);
	r.cases = assay_object_get(&evals, "cases");
	assay_value bl = without_skill_value(&r, &unreadable);
	for (size_t i = 0; i < r.ng; i++)
		if (r.baseline < 0 || gs[i].version < r.baseline)
			r.baseline = gs[i].version;

	const assay_value *hv = assay_object_get(&history, "versions");
	for (uint32_t vi = 0; vi < hv->len; vi++) {
		int64_t ver;

		if (assay_skill__int(&hv->u.items[vi], "version", &ver))
			assay_array_push(a, &versions,
					 version_value(&r, &hv->u.items[vi], ver, &warnings));
	}
	*out = assay_value_object();
	assay_object_set(a, out, "workspace", assay_value_strz(a, c.workspace));
	assay_object_set(a, out, "versions", versions);
	assay_object_set(a, out, "without_skill", bl);
	assay_object_set(a, out, "never_discriminating", never_discriminating(&r));
	assay_object_set(a, out, "warnings", warnings);
	assay_object_set(a, out, "unreadable", unreadable);
out:
	free(gs);
	assay_skill__config_release(&c);
	return rc;
}
