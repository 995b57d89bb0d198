/*
 * The shard's sink (shard.h): hands the results store each case with its place in the whole,
 * unsharded run (so the store's `position` orders the merged run), and the summary with the
 * `shard` object saying which shard of which split the folder holds.
 *
 * Key decision: a case is found by what it is (its group and id), not by the order it comes
 * in, so cases finishing in any order (a pool, a resumed run) get their own places. The table
 * is made when the run begins, from the sharded suite walked in run order beside the plan's
 * positions.
 */
#include <stdlib.h>
#include <string.h>

#include "shard/shard_int.h"
#include "util/hash.h"
#include "util/banned.h"

struct place {
	const assay_group *group; /* NULL: a free slot */
	const char *id;
	size_t position;
};

struct shard_sink {
	assay_sink *inner;
	const assay_shard_plan *plan;
	struct place *places;
	size_t alloc;             /* a power of two */
};

static size_t slot_of(const struct shard_sink *k, const assay_group *g, const char *id)
{
	size_t j = (assay_hash(id, strlen(id)) ^ (uint64_t)(uintptr_t)g * 0x9e3779b97f4a7c15ull) &
		   (k->alloc - 1);

	while (k->places[j].group && (k->places[j].group != g || strcmp(k->places[j].id, id)))
		j = (j + 1) & (k->alloc - 1);
	return j;
}

static void index_suite(struct shard_sink *k, const assay_suite *suite)
{
	size_t n = 0;

	free(k->places);
	for (k->alloc = 16; k->alloc < 2 * (k->plan->npositions + 1);)
		k->alloc *= 2;
	k->places = assay_xcalloc(k->alloc, sizeof(*k->places));
	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		const assay_checkpoint *cp = &suite->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups; j++) {
			const assay_group *g = &cp->groups[j];

			for (size_t c = 0; c < g->ncases && n < k->plan->npositions; c++) {
				size_t at = slot_of(k, g, g->cases[c].id);

				k->places[at] = (struct place){ g, g->cases[c].id,
								k->plan->positions[n++] };
			}
		}
	}
}

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct shard_sink *k = payload;

	index_suite(k, suite);
	return k->inner->on_begin ? k->inner->on_begin(k->inner->payload, suite, total, err) : 0;
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct shard_sink *k = payload;
	assay_case_report whole = *r;
	const struct place *p = k->places ? &k->places[slot_of(k, r->group, r->id)] : NULL;

	if (!k->inner->on_case)
		return 0;
	if (p && p->group)
		whole.index = p->position;
	else if (r->index >= 1 && r->index <= k->plan->npositions)
		whole.index = k->plan->positions[r->index - 1]; /* (a case the suite lacks) */
	whole.total = k->plan->total;
	return k->inner->on_case(k->inner->payload, &whole, err);
}

static int on_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct shard_sink *k = payload;
	assay_arena *a;
	assay_value json = assay_value_object();
	assay_run_summary with = *sum;
	int rc;

	if (!k->inner->on_end)
		return 0;
	a = assay_arena_new(0);
	/* a new object: the runner's summary stays as it was for the other sinks */
	for (uint32_t i = 0; sum->json->kind == ASSAY_V_OBJECT && i < sum->json->len; i++)
		assay_object_append(a, &json, sum->json->u.members[i].key,
				    sum->json->u.members[i].value);
	assay_object_set(a, &json, "shard", assay_shard_plan_value(k->plan, a));
	with.json = &json;
	rc = k->inner->on_end(k->inner->payload, &with, err);
	assay_arena_free(a);
	return rc;
}

static void on_start(void *payload, const assay_checkpoint *cp, const assay_group *g,
		     const char *id, size_t index, size_t total)
{
	struct shard_sink *k = payload;

	if (k->inner->on_start)
		k->inner->on_start(k->inner->payload, cp, g, id, index, total);
}

static int flush(void *payload, assay_err *err)
{
	struct shard_sink *k = payload;

	return k->inner->flush ? k->inner->flush(k->inner->payload, err) : 0;
}

static void tick(void *payload)
{
	struct shard_sink *k = payload;

	if (k->inner->tick)
		k->inner->tick(k->inner->payload);
}

static void sink_free(void *payload)
{
	struct shard_sink *k = payload;

	free(k->places);
	free(k);
}

int assay_sink_shard_new(assay_sink *out, assay_sink *inner, const assay_shard_plan *plan)
{
	struct shard_sink *k = assay_xcalloc(1, sizeof(*k));

	k->inner = inner;
	k->plan = plan;
	*out = (assay_sink){ k, on_begin, on_case, on_end, sink_free, on_start, inner->any_order,
			     flush, tick };
	return 0;
}
