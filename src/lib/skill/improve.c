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
	struct skill_improver_call call = { &c->improver, vars, dir };

	rc = assay_skill__run_improver(c, &call, why, whysize, err);
	free(dir);
	free(grading);
	return rc;
}

/* One improve session: what its steps share. */
struct improve {
	const assay_skill_improve_opts *o;
	assay_skill_improve_result *out;
	assay_err *err;
	struct skill_config c;
	struct session s;
	double t0, spent;             /* when it started; what its runs cost */
	double budget_s, budget_c;
	int iterations, patience;
	double target;
	char stopped[600];            /* why it stopped ("": it goes on) */
};

/* The workspace's current version (history.json, read afresh). */
static int current_version(struct improve *m, int *n)
{
	assay_arena *ha = assay_arena_new(0);
	assay_value history;
	int rc = assay_skill__history_load(&history, ha, m->c.workspace, m->err);

	if (!rc)
		*n = (int)assay_object_get(&history, "current_version")->u.i;
	assay_arena_free(ha);
	return rc;
}

/* 1. The runs of v<n>, within what is left of the budget: their figures into `e`. */
static int run_step(struct improve *m, int n, assay_value *e, double *pass_rate)
{
	const assay_skill_improve_opts *o = m->o;
	assay_arena *a = m->s.a;
	assay_skill_run_opts ro = ASSAY_SKILL_RUN_OPTS_INIT;
	assay_skill_run_summary rs;
	int rc;

	say(o, "v%d: runs", n);
	ro.workspace = o->workspace;
	ro.version = n;
	ro.runs = o->runs > 0 ? o->runs : 3;
	ro.jobs = o->jobs;
	ro.no_cache = o->no_cache;
	ro.resume = true;
	ro.progress = o->progress;
	ro.payload = o->payload;
	ro.budget_seconds = m->budget_s > 0 ? fmax(m->budget_s - (now_s() - m->t0), 1e-9) : 0;
	ro.budget_cost = m->budget_c > 0 ? fmax(m->budget_c - m->spent, 1e-9) : 0;
	if ((rc = assay_skill_run(&rs, &ro, m->err)))
		return rc;
	m->spent += rs.cost;
	*e = assay_value_object();
	assay_object_set(a, e, "version", assay_value_int(n));
	assay_object_set(a, e, "runs", assay_value_int((int64_t)rs.graded));
	assay_object_set(a, e, "passed", assay_value_int((int64_t)rs.passed));
	assay_object_set(a, e, "pass_rate", rs.graded
		? assay_value_real((double)rs.passed / (double)rs.graded) : assay_value_null());
	assay_object_set(a, e, "average_score", isnan(rs.average_score)
		? assay_value_null() : assay_value_real(rs.average_score));
	*pass_rate = rs.graded ? (double)rs.passed / (double)rs.graded : 0;
	if (!rs.planned)
		snprintf(m->stopped, sizeof(m->stopped), "nothing to run: evals.json has no cases "
			 "(add them: docs/skills.md)");
	else if (rs.budget_hit)
		snprintf(m->stopped, sizeof(m->stopped), "the budget ran out during the runs of v%d",
			 n);
	else if (rs.grading_errors || rs.run_errors)
		snprintf(m->stopped, sizeof(m->stopped), "v%d had %zu grading error(s) and %zu run "
			 "error(s): fix them, then improve again", n, rs.grading_errors,
			 rs.run_errors);
	m->out->failed = (!rs.budget_hit || !rs.planned) && m->stopped[0];
	return 0;
}

/* 2. v<n> against v<n-1>, blind, both orders, then the analysis (its path into `analysis`,
 * "" when none was written): the figures into `e`. */
static int compare_step(struct improve *m, int n, assay_value *e, char *analysis, size_t size)
{
	const assay_skill_improve_opts *o = m->o;
	assay_arena *a = m->s.a;
	assay_skill_compare_opts co = ASSAY_SKILL_COMPARE_OPTS_INIT;
	assay_skill_compare_summary cs;
	int rc;

	co.workspace = o->workspace;
	co.va = n - 1;
	co.vb = n;
	co.no_cache = o->no_cache;
	say(o, "v%d against v%d: blind comparison, both orders", n, n - 1);
	if ((rc = assay_skill_compare(&cs, &co, m->err)))
		return rc;
	assay_object_set(a, e, "compared_with", assay_value_int(n - 1));
	assay_object_set(a, e, "win_rate", cs.judged ? assay_value_real(cs.win_rate)
						      : assay_value_null());
	assay_object_set(a, e, "ci_lo", cs.judged ? assay_value_real(cs.ci_lo) : assay_value_null());
	assay_object_set(a, e, "ci_hi", cs.judged ? assay_value_real(cs.ci_hi) : assay_value_null());
	assay_object_set(a, e, "improved", assay_value_bool(cs.judged && cs.win_rate > 0.5));
	if (cs.analysed)
		snprintf(analysis, size, "%s/analysis/v%d_vs_v%d.json", m->c.workspace, n - 1, n);
	assay_object_set(a, e, "analysis", analysis[0]
		? assay_value_stringf(a, "analysis/v%d_vs_v%d.json", n - 1, n) : assay_value_null());
	say(o, "v%d against v%d: win rate %.1f%% (95%% CI %.1f%%-%.1f%%)%s", n, n - 1,
	    100 * cs.win_rate, 100 * cs.ci_lo, 100 * cs.ci_hi,
	    cs.judged && cs.win_rate > 0.5 ? ": improved" : ": not improved");
	if (cs.errors) {
		snprintf(m->stopped, sizeof(m->stopped), "%zu judgement(s) of v%d against v%d failed",
			 cs.errors, n, n - 1);
		m->out->failed = true;
	}
	return 0;
}

/* 3. The stop rules after v<n>'s iteration (the file's comment), unless a step stopped it. */
static void stop_rules(struct improve *m, int n, double pass_rate)
{
	int made = n - m->s.start;

	if (m->stopped[0])
		;
	else if (pass_rate >= m->target)
		snprintf(m->stopped, sizeof(m->stopped), "v%d reached the target pass rate "
			 "(%.0f%% of runs passed, target %.0f%%)", n, 100 * pass_rate,
			 100 * m->target);
	else if (not_improved(&m->s) >= m->patience)
		snprintf(m->stopped, sizeof(m->stopped), "no improvement for %d iteration%s",
			 m->patience, m->patience == 1 ? "" : "s");
	else if (made >= m->iterations)
		snprintf(m->stopped, sizeof(m->stopped), "%d new version%s made (--iterations)",
			 made, made == 1 ? "" : "s");
	else if (m->budget_s > 0 && now_s() - m->t0 >= m->budget_s)
		snprintf(m->stopped, sizeof(m->stopped), "the time budget ran out");
	else if (!m->c.improver.nr)
		snprintf(m->stopped, sizeof(m->stopped), "no improver in config.json: the next "
			 "version is yours (edit the skill, `assay skill snapshot`, then "
			 "`assay skill improve` again)");
}

/* The improver writes the next version from v<n> and assay snapshots it: 0 (or stopped set,
 * when it failed or changed nothing), or an error code. */
static int next_version(struct improve *m, int n, const char *analysis)
{
	char why[512], desc[64];
	int next, rc;
	assay_err se = ASSAY_ERR_INIT;

	say(m->o, "v%d: the improver writes the next version", n);
	rc = run_improver(&m->c, n, analysis, why, sizeof(why), m->err);
	if (rc < 0)
		return rc;
	if (rc > 0) {
		snprintf(m->stopped, sizeof(m->stopped), "%s", why);
		m->out->failed = true;
		return 0;
	}
	snprintf(desc, sizeof(desc), "improver, from v%d", n);
	rc = assay_skill_snapshot(m->o->workspace, desc, false, &next, &se);
	if (rc == ASSAY_ENOMATCH) {
		snprintf(m->stopped, sizeof(m->stopped), "the improver changed nothing in the skill");
		return 0;
	}
	if (rc) {
		if (m->err)
			*m->err = se;
		return rc;
	}
	say(m->o, "v%d: snapshot made", next);
	return 0;
}

/* One iteration of the loop on the current version. */
static int iteration(struct improve *m)
{
	char analysis[4096] = "";
	assay_value e;
	double pass_rate;
	int n, rc;

	if ((rc = current_version(m, &n)) || (rc = run_step(m, n, &e, &pass_rate)))
		return rc;
	if (!m->stopped[0] && n > m->s.start && (rc = compare_step(m, n, &e, analysis,
								   sizeof(analysis))))
		return rc;
	session_put(&m->s, e);
	stop_rules(m, n, pass_rate);
	if (m->stopped[0])
		return 0;
	if ((rc = session_write(&m->s, m->c.workspace, NULL, m->err)))
		return rc;
	return next_version(m, n, analysis);
}

int assay_skill_improve(assay_skill_improve_result *out, const assay_skill_improve_opts *o,
			assay_err *err)
{
	struct improve m = { .o = o, .out = out, .err = err, .t0 = now_s() };
	assay_value history;
	int rc;

	memset(out, 0, sizeof(*out));
	out->best_version = -1;
	m.iterations = o->iterations > 0 ? o->iterations : 3;
	m.patience = o->patience > 0 ? o->patience : 2;
	m.target = o->target > 0 ? o->target : 1.0;
	m.s.a = assay_arena_new(0);
	if ((rc = assay_skill__config_load(&m.c, o->workspace, err)) ||
	    (rc = assay_skill__history_load(&history, m.s.a, m.c.workspace, err)))
		goto out;
	m.budget_s = o->budget_seconds >= 0 ? o->budget_seconds : m.c.budget_seconds;
	m.budget_c = o->budget_cost >= 0 ? o->budget_cost : m.c.budget_cost;
	session_load(&m.s, m.c.workspace,
		     (int)assay_object_get(&history, "current_version")->u.i);
	say(o, "session from v%d (improve.json)", m.s.start);
	while (!m.stopped[0])
		if ((rc = iteration(&m)))
			goto out;
	if ((rc = session_write(&m.s, m.c.workspace, m.stopped, err)))
		goto out;
	snprintf(out->stopped, sizeof(out->stopped), "%s", m.stopped);
	out->best_version = best_of(&m.s, &out->best_pass_rate);
	out->versions = m.s.iterations.len;
out:
	assay_skill__config_release(&m.c);
	assay_arena_free(m.s.a);
	return rc;
}
