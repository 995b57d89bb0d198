/*
 * `assay skill improve` (issue 20 item 1): improve mode as a loop, the cycle of skill-evals.md
 * 3.5. Each iteration takes the current version N and
 *
 *   1. runs it (assay_skill_run, `runs` runs per case, resume: runs graded before are kept);
 *   2. when N > 0, compares it blind with N-1, both orders, and analyses
 *      (assay_skill_compare: comparisons/, analysis/v<N-1>_vs_v<N>.json);
 *   3. stops when a stop rule holds (below), else asks the improver, if config.json names
 *      one, for the next version: its command gets the analysis and the skill folder, edits the
 *      skill folder, and assay snapshots it (v<N+1>, its git hash recorded as for `snapshot`).
 *
 * Stop rules, checked in this order after each iteration: a step failed (grading or run
 * errors, failed judgements, the improver's failure); the budget ran out; the pass rate
 * reached `target`; `patience` iterations in a row did not improve (an iteration improves when
 * the new version's win rate over the previous one is above 1/2); `iterations` new versions
 * were made; no improver is configured (the next version is the author's); the improver
 * changed nothing.
 *
 * Every step can be killed and the command run again: runs are resumed, comparisons cost
 * nothing twice (the judge cache answers), a version snapshotted is not made again, and
 * improve.json (written after each step) keeps the session: its first version, each
 * iteration's numbers, why it stopped. A session that stopped is over; the next `improve`
 * starts a new one from the current version.
 *
 * The best version is the one with the highest pass rate, then the highest average_score, then
 * the earliest (contract 3.5 step 4): it need not be the latest.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/fs.h"
#include "assay/proc.h"
#include "skill/skill_int.h"
#include "util/banned.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void say(const assay_skill_improve_opts *o, const char *fmt, ...) ASSAY_PRINTF(2, 3);
static void say(const assay_skill_improve_opts *o, const char *fmt, ...)
{
	assay_buf b = ASSAY_BUF_INIT;
	va_list ap;

	if (!o->step)
		return;
	va_start(ap, fmt);
	assay_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	o->step(o->payload, b.ptr);
	assay_buf_release(&b);
}

/* The session of improve.json: its first version and its iterations, by version. */
struct session {
	assay_arena *a;
	int start;
	assay_value iterations;    /* [{version, ...}] */
};

static void session_load(struct session *s, const char *ws, int current)
{
	char *p = assay_path_join(ws, "improve.json");
	assay_value v;

	s->start = current;
	s->iterations = assay_value_array();
	if (!assay_skill__load_json(&v, s->a, p, NULL) && v.kind == ASSAY_V_OBJECT &&
	    assay_object_get(&v, "stopped") && assay_object_get(&v, "stopped")->kind ==
	    ASSAY_V_NULL) {
		int64_t st;
		const assay_value *it = assay_object_get(&v, "iterations");
		if (assay_skill__int(&v, "start_version", &st) && st >= 0 && st <= current &&
		    it && it->kind == ASSAY_V_ARRAY) {
			s->start = (int)st;
			s->iterations = *it;
		}
	}
	free(p);
}

/* Sets (or replaces) the entry of `e`'s version. */
static void session_put(struct session *s, assay_value e)
{
	int64_t v, w;

	assay_skill__int(&e, "version", &v);
	for (uint32_t i = 0; i < s->iterations.len; i++)
		if (assay_skill__int(&s->iterations.u.items[i], "version", &w) && w == v) {
			s->iterations.u.items[i] = e;
			return;
		}
	assay_array_push(s->a, &s->iterations, e);
}

/* The best version of the session (see the file comment), -1 when none has a pass rate. */
static int best_of(const struct session *s, double *rate)
{
	int best = -1;
	double br = -1, bs = -INFINITY;

	for (uint32_t i = 0; i < s->iterations.len; i++) {
		const assay_value *e = &s->iterations.u.items[i];
		const assay_value *pr = assay_object_get(e, "pass_rate");
		const assay_value *av = assay_object_get(e, "average_score");
		int64_t v;
		if (!assay_skill__int(e, "version", &v) || !pr || !assay_value_is_number(pr))
			continue;
		double r = assay_value_number(pr);
		double sc = av && assay_value_is_number(av) ? assay_value_number(av) : -INFINITY;
		if (r > br || (r == br && sc > bs)) {
			best = (int)v;
			br = r;
			bs = sc;
		}
	}
	*rate = br;
	return best;
}

/* Iterations in a row, from the last one back, whose comparison did not improve. */
static int not_improved(const struct session *s)
{
	int n = 0;

	for (uint32_t i = s->iterations.len; i-- > 0;) {
		const assay_value *im = assay_object_get(&s->iterations.u.items[i], "improved");
		if (!im || im->kind != ASSAY_V_BOOL)
			continue; /* the first version: nothing to compare with */
		if (im->u.b)
			break;
		n++;
	}
	return n;
}

static int session_write(const struct session *s, const char *ws, const char *stopped,
			 assay_err *err)
{
	assay_value v = assay_value_object();
	double rate;
	int best = best_of(s, &rate);
	char *p = assay_path_join(ws, "improve.json");
	int rc;

	assay_object_set(s->a, &v, "start_version", assay_value_int(s->start));
	assay_object_set(s->a, &v, "iterations", s->iterations);
	assay_object_set(s->a, &v, "best_version", best >= 0 ? assay_value_int(best)
							     : assay_value_null());
	assay_object_set(s->a, &v, "stopped", stopped ? assay_value_strz(s->a, stopped)
						      : assay_value_null());
	rc = assay_skill__write_json(p, &v, err);
	free(p);
	return rc;
}

/*
 * Runs the improver on version `n`: 0 when it ran and exited 0; 1 when it failed (`why`);
 * an error code when assay could not run it.
 */
static int run_improver(const struct skill_config *c, int n, const char *analysis, char *why,
			size_t whysize, assay_err *err)
{
	char ver[16];
	char *dir = assay_skill__path(c->workspace, "improve/v%d", n);
	char *grading = assay_path_join(c->workspace, "grading");
	int rc;

	snprintf(ver, sizeof(ver), "%d", n);
	const char *vars[] = { "{analysis}", analysis, "{skill}", c->skill, "{workspace}",
			       c->workspace, "{version}", ver, "{grading}", grading, NULL };
	rc = assay_skill__run_improver(c, &c->improver, vars, dir, why, whysize, err);
	free(dir);
	free(grading);
	return rc;
}

int assay_skill_improve(assay_skill_improve_result *out, const assay_skill_improve_opts *o,
			assay_err *err)
{
	struct skill_config c;
	struct session s = { 0 };
	assay_value history;
	char stopped[600] = "";
	double t0 = now_s(), spent = 0;
	int iterations = o->iterations > 0 ? o->iterations : 3;
	int patience = o->patience > 0 ? o->patience : 2;
	double target = o->target > 0 ? o->target : 1.0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->best_version = -1;
	s.a = assay_arena_new(0);
	if ((rc = assay_skill__config_load(&c, o->workspace, err)) ||
	    (rc = assay_skill__history_load(&history, s.a, c.workspace, err)))
		goto out;
	double budget_s = o->budget_seconds >= 0 ? o->budget_seconds : c.budget_seconds;
	double budget_c = o->budget_cost >= 0 ? o->budget_cost : c.budget_cost;
	session_load(&s, c.workspace,
		     (int)assay_object_get(&history, "current_version")->u.i);
	say(o, "session from v%d (improve.json)", s.start);

	for (;;) {
		assay_arena *ha = assay_arena_new(0);
		int n;
		if ((rc = assay_skill__history_load(&history, ha, c.workspace, err))) {
			assay_arena_free(ha);
			goto out;
		}
		n = (int)assay_object_get(&history, "current_version")->u.i;
		assay_arena_free(ha);

		/* 1. the runs of v<n> */
		say(o, "v%d: runs", n);
		assay_skill_run_opts ro = ASSAY_SKILL_RUN_OPTS_INIT;
		assay_skill_run_summary rs;
		ro.workspace = o->workspace;
		ro.version = n;
		ro.runs = o->runs > 0 ? o->runs : 3;
		ro.jobs = o->jobs;
		ro.no_cache = o->no_cache;
		ro.resume = true;
		ro.progress = o->progress;
		ro.payload = o->payload;
		ro.budget_seconds = budget_s > 0 ? fmax(budget_s - (now_s() - t0), 1e-9) : 0;
		ro.budget_cost = budget_c > 0 ? fmax(budget_c - spent, 1e-9) : 0;
		if ((rc = assay_skill_run(&rs, &ro, err)))
			goto out;
		spent += rs.cost;
		assay_value e = assay_value_object();
		assay_object_set(s.a, &e, "version", assay_value_int(n));
		assay_object_set(s.a, &e, "runs", assay_value_int((int64_t)rs.graded));
		assay_object_set(s.a, &e, "passed", assay_value_int((int64_t)rs.passed));
		assay_object_set(s.a, &e, "pass_rate", rs.graded
			? assay_value_real((double)rs.passed / (double)rs.graded) : assay_value_null());
		assay_object_set(s.a, &e, "average_score", isnan(rs.average_score)
			? assay_value_null() : assay_value_real(rs.average_score));
		double pass_rate = rs.graded ? (double)rs.passed / (double)rs.graded : 0;
		if (!rs.planned)
			snprintf(stopped, sizeof(stopped), "nothing to run: evals.json has no cases "
				 "(add them: docs/skills.md)");
		else if (rs.budget_hit)
			snprintf(stopped, sizeof(stopped), "the budget ran out during the runs of v%d",
				 n);
		else if (rs.grading_errors || rs.run_errors)
			snprintf(stopped, sizeof(stopped), "v%d had %zu grading error(s) and %zu run "
				 "error(s): fix them, then improve again", n, rs.grading_errors,
				 rs.run_errors);
		out->failed = (!rs.budget_hit || !rs.planned) && stopped[0];

		/* 2. blind comparison with v<n-1>, then the analysis */
		char analysis[4096] = "";
		if (!stopped[0] && n > s.start) {
			assay_skill_compare_opts co = ASSAY_SKILL_COMPARE_OPTS_INIT;
			assay_skill_compare_summary cs;
			co.workspace = o->workspace;
			co.va = n - 1;
			co.vb = n;
			co.no_cache = o->no_cache;
			say(o, "v%d against v%d: blind comparison, both orders", n, n - 1);
			if ((rc = assay_skill_compare(&cs, &co, err)))
				goto out;
			assay_object_set(s.a, &e, "compared_with", assay_value_int(n - 1));
			assay_object_set(s.a, &e, "win_rate", cs.judged ? assay_value_real(cs.win_rate)
									 : assay_value_null());
			assay_object_set(s.a, &e, "ci_lo", cs.judged ? assay_value_real(cs.ci_lo)
								      : assay_value_null());
			assay_object_set(s.a, &e, "ci_hi", cs.judged ? assay_value_real(cs.ci_hi)
								      : assay_value_null());
			assay_object_set(s.a, &e, "improved",
					 assay_value_bool(cs.judged && cs.win_rate > 0.5));
			if (cs.analysed)
				snprintf(analysis, sizeof(analysis), "%s/analysis/v%d_vs_v%d.json",
					 c.workspace, n - 1, n);
			assay_object_set(s.a, &e, "analysis", analysis[0]
				? assay_value_stringf(s.a, "analysis/v%d_vs_v%d.json", n - 1, n)
				: assay_value_null());
			say(o, "v%d against v%d: win rate %.1f%% (95%% CI %.1f%%-%.1f%%)%s", n, n - 1,
			    100 * cs.win_rate, 100 * cs.ci_lo, 100 * cs.ci_hi,
			    cs.judged && cs.win_rate > 0.5 ? ": improved" : ": not improved");
			if (cs.errors) {
				snprintf(stopped, sizeof(stopped), "%zu judgement(s) of v%d against "
					 "v%d failed", cs.errors, n, n - 1);
				out->failed = true;
			}
		}
		session_put(&s, e);
		int made = n - s.start;

		/* 3. stop, or the next version */
		if (stopped[0])
			;
		else if (pass_rate >= target)
			snprintf(stopped, sizeof(stopped), "v%d reached the target pass rate "
				 "(%.0f%% of runs passed, target %.0f%%)", n, 100 * pass_rate,
				 100 * target);
		else if (not_improved(&s) >= patience)
			snprintf(stopped, sizeof(stopped), "no improvement for %d iteration%s",
				 patience, patience == 1 ? "" : "s");
		else if (made >= iterations)
			snprintf(stopped, sizeof(stopped), "%d new version%s made (--iterations)",
				 made, made == 1 ? "" : "s");
		else if (budget_s > 0 && now_s() - t0 >= budget_s)
			snprintf(stopped, sizeof(stopped), "the time budget ran out");
		else if (!c.improver.nr)
			snprintf(stopped, sizeof(stopped), "no improver in config.json: the next "
				 "version is yours (edit the skill, `assay skill snapshot`, then "
				 "`assay skill improve` again)");
		if (stopped[0])
			break;
		if ((rc = session_write(&s, c.workspace, NULL, err)))
			goto out;

		say(o, "v%d: the improver writes the next version", n);
		char why[512];
		rc = run_improver(&c, n, analysis, why, sizeof(why), err);
		if (rc < 0)
			goto out;
		if (rc > 0) {
			snprintf(stopped, sizeof(stopped), "%s", why);
			out->failed = true;
			rc = 0;
			break;
		}
		char desc[64];
		int next;
		assay_err se = ASSAY_ERR_INIT;
		snprintf(desc, sizeof(desc), "improver, from v%d", n);
		rc = assay_skill_snapshot(o->workspace, desc, false, &next, &se);
		if (rc == ASSAY_ENOMATCH) {
			snprintf(stopped, sizeof(stopped), "the improver changed nothing in the "
				 "skill");
			rc = 0;
			break;
		}
		if (rc) {
			if (err)
				*err = se;
			goto out;
		}
		say(o, "v%d: snapshot made", next);
	}
	if ((rc = session_write(&s, c.workspace, stopped, err)))
		goto out;
	snprintf(out->stopped, sizeof(out->stopped), "%s", stopped);
	out->best_version = best_of(&s, &out->best_pass_rate);
	out->versions = s.iterations.len;
out:
	assay_skill__config_release(&c);
	assay_arena_free(s.a);
	return rc;
}
