/*
 * `assay skill review` (issue 20 item 4): one static HTML page where a person reads each
 * case's prompt and expectations, each run's outputs and transcript, the grades with their
 * evidence, the comparisons and the analyses, and leaves feedback per run, saved as
 * feedback.json in the workspace (downloaded from the page, or POSTed to `review --serve`).
 *
 * Decisions: everything the page shows is embedded in it as one JSON document (a script
 * element of type application/json, every '<' written as \u003c so that no text can close
 * it); the page's script builds the view with textContent only, never markup from data, so a
 * run's output cannot become HTML. No server, network or CDN is needed to read it. Texts are
 * cut at 64 KiB each (outputs, transcript). feedback.json is skill-creator's shape
 * ({"reviews": [{"run_id", "feedback", "timestamp"}], "status"}) plus each review's case_id,
 * version and run; what the page sends is checked and rewritten by assay, never stored as sent.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "skill/skill_int.h"
#include "util/banned.h"

#define TEXT_MAX (64u << 10)
#define FEEDBACK_MAX (1u << 20)

static assay_value text_of(assay_arena *a, assay_buf *b)
{
	if (b->len > TEXT_MAX) {
		assay_buf_setlen(b, TEXT_MAX);
		assay_buf_adds(b, "\n[... cut]\n");
	}
	return assay_value_string(a, b->ptr, b->len);
}

/* Every JSON file of `dir` (sorted) as [{name, value}]. */
static assay_value files_of(assay_arena *a, const char *dir)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	assay_value out = assay_value_array();

	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);
		assay_value v;
		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".json")) {
			char *p = assay_path_join(dir, names[i]->d_name);
			if (!assay_skill__load_json(&v, a, p, NULL)) {
				assay_value e = assay_value_object();
				assay_object_set(a, &e, "name", assay_value_strz(a, names[i]->d_name));
				assay_object_set(a, &e, "value", v);
				assay_array_push(a, &out, e);
			}
			free(p);
		}
		free(names[i]);
	}
	free(names);
	return out;
}

/* One run (`version` -1: of the no-skill baseline): its grades, outputs and transcript. */
static assay_value run_value(assay_arena *a, const struct skill_config *c, const char *id,
			     int version, int run, const assay_value *g)
{
	assay_value r = assay_value_object();
	bool without = version < 0;
	char *run_dir = without ? assay_skill__path(c->workspace, "without_skill/runs/%s/run%d",
						    id, run)
				: assay_skill__path(c->workspace, "runs/%s/v%d/run%d", id,
						    version, run);
	char *skill = without ? assay_skill__path(c->workspace, "without_skill/skill")
			      : assay_skill__path(c->workspace, "v%d/skill", version);
	const char *redact[] = { run_dir, "<run>", skill, "<skill>", c->workspace, "<workspace>",
				 NULL };
	assay_buf b = ASSAY_BUF_INIT;

	assay_object_set(a, &r, "run_id", without
			 ? assay_value_stringf(a, "%s/without_skill/run%d", id, run)
			 : assay_value_stringf(a, "%s/v%d/run%d", id, version, run));
	assay_object_set(a, &r, "case_id", assay_value_strz(a, id));
	assay_object_set(a, &r, "version", without ? assay_value_null() : assay_value_int(version));
	assay_object_set(a, &r, "run", assay_value_int(run));
	assay_object_set(a, &r, "overall", assay_value_copy(a, assay_object_get(g, "overall")));
	assay_object_set(a, &r, "overall_score",
			 assay_value_copy(a, assay_object_get(g, "overall_score")));
	assay_object_set(a, &r, "results", assay_value_copy(a, assay_object_get(g, "results")));
	assay_object_set(a, &r, "claims", assay_value_copy(a, assay_object_get(g, "claims")));
	assay_skill__run_outputs(&b, run_dir, redact, TEXT_MAX);
	assay_object_set(a, &r, "outputs", text_of(a, &b));
	assay_buf_reset(&b);
	assay_fs_read_beneath(&b, run_dir, "transcript.md", TEXT_MAX + 1, NULL);
	assay_object_set(a, &r, "transcript", text_of(a, &b));
	assay_buf_release(&b);
	free(run_dir);
	free(skill);
	return r;
}

struct gfile {
	char id[256];
	int version, run;
};

static int by_run(const void *x, const void *y)
{
	const struct gfile *a = x, *b = y;
	int c = strcmp(a->id, b->id);

	return c ? c : a->version != b->version ? a->version - b->version : a->run - b->run;
}

/* The page's data: {workspace, serve, cases, runs, comparisons, analyses, feedback}. */
static int page_data(assay_value *out, assay_arena *a, const struct skill_config *c, bool serve,
		     assay_err *err)
{
	assay_value evals, runs = assay_value_array(), cases = assay_value_array();
	char *gdir = assay_path_join(c->workspace, "grading");
	struct dirent **names = NULL;
	int n, rc;

	if ((rc = assay_skill__evals_load(&evals, a, c, err))) {
		free(gdir);
		return rc;
	}
	const assay_value *ecases = assay_object_get(&evals, "cases");
	for (uint32_t i = 0; ecases && i < ecases->len; i++) {
		const assay_value *ec = &ecases->u.items[i];
		assay_value e = assay_value_object();
		assay_object_set(a, &e, "id", assay_value_copy(a, assay_object_get(ec, "id")));
		assay_object_set(a, &e, "prompt", assay_value_copy(a, assay_object_get(ec, "prompt")));
		assay_object_set(a, &e, "expectations",
				 assay_value_copy(a, assay_object_get(ec, "expectations")));
		assay_array_push(a, &cases, e);
	}
	n = scandir(gdir, &names, NULL, alphasort);
	struct gfile *gs = n > 0 ? assay_xcalloc((size_t)n, sizeof(*gs)) : NULL;
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		if (assay_skill__grading_name(names[i]->d_name, gs[k].id, sizeof(gs[k].id),
					      &gs[k].version, &gs[k].run))
			k++;
		free(names[i]);
	}
	free(names);
	/* the no-skill baseline's runs, as version -1 (shown first) */
	char *bdir = assay_path_join(c->workspace, "without_skill/grading");
	names = NULL; /* scandir leaves it alone when the folder is missing */
	int nb = scandir(bdir, &names, NULL, alphasort);
	if (nb > 0)
		gs = assay_xrealloc(gs, ((size_t)(n > 0 ? n : 0) + (size_t)nb) * sizeof(*gs));
	for (int i = 0; i < nb; i++) {
		if (assay_skill__baseline_name(names[i]->d_name, gs[k].id, sizeof(gs[k].id),
					       &gs[k].run)) {
			gs[k].version = -1;
			k++;
		}
		free(names[i]);
	}
	free(names);
	free(bdir);
	if (k)
		qsort(gs, k, sizeof(*gs), by_run);
	for (size_t i = 0; i < k; i++) {
		char *p = gs[i].version < 0
				  ? assay_skill__path(c->workspace, "without_skill/grading/%s_run%d.json",
						      gs[i].id, gs[i].run)
				  : assay_skill__path(c->workspace, "grading/%s_v%d_run%d.json",
						      gs[i].id, gs[i].version, gs[i].run);
		assay_value g;
		if (!assay_skill__load_json(&g, a, p, NULL) && g.kind == ASSAY_V_OBJECT)
			assay_array_push(a, &runs, run_value(a, c, gs[i].id, gs[i].version,
							     gs[i].run, &g));
		free(p);
	}
	free(gs);
	free(gdir);

	char *cdir = assay_path_join(c->workspace, "comparisons");
	char *adir = assay_path_join(c->workspace, "analysis");
	char *fb = assay_path_join(c->workspace, "feedback.json");
	assay_value feedback;
	if (assay_skill__load_json(&feedback, a, fb, NULL) || feedback.kind != ASSAY_V_OBJECT)
		feedback = assay_value_null();
	*out = assay_value_object();
	assay_object_set(a, out, "workspace", assay_value_strz(a, c->workspace));
	assay_object_set(a, out, "serve", assay_value_bool(serve));
	assay_object_set(a, out, "cases", cases);
	assay_object_set(a, out, "runs", runs);
	assay_object_set(a, out, "comparisons", files_of(a, cdir));
	assay_object_set(a, out, "analyses", files_of(a, adir));
	assay_object_set(a, out, "feedback", feedback);
	free(cdir);
	free(adir);
	free(fb);
	return 0;
}

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width\">\n"
	"<link rel=\"icon\" href=\"data:,\">\n"
	"<title>assay skill review</title>\n<style>\n"
	"body{font:14px/1.4 system-ui,sans-serif;margin:0;display:flex;min-height:100vh}\n"
	"nav{width:14em;background:#f4f4f4;padding:.5em;border-right:1px solid #ccc}\n"
	"nav button{display:block;width:100%;text-align:left;margin:.2em 0;padding:.3em;"
	"border:1px solid #ccc;background:#fff;cursor:pointer}\n"
	"nav button.current{background:#dde8ff;font-weight:bold}\n"
	"main{flex:1;padding:0 1em;overflow:auto}\n"
	"pre{background:#f8f8f8;border:1px solid #ddd;padding:.5em;white-space:pre-wrap;"
	"max-height:30em;overflow:auto}\n"
	".run{border:1px solid #bbb;margin:1em 0;padding:.5em}\n"
	".pass{color:#070}.fail{color:#a00}\n"
	"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .4em;"
	"vertical-align:top;text-align:left}\n"
	"textarea{width:100%;min-height:4em}\n"
	"</style></head>\n<body>\n<nav><h1>Cases</h1><div id=\"cases\"></div>\n"
	"<p><button id=\"prev\">previous</button><button id=\"next\">next</button></p>\n"
	"<p><button id=\"save\">Save feedback</button></p><p id=\"status\"></p></nav>\n"
	"<main><h2 id=\"case-title\"></h2><div id=\"case\"></div>\n"
	"<h2>Comparisons and analyses</h2><div id=\"judgements\"></div></main>\n"
	"<script type=\"application/json\" id=\"data\">";

static const char page_tail[] =
	"</script>\n<script>\n"
	"'use strict';\n"
	"const data = JSON.parse(document.getElementById('data').textContent);\n"
	"const feedback = {};\n"
	"for (const r of ((data.feedback || {}).reviews || []))\n"
	"  if (r && typeof r.run_id === 'string' && typeof r.feedback === 'string')\n"
	"    feedback[r.run_id] = r.feedback;\n"
	"function el(tag, text, cls) {\n"
	"  const e = document.createElement(tag);\n"
	"  if (text !== undefined && text !== null) e.textContent = String(text);\n"
	"  if (cls) e.className = cls;\n"
	"  return e;\n"
	"}\n"
	"let current = 0;\n"
	"function show(i) {\n"
	"  if (!data.cases.length) return;\n"
	"  current = (i + data.cases.length) % data.cases.length;\n"
	"  const c = data.cases[current];\n"
	"  document.querySelectorAll('#cases button').forEach((b, k) =>\n"
	"    b.classList.toggle('current', k === current));\n"
	"  document.getElementById('case-title').textContent = c.id;\n"
	"  const box = document.getElementById('case');\n"
	"  box.replaceChildren();\n"
	"  box.append(el('h3', 'Prompt'), el('pre', c.prompt));\n"
	"  const ul = el('ul');\n"
	"  for (const x of (c.expectations || []))\n"
	"    ul.append(el('li', x.criterion + (x.required ? ' (required): ' : ': ') +\n"
	"                   x.description));\n"
	"  box.append(el('h3', 'Expectations'), ul);\n"
	"  for (const r of data.runs.filter(r => r.case_id === c.id)) {\n"
	"    const s = el('section', null, 'run');\n"
	"    s.dataset.run = r.run_id;\n"
	"    s.append(el('h3', (r.version === null ? 'without the skill' : 'v' + r.version) +\n"
	"                ' run ' + r.run + ': ' + r.overall + ' ' +\n"
	"                r.overall_score, r.overall === 'pass' ? 'pass' : 'fail'));\n"
	"    const t = el('table');\n"
	"    const head = el('tr');\n"
	"    for (const h of ['criterion', 'score', 'passed', 'evidence']) head.append(el('th', h));\n"
	"    t.append(head);\n"
	"    for (const x of (r.results || [])) {\n"
	"      const tr = el('tr');\n"
	"      tr.append(el('td', x.criterion), el('td', x.score), el('td', x.passed ? 'yes' : 'no'),\n"
	"                el('td', x.reasoning));\n"
	"      t.append(tr);\n"
	"    }\n"
	"    s.append(t, el('h4', 'Outputs'), el('pre', r.outputs, 'outputs'));\n"
	"    const d = el('details');\n"
	"    d.append(el('summary', 'Transcript'), el('pre', r.transcript, 'transcript'));\n"
	"    s.append(d, el('h4', 'Your feedback on this run'));\n"
	"    const ta = el('textarea', null, 'feedback');\n"
	"    ta.dataset.run = r.run_id;\n"
	"    ta.value = feedback[r.run_id] || '';\n"
	"    ta.addEventListener('input', () => { feedback[r.run_id] = ta.value; });\n"
	"    s.append(ta);\n"
	"    box.append(s);\n"
	"  }\n"
	"  if (location.hash !== '#case=' + encodeURIComponent(c.id))\n"
	"    history.replaceState(null, '', '#case=' + encodeURIComponent(c.id));\n"
	"}\n"
	"function reviews() {\n"
	"  const out = [];\n"
	"  const now = new Date().toISOString().replace(/\\.\\d+Z$/, 'Z');\n"
	"  for (const r of data.runs)\n"
	"    if ((feedback[r.run_id] || '').trim())\n"
	"      out.push({run_id: r.run_id, feedback: feedback[r.run_id], timestamp: now});\n"
	"  return {reviews: out, status: 'complete'};\n"
	"}\n"
	"async function save() {\n"
	"  const body = JSON.stringify(reviews(), null, 2);\n"
	"  const st = document.getElementById('status');\n"
	"  if (data.serve) {\n"
	"    try {\n"
	"      const r = await fetch('feedback', {method: 'POST', body,\n"
	"        headers: {'Content-Type': 'application/json'}});\n"
	"      st.textContent = r.ok ? 'saved' : 'not saved: ' + await r.text();\n"
	"    } catch (e) { st.textContent = 'not saved: ' + e; }\n"
	"    return;\n"
	"  }\n"
	"  const a = document.createElement('a');\n"
	"  a.href = URL.createObjectURL(new Blob([body], {type: 'application/json'}));\n"
	"  a.download = 'feedback.json';\n"
	"  document.body.append(a);\n"
	"  a.click();\n"
	"  a.remove();\n"
	"  st.textContent = 'downloaded: put feedback.json in the workspace';\n"
	"}\n"
	"const list = document.getElementById('cases');\n"
	"data.cases.forEach((c, k) => {\n"
	"  const b = el('button', c.id);\n"
	"  b.dataset.case = c.id;\n"
	"  b.addEventListener('click', () => show(k));\n"
	"  list.append(b);\n"
	"});\n"
	"document.getElementById('prev').addEventListener('click', () => show(current - 1));\n"
	"document.getElementById('next').addEventListener('click', () => show(current + 1));\n"
	"document.getElementById('save').addEventListener('click', save);\n"
	"const j = document.getElementById('judgements');\n"
	"for (const f of data.comparisons.concat(data.analyses)) {\n"
	"  const d = el('details');\n"
	"  d.append(el('summary', f.name), el('pre', JSON.stringify(f.value, null, 2)));\n"
	"  j.append(d);\n"
	"}\n"
	"const want = decodeURIComponent((location.hash.match(/^#case=(.*)$/) || [])[1] || '');\n"
	"show(Math.max(0, data.cases.findIndex(c => c.id === want)));\n"
	"document.body.dataset.ready = 'yes';\n"
	"</script>\n</body></html>\n";

int assay_skill_review_page(assay_buf *out, const char *workspace, bool serve, assay_err *err)
{
	struct skill_config c;
	assay_arena *a = assay_arena_new(0);
	assay_value data;
	assay_buf j = ASSAY_BUF_INIT;
	int rc;

	if ((rc = assay_skill__config_load(&c, workspace, err)) ||
	    (rc = page_data(&data, a, &c, serve, err)))
		goto out;
	assay_json_write(&j, &data, 0);
	assay_buf_adds(out, page_head);
	/* no text may close the script element: '<' only ever occurs inside JSON strings */
	for (size_t i = 0; i < j.len; i++) {
		if (j.ptr[i] == '<')
			assay_buf_adds(out, "\\u003c");
		else
			assay_buf_addch(out, j.ptr[i]);
	}
	assay_buf_adds(out, page_tail);
out:
	assay_buf_release(&j);
	assay_skill__config_release(&c);
	assay_arena_free(a);
	return rc;
}

int assay_skill_feedback_save(const char *workspace, const char *body, size_t len,
			      assay_err *err)
{
	struct skill_config c;
	assay_arena *a = assay_arena_new(0);
	assay_value v, out = assay_value_object(), reviews = assay_value_array();
	assay_err pe = ASSAY_ERR_INIT;
	int rc;

	if ((rc = assay_skill__config_load(&c, workspace, err)))
		goto out;
	if (len > FEEDBACK_MAX) {
		rc = assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0, "feedback over 1 MiB");
		goto out;
	}
	if (assay_json_parse(&v, a, body, len, NULL, &pe)) {
		rc = assay_err_set(err, ASSAY_EPARSE, NULL, pe.line, pe.column, "feedback is not "
				   "JSON: %s", pe.msg);
		goto out;
	}
	const assay_value *rs = assay_object_get(&v, "reviews");
	if (v.kind != ASSAY_V_OBJECT || !rs || rs->kind != ASSAY_V_ARRAY) {
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "feedback must be "
				   "{\"reviews\": [...], \"status\": ...}");
		goto out;
	}
	for (uint32_t i = 0; i < rs->len; i++) {
		const assay_value *r = &rs->u.items[i];
		const char *id = assay_skill__str(r, "run_id"), *text = assay_skill__str(r,
											"feedback");
		const char *ts = assay_skill__str(r, "timestamp");
		char cid[256], now[32];
		int ver = -1, run = -1;
		const char *slash = id ? strrchr(id, '/') : NULL;
		/* "<case>/v<N>/run<R>": the case id is what precedes "/v<N>/run<R>" */
		if (!id || !text || !slash || slash == id) {
			rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "review %u needs run_id "
					   "(\"<case>/v<N>/run<R>\") and feedback (a string)", i);
			goto out;
		}
		const char *vs = slash - 1;
		while (vs > id && vs[-1] != '/')
			vs--;
		bool without = vs > id && sscanf(vs, "without_skill/run%d", &run) == 1 &&
			       !strncmp(vs, "without_skill/", 14);
		if (without)
			ver = 0;
		if (vs == id || (!without && sscanf(vs, "v%d/run%d", &ver, &run) != 2) ||
		    ver < 0 || run < 1 || (size_t)(vs - 1 - id) >= sizeof(cid)) {
			rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "review %u: run_id '%.100s' "
					   "is not \"<case>/v<N>/run<R>\" nor "
					   "\"<case>/without_skill/run<R>\"", i, id);
			goto out;
		}
		memcpy(cid, id, (size_t)(vs - 1 - id));
		cid[vs - 1 - id] = '\0';
		assay_skill__now(now);
		assay_value e = assay_value_object();
		assay_object_set(a, &e, "run_id", without
				 ? assay_value_stringf(a, "%s/without_skill/run%d", cid, run)
				 : assay_value_stringf(a, "%s/v%d/run%d", cid, ver, run));
		assay_object_set(a, &e, "case_id", assay_value_strz(a, cid));
		assay_object_set(a, &e, "version", without ? assay_value_null()
							   : assay_value_int(ver));
		assay_object_set(a, &e, "run", assay_value_int(run));
		assay_object_set(a, &e, "feedback", assay_value_strz(a, text));
		/* the page's time when it is one of ours (YYYY-MM-DDTHH:MM:SSZ), else now */
		bool ok_ts = ts && strlen(ts) == 20 && ts[4] == '-' && ts[10] == 'T' &&
			     ts[19] == 'Z' && strspn(ts, "0123456789-T:Z") == 20;
		assay_object_set(a, &e, "timestamp", assay_value_strz(a, ok_ts ? ts : now));
		assay_array_push(a, &reviews, e);
	}
	const char *status = assay_skill__str(&v, "status");
	assay_object_set(a, &out, "reviews", reviews);
	assay_object_set(a, &out, "status", assay_value_strz(a, status && !strcmp(status,
							      "complete") ? "complete" : "in_progress"));
	char *p = assay_path_join(c.workspace, "feedback.json");
	rc = assay_skill__write_json(p, &out, err);
	free(p);
out:
	assay_skill__config_release(&c);
	assay_arena_free(a);
	return rc;
}
