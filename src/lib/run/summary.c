/*
 * The run's aggregate (summary.h): counts per checkpoint, group type and group, and the
 * summary.json object made from them. Shared by the runner and `assay merge`, so both add up
 * the same way (the same sums in the same order give the same bits).
 */
#include <stdlib.h>

#include "assay/render.h"
#include "assay/summary.h"
#include "util/banned.h"

struct assay_tallies {
	const assay_suite *suite;
	assay_tally (*types)[4]; /* per checkpoint, per group type */
	assay_tally **groups;    /* per checkpoint, per group */
	assay_tally total;
	assay_strvec failed;     /* checkpoint/group/id of each case that did not pass, in order */
};

assay_tallies *assay_tallies_new(const assay_suite *suite)
{
	assay_tallies *t = assay_xcalloc(1, sizeof(*t));

	t->suite = suite;
	t->failed = (assay_strvec)ASSAY_STRVEC_INIT;
	t->types = assay_xcalloc(suite->ncheckpoints + 1, sizeof(*t->types));
	t->groups = assay_xcalloc(suite->ncheckpoints + 1, sizeof(*t->groups));
	for (size_t i = 0; i < suite->ncheckpoints; i++)
		t->groups[i] = assay_xcalloc(suite->checkpoints[i].ngroups + 1, sizeof(**t->groups));
	return t;
}

void assay_tallies_free(assay_tallies *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->suite->ncheckpoints; i++)
		free(t->groups[i]);
	free(t->groups);
	free(t->types);
	assay_strvec_clear(&t->failed);
	free(t);
}

static void tally_add(assay_tally *t, bool passed, bool error, double score)
{
	t->total++;
	t->passed += passed;
	t->errors += error;
	t->score_sum += score;
}

void assay_tallies_add(assay_tallies *t, size_t icp, size_t ig, const assay_case_report *cr)
{
	const assay_group *g = &t->suite->checkpoints[icp].groups[ig];
	bool error = cr->error != NULL;

	tally_add(&t->types[icp][g->type], cr->passed, error, cr->score);
	tally_add(&t->groups[icp][ig], cr->passed, error, cr->score);
	tally_add(&t->total, cr->passed, error, cr->score);
	if (!cr->passed)
		assay_strvec_pushf(&t->failed, "%s/%s/%s", t->suite->checkpoints[icp].name, g->name,
				   cr->id);
}

assay_tally assay_tallies_total(const assay_tallies *t)
{
	return t->total;
}

static assay_value tally_value(assay_arena *a, const assay_tally *t)
{
	assay_value o = assay_value_object();

	assay_object_set(a, &o, "passed", assay_value_int((int64_t)t->passed));
	assay_object_set(a, &o, "total", assay_value_int((int64_t)t->total));
	assay_object_set(a, &o, "pass_rate",
			 assay_value_real(t->total ? (double)t->passed / (double)t->total : 0.0));
	assay_object_set(a, &o, "errors", assay_value_int((int64_t)t->errors));
	assay_object_set(a, &o, "mean_score",
			 assay_value_real(t->total ? t->score_sum / (double)t->total : 0.0));
	return o;
}

assay_value assay_tallies_summary(const assay_tallies *t, assay_arena *a, double wall,
				  bool interrupted, const char *workdir)
{
	const assay_suite *s = t->suite;
	assay_value o = assay_value_object(), cps = assay_value_object();

	assay_object_set(a, &o, "suite", assay_value_strz(a, s->name));
	assay_object_set(a, &o, "duration", assay_value_real(wall));
	assay_object_set(a, &o, "interrupted", assay_value_bool(interrupted));
	assay_object_set(a, &o, "totals", tally_value(a, &t->total));
	/* case files a suite mistake left out (a misspelled group folder): never run, never
	 * counted in the totals, so said beside them (suite.h) */
	assay_object_set(a, &o, "unrun_case_files", assay_value_int((int64_t)s->unrun_case_files));
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		const assay_checkpoint *cp = &s->checkpoints[i];
		assay_value types = assay_value_object(), groups = assay_value_object();
		assay_tally all = { 0 };

		for (int k = 0; k < 4; k++) {
			const assay_tally *tt = &t->types[i][k];

			if (!tt->total)
				continue;
			assay_object_set(a, &types, assay_group_type_name((assay_group_type)k),
					 tally_value(a, tt));
			all.passed += tt->passed;
			all.total += tt->total;
			all.errors += tt->errors;
			all.score_sum += tt->score_sum;
		}
		for (size_t j = 0; j < cp->ngroups; j++) {
			assay_value g = tally_value(a, &t->groups[i][j]);

			assay_object_set(a, &g, "type",
					 assay_value_strz(a, assay_group_type_name(cp->groups[j].type)));
			assay_object_set(a, &groups, cp->groups[j].name, g);
		}
		assay_value c = tally_value(a, &all);
		assay_object_set(a, &c, "types", types);
		assay_object_set(a, &c, "groups", groups);
		assay_object_set(a, &cps, cp->name, c);
	}
	assay_object_set(a, &o, "checkpoints", cps);
	assay_value failed = assay_value_array();
	for (size_t i = 0; i < t->failed.nr; i++)
		assay_array_push(a, &failed, assay_value_strz(a, t->failed.v[i]));
	assay_object_set(a, &o, "failed", failed);
	if (workdir)
		assay_object_set(a, &o, "work_dir", assay_value_strz(a, workdir));
	assay_summary_add_policies(a, &o); /* SlopCodeBench's aggregates (render.h) */
	return o;
}
