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

/*
 * The no-skill baseline (issue 20 item 2) as a value {runs, grading_errors, passed, pass_rate,
 * mean, cases: [{case_id, runs, grading_errors, pass_rate, mean}]}, or null when it never ran;
 * its totals into *runs, *passed and *sum (of overall_score).
 */
static assay_value without_skill_value(assay_arena *a, const char *ws,
				       const assay_value *cases, size_t *runs, size_t *passed,
				       double *sum, assay_value *unreadable)
{
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

int assay_skill_report(assay_value *out, assay_arena *a, const char *workspace, assay_err *err)
{
	struct skill_config c;
	assay_value history, evals, versions = assay_value_array(), nd = assay_value_array();
	assay_value warnings = assay_value_array(), unreadable = assay_value_array();
	struct grade *gs = NULL;
	size_t ng = 0, alloc = 0;
	int rc;

	*out = assay_value_null();
	if ((rc = assay_skill__config_load(&c, workspace, err)) ||
	    (rc = assay_skill__history_load(&history, a, c.workspace, err)) ||
	    (rc = assay_skill__evals_load(&evals, a, &c, err)))
		goto out;

	char *gdir = assay_path_join(c.workspace, "grading");
	DIR *d = opendir(gdir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		struct grade g;
		if (!assay_skill__grading_name(e->d_name, g.case_id, sizeof(g.case_id), &g.version,
					       &g.run))
			continue;
		char *p = assay_path_join(gdir, e->d_name);
		if (assay_skill__load_json(&g.g, a, p, NULL) || g.g.kind != ASSAY_V_OBJECT) {
			assay_array_push(a, &unreadable, assay_value_strz(a, p));
		} else {
			if (ng == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				gs = assay_xrealloc(gs, alloc * sizeof(*gs));
			}
			gs[ng++] = g;
		}
		free(p);
	}
	if (d)
		closedir(d);
	free(gdir);
	if (ng) /* qsort must not be given NULL, even for 0 items */
		qsort(gs, ng, sizeof(*gs), by_name);

	const assay_value *cases = assay_object_get(&evals, "cases");
	const assay_value *hv = assay_object_get(&history, "versions");
	size_t bruns, bpass;
	double bsum;
	assay_value bl = without_skill_value(a, c.workspace, cases, &bruns, &bpass, &bsum,
					     &unreadable);
	int baseline = -1;
	for (size_t i = 0; i < ng; i++)
		if (baseline < 0 || gs[i].version < baseline)
			baseline = gs[i].version;

	for (uint32_t vi = 0; vi < hv->len; vi++) {
		int64_t ver;
		if (!assay_skill__int(&hv->u.items[vi], "version", &ver))
			continue;
		assay_value ve = assay_value_object(), vcases = assay_value_array();
		size_t vruns = 0, vpass = 0, graded_cases = 0, passed_cases = 0, verrors = 0;
		double vsum = 0;
		bool all_five = true, any = false;

		assay_object_set(a, &ve, "version", assay_value_int(ver));
		const assay_value *desc = assay_object_get(&hv->u.items[vi], "description");
		assay_object_set(a, &ve, "description", desc ? assay_value_copy(a, desc)
							     : assay_value_null());
		const assay_value *avg = assay_object_get(&hv->u.items[vi], "average_score");
		assay_object_set(a, &ve, "average_score", avg ? assay_value_copy(a, avg)
							      : assay_value_null());
		for (uint32_t ci = 0; cases && ci < cases->len; ci++) {
			const char *id = assay_skill__str(&cases->u.items[ci], "id");
			size_t runs = 0, pass = 0;
			double sum = 0, lo = INFINITY, hi = -INFINITY;
			assay_value flaky = assay_value_array();

			for (size_t i = 0; i < ng; i++) {
				if (gs[i].version != ver || strcmp(gs[i].case_id, id))
					continue;
				const assay_value *os = assay_object_get(&gs[i].g, "overall_score");
				double s = os && assay_value_is_number(os) ? assay_value_number(os) : 0;
				runs++;
				pass += assay_value_is_str(assay_object_get(&gs[i].g, "overall"),
							   "pass");
				sum += s;
				lo = fmin(lo, s);
				hi = fmax(hi, s);
				const assay_value *rs = assay_object_get(&gs[i].g, "results");
				for (uint32_t k = 0; rs && rs->kind == ASSAY_V_ARRAY && k < rs->len; k++)
					all_five &= assay_value_number(assay_object_get(
							    &rs->u.items[k], "score")) == 5;
			}
			size_t gerr = grading_errors(c.workspace, id, ver);
			verrors += gerr;
			if (!runs && !gerr)
				continue;
			if (!runs) {
				/* only failed gradings: listed, with no pass rate */
				assay_value ce = assay_value_object();
				assay_object_set(a, &ce, "case_id", assay_value_strz(a, id));
				assay_object_set(a, &ce, "runs", assay_value_int(0));
				assay_object_set(a, &ce, "grading_errors", assay_value_int((int64_t)gerr));
				assay_object_set(a, &ce, "pass_rate", assay_value_null());
				assay_object_set(a, &ce, "mean", assay_value_null());
				assay_object_set(a, &ce, "min", assay_value_null());
				assay_object_set(a, &ce, "max", assay_value_null());
				assay_object_set(a, &ce, "flaky", assay_value_array());
				assay_array_push(a, &vcases, ce);
				continue;
			}
			any = true;
			const assay_value *exps = assay_object_get(&cases->u.items[ci],
								    "expectations");
			for (uint32_t k = 0; exps && k < exps->len; k++) {
				const char *crit = assay_skill__str(&exps->u.items[k], "criterion");
				int seen = 0, passes = 0;
				double slo = INFINITY, shi = -INFINITY;
				for (size_t i = 0; crit && i < ng; i++) {
					if (gs[i].version != ver || strcmp(gs[i].case_id, id))
						continue;
					const assay_value *r = result(&gs[i].g, crit);
					if (!r)
						continue;
					double s = assay_value_number(assay_object_get(r, "score"));
					seen++;
					passes += s >= 3;
					slo = fmin(slo, s);
					shi = fmax(shi, s);
				}
				if (seen > 1 && ((passes && passes < seen) || shi - slo >= 2))
					assay_array_push(a, &flaky, assay_value_strz(a, crit));
			}
			assay_value ce = assay_value_object();
			assay_object_set(a, &ce, "case_id", assay_value_strz(a, id));
			assay_object_set(a, &ce, "runs", assay_value_int((int64_t)runs));
			assay_object_set(a, &ce, "grading_errors", assay_value_int((int64_t)gerr));
			assay_object_set(a, &ce, "pass_rate",
					 assay_value_real((double)pass / (double)runs));
			assay_object_set(a, &ce, "mean",
					 assay_value_real(assay_skill_round1(sum / (double)runs)));
			assay_object_set(a, &ce, "min", assay_value_real(lo));
			assay_object_set(a, &ce, "max", assay_value_real(hi));
			assay_object_set(a, &ce, "flaky", flaky);
			assay_array_push(a, &vcases, ce);
			vruns += runs;
			vpass += pass;
			vsum += sum;
			graded_cases++;
			passed_cases += pass == runs;
		}
		assay_object_set(a, &ve, "runs", assay_value_int((int64_t)vruns));
		assay_object_set(a, &ve, "grading_errors", assay_value_int((int64_t)verrors));
		assay_object_set(a, &ve, "pass_rate", vruns ? assay_value_real((double)vpass /
									  (double)vruns)
							    : assay_value_null());
		assay_object_set(a, &ve, "cases", vcases);
		/* The skill's effect: this version's runs against the runs without the skill. */
		if (vruns && bruns) {
			double dd, lo, hi;
			assay_value de = assay_value_object();
			assay_skill_delta_ci((double)vpass, (double)vruns, (double)bpass,
					     (double)bruns, 1.959963984540054, &dd, &lo, &hi);
			assay_object_set(a, &de, "pass_rate", assay_value_real(dd));
			assay_object_set(a, &de, "ci_lo", assay_value_real(lo));
			assay_object_set(a, &de, "ci_hi", assay_value_real(hi));
			assay_object_set(a, &de, "mean", assay_value_real(assay_skill_round1(
				vsum / (double)vruns - bsum / (double)bruns)));
			assay_object_set(a, &ve, "delta_without_skill", de);
		} else {
			assay_object_set(a, &ve, "delta_without_skill", assay_value_null());
		}
		assay_array_push(a, &versions, ve);
		if (ver == baseline && any && cases && graded_cases == cases->len &&
		    passed_cases == graded_cases)
			assay_array_push(a, &warnings, assay_value_stringf(
				a, "evals too easy: the baseline v%d passes every case in every run: "
				"tighten the expectations before improving the skill", baseline));
		else if (ver == baseline && any && all_five)
			assay_array_push(a, &warnings, assay_value_stringf(
				a, "evals too easy: every criterion of the baseline v%d scored 5",
				baseline));
	}

	for (uint32_t ci = 0; cases && ci < cases->len; ci++) {
		const char *id = assay_skill__str(&cases->u.items[ci], "id");
		const assay_value *exps = assay_object_get(&cases->u.items[ci], "expectations");
		for (uint32_t k = 0; exps && k < exps->len; k++) {
			const char *crit = assay_skill__str(&exps->u.items[k], "criterion");
			int seen = 0, passes = 0;
			for (size_t i = 0; crit && i < ng; i++) {
				const assay_value *r = strcmp(gs[i].case_id, id) ? NULL
						       : result(&gs[i].g, crit);
				if (!r)
					continue;
				seen++;
				passes += assay_value_number(assay_object_get(r, "score")) >= 3;
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
	*out = assay_value_object();
	assay_object_set(a, out, "workspace", assay_value_strz(a, c.workspace));
	assay_object_set(a, out, "versions", versions);
	assay_object_set(a, out, "without_skill", bl);
	assay_object_set(a, out, "never_discriminating", nd);
	assay_object_set(a, out, "warnings", warnings);
	assay_object_set(a, out, "unreadable", unreadable);
out:
	free(gs);
	assay_skill__config_release(&c);
	return rc;
}
