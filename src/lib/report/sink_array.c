/*
 * The run-case array (verification.md, "Testing Your Verifier"): {id, group, score, passed}
 * per case, plus its checkpoint (issue #11: a group name alone is ambiguous across checkpoints); failing cases add `results` with their verified attributes' verdicts and diffs;
 * `--full` gives every attribute in full for every case. The items are copied into the sink's
 * own arena, since a case's report lives only until the sinks have seen it.
 */
#include <stdlib.h>

#include "assay/report.h"
#include "util/banned.h"

struct array {
	assay_arena *arena;
	assay_value items;
	bool full;
	char *work_dir; /* the summary's: where --keep kept the working folders, or NULL */
};

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct array *s = payload;
	assay_arena *a = s->arena;
	assay_value item = assay_value_object();
	const assay_value *results = assay_object_get(r->json, "results");

	(void)err;
	assay_object_set(a, &item, "id", assay_value_strz(a, r->id));
	assay_object_set(a, &item, "checkpoint", assay_value_strz(a, r->checkpoint->name));
	assay_object_set(a, &item, "group", assay_value_strz(a, r->group->name));
	assay_object_set(a, &item, "score", assay_value_real(r->score));
	assay_object_set(a, &item, "passed", assay_value_bool(r->passed));
	if (r->error)
		assay_object_set(a, &item, "error", assay_value_strz(a, r->error));
	if (s->full && results) {
		const assay_value *partial = assay_report_get(r->json, "partial");
		const assay_value *execution = assay_report_get(r->json, "execution");
		assay_value pf;

		assay_report_format_result(&pf, a, results);
		assay_object_set(a, &item, "format_result", pf);
		assay_object_set(a, &item, "results", assay_value_copy(a, results));
		/* what assay adds beside the contract's figures (a report keeps them in `case`) */
		if (partial)
			assay_object_set(a, &item, "partial", assay_value_copy(a, partial));
		if (execution)
			assay_object_set(a, &item, "execution", assay_value_copy(a, execution));
	} else if (!r->passed && results) {
		assay_value brief = assay_value_object();

		for (uint32_t i = 0; i < results->len; i++) {
			const assay_value *v = &results->u.members[i].value;
			const assay_value *ok = assay_object_get(v, "is_correct");
			const assay_value *w = assay_object_get(v, "weight");
			const assay_value *d = assay_object_get(v, "diff");
			assay_value b = assay_value_object();

			if (!ok || ok->kind == ASSAY_V_NULL)
				continue;
			assay_object_set(a, &b, "is_correct", *ok);
			assay_object_set(a, &b, "weight", w ? *w : assay_value_real(1));
			assay_object_set(a, &b, "diff", d ? assay_value_copy(a, d)
							  : assay_value_null());
			assay_object_set(a, &brief, results->u.members[i].key.u.s, b);
		}
		assay_object_set(a, &item, "results", brief);
	}
	assay_array_push(a, &s->items, item);
	return 0;
}

static int on_end(void *payload, const assay_run_summary *summary, assay_err *err)
{
	struct array *s = payload;
	const assay_value *w = assay_object_get(summary->json, "work_dir");

	(void)err;
	if (w && w->kind == ASSAY_V_STRING) {
		free(s->work_dir);
		s->work_dir = assay_xstrdup(w->u.s);
	}
	return 0;
}

static void sink_free(void *payload)
{
	struct array *s = payload;

	free(s->work_dir);
	assay_arena_free(s->arena);
	free(s);
}

int assay_sink_array_new(assay_sink *out, bool full)
{
	struct array *s = assay_xcalloc(1, sizeof(*s));

	s->arena = assay_arena_new(0);
	s->items = assay_value_array();
	s->full = full;
	*out = (assay_sink){ s, NULL, on_case, on_end, sink_free, NULL };
	return 0;
}

const assay_value *assay_sink_array_result(const assay_sink *sink)
{
	return &((const struct array *)sink->payload)->items;
}

const char *assay_sink_array_work_dir(const assay_sink *sink)
{
	return ((const struct array *)sink->payload)->work_dir;
}
