/*
 * assay skill triggers WORKSPACE [--version N] [--runs N]: does the skill get loaded when it
 * should (issue 20 item 5)? Each query of evals/triggers.json, its verdict, then precision and
 * recall per description version. Exit 0 every query right; 1 a query wrong or a run that
 * could not start; 2 usage; 3 the workspace or triggers.json could not be loaded; 4 I/O.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/skill.h"
#include "cmd.h"
#include "cmd_skill.h"
#include "exit.h"
#include "util/banned.h"

static void query_done(void *payload, const char *query, bool should, bool triggered,
		       size_t read, size_t runs)
{
	(void)payload;
	printf("%-5s %-18s read in %zu of %zu run%s  %s\n", should == triggered ? "ok" : "WRONG",
	       should ? "should trigger:" : "should not:", read, runs, runs == 1 ? "" : "s",
	       query);
	fflush(stdout);
}

static void pct(const assay_value *v)
{
	if (v && assay_value_is_number(v))
		printf(" %8.0f%%", 100 * assay_value_number(v));
	else
		printf(" %9s", "-");
}

int cli_skill_triggers(int argc, char **argv)
{
	static const char usage[] = "assay skill triggers WORKSPACE [--version N] [--runs N] "
				    "[--iterations N]";
	const char *version = NULL, *words[1];
	size_t runs = 0, iterations = 0;
	const cli_opt opts[] = {
		{ "version", 0, CLI_OPT_STRING, &version, "N", "the version (default: current)" },
		{ "runs", 0, CLI_OPT_COUNT, &runs, "N",
		  "runs per query (default: config.json's triggers.runs, else 1)" },
		{ "iterations", 0, CLI_OPT_COUNT, &iterations, "N",
		  "let triggers.improver write up to N new descriptions, measuring each" },
		{ NULL },
	};
	assay_skill_triggers_opts o = ASSAY_SKILL_TRIGGERS_OPTS_INIT;
	assay_skill_triggers_result r;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	if (runs > 1000 || iterations > 1000)
		return cli_error(CLI_EXIT_USAGE, "--runs and --iterations must be at most 1000");
	if (version && !cli_skill_version(version, 1000000, &o.version))
		return cli_error(CLI_EXIT_USAGE, "bad --version '%s'", version);
	o.workspace = words[0];
	o.runs = (int)runs;
	o.progress = query_done;
	double prev = -1;
	for (size_t it = 0;; it++) {
		if ((rc = assay_skill_triggers(&r, &o, &err)))
			return cli_skill_exit(rc, &err);
		if (r.errors)
			printf("%zu run%s could not start: %s\n", r.errors, r.errors == 1 ? "" : "s",
			       r.error);
		printf("\nv%d: %zu quer%s; true positives %zu, false positives %zu, false "
		       "negatives %zu, true negatives %zu\n", r.version, r.queries,
		       r.queries == 1 ? "y" : "ies", r.tp, r.fp, r.fn, r.tn);
		if (!iterations)
			break;
		/* the description loop: stop when right, capped, or no better than before */
		double acc = isnan(r.accuracy) ? 0 : r.accuracy;
		char why[600] = "";
		int next;
		if (!r.fp && !r.fn && !r.errors)
			snprintf(why, sizeof(why), "every query is right");
		else if (it >= iterations)
			snprintf(why, sizeof(why), "%zu new description%s (--iterations)", it,
				 it == 1 ? "" : "s");
		else if (it && acc <= prev)
			snprintf(why, sizeof(why), "the new description is no better (accuracy "
				 "%.0f%%, before %.0f%%)", 100 * acc, 100 * prev);
		if (!why[0]) {
			assay_err ie = ASSAY_ERR_INIT;
			printf("== v%d: the description improver writes the next version\n",
			       r.version);
			rc = assay_skill_triggers_improver(words[0], r.version, &next, why,
							   sizeof(why), &ie);
			if (rc < 0)
				return cli_skill_exit(rc, &ie);
			if (!rc) {
				printf("== v%d: snapshot made\n", next);
				prev = acc;
				o.version = next;
				continue;
			}
		}
		printf("stopped: %s\n", why);
		break;
	}

	/* per description version */
	assay_arena *a = assay_arena_new(0);
	assay_value vs;
	assay_skill_triggers_versions(&vs, a, words[0], NULL);
	printf("\n%-8s %9s %9s %9s  %s\n", "VERSION", "PRECISION", "RECALL", "ACCURACY",
	       "DESCRIPTION");
	for (uint32_t i = 0; i < vs.len; i++) {
		const assay_value *v = &vs.u.items[i], *d = assay_object_get(v, "description");
		const assay_value *ver = assay_object_get(v, "version");
		printf("v%-7lld", ver && ver->kind == ASSAY_V_INT ? (long long)ver->u.i : -1LL);
		pct(assay_object_get(v, "precision"));
		pct(assay_object_get(v, "recall"));
		pct(assay_object_get(v, "accuracy"));
		printf("  %.100s\n", d && d->kind == ASSAY_V_STRING ? d->u.s : "-");
	}
	assay_arena_free(a);
	if (!r.queries && !r.errors) /* measuring nothing proves nothing */
		return cli_error(CLI_EXIT_FAILED, "nothing measured: evals/triggers.json has no "
						  "queries");
	return r.fp || r.fn || r.errors ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}
