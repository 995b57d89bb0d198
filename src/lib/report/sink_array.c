/*
 * The run-case array (verification.md, "Testing Your Verifier"): {id, group, score, passed}
 * per case; failing cases add `results` with their verified attributes' verdicts and diffs;
 * `--full` gives every attribute in full for every case.
 */
#include <stdlib.h>

#include "assay/report.h"
#include "util/banned.h"

struct array {
	json_t *items;
	bool full;
};

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct array *a = payload;
	json_t *item = json_object();
	const json_t *results = json_object_get(r->json, "results");

	(void)err;
	json_object_set(item, "id", json_object_get(r->json, "id"));
	json_object_set(item, "group", json_object_get(r->json, "group"));
	json_object_set_new(item, "score", json_real(r->score));
	json_object_set_new(item, "passed", json_boolean(r->passed));
	if (r->error)
		json_object_set_new(item, "error", json_string(r->error));
	if (a->full) {
		json_object_set(item, "results", (json_t *)results);
	} else if (!r->passed) {
		json_t *brief = json_object();
		const char *key;
		json_t *v;
		json_object_foreach((json_t *)results, key, v) {
			if (json_is_null(json_object_get(v, "is_correct")))
				continue;
			json_object_set_new(brief, key,
					    json_pack("{s:O, s:O, s:O}", "is_correct",
						      json_object_get(v, "is_correct"), "weight",
						      json_object_get(v, "weight"), "diff",
						      json_object_get(v, "diff")));
		}
		json_object_set_new(item, "results", brief);
	}
	json_array_append_new(a->items, item);
	return 0;
}

static void sink_free(void *payload)
{
	struct array *a = payload;
	json_decref(a->items);
	free(a);
}

int assay_sink_array_new(assay_sink *out, bool full)
{
	struct array *a = assay_xcalloc(1, sizeof(*a));
	a->items = json_array();
	a->full = full;
	*out = (assay_sink){ a, NULL, on_case, NULL, sink_free };
	return 0;
}

json_t *assay_sink_array_result(const assay_sink *sink)
{
	return ((const struct array *)sink->payload)->items;
}
