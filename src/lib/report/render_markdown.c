/*
 * A Markdown summary for CI job pages (render.h): GitHub's $GITHUB_STEP_SUMMARY, GitLab and
 * others render it. The verdict and totals, a table per checkpoint and group type (passed,
 * total, pass rate: SlopCodeBench's aggregates), a table per group, the pass policies, then the
 * first failing cases, each in a <details> block with its attributes' expected, actual and diff
 * side by side in code blocks.
 *
 * Key decisions:
 * - Counts are made from the lines the report shows (so a report of a run that never ended
 *   adds up); the summary adds the run's duration and whether it was interrupted.
 * - The failing cases are kept in memory until the end, since the totals come first: at most
 *   markdown_max_bytes (GitHub's 1 MiB limit for a step summary), and whole cases only.
 * - Text from a program is never taken as Markdown or HTML: names are escaped, values sit in
 *   code fences longer than any run of backticks they hold, control characters show as \xNN.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "assay/stats.h"
#include "util/banned.h"

struct md {
	struct assay_report__counts counts;
	assay_buf failures;      /* the listing */
	size_t *ends;            /* where each listed case ends in it */
	size_t nlisted, nfailing;
	bool full;               /* the listing reached its cap */
	char *suite;
	assay_buf text;
	assay_arena *a;
};

/* Text in a table cell or HTML element: escaped, on one line, '|' escaped. */
static void cell(assay_buf *out, const char *s)
{
	assay_buf tmp = ASSAY_BUF_INIT;

	assay_report__xml(&tmp, s, strlen(s), true);
	for (size_t i = 0; i < tmp.len; i++) {
		if (tmp.ptr[i] == '|')
			assay_buf_addch(out, '\\');
		assay_buf_addch(out, tmp.ptr[i]);
	}
	assay_buf_release(&tmp);
}

/* A fenced code block holding `len` bytes as they are (control characters shown). */
static void fence(struct md *m, assay_buf *out, const char *s, size_t len)
{
	size_t n, run = 0, longest = 0;
	const char *clean = assay_report__utf8_clean(m->a, s, len, &n);

	for (size_t i = 0; i < n; i++) {
		run = clean[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i < (longest < 3 ? 3 : longest + 1); i++)
		assay_buf_addch(out, '`');
	assay_buf_addch(out, '\n');
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)clean[i];

		if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f)
			assay_buf_addf(out, "\\x%02x", ch);
		else
			assay_buf_addch(out, (char)ch);
	}
	if (!n || clean[n - 1] != '\n')
		assay_buf_addch(out, '\n');
	for (size_t i = 0; i < (longest < 3 ? 3 : longest + 1); i++)
		assay_buf_addch(out, '`');
	assay_buf_addch(out, '\n');
}

static void value(struct assay_renderer *r, assay_buf *out, const char *label,
		  const assay_value *v)
{
	struct md *m = r->state;
	size_t whole;

	assay_buf_reset(&m->text);
	whole = assay_report__text(&m->text, v, r->o.text_cap, true);
	assay_buf_addf(out, "%s", label);
	if (whole)
		assay_buf_addf(out, " (cut: %zu bytes in all)", whole);
	assay_buf_adds(out, ":\n\n");
	fence(m, out, m->text.ptr ? m->text.ptr : "", m->text.len);
	assay_buf_addch(out, '\n');
}

static void list_case(struct assay_renderer *r, const struct assay_report__case *c)
{
	struct md *m = r->state;
	assay_buf *out = &m->failures, reason = ASSAY_BUF_INIT, words = ASSAY_BUF_INIT,
		  tail = ASSAY_BUF_INIT;
	size_t start = out->len;

	assay_report__first_line(&reason, c);
	assay_report__explain(&words, &tail, c);
	assay_buf_adds(out, "<details><summary><code>");
	cell(out, c->checkpoint);
	assay_buf_addch(out, '/');
	cell(out, c->group);
	assay_buf_addch(out, '/');
	cell(out, c->id);
	const char *label = c->outcome == ASSAY_OUTCOME_ERROR ? "error" : "fail";
	size_t n = strlen(label);

	/* an error's words begin with "error: " already (explain.c): not said twice */
	if (reason.ptr && !strncmp(reason.ptr, label, n) && reason.ptr[n] == ':')
		assay_buf_adds(out, "</code> ");
	else
		assay_buf_addf(out, "</code> %s: ", label);
	cell(out, reason.ptr);
	assay_buf_adds(out, "</summary>\n\n");
	/* the terminal's words (explain.c), the reproduce line, stderr; then the raw values */
	fence(m, out, words.ptr, words.len);
	assay_buf_addch(out, '\n');
	assay_buf_reset(&words);
	assay_report__repro(&words, r->run_arena ? &r->run : NULL, c);
	if (words.len) {
		assay_buf_adds(out, "reproduce:\n\n");
		fence(m, out, words.ptr, words.len);
		assay_buf_addch(out, '\n');
	}
	if (tail.len) {
		fence(m, out, tail.ptr, tail.len);
		assay_buf_addch(out, '\n');
	}
	for (uint32_t i = 0; c->results && i < c->results->len; i++) {
		const assay_member *at = &c->results->u.members[i];
		const assay_value *ok = assay_object_get(&at->value, "is_correct");

		if (!ok || ok->kind != ASSAY_V_BOOL || ok->u.b)
			continue;
		assay_buf_adds(out, "**");
		cell(out, at->key.u.s);
		assay_buf_adds(out, "**\n\n");
		/* the diff first: a long expected value would hide it */
		value(r, out, "diff", assay_object_get(&at->value, "diff"));
		value(r, out, "expected", assay_object_get(&at->value, "expected"));
		value(r, out, "actual", assay_object_get(&at->value, "actual"));
	}
	assay_buf_adds(out, "</details>\n\n");
	assay_buf_release(&reason), assay_buf_release(&words), assay_buf_release(&tail);
	/* whole cases only, within the cap (the tables need a little room too) */
	if (out->len > r->o.markdown_max_bytes / 4 * 3) {
		assay_buf_setlen(out, start);
		m->full = true;
		return;
	}
	m->ends = assay_xrealloc(m->ends, (m->nlisted + 1) * sizeof(*m->ends));
	m->ends[m->nlisted++] = out->len;
}

static int md_case(struct assay_renderer *r, const struct assay_report__case *c, assay_err *err)
{
	struct md *m = r->state;

	(void)err;
	assay_arena_free(m->a);
	m->a = assay_arena_new(0);
	assay_report__count_case(&m->counts, c);
	if (c->outcome == ASSAY_OUTCOME_PASS)
		return 0;
	m->nfailing++;
	if (!m->full && m->nlisted < r->o.max_failures)
		list_case(r, c);
	return 0;
}

static void rate(assay_buf *b, size_t passed, size_t total)
{
	if (total)
		assay_buf_addf(b, "%.1f%%",
			       assay_round_tenth(100.0 * (double)passed / (double)total));
	else
		assay_buf_adds(b, "–");
}

static void row(assay_buf *b, const struct assay_report__count *n)
{
	assay_buf_addf(b, " %zu | %zu | %zu | %zu | ", n->passed, n->failed, n->errors, n->total);
	rate(b, n->passed, n->total);
	assay_buf_addf(b, " | %.3f |\n", n->total ? n->score_sum / (double)n->total : 0.0);
}

static int md_begin(struct assay_renderer *r, const assay_value *run, size_t total,
		    assay_err *err)
{
	struct md *m = r->state;

	(void)total, (void)err;
	m->suite = assay_xstrdup(assay_report__suite(run));
	m->failures = m->text = (assay_buf)ASSAY_BUF_INIT;
	return 0;
}

static int md_end(struct assay_renderer *r, const assay_value *summary, assay_err *err)
{
	struct md *m = r->state;
	struct assay_report__counts *t = &m->counts;
	const assay_value *interrupted = assay_object_get(summary, "interrupted");
	const assay_value *duration = assay_object_get(summary, "duration");
	assay_buf b = ASSAY_BUF_INIT;
	size_t listed = m->nlisted;

	(void)err;
	assay_buf_adds(&b, "## assay: ");
	cell(&b, m->suite);
	if (!t->all.total)
		assay_buf_adds(&b, " — no case ran\n\n");
	else if (t->all.passed == t->all.total)
		assay_buf_addf(&b, t->all.total == 1 ? " — the one case passed\n\n"
						      : " — all %zu cases passed\n\n", t->all.total);
	else
		assay_buf_addf(&b, " — %zu of %zu case%s did not pass\n\n",
			       t->all.total - t->all.passed, t->all.total,
			       t->all.total == 1 ? "" : "s");
	if (!summary)
		assay_buf_adds(&b, "> **The run did not end** (killed?): these are its finished "
				   "cases.\n\n");
	else if (interrupted && interrupted->kind == ASSAY_V_BOOL && interrupted->u.b)
		assay_buf_adds(&b, "> **The run was interrupted**: not every case ran.\n\n");
	if (assay_report__unrun(summary))
		assay_buf_addf(&b, "> **%lld case file%s never ran**: no group or checkpoint of the suite "
				   "names %s folder (see the run's warnings; summary.json's "
				   "`unrun_case_files`).\n\n",
			       (long long)assay_report__unrun(summary),
			       assay_report__unrun(summary) == 1 ? "" : "s",
			       assay_report__unrun(summary) == 1 ? "its" : "their");
	assay_buf_adds(&b, "| | passed | failed | errors | total | pass rate | mean score |\n"
			   "|---|---:|---:|---:|---:|---:|---:|\n| **all** |");
	row(&b, &t->all);
	if (assay_value_is_number(duration))
		assay_buf_addf(&b, "\nThe run took %.1f s.\n", assay_value_number(duration));
	assay_buf_adds(&b, "\n### By checkpoint and group type\n\n"
			   "| checkpoint | type | passed | failed | errors | total | pass rate | "
			   "mean score |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < t->ncps; i++) {
		for (int k = 0; k < 4; k++) {
			if (!t->cps[i].types[k].total)
				continue;
			assay_buf_adds(&b, "| ");
			cell(&b, t->cps[i].name);
			assay_buf_addf(&b, " | %s |", assay_group_type_name((assay_group_type)k));
			row(&b, &t->cps[i].types[k]);
		}
	}
	assay_buf_adds(&b, "\n### By group\n\n| checkpoint | group | type | passed | failed | "
			   "errors | total | pass rate | mean score |\n"
			   "|---|---|---|---:|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < t->ncps; i++) {
		for (size_t j = 0; j < t->cps[i].ngroups; j++) {
			assay_buf_adds(&b, "| ");
			cell(&b, t->cps[i].name);
			assay_buf_adds(&b, " | ");
			cell(&b, t->cps[i].groups[j].name);
			assay_buf_adds(&b, " | ");
			cell(&b, t->cps[i].groups[j].type);
			assay_buf_adds(&b, " |");
			row(&b, &t->cps[i].groups[j].n);
		}
	}
	assay_buf_adds(&b, "\n**Pass policies** (every checkpoint):");
	for (int p = 0; p < ASSAY_POLICY_COUNT; p++)
		assay_buf_addf(&b, " %s `%s`", assay_report__counts_pass(t, (assay_pass_policy)p)
						       ? "✅" : "❌",
			       assay_pass_policy_name((assay_pass_policy)p));
	assay_buf_adds(&b, "\n\n");
	/* whole cases only, as many as fit beside the tables */
	while (listed && b.len + m->ends[listed - 1] + 256 > r->o.markdown_max_bytes)
		listed--;
	if (m->nfailing) {
		assay_buf_addf(&b, "### Cases that did not pass (%zu", m->nfailing);
		if (listed < m->nfailing)
			assay_buf_addf(&b, "; the first %zu shown", listed);
		assay_buf_adds(&b, ")\n\n");
		assay_buf_add(&b, m->failures.ptr ? m->failures.ptr : "",
			      listed ? m->ends[listed - 1] : 0);
		if (listed < m->nfailing) {
			assay_buf_adds(&b, "`assay show");
			if (r->o.results) {
				assay_buf_addch(&b, ' ');
				cell(&b, r->o.results);
			}
			assay_buf_adds(&b, " CASE` prints any case whole.\n");
		}
	}
	assay_report__out_add(&r->out, b.ptr, b.len);
	assay_buf_release(&b);
	return 0;
}

static void md_release(struct assay_renderer *r)
{
	struct md *m = r->state;

	assay_report__counts_release(&m->counts);
	assay_buf_release(&m->failures);
	assay_buf_release(&m->text);
	assay_arena_free(m->a);
	free(m->ends);
	free(m->suite);
}

const struct assay_report__format assay_report__markdown = {
	"markdown", "summary.md", false, sizeof(struct md), md_begin, md_case, md_end, md_release,
	"md",
};
