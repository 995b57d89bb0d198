/*
 * A failed case explained for the reports (HTML, JUnit, TAP, Markdown) in the terminal's words
 * (issue #21): the lines of assay_term__reasons() without colour or the listing's indent, the
 * last lines of stderr, and a line that runs the case again.
 *
 * Key decisions:
 * - One wording: the reports call the terminal's function rather than say it again; the raw
 *   diffs stay in reports.jsonl (and one click away in the HTML page).
 * - The reproduce line of a report is `assay run-case SUITE --case CP/GROUP/ID` with the run's
 *   --entry or --submission (from the run's description; suite_path and submission are recorded
 *   absolute, --entry as typed: its relative program is the working folder's): a report has no
 *   suite at hand, and
 *   run-case gives the case its clean environment as the run did. Without a description (a
 *   bare reports.jsonl) SUITE is the word SUITE.
 */
#include <string.h>

#include "report/report_int.h"
#include "report/term_int.h"
#include "util/banned.h"

#define DIFF_LINES 24
#define STDERR_LINES 10

static const struct term_style plain = { "", "", "", "", "", "" };

/* `in` without 4 leading spaces on each line (the listing's indent), appended to `out`. */
static void dedent(assay_buf *out, const char *s, size_t len)
{
	const char *end = s + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
		size_t skip = 0;

		while (skip < 4 && skip < n && s[skip] == ' ')
			skip++;
		assay_buf_add(out, s + skip, n - skip);
		s += n;
	}
}

void assay_report__explain(assay_buf *out, assay_buf *tail, const struct assay_report__case *c)
{
	assay_buf b = ASSAY_BUF_INIT;
	bool stderr_shown = false;
	struct assay_term__reasons_in in = { .json = c->line, .error = c->error, .cwd = NULL,
					     .st = &plain, .max_lines = DIFF_LINES };

	assay_term__reasons(&b, &in, &stderr_shown);
	if (!b.len)
		assay_report__reason(&b, c);
	dedent(out, b.ptr, b.len);
	while (out->len && out->ptr[out->len - 1] == '\n')
		assay_buf_setlen(out, out->len - 1);
	assay_buf_reset(&b);
	if (tail) {
		const assay_value *err = assay_object_get(
			assay_object_get(c->results, "stderr"), "actual");
		const assay_value *log = assay_object_get(c->execution, "log");

		if (!stderr_shown && err && err->kind == ASSAY_V_STRING)
			assay_term__tail(&b, "stderr", err->u.s, err->len, STDERR_LINES, &plain);
		if (log && log->kind == ASSAY_V_STRING)
			assay_term__tail(&b, "server output (execution.log)", log->u.s, log->len,
					 STDERR_LINES, &plain);
		dedent(tail, b.ptr, b.len);
		while (tail->len && tail->ptr[tail->len - 1] == '\n')
			assay_buf_setlen(tail, tail->len - 1);
	}
	assay_buf_release(&b);
}

void assay_report__first_line(assay_buf *out, const struct assay_report__case *c)
{
	assay_buf b = ASSAY_BUF_INIT;
	const char *nl;

	assay_report__explain(&b, NULL, c);
	nl = memchr(b.ptr, '\n', b.len);
	/* "output: 3 differences" says more with its first difference */
	if (nl && nl > b.ptr && nl[-1] != ':' && strstr(b.ptr, "difference")) {
		const char *second = memchr(nl + 1, '\n', b.len - (size_t)(nl + 1 - b.ptr));
		const char *end = second ? second : b.ptr + b.len, *first = nl + 1;

		while (first < end && *first == ' ')
			first++;
		/* "output: 3 differences, the first: root[0]: missing item "x"" */
		assay_buf_add(out, b.ptr, (size_t)(nl - b.ptr));
		assay_buf_adds(out, ", the first: ");
		assay_buf_add(out, first, (size_t)(end - first));
	} else {
		static const char head[] = ASSAY_TERM__DIFF_HEAD;
		size_t n = nl ? (size_t)(nl - b.ptr) : b.len, h = sizeof(head) - 1;

		/* the heading of a diff below it: alone, "stderr differs" */
		if (n > h && !memcmp(b.ptr + n - h, head, h)) {
			assay_buf_add(out, b.ptr, n - h);
			assay_buf_adds(out, " differs");
		} else {
			assay_buf_add(out, b.ptr, n);
		}
	}
	assay_buf_release(&b);
}

void assay_report__repro(assay_buf *out, const assay_value *run, const struct assay_report__case *c)
{
	const assay_value *suite = assay_object_get(run, "suite_path");
	const assay_value *entry = assay_object_get(run, "entry");
	const assay_value *sub = assay_object_get(run, "submission");
	assay_buf name = ASSAY_BUF_INIT;

	if (assay_term__never_ran(c->line, c->error))
		return; /* not run (could not be loaded or set up): nothing to run again */
	assay_buf_adds(out, "assay run-case ");
	if (suite && suite->kind == ASSAY_V_STRING)
		assay_term__shell_word(out, suite->u.s, suite->len);
	else
		assay_buf_adds(out, "SUITE");
	const assay_value *kind = assay_object_get(assay_object_get(c->line, "case"), "type");

	if (kind && kind->kind == ASSAY_V_STRING && !strcmp(kind->u.s, "api")) {
		/* its group's cases build on one server's state: the case alone, on a fresh
		 * server, would not meet the state it failed in (docs/reports.md) */
		assay_buf_addf(&name, "%s/%s", c->checkpoint, c->group);
		assay_buf_adds(out, " --group ");
	} else {
		assay_buf_addf(&name, "%s/%s/%s", c->checkpoint, c->group, c->id);
		assay_buf_adds(out, " --case ");
	}
	assay_term__shell_word(out, name.ptr, name.len);
	if (entry && entry->kind == ASSAY_V_STRING) {
		assay_buf_adds(out, " --entry ");
		assay_term__shell_word(out, entry->u.s, entry->len);
	}
	if (sub && sub->kind == ASSAY_V_STRING) {
		assay_buf_adds(out, " --submission ");
		assay_term__shell_word(out, sub->u.s, sub->len);
	}
	assay_buf_release(&name);
}

void assay_report__why(assay_buf *out, const assay_value *line)
{
	struct assay_report__case c;

	assay_report__case_read(&c, line);
	if (!c.passed)
		assay_report__first_line(out, &c);
}
