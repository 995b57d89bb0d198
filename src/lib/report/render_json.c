/*
 * JSON and JSONL of VerifierReports (render.h): each case's report line as reports.jsonl holds
 * it (verification.md's VerifierReport fields, then checkpoint, score, passed, execution and
 * error; values past the value cap cut into {"$assay_cut": ...} markers that `assay show` puts
 * back). JSONL is one line per case, the same text reports.jsonl holds; JSON is one array of
 * them, one item per line.
 */
#include "report/report_int.h"
#include "util/banned.h"

/* The two formats defined at the end: line_case tells them apart. */
extern const struct assay_report__format assay_report__json, assay_report__jsonl;

struct json_state {
	size_t cases;
	assay_buf line;
};

static int line_case(struct assay_renderer *r, const struct assay_report__case *c, assay_err *err)
{
	struct json_state *st = r->state;

	(void)err;
	assay_buf_reset(&st->line);
	if (r->fmt == &assay_report__json)
		assay_buf_adds(&st->line, st->cases ? ",\n" : "\n");
	assay_json_write(&st->line, c->line, 0);
	if (r->fmt == &assay_report__jsonl)
		assay_buf_addch(&st->line, '\n');
	assay_report__out_add(&r->out, st->line.ptr, st->line.len);
	st->cases++;
	return 0;
}

static int json_begin(struct assay_renderer *r, const assay_value *run, size_t total,
		      assay_err *err)
{
	(void)run, (void)total, (void)err;
	assay_report__out_adds(&r->out, "[");
	return 0;
}

static int json_end(struct assay_renderer *r, const assay_value *summary, assay_err *err)
{
	struct json_state *st = r->state;

	(void)summary, (void)err;
	assay_report__out_adds(&r->out, st->cases ? "\n]\n" : "]\n");
	return 0;
}

static void json_release(struct assay_renderer *r)
{
	struct json_state *st = r->state;

	assay_buf_release(&st->line);
}

const struct assay_report__format assay_report__json = {
	"json", "reports.json", false, sizeof(struct json_state),
	json_begin, line_case, json_end, json_release,
};

const struct assay_report__format assay_report__jsonl = {
	"jsonl", "reports.jsonl", false, sizeof(struct json_state),
	NULL, line_case, NULL, json_release,
};
