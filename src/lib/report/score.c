/*
 * calculate_score, did_pass and format_result (report.h; verification.md, VerifierReport): a
 * case's score and verdict from its verified attributes, the same recomputed from a report
 * line's `results` for a reader that must not trust the line's own, and where a
 * report line keeps what assay adds to the contract's VerifierReport (its `case` object).
 *
 * Key decisions:
 * - The score is the contract's formula and nothing else: sum(is_correct * weight) /
 *   sum(weight) over attributes whose is_correct is not None. A verifier's partial credit is
 *   a separate figure (`case.partial`) and is never read here.
 * - No weight at all gives 0.0, as the guide's calculate_score function does (the class method
 *   would divide by zero; every assay case expects something, so this is only for safety).
 */
#include <math.h>
#include <string.h>

#include "assay/report.h"
#include "util/banned.h"

void assay_score_add(assay_score *acc, bool is_correct, double weight)
{
	acc->wsum += weight;
	acc->csum += is_correct ? weight : 0;
	acc->correct = acc->correct && is_correct;
}

double assay_score_end(const assay_score *acc, bool errored, bool *passed_out)
{
	if (passed_out)
		*passed_out = acc->correct && !errored;
	return acc->wsum > 0 ? acc->csum / acc->wsum : 0.0;
}

static bool number(const assay_value *v, double *out)
{
	if (!v || (v->kind != ASSAY_V_INT && v->kind != ASSAY_V_REAL))
		return false;
	*out = assay_value_number(v);
	return isfinite(*out);
}

const assay_value *assay_report_get(const assay_value *line, const char *key)
{
	const assay_value *c = assay_object_get(line, "case");
	const assay_value *v = c && c->kind == ASSAY_V_OBJECT ? assay_object_get(c, key) : NULL;

	return v ? v : assay_object_get(line, key);
}

bool assay_report_key_is_addition(const char *key)
{
	static const char *const keys[] = {
		"checkpoint", "score", "passed", "execution", "error", "partial", NULL,
	};

	for (const char *const *k = keys; *k; k++)
		if (!strcmp(key, *k))
			return true;
	return false;
}

void assay_report_set(assay_arena *a, assay_value *report, const char *key, assay_value value)
{
	assay_value *c = (assay_value *)assay_object_get(report, "case");

	if (!c || c->kind != ASSAY_V_OBJECT)
		c = assay_object_set(a, report, "case", assay_value_object());
	assay_object_set(a, c, key, value);
}

void assay_report_format_result(assay_value *out, assay_arena *a, const assay_value *results)
{
	*out = assay_value_object();
	for (uint32_t i = 0; results && results->kind == ASSAY_V_OBJECT && i < results->len; i++) {
		const assay_member *m = &results->u.members[i];
		const assay_value *ok = assay_object_get(&m->value, "is_correct");
		const assay_value *name = assay_object_get(&m->value, "attribute");

		if (!ok || ok->kind != ASSAY_V_BOOL)
			continue;
		/* the contract keys by r.attribute; assay's attribute always equals its key. The
		 * name is copied: `results` may live in an arena freed before `a` (run-case) */
		assay_object_append(a, out,
				    assay_value_copy(a, name && name->kind == ASSAY_V_STRING ? name
												: &m->key),
				    assay_value_strz(a, ok->u.b ? "P" : "F"));
	}
}

int assay_score_line(const assay_value *line, double *score_out, bool *passed_out,
		     assay_err *err)
{
	const assay_value *results = assay_object_get(line, "results");
	const assay_value *error = assay_report_get(line, "error");
	assay_score acc = ASSAY_SCORE_INIT;
	uint32_t verified = 0;

	if (!results || results->kind != ASSAY_V_OBJECT)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "its report line has no results");
	for (uint32_t i = 0; i < results->len; i++) {
		const assay_value *r = &results->u.members[i].value;
		const assay_value *ok = assay_object_get(r, "is_correct");
		double weight = 0;

		if (!ok || ok->kind != ASSAY_V_BOOL)
			continue; /* not verified: an attribute nothing was expected of */
		if (!number(assay_object_get(r, "weight"), &weight) || weight < 0)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "its attribute %s has a wrong weight",
					     results->u.members[i].key.u.s);
		assay_score_add(&acc, ok->u.b, weight);
		verified++;
	}
	/* a runner never writes a case that verifies nothing (every case expects something, and
	 * an error adds a failing attribute): such a line does not pass a merge */
	*score_out = assay_score_end(&acc, !verified || (error && error->kind != ASSAY_V_NULL),
				     passed_out);
	return 0;
}
