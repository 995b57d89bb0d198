/*
 * Report lines read back from a reports.parquet file (verification.md: from_parquet_row; issue
 * 17 item 2): each row of the columns render_parquet.c writes becomes the report line it was
 * made from, so `assay report FILE.parquet` and `assay show FILE.parquet` read it as they read
 * reports.jsonl.
 *
 * Key decisions:
 * - actual, expected, diff and each case value were written by ensure_json_string()'s rule (a
 *   string as it is, anything else its JSON text); they are read back as from_parquet_row does:
 *   JSON text becomes its value, any other text stays a string. So a string that was itself
 *   JSON text ("42", "null") comes back as that value: the format cannot tell them apart.
 * - `results` becomes the mapping attribute -> AttributeResult again, `case` the mapping it was.
 * - score and passed are not columns (VerifierReport forbids them): they are remade from the
 *   results with calculate_score and did_pass (assay_score_line). An error a case had is not
 *   kept by the format either.
 * - The checkpoint is the `checkpoint` column, else the case's `checkpoint` (a file holding the
 *   contract's columns only).
 */
#include <stdio.h>
#include <string.h>

#include "assay/json.h"
#include "assay/parquet.h"
#include "assay/report.h"
#include "report/report_int.h"
#include "util/banned.h"

struct pq_in {
	int (*fn)(void *payload, const assay_value *line, assay_err *err);
	void *payload;
	const char *path;
	uint64_t row;
};

/* ensure_json_string() undone: JSON text as its value, other text as it is. */
static assay_value unjson(assay_arena *a, const assay_value *v)
{
	assay_value out;

	if (!v || v->kind != ASSAY_V_STRING)
		return v ? *v : assay_value_null();
	if (assay_json_parse(&out, a, v->u.s, v->len, NULL, NULL))
		return *v;
	return out;
}

static void copy(assay_arena *a, assay_value *line, const assay_value *row, const char *name)
{
	const assay_value *v = assay_object_get(row, name);

	assay_object_set(a, line, name, v ? *v : assay_value_null());
}

static int on_row(void *payload, const assay_value *row, assay_err *err)
{
	struct pq_in *in = payload;
	assay_arena *a = assay_arena_new(0);
	assay_value line = assay_value_object(), results = assay_value_object();
	assay_value kase = assay_value_object();
	const assay_value *res = assay_object_get(row, "results");
	const assay_value *cs = assay_object_get(row, "case");
	double score = 0;
	bool passed = false;
	assay_err se = ASSAY_ERR_INIT;
	int rc;

	in->row++;
	for (uint32_t i = 0; res && res->kind == ASSAY_V_ARRAY && i < res->len; i++) {
		const assay_value *item = &res->u.items[i];
		const assay_value *name = assay_object_get(item, "attribute");
		assay_value r = assay_value_object();

		if (!name || name->kind != ASSAY_V_STRING)
			continue;
		copy(a, &r, item, "attribute");
		assay_object_set(a, &r, "actual", unjson(a, assay_object_get(item, "actual")));
		assay_object_set(a, &r, "expected", unjson(a, assay_object_get(item, "expected")));
		assay_object_set(a, &r, "diff", unjson(a, assay_object_get(item, "diff")));
		copy(a, &r, item, "is_correct");
		copy(a, &r, item, "weight");
		assay_object_set(a, &results, name->u.s, r);
	}
	for (uint32_t i = 0; cs && cs->kind == ASSAY_V_ARRAY && i < cs->len; i++) {
		const assay_value *name = assay_object_get(&cs->u.items[i], "attribute");

		if (name && name->kind == ASSAY_V_STRING)
			assay_object_set(a, &kase, name->u.s,
					 unjson(a, assay_object_get(&cs->u.items[i], "value")));
	}
	copy(a, &line, row, "id");
	copy(a, &line, row, "group");
	copy(a, &line, row, "type");
	copy(a, &line, row, "timestamp");
	copy(a, &line, row, "duration");
	assay_object_set(a, &line, "results", results);
	assay_object_set(a, &line, "case", kase);
	copy(a, &line, row, "original_checkpoint");
	copy(a, &line, row, "original_group");
	{
		/* assay's checkpoint column goes into `case`, where a report line keeps it
		 * (report.h); a file without it (the contract's columns only) has it there */
		const assay_value *cp = assay_object_get(row, "checkpoint");

		if (cp && cp->kind == ASSAY_V_STRING)
			assay_report_set(a, &line, "checkpoint", *cp);
	}
	for (size_t k = 0; k < 3; k++) {
		static const char *const keys[] = { "checkpoint", "group", "id" };
		const assay_value *v = k ? assay_object_get(&line, keys[k])
					 : assay_report_get(&line, keys[k]);

		if (!v || v->kind != ASSAY_V_STRING || !v->len) {
			rc = assay_err_set(err, ASSAY_EPARSE, in->path, 0, 0,
					   "row %llu: not a report row: no %s",
					   (unsigned long long)in->row, keys[k]);
			goto out;
		}
	}
	if ((rc = assay_score_line(&line, &score, &passed, &se))) {
		rc = assay_err_set(err, ASSAY_EPARSE, in->path, 0, 0, "row %llu: %s",
				   (unsigned long long)in->row, se.msg);
		goto out;
	}
	assay_report_set(a, &line, "score", assay_value_real(score));
	assay_report_set(a, &line, "passed", assay_value_bool(passed));
	rc = in->fn ? in->fn(in->payload, &line, err) : 0;
out:
	assay_arena_free(a);
	return rc;
}

bool assay_report__is_parquet(const char *path)
{
	FILE *f = fopen(path, "re");
	char magic[4];
	bool yes;

	if (!f)
		return false;
	yes = fread(magic, 1, 4, f) == 4 && !memcmp(magic, "PAR1", 4);
	fclose(f);
	return yes;
}

int assay_report__parquet_lines(const char *path,
				int (*fn)(void *payload, const assay_value *line, assay_err *err),
				void *payload, uint64_t *nrows, assay_err *err)
{
	struct pq_in in = { fn, payload, path, 0 };

	return assay_pq_read(path, on_row, &in, nrows, err);
}
