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
 */
#include <math.h>
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

int assay_skill_compare(assay_skill_compare_summary *out, const assay_skill_compare_opts *o,
			assay_err *err)
{
	struct skill_config c;
	assay_arena *a = assay_arena_new(0);
	assay_judge *cmp = NULL, *ana = NULL;
	assay_value evals, history, pairs = assay_value_array(), judgements = assay_value_array();
	char *path = NULL;
	int rc, va = o->va, vb = o->vb, first_case_run = 0;
	const char *first_case = NULL;
	double wins_b = 0;

	memset(out, 0, sizeof(*out));
	out->consistency_rate = out->win_rate = NAN;
	if ((rc = assay_skill__config_load(&c, o->workspace, err)) ||
	    (rc = assay_skill__history_load(&history, a, c.workspace, err)) ||
	    (rc = assay_skill__evals_load(&evals, a, &c, err)))
		goto out;
	if (va == vb) {
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "compare two different versions");
		goto out;
	}
	{
		const assay_value *vs = assay_object_get(&history, "versions");
		int nv = vs && vs->kind == ASSAY_V_ARRAY ? (int)vs->len : 0;

		if (va >= nv || vb >= nv) {
			rc = assay_err_set(err, ASSAY_ENOMATCH, NULL, 0, 0,
					   "no version v%d: the workspace has v0 to v%d (history.json)",
					   va >= nv ? va : vb, nv - 1);
			goto out;
		}
	}
	if ((rc = assay_skill__judge_new(&cmp, &c, ASSAY_JUDGE_COMPARATOR, o->no_cache, err)))
		goto out;
	uint64_t seed = o->have_seed ? o->seed : c.seed;
	const assay_value *cases = assay_object_get(&evals, "cases");

	for (uint32_t i = 0; i < cases->len; i++) {
		const assay_value *ec = &cases->u.items[i];
		const char *id = assay_skill__str(ec, "id");

		for (int run = 1; run <= 1000; run++) {
			char *ra = assay_skill__path(c.workspace, "runs/%s/v%d/run%d", id, va, run);
			char *rb = assay_skill__path(c.workspace, "runs/%s/v%d/run%d", id, vb, run);
			bool both = assay_fs_is_dir(ra) && assay_fs_is_dir(rb);
			free(ra);
			free(rb);
			if (!both)
				break;
			out->pairs++;
			if (!first_case) {
				first_case = id;
				first_case_run = run;
			}
			/* The draw, recorded before any judge is asked. */
			bool first_a = assay_skill_first_is_a(seed, id, run);
			int order_a[2] = { first_a ? va : vb, first_a ? vb : va };
			assay_value asg = assay_value_object();
			for (int k = 0; k < 2; k++) {
				assay_value m = assay_value_object();
				assay_object_set(a, &m, "A", label(a, order_a[k]));
				assay_object_set(a, &m, "B", label(a, order_a[k] == va ? vb : va));
				assay_object_set(a, &asg, k ? "order2" : "order1", m);
			}
			assay_object_set(a, &asg, "case_id", assay_value_strz(a, id));
			assay_object_set(a, &asg, "run", assay_value_int(run));
			assay_object_set(a, &asg, "seed", assay_value_int((int64_t)seed));
			free(path);
			path = assay_skill__path(c.workspace,
						 "comparisons/assignments/%s_v%d_vs_v%d_run%d.json",
						 id, va, vb, run);
			if ((rc = assay_skill__write_json(path, &asg, err)))
				goto out;

			assay_value ta = outputs_text(a, &c, id, va, run);
			assay_value tb = outputs_text(a, &c, id, vb, run);
			int winner[2] = { -1, -1 };
			for (int k = 0; k < 2; k++) {
				int A = order_a[k];
				assay_value req = assay_value_object(), ans;
				assay_judge_stats st;
				assay_err je = ASSAY_ERR_INIT;

				assay_object_set(a, &req, "eval_prompt",
						 assay_value_strz(a, assay_skill__str(ec, "prompt")));
				assay_object_set(a, &req, "expectations", assay_value_copy(
					a, assay_object_get(ec, "expectations")));
				assay_object_set(a, &req, "output_a", A == va ? ta : tb);
				assay_object_set(a, &req, "output_b", A == va ? tb : ta);
				int jrc = assay_judge_ask(cmp, ASSAY_JUDGE_COMPARATOR, &req, &ans, a,
							  &st, &je);
				if (jrc == ASSAY_EINVALID) {
					if (out->errors < ASSAY_SKILL_REASONS) {
						char *why = assay_xasprintf("%s run %d order %d: %s",
									    id, run, k + 1, je.msg);
						size_t n = strlen(why);
						char *r = out->reasons[out->errors];

						if (n >= sizeof(out->reasons[0]))
							n = sizeof(out->reasons[0]) - 1;
						memcpy(r, why, n);
						r[n] = '\0';
						free(why);
					}
					out->errors++;
					assay_value e = assay_value_object();
					assay_object_set(a, &e, "case_id", assay_value_strz(a, id));
					assay_object_set(a, &e, "run", assay_value_int(run));
					assay_object_set(a, &e, "order", assay_value_int(k + 1));
					assay_object_set(a, &e, "error", assay_value_strz(a, je.msg));
					assay_array_push(a, &judgements, e);
					continue;
				}
				if (jrc) {
					rc = assay_err_set(err, jrc, je.path, je.line, je.column, "%s",
							   je.msg);
					goto out;
				}
				assay_value cj = assay_value_object();
				const assay_value *w = assay_object_get(&ans, "winner");
				assay_object_set(a, &cj, "eval_prompt",
						 assay_value_strz(a, assay_skill__str(ec, "prompt")));
				assay_object_set(a, &cj, "winner", assay_value_copy(a, w));
				assay_object_set(a, &cj, "reasoning", assay_value_copy(
					a, assay_object_get(&ans, "reasoning")));
				assay_value scores = assay_value_object();
				const assay_value *s = assay_object_get(&ans, "scores");
				for (uint32_t d = 0; d < s->len; d++) {
					assay_value dim = assay_value_object();
					for (int side = 0; side < 2; side++) {
						const char *l = side ? "B" : "A";
						assay_object_set(a, &dim, l, assay_value_int(
							(int64_t)assay_value_number(assay_object_get(
								&s->u.members[d].value, l))));
					}
					assay_object_append(a, &scores, s->u.members[d].key, dim);
				}
				assay_object_set(a, &cj, "scores", scores);
				free(path);
				path = assay_skill__path(c.workspace,
							 "comparisons/%s_v%d_vs_v%d_run%d_order%d.json",
							 id, va, vb, run, k + 1);
				if ((rc = assay_skill__write_json(path, &cj, err)))
					goto out;
				winner[k] = assay_value_is_str(w, "A") ? A : (A == va ? vb : va);
				assay_value e = assay_value_object();
				assay_object_set(a, &e, "case_id", assay_value_strz(a, id));
				assay_object_set(a, &e, "run", assay_value_int(run));
				assay_object_set(a, &e, "order", assay_value_int(k + 1));
				assay_object_set(a, &e, "winner_version", label(a, winner[k]));
				assay_object_set(a, &e, "reasoning", assay_value_copy(
					a, assay_object_get(&ans, "reasoning")));
				assay_array_push(a, &judgements, e);
			}
			assay_value pr = assay_value_object();
			assay_object_set(a, &pr, "case_id", assay_value_strz(a, id));
			assay_object_set(a, &pr, "run", assay_value_int(run));
			if (winner[0] >= 0 && winner[1] >= 0) {
				out->judged++;
				bool same = winner[0] == winner[1];
				out->consistent += same;
				wins_b += same ? (winner[0] == vb) : 0.5;
				assay_object_set(a, &pr, "winner_version", same ? label(a, winner[0])
										: assay_value_null());
				assay_object_set(a, &pr, "order_consistent", assay_value_bool(same));
			} else {
				assay_object_set(a, &pr, "winner_version", assay_value_null());
				assay_object_set(a, &pr, "order_consistent", assay_value_null());
			}
			assay_array_push(a, &pairs, pr);
		}
	}
	if (!out->pairs) {
		rc = assay_err_set(err, ASSAY_ENOTFOUND, NULL, 0, 0, "no case has runs of both "
				   "v%d and v%d: run `assay skill run` on each first", va, vb);
		goto out;
	}
	if (out->judged) {
		out->consistency_rate = (double)out->consistent / (double)out->judged;
		out->win_rate = wins_b / (double)out->judged;
		assay_skill_wilson(wins_b, (double)out->judged, 1.959963984540054, &out->ci_lo,
				   &out->ci_hi);
	}
	if (!out->judged) {
		/* nothing judged: no winner (the summary's winner_version is null) */
		out->winner = out->loser = -1;
	} else if (out->win_rate > 0.5) {
		out->winner = vb;
	} else if (out->win_rate < 0.5) {
		out->winner = va;
	} else {
		double aa = average(&history, va), ab = average(&history, vb);
		out->winner = aa > ab ? va : ab > aa ? vb : va > vb ? va : vb;
	}
	if (out->judged)
		out->loser = out->winner == va ? vb : va;

	assay_value sum = assay_value_object();
	assay_object_set(a, &sum, "versions", assay_value_array());
	assay_array_push(a, (assay_value *)assay_object_get(&sum, "versions"), label(a, va));
	assay_array_push(a, (assay_value *)assay_object_get(&sum, "versions"), label(a, vb));
	assay_object_set(a, &sum, "seed", assay_value_int((int64_t)seed));
	assay_object_set(a, &sum, "pairs", assay_value_int((int64_t)out->pairs));
	assay_object_set(a, &sum, "judged_pairs", assay_value_int((int64_t)out->judged));
	assay_object_set(a, &sum, "consistent_pairs", assay_value_int((int64_t)out->consistent));
	assay_object_set(a, &sum, "failed_judgements", assay_value_int((int64_t)out->errors));
	assay_object_set(a, &sum, "order_consistency_rate", out->judged
			 ? assay_value_real(out->consistency_rate) : assay_value_null());
	assay_value wr = assay_value_object(), ci = assay_value_array();
	assay_object_set(a, &wr, "version", label(a, vb));
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
	assay_object_set(a, &sum, "pair_results", pairs);
	assay_object_set(a, &sum, "judgements", judgements);
	free(path);
	path = assay_skill__path(c.workspace, "comparisons/v%d_vs_v%d.json", va, vb);
	if ((rc = assay_skill__write_json(path, &sum, err)))
		goto out;

	if (o->no_analysis || !out->judged)
		goto out;
	if ((rc = assay_skill__judge_new(&ana, &c, ASSAY_JUDGE_ANALYZER, o->no_cache, err)))
		goto out;
	{
		assay_value req = assay_value_object(), ans;
		assay_err je = ASSAY_ERR_INIT;
		char *ws_skill = assay_skill__path(c.workspace, "v%d/skill/SKILL.md", out->winner);
		char *ls_skill = assay_skill__path(c.workspace, "v%d/skill/SKILL.md", out->loser);

		assay_object_set(a, &req, "winner_version", label(a, out->winner));
		assay_object_set(a, &req, "loser_version", label(a, out->loser));
		assay_object_set(a, &req, "winner_skill", file_text(a, ws_skill, 256u << 10));
		assay_object_set(a, &req, "loser_skill", file_text(a, ls_skill, 256u << 10));
		assay_object_set(a, &req, "comparisons", judgements);
		assay_object_set(a, &req, "winner_transcript",
				 outputs_text(a, &c, first_case, out->winner, first_case_run));
		assay_object_set(a, &req, "loser_transcript",
				 outputs_text(a, &c, first_case, out->loser, first_case_run));
		free(ws_skill);
		free(ls_skill);
		int jrc = assay_judge_ask(ana, ASSAY_JUDGE_ANALYZER, &req, &ans, a, NULL, &je);
		if (jrc) {
			rc = assay_err_set(err, jrc, je.path, je.line, je.column, "%s", je.msg);
			goto out;
		}
		assay_value an = assay_value_object();
		assay_object_set(a, &an, "winner_version", label(a, out->winner));
		assay_object_set(a, &an, "loser_version", label(a, out->loser));
		assay_object_set(a, &an, "strengths",
				 assay_value_copy(a, assay_object_get(&ans, "strengths")));
		assay_object_set(a, &an, "weaknesses",
				 assay_value_copy(a, assay_object_get(&ans, "weaknesses")));
		assay_value sug = assay_value_array();
		const assay_value *s = assay_object_get(&ans, "suggestions");
		static const char *const keys[] = { "area", "before", "after", "reasoning", NULL };
		for (uint32_t i = 0; i < s->len; i++) {
			assay_value e = assay_value_object();
			for (int k = 0; keys[k]; k++)
				assay_object_set(a, &e, keys[k], assay_value_copy(
					a, assay_object_get(&s->u.items[i], keys[k])));
			assay_array_push(a, &sug, e);
		}
		assay_object_set(a, &an, "suggestions", sug);
		free(path);
		path = assay_skill__path(c.workspace, "analysis/v%d_vs_v%d.json", va, vb);
		if ((rc = assay_skill__write_json(path, &an, err)))
			goto out;
		out->analysed = true;
	}
out:
	assay_judge_free(cmp);
	assay_judge_free(ana);
	free(path);
	assay_skill__config_release(&c);
	assay_arena_free(a);
	return rc;
}
