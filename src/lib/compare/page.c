/*
 * `assay compare A B --format html` (compare.h: assay_compare_write_html): one self-contained page
 * of a comparison, drawn by its own script as inline SVG (issue #21): the flips first (pass ->
 * fail, fail -> pass) with why, each opening to the actual values of A and B side by side; the
 * pass rate per group in A and B as bars from zero; the statistics with their intervals; the
 * McNemar and sign tests and the verdict (none with too few pairs). No file outside the page is needed, no network.
 *
 * Key decisions:
 * - The statistics are assay_compare_runs()'s: this file only draws them. Why a case failed
 *   is the report module's wording (report_lib.h), as in every report.
 * - Side-by-side values are read back for the listed flips only (at most `max_flips` of each
 *   kind): a second pass over each run's lines (assay_report_each_line) keeps memory flat.
 * - The data is one JSON object in a <script type="application/json"> element, '<' written as
 *   \u003c; the page's script draws with textContent only, so nothing a program printed can
 *   become markup (as report/render_html.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/compare.h"
#include "assay/json.h"
#include "assay/render.h"
#include "assay/report.h"
#include "report/report_lib.h"
#include "util/banned.h"

static const char page_head[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\">\n"
	"<head>\n"
	"<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>assay compare</title>\n"
	"<style>\n"
	"body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2125; background: #fff; }\n"
	"header { padding: 16px 24px; border-bottom: 1px solid #d0d7de; }\n"
	"main { padding: 0 24px 24px; }\n"
	"h1 { font-size: 20px; margin: 0 0 8px; }\n"
	"h2 { font-size: 16px; margin: 24px 0 8px; }\n"
	"h3 { font-size: 14px; margin: 12px 0 6px; }\n"
	".verdict { font-weight: 600; font-size: 16px; }\n"
	".verdict.worse { color: #cf222e; }\n"
	".verdict.ok { color: #1a7f37; }\n"
	".verdict.none { color: #57606a; }\n"
	"table { border-collapse: collapse; margin-bottom: 12px; }\n"
	"th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }\n"
	"th { background: #f6f8fa; }\n"
	"td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
	"td.name { font-family: ui-monospace, monospace; word-break: break-all; }\n"
	"tr.expandable { cursor: pointer; }\n"
	"td.st::before { content: '\\25B8 '; color: #57606a; }\n"
	"tr.open td.st::before { content: '\\25BE '; }\n"
	"tr.open > td { background: #f6f8fa; }\n"
	".none { color: #57606a; }\n"
	".attr { margin: 6px 0 12px; }\n"
	".side { display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 8px; }\n"
	".side div { min-width: 0; }\n"
	".side h5 { margin: 4px 0; font-size: 12px; color: #57606a; }\n"
	"pre { margin: 0; padding: 6px; background: #fff; border: 1px solid #d0d7de; white-space: pre-wrap;\n"
	"      word-break: break-all; max-height: 24em; overflow: auto; font-size: 12px; }\n"
	"svg text { font: 12px system-ui, sans-serif; fill: #1d2125; }\n"
	"svg line.zero { stroke: #8c959f; stroke-width: 1; }\n"
	"svg line.ci { stroke: #0969da; stroke-width: 3; }\n"
	"svg rect.up, svg circle.up { fill: #2da44e; }\n"
	"svg rect.down, svg circle.down { fill: #cf222e; }\n"
	"svg circle.same { fill: #0969da; }\n"
	"</style>\n"
	"</head>\n"
	"<body>\n"
	"<header>\n"
	"<h1 id=\"title\">assay compare</h1>\n"
	"<div id=\"runs\"></div>\n"
	"<div id=\"verdict\" class=\"verdict\"></div>\n"
	"<noscript><p>This page needs JavaScript to show the comparison.</p></noscript>\n"
	"</header>\n"
	"<main>\n"
	"<h2>Flips</h2>\n"
	"<div id=\"flips\"></div>\n"
	"<h2>Pass rate per group, A &#8594; B</h2>\n"
	"<svg id=\"chart-groups\" role=\"img\" aria-label=\"pass rate change per group\"></svg>\n"
	"<h2>Statistics</h2>\n"
	"<table id=\"stats\"></table>\n"
	"<p id=\"mcnemar\"></p>\n"
	"<p id=\"sign\"></p>\n"
	"</main>\n"
;

static const char page_script[] =
	"(function () {\n"
	"  'use strict';\n"
	"  var d = JSON.parse(document.getElementById('assay-compare').textContent);\n"
	"  function $(id) { return document.getElementById(id); }\n"
	"  function el(tag, cls, text) {\n"
	"    var e = document.createElement(tag);\n"
	"    if (cls) e.className = cls;\n"
	"    if (text !== undefined && text !== null) e.textContent = String(text);\n"
	"    return e;\n"
	"  }\n"
	"  var NS = 'http://www.w3.org/2000/svg';\n"
	"  function svgEl(tag, attrs, text) {\n"
	"    var e = document.createElementNS(NS, tag);\n"
	"    for (var k in attrs) e.setAttribute(k, attrs[k]);\n"
	"    if (text !== undefined) e.textContent = String(text);\n"
	"    return e;\n"
	"  }\n"
	"  function r1(x) { return Math.round(x * 10) / 10; }\n"
	"  function pct(x) { return x === null ? '\\u2013' : r1(100 * x).toFixed(1) + '%'; }\n"
	"  function num(x, digits) { return x === null ? '\\u2013' : x.toFixed(digits); }\n"
	"  function p4(x) { return x === null ? '\\u2013' : String(Number(x.toPrecision(4))); }\n"
	"  function signed(x, digits) { if (x === null) return '\\u2013'; if (digits === 1) x = r1(x); return (x >= 0 ? '+' : '') + x.toFixed(digits); }\n"
	"  document.title = 'assay compare: ' + d.suite;\n"
	"  $('title').textContent = 'assay compare: ' + d.suite;\n"
	"  $('runs').textContent = 'A: ' + d.a + ' (' + d.cases_a + ' cases) \\u00b7 B: ' + d.b + ' (' + d.cases_b + ' cases) \\u00b7 ' + d.paired + ' paired' +\n"
	"    (d.only_a || d.only_b ? '; ' + d.only_a + ' only in A, ' + d.only_b + ' only in B (not in the statistics)' : '');\n"
	"  var v = $('verdict');\n"
	"  if (!d.judged) {\n"
	"    v.textContent = 'No verdict: ' + d.paired + ' paired case' + (d.paired === 1 ? '' : 's') + ', at least ' + d.min_pairs + ' needed to judge (cases in one run only are not evidence)';\n"
	"    v.className = 'verdict none';\n"
	"  } else {\n"
	"    v.textContent = (d.worse ? 'B is significantly worse than A' : 'B is not significantly worse than A') + ' (alpha ' + d.alpha + ')';\n"
	"    v.className = d.worse ? 'verdict worse' : 'verdict ok';\n"
	"  }\n"
	"\n"
	"  // ---- flips first ----\n"
	"  function flipTable(box, list, count, title, kind) {\n"
	"    box.appendChild(el('h3', null, title + ' (' + count + ')'));\n"
	"    if (!count) { box.appendChild(el('p', 'none', 'none')); return; }\n"
	"    var t = el('table', 'flips'), head = el('tr');\n"
	"    t.id = 'flips-' + kind;\n"
	"    ['case', 'score A \\u2192 B', 'why'].forEach(function (h) { head.appendChild(el('th', null, h)); });\n"
	"    t.appendChild(el('thead')).appendChild(head);\n"
	"    var body = el('tbody');\n"
	"    list.forEach(function (f) {\n"
	"      var tr = el('tr', 'expandable flip');\n"
	"      tr.setAttribute('data-case', f.name);\n"
	"      tr.title = 'click to show the actual values of A and B side by side';\n"
	"      tr.appendChild(el('td', 'name st', f.name));\n"
	"      tr.appendChild(el('td', 'n', num(f.score_a, 3) + ' \\u2192 ' + num(f.score_b, 3)));\n"
	"      tr.appendChild(el('td', null, f.why || ''));\n"
	"      tr.addEventListener('click', function () {\n"
	"        var next = tr.nextSibling;\n"
	"        if (next && next.classList.contains('detail')) {\n"
	"          next.parentNode.removeChild(next);\n"
	"          tr.classList.remove('open');\n"
	"          return;\n"
	"        }\n"
	"        var dr = el('tr', 'detail'), td = el('td');\n"
	"        td.colSpan = 3;\n"
	"        td.appendChild(sideBySide(f));\n"
	"        dr.appendChild(td);\n"
	"        tr.parentNode.insertBefore(dr, tr.nextSibling);\n"
	"        tr.classList.add('open');\n"
	"      });\n"
	"      body.appendChild(tr);\n"
	"    });\n"
	"    t.appendChild(body);\n"
	"    box.appendChild(t);\n"
	"    if (count > list.length) box.appendChild(el('p', 'none', '... and ' + (count - list.length) + ' more (assay compare --json lists them all)'));\n"
	"  }\n"
	"  function pre(label, text) {\n"
	"    var b = el('div');\n"
	"    b.appendChild(el('h5', null, label));\n"
	"    b.appendChild(el('pre', null, text === null || text === undefined ? '' : text));\n"
	"    return b;\n"
	"  }\n"
	"  function sideBySide(f) {\n"
	"    var box = el('div', 'sbs');\n"
	"    if (!f.attrs || !f.attrs.length) { box.appendChild(el('p', null, 'no attribute values at hand')); return box; }\n"
	"    f.attrs.forEach(function (a) {\n"
	"      var at = el('div', 'attr');\n"
	"      at.appendChild(el('b', null, a.name + (a.ok_a === a.ok_b ? '' : a.ok_b ? ' (wrong in A, right in B)' : ' (right in A, wrong in B)')));\n"
	"      var side = el('div', 'side');\n"
	"      side.appendChild(pre('expected', a.expected));\n"
	"      side.appendChild(pre('actual in A', a.actual_a));\n"
	"      side.appendChild(pre('actual in B', a.actual_b));\n"
	"      at.appendChild(side);\n"
	"      box.appendChild(at);\n"
	"    });\n"
	"    return box;\n"
	"  }\n"
	"  flipTable($('flips'), d.newly_failing, d.counts.newly_failing, 'Newly failing: passed in A, not in B', 'failing');\n"
	"  flipTable($('flips'), d.newly_passing, d.counts.newly_passing, 'Newly passing: failed in A, passed in B', 'passing');\n"
	"\n"
	"  // ---- deltas per group: a diverging bar from 0 ----\n"
	"  function groupChart(svg, groups) {\n"
	"    var W = 760, LW = 220, TW = 250, H = 22, h = Math.max(1, groups.length) * H + 4, bw = W - LW - TW, mid = LW + bw / 2;\n"
	"    svg.setAttribute('width', W); svg.setAttribute('height', h); svg.setAttribute('viewBox', '0 0 ' + W + ' ' + h);\n"
	"    svg.appendChild(svgEl('line', { x1: mid, x2: mid, y1: 0, y2: h, 'class': 'zero' }));\n"
	"    groups.forEach(function (g, i) {\n"
	"      var y = i * H + 2, delta = g.rate_b - g.rate_a;\n"
	"      var gg = svgEl('g', { 'class': 'bar', 'data-label': g.name, 'data-value': delta.toFixed(4) });\n"
	"      var text = pct(g.rate_a) + ' \\u2192 ' + pct(g.rate_b) + ' (' + signed(100 * delta, 1) + ' pts)';\n"
	"      gg.appendChild(svgEl('title', {}, g.name + ': ' + text));\n"
	"      gg.appendChild(svgEl('text', { x: LW - 6, y: y + 14, 'text-anchor': 'end' }, g.name));\n"
	"      var w = Math.abs(delta) * bw / 2;\n"
	"      gg.appendChild(svgEl('rect', { 'class': delta < 0 ? 'down' : 'up', x: delta < 0 ? mid - w : mid, y: y + 2, width: w, height: H - 6 }));\n"
	"      gg.appendChild(svgEl('text', { x: LW + bw + 6, y: y + 14 }, text));\n"
	"      svg.appendChild(gg);\n"
	"    });\n"
	"  }\n"
	"  groupChart($('chart-groups'), d.groups);\n"
	"\n"
	"  // ---- statistics with their intervals ----\n"
	"  var st = $('stats');\n"
	"  var hr = el('tr');\n"
	"  ['', 'A', 'B', 'B \\u2212 A', (100 * d.confidence).toFixed(0) + '% interval of B \\u2212 A', ''].forEach(function (h) { hr.appendChild(el('th', null, h)); });\n"
	"  st.appendChild(el('thead')).appendChild(hr);\n"
	"  var sb = el('tbody');\n"
	"  d.measures.forEach(function (m) {\n"
	"    var tr = el('tr', 'measure');\n"
	"    tr.setAttribute('data-measure', m.name);\n"
	"    var f = m.percent ? pct : function (x) { return x === null ? '\\u2013' : Number(x.toPrecision(4)).toString(); };\n"
	"    var fs = m.percent ? function (x) { return x === null ? '\\u2013' : signed(100 * x, 1) + '%'; } : function (x) { return x === null ? '\\u2013' : (x >= 0 ? '+' : '') + Number(x.toPrecision(4)).toString(); };\n"
	"    tr.appendChild(el('td', null, m.label));\n"
	"    tr.appendChild(el('td', 'n', f(m.mean_a)));\n"
	"    tr.appendChild(el('td', 'n', f(m.mean_b)));\n"
	"    tr.appendChild(el('td', 'n', fs(m.diff)));\n"
	"    tr.appendChild(el('td', 'n', m.lo === null ? '\\u2013' : '[' + fs(m.lo) + ', ' + fs(m.hi) + ']'));\n"
	"    var cell = el('td');\n"
	"    if (m.lo !== null) {\n"
	"      var W = 200, Hh = 18, span = Math.max(Math.abs(m.lo), Math.abs(m.hi), Math.abs(m.diff)) || 1;\n"
	"      function X(x) { return W / 2 + x / span * (W / 2 - 8); }\n"
	"      var s = svgEl('svg', { width: W, height: Hh, viewBox: '0 0 ' + W + ' ' + Hh, 'class': 'interval' });\n"
	"      s.appendChild(svgEl('line', { x1: W / 2, x2: W / 2, y1: 0, y2: Hh, 'class': 'zero' }));\n"
	"      s.appendChild(svgEl('line', { x1: X(m.lo), x2: X(m.hi), y1: Hh / 2, y2: Hh / 2, 'class': 'ci' }));\n"
	"      s.appendChild(svgEl('circle', { cx: X(m.diff), cy: Hh / 2, r: 4, 'class': m.hi < 0 ? 'down' : m.lo > 0 ? 'up' : 'same' }));\n"
	"      cell.appendChild(s);\n"
	"    }\n"
	"    tr.appendChild(cell);\n"
	"    sb.appendChild(tr);\n"
	"  });\n"
	"  st.appendChild(sb);\n"
	"  $('mcnemar').textContent = 'exact McNemar: ' + d.mcnemar.pass_to_fail + ' pass\\u2192fail, ' + d.mcnemar.fail_to_pass +\n"
	"    ' fail\\u2192pass; p(B worse) = ' + p4(d.mcnemar.p_b_worse) + ', p(two-sided) = ' + p4(d.mcnemar.p_two_sided) + ' (alpha ' + d.alpha + ')';\n"
	"  $('sign').textContent = 'exact sign test on scores: ' + d.sign.fell + ' fell, ' + d.sign.rose + ' rose; p(B worse) = ' + p4(d.sign.p_b_worse);\n"
	"  document.body.setAttribute('data-ready', 'yes');\n"
	"})();\n"
;

struct fattr {
	char *name;
	char *expected;
	char *actual[2];
	int ok[2];         /* -1 unknown, 0 wrong, 1 right */
};

struct flip {
	char *cp, *group, *id;
	double score_a, score_b;
	char *why;          /* why it failed, in the run where it failed */
	bool failing;       /* newly failing (else newly passing) */
	struct fattr *attrs;
	size_t nattrs;
};

struct group {
	char *cp, *name;
	size_t pairs, passed_a, passed_b;
};

struct page {
	struct flip *flips;
	size_t nflips, counts[2], max;
	struct group *groups;
	size_t ngroups, last;
	size_t text_cap;
	int side;           /* the run being read back: 0 A, 1 B */
};

static void on_case(void *payload, const assay_compare_case *c)
{
	struct page *p = payload;
	struct group *g = NULL;

	if (!(c->in_a && c->in_b))
		return;
	if (p->ngroups && !strcmp(p->groups[p->last].cp, c->checkpoint) &&
	    !strcmp(p->groups[p->last].name, c->group))
		g = &p->groups[p->last];
	for (size_t i = 0; !g && i < p->ngroups; i++)
		if (!strcmp(p->groups[i].cp, c->checkpoint) && !strcmp(p->groups[i].name, c->group))
			g = &p->groups[p->last = i];
	if (!g) {
		p->groups = assay_xrealloc(p->groups, (p->ngroups + 1) * sizeof(*p->groups));
		g = &p->groups[p->last = p->ngroups++];
		memset(g, 0, sizeof(*g));
		g->cp = assay_xstrdup(c->checkpoint);
		g->name = assay_xstrdup(c->group);
	}
	g->pairs++;
	g->passed_a += c->passed_a;
	g->passed_b += c->passed_b;
	if (c->passed_a == c->passed_b)
		return;
	int kind = c->passed_a ? 0 : 1;

	if (p->counts[kind]++ >= p->max)
		return;
	p->flips = assay_xrealloc(p->flips, (p->nflips + 1) * sizeof(*p->flips));
	struct flip *f = &p->flips[p->nflips++];

	memset(f, 0, sizeof(*f));
	f->cp = assay_xstrdup(c->checkpoint);
	f->group = assay_xstrdup(c->group);
	f->id = assay_xstrdup(c->id);
	f->score_a = c->score_a;
	f->score_b = c->score_b;
	f->failing = kind == 0;
}

static struct fattr *attr_of(struct flip *f, const char *name, size_t len)
{
	for (size_t i = 0; i < f->nattrs; i++)
		if (strlen(f->attrs[i].name) == len && !memcmp(f->attrs[i].name, name, len))
			return &f->attrs[i];
	f->attrs = assay_xrealloc(f->attrs, (f->nattrs + 1) * sizeof(*f->attrs));
	struct fattr *a = &f->attrs[f->nattrs++];

	memset(a, 0, sizeof(*a));
	a->name = assay_xstrndup(name, len);
	a->ok[0] = a->ok[1] = -1;
	return a;
}

static char *text_of(const assay_value *v, size_t cap)
{
	assay_buf b = ASSAY_BUF_INIT;
	size_t whole = assay_report__text(&b, v, cap, true);

	if (whole)
		assay_buf_addf(&b, "\n... (cut: %zu bytes in all)", whole);
	return assay_buf_detach(&b, NULL);
}

/* A line of run A or B: the values of a listed flip. */
static const char *str_of(const assay_value *line, const char *key)
{
	const assay_value *v = assay_object_get(line, key);

	return v && v->kind == ASSAY_V_STRING ? v->u.s : "";
}

static int on_line(void *payload, const assay_value *line, assay_err *err)
{
	struct page *p = payload;
	const char *cp = str_of(assay_object_get(line, "case"), "checkpoint");
	const char *group = str_of(line, "group");
	const char *id = str_of(line, "id");
	const assay_value *passed = assay_report_get(line, "passed");
	const assay_value *results = assay_object_get(line, "results");
	struct flip *f = NULL;

	(void)err;
	for (size_t i = 0; !f && i < p->nflips; i++)
		if (!strcmp(p->flips[i].id, id) && !strcmp(p->flips[i].group, group) &&
		    !strcmp(p->flips[i].cp, cp))
			f = &p->flips[i];
	if (!f)
		return 0;
	if (!f->why && !(passed && passed->kind == ASSAY_V_BOOL && passed->u.b) &&
	    f->failing == (p->side == 1)) {
		assay_buf b = ASSAY_BUF_INIT;

		assay_report__why(&b, line);
		f->why = assay_buf_detach(&b, NULL);
	}
	if (!results || results->kind != ASSAY_V_OBJECT)
		return 0;
	for (uint32_t i = 0; i < results->len; i++) {
		const assay_member *m = &results->u.members[i];
		const assay_value *ok = assay_object_get(&m->value, "is_correct");
		struct fattr *a = attr_of(f, m->key.u.s, m->key.len);

		a->ok[p->side] = ok && ok->kind == ASSAY_V_BOOL ? ok->u.b : -1;
		free(a->actual[p->side]);
		a->actual[p->side] = text_of(assay_object_get(&m->value, "actual"), p->text_cap);
		if (!a->expected || p->side == 1) {
			free(a->expected);
			a->expected = text_of(assay_object_get(&m->value, "expected"), p->text_cap);
		}
	}
	return 0;
}

static assay_value real_or_null(double x)
{
	return isfinite(x) ? assay_value_real(x) : assay_value_null();
}

static assay_value str_or_null(assay_arena *a, const char *s)
{
	return s ? assay_value_strz(a, s) : assay_value_null();
}

static void add_flips(assay_arena *a, assay_value *top, const struct page *p, bool failing,
		      const char *key)
{
	assay_value list = assay_value_array();

	for (size_t i = 0; i < p->nflips; i++) {
		const struct flip *f = &p->flips[i];
		assay_value o = assay_value_object(), attrs = assay_value_array();
		char *name;

		if (f->failing != failing)
			continue;
		name = assay_xasprintf("%s/%s/%s", f->cp, f->group, f->id);
		assay_object_set(a, &o, "name", assay_value_strz(a, name));
		free(name);
		assay_object_set(a, &o, "score_a", real_or_null(f->score_a));
		assay_object_set(a, &o, "score_b", real_or_null(f->score_b));
		assay_object_set(a, &o, "why", str_or_null(a, f->why));
		for (size_t j = 0; j < f->nattrs; j++) {
			const struct fattr *x = &f->attrs[j];
			assay_value at = assay_value_object();

			if (x->ok[0] != 0 && x->ok[1] != 0)
				continue; /* wrong in neither run: not what changed */
			assay_object_set(a, &at, "name", assay_value_strz(a, x->name));
			assay_object_set(a, &at, "expected", str_or_null(a, x->expected));
			assay_object_set(a, &at, "actual_a", str_or_null(a, x->actual[0]));
			assay_object_set(a, &at, "actual_b", str_or_null(a, x->actual[1]));
			assay_object_set(a, &at, "ok_a", assay_value_bool(x->ok[0] == 1));
			assay_object_set(a, &at, "ok_b", assay_value_bool(x->ok[1] == 1));
			assay_array_push(a, &attrs, at);
		}
		assay_object_set(a, &o, "attrs", attrs);
		assay_array_push(a, &list, o);
	}
	assay_object_set(a, top, key, list);
}

static void add_measure(assay_arena *a, assay_value *list, const char *name, const char *label,
			const assay_compare_measure *m, double scale, bool percent)
{
	assay_value o = assay_value_object();

	assay_object_set(a, &o, "name", assay_value_strz(a, name));
	assay_object_set(a, &o, "label", assay_value_strz(a, label));
	assay_object_set(a, &o, "percent", assay_value_bool(percent));
	assay_object_set(a, &o, "pairs", assay_value_int((int64_t)m->pairs));
	assay_object_set(a, &o, "mean_a", real_or_null(m->mean_a / scale));
	assay_object_set(a, &o, "mean_b", real_or_null(m->mean_b / scale));
	assay_object_set(a, &o, "diff", real_or_null(m->diff.estimate / scale));
	assay_object_set(a, &o, "lo", real_or_null(m->diff.lo / scale));
	assay_object_set(a, &o, "hi", real_or_null(m->diff.hi / scale));
	assay_array_push(a, list, o);
}

static assay_value page_data(assay_arena *a, const struct page *p, const assay_comparison *r,
			     const char *title, const char *ra, const char *rb)
{
	assay_value o = assay_value_object(), counts = assay_value_object();
	assay_value groups = assay_value_array(), measures = assay_value_array();
	assay_value mc = assay_value_object(), sign = assay_value_object();

	assay_object_set(a, &o, "suite", assay_value_strz(a, title ? title : "two runs"));
	assay_object_set(a, &o, "a", assay_value_strz(a, ra));
	assay_object_set(a, &o, "b", assay_value_strz(a, rb));
	assay_object_set(a, &o, "cases_a", assay_value_int((int64_t)r->cases_a));
	assay_object_set(a, &o, "cases_b", assay_value_int((int64_t)r->cases_b));
	assay_object_set(a, &o, "paired", assay_value_int((int64_t)r->paired));
	assay_object_set(a, &o, "only_a", assay_value_int((int64_t)r->only_a));
	assay_object_set(a, &o, "only_b", assay_value_int((int64_t)r->only_b));
	assay_object_set(a, &o, "judged", assay_value_bool(r->judged));
	assay_object_set(a, &o, "min_pairs", assay_value_int((int64_t)r->min_pairs));
	assay_object_set(a, &o, "worse", assay_value_bool(r->worse));
	assay_object_set(a, &o, "alpha", assay_value_real(r->alpha));
	assay_object_set(a, &o, "confidence", assay_value_real(r->confidence));
	assay_object_set(a, &counts, "newly_failing", assay_value_int((int64_t)p->counts[0]));
	assay_object_set(a, &counts, "newly_passing", assay_value_int((int64_t)p->counts[1]));
	assay_object_set(a, &o, "counts", counts);
	add_flips(a, &o, p, true, "newly_failing");
	add_flips(a, &o, p, false, "newly_passing");
	for (size_t i = 0; i < p->ngroups; i++) {
		const struct group *g = &p->groups[i];
		assay_value go = assay_value_object();
		char *name = assay_xasprintf("%s/%s", g->cp, g->name);

		assay_object_set(a, &go, "name", assay_value_strz(a, name));
		free(name);
		assay_object_set(a, &go, "pairs", assay_value_int((int64_t)g->pairs));
		assay_object_set(a, &go, "rate_a",
				 assay_value_real((double)g->passed_a / (double)g->pairs));
		assay_object_set(a, &go, "rate_b",
				 assay_value_real((double)g->passed_b / (double)g->pairs));
		assay_array_push(a, &groups, go);
	}
	assay_object_set(a, &o, "groups", groups);
	add_measure(a, &measures, "pass_rate", "pass rate", &r->pass, 1, true);
	add_measure(a, &measures, "score", "mean score", &r->score, 1, false);
	add_measure(a, &measures, "time", "mean time (s)", &r->time, 1, false);
	add_measure(a, &measures, "max_rss", "mean peak memory (MiB)", &r->rss, 1024.0 * 1024.0,
		    false);
	assay_object_set(a, &o, "measures", measures);
	assay_object_set(a, &mc, "pass_to_fail", assay_value_int((int64_t)r->mcnemar.b));
	assay_object_set(a, &mc, "fail_to_pass", assay_value_int((int64_t)r->mcnemar.c));
	assay_object_set(a, &mc, "p_b_worse", real_or_null(r->mcnemar.p_b_worse));
	assay_object_set(a, &mc, "p_two_sided", real_or_null(r->mcnemar.p_two_sided));
	assay_object_set(a, &o, "mcnemar", mc);
	assay_object_set(a, &sign, "fell", assay_value_int((int64_t)r->sign.b));
	assay_object_set(a, &sign, "rose", assay_value_int((int64_t)r->sign.c));
	assay_object_set(a, &sign, "p_b_worse", real_or_null(r->sign.p_b_worse));
	assay_object_set(a, &o, "sign", sign);
	return o;
}

static void page_release(struct page *p)
{
	for (size_t i = 0; i < p->nflips; i++) {
		struct flip *f = &p->flips[i];

		for (size_t j = 0; j < f->nattrs; j++) {
			free(f->attrs[j].name);
			free(f->attrs[j].expected);
			free(f->attrs[j].actual[0]);
			free(f->attrs[j].actual[1]);
		}
		free(f->attrs);
		free(f->cp), free(f->group), free(f->id), free(f->why);
	}
	free(p->flips);
	for (size_t i = 0; i < p->ngroups; i++)
		free(p->groups[i].cp), free(p->groups[i].name);
	free(p->groups);
}

int assay_compare_write_html(assay_comparison *out, const char *a, const char *b,
			     const assay_compare_opts *opts, const assay_compare_page *page,
			     assay_err *err)
{
	struct page p = { .max = page->max_flips ? page->max_flips : 50, .text_cap = 4096 };
	assay_arena *arena = NULL;
	assay_buf json = ASSAY_BUF_INIT, html = ASSAY_BUF_INIT;
	int rc;

	if ((rc = assay_compare_runs(out, a, b, opts, on_case, &p, err)))
		goto done;
	if (!out->paired && (out->cases_a || out->cases_b) && !page->any_suite) {
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				   "A and B share no case: they are not runs of one suite "
				   "(--any-suite to compare them anyway)");
		goto done;
	}
	p.side = 0;
	if ((rc = assay_report_each_line(a, on_line, &p, err)))
		goto done;
	p.side = 1;
	if ((rc = assay_report_each_line(b, on_line, &p, err)))
		goto done;
	arena = assay_arena_new(0);
	assay_value data = page_data(arena, &p, out, page->title, a, b);

	assay_json_write(&json, &data, 0);
	assay_buf_add(&html, page_head, sizeof(page_head) - 1);
	assay_buf_adds(&html, "<script type=\"application/json\" id=\"assay-compare\">");
	for (size_t i = 0, run = 0; i <= json.len; i++) {
		if (i < json.len && json.ptr[i] != '<')
			continue;
		assay_buf_add(&html, json.ptr + run, i - run);
		if (i < json.len)
			assay_buf_adds(&html, "\\u003c");
		run = i + 1;
	}
	assay_buf_adds(&html, "</script>\n<script>\n");
	assay_buf_add(&html, page_script, sizeof(page_script) - 1);
	assay_buf_adds(&html, "</script>\n</body>\n</html>\n");
	rc = assay_report__write_whole(page->path, html.ptr, html.len, err);
done:
	assay_buf_release(&json);
	assay_buf_release(&html);
	if (arena)
		assay_arena_free(arena);
	page_release(&p);
	return rc;
}
