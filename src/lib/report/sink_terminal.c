/*
 * The human report: a progress line while the run goes (rewritten in place on a terminal), a
 * table of checkpoints by group type at the end, and the first failing cases with the diffs of
 * their failed attributes, cut to a screenful each.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/report.h"
#include "util/banned.h"

#define DIFF_LINES 24

struct term {
	assay_term_opts o;
	assay_buf failures;   /* the failure listing, built as cases finish */
	size_t nfailures;
	size_t total;
};

static const char *paint(const struct term *t, const char *code)
{
	return t->o.color ? code : "";
}

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct term *t = payload;
	(void)err;
	t->total = total;
	if (t->o.summary)
		fprintf(t->o.summary, "assay: running %s (%zu case%s)\n", suite->name, total,
			total == 1 ? "" : "s");
	return 0;
}

/*
 * Appends `n` bytes of a submission's text with control characters shown as \xNN, so that
 * output under test cannot drive the user's terminal (clear it, set the clipboard, ...).
 * Tabs and UTF-8 stay as they are; C1 controls (U+0080..U+009F) are escaped too.
 */
static void add_visible(assay_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			assay_buf_addf(out, "\\x%02x", c);
		} else if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
			   (unsigned char)s[i + 1] <= 0x9f) {
			assay_buf_addf(out, "\\u%04x", (unsigned char)s[++i]);
		} else {
			assay_buf_addch(out, (char)c);
		}
	}
}

static void add_diff(struct term *t, const char *attr, const assay_value *diff)
{
	assay_buf text = ASSAY_BUF_INIT;
	const char *s;
	size_t lines = 0;

	if (diff->kind == ASSAY_V_STRING)
		assay_buf_add(&text, diff->u.s, diff->len);
	else
		assay_json_write(&text, diff, ASSAY_JSON_PRETTY);
	assay_buf_addf(&t->failures, "    %s%s%s:\n", paint(t, "\033[1m"), attr,
		       paint(t, "\033[0m"));
	for (s = text.ptr; *s && lines < DIFF_LINES; lines++) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		const char *color = "";
		if (*s == '-' && strncmp(s, "---", 3))
			color = paint(t, "\033[31m");
		else if (*s == '+' && strncmp(s, "+++", 3))
			color = paint(t, "\033[32m");
		assay_buf_addf(&t->failures, "      %s", color);
		add_visible(&t->failures, s, n);
		assay_buf_addf(&t->failures, "%s\n", *color ? paint(t, "\033[0m") : "");
		s += n + (nl != NULL);
	}
	if (*s)
		assay_buf_adds(&t->failures, "      ...\n");
	assay_buf_release(&text);
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct term *t = payload;
	size_t limit = t->o.max_failures;

	(void)err;
	if (t->o.verbose && t->o.summary)
		fprintf(t->o.summary, "%s %s/%s/%s (%.3fs)\n", r->passed ? "PASS" : "FAIL",
			r->checkpoint->name, r->group->name, r->id,
			assay_value_number(assay_object_get(r->json, "duration")));
	if (r->passed)
		return 0;
	if (t->nfailures++ >= limit)
		return 0;
	assay_buf_addf(&t->failures, "  %sFAIL%s %s/%s/%s  score %.2f\n", paint(t, "\033[31m"),
		       paint(t, "\033[0m"), r->checkpoint->name, r->group->name, r->id,
		       r->score);
	if (r->error) {
		assay_buf_adds(&t->failures, "    error: ");
		add_visible(&t->failures, r->error, strlen(r->error));
		assay_buf_addch(&t->failures, '\n');
	}
	if (r->result && r->result->error) {
		assay_buf_adds(&t->failures, "    note: ");
		add_visible(&t->failures, r->result->error, strlen(r->result->error));
		assay_buf_addch(&t->failures, '\n');
	}
	if (!r->result)
		return 0; /* not loaded or not run: every attribute carries the error again */
	const assay_value *results = assay_object_get(r->json, "results");
	for (uint32_t i = 0; results && i < results->len; i++) {
		const assay_value *v = &results->u.members[i].value;
		const assay_value *ok = assay_object_get(v, "is_correct");
		const assay_value *diff = assay_object_get(v, "diff");

		if (ok && ok->kind == ASSAY_V_BOOL && !ok->u.b && diff)
			add_diff(t, results->u.members[i].key.u.s, diff);
	}
	return 0;
}

/* The progress line names the case now running, with the failures so far. */
static void on_start(void *payload, const assay_checkpoint *cp, const assay_group *g,
		     const char *id, size_t index, size_t total)
{
	struct term *t = payload;

	if (!t->o.progress || !t->o.tty)
		return;
	fprintf(t->o.progress, "\r\033[K[%zu/%zu]", index, total);
	if (t->nfailures)
		fprintf(t->o.progress, " %s%zu failed%s", paint(t, "\033[31m"), t->nfailures,
			paint(t, "\033[0m"));
	fprintf(t->o.progress, " %s/%s/%s", cp->name, g->name, id);
	fflush(t->o.progress);
}

static void row(struct term *t, const char *cp, const char *type, const assay_value *tally)
{
	size_t passed = (size_t)assay_value_number(assay_object_get(tally, "passed"));
	size_t total = (size_t)assay_value_number(assay_object_get(tally, "total"));
	double rate = assay_value_number(assay_object_get(tally, "pass_rate"));
	const char *color = passed == total ? paint(t, "\033[32m") : paint(t, "\033[31m");

	fprintf(t->o.summary, "%-24s %-14s %8zu %8zu  %s%6.1f%%%s\n", cp, type, passed, total,
		color, rate * 100, paint(t, "\033[0m"));
}

static int on_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct term *t = payload;
	FILE *f = t->o.summary;
	size_t limit = t->o.max_failures;

	(void)err;
	if (t->o.progress && t->o.tty) {
		fputs("\r\033[K", t->o.progress);
		fflush(t->o.progress);
	}
	if (!f)
		return 0;
	if (t->nfailures && limit) {
		fprintf(f, "\nFailures (%zu", t->nfailures);
		if (t->nfailures > limit)
			fprintf(f, ", first %zu shown", limit);
		fprintf(f, "):\n%s", t->failures.ptr);
	}
	fprintf(f, "\n%-24s %-14s %8s %8s  %7s\n", "checkpoint", "type", "passed", "total",
		"rate");
	const assay_value *cps = assay_object_get(sum->json, "checkpoints");
	for (uint32_t i = 0; cps && i < cps->len; i++) {
		const assay_value *types = assay_object_get(&cps->u.members[i].value, "types");

		for (uint32_t j = 0; types && j < types->len; j++)
			row(t, cps->u.members[i].key.u.s, types->u.members[j].key.u.s,
			    &types->u.members[j].value);
	}
	row(t, "total", "", assay_object_get(sum->json, "totals"));
	fprintf(f, "\n%s%zu of %zu cases passed%s in %.2f s", sum->total.passed == sum->total.total
							     ? paint(t, "\033[32m")
							     : paint(t, "\033[31m"),
		sum->total.passed, sum->total.total, paint(t, "\033[0m"), sum->wall_s);
	if (sum->total.errors)
		fprintf(f, " (%zu could not be loaded or run)", sum->total.errors);
	if (sum->interrupted)
		fprintf(f, " (interrupted: not every case ran)");
	fputc('\n', f);
	const assay_value *work = assay_object_get(sum->json, "work_dir");
	if (work)
		fprintf(f, "working folders kept in %s\n", work->u.s);
	fflush(f);
	return 0;
}

static void sink_free(void *payload)
{
	struct term *t = payload;
	assay_buf_release(&t->failures);
	free(t);
}

int assay_sink_terminal_new(assay_sink *out, const assay_term_opts *opts)
{
	struct term *t = assay_xcalloc(1, sizeof(*t));
	t->o = *opts;
	t->failures = (assay_buf)ASSAY_BUF_INIT;
	*out = (assay_sink){ t, on_begin, on_case, on_end, sink_free, on_start };
	return 0;
}
