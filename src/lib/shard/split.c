/*
 * The split of a suite into shards (shard.h): units (a case, or a group kept whole because its
 * cases depend on each other: a shared working folder, or an api server), weighed by an earlier run's durations or by their number of
 * cases, placed heaviest first on the least loaded shard (greedy longest-processing-time
 * first: within 4/3 of the best possible makespan).
 *
 * Key decisions:
 * - Every shard computes the whole assignment from the same inputs, so shards need no
 *   coordination; ties are broken by a hash of the unit's name, then the name, never by
 *   anything of the machine. Without durations all units weigh one per case, and the hash
 *   order deals them round robin: shard sizes differ by at most one unit, and which shard a
 *   case lands in looks random (a slow checkpoint or group is spread over every shard).
 * - The plan's `split` fingerprint hashes the suite's checkpoints and groups and the whole
 *   assignment: `assay merge` refuses shards whose fingerprints differ (another selection,
 *   other durations) instead of merging a run with holes or doubles.
 * - The least loaded shard is found with a binary heap: n log N for n units on N shards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shard/shard_int.h"
#include "assay/fs.h"
#include "util/banned.h"
#include "util/sha256.h"

struct order {
	const assay_shard_unit *u;
	uint64_t hash;
};

static int cmp_order(const void *pa, const void *pb)
{
	const struct order *a = pa, *b = pb;

	if (a->u->weight != b->u->weight)
		return a->u->weight > b->u->weight ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return strcmp(a->u->name, b->u->name);
}

/* A min-heap of shards by (load, number). */
struct heap {
	size_t *h;     /* 0-based shard numbers */
	double *load;
	size_t n;
};

static bool less(const struct heap *hp, size_t a, size_t b)
{
	return hp->load[a] < hp->load[b] || (hp->load[a] == hp->load[b] && a < b);
}

static void sift_down(struct heap *hp, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < hp->n && less(hp, hp->h[l], hp->h[m]))
			m = l;
		if (r < hp->n && less(hp, hp->h[r], hp->h[m]))
			m = r;
		if (m == i)
			return;
		size_t t = hp->h[i];
		hp->h[i] = hp->h[m];
		hp->h[m] = t;
		i = m;
	}
}

void assay_shard_assign(const assay_shard_unit *units, size_t n, size_t count, size_t *out)
{
	struct order *ord;
	struct heap hp;

	if (!n)
		return;
	if (count <= 1) {
		for (size_t i = 0; i < n; i++)
			out[i] = 1;
		return;
	}
	ord = assay_xcalloc(n, sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[i] = (struct order){ &units[i], assay_shard__hash(units[i].name) };
	qsort(ord, n, sizeof(*ord), cmp_order);
	hp.h = assay_xcalloc(count, sizeof(*hp.h));
	hp.load = assay_xcalloc(count, sizeof(*hp.load));
	hp.n = count;
	for (size_t i = 0; i < count; i++)
		hp.h[i] = i; /* all loads 0: already a heap in number order */
	for (size_t i = 0; i < n; i++) {
		size_t s = hp.h[0];

		out[ord[i].u - units] = s + 1;
		hp.load[s] += ord[i].u->weight;
		sift_down(&hp, 0);
	}
	free(hp.h);
	free(hp.load);
	free(ord);
}

/* ---- splitting a loaded suite ---------------------------------------------------------- */

/* A unit and the cases it covers: group `g` of checkpoint `cp`, cases [first, first + n). */
struct span {
	size_t cp, g, first, n;
};

static double case_weight(const assay_shard_durations *d, double fallback, const char *cp,
			  const char *g, const char *id)
{
	if (!d)
		return 1;
	char *name = assay_xasprintf("%s/%s/%s", cp, g, id);
	double s = assay_shard__duration(d, name);

	free(name);
	return s >= 0 ? s : fallback;
}

static void hash_str(assay_sha256_ctx *h, const char *s)
{
	assay_sha256_add(h, s, strlen(s) + 1); /* with its NUL: names cannot run together */
}

void assay_shard__print_begin(assay_sha256_ctx *h, const char *suite_hash, size_t count,
			      const assay_suite *suite)
{
	char num[64];

	assay_sha256_begin(h);
	hash_str(h, "assay shard split 2");
	hash_str(h, suite_hash);
	snprintf(num, sizeof(num), "%zu", count);
	hash_str(h, num);
	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		const assay_checkpoint *cp = &suite->checkpoints[i];

		hash_str(h, cp->name);
		for (size_t j = 0; j < cp->ngroups; j++) {
			hash_str(h, cp->groups[j].name);
			hash_str(h, assay_group_type_name(cp->groups[j].type));
		}
	}
}

void assay_shard__print_unit(assay_sha256_ctx *h, const char *name, size_t where)
{
	char num[64];

	hash_str(h, "unit");
	hash_str(h, name);
	snprintf(num, sizeof(num), "%zu", where);
	hash_str(h, num);
}

void assay_shard__cases_begin(assay_sha256_ctx *h)
{
	assay_sha256_begin(h);
	hash_str(h, "assay shard cases 1");
}

void assay_shard__cases_add(assay_sha256_ctx *h, const char *cp, const char *g, const char *id,
			    const char *file_hash)
{
	hash_str(h, cp);
	hash_str(h, g);
	hash_str(h, id);
	hash_str(h, file_hash);
}

void assay_shard__print_case(assay_sha256_ctx *h, const char *id)
{
	hash_str(h, "case");
	hash_str(h, id);
}

static void free_ref(assay_case_ref *r)
{
	free(r->id);
	free(r->file);
	free(r->files_dir);
	free(r->problem);
}

/* The units of a split, each a case or a shared-folder group's cases (`spans`, in run order),
 * and the shard each is placed on (`where`, 1-based). */
struct units {
	assay_shard_unit *v;
	struct span *spans;
	size_t n, alloc;
	size_t *where;
};

static void units_release(struct units *us)
{
	for (size_t i = 0; i < us->n; i++)
		free((char *)us->v[i].name);
	free(us->v);
	free(us->spans);
	free(us->where);
}

/* The suite's units in run order, each weighed by its cases' durations (or `fallback`). */
static void make_units(struct units *us, const assay_suite *suite,
		       const assay_shard_durations *durations, double fallback)
{
	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		const assay_checkpoint *cp = &suite->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups; j++) {
			const assay_group *g = &cp->groups[j];

			for (size_t k = 0; k < g->ncases; k++) {
				double w = case_weight(durations, fallback, cp->name, g->name,
						       g->cases[k].id);

				if (assay_group_shares_state(suite, g) && k > 0) { /* one unit */
					us->v[us->n - 1].weight += w;
					us->spans[us->n - 1].n++;
					continue;
				}
				if (us->n == us->alloc) {
					us->alloc = us->alloc ? 2 * us->alloc : 64;
					us->v = assay_xrealloc(us->v, us->alloc * sizeof(*us->v));
					us->spans = assay_xrealloc(us->spans,
								   us->alloc * sizeof(*us->spans));
				}
				/* a group whose cases share state is one unit: any shard may run
				 * any other case alone */
				us->v[us->n].name =
					assay_group_shares_state(suite, g)
						? assay_xasprintf("%s/%s", cp->name, g->name)
						: assay_xasprintf("%s/%s/%s", cp->name, g->name,
								  g->cases[k].id);
				us->v[us->n].weight = w;
				us->spans[us->n++] = (struct span){ i, j, k, 1 };
			}
		}
	}
}

/* The split's fingerprint (the suite's shape, the count and the whole assignment) into
 * plan->split, with the weights and the groups kept whole; returns how many cases the shard
 * keeps. */
static size_t fingerprint(const assay_suite *suite, const assay_shard *shard,
			  const struct units *us, assay_shard_plan *plan)
{
	assay_sha256_ctx h;
	size_t kept = 0;

	assay_shard__print_begin(&h, plan->suite_hash, shard->count, suite);
	for (size_t u = 0; u < us->n; u++) {
		const struct span *sp = &us->spans[u];
		const assay_group *g = &suite->checkpoints[sp->cp].groups[sp->g];

		assay_shard__print_unit(&h, us->v[u].name, us->where[u]);
		for (size_t k = sp->first; k < sp->first + sp->n; k++)
			assay_shard__print_case(&h, g->cases[k].id);
		plan->weight_all += us->v[u].weight;
		if (us->where[u] == shard->index) {
			plan->weight += us->v[u].weight;
			kept += sp->n;
		}
	}
	for (size_t i = 0; i < suite->ncheckpoints; i++)
		for (size_t j = 0; j < suite->checkpoints[i].ngroups; j++)
			if (assay_group_shares_state(suite, &suite->checkpoints[i].groups[j]))
				assay_strvec_pushf(&plan->whole, "%s/%s", suite->checkpoints[i].name,
						   suite->checkpoints[i].groups[j].name);
	assay_sha256_end(&h, plan->split);
	return kept;
}

/* Every case file of the selection, as the shard found them, into plan->cases_hash (assay
 * merge compares). */
static void cases_hash(const assay_suite *suite, assay_shard_plan *plan)
{
	assay_sha256_ctx h;

	assay_shard__cases_begin(&h);
	for (size_t i = 0; i < suite->ncheckpoints; i++)
		for (size_t j = 0; j < suite->checkpoints[i].ngroups; j++) {
			const assay_group *g = &suite->checkpoints[i].groups[j];

			for (size_t k = 0; k < g->ncases; k++) {
				char fh[65] = "";

				if (!g->cases[k].file || assay_fs_sha256(g->cases[k].file, fh, NULL))
					fh[0] = '\0';
				assay_shard__cases_add(&h, suite->checkpoints[i].name, g->name,
						       g->cases[k].id, fh);
			}
		}
	assay_sha256_end(&h, plan->cases_hash);
}

/* Keeps this shard's `kept` cases in `suite`, in run order, with their places in the whole
 * run (plan->positions); frees the others' references. */
static void keep_shard(assay_suite *suite, const assay_shard *shard, const struct units *us,
		       assay_shard_plan *plan, size_t kept)
{
	size_t u = 0, pos = 0;

	plan->positions = assay_xcalloc(kept + 1, sizeof(*plan->positions));
	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		assay_checkpoint *cp = &suite->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups; j++) {
			assay_group *g = &cp->groups[j];
			size_t w = 0;

			for (size_t k = 0; k < g->ncases; k++) {
				const struct span *sp = us->spans;

				while (u + 1 < us->n && (sp[u].cp != i || sp[u].g != j ||
							 k >= sp[u].first + sp[u].n))
					u++;
				pos++;
				if (us->where[u] == shard->index) {
					plan->positions[plan->npositions++] = pos;
					g->cases[w++] = g->cases[k];
				} else {
					free_ref(&g->cases[k]);
				}
			}
			g->ncases = w;
		}
	}
	suite->ncases = plan->npositions;
}

int assay_suite_shard(assay_suite *suite, const assay_shard *shard,
		      const assay_shard_durations *durations, assay_shard_plan *plan,
		      assay_err *err)
{
	double fallback = assay_shard_durations_count(durations)
				  ? assay_shard__duration_mean(durations) : 1;
	struct units us = { NULL, NULL, 0, 0, NULL };
	size_t kept;

	*plan = (assay_shard_plan)ASSAY_SHARD_PLAN_INIT;
	if (!shard || shard->count < 1 || shard->count > ASSAY_SHARD_MAX || shard->index < 1 ||
	    shard->index > shard->count)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "no such shard: %zu of %zu", shard ? shard->index : 0,
				     shard ? shard->count : 0);
	int rc = assay_suite_hash(suite, plan->suite_hash, err);
	if (rc)
		return rc;
	make_units(&us, suite, durations, fallback);
	us.where = assay_xcalloc(us.n + 1, sizeof(*us.where));
	assay_shard_assign(us.v, us.n, shard->count, us.where);
	plan->shard = *shard;
	plan->total = suite->ncases;
	kept = fingerprint(suite, shard, &us, plan);
	cases_hash(suite, plan);
	keep_shard(suite, shard, &us, plan, kept);
	units_release(&us);
	return 0;
}

void assay_shard_plan_release(assay_shard_plan *plan)
{
	free(plan->positions);
	assay_strvec_clear(&plan->whole);
	*plan = (assay_shard_plan)ASSAY_SHARD_PLAN_INIT;
}

assay_value assay_shard_plan_value(const assay_shard_plan *plan, assay_arena *a)
{
	assay_value o = assay_value_object();

	assay_object_set(a, &o, "index", assay_value_int((int64_t)plan->shard.index));
	assay_object_set(a, &o, "count", assay_value_int((int64_t)plan->shard.count));
	assay_object_set(a, &o, "cases", assay_value_int((int64_t)plan->total));
	assay_object_set(a, &o, "split", assay_value_strz(a, plan->split));
	assay_object_set(a, &o, "suite_hash", assay_value_strz(a, plan->suite_hash));
	assay_value whole = assay_value_array();
	for (size_t i = 0; i < plan->whole.nr; i++)
		assay_array_push(a, &whole, assay_value_strz(a, plan->whole.v[i]));
	assay_object_set(a, &o, "whole", whole);
	assay_object_set(a, &o, "cases_hash", assay_value_strz(a, plan->cases_hash));
	return o;
}
