/*
 * `assay skill check`: each of the five files of eval-schemas.md against its schema and the
 * rules of skill-evals.md 4.6, every problem with path:line:col.
 *
 * Decisions: unknown members are warnings (a newer writer may add fields); vague words in an
 * expectation's description are warnings (the contract says "must be concrete", but only a
 * person can tell); everything the contract derives (passed, overall_score, required_score,
 * overall, average_score) is recomputed and a difference is an error. A grading file inside
 * <workspace>/grading is checked against the workspace's evals.json even when given alone.
 */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/fs.h"
#include "skill/skill_int.h"
#include "util/banned.h"

struct ck {
	assay_skill_diags *d;
	const char *path;
	assay_arena *a;
};

static void say(struct ck *k, assay_skill_severity sev, const assay_value *at, const char *fmt,
		...) ASSAY_PRINTF(4, 5);
static void say(struct ck *k, assay_skill_severity sev, const assay_value *at, const char *fmt,
		...)
{
	va_list ap;
	char msg[1024];
	int line, col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	assay_skill__pos(k->a, at, &line, &col);
	assay_skill_diag_add(k->d, sev, k->path, line, col, "%s", msg);
}

#define ERR(k, at, ...) say((k), ASSAY_SKILL_ERROR, (at), __VA_ARGS__)
#define WARN(k, at, ...) say((k), ASSAY_SKILL_WARNING, (at), __VA_ARGS__)

/* The value of member `key`, checked to be of `kind`; NULL (with an error) otherwise. */
static const assay_value *need(struct ck *k, const assay_value *obj, const char *where,
			       const char *key, assay_kind kind, bool optional)
{
	const assay_member *m = assay_object_member(obj, key);

	if (!m) {
		if (!optional)
			ERR(k, obj, "%s: '%s' is missing", where, key);
		return NULL;
	}
	if (m->value.kind != kind && !(kind == ASSAY_V_REAL && assay_value_is_number(&m->value))) {
		ERR(k, assay_member_anchor(m), "%s: '%s' must be %s, not %s", where, key,
		    assay_kind_name(kind), assay_kind_name(m->value.kind));
		return NULL;
	}
	return &m->value;
}

static const assay_value *need_text(struct ck *k, const assay_value *obj, const char *where,
				    const char *key, bool nonempty)
{
	const assay_value *v = need(k, obj, where, key, ASSAY_V_STRING, false);

	if (v && nonempty) {
		bool blank = true;
		for (uint32_t i = 0; i < v->len; i++)
			if (!strchr(" \t\r\n", v->u.s[i]))
				blank = false;
		if (blank)
			ERR(k, v, "%s: '%s' must not be empty", where, key);
	}
	return v;
}

static void only_keys(struct ck *k, const assay_value *obj, const char *where,
		      const char *const *keys)
{
	for (uint32_t i = 0; obj->kind == ASSAY_V_OBJECT && i < obj->len; i++) {
		const assay_member *m = &obj->u.members[i];
		bool known = false;

		for (const char *const *p = keys; *p; p++)
			if (assay_value_is_str(&m->key, *p))
				known = true;
		if (!known)
			WARN(k, &m->key, "%s: unknown member '%s'", where, m->key.u.s);
	}
}

static bool is_object(struct ck *k, const assay_value *v, const char *what)
{
	if (v->kind == ASSAY_V_OBJECT)
		return true;
	ERR(k, v, "%s must be an object, not %s", what, assay_kind_name(v->kind));
	return false;
}

static bool same(double x, double y)
{
	return fabs(x - y) < 1e-9;
}

/*
 * evals.json
 */

static const char *const vague_words[] = { "appropriate", "appropriately", "reasonable",
					   "reasonably", "good", "properly", "adequate",
					   "sufficient", NULL };

static void vague(struct ck *k, const assay_value *desc, const char *where)
{
	for (const char *const *w = vague_words; *w; w++) {
		size_t n = strlen(*w);
		for (uint32_t i = 0; i + n <= desc->len; i++) {
			bool start = i == 0 || !((desc->u.s[i - 1] | 0x20) >= 'a' &&
						 (desc->u.s[i - 1] | 0x20) <= 'z');
			bool end = i + n == desc->len ||
				   !((desc->u.s[i + n] | 0x20) >= 'a' &&
				     (desc->u.s[i + n] | 0x20) <= 'z');
			if (start && end && !strncasecmp(desc->u.s + i, *w, n)) {
				WARN(k, desc, "%s: description is vague ('%s'): make it concrete "
				     "and falsifiable", where, *w);
				return;
			}
		}
	}
}

static void check_evals(struct ck *k, const assay_value *root, const char *ws)
{
	static const char *const top[] = { "version", "skill", "cases", NULL };
	static const char *const ckeys[] = { "id", "prompt", "files", "expectations", NULL };
	static const char *const ekeys[] = { "criterion", "description", "required", NULL };
	const assay_value *cases;

	if (!is_object(k, root, "evals.json"))
		return;
	only_keys(k, root, "evals.json", top);
	need(k, root, "evals.json", "version", ASSAY_V_STRING, false);
	need(k, root, "evals.json", "skill", ASSAY_V_STRING, false);
	if (!(cases = need(k, root, "evals.json", "cases", ASSAY_V_ARRAY, false)))
		return;
	if (!cases->len)
		WARN(k, cases, "evals.json has no cases yet: nothing can be run or graded");
	for (uint32_t i = 0; i < cases->len; i++) {
		const assay_value *c = &cases->u.items[i], *id, *ex, *files;
		char where[300];

		snprintf(where, sizeof(where), "cases[%u]", i);
		if (!is_object(k, c, where))
			continue;
		only_keys(k, c, where, ckeys);
		if ((id = need(k, c, where, "id", ASSAY_V_STRING, false))) {
			snprintf(where, sizeof(where), "case '%.200s'", id->u.s);
			if (!assay_skill__is_kebab(id->u.s))
				ERR(k, id, "%s: id must be kebab-case ([a-z0-9]+(-[a-z0-9]+)*)",
				    where);
			for (uint32_t j = 0; j < i; j++)
				if (assay_value_equal(assay_object_get(&cases->u.items[j], "id"),
						      id)) {
					ERR(k, id, "%s: id is not unique (also cases[%u])", where,
					    j);
					break;
				}
		}
		need_text(k, c, where, "prompt", true);
		if ((files = need(k, c, where, "files", ASSAY_V_ARRAY, true))) {
			for (uint32_t j = 0; j < files->len; j++) {
				const assay_value *f = &files->u.items[j];

				if (f->kind != ASSAY_V_STRING) {
					ERR(k, files, "%s: files[%u] must be a string", where, j);
					continue;
				}
				if (!assay_path_is_contained(f->u.s)) {
					ERR(k, f, "%s: file '%s' must be a relative path inside "
					    "the workspace", where, f->u.s);
					continue;
				}
				if (ws) {
					char *p = assay_path_join(ws, f->u.s);
					if (!assay_fs_exists(p))
						ERR(k, f, "%s: file '%s' does not exist in the "
						    "workspace", where, f->u.s);
					free(p);
				}
			}
		}
		if (!(ex = need(k, c, where, "expectations", ASSAY_V_ARRAY, false)))
			continue;
		bool required = false;
		for (uint32_t j = 0; j < ex->len; j++) {
			const assay_value *e = &ex->u.items[j], *crit, *desc, *req;
			char ew[400];

			snprintf(ew, sizeof(ew), "%s expectations[%u]", where, j);
			if (!is_object(k, e, ew))
				continue;
			only_keys(k, e, ew, ekeys);
			if ((crit = need_text(k, e, ew, "criterion", true))) {
				for (uint32_t m = 0; m < j; m++)
					if (assay_value_equal(
						    assay_object_get(&ex->u.items[m], "criterion"),
						    crit))
						ERR(k, crit, "%s: criterion '%s' is not unique in "
						    "its case", ew, crit->u.s);
			}
			if ((desc = need_text(k, e, ew, "description", true)))
				vague(k, desc, ew);
			if ((req = need(k, e, ew, "required", ASSAY_V_BOOL, false)) && req->u.b)
				required = true;
		}
		if (!required)
			ERR(k, ex, "%s: needs at least one expectation with \"required\": true "
			    "(otherwise the case can never fail)", where);
	}
}

/*
 * history.json
 */

static bool is_utc_stamp(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";

	if (strlen(s) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return false;
	return true;
}

static void check_score_range(struct ck *k, const assay_value *v, const char *where,
			      const char *key, double lo, double hi)
{
	double x = assay_value_number(v);

	if (!(x >= lo && x <= hi))
		ERR(k, v, "%s: '%s' must be within %g-%g", where, key, lo, hi);
	else if (!same(assay_skill_round1(x), x))
		ERR(k, v, "%s: '%s' must have one decimal", where, key);
}

static void check_history(struct ck *k, const assay_value *root, const char *ws)
{
	static const char *const top[] = { "versions", "current_version", NULL };
	static const char *const vkeys[] = { "version", "timestamp", "description", "git_hash",
					     "path", "average_score", NULL };
	const assay_value *vs, *cur;

	if (!is_object(k, root, "history.json"))
		return;
	only_keys(k, root, "history.json", top);
	vs = need(k, root, "history.json", "versions", ASSAY_V_ARRAY, false);
	cur = need(k, root, "history.json", "current_version", ASSAY_V_INT, false);
	if (!vs)
		return;
	if (!vs->len)
		ERR(k, vs, "history.json: 'versions' must not be empty");
	if (cur && (cur->u.i < 0 || cur->u.i >= vs->len))
		ERR(k, assay_member_anchor(assay_object_member(root, "current_version")),
		    "history.json: current_version %lld names no version", (long long)cur->u.i);
	for (uint32_t i = 0; i < vs->len; i++) {
		const assay_value *e = &vs->u.items[i], *v, *t, *g, *p, *avg;
		char where[64];

		snprintf(where, sizeof(where), "versions[%u]", i);
		if (!is_object(k, e, where))
			continue;
		only_keys(k, e, where, vkeys);
		if ((v = need(k, e, where, "version", ASSAY_V_INT, false)) && v->u.i != i)
			ERR(k, assay_member_anchor(assay_object_member(e, "version")),
			    "%s: version must be %u (0-indexed, in order)", where, i);
		if ((t = need(k, e, where, "timestamp", ASSAY_V_STRING, false)) &&
		    !is_utc_stamp(t->u.s))
			ERR(k, t, "%s: timestamp must be ISO 8601 UTC (YYYY-MM-DDTHH:MM:SSZ)",
			    where);
		need(k, e, where, "description", ASSAY_V_STRING, false);
		if (!assay_object_get(e, "git_hash"))
			ERR(k, e, "%s: 'git_hash' is missing (null when uncommitted)", where);
		else if ((g = assay_object_get(e, "git_hash"))->kind != ASSAY_V_NULL) {
			bool hex = g->kind == ASSAY_V_STRING && g->len >= 7 && g->len <= 64;
			for (uint32_t j = 0; hex && j < g->len; j++)
				hex = strchr("0123456789abcdef", g->u.s[j]) != NULL;
			if (!hex)
				ERR(k, assay_member_anchor(assay_object_member(e, "git_hash")),
				    "%s: git_hash must be a commit hash (hex) or null", where);
		}
		if ((p = need(k, e, where, "path", ASSAY_V_STRING, false)) && ws) {
			if (!assay_path_is_contained(p->u.s)) {
				ERR(k, p, "%s: path must be relative to the workspace", where);
			} else {
				char *full = assay_path_join(ws, p->u.s);
				if (!assay_fs_is_dir(full))
					ERR(k, p, "%s: path '%s' is not a folder of the workspace",
					    where, p->u.s);
				free(full);
			}
		}
		const assay_member *am = assay_object_member(e, "average_score");
		if (!am) {
			ERR(k, e, "%s: 'average_score' is missing (null if no scores)", where);
			continue;
		}
		avg = &am->value;
		if (avg->kind != ASSAY_V_NULL && !assay_value_is_number(avg)) {
			ERR(k, assay_member_anchor(am), "%s: average_score must be a number or null",
			    where);
			continue;
		}
		if (avg->kind != ASSAY_V_NULL)
			check_score_range(k, avg, where, "average_score", 1, 5);
		if (ws && v) {
			size_t n;
			double want = assay_skill__version_average(ws, (int)v->u.i, &n);
			bool ok = avg->kind == ASSAY_V_NULL ? n == 0
				  : n && same(want, assay_value_number(avg));
			if (!ok && n)
				ERR(k, assay_member_anchor(am), "%s: average_score must be %.1f, the "
				    "mean overall_score of its %zu grading files", where, want, n);
			else if (!ok)
				ERR(k, assay_member_anchor(am), "%s: average_score must be null: "
				    "no grading file of version %lld", where, (long long)v->u.i);
		}
	}
}

/*
 * grading.json
 */

static const assay_value *find_case(const assay_value *evals, const char *id)
{
	const assay_value *cases = assay_object_get(evals, "cases");

	for (uint32_t i = 0; cases && cases->kind == ASSAY_V_ARRAY && i < cases->len; i++)
		if (assay_value_is_str(assay_object_get(&cases->u.items[i], "id"), id))
			return &cases->u.items[i];
	return NULL;
}

static void check_compliance(struct ck *k, const assay_value *cc)
{
	if (!is_object(k, cc, "convention_compliance"))
		return;
	for (int i = 0; i < ASSAY_SKILL_NKEYS; i++) {
		const char *key = assay_skill_convention_keys[i];
		const assay_member *m = assay_object_member(cc, key);

		if (!m) {
			ERR(k, cc, "convention_compliance: '%s' is missing", key);
			continue;
		}
		if (!is_object(k, &m->value, key))
			continue;
		const assay_member *p = assay_object_member(&m->value, "passed");
		if (!p || (p->value.kind != ASSAY_V_BOOL && p->value.kind != ASSAY_V_NULL))
			ERR(k, p ? assay_member_anchor(p) : &m->value,
			    "convention_compliance.%s: 'passed' must be true, false or null", key);
		need(k, &m->value, key, "details", ASSAY_V_STRING, false);
	}
	for (uint32_t i = 0; i < cc->len; i++) {
		bool known = false;
		for (int j = 0; j < ASSAY_SKILL_NKEYS; j++)
			if (assay_value_is_str(&cc->u.members[i].key, assay_skill_convention_keys[j]))
				known = true;
		if (!known)
			ERR(k, &cc->u.members[i].key, "convention_compliance: '%s' is not one of "
			    "the five convention keys", cc->u.members[i].key.u.s);
	}
}

/* What a grading file's results add up to, for the values derived from them. */
struct grading_sums {
	double sum;               /* of every score */
	double rsum;              /* of the required criteria's scores */
	size_t rn;                /* required criteria graded */
	bool all_required_pass;
	bool derivable;           /* every result is well formed and every expectation has one */
};

/* case_id, version and run, as the file is named. */
static const assay_value *check_grading_id(struct ck *k, const assay_value *root)
{
	const assay_value *id, *ver, *run;
	char *base = assay_skill__basename(k->path), cid[256];
	int fv, fr;

	id = need(k, root, "grading", "case_id", ASSAY_V_STRING, false);
	ver = need(k, root, "grading", "version", ASSAY_V_INT, false);
	run = need(k, root, "grading", "run", ASSAY_V_INT, false);
	if (ver && ver->u.i < 0)
		ERR(k, root, "grading: version must be >= 0");
	if (run && run->u.i < 1)
		ERR(k, root, "grading: run must be >= 1");
	if (assay_skill__grading_name(base, cid, sizeof(cid), &fv, &fr) && id && ver && run &&
	    (strcmp(cid, id->u.s) || fv != ver->u.i || fr != run->u.i))
		ERR(k, root, "grading: the file name says %s, version %d, run %d; the "
		    "content says %s, %lld, %lld", cid, fv, fr, id->u.s,
		    (long long)ver->u.i, (long long)run->u.i);
	free(base);
	return id;
}

/* results[i] of a grading file of case `id` (its expectations `exps`, NULL if unknown). */
static void check_result(struct ck *k, const assay_value *results, uint32_t i,
			 const assay_value *exps, const assay_value *id, struct grading_sums *g)
{
	static const char *const rkeys[] = { "criterion", "score", "passed", "reasoning", NULL };
	const assay_value *r = &results->u.items[i], *crit, *score, *passed, *v;
	char where[64];

	snprintf(where, sizeof(where), "results[%u]", i);
	if (!is_object(k, r, where)) {
		g->derivable = false;
		return;
	}
	only_keys(k, r, where, rkeys);
	crit = need(k, r, where, "criterion", ASSAY_V_STRING, false);
	score = need(k, r, where, "score", ASSAY_V_INT, false);
	passed = need(k, r, where, "passed", ASSAY_V_BOOL, false);
	need(k, r, where, "reasoning", ASSAY_V_STRING, false);
	if (!score || score->u.i < 1 || score->u.i > 5) {
		if (score)
			ERR(k, assay_member_anchor(assay_object_member(r, "score")),
			    "%s: score must be an integer 1-5", where);
		g->derivable = false;
		return;
	}
	if (passed && passed->u.b != (score->u.i >= 3))
		ERR(k, assay_member_anchor(assay_object_member(r, "passed")),
		    "%s: passed must be %s (derived: score >= 3)", where,
		    score->u.i >= 3 ? "true" : "false");
	g->sum += (double)score->u.i;
	if (crit) {
		for (uint32_t j = 0; j < i; j++)
			if (assay_value_equal(assay_object_get(&results->u.items[j], "criterion"),
					      crit))
				ERR(k, crit, "%s: criterion '%s' is graded twice", where, crit->u.s);
	}
	if (!exps || !crit)
		return;
	const assay_value *e = NULL;
	for (uint32_t j = 0; j < exps->len; j++)
		if (assay_value_equal(assay_object_get(&exps->u.items[j], "criterion"), crit))
			e = &exps->u.items[j];
	if (!e) {
		ERR(k, crit, "%s: criterion '%s' is not an expectation of case '%s'", where,
		    crit->u.s, id->u.s);
	} else if ((v = assay_object_get(e, "required")) && v->kind == ASSAY_V_BOOL && v->u.b) {
		g->rsum += (double)score->u.i;
		g->rn++;
		if (score->u.i < 3)
			g->all_required_pass = false;
	}
}

/* Every expectation of the case has a result. */
static void check_every_expectation(struct ck *k, const assay_value *exps,
				    const assay_value *results, struct grading_sums *g)
{
	for (uint32_t j = 0; j < exps->len; j++) {
		const assay_value *crit = assay_object_get(&exps->u.items[j], "criterion");
		bool found = false;
		for (uint32_t i = 0; i < results->len; i++)
			if (assay_value_equal(assay_object_get(&results->u.items[i], "criterion"),
					      crit))
				found = true;
		if (!found && crit && crit->kind == ASSAY_V_STRING) {
			ERR(k, results, "grading: expectation '%s' has no result", crit->u.s);
			g->derivable = false;
		}
	}
}

/* required_score and overall as the required criteria's scores make them. */
static void check_required(struct ck *k, const assay_member *rm, const assay_value *overall,
			   const struct grading_sums *g)
{
	if (rm) {
		bool ok = g->rn ? assay_value_is_number(&rm->value) &&
				  same(assay_skill_round1(g->rsum / g->rn),
				       assay_value_number(&rm->value))
				: rm->value.kind == ASSAY_V_NULL;
		if (!ok && g->rn)
			ERR(k, assay_member_anchor(rm), "grading: required_score must be "
			    "%.1f (the mean of required scores)", assay_skill_round1(g->rsum / g->rn));
		else if (!ok)
			ERR(k, assay_member_anchor(rm), "grading: required_score must be "
			    "null (no required expectation)");
	}
	const char *want = g->all_required_pass ? "pass" : "fail";
	if (overall && !assay_value_is_str(overall, want))
		ERR(k, overall, "grading: overall must be \"%s\" (every required criterion %s)",
		    want, g->all_required_pass ? "passed" : "did not pass");
}

static void check_claims(struct ck *k, const assay_value *v)
{
	for (uint32_t i = 0; i < v->len; i++) {
		char where[64];
		snprintf(where, sizeof(where), "claims[%u]", i);
		if (!is_object(k, &v->u.items[i], where))
			continue;
		need(k, &v->u.items[i], where, "claim", ASSAY_V_STRING, false);
		need(k, &v->u.items[i], where, "verified", ASSAY_V_BOOL, false);
		need(k, &v->u.items[i], where, "evidence", ASSAY_V_STRING, false);
	}
}

static void check_grading(struct ck *k, const assay_value *root, const assay_value *evals)
{
	static const char *const top[] = { "case_id", "version", "run", "overall_score",
					   "required_score", "results", "overall",
					   "convention_compliance", "claims", "user_notes_summary",
					   "eval_feedback", "execution_metrics", NULL };
	const assay_value *id, *os, *results, *overall, *v;
	const assay_member *rm;
	struct grading_sums g = { 0, 0, 0, true, true };

	if (!is_object(k, root, "grading file"))
		return;
	only_keys(k, root, "grading", top);
	id = check_grading_id(k, root);
	const assay_value *ecase = evals && id ? find_case(evals, id->u.s) : NULL;
	if (evals && id && !ecase)
		ERR(k, id, "grading: case '%s' is not in evals.json", id->u.s);
	const assay_value *exps = ecase ? assay_object_get(ecase, "expectations") : NULL;

	os = need(k, root, "grading", "overall_score", ASSAY_V_REAL, false);
	rm = assay_object_member(root, "required_score");
	if (!rm)
		ERR(k, root, "grading: 'required_score' is missing");
	else if (rm->value.kind != ASSAY_V_NULL && !assay_value_is_number(&rm->value))
		ERR(k, assay_member_anchor(rm), "grading: required_score must be a number");
	results = need(k, root, "grading", "results", ASSAY_V_ARRAY, false);
	for (uint32_t i = 0; results && i < results->len; i++)
		check_result(k, results, i, exps, id, &g);
	if (results && !results->len)
		ERR(k, results, "grading: results must not be empty");
	if (exps && results)
		check_every_expectation(k, exps, results, &g);
	if (os && results && results->len && g.derivable) {
		double want = assay_skill_round1(g.sum / results->len);
		if (!same(want, assay_value_number(os)))
			ERR(k, assay_member_anchor(assay_object_member(root, "overall_score")),
			    "grading: overall_score must be %.1f (the mean of all scores)", want);
	}
	overall = need(k, root, "grading", "overall", ASSAY_V_STRING, false);
	if (overall && !assay_value_is_str(overall, "pass") && !assay_value_is_str(overall, "fail"))
		ERR(k, overall, "grading: overall must be \"pass\" or \"fail\"");
	if (exps && results && g.derivable)
		check_required(k, rm, overall, &g);
	if ((v = need(k, root, "grading", "convention_compliance", ASSAY_V_OBJECT, false)))
		check_compliance(k, v);
	if ((v = need(k, root, "grading", "claims", ASSAY_V_ARRAY, false)))
		check_claims(k, v);
	need(k, root, "grading", "user_notes_summary", ASSAY_V_STRING, false);
	need(k, root, "grading", "eval_feedback", ASSAY_V_STRING, false);
	need(k, root, "grading", "execution_metrics", ASSAY_V_OBJECT, false);
}

/*
 * comparison.json and analysis.json
 */

static const char *const dimensions[] = { "description_quality", "convention_compliance",
					  "type_specific_quality", "token_efficiency",
					  "content_value", NULL };

static void check_comparison(struct ck *k, const assay_value *root)
{
	static const char *const top[] = { "eval_prompt", "winner", "reasoning", "scores", NULL };
	const assay_value *w, *s;

	if (!is_object(k, root, "comparison"))
		return;
	only_keys(k, root, "comparison", top);
	need(k, root, "comparison", "eval_prompt", ASSAY_V_STRING, false);
	need(k, root, "comparison", "reasoning", ASSAY_V_STRING, false);
	if ((w = need(k, root, "comparison", "winner", ASSAY_V_STRING, false)) &&
	    !assay_value_is_str(w, "A") && !assay_value_is_str(w, "B"))
		ERR(k, w, "comparison: winner must be \"A\" or \"B\"");
	if (!(s = need(k, root, "comparison", "scores", ASSAY_V_OBJECT, false)))
		return;
	for (const char *const *d = dimensions; *d; d++) {
		const assay_value *dim = need(k, s, "scores", *d, ASSAY_V_OBJECT, false);

		for (int side = 0; dim && side < 2; side++) {
			const char *label = side ? "B" : "A";
			const assay_value *x = need(k, dim, *d, label, ASSAY_V_INT, false);
			if (x && (x->u.i < 1 || x->u.i > 10))
				ERR(k, assay_member_anchor(assay_object_member(dim, label)),
				    "scores.%s.%s must be an integer 1-10", *d, label);
		}
	}
	for (uint32_t i = 0; i < s->len; i++) {
		bool known = false;
		for (const char *const *d = dimensions; *d; d++)
			known |= assay_value_is_str(&s->u.members[i].key, *d);
		if (!known)
			ERR(k, &s->u.members[i].key, "scores: '%s' is not one of the five "
			    "dimensions", s->u.members[i].key.u.s);
	}
}

static bool version_label(const assay_value *v)
{
	if (!v || v->kind != ASSAY_V_STRING || v->len < 2 || v->u.s[0] != 'v')
		return false;
	for (uint32_t i = 1; i < v->len; i++)
		if (v->u.s[i] < '0' || v->u.s[i] > '9')
			return false;
	return true;
}

static void check_analysis(struct ck *k, const assay_value *root)
{
	static const char *const top[] = { "winner_version", "loser_version", "strengths",
					   "weaknesses", "suggestions", NULL };
	static const char *const skeys[] = { "area", "before", "after", "reasoning", NULL };
	const assay_value *w, *l, *s;

	if (!is_object(k, root, "analysis"))
		return;
	only_keys(k, root, "analysis", top);
	w = need(k, root, "analysis", "winner_version", ASSAY_V_STRING, false);
	l = need(k, root, "analysis", "loser_version", ASSAY_V_STRING, false);
	if (w && !version_label(w))
		ERR(k, w, "analysis: winner_version must be a version label such as \"v1\"");
	if (l && !version_label(l))
		ERR(k, l, "analysis: loser_version must be a version label such as \"v0\"");
	if (w && l && assay_value_equal(w, l))
		ERR(k, l, "analysis: winner and loser are the same version");
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "weaknesses" : "strengths";
		const assay_value *a = need(k, root, "analysis", key, ASSAY_V_ARRAY, false);
		for (uint32_t j = 0; a && j < a->len; j++)
			if (a->u.items[j].kind != ASSAY_V_STRING)
				ERR(k, a, "analysis: %s[%u] must be a string", key, j);
	}
	if (!(s = need(k, root, "analysis", "suggestions", ASSAY_V_ARRAY, false)))
		return;
	for (uint32_t i = 0; i < s->len; i++) {
		char where[64];
		snprintf(where, sizeof(where), "suggestions[%u]", i);
		if (!is_object(k, &s->u.items[i], where))
			continue;
		only_keys(k, &s->u.items[i], where, skeys);
		for (const char *const *p = skeys; *p; p++)
			need_text(k, &s->u.items[i], where, *p, true);
	}
}

/*
 * Files and workspaces
 */

static assay_skill_file_kind guess(const assay_value *root)
{
	if (assay_object_get(root, "cases"))
		return ASSAY_SKILL_FILE_EVALS;
	if (assay_object_get(root, "versions"))
		return ASSAY_SKILL_FILE_HISTORY;
	if (assay_object_get(root, "case_id") || assay_object_get(root, "results"))
		return ASSAY_SKILL_FILE_GRADING;
	if (assay_object_get(root, "eval_prompt") || assay_object_get(root, "winner"))
		return ASSAY_SKILL_FILE_COMPARISON;
	if (assay_object_get(root, "winner_version") || assay_object_get(root, "suggestions"))
		return ASSAY_SKILL_FILE_ANALYSIS;
	return ASSAY_SKILL_FILE_AUTO;
}

/* The workspace a file of grading/, comparisons/ or analysis/ belongs to, or NULL. */
static char *workspace_of(const char *path)
{
	char *abs = assay_path_absolute(path);
	char *slash = strrchr(abs, '/');

	if (slash) {
		*slash = '\0';
		slash = strrchr(abs, '/');
	}
	if (slash) {
		*slash = '\0';
		char *cfg = assay_path_join(abs, "config.json");
		bool ok = assay_fs_exists(cfg);
		free(cfg);
		if (ok)
			return abs;
	}
	free(abs);
	return NULL;
}

int assay_skill_check_file(assay_skill_diags *d, const char *path, assay_skill_file_kind kind,
			   const char *workspace, assay_err *err)
{
	assay_arena *a = assay_arena_new(0);
	assay_err e = ASSAY_ERR_INIT;
	assay_value root, evals = assay_value_null();
	char *ws = workspace ? assay_xstrdup(workspace) : NULL;
	struct ck k = { d, path, a };
	int rc = assay_skill__load_json(&root, a, path, &e);

	if (rc) {
		assay_skill_diag_add(d, ASSAY_SKILL_ERROR, e.path[0] ? e.path : path, e.line,
				     e.column, "%s", e.msg);
		if (rc == ASSAY_EPARSE || rc == ASSAY_ETOOBIG)
			rc = 0;
		else
			assay_err_set(err, rc, path, 0, 0, "%s", e.msg);
		goto out;
	}
	/* assay's own records beside the five files: the comparison's summary and the blind
	 * assignment; not part of the contract, so not checked against it */
	if (kind == ASSAY_SKILL_FILE_AUTO &&
	    (assay_object_get(&root, "order_consistency_rate") ||
	     (assay_object_get(&root, "order1") && assay_object_get(&root, "order2")))) {
		assay_skill_diag_add(d, ASSAY_SKILL_INFO, path, 0, 0,
				     "assay's own %s, not one of the five files: not checked",
				     assay_object_get(&root, "order1") ? "blind assignment"
								       : "comparison summary");
		goto out;
	}
	if (kind == ASSAY_SKILL_FILE_AUTO)
		kind = guess(&root);
	if (kind == ASSAY_SKILL_FILE_GRADING) {
		if (!ws)
			ws = workspace_of(path);
		if (ws) {
			struct skill_config c;
			assay_err ce = ASSAY_ERR_INIT;
			if (!assay_skill__config_load(&c, ws, &ce)) {
				char *ep = assay_path_join(c.skill, "evals/evals.json");
				if (assay_skill__load_json(&evals, a, ep, &ce))
					evals = assay_value_null();
				free(ep);
			}
			assay_skill__config_release(&c);
		}
	}
	switch (kind) {
	case ASSAY_SKILL_FILE_EVALS: check_evals(&k, &root, ws); break;
	case ASSAY_SKILL_FILE_HISTORY: check_history(&k, &root, ws); break;
	case ASSAY_SKILL_FILE_GRADING:
		check_grading(&k, &root, evals.kind == ASSAY_V_OBJECT ? &evals : NULL);
		break;
	case ASSAY_SKILL_FILE_COMPARISON: check_comparison(&k, &root); break;
	case ASSAY_SKILL_FILE_ANALYSIS: check_analysis(&k, &root); break;
	default:
		ERR(&k, &root, "not one of the five files (evals, history, grading, comparison, "
		    "analysis): say which with --kind");
	}
out:
	free(ws);
	assay_arena_free(a);
	return rc;
}

/* Checks every *.json of `dir` (sorted) as `kind`, skipping names `skip` refuses. */
static int check_dir(assay_skill_diags *d, const char *ws, const char *dir,
		     assay_skill_file_kind kind, bool (*skip)(const char *name), assay_err *err)
{
	char *full = assay_path_join(ws, dir);
	struct dirent **names = NULL;
	int n = scandir(full, &names, NULL, alphasort), rc = 0;

	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t len = strlen(nm);

		if (!rc && len > 5 && !strcmp(nm + len - 5, ".json") && !(skip && skip(nm))) {
			char *p = assay_path_join(full, nm);
			rc = assay_skill_check_file(d, p, kind, ws, err);
			free(p);
		}
		free(names[i]);
	}
	free(names);
	free(full);
	return rc;
}

static bool not_grading_name(const char *name)
{
	char id[256];
	int v, r;

	return !assay_skill__grading_name(name, id, sizeof(id), &v, &r);
}

static bool summary_name(const char *name)
{
	return !strncmp(name, "v", 1) && strstr(name, "_vs_v") && !strstr(name, "_run");
}

int assay_skill_check_workspace(assay_skill_diags *d, const char *workspace, assay_err *err)
{
	struct skill_config c;
	assay_err e = ASSAY_ERR_INIT;
	char *p = NULL;
	int rc;

	if ((rc = assay_skill__config_load(&c, workspace, &e))) {
		assay_skill_diag_add(d, ASSAY_SKILL_ERROR, e.path, e.line, e.column, "%s", e.msg);
		assay_skill__config_release(&c);
		return rc == ASSAY_ENOTFOUND && !assay_fs_is_dir(workspace)
			       ? assay_err_set(err, rc, workspace, 0, 0, "not a folder") : 0;
	}
	p = assay_path_join(c.workspace, "history.json");
	rc = assay_skill_check_file(d, p, ASSAY_SKILL_FILE_HISTORY, c.workspace, err);
	free(p);
	p = assay_path_join(c.skill, "evals/evals.json");
	if (!rc)
		rc = assay_skill_check_file(d, p, ASSAY_SKILL_FILE_EVALS, c.workspace, err);
	free(p);
	if (!rc) {
		/* Files of grading/ that do not follow the name pattern are not grading files. */
		char *g = assay_path_join(c.workspace, "grading");
		DIR *dir = opendir(g);
		struct dirent *ent;
		while (dir && (ent = readdir(dir))) {
			size_t n = strlen(ent->d_name);
			if (n > 5 && !strcmp(ent->d_name + n - 5, ".json") &&
			    not_grading_name(ent->d_name))
				assay_skill_diag_add(d, ASSAY_SKILL_WARNING, g, 0, 0,
						     "'%s' is not named <case_id>_v<N>_run<R>.json: "
						     "not checked", ent->d_name);
		}
		if (dir)
			closedir(dir);
		free(g);
		rc = check_dir(d, c.workspace, "grading", ASSAY_SKILL_FILE_GRADING,
			       not_grading_name, err);
	}
	if (!rc)
		rc = check_dir(d, c.workspace, "comparisons", ASSAY_SKILL_FILE_COMPARISON,
			       summary_name, err);
	if (!rc)
		rc = check_dir(d, c.workspace, "analysis", ASSAY_SKILL_FILE_ANALYSIS, NULL, err);
	assay_skill__config_release(&c);
	return rc;
}
