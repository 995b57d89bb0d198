/*
 * SlopCodeBench's reports.parquet (render.h; docs/internals/parquet.md): one row per case with
 * the columns CorrectnessResults.save() writes, {problem, checkpoint, version, problem_version,
 * **VerifierReport.to_parquet_row()}: id, group, type, timestamp, duration, results (a list of
 * {attribute, actual, expected, diff, is_correct, weight}), case (a list of {attribute,
 * value}), original_checkpoint, original_group. Every column is OPTIONAL, as pyarrow infers
 * them, so SlopCodeBench's from_dir() and from_parquet_row() read the file back.
 *
 * Key decisions:
 * - Values are whole (markers put back from the store): from_parquet_row() json.loads them, so a
 *   cut one would be read as a different value.
 * - actual, expected, diff and each case value go through ensure_json_string()'s rule: a string
 *   is kept as it is, anything else (null included: "null") is its JSON text.
 * - problem is the suite's name; version and problem_version are null (a suite has no version).
 *   The timestamp stays the report line's string (UTC, ISO 8601 with "Z"), as SlopCodeBench
 *   keeps a string there.
 * - Row groups of 10,000 rows, so memory holds one row group whatever the number of cases.
 * - Only these columns: from_dir() hands every other column to VerifierReport, which forbids
 *   unknown fields; assay's own (score, passed, execution) are in reports.jsonl and the store.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/parquet.h"
#include "report/report_int.h"
#include "util/banned.h"

enum { C_PROBLEM, C_CHECKPOINT, C_VERSION, C_PROBLEM_VERSION, C_ID, C_GROUP, C_TYPE,
       C_TIMESTAMP, C_DURATION, C_RESULTS, C_CASE, C_ORIG_CP, C_ORIG_GROUP, NCOLS };

static const assay_pq_column result_fields[] = {
	{ "attribute", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "actual", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "expected", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "diff", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "is_correct", ASSAY_PQ_BOOL, true, NULL, 0 },
	{ "weight", ASSAY_PQ_DOUBLE, true, NULL, 0 },
};

static const assay_pq_column case_fields[] = {
	{ "attribute", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "value", ASSAY_PQ_STRING, true, NULL, 0 },
};

static const assay_pq_column columns[NCOLS] = {
	{ "problem", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "checkpoint", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "version", ASSAY_PQ_INT64, true, NULL, 0 },
	{ "problem_version", ASSAY_PQ_INT64, true, NULL, 0 },
	{ "id", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "group", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "type", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "timestamp", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "duration", ASSAY_PQ_DOUBLE, true, NULL, 0 },
	{ "results", ASSAY_PQ_LIST, true, result_fields, 6 },
	{ "case", ASSAY_PQ_LIST, true, case_fields, 2 },
	{ "original_checkpoint", ASSAY_PQ_STRING, true, NULL, 0 },
	{ "original_group", ASSAY_PQ_STRING, true, NULL, 0 },
};

struct pq {
	assay_pq_writer *w;
	char *problem;
};

/* ensure_json_string(): a string as it is, anything else as its JSON text (in `a`). */
static assay_pq_value json_string(assay_arena *a, const assay_value *v)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_value s;

	if (v && v->kind == ASSAY_V_STRING)
		return assay_pq_strn(v->u.s, v->len);
	if (v)
		assay_json_write(&b, v, 0);
	else
		assay_buf_adds(&b, "null");
	s = assay_value_string(a, b.ptr, b.len);
	assay_buf_release(&b);
	return assay_pq_strn(s.u.s, s.len);
}

static assay_pq_value str_member(const assay_value *line, const char *key)
{
	const assay_value *v = assay_object_get(line, key);

	return v && v->kind == ASSAY_V_STRING ? assay_pq_strn(v->u.s, v->len) : assay_pq_null();
}

static int pq_case(struct assay_renderer *r, const struct assay_report__case *c, assay_err *err)
{
	struct pq *p = r->state;
	assay_arena *a = assay_arena_new(0);
	const assay_value *results = c->results, *kase = assay_object_get(c->line, "case");
	const assay_value *duration = assay_object_get(c->line, "duration");
	size_t nres = results ? results->len : 0;
	size_t ncase = kase && kase->kind == ASSAY_V_OBJECT ? kase->len : 0;
	assay_pq_value *res = assay_arena_alloc(a, (nres * 6 + 1) * sizeof(*res));
	assay_pq_value *cs = assay_arena_alloc(a, (ncase * 2 + 1) * sizeof(*cs));
	assay_pq_value row[NCOLS];
	int rc;

	for (size_t i = 0; i < nres; i++) {
		const assay_member *m = &results->u.members[i];
		const assay_value *ok = assay_object_get(&m->value, "is_correct");
		const assay_value *w = assay_object_get(&m->value, "weight");
		assay_pq_value *f = &res[i * 6];

		f[0] = assay_pq_strn(m->key.u.s, m->key.len);
		f[1] = json_string(a, assay_object_get(&m->value, "actual"));
		f[2] = json_string(a, assay_object_get(&m->value, "expected"));
		f[3] = json_string(a, assay_object_get(&m->value, "diff"));
		f[4] = ok && ok->kind == ASSAY_V_BOOL ? assay_pq_bool(ok->u.b) : assay_pq_null();
		f[5] = assay_value_is_number(w) ? assay_pq_f64(assay_value_number(w))
						: assay_pq_null();
	}
	for (size_t i = 0; i < ncase; i++) {
		const assay_member *m = &kase->u.members[i];

		cs[i * 2] = assay_pq_strn(m->key.u.s, m->key.len);
		cs[i * 2 + 1] = json_string(a, &m->value);
	}
	row[C_PROBLEM] = assay_pq_str(p->problem);
	row[C_CHECKPOINT] = assay_pq_str(c->checkpoint);
	row[C_VERSION] = assay_pq_null();
	row[C_PROBLEM_VERSION] = assay_pq_null();
	row[C_ID] = str_member(c->line, "id");
	row[C_GROUP] = str_member(c->line, "group");
	row[C_TYPE] = str_member(c->line, "type");
	row[C_TIMESTAMP] = str_member(c->line, "timestamp");
	row[C_DURATION] = assay_value_is_number(duration)
				  ? assay_pq_f64(assay_value_number(duration))
				  : assay_pq_null();
	row[C_RESULTS] = results ? assay_pq_list(res, nres) : assay_pq_null();
	row[C_CASE] = kase && kase->kind == ASSAY_V_OBJECT ? assay_pq_list(cs, ncase)
							   : assay_pq_null();
	row[C_ORIG_CP] = str_member(c->line, "original_checkpoint");
	row[C_ORIG_GROUP] = str_member(c->line, "original_group");
	rc = assay_pq_writer_append(p->w, row, err);
	assay_arena_free(a);
	return rc;
}

static int pq_begin(struct assay_renderer *r, const assay_value *run, size_t total,
		    assay_err *err)
{
	struct pq *p = r->state;

	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;

	(void)total;
	/* row groups of 10,000 cases: memory holds one, whatever the number of cases */
	o.row_group_rows = 10000;
	p->problem = assay_xstrdup(assay_report__suite(run));
	return assay_pq_writer_open_fd(&p->w, r->out.fd, r->path, columns, NCOLS, &o, err);
}

static int pq_end(struct assay_renderer *r, const assay_value *summary, assay_err *err)
{
	struct pq *p = r->state;

	(void)summary;
	return assay_pq_writer_finish(p->w, err);
}

static void pq_release(struct assay_renderer *r)
{
	struct pq *p = r->state;

	assay_pq_writer_free(p->w);
	free(p->problem);
}

const struct assay_report__format assay_report__parquet = {
	"parquet", "reports.parquet", true, sizeof(struct pq), pq_begin, pq_case, pq_end,
	pq_release,
};
