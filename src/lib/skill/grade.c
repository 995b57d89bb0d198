/*
 * The arithmetic of grading.json (eval-schemas.md, decision 8) and of the blind comparison
 * (decision 9): assay derives every derived field from the grader's scores and never trusts a
 * judge's arithmetic; labels come from a seeded splitmix64 per (case, run); win rates carry a
 * Wilson score interval.
 */
#include <math.h>
#include <string.h>

#include "skill/skill_int.h"
#include "util/banned.h"

static assay_value text_or_empty(assay_arena *a, const assay_value *v)
{
	return v && v->kind == ASSAY_V_STRING ? assay_value_string(a, v->u.s, v->len)
					      : assay_value_strz(a, "");
}

assay_value assay_skill_grading_build(assay_arena *a, const assay_value *ecase, int version,
				      int run, const assay_value *answer,
				      const assay_value *compliance, const assay_value *metrics)
{
	const assay_value *exps = assay_object_get(ecase, "expectations");
	const assay_value *res = assay_object_get(answer, "results"), *v;
	assay_value g = assay_value_object(), results = assay_value_array();
	double sum = 0, rsum = 0;
	size_t n = 0, rn = 0;
	bool all = true;

	for (uint32_t i = 0; exps && i < exps->len; i++) {
		const assay_value *e = &exps->u.items[i], *crit = assay_object_get(e, "criterion");
		const assay_value *r = NULL;
		bool required = (v = assay_object_get(e, "required")) && v->kind == ASSAY_V_BOOL &&
				v->u.b;

		for (uint32_t j = 0; res && j < res->len; j++)
			if (assay_value_equal(assay_object_get(&res->u.items[j], "criterion"), crit))
				r = &res->u.items[j];
		if (!r)
			continue;
		int score = (int)assay_value_number(assay_object_get(r, "score"));
		assay_value out = assay_value_object();
		assay_object_set(a, &out, "criterion", assay_value_copy(a, crit));
		assay_object_set(a, &out, "score", assay_value_int(score));
		assay_object_set(a, &out, "passed", assay_value_bool(score >= 3));
		assay_object_set(a, &out, "reasoning",
				 text_or_empty(a, assay_object_get(r, "reasoning")));
		assay_array_push(a, &results, out);
		sum += score;
		n++;
		if (required) {
			rsum += score;
			rn++;
			all &= score >= 3;
		}
	}
	assay_object_set(a, &g, "case_id", text_or_empty(a, assay_object_get(ecase, "id")));
	assay_object_set(a, &g, "version", assay_value_int(version));
	assay_object_set(a, &g, "run", assay_value_int(run));
	assay_object_set(a, &g, "overall_score",
			 assay_value_real(n ? assay_skill_round1(sum / (double)n) : 0));
	assay_object_set(a, &g, "required_score",
			 rn ? assay_value_real(assay_skill_round1(rsum / (double)rn))
			    : assay_value_null());
	assay_object_set(a, &g, "results", results);
	assay_object_set(a, &g, "overall", assay_value_strz(a, all && n ? "pass" : "fail"));
	assay_object_set(a, &g, "convention_compliance",
			 compliance ? assay_value_copy(a, compliance) : assay_value_object());
	assay_value claims = assay_value_array();
	v = assay_object_get(answer, "claims");
	for (uint32_t i = 0; v && v->kind == ASSAY_V_ARRAY && i < v->len; i++) {
		const assay_value *c = &v->u.items[i];
		assay_value out = assay_value_object();
		assay_object_set(a, &out, "claim", text_or_empty(a, assay_object_get(c, "claim")));
		assay_object_set(a, &out, "verified",
				 assay_value_copy(a, assay_object_get(c, "verified")));
		assay_object_set(a, &out, "evidence",
				 text_or_empty(a, assay_object_get(c, "evidence")));
		assay_array_push(a, &claims, out);
	}
	assay_object_set(a, &g, "claims", claims);
	assay_object_set(a, &g, "user_notes_summary",
			 text_or_empty(a, assay_object_get(answer, "user_notes_summary")));
	assay_object_set(a, &g, "eval_feedback",
			 text_or_empty(a, assay_object_get(answer, "eval_feedback")));
	assay_object_set(a, &g, "execution_metrics",
			 metrics && metrics->kind == ASSAY_V_OBJECT ? assay_value_copy(a, metrics)
								     : assay_value_object());
	return g;
}

uint64_t assay_skill_prng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

bool assay_skill_first_is_a(uint64_t seed, const char *case_id, int run)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a of the case id */

	for (const char *p = case_id; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	uint64_t state = seed ^ h ^ ((uint64_t)run * 0x9e3779b97f4a7c15ull);
	assay_skill_prng_next(&state);
	return assay_skill_prng_next(&state) >> 63;
}

void assay_skill_wilson(double s, double n, double z, double *lo, double *hi)
{
	if (!(n > 0)) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double p = s / n, z2 = z * z, den = 1 + z2 / n;
	double center = (p + z2 / (2 * n)) / den;
	double half = z / den * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	*lo = fmax(0, center - half);
	*hi = fmin(1, center + half);
}

void assay_skill_delta_ci(double s1, double n1, double s2, double n2, double z, double *d,
			  double *lo, double *hi)
{
	double l1, u1, l2, u2, p1 = n1 > 0 ? s1 / n1 : 0, p2 = n2 > 0 ? s2 / n2 : 0;

	/* Newcombe (1998), method 10: the two Wilson intervals combined. */
	assay_skill_wilson(s1, n1, z, &l1, &u1);
	assay_skill_wilson(s2, n2, z, &l2, &u2);
	*d = p1 - p2;
	*lo = *d - sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2));
	*hi = *d + sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2));
}
