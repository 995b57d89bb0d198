/*
 * What a judge's answer must hold, per role (eval-schemas.md). Judges answer only what they
 * judge: assay derives passed, overall_score, required_score, overall and the unblinded
 * version labels itself (decision 8), so those members are ignored when present. Scores may
 * be written 4 or 4.0; anything else is invalid.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "judge/judge_int.h"
#include "util/banned.h"

static bool fail(char *msg, size_t size, const char *fmt, ...) ASSAY_PRINTF(3, 4);
static bool fail(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return false;
}

static bool integral(const assay_value *v, int lo, int hi)
{
	double d;

	if (!v || !assay_value_is_number(v))
		return false;
	d = assay_value_number(v);
	return d == floor(d) && d >= lo && d <= hi;
}

static bool is_text(const assay_value *v, bool nonempty)
{
	return v && v->kind == ASSAY_V_STRING && (!nonempty || v->len > 0);
}

static bool grader(const assay_value *req, const assay_value *ans, char *msg, size_t size)
{
	const assay_value *res = assay_object_get(ans, "results");
	const assay_value *exps = assay_object_get(req, "expectations");
	const assay_value *v;

	if (!res || res->kind != ASSAY_V_ARRAY)
		return fail(msg, size, "'results' must be an array");
	for (uint32_t i = 0; i < res->len; i++) {
		const assay_value *r = &res->u.items[i], *c = assay_object_get(r, "criterion");

		if (r->kind != ASSAY_V_OBJECT || !is_text(c, true))
			return fail(msg, size, "results[%u] needs a 'criterion' string", i);
		if (!integral(assay_object_get(r, "score"), 1, 5))
			return fail(msg, size, "results[%u].score must be an integer 1-5", i);
		if ((v = assay_object_get(r, "reasoning")) && v->kind != ASSAY_V_STRING)
			return fail(msg, size, "results[%u].reasoning must be a string", i);
		for (uint32_t j = 0; j < i; j++)
			if (assay_value_equal(assay_object_get(&res->u.items[j], "criterion"), c))
				return fail(msg, size, "criterion '%s' is graded twice", c->u.s);
		bool known = !exps;
		for (uint32_t j = 0; exps && j < exps->len; j++)
			known |= assay_value_equal(assay_object_get(&exps->u.items[j], "criterion"),
						   c);
		if (!known)
			return fail(msg, size, "criterion '%s' is not an expectation", c->u.s);
	}
	for (uint32_t j = 0; exps && exps->kind == ASSAY_V_ARRAY && j < exps->len; j++) {
		const assay_value *c = assay_object_get(&exps->u.items[j], "criterion");
		bool found = false;

		for (uint32_t i = 0; i < res->len; i++)
			found |= assay_value_equal(assay_object_get(&res->u.items[i], "criterion"),
						   c);
		if (!found && c && c->kind == ASSAY_V_STRING)
			return fail(msg, size, "criterion '%s' has no result", c->u.s);
	}
	if ((v = assay_object_get(ans, "claims")) && v->kind != ASSAY_V_NULL) {
		if (v->kind != ASSAY_V_ARRAY)
			return fail(msg, size, "'claims' must be an array");
		for (uint32_t i = 0; i < v->len; i++) {
			const assay_value *c = &v->u.items[i], *b = assay_object_get(c, "verified");
			if (!is_text(assay_object_get(c, "claim"), false) || !b ||
			    b->kind != ASSAY_V_BOOL ||
			    !is_text(assay_object_get(c, "evidence"), false))
				return fail(msg, size, "claims[%u] must be {claim, verified: bool, "
					    "evidence}", i);
		}
	}
	static const char *const texts[] = { "user_notes_summary", "eval_feedback", NULL };
	for (int i = 0; texts[i]; i++)
		if ((v = assay_object_get(ans, texts[i])) && v->kind != ASSAY_V_STRING &&
		    v->kind != ASSAY_V_NULL)
			return fail(msg, size, "'%s' must be a string", texts[i]);
	return true;
}

static const char *const dims[] = { "description_quality", "convention_compliance",
				    "type_specific_quality", "token_efficiency", "content_value",
				    NULL };

static bool comparator(const assay_value *ans, char *msg, size_t size)
{
	const assay_value *w = assay_object_get(ans, "winner"), *s = assay_object_get(ans, "scores");

	if (!assay_value_is_str(w, "A") && !assay_value_is_str(w, "B"))
		return fail(msg, size, "'winner' must be \"A\" or \"B\"");
	if (!is_text(assay_object_get(ans, "reasoning"), false))
		return fail(msg, size, "'reasoning' must be a string");
	if (!s || s->kind != ASSAY_V_OBJECT)
		return fail(msg, size, "'scores' must be an object");
	for (int i = 0; dims[i]; i++) {
		const assay_value *d = assay_object_get(s, dims[i]);
		if (!d || !integral(assay_object_get(d, "A"), 1, 10) ||
		    !integral(assay_object_get(d, "B"), 1, 10))
			return fail(msg, size, "scores.%s must be {\"A\": 1-10, \"B\": 1-10}",
				    dims[i]);
	}
	for (uint32_t i = 0; i < s->len; i++) {
		bool known = false;
		for (int j = 0; dims[j]; j++)
			known |= assay_value_is_str(&s->u.members[i].key, dims[j]);
		if (!known)
			return fail(msg, size, "scores.%s is not one of the five dimensions",
				    s->u.members[i].key.u.s);
	}
	return true;
}

static bool analyzer(const assay_value *ans, char *msg, size_t size)
{
	static const char *const lists[] = { "strengths", "weaknesses", NULL };
	static const char *const keys[] = { "area", "before", "after", "reasoning", NULL };
	const assay_value *s;

	for (int i = 0; lists[i]; i++) {
		const assay_value *l = assay_object_get(ans, lists[i]);
		if (!l || l->kind != ASSAY_V_ARRAY)
			return fail(msg, size, "'%s' must be an array of strings", lists[i]);
		for (uint32_t j = 0; j < l->len; j++)
			if (l->u.items[j].kind != ASSAY_V_STRING)
				return fail(msg, size, "%s[%u] must be a string", lists[i], j);
	}
	s = assay_object_get(ans, "suggestions");
	if (!s || s->kind != ASSAY_V_ARRAY)
		return fail(msg, size, "'suggestions' must be an array");
	for (uint32_t i = 0; i < s->len; i++)
		for (int k = 0; keys[k]; k++)
			if (!is_text(assay_object_get(&s->u.items[i], keys[k]), true))
				return fail(msg, size, "suggestions[%u].%s must be a non-empty "
					    "string", i, keys[k]);
	return true;
}

bool assay_judge_validate(assay_judge_role role, const assay_value *request,
			  const assay_value *answer, char *msg, size_t msgsize)
{
	if (!answer || answer->kind != ASSAY_V_OBJECT)
		return fail(msg, msgsize, "the answer must be a JSON object");
	switch (role) {
	case ASSAY_JUDGE_GRADER: return grader(request, answer, msg, msgsize);
	case ASSAY_JUDGE_COMPARATOR: return comparator(answer, msg, msgsize);
	case ASSAY_JUDGE_ANALYZER: return analyzer(answer, msg, msgsize);
	}
	return fail(msg, msgsize, "unknown role");
}
