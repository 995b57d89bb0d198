/*
 * assay compare RUN_A RUN_B: what changed from run A to run B of the same suite (each a results
 * folder or a reports.jsonl file): the cases newly failing and newly passing with their deltas
 * of score, time and peak memory, the means with paired bootstrap intervals, the exact McNemar
 * test on the flips, and the verdict. Exits 1 only when B is significantly worse (compare.h);
 * 0 otherwise, 2 for bad arguments or input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/compare.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "assay/store.h"
#include "cmd.h"
#include "exit.h"
#include "assay/stats.h"
#include "util/banned.h"

static const char usage[] = "assay compare RUN_A RUN_B [--format text|json|html] [options]";

enum { NEWLY_FAILING, NEWLY_PASSING, ONLY_A, ONLY_B, NLISTS };

static const char *const list_names[NLISTS] = { "newly_failing", "newly_passing", "only_in_a",
						 "only_in_b" };

struct listing {
	assay_arena *a;
	assay_value lists[NLISTS];   /* --json: every case; else the first max of each */
	size_t counts[NLISTS];
	size_t max;
	bool json;
};

static assay_value delta(double x, double y)
{
	return isfinite(x) && isfinite(y) ? assay_value_real(y - x) : assay_value_null();
}

static void on_case(void *payload, const assay_compare_case *c)
{
	struct listing *l = payload;
	int which;
	assay_value o;
	assay_arena *a = l->a;

	if (c->in_a && c->in_b)
		which = c->passed_a && !c->passed_b ? NEWLY_FAILING
			: !c->passed_a && c->passed_b ? NEWLY_PASSING : -1;
	else
		which = c->in_a ? ONLY_A : ONLY_B;
	if (which < 0 || (!l->json && l->counts[which] >= l->max)) {
		if (which >= 0)
			l->counts[which]++;
		return;
	}
	l->counts[which]++;
	o = assay_value_object();
	assay_object_set(a, &o, "checkpoint", assay_value_strz(a, c->checkpoint));
	assay_object_set(a, &o, "group", assay_value_strz(a, c->group));
	assay_object_set(a, &o, "id", assay_value_strz(a, c->id));
	assay_object_set(a, &o, "score_a", c->in_a ? assay_value_real(c->score_a)
						    : assay_value_null());
	assay_object_set(a, &o, "score_b", c->in_b ? assay_value_real(c->score_b)
						    : assay_value_null());
	assay_object_set(a, &o, "time_delta", delta(c->time_a, c->time_b));
	assay_object_set(a, &o, "max_rss_delta", delta(c->rss_a, c->rss_b));
	if (c->why_b)
		assay_object_set(a, &o, "why", assay_value_strz(a, c->why_b));
	assay_array_push(a, &l->lists[which], o);
}

static void measure_json(assay_arena *a, assay_value *top, const char *name,
			 const assay_compare_measure *m)
{
	assay_value o = assay_value_object();

#define NUM(x) (isfinite(x) ? assay_value_real(x) : assay_value_null())
	assay_object_set(a, &o, "pairs", assay_value_int((int64_t)m->pairs));
	assay_object_set(a, &o, "mean_a", NUM(m->mean_a));
	assay_object_set(a, &o, "mean_b", NUM(m->mean_b));
	assay_object_set(a, &o, "diff", NUM(m->diff.estimate));
	assay_object_set(a, &o, "diff_lo", NUM(m->diff.lo));
	assay_object_set(a, &o, "diff_hi", NUM(m->diff.hi));
#undef NUM
	assay_object_set(a, top, name, o);
}

static void print_json(struct listing *l, const assay_comparison *r, const char *ra,
		       const char *rb)
{
	assay_arena *a = l->a;
	assay_value o = assay_value_object(), mc = assay_value_object();
	assay_buf b = ASSAY_BUF_INIT;

	assay_object_set(a, &o, "a", assay_value_strz(a, ra));
	assay_object_set(a, &o, "b", assay_value_strz(a, rb));
	assay_object_set(a, &o, "cases_a", assay_value_int((int64_t)r->cases_a));
	assay_object_set(a, &o, "cases_b", assay_value_int((int64_t)r->cases_b));
	assay_object_set(a, &o, "paired", assay_value_int((int64_t)r->paired));
	assay_object_set(a, &o, "passed_a", assay_value_int((int64_t)r->passed_a));
	assay_object_set(a, &o, "passed_b", assay_value_int((int64_t)r->passed_b));
	for (int i = 0; i < NLISTS; i++)
		assay_object_set(a, &o, list_names[i], l->lists[i]);
	assay_object_set(a, &mc, "pass_to_fail", assay_value_int((int64_t)r->mcnemar.b));
	assay_object_set(a, &mc, "fail_to_pass", assay_value_int((int64_t)r->mcnemar.c));
	assay_object_set(a, &mc, "p_b_worse", assay_value_real(r->mcnemar.p_b_worse));
	assay_object_set(a, &mc, "p_two_sided", assay_value_real(r->mcnemar.p_two_sided));
	assay_object_set(a, &o, "mcnemar", mc);
	mc = assay_value_object();
	assay_object_set(a, &mc, "score_fell", assay_value_int((int64_t)r->sign.b));
	assay_object_set(a, &mc, "score_rose", assay_value_int((int64_t)r->sign.c));
	assay_object_set(a, &mc, "p_b_worse", assay_value_real(r->sign.p_b_worse));
	assay_object_set(a, &o, "sign_test", mc);
	assay_object_set(a, &o, "only_a", assay_value_int((int64_t)r->only_a));
	assay_object_set(a, &o, "only_b", assay_value_int((int64_t)r->only_b));
	assay_object_set(a, &o, "min_pairs", assay_value_int((int64_t)r->min_pairs));
	assay_object_set(a, &o, "judged", assay_value_bool(r->judged));
	measure_json(a, &o, "pass_rate", &r->pass);
	measure_json(a, &o, "score", &r->score);
	measure_json(a, &o, "time", &r->time);
	measure_json(a, &o, "max_rss", &r->rss);
	assay_object_set(a, &o, "alpha", assay_value_real(r->alpha));
	assay_object_set(a, &o, "confidence", assay_value_real(r->confidence));
	assay_object_set(a, &o, "worse", assay_value_bool(r->worse));
	assay_json_write(&b, &o, ASSAY_JSON_PRETTY);
	assay_buf_addch(&b, '\n');
	fwrite(b.ptr, 1, b.len, stdout);
	assay_buf_release(&b);
}

static void print_list(struct listing *l, int which, const char *title)
{
	const assay_value *list = &l->lists[which];

	if (!l->counts[which])
		return;
	printf("\n%s (%zu):\n", title, l->counts[which]);
	for (uint32_t i = 0; i < list->len; i++) {
		const assay_value *o = &list->u.items[i];
		const assay_value *td = assay_object_get(o, "time_delta");
		const assay_value *why = assay_object_get(o, "why");

		printf("  %s/%s/%s", assay_object_get(o, "checkpoint")->u.s,
		       assay_object_get(o, "group")->u.s, assay_object_get(o, "id")->u.s);
		if (which <= NEWLY_PASSING)
			printf("  score %.3f -> %.3f",
			       assay_value_number(assay_object_get(o, "score_a")),
			       assay_value_number(assay_object_get(o, "score_b")));
		if (td && td->kind == ASSAY_V_REAL)
			printf("  time %+.3fs", td->u.d);
		if (why && why->kind == ASSAY_V_STRING)
			printf("  (%.120s)", why->u.s);
		putchar('\n');
	}
	if (l->counts[which] > list->len)
		printf("  ... and %zu more (--max-list, --json)\n", l->counts[which] - list->len);
}

static void measure_row(const char *name, const assay_compare_measure *m, double scale,
			const char *unit, double confidence)
{
	if (!m->pairs) {
		printf("%-16s %12s\n", name, "(no pairs)");
		return;
	}
	printf("%-16s %12.4g %12.4g %+12.4g  [%+.4g, %+.4g]%s\n", name, m->mean_a / scale,
	       m->mean_b / scale, m->diff.estimate / scale, m->diff.lo / scale, m->diff.hi / scale,
	       unit);
	(void)confidence;
}

static void print_text(struct listing *l, const assay_comparison *r, const char *ra,
		       const char *rb)
{
	printf("A: %s (%zu cases)\nB: %s (%zu cases)\n%zu paired", ra, r->cases_a, rb, r->cases_b,
	       r->paired);
	if (r->only_a || r->only_b)
		printf("; %zu only in A, %zu only in B (not in the statistics)", r->only_a, r->only_b);
	putchar('\n');
	print_list(l, NEWLY_FAILING, "newly failing (passed in A, not in B)");
	print_list(l, NEWLY_PASSING, "newly passing (failed in A, passed in B)");
	print_list(l, ONLY_A, "only in A");
	print_list(l, ONLY_B, "only in B");
	printf("\n%-16s %12s %12s %12s  %g%% interval of B - A\n", "", "A", "B", "B - A",
	       100 * r->confidence);
	if (r->paired)
		printf("%-16s %11.1f%% %11.1f%% %+11.1f%%  [%+.1f%%, %+.1f%%]\n", "pass rate",
		       /* as the HTML page computes and rounds them (docs/reports.md) */
		       assay_round_tenth(100.0 * ((double)r->passed_a / (double)r->paired)),
		       assay_round_tenth(100.0 * ((double)r->passed_b / (double)r->paired)),
		       assay_round_tenth(100.0 * r->pass.diff.estimate),
		       assay_round_tenth(100.0 * r->pass.diff.lo),
		       assay_round_tenth(100.0 * r->pass.diff.hi));
	measure_row("mean score", &r->score, 1, "", r->confidence);
	measure_row("mean time (s)", &r->time, 1, "", r->confidence);
	measure_row("mean RSS (MiB)", &r->rss, 1024.0 * 1024.0, "", r->confidence);
	printf("\nexact McNemar: %llu pass->fail, %llu fail->pass; p(B worse) = %.4g, "
	       "p(two-sided) = %.4g\n",
	       (unsigned long long)r->mcnemar.b, (unsigned long long)r->mcnemar.c,
	       r->mcnemar.p_b_worse, r->mcnemar.p_two_sided);
	printf("exact sign test on scores: %llu fell, %llu rose; p(B worse) = %.4g\n",
	       (unsigned long long)r->sign.b, (unsigned long long)r->sign.c, r->sign.p_b_worse);
	if (!r->judged)
		printf("verdict: none: %zu paired case%s, at least %zu needed to judge (cases in one "
		       "run only are not evidence)\n", r->paired, r->paired == 1 ? "" : "s",
		       r->min_pairs);
	else
		printf("verdict: B is %s than A (alpha %g)\n",
		       r->worse ? "significantly worse" : "not significantly worse", r->alpha);
}

/* The run description of results folder `path` (NULL for a reports.jsonl, or no store). */
static const assay_value *run_info(assay_arena *a, const char *path, assay_value *out)
{
	assay_store *s;

	if (!assay_fs_is_dir(path) || assay_store_open(&s, path, 0, NULL))
		return NULL;
	if (assay_store_run_info(s, out, a, NULL))
		out = NULL;
	assay_store_close(s);
	return out;
}

/*
 * Two runs of different suites (by suite.yaml's hash) are refused unless --any-suite; a run
 * that did not finish is said so. Returns 0 or an exit code.
 */
static int check_runs(assay_arena *a, const char *ra, const char *rb, bool any_suite)
{
	assay_value ia, ib;
	const assay_value *pa = run_info(a, ra, &ia), *pb = run_info(a, rb, &ib);
	const assay_value *ha = assay_object_get(pa, "suite_hash");
	const assay_value *hb = assay_object_get(pb, "suite_hash");
	const char *names[2] = { "A", "B" };
	const assay_value *infos[2] = { pa, pb };

	if (!any_suite && ha && hb && ha->kind == ASSAY_V_STRING && hb->kind == ASSAY_V_STRING &&
	    strcmp(ha->u.s, hb->u.s)) {
		const assay_value *sa = assay_object_get(pa, "suite");
		const assay_value *sb = assay_object_get(pb, "suite");

		return cli_error(CLI_EXIT_USAGE,
				 "A and B are runs of different suites (%s, %s; or of two versions "
				 "of its suite.yaml): --any-suite compares them anyway",
				 sa && sa->kind == ASSAY_V_STRING ? sa->u.s : "?",
				 sb && sb->kind == ASSAY_V_STRING ? sb->u.s : "?");
	}
	for (int i = 0; i < 2; i++) {
		const assay_value *in = assay_object_get(infos[i], "interrupted");
		const assay_value *fin = assay_object_get(infos[i], "finished");

		if (infos[i] && ((in && in->kind == ASSAY_V_BOOL && in->u.b) ||
				 (fin && fin->kind == ASSAY_V_NULL)))
			fprintf(stderr, "assay: warning: run %s did not finish (interrupted or killed): "
					"cases it did not run are missing from it\n", names[i]);
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	assay_compare_opts o = ASSAY_COMPARE_OPTS_INIT;
	struct listing l = { .max = 20 };
	size_t seed = 1;
	bool any_suite = false, html = false;
	const char *format = NULL, *output = NULL;
	const cli_opt opts[] = {
		{ "alpha", 0, CLI_OPT_SECONDS, &o.alpha, "P",
		  "significance level (default 0.05): exit 1 when B is worse at this level" },
		{ "resamples", 0, CLI_OPT_COUNT, &o.resamples, "N",
		  "bootstrap resamples (default 5000)" },
		{ "seed", 0, CLI_OPT_COUNT, &seed, "N", "the bootstrap's seed (default 1)" },
		{ "min-pairs", 0, CLI_OPT_COUNT, &o.min_pairs, "N",
		  "give no verdict (exit 0) with fewer than N paired cases (default 10)" },
		{ "max-list", 0, CLI_OPT_COUNT, &l.max, "N",
		  "list at most N cases of each kind (default 20)" },
		{ "json", 0, CLI_OPT_FLAG, &l.json, NULL, "print the comparison as JSON, every case" },
		{ "format", 0, CLI_OPT_STRING, &format, "FORMAT",
		  "text (default), json (as --json) or html: a page with the flips, the pass rate "
		  "per group and the statistics drawn" },
		{ "output", 'o', CLI_OPT_STRING, &output, "FILE",
		  "--format html: write the page to FILE (default: standard output)" },
		{ "any-suite", 0, CLI_OPT_FLAG, &any_suite, NULL,
		  "compare runs of different suites (or suite.yaml versions) anyway" },
		{ NULL },
	};
	const char *words[2];
	assay_comparison r;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 2);

	if (rc != CLI_GO)
		return rc;
	if (format && !strcmp(format, "json"))
		l.json = true;
	else if (format && !strcmp(format, "html"))
		html = true;
	else if (format && strcmp(format, "text"))
		return cli_error(CLI_EXIT_USAGE, "--format takes text, json or html");
	if (html && l.json)
		return cli_error(CLI_EXIT_USAGE, "--json and --format html: choose one");
	if (output && !html)
		return cli_error(CLI_EXIT_USAGE, "--output goes with --format html");
	if (!(o.alpha > 0 && o.alpha < 0.5))
		return cli_error(CLI_EXIT_USAGE, "--alpha takes a level between 0 and 0.5");
	o.seed = seed;
	l.a = assay_arena_new(0);
	if ((rc = check_runs(l.a, words[0], words[1], any_suite))) {
		assay_arena_free(l.a);
		return rc;
	}
	for (int i = 0; i < NLISTS; i++)
		l.lists[i] = assay_value_array();
	if (html) {
		assay_value ib;
		const assay_value *info = run_info(l.a, words[1], &ib);
		const assay_value *suite = assay_object_get(info, "suite");

		assay_compare_page page = {
			.path = output ? output : "-",
			.title = suite && suite->kind == ASSAY_V_STRING ? suite->u.s : NULL,
			.max_flips = l.max > 50 ? l.max : 50,
			.any_suite = any_suite,
		};

		rc = assay_compare_write_html(&r, words[0], words[1], &o, &page, &err);
	} else {
		rc = assay_compare_runs(&r, words[0], words[1], &o, on_case, &l, &err);
	}
	if (rc) {
		rc = cli_fail(rc, &err, ASSAY_ENOTFOUND, ASSAY_EINVALID, ASSAY_EPARSE, 0);
	} else if (!r.paired && (r.cases_a || r.cases_b) && !any_suite) {
		rc = cli_error(CLI_EXIT_USAGE, "A and B share no case: they are not runs of one suite "
					       "(--any-suite to compare them anyway)");
	} else if (html) {
		if (output)
			fprintf(stderr, "assay: wrote %s\n", output);
		rc = r.worse ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	} else {
		if (l.json)
			print_json(&l, &r, words[0], words[1]);
		else
			print_text(&l, &r, words[0], words[1]);
		rc = r.worse ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	}
	assay_arena_free(l.a);
	return rc;
}
