/*
 * `assay skill compare`: the blind comparison of two versions (issue #8 item 7, decision 9),
 * then the analyzer.
 *
 * For each case and run that both versions have a run folder for, a seeded draw (splitmix64
 * of the seed, the case id and the run) says which version is A; the assignment is written to
 * comparisons/assignments/ before any judge is asked, and judges get only the two outputs,
 * labelled, with every path that names a version replaced. Each pair is judged twice, the
 * second time with the labels swapped; each judgement is one comparison.json. A pair counts
 * as judged when both judgements are valid, as consistent when both pick the same version.
 * The win rate of the second version named (the candidate) counts an inconsistent pair as
 * half a win, with a Wilson 95% interval over the judged pairs. The analyzer is told the
 * unblinded winner (the candidate when its win rate is above 1/2, the other below; on a tie,
 * the one with the higher average_score, then the later one) and assay writes the version
 * labels of analysis.json itself.
 *
 * The work is four steps over one `struct comparison`: collect the pairs both versions ran
 * (and record each draw), judge each pair in both orders (a comparison.json each), summarise
 * the judgements (consistency, win rate, winner), serialise the summary (comparisons/
 * vA_vs_vB.json); then, when a pair was judged, the analyzer (analysis/vA_vs_vB.json).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "skill/skill_int.h"
#include "util/banned.h"

static assay_value label(assay_arena *a, int v)
{
	return assay_value_stringf(a, "v%d", v);
}

static assay_value outputs_text(assay_arena *a, const struct skill_config *c, const char *id,
				int version, int run)
{
	char *run_dir = assay_skill__path(c->workspace, "runs/%s/v%d/run%d", id, version, run);
	char *skill = assay_skill__path(c->workspace, "v%d/skill", version);
	const char *redact[] = { run_dir, "<run>", skill, "<skill>", c->workspace, "<workspace>",
				 c->skill, "<skill>", NULL };
	assay_buf b = ASSAY_BUF_INIT;
	assay_value v;

	assay_skill__run_outputs(&b, run_dir, redact, 512u << 10);
	v = assay_value_string(a, b.ptr, b.len);
	assay_buf_release(&b);
	free(run_dir);
	free(skill);
	return v;
}

static assay_value file_text(assay_arena *a, const char *path, size_t max)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_value v;

	if (assay_fs_read(&b, path, max, NULL) && !b.len)
		assay_buf_adds(&b, "(missing)");
	v = assay_value_string(a, b.ptr, b.len);
	assay_buf_release(&b);
	return v;
}

static double average(const assay_value *history, int version)
{
	const assay_value *vs = assay_object_get(history, "versions");

	for (uint32_t i = 0; vs && i < vs->len; i++) {
		int64_t v;
		const assay_value *s = assay_object_get(&vs->u.items[i], "average_score");
		if (assay_skill__int(&vs->u.items[i], "version", &v) && v == version && s &&
		    assay_value_is_number(s))
			return assay_value_number(s);
	}
	return -1;
}

/* One comparison of two versions: what its steps share. */
struct comparison {
	const assay_skill_compare_opts *o;
	assay_skill_compare_summary *out;
	assay_err *err;
	struct skill_config c;
	assay_arena *a;
	assay_value evals, history;
	int va, vb;                  /* vb is the candidate */
	uint64_t seed;
	assay_judge *judge;          /* the comparator */
	assay_value pairs;           /* the summary's pair_results */
	assay_value judgements;      /* the summary's judgements, also the analyzer's input */
	double wins_b;               /* the candidate's wins, an inconsistent pair 1/2 */
	const char *first_case;      /* the first pair compared: its transcripts go to the */
	int first_case_run;          /* analyzer */
};

/* One pair: a case's run that both versions have, with its draw. */
struct pair {
	const assay_value *ec;       /* the case in evals.json */
	const char *id;
	int run;
	int order_a[2];              /* which version is A in the first order, in the second */
	assay_value text_a, text_b;  /* the outputs of va and vb */
};

static int other(const struct comparison *k, int version)
{
	return version == k->va ? k->vb : k->va;
}

/* Writes `v` to the workspace file named by `fmt`. */
static int write_file(struct comparison *k, const assay_value *v, const char *fmt, ...)
	ASSAY_PRINTF(3, 4);

static int write_file(struct comparison *k, const assay_value *v, const char *fmt, ...)
{
	assay_buf path = ASSAY_BUF_INIT;
	va_list ap;
	int rc;

	assay_buf_adds(&path, k->c.workspace);
	assay_buf_addch(&path, '/');
	va_start(ap, fmt);
	assay_buf_vaddf(&path, fmt, ap);
	va_end(ap);
	rc = assay_skill__write_json(path.ptr, v, k->err);
	assay_buf_release(&path);
	return rc;
}

/* ---- collect: the workspace, the versions, the pairs both ran -------------------------- */

static int open_comparison(struct comparison *k)
{
	const assay_value *vs;
	int rc, nv;

	if ((rc = assay_skill__config_load(&k->c, k->o->workspace, k->err)) ||
	    (rc = assay_skill__history_load(&k->history, k->a, k->c.workspace, k->err)) ||
	    (rc = assay_skill__evals_load(&k->evals, k->a, &k->c, k->err)))
		return rc;
	if (k->va == k->vb)
		return assay_err_set(k->err, ASSAY_EINVALID, NULL, 0, 0,
				     "compare two different versions");
	vs = assay_object_get(&k->history, "versions");
	nv = vs && vs->kind == ASSAY_V_ARRAY ? (int)vs->len : 0;
	if (k->va >= nv || k->vb >= nv)
		return assay_err_set(k->err, ASSAY_ENOMATCH, NULL, 0, 0,
				     "no version v%d: the workspace has v0 to v%d (history.json)",
				     k->va >= nv ? k->va : k->vb, nv - 1);
	if ((rc = assay_skill__judge_new(&k->judge, &k->c, ASSAY_JUDGE_COMPARATOR,
					 k->o->no_cache, k->err)))
		return rc;
	k->seed = k->o->have_seed ? k->o->seed : k->c.seed;
	return 0;
}

/* Whether both versions have a run folder for `id`'s run `run`. */
static bool both_ran(const struct comparison *k, const char *id, int run)
{
	char *ra = assay_skill__path(k->c.workspace, "runs/%s/v%d/run%d", id, k->va, run);
	char *rb = assay_skill__path(k->c.workspace, "runs/%s/v%d/run%d", id, k->vb, run);
	bool both = assay_fs_is_dir(ra) && assay_fs_is_dir(rb);

	free(ra);
	free(rb);
	return both;
}

/* The draw of a pair, recorded (comparisons/assignments/) before any judge is asked. */
static int draw(struct comparison *k, struct pair *p)
{
	bool first_a = assay_skill_first_is_a(k->seed, p->id, p->run);
	assay_value asg = assay_value_object();

	p->order_a[0] = first_a ? k->va : k->vb;
	p->order_a[1] = first_a ? k->vb : k->va;
	for (int n = 0; n < 2; n++) {
		assay_value m = assay_value_object();

		assay_object_set(k->a, &m, "A", label(k->a, p->order_a[n]));
		assay_object_set(k->a, &m, "B", label(k->a, other(k, p->order_a[n])));
		assay_object_set(k->a, &asg, n ? "order2" : "order1", m);
	}
	assay_object_set(k->a, &asg, "case_id", assay_value_strz(k->a, p->id));
	assay_object_set(k->a, &asg, "run", assay_value_int(p->run));
	assay_object_set(k->a, &asg, "seed", assay_value_int((int64_t)k->seed));
	return write_file(k, &asg, "comparisons/assignments/%s_v%d_vs_v%d_run%d.json", p->id,
			  k->va, k->vb, p->run);
}

/* ---- judge: one pair in one order ------------------------------------------------------ */

/* A judgement's entry in the summary: case, run and order. */
static assay_value judgement(struct comparison *k, const struct pair *p, int order)
{
	assay_value e = assay_value_object();

	assay_object_set(k->a, &e, "case_id", assay_value_strz(k->a, p->id));
	assay_object_set(k->a, &e, "run", assay_value_int(p->run));
	assay_object_set(k->a, &e, "order", assay_value_int(order + 1));
	return e;
}

/* A judgement the judge failed to give: counted, its reason kept, an entry with the error. */
static void judgement_failed(struct comparison *k, const struct pair *p, int order,
			     const char *why)
{
	assay_skill_compare_summary *out = k->out;
	assay_value e = judgement(k, p, order);

	if (out->errors < ASSAY_SKILL_REASONS) {
		/* cut to the room there is, as it is (a cut character and all) */
		assay_buf b = ASSAY_BUF_INIT;
		char *r = out->reasons[out->errors];
		size_t n;

		assay_buf_addf(&b, "%s run %d order %d: %s", p->id, p->run, order + 1, why);
		n = b.len < sizeof(out->reasons[0]) ? b.len : sizeof(out->reasons[0]) - 1;
		memcpy(r, b.ptr, n);
		r[n] = '\0';
		assay_buf_release(&b);
	}
	out->errors++;
	assay_object_set(k->a, &e, "error", assay_value_strz(k->a, why));
	assay_array_push(k->a, &k->judgements, e);
}

/* comparison.json of one judgement: the judge's answer `ans`, its scores as integers. */
static assay_value comparison_json(struct comparison *k, const struct pair *p,
				   const assay_value *ans)
{
	assay_arena *a = k->a;
	assay_value cj = assay_value_object(), scores = assay_value_object();
	const assay_value *s = assay_object_get(ans, "scores");

	assay_object_set(a, &cj, "eval_prompt", assay_value_strz(a, assay_skill__str(p->ec, "prompt")));
	assay_object_set(a, &cj, "winner", assay_value_copy(a, assay_object_get(ans, "winner")));
	assay_object_set(a, &cj, "reasoning",
			 assay_value_copy(a, assay_object_get(ans, "reasoning")));
	for (uint32_t d = 0; d < s->len; d++) {
		assay_value dim = assay_value_object();

		for (int side = 0; side < 2; side++) {
			const char *l = side ? "B" : "A";

			assay_object_set(a, &dim, l, assay_value_int((int64_t)assay_value_number(
				assay_object_get(&s->u.members[d].value, l))));
		}
		assay_object_append(a, &scores, s->u.members[d].key, dim);
	}
	assay_object_set(a, &cj, "scores", scores);
	return cj;
}

/*
 * Asks the comparator about pair `p` in order `order` (0: the draw's, 1: swapped); sets
 * *winner to the version it picked, or -1 when its answer was not valid (a failed judgement).
 */
static int judge_order(struct comparison *k, const struct pair *p, int order, int *winner)
{
	assay_arena *a = k->a;
	int A = p->order_a[order], jrc, rc;
	assay_value req = assay_value_object(), ans, cj, e;
	assay_judge_stats st;
	assay_err je = ASSAY_ERR_INIT;

	*winner = -1;
	assay_object_set(a, &req, "eval_prompt",
			 assay_value_strz(a, assay_skill__str(p->ec, "prompt")));
	assay_object_set(a, &req, "expectations",
			 assay_value_copy(a, assay_object_get(p->ec, "expectations")));
	assay_object_set(a, &req, "output_a", A == k->va ? p->text_a : p->text_b);
	assay_object_set(a, &req, "output_b", A == k->va ? p->text_b : p->text_a);
	jrc = assay_judge_ask(k->judge, ASSAY_JUDGE_COMPARATOR, &req, &ans, a, &st, &je);
	if (jrc == ASSAY_EINVALID) {
		judgement_failed(k, p, order, je.msg);
		return 0;
	}
	if (jrc)
		return assay_err_set(k->err, jrc, je.path, je.line, je.column, "%s", je.msg);
	cj = comparison_json(k, p, &ans);
	if ((rc = write_file(k, &cj, "comparisons/%s_v%d_vs_v%d_run%d_order%d.json", p->id,
			     k->va, k->vb, p->run, order + 1)))
		return rc;
	*winner = assay_value_is_str(assay_object_get(&ans, "winner"), "A") ? A : other(k, A);
	e = judgement(k, p, order);
	assay_object_set(a, &e, "winner_version", label(a, *winner));
	assay_object_set(a, &e, "reasoning",
			 assay_value_copy(a, assay_object_get(&ans, "reasoning")));
	assay_array_push(a, &k->judgements, e);
	return 0;
}

/* ---- summarise ------------------------------------------------------------------------- */

/* A pair's two judgements: counted when both are valid, its entry in pair_results. */
static void tally_pair(struct comparison *k, const struct pair *p, const int winner[2])
{
	assay_skill_compare_summary *out = k->out;
	assay_value pr = assay_value_object();

	assay_object_set(k->a, &pr, "case_id", assay_value_strz(k->a, p->id));
	assay_object_set(k->a, &pr, "run", assay_value_int(p->run));
	if (winner[0] >= 0 && winner[1] >= 0) {
		bool same = winner[0] == winner[1];

		out->judged++;
		out->consistent += same;
		k->wins_b += same ? (winner[0] == k->vb) : 0.5;
		assay_object_set(k->a, &pr, "winner_version",
				 same ? label(k->a, winner[0]) : assay_value_null());
		assay_object_set(k->a, &pr, "order_consistent", assay_value_bool(same));
	} else {
		assay_object_set(k->a, &pr, "winner_version", assay_value_null());
		assay_object_set(k->a, &pr, "order_consistent", assay_value_null());
	}
	assay_array_push(k->a, &k->pairs, pr);
}

/* One pair: its draw, its outputs, both orders judged, tallied. */
static int compare_pair(struct comparison *k, const assay_value *ec, const char *id, int run)
{
	struct pair p = { ec, id, run, { 0, 0 }, assay_value_null(), assay_value_null() };
	int winner[2] = { -1, -1 }, rc;

	k->out->pairs++;
	if (!k->first_case) {
		k->first_case = id;
		k->first_case_run = run;
	}
	if ((rc = draw(k, &p)))
		return rc;
	p.text_a = outputs_text(k->a, &k->c, id, k->va, run);
	p.text_b = outputs_text(k->a, &k->c, id, k->vb, run);
	for (int order = 0; order < 2; order++)
		if ((rc = judge_order(k, &p, order, &winner[order])))
			return rc;
	tally_pair(k, &p, winner);
	return 0;
}

/* Every case's runs 1, 2, ... while both versions have them. */
static int compare_pairs(struct comparison *k)
{
	const assay_value *cases = assay_object_get(&k->evals, "cases");
	int rc;

	for (uint32_t i = 0; i < cases->len; i++) {
		const assay_value *ec = &cases->u.items[i];
		const char *id = assay_skill__str(ec, "id");

		for (int run = 1; run <= 1000 && both_ran(k, id, run); run++)
			if ((rc = compare_pair(k, ec, id, run)))
				return rc;
	}
	if (!k->out->pairs)
		return assay_err_set(k->err, ASSAY_ENOTFOUND, NULL, 0, 0, "no case has runs of both "
				     "v%d and v%d: run `assay skill run` on each first", k->va, k->vb);
	return 0;
}

/* Rates, the Wilson interval and the winner (on a tie of win rates, the higher
 * average_score, then the later version). */
static void summarise(struct comparison *k)
{
	assay_skill_compare_summary *out = k->out;
	int va = k->va, vb = k->vb;

	if (!out->judged) {
		/* nothing judged: no winner (the summary's winner_version is null) */
		out->winner = out->loser = -1;
		return;
	}
	out->consistency_rate = (double)out->consistent / (double)out->judged;
	out->win_rate = k->wins_b / (double)out->judged;
	assay_skill_wilson(k->wins_b, (double)out->judged, 1.959963984540054, &out->ci_lo,
			   &out->ci_hi);
	if (out->win_rate > 0.5) {
		out->winner = vb;
	} else if (out->win_rate < 0.5) {
		out->winner = va;
	} else {
		double aa = average(&k->history, va), ab = average(&k->history, vb);

		out->winner = aa > ab ? va : ab > aa ? vb : va > vb ? va : vb;
	}
	out->loser = other(k, out->winner);
}

/* ---- serialise: comparisons/vA_vs_vB.json ---------------------------------------------- */

static assay_value summary_json(struct comparison *k)
{
	const assay_skill_compare_summary *out = k->out;
	assay_arena *a = k->a;
	assay_value sum = assay_value_object(), vs = assay_value_array();
	assay_value wr = assay_value_object(), ci = assay_value_array();

	assay_array_push(a, &vs, label(a, k->va));
	assay_array_push(a, &vs, label(a, k->vb));
	assay_object_set(a, &sum, "versions", vs);
	assay_object_set(a, &sum, "seed", assay_value_int((int64_t)k->seed));
	assay_object_set(a, &sum, "pairs", assay_value_int((int64_t)out->pairs));
	assay_object_set(a, &sum, "judged_pairs", assay_value_int((int64_t)out->judged));
	assay_object_set(a, &sum, "consistent_pairs", assay_value_int((int64_t)out->consistent));
	assay_object_set(a, &sum, "failed_judgements", assay_value_int((int64_t)out->errors));
	assay_object_set(a, &sum, "order_consistency_rate", out->judged
			 ? assay_value_real(out->consistency_rate) : assay_value_null());
	assay_object_set(a, &wr, "version", label(a, k->vb));
	assay_object_set(a, &wr, "rate", out->judged ? assay_value_real(out->win_rate)
						   : assay_value_null());
	assay_array_push(a, &ci, assay_value_real(out->judged ? out->ci_lo : 0));
	assay_array_push(a, &ci, assay_value_real(out->judged ? out->ci_hi : 1));
	assay_object_set(a, &wr, "ci95", ci);
	assay_object_set(a, &wr, "method", assay_value_strz(a, "Wilson score interval; an "
							       "order-inconsistent pair counts 1/2"));
	assay_object_set(a, &sum, "win_rate", wr);
	assay_object_set(a, &sum, "winner_version", out->judged ? label(a, out->winner)
								 : assay_value_null());
	assay_object_set(a, &sum, "pair_results", k->pairs);
	assay_object_set(a, &sum, "judgements", k->judgements);
	return sum;
}

/* ---- the analyzer: analysis/vA_vs_vB.json ---------------------------------------------- */

/* What the analyzer is given: both SKILL.md files, the judgements, the first pair's
 * transcripts, with the versions unblinded. */
static assay_value analyzer_request(struct comparison *k)
{
	assay_arena *a = k->a;
	int w = k->out->winner, l = k->out->loser;
	assay_value req = assay_value_object();
	char *ws_skill = assay_skill__path(k->c.workspace, "v%d/skill/SKILL.md", w);
	char *ls_skill = assay_skill__path(k->c.workspace, "v%d/skill/SKILL.md", l);

	assay_object_set(a, &req, "winner_version", label(a, w));
	assay_object_set(a, &req, "loser_version", label(a, l));
	assay_object_set(a, &req, "winner_skill", file_text(a, ws_skill, 256u << 10));
	assay_object_set(a, &req, "loser_skill", file_text(a, ls_skill, 256u << 10));
	assay_object_set(a, &req, "comparisons", k->judgements);
	assay_object_set(a, &req, "winner_transcript",
			 outputs_text(a, &k->c, k->first_case, w, k->first_case_run));
	assay_object_set(a, &req, "loser_transcript",
			 outputs_text(a, &k->c, k->first_case, l, k->first_case_run));
	free(ws_skill);
	free(ls_skill);
	return req;
}

/* analysis.json: the analyzer's answer `ans` with the version labels assay knows. */
static assay_value analysis_json(struct comparison *k, const assay_value *ans)
{
	static const char *const keys[] = { "area", "before", "after", "reasoning", NULL };
	assay_arena *a = k->a;
	assay_value an = assay_value_object(), sug = assay_value_array();
	const assay_value *s = assay_object_get(ans, "suggestions");

	assay_object_set(a, &an, "winner_version", label(a, k->out->winner));
	assay_object_set(a, &an, "loser_version", label(a, k->out->loser));
	assay_object_set(a, &an, "strengths",
			 assay_value_copy(a, assay_object_get(ans, "strengths")));
	assay_object_set(a, &an, "weaknesses",
			 assay_value_copy(a, assay_object_get(ans, "weaknesses")));
	for (uint32_t i = 0; i < s->len; i++) {
		assay_value e = assay_value_object();

		for (int n = 0; keys[n]; n++)
			assay_object_set(a, &e, keys[n], assay_value_copy(
				a, assay_object_get(&s->u.items[i], keys[n])));
		assay_array_push(a, &sug, e);
	}
	assay_object_set(a, &an, "suggestions", sug);
	return an;
}

static int analyse(struct comparison *k)
{
	assay_judge *ana = NULL;
	assay_value req, ans, an;
	assay_err je = ASSAY_ERR_INIT;
	int rc;

	if ((rc = assay_skill__judge_new(&ana, &k->c, ASSAY_JUDGE_ANALYZER, k->o->no_cache,
					 k->err)))
		return rc;
	req = analyzer_request(k);
	if ((rc = assay_judge_ask(ana, ASSAY_JUDGE_ANALYZER, &req, &ans, k->a, NULL, &je))) {
		rc = assay_err_set(k->err, rc, je.path, je.line, je.column, "%s", je.msg);
	} else {
		an = analysis_json(k, &ans);
		if (!(rc = write_file(k, &an, "analysis/v%d_vs_v%d.json", k->va, k->vb)))
			k->out->analysed = true;
	}
	assay_judge_free(ana);
	return rc;
}

int assay_skill_compare(assay_skill_compare_summary *out, const assay_skill_compare_opts *o,
			assay_err *err)
{
	struct comparison k = { .o = o, .out = out, .err = err, .a = assay_arena_new(0),
				.va = o->va, .vb = o->vb, .pairs = assay_value_array(),
				.judgements = assay_value_array() };
	assay_value sum;
	int rc;

	memset(out, 0, sizeof(*out));
	out->consistency_rate = out->win_rate = NAN;
	if ((rc = open_comparison(&k)) || (rc = compare_pairs(&k)))
		goto out;
	summarise(&k);
	sum = summary_json(&k);
	if ((rc = write_file(&k, &sum, "comparisons/v%d_vs_v%d.json", k.va, k.vb)))
		goto out;
	if (!o->no_analysis && out->judged)
		rc = analyse(&k);
out:
	assay_judge_free(k.judge);
	assay_skill__config_release(&k.c);
	assay_arena_free(k.a);
	return rc;
}
