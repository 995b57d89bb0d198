/*
 * The shard's sink (shard.h): hands the results store each case with its place in the whole,
 * unsharded run (so the store's `position` orders the merged run), and the summary with the
 * `shard` object saying which shard of which split the folder holds.
 */
#include <stdlib.h>

#include "shard/shard_int.h"
#include "util/banned.h"

struct shard_sink {
	assay_sink *inner;
	const assay_shard_plan *plan;
};

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct shard_sink *k = payload;

	return k->inner->on_begin ? k->inner->on_begin(k->inner->payload, suite, total, err) : 0;
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct shard_sink *k = payload;
	assay_case_report whole = *r;

	if (!k->inner->on_case)
		return 0;
	if (r->index >= 1 && r->index <= k->plan->npositions)
		whole.index = k->plan->positions[r->index - 1];
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

static void sink_free(void *payload)
{
	free(payload);
}

int assay_sink_shard_new(assay_sink *out, assay_sink *inner, const assay_shard_plan *plan)
{
	struct shard_sink *k = assay_xcalloc(1, sizeof(*k));

	k->inner = inner;
	k->plan = plan;
	*out = (assay_sink){ k, on_begin, on_case, on_end, sink_free, on_start };
	return 0;
}
