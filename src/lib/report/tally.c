/*
 * Counts of report lines by checkpoint, group type and group (report_int.h), as reports show
 * them, and whether they pass a policy. Made from the lines a report shows, so a report of a
 * run that never ended (killed) still adds up. Memory: a few words per checkpoint and group.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/banned.h"

static void add(struct assay_report__count *n, const struct assay_report__case *c)
{
	n->total++;
	n->passed += c->outcome == ASSAY_OUTCOME_PASS;
	n->failed += c->outcome == ASSAY_OUTCOME_FAIL;
	n->errors += c->outcome == ASSAY_OUTCOME_ERROR;
	n->score_sum += c->score;
	n->duration_sum += c->duration;
}

void assay_report__count_case(struct assay_report__counts *t, const struct assay_report__case *c)
{
	struct assay_report__cp_count *cp = NULL;
	struct assay_report__group_count *g = NULL;

	/* the last checkpoint and group first: cases come group after group */
	for (size_t i = t->ncps; i-- > 0 && !cp;)
		if (!strcmp(t->cps[i].name, c->checkpoint))
			cp = &t->cps[i];
	if (!cp) {
		t->cps = assay_xrealloc(t->cps, (t->ncps + 1) * sizeof(*t->cps));
		cp = &t->cps[t->ncps++];
		*cp = (struct assay_report__cp_count){ .name = assay_xstrdup(c->checkpoint) };
	}
	for (size_t i = cp->ngroups; i-- > 0 && !g;)
		if (!strcmp(cp->groups[i].name, c->group))
			g = &cp->groups[i];
	if (!g) {
		cp->groups = assay_xrealloc(cp->groups, (cp->ngroups + 1) * sizeof(*cp->groups));
		g = &cp->groups[cp->ngroups++];
		*g = (struct assay_report__group_count){ assay_xstrdup(c->group),
							 assay_xstrdup(c->type), { 0 } };
	}
	add(&g->n, c);
	add(c->type_index >= 0 ? &cp->types[c->type_index] : &cp->other, c);
	add(&cp->all, c);
	add(&t->all, c);
}

bool assay_report__counts_pass(const struct assay_report__counts *t, assay_pass_policy p)
{
	for (size_t i = 0; i < t->ncps; i++) {
		size_t passed[4], total[4];

		for (int k = 0; k < 4; k++) {
			passed[k] = t->cps[i].types[k].passed;
			total[k] = t->cps[i].types[k].total;
		}
		if (!assay_pass_policy_check(p, passed, total))
			return false;
	}
	return true;
}

void assay_report__counts_release(struct assay_report__counts *t)
{
	for (size_t i = 0; i < t->ncps; i++) {
		for (size_t j = 0; j < t->cps[i].ngroups; j++) {
			free(t->cps[i].groups[j].name);
			free(t->cps[i].groups[j].type);
		}
		free(t->cps[i].groups);
		free(t->cps[i].name);
	}
	free(t->cps);
	*t = (struct assay_report__counts){ 0 };
}
