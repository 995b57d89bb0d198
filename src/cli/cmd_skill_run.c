/*
 * assay skill run, compare and report: runs with their grades as they finish, the blind
 * comparison's rates, and the report as a table (or JSON).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "assay/json.h"
#include "assay/skill.h"
#include "cmd.h"
#include "cmd_skill.h"
#include "exit.h"
#include "util/banned.h"

/* "v0", or "no-skill" for a run of the baseline without the skill. */
static const char *config_label(const assay_skill_item *it, char buf[16])
{
	if (it->without_skill)
		return "no-skill";
	snprintf(buf, 16, "v%d", it->version);
	return buf;
}

static void progress(void *payload, const assay_skill_item *it)
{
	char vb[16];
	const char *v = config_label(it, vb);

	(void)payload;
	switch (it->state) {
	case ASSAY_SKILL_GRADED:
		printf("%-24s %s run%d  %-4s %4.1f  ", it->case_id, v, it->run,
		       it->pass ? "pass" : "FAIL", it->overall_score);
		if (it->kept)
			;
		else if (it->timed_out)
			printf("timed out after %g s", it->timeout_s);
		else
			printf("exit %-3d", it->exit_code);
		if (it->kept)
			printf("(kept: graded before)\n");
		else
			printf(" %7.2fs  judge %.2fs\n", it->seconds, it->judge_seconds);
		break;
	case ASSAY_SKILL_GRADING_ERROR:
		printf("%-24s %s run%d  grading error: %s", it->case_id, v, it->run, it->error);
		if (it->timed_out)
			printf(" (the executor timed out after %g s)", it->timeout_s);
		printf("\n");
		break;
	case ASSAY_SKILL_SKIPPED:
		printf("%-24s %s run%d  skipped (budget)\n", it->case_id, v, it->run);
		break;
	case ASSAY_SKILL_RUN_ERROR:
		printf("%-24s %s run%d  run error: %s (not graded)\n", it->case_id, v, it->run,
		       it->error);
		break;
	}
	fflush(stdout);
}

int cli_skill_run(int argc, char **argv)
{
	static const char usage[] = "assay skill run WORKSPACE [--mode eval|improve] [-j N] "
				    "[options]";
	const char *mode = "eval", *words[1], *version = NULL;
	size_t jobs = 0, runs = SIZE_MAX; /* SIZE_MAX: the mode's */
	double bsec = -1, bcost = -1;
	assay_skill_run_opts o = ASSAY_SKILL_RUN_OPTS_INIT;
	const cli_opt opts[] = {
		{ "mode", 'm', CLI_OPT_STRING, &mode, "MODE",
		  "eval (1 run per case, default) or improve (3 runs per case)" },
		{ "jobs", 'j', CLI_OPT_COUNT, &jobs, "N", "runs at once (default: config.json's)" },
		{ "runs", 0, CLI_OPT_COUNT, &runs, "N", "runs per case instead of the mode's" },
		{ "version", 0, CLI_OPT_STRING, &version, "N", "the version (default: current)" },
		{ "case", 0, CLI_OPT_STRING, &o.case_glob, "GLOB", "only cases whose id matches" },
		{ "budget-seconds", 0, CLI_OPT_SECONDS, &bsec, "S",
		  "start no run after S seconds (0: no limit)" },
		{ "budget-cost", 0, CLI_OPT_SECONDS, &bcost, "C",
		  "start no run once the cost reaches C (0: no limit)" },
		{ "no-cache", 0, CLI_OPT_FLAG, &o.no_cache, NULL, "ask the judge again" },
		{ "baseline", 0, CLI_OPT_FLAG, &o.without_skill, NULL,
		  "each run also without the skill (configuration without_skill)" },
		{ "resume", 0, CLI_OPT_FLAG, &o.resume, NULL,
		  "keep runs graded before (a killed run continues)" },
		{ NULL },
	};
	assay_skill_run_summary s;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	if (strcmp(mode, "eval") && strcmp(mode, "improve"))
		return cli_error(CLI_EXIT_USAGE, "--mode must be eval or improve");
	if (runs == 0)
		return cli_error(CLI_EXIT_USAGE, "--runs must be at least 1");
	if (runs == SIZE_MAX)
		runs = 0;
	else if (runs > 1000)
		return cli_error(CLI_EXIT_USAGE, "--runs must be at most 1000");
	if (version && !cli_skill_version(version, LONG_MAX, &o.version))
		return cli_error(CLI_EXIT_USAGE, "bad --version '%s'", version);
	o.workspace = words[0];
	o.improve = !strcmp(mode, "improve");
	o.jobs = jobs;
	o.runs = (int)runs;
	o.budget_seconds = bsec;
	o.budget_cost = bcost;
	o.progress = progress;
	rc = assay_skill_run(&s, &o, &err);
	if (rc)
		return cli_skill_exit(rc, &err);
	if (!s.planned) /* a run that grades nothing passes nothing */
		return cli_error(CLI_EXIT_FAILED, "nothing to run: evals.json has no cases (add "
						  "them: docs/skills.md)");
	printf("\nv%d: %zu of %zu runs graded, %zu passed, %zu grading error%s, ", s.version,
	       s.graded, s.planned, s.passed, s.grading_errors, s.grading_errors == 1 ? "" : "s");
	if (s.run_errors)
		printf("%zu run error%s (executor not started), ", s.run_errors,
		       s.run_errors == 1 ? "" : "s");
	printf("%zu skipped; %.1fs", s.skipped, s.seconds);
	if (s.cost > 0)
		printf(", cost %.4f", s.cost);
	if (s.cost_unknown)
		printf(", cost unknown for %zu run%s (metrics.json's cost is not a number >= 0, or "
		       "the file is no readable JSON object)",
		       s.cost_unknown, s.cost_unknown == 1 ? "" : "s");
	if (!isnan(s.average_score))
		printf("; average_score %.1f", s.average_score);
	printf("\n");
	const assay_skill_run_counts *w = &s.without_skill;
	if (w->planned) {
		printf("no skill: %zu of %zu runs graded, %zu passed, %zu grading error%s, ",
		       w->graded, w->planned, w->passed, w->grading_errors,
		       w->grading_errors == 1 ? "" : "s");
		if (w->run_errors)
			printf("%zu run error%s (executor not started), ", w->run_errors,
			       w->run_errors == 1 ? "" : "s");
		printf("%zu skipped", w->skipped);
		if (s.graded && w->graded) {
			double d, lo, hi;
			assay_skill_delta_ci((double)s.passed, (double)s.graded, (double)w->passed,
					     (double)w->graded, 1.959963984540054, &d, &lo, &hi);
			printf("; the skill's effect on the pass rate: %+.0f%% (95%% CI %+.0f%% to "
			       "%+.0f%%, Newcombe)", 100 * d, 100 * lo, 100 * hi);
		}
		printf("\n");
	}
	if (s.budget_hit)
		fprintf(stderr, "assay: the budget ran out: %zu run%s not started%s\n", s.skipped,
			s.skipped == 1 ? "" : "s",
			s.cost_unknown ? " (a run's cost was unknown, so the cost budget could "
					 "not be kept)" : "");
	/* The baseline may fail (that is what it measures), but it must have been measured. */
	return s.passed == s.planned && w->graded == w->planned ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

static void step(void *payload, const char *what)
{
	(void)payload;
	printf("== %s\n", what);
	fflush(stdout);
}

int cli_skill_improve(int argc, char **argv)
{
	static const char usage[] = "assay skill improve WORKSPACE [--iterations N] [--runs N] "
				    "[options]";
	const char *words[1];
	size_t iterations = 0, runs = 0, jobs = 0, patience = 0;
	double bsec = -1, bcost = -1, target = -1;
	assay_skill_improve_opts o = ASSAY_SKILL_IMPROVE_OPTS_INIT;
	const cli_opt opts[] = {
		{ "iterations", 0, CLI_OPT_COUNT, &iterations, "N",
		  "make at most N new versions (default 3)" },
		{ "runs", 0, CLI_OPT_COUNT, &runs, "N", "runs per case (default 3)" },
		{ "jobs", 'j', CLI_OPT_COUNT, &jobs, "N", "runs at once (default: config.json's)" },
		{ "patience", 0, CLI_OPT_COUNT, &patience, "N",
		  "stop after N iterations in a row without improvement (default 2)" },
		{ "target", 0, CLI_OPT_SECONDS, &target, "RATE",
		  "stop when this share of a version's runs pass (default 1)" },
		{ "budget-seconds", 0, CLI_OPT_SECONDS, &bsec, "S",
		  "the whole loop's time (0: no limit)" },
		{ "budget-cost", 0, CLI_OPT_SECONDS, &bcost, "C",
		  "the runs' cost over the whole loop (0: no limit)" },
		{ "no-cache", 0, CLI_OPT_FLAG, &o.no_cache, NULL, "ask the judges again" },
		{ NULL },
	};
	assay_skill_improve_result r;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	if (iterations > 1000 || runs > 1000 || patience > 1000)
		return cli_error(CLI_EXIT_USAGE, "--iterations, --runs and --patience are at most "
						 "1000");
	if (target != -1 && (target <= 0 || target > 1))
		return cli_error(CLI_EXIT_USAGE, "--target is a share of runs, above 0 and at most "
						 "1");
	o.workspace = words[0];
	o.iterations = (int)iterations;
	o.runs = (int)runs;
	o.jobs = jobs;
	o.patience = (int)patience;
	o.target = target;
	o.budget_seconds = bsec;
	o.budget_cost = bcost;
	o.progress = progress;
	o.step = step;
	if ((rc = assay_skill_improve(&r, &o, &err)))
		return cli_skill_exit(rc, &err);
	printf("\nstopped: %s\n", r.stopped);
	if (r.best_version >= 0)
		printf("best version: v%d (%.0f%% of its runs passed)\n", r.best_version,
		       100 * r.best_pass_rate);
	return r.failed ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

int cli_skill_compare(int argc, char **argv)
{
	static const char usage[] = "assay skill compare WORKSPACE vA vB [--seed N]";
	const char *words[3];
	size_t seed = 0;
	assay_skill_compare_opts o = ASSAY_SKILL_COMPARE_OPTS_INIT;
	const cli_opt opts[] = {
		{ "seed", 0, CLI_OPT_COUNT, &seed, "N", "seed of the label draw (default: "
		  "config.json's)" },
		{ "no-cache", 0, CLI_OPT_FLAG, &o.no_cache, NULL, "ask the judges again" },
		{ "no-analysis", 0, CLI_OPT_FLAG, &o.no_analysis, NULL, "skip the analyzer" },
		{ NULL },
	};
	assay_skill_compare_summary s;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--seed", 6))
			o.have_seed = true;
	if ((rc = cli_parse_words(argc, argv, opts, usage, words, 3)) != CLI_GO)
		return rc;
	if (!cli_skill_version(words[1], 1000000, &o.va) ||
	    !cli_skill_version(words[2], 1000000, &o.vb))
		return cli_usage_error(usage, opts, NULL);
	if (o.va == o.vb)
		return cli_error(CLI_EXIT_USAGE, "compare two different versions (v%d twice)", o.va);
	o.workspace = words[0];
	o.seed = seed;
	if ((rc = assay_skill_compare(&s, &o, &err)))
		return cli_skill_exit(rc, &err);
	printf("pairs: %zu (judged %zu, %zu failed judgement%s)\n", s.pairs, s.judged, s.errors,
	       s.errors == 1 ? "" : "s");
	for (size_t i = 0; i < s.errors && i < ASSAY_SKILL_REASONS; i++)
		printf("  failed: %s\n", s.reasons[i]);
	if (s.errors > ASSAY_SKILL_REASONS)
		printf("  ... %zu more (comparisons/v%d_vs_v%d.json lists every one)\n",
		       s.errors - ASSAY_SKILL_REASONS, o.va, o.vb);
	if (!s.judged)
		printf("winner: none (no pair was judged)\n");
	if (s.judged) {
		printf("order consistency: %.1f%% (%zu of %zu pairs)\n", 100 * s.consistency_rate,
		       s.consistent, s.judged);
		printf("win rate of v%d over v%d: %.1f%% (95%% CI %.1f%%-%.1f%%, Wilson)\n", o.vb,
		       o.va, 100 * s.win_rate, 100 * s.ci_lo, 100 * s.ci_hi);
		printf("winner: v%d%s\n", s.winner, s.analysed ? "; analysis written" : "");
	}
	return s.errors ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

int cli_skill_report(int argc, char **argv)
{
	static const char usage[] = "assay skill report WORKSPACE [--json]";
	const char *words[1];
	bool json = false;
	const cli_opt opts[] = {
		{ "json", 0, CLI_OPT_FLAG, &json, NULL, "print the report as JSON" },
		{ NULL },
	};
	assay_arena *a;
	assay_value r;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	a = assay_arena_new(0);
	if ((rc = assay_skill_report(&r, a, words[0], &err))) {
		assay_arena_free(a);
		return cli_skill_exit(rc, &err);
	}
	if (json) {
		assay_buf b = ASSAY_BUF_INIT;
		assay_json_write(&b, &r, ASSAY_JSON_PRETTY);
		assay_buf_addch(&b, '\n');
		fwrite(b.ptr, 1, b.len, stdout);
		assay_buf_release(&b);
		assay_arena_free(a);
		return CLI_EXIT_OK;
	}
	const assay_value *vs = assay_object_get(&r, "versions");
	printf("%-8s %-24s %5s %6s %6s %5s %9s  %s\n", "VERSION", "CASE", "RUNS", "ERRORS",
	       "PASS", "MEAN", "RANGE", "FLAKY");
	for (uint32_t i = 0; i < vs->len; i++) {
		const assay_value *v = &vs->u.items[i], *cs = assay_object_get(v, "cases");
		const assay_value *pr = assay_object_get(v, "pass_rate");
		for (uint32_t j = 0; j < cs->len; j++) {
			const assay_value *c = &cs->u.items[j], *fl = assay_object_get(c, "flaky");
			const assay_value *cpr = assay_object_get(c, "pass_rate");
			char range[32];
			printf("v%-7lld %-24s %5lld %6lld ",
			       (long long)assay_object_get(v, "version")->u.i,
			       assay_object_get(c, "case_id")->u.s,
			       (long long)assay_object_get(c, "runs")->u.i,
			       (long long)assay_object_get(c, "grading_errors")->u.i);
			if (cpr->kind == ASSAY_V_NULL) { /* every run failed to be graded */
				printf("%6s %5s %9s  ", "-", "-", "-");
			} else {
				snprintf(range, sizeof(range), "%.1f-%.1f",
					 assay_value_number(assay_object_get(c, "min")),
					 assay_value_number(assay_object_get(c, "max")));
				printf("%5.0f%% %5.1f %9s  ", 100 * assay_value_number(cpr),
				       assay_value_number(assay_object_get(c, "mean")), range);
			}
			for (uint32_t k = 0; k < fl->len; k++)
				printf("%s%s", k ? ", " : "", fl->u.items[k].u.s);
			printf("%s\n", fl->len ? "" : "-");
		}
		const assay_value *avg = assay_object_get(v, "average_score");
		printf("v%-7lld %-24s %5lld %6lld ", (long long)assay_object_get(v, "version")->u.i,
		       "(all cases)", (long long)assay_object_get(v, "runs")->u.i,
		       (long long)assay_object_get(v, "grading_errors")->u.i);
		if (pr->kind != ASSAY_V_NULL)
			printf("%5.0f%%", 100 * assay_value_number(pr));
		else
			printf("%6s", "-");
		if (avg && assay_value_is_number(avg))
			printf("  average_score %.1f", assay_value_number(avg));
		const assay_value *de = assay_object_get(v, "delta_without_skill");
		if (de && de->kind == ASSAY_V_OBJECT)
			printf("  vs no skill %+.0f%% (95%% CI %+.0f%% to %+.0f%%), mean %+.1f",
			       100 * assay_value_number(assay_object_get(de, "pass_rate")),
			       100 * assay_value_number(assay_object_get(de, "ci_lo")),
			       100 * assay_value_number(assay_object_get(de, "ci_hi")),
			       assay_value_number(assay_object_get(de, "mean")));
		printf("\n");
	}
	const assay_value *bl = assay_object_get(&r, "without_skill");
	if (bl && bl->kind == ASSAY_V_OBJECT) {
		const assay_value *cs = assay_object_get(bl, "cases");
		for (uint32_t j = 0; j < cs->len; j++) {
			const assay_value *c = &cs->u.items[j], *cpr = assay_object_get(c, "pass_rate");
			printf("%-8s %-24s %5lld %6lld ", "no-skill",
			       assay_object_get(c, "case_id")->u.s,
			       (long long)assay_object_get(c, "runs")->u.i,
			       (long long)assay_object_get(c, "grading_errors")->u.i);
			if (cpr->kind == ASSAY_V_NULL)
				printf("%6s %5s\n", "-", "-");
			else
				printf("%5.0f%% %5.1f\n", 100 * assay_value_number(cpr),
				       assay_value_number(assay_object_get(c, "mean")));
		}
		const assay_value *pr = assay_object_get(bl, "pass_rate");
		printf("%-8s %-24s %5lld %6lld ", "no-skill", "(all cases)",
		       (long long)assay_object_get(bl, "runs")->u.i,
		       (long long)assay_object_get(bl, "grading_errors")->u.i);
		if (pr->kind != ASSAY_V_NULL)
			printf("%5.0f%%\n", 100 * assay_value_number(pr));
		else
			printf("%6s\n", "-");
	}
	const assay_value *nd = assay_object_get(&r, "never_discriminating");
	if (nd->len) {
		printf("\ncriteria that never discriminate (passed in every run):\n");
		for (uint32_t i = 0; i < nd->len; i++)
			printf("  %s: %s\n", assay_object_get(&nd->u.items[i], "case_id")->u.s,
			       assay_object_get(&nd->u.items[i], "criterion")->u.s);
	}
	const assay_value *w = assay_object_get(&r, "warnings");
	for (uint32_t i = 0; i < w->len; i++)
		printf("\nwarning: %s\n", w->u.items[i].u.s);
	assay_arena_free(a);
	return CLI_EXIT_OK;
}
