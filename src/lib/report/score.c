/*
 * calculate_score and did_pass (report.h; verification.md): a case's score and verdict from
 * its verified attributes, and the same recomputed from a report line's `results` for a reader
 * that must not trust the line's own `passed` and `score`.
 */
#include <math.h>
#include <string.h>

#include "assay/report.h"
#include "util/banned.h"

void assay_score_add(assay_score *acc, bool is_correct, double weight, double score)
{
	acc->wsum += weight;
	acc->csum += score >= 0 ? score * weight : is_correct ? weight : 0;
	acc->correct = acc->correct && is_correct;
}

double assay_score_end(const assay_score *acc, bool errored, bool *passed_out)
{
	if (passed_out)
		*passed_out = acc->correct && acc->wsum > 0 && !errored;
	/* a case with an error (it never ran, it could not be verified) earns nothing */
	return acc->wsum > 0 && !errored ? acc->csum / acc->wsum : 0.0;
}

static bool number(const assay_value *v, double *out)
{
	if (!v || (v->kind != ASSAY_V_INT && v->kind != ASSAY_V_REAL))
		return false;
	*out = assay_value_number(v);
	return isfinite(*out);
}

int assay_score_line(const assay_value *line, double *score_out, bool *passed_out,
		     assay_err *err)
{
	const assay_value *results = assay_object_get(line, "results");
	const assay_value *error = assay_object_get(line, "error");
	assay_score acc = ASSAY_SCORE_INIT;

	if (!results || results->kind != ASSAY_V_OBJECT)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "its report line has no results");
	for (uint32_t i = 0; i < results->len; i++) {
		const assay_value *r = &results->u.members[i].value;
		const assay_value *ok = assay_object_get(r, "is_correct");
		const assay_value *sv = assay_object_get(r, "score");
		double weight = 0, score = -1;

		if (!ok || ok->kind != ASSAY_V_BOOL)
			continue; /* not verified: an attribute nothing was expected of */
		if (!number(assay_object_get(r, "weight"), &weight) || weight < 0 ||
		    (sv && sv->kind != ASSAY_V_NULL && (!number(sv, &score) || score < 0 || score > 1)))
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "its attribute %s has a wrong weight or score",
					     results->u.members[i].key.u.s);
		assay_score_add(&acc, ok->u.b, weight, score);
	}
	*score_out = assay_score_end(&acc, error && error->kind != ASSAY_V_NULL, passed_out);
	return 0;
}
