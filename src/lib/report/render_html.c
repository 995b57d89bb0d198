/*
 * One self-contained HTML page (render.h): totals, a table per checkpoint by group type and by
 * group, and every case in a list that filters by status, group and name (also from the URL:
 * ?status=fail&group=checkpoint_1/core&q=text), a page of 100 at a time; a case that did not
 * pass opens to show why in the terminal's words (explain.c), its reproduce line and the last
 * lines of its stderr, and one click further each attribute that is not correct with its raw
 * expected value, actual value and diff side by side. Charts (issue #21), drawn by the page's
 * script as inline SVG: pass rate per checkpoint and group type, the distribution of durations
 * with the slowest cases named, the distribution of scores. No file outside the page is needed,
 * no network.
 *
 * Key decisions:
 * - The cases are data, not markup: a JSON array in a <script type="application/json"> element
 *   (every '<' written as \u003c, so no text can end the element), read and drawn by the
 *   page's script with textContent only, so nothing a program printed can become markup or
 *   script. One short array per case keeps 100,000 cases at about 100 bytes each.
 * - Details (expected, actual, diff, each cut at text_cap bytes) are written for failing cases
 *   while their total stays under html_detail_bytes; later failing cases keep their verdict and
 *   reason, and the page says how many lost their details.
 * - Counts are made by the page from the cases it holds, so they always agree with the list.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/banned.h"

static const char head[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\">\n"
	"<head>\n"
	"<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>assay report</title>\n"
	"<style>\n"
	"body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2125; background: #fff; }\n"
	"header { padding: 16px 24px; border-bottom: 1px solid #d0d7de; }\n"
	"main { padding: 0 24px 24px; }\n"
	"h1 { font-size: 20px; margin: 0 0 8px; }\n"
	"h2 { font-size: 16px; margin: 24px 0 8px; }\n"
	".totals span { margin-right: 18px; }\n"
	".totals b { font-size: 18px; }\n"
	".note { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px; margin: 8px 0; }\n"
	"table { border-collapse: collapse; margin-bottom: 12px; }\n"
	"th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }\n"
	"th { background: #f6f8fa; }\n"
	"td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
	".pass { color: #1a7f37; font-weight: 600; }\n"
	".fail { color: #cf222e; font-weight: 600; }\n"
	".error { color: #9a6700; font-weight: 600; }\n"
	".filters { margin: 8px 0; display: flex; gap: 12px; flex-wrap: wrap; align-items: center; }\n"
	"#cases { width: 100%; }\n"
	"#cases tr.open > td { background: #f6f8fa; }\n"
	"#cases td.name { font-family: ui-monospace, monospace; word-break: break-all; }\n"
	"tr.expandable { cursor: pointer; }\n"
	".attr { margin: 6px 0 12px; }\n"
	".side { display: grid; grid-template-columns: 1fr 1fr 1fr; gap: 8px; }\n"
	".side div { min-width: 0; }\n"
	".side h5 { margin: 4px 0; font-size: 12px; color: #57606a; }\n"
	"pre { margin: 0; padding: 6px; background: #fff; border: 1px solid #d0d7de; white-space: pre-wrap;\n"
	"      word-break: break-all; max-height: 24em; overflow: auto; font-size: 12px; }\n"
	".pager button { margin: 0 4px; }\n"
	".charts { display: flex; flex-wrap: wrap; gap: 24px; }\n"
	".chart h3 { font-size: 14px; margin: 8px 0 4px; }\n"
	".chart svg text { font: 12px system-ui, sans-serif; fill: #1d2125; }\n"
	".chart rect.track { fill: #eaeef2; }\n"
	".chart rect.fill { fill: #2da44e; }\n"
	".chart rect.fill.low { fill: #cf222e; }\n"
	".chart rect.fill.mid { fill: #d4a72c; }\n"
	".chart rect.fill.hist { fill: #0969da; }\n"
	"#slowest { margin: 4px 0; padding-left: 20px; font-size: 12px; }\n"
	"#slowest code { word-break: break-all; }\n"
	"td.st::before { content: '\\25B8 '; color: #57606a; }\n"
	"tr.open td.st::before { content: '\\25BE '; }\n"
	"tr.pass-row td.st::before { content: ''; }\n"
	".explain { border-left: 3px solid #cf222e; }\n"
	".repro { border-left: 3px solid #0969da; }\n"
	".detail-box h4 { margin: 8px 0 4px; font-size: 12px; color: #57606a; }\n"
	"details.raw summary { cursor: pointer; color: #0969da; margin: 8px 0; }\n"
	"</style>\n"
	"</head>\n"
	"<body>\n"
	"<header>\n"
	"<h1 id=\"title\">assay report</h1>\n"
	"<div class=\"totals\"><span><b id=\"total\">0</b> cases</span><span class=\"pass\"><b id=\"passed\">0</b> passed</span><span class=\"fail\"><b id=\"failed\">0</b> failed</span><span class=\"error\"><b id=\"errors\">0</b> errors</span><span>pass rate <b id=\"rate\">–</b></span></div>\n"
	"<div id=\"notes\"></div>\n"
	"<noscript><p class=\"note\">This report needs JavaScript to show its cases.</p></noscript>\n"
	"</header>\n"
	"<main>\n"
	"<h2>At a glance</h2>\n"
	"<div class=\"charts\">\n"
	"<div class=\"chart\"><h3>Pass rate by checkpoint and group type</h3><svg id=\"chart-rate\" role=\"img\" aria-label=\"pass rate by checkpoint and group type\"></svg></div>\n"
	"<div class=\"chart\"><h3>Case durations</h3><svg id=\"chart-duration\" role=\"img\" aria-label=\"distribution of case durations\"></svg><div>slowest cases:</div><ol id=\"slowest\"></ol></div>\n"
	"<div class=\"chart\"><h3>Scores</h3><svg id=\"chart-score\" role=\"img\" aria-label=\"distribution of scores\"></svg></div>\n"
	"</div>\n"
	"<h2>By checkpoint</h2>\n"
	"<div id=\"checkpoints\"></div>\n"
	"<h2>Cases</h2>\n"
	"<div class=\"filters\">\n"
	"<label>status <select id=\"f-status\"><option value=\"all\">all</option><option value=\"notpass\">not passed</option><option value=\"pass\">passed</option><option value=\"fail\">failed</option><option value=\"error\">errors</option></select></label>\n"
	"<label>group <select id=\"f-group\"><option value=\"\">all groups</option></select></label>\n"
	"<label>id <input id=\"f-text\" type=\"search\" placeholder=\"filter by name\"></label>\n"
	"<span><b id=\"shown\">0</b> shown</span>\n"
	"<span class=\"pager\"><button id=\"prev\" type=\"button\">&lt;</button><span id=\"page\">1 / 1</span><button id=\"next\" type=\"button\">&gt;</button></span>\n"
	"</div>\n"
	"<table id=\"cases\"><thead><tr><th>status</th><th>case</th><th>type</th><th>score</th><th>seconds</th><th>why (click a row to open it)</th></tr></thead><tbody id=\"rows\"></tbody></table>\n"
	"</main>\n";

static const char script[] =
	"(function () {\n"
	"  'use strict';\n"
	"  var CP = 0, GR = 1, TY = 2, ID = 3, ST = 4, SC = 5, DU = 6, WHY = 7, DET = 8, EXPL = 9, TAIL = 10, REPRO = 11;\n"
	"  var PAGE = 100;\n"
	"  var cases = JSON.parse(document.getElementById('assay-cases').textContent);\n"
	"  var info = JSON.parse(document.getElementById('assay-info').textContent);\n"
	"  function $(id) { return document.getElementById(id); }\n"
	"  function el(tag, cls, text) {\n"
	"    var e = document.createElement(tag);\n"
	"    if (cls) e.className = cls;\n"
	"    if (text !== undefined && text !== null) e.textContent = String(text);\n"
	"    return e;\n"
	"  }\n"
	"  function tally() { return { pass: 0, fail: 0, error: 0, total: 0, score: 0 }; }\n"
	"  function add(t, c) { t[c[ST]]++; t.total++; t.score += c[SC]; }\n"
	"  function r1(x) { return Math.round(x * 10) / 10; }\n"
	"  function pct(a, b) { return b ? r1(100 * a / b).toFixed(1) + '%' : '\\u2013'; }\n"
	"  var all = tally(), cps = [], cpIndex = {}, groups = [], groupIndex = {};\n"
	"  cases.forEach(function (c) {\n"
	"    add(all, c);\n"
	"    var key = c[CP] + '/' + c[GR];\n"
	"    if (!(key in groupIndex)) {\n"
	"      groupIndex[key] = groups.length;\n"
	"      groups.push({ key: key, cp: c[CP], group: c[GR], type: c[TY], t: tally() });\n"
	"    }\n"
	"    add(groups[groupIndex[key]].t, c);\n"
	"    if (!(c[CP] in cpIndex)) {\n"
	"      cpIndex[c[CP]] = cps.length;\n"
	"      cps.push({ name: c[CP], types: {}, order: [], groups: [] });\n"
	"    }\n"
	"    var cp = cps[cpIndex[c[CP]]];\n"
	"    if (!(c[TY] in cp.types)) { cp.types[c[TY]] = tally(); cp.order.push(c[TY]); }\n"
	"    add(cp.types[c[TY]], c);\n"
	"  });\n"
	"  groups.forEach(function (g) { cps[cpIndex[g.cp]].groups.push(g); });\n"
	"\n"
	"  $('title').textContent = 'assay: ' + info.suite;\n"
	"  document.title = 'assay: ' + info.suite;\n"
	"  $('total').textContent = all.total;\n"
	"  $('passed').textContent = all.pass;\n"
	"  $('failed').textContent = all.fail;\n"
	"  $('errors').textContent = all.error;\n"
	"  $('rate').textContent = pct(all.pass, all.total);\n"
	"  function note(text) { $('notes').appendChild(el('p', 'note', text)); }\n"
	"  if (!info.ended) note('The run did not end (killed?): these are its finished cases.');\n"
	"  else if (info.interrupted) note('The run was interrupted: not every case ran.');\n"
	"  if (info.unrun) note(info.unrun + (info.unrun == 1 ? ' case file' : ' case files') + ' never ran: no group or checkpoint of the suite names ' + (info.unrun == 1 ? 'its' : 'their') + ' folder (see the run\\'s warnings; summary.json\\'s unrun_case_files).');\n"
	"  if (info.left_out) note('The details of ' + info.left_out + ' failing cases were left out to keep this page small: assay show prints any case whole.');\n"
	"\n"
	"  function countRow(tr, t) {\n"
	"    [t.pass, t.fail, t.error, t.total].forEach(function (n) { tr.appendChild(el('td', 'n', n)); });\n"
	"    tr.appendChild(el('td', 'n', pct(t.pass, t.total)));\n"
	"    tr.appendChild(el('td', 'n', t.total ? (t.score / t.total).toFixed(3) : '\\u2013'));\n"
	"  }\n"
	"  function table(heads) {\n"
	"    var tb = el('table'), tr = el('tr');\n"
	"    heads.forEach(function (h) { tr.appendChild(el('th', null, h)); });\n"
	"    tb.appendChild(el('thead')).appendChild(tr);\n"
	"    return tb;\n"
	"  }\n"
	"  var counts = ['passed', 'failed', 'errors', 'total', 'pass rate', 'mean score'];\n"
	"  cps.forEach(function (cp) {\n"
	"    var box = $('checkpoints');\n"
	"    box.appendChild(el('h3', null, cp.name));\n"
	"    var tt = table(['type'].concat(counts)), body = el('tbody');\n"
	"    cp.order.forEach(function (type) {\n"
	"      var tr = el('tr');\n"
	"      tr.appendChild(el('td', null, type));\n"
	"      countRow(tr, cp.types[type]);\n"
	"      body.appendChild(tr);\n"
	"    });\n"
	"    tt.appendChild(body);\n"
	"    box.appendChild(tt);\n"
	"    var gt = table(['group', 'type'].concat(counts)), gb = el('tbody');\n"
	"    cp.groups.forEach(function (g) {\n"
	"      var tr = el('tr');\n"
	"      tr.setAttribute('data-group', g.key);\n"
	"      tr.appendChild(el('td', null, g.group));\n"
	"      tr.appendChild(el('td', null, g.type));\n"
	"      countRow(tr, g.t);\n"
	"      gb.appendChild(tr);\n"
	"    });\n"
	"    gt.appendChild(gb);\n"
	"    box.appendChild(gt);\n"
	"  });\n"
	"\n"
	"  // ---- charts: inline SVG drawn here, from the cases the page holds ----\n"
	"  var NS = 'http://www.w3.org/2000/svg';\n"
	"  function svgEl(tag, attrs, text) {\n"
	"    var e = document.createElementNS(NS, tag);\n"
	"    for (var k in attrs) e.setAttribute(k, attrs[k]);\n"
	"    if (text !== undefined) e.textContent = String(text);\n"
	"    return e;\n"
	"  }\n"
	"  // horizontal bars: [{label, value (0..1 of the track), raw, text, cls}]\n"
	"  function bars(svg, list) {\n"
	"    var W = 560, LW = 200, TW = 110, H = 22, h = Math.max(1, list.length) * H + 4;\n"
	"    svg.setAttribute('width', W);\n"
	"    svg.setAttribute('height', h);\n"
	"    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + h);\n"
	"    list.forEach(function (b, i) {\n"
	"      var g = svgEl('g', { 'class': 'bar', 'data-label': b.label, 'data-value': b.raw });\n"
	"      var y = i * H + 2, bw = W - LW - TW;\n"
	"      g.appendChild(svgEl('title', {}, b.label + ': ' + b.text));\n"
	"      g.appendChild(svgEl('text', { x: LW - 6, y: y + 14, 'text-anchor': 'end' }, b.label));\n"
	"      g.appendChild(svgEl('rect', { 'class': 'track', x: LW, y: y + 2, width: bw, height: H - 6 }));\n"
	"      g.appendChild(svgEl('rect', { 'class': 'fill ' + (b.cls || ''), x: LW, y: y + 2,\n"
	"        width: Math.max(0, Math.min(1, b.value)) * bw, height: H - 6 }));\n"
	"      g.appendChild(svgEl('text', { x: LW + bw + 6, y: y + 14 }, b.text));\n"
	"      svg.appendChild(g);\n"
	"    });\n"
	"  }\n"
	"  var rateBars = [];\n"
	"  cps.forEach(function (cp) {\n"
	"    cp.order.forEach(function (type) {\n"
	"      var t = cp.types[type], r = t.total ? t.pass / t.total : 0;\n"
	"      rateBars.push({ label: cp.name + ' \\u00b7 ' + type, value: r, raw: r.toFixed(4),\n"
	"        text: pct(t.pass, t.total) + ' (' + t.pass + '/' + t.total + ')',\n"
	"        cls: t.pass === t.total ? '' : r >= 0.5 ? 'mid' : 'low' });\n"
	"    });\n"
	"  });\n"
	"  bars($('chart-rate'), rateBars);\n"
	"  // a histogram as bars: `n` bins of [lo, hi), the last one closed\n"
	"  function histogram(values, lo, hi, n, digits, unit) {\n"
	"    var counts = [], list = [], most = 0, i;\n"
	"    for (i = 0; i < n; i++) counts.push(0);\n"
	"    values.forEach(function (v) {\n"
	"      var k = hi > lo ? Math.floor((v - lo) / (hi - lo) * n) : 0;\n"
	"      counts[Math.max(0, Math.min(n - 1, k))]++;\n"
	"    });\n"
	"    counts.forEach(function (c) { if (c > most) most = c; });\n"
	"    counts.forEach(function (c, i) {\n"
	"      var a = lo + (hi - lo) * i / n, b = lo + (hi - lo) * (i + 1) / n;\n"
	"      list.push({ label: a.toFixed(digits) + '\\u2013' + b.toFixed(digits) + unit,\n"
	"        value: most ? c / most : 0, raw: c, text: c + (c === 1 ? ' case' : ' cases'),\n"
	"        cls: 'hist' });\n"
	"    });\n"
	"    return list;\n"
	"  }\n"
	"  var durations = cases.map(function (c) { return c[DU] > 0 ? c[DU] : 0; });\n"
	"  var longest = durations.reduce(function (m, d) { return d > m ? d : m; }, 0);\n"
	"  var dscale = longest > 0 ? Math.pow(10, Math.ceil(Math.log(longest) / Math.LN10)) : 1;\n"
	"  var dtop = [0.1, 0.2, 0.25, 0.5, 1].map(function (f) { return f * dscale; })\n"
	"    .filter(function (x) { return x >= longest; })[0] || dscale;\n"
	"  // as many decimals as the bin edges need (0.025 s bins: 3), at most 4\n"
	"  var ddig = 0;\n"
	"  while (ddig < 4 && Math.abs(Math.round(dtop / 10 * Math.pow(10, ddig)) - dtop / 10 * Math.pow(10, ddig)) > 1e-6) ddig++;\n"
	"  bars($('chart-duration'), histogram(durations, 0, dtop, 10, ddig, ' s'));\n"
	"  cases.map(function (c, i) { return i; })\n"
	"    .sort(function (a, b) { return cases[b][DU] - cases[a][DU]; })\n"
	"    .slice(0, 5)\n"
	"    .forEach(function (i) {\n"
	"      var c = cases[i], li = el('li');\n"
	"      li.setAttribute('data-case', c[CP] + '/' + c[GR] + '/' + c[ID]);\n"
	"      li.appendChild(el('code', null, c[CP] + '/' + c[GR] + '/' + c[ID]));\n"
	"      li.appendChild(document.createTextNode(' ' + c[DU].toFixed(3) + ' s'));\n"
	"      $('slowest').appendChild(li);\n"
	"    });\n"
	"  bars($('chart-score'), histogram(cases.map(function (c) { return c[SC]; }), 0, 1, 10, 1, ''));\n"
	"\n"
	"  var fStatus = $('f-status'), fGroup = $('f-group'), fText = $('f-text');\n"
	"  groups.forEach(function (g) {\n"
	"    var o = el('option', null, g.key);\n"
	"    o.value = g.key;\n"
	"    fGroup.appendChild(o);\n"
	"  });\n"
	"  var shown = [], page = 0;\n"
	"  function keep(c) {\n"
	"    var s = fStatus.value, g = fGroup.value, q = fText.value.toLowerCase();\n"
	"    if (s === 'notpass' ? c[ST] === 'pass' : s !== 'all' && c[ST] !== s) return false;\n"
	"    if (g && c[CP] + '/' + c[GR] !== g) return false;\n"
	"    if (q && (c[CP] + '/' + c[GR] + '/' + c[ID]).toLowerCase().indexOf(q) < 0) return false;\n"
	"    return true;\n"
	"  }\n"
	"  function apply() {\n"
	"    shown = [];\n"
	"    for (var i = 0; i < cases.length; i++) if (keep(cases[i])) shown.push(i);\n"
	"    page = 0;\n"
	"    render();\n"
	"  }\n"
	"  function pre(label, text, whole) {\n"
	"    var d = el('div');\n"
	"    d.appendChild(el('h5', null, whole ? label + ' (cut: ' + whole + ' bytes in all)' : label));\n"
	"    d.appendChild(el('pre', null, text === null ? '' : text));\n"
	"    return d;\n"
	"  }\n"
	"  function details(c) {\n"
	"    var box = el('div', 'detail-box');\n"
	"    box.appendChild(el('h4', null, 'why'));\n"
	"    box.appendChild(el('pre', 'explain', c[EXPL] === null ? '' : c[EXPL]));\n"
	"    if (c[REPRO]) {\n"
	"      box.appendChild(el('h4', null, 'reproduce'));\n"
	"      box.appendChild(el('pre', 'repro', c[REPRO]));\n"
	"    }\n"
	"    if (c[TAIL]) {\n"
	"      box.appendChild(el('h4', null, 'stderr'));\n"
	"      box.appendChild(el('pre', 'stderr', c[TAIL]));\n"
	"    }\n"
	"    if (!c[DET]) {\n"
	"      if (info.left_out) box.appendChild(el('p', null, '(raw values left out: assay show prints them)'));\n"
	"      return box;\n"
	"    }\n"
	"    if (!c[DET].length) return box;\n"
	"    var raw = el('details', 'raw');\n"
	"    raw.appendChild(el('summary', null, 'raw expected, actual and diff'));\n"
	"    c[DET].forEach(function (a) {\n"
	"      var at = el('div', 'attr');\n"
	"      at.appendChild(el('b', null, a[0] + ' (weight ' + a[1] + ')'));\n"
	"      var side = el('div', 'side');\n"
	"      side.appendChild(pre('expected', a[2], a[5][0]));\n"
	"      side.appendChild(pre('actual', a[3], a[5][1]));\n"
	"      side.appendChild(pre('diff', a[4], a[5][2]));\n"
	"      at.appendChild(side);\n"
	"      raw.appendChild(at);\n"
	"    });\n"
	"    box.appendChild(raw);\n"
	"    return box;\n"
	"  }\n"
	"  function row(c) {\n"
	"    var tr = el('tr');\n"
	"    tr.appendChild(el('td', c[ST] + ' st', c[ST]));\n"
	"    tr.appendChild(el('td', 'name', c[CP] + '/' + c[GR] + '/' + c[ID]));\n"
	"    tr.appendChild(el('td', null, c[TY]));\n"
	"    tr.appendChild(el('td', 'n', c[SC].toFixed(3)));\n"
	"    tr.appendChild(el('td', 'n', c[DU].toFixed(3)));\n"
	"    tr.appendChild(el('td', null, c[WHY] === null ? '' : c[WHY]));\n"
	"    if (c[ST] === 'pass') tr.className = 'pass-row';\n"
	"    if (c[ST] !== 'pass') {\n"
	"      tr.className = 'expandable';\n"
	"      tr.title = 'click to show why, the reproduce line and stderr';\n"
	"      tr.addEventListener('click', function () {\n"
	"        var next = tr.nextSibling;\n"
	"        if (next && next.classList.contains('detail')) {\n"
	"          next.parentNode.removeChild(next);\n"
	"          tr.classList.remove('open');\n"
	"          return;\n"
	"        }\n"
	"        var dr = el('tr', 'detail'), td = el('td');\n"
	"        td.colSpan = 6;\n"
	"        td.appendChild(details(c));\n"
	"        dr.appendChild(td);\n"
	"        tr.parentNode.insertBefore(dr, tr.nextSibling);\n"
	"        tr.classList.add('open');\n"
	"      });\n"
	"    }\n"
	"    return tr;\n"
	"  }\n"
	"  function render() {\n"
	"    var body = $('rows'), pages = Math.max(1, Math.ceil(shown.length / PAGE));\n"
	"    if (page >= pages) page = pages - 1;\n"
	"    body.textContent = '';\n"
	"    var frag = document.createDocumentFragment();\n"
	"    for (var i = page * PAGE; i < Math.min(shown.length, (page + 1) * PAGE); i++)\n"
	"      frag.appendChild(row(cases[shown[i]]));\n"
	"    body.appendChild(frag);\n"
	"    $('shown').textContent = shown.length;\n"
	"    $('page').textContent = (page + 1) + ' / ' + pages;\n"
	"  }\n"
	"  $('prev').addEventListener('click', function () { if (page > 0) { page--; render(); } });\n"
	"  $('next').addEventListener('click', function () { page++; render(); });\n"
	"  fStatus.addEventListener('change', apply);\n"
	"  fGroup.addEventListener('change', apply);\n"
	"  fText.addEventListener('input', apply);\n"
	"  var params = new URLSearchParams(location.search);\n"
	"  if (params.get('status')) fStatus.value = params.get('status');\n"
	"  if (params.get('group') !== null) fGroup.value = params.get('group');\n"
	"  if (params.get('q')) fText.value = params.get('q');\n"
	"  apply();\n"
	"  document.body.setAttribute('data-ready', 'yes');\n"
	"})();\n";

struct html {
	size_t cases;
	uint64_t detail_bytes;
	size_t left_out;
	assay_buf b;
	char *suite;
};

/* JSON text of `v` with every '<' escaped, so that it cannot close its <script>. */
static void json_out(struct assay_renderer *r, const assay_value *v)
{
	struct html *h = r->state;
	size_t run = 0;

	assay_buf_reset(&h->b);
	assay_json_write(&h->b, v, 0);
	for (size_t i = 0; i < h->b.len; i++) {
		if (h->b.ptr[i] != '<')
			continue;
		assay_report__out_add(&r->out, h->b.ptr + run, i - run);
		assay_report__out_adds(&r->out, "\\u003c");
		run = i + 1;
	}
	assay_report__out_add(&r->out, h->b.ptr + run, h->b.len - run);
}

/* The text of one value, cut at text_cap; its whole size into *whole when cut. */
static assay_value text_of(assay_renderer *r, assay_arena *a, const assay_value *v, size_t *whole)
{
	assay_buf t = ASSAY_BUF_INIT;
	assay_value s;

	if (!v || v->kind == ASSAY_V_NULL) {
		*whole = 0;
		return assay_value_null();
	}
	*whole = assay_report__text(&t, v, r->o.text_cap, true);
	s = assay_value_string(a, t.ptr ? t.ptr : "", t.len);
	assay_buf_release(&t);
	return s;
}

/* [[attribute, weight, expected, actual, diff, [cut sizes]], ...] of the attributes that are
 * not correct, or null when over the details budget. */
static assay_value details(assay_renderer *r, assay_arena *a, const struct assay_report__case *c)
{
	struct html *h = r->state;
	assay_value list = assay_value_array();
	size_t bytes = 0;

	for (uint32_t i = 0; c->results && i < c->results->len; i++) {
		const assay_member *m = &c->results->u.members[i];
		const assay_value *ok = assay_object_get(&m->value, "is_correct");
		const assay_value *w = assay_object_get(&m->value, "weight");
		static const char *const fields[] = { "expected", "actual", "diff" };
		assay_value item = assay_value_array(), cut = assay_value_array();

		if (!ok || ok->kind != ASSAY_V_BOOL || ok->u.b)
			continue;
		assay_array_push(a, &item, m->key);
		assay_array_push(a, &item, assay_value_is_number(w) ? *w : assay_value_int(0));
		for (int f = 0; f < 3; f++) {
			size_t whole;
			assay_value t = text_of(r, a, assay_object_get(&m->value, fields[f]), &whole);

			bytes += t.kind == ASSAY_V_STRING ? t.len : 4;
			assay_array_push(a, &item, t);
			assay_array_push(a, &cut, assay_value_int((int64_t)whole));
		}
		assay_array_push(a, &item, cut);
		assay_array_push(a, &list, item);
	}
	if (h->detail_bytes + bytes > r->o.html_detail_bytes) {
		h->left_out++;
		return assay_value_null();
	}
	h->detail_bytes += bytes;
	return list;
}

/* A string value of `len` bytes, invalid UTF-8 replaced. */
static assay_value utf8(assay_arena *a, const char *s, size_t len)
{
	size_t n;
	const char *clean = assay_report__utf8_clean(a, s, len, &n);

	return assay_value_string(a, clean, n);
}

static int html_case(struct assay_renderer *r, const struct assay_report__case *c, assay_err *err)
{
	struct html *h = r->state;
	assay_arena *a = assay_arena_new(0);
	assay_value row = assay_value_array();

	(void)err;
	assay_array_push(a, &row, assay_value_strz(a, c->checkpoint));
	assay_array_push(a, &row, assay_value_strz(a, c->group));
	assay_array_push(a, &row, assay_value_strz(a, c->type));
	assay_array_push(a, &row, assay_value_strz(a, c->id));
	assay_array_push(a, &row, assay_value_strz(a, assay_report__outcome_name(c->outcome)));
	assay_array_push(a, &row, assay_value_real(c->score));
	assay_array_push(a, &row, assay_value_real(c->duration));
	if (c->outcome == ASSAY_OUTCOME_PASS) {
		for (int i = 0; i < 5; i++)
			assay_array_push(a, &row, assay_value_null());
	} else {
		/* the terminal's words (explain.c); the raw values one click away */
		assay_buf why = ASSAY_BUF_INIT, tail = ASSAY_BUF_INIT, repro = ASSAY_BUF_INIT;

		assay_report__first_line(&why, c);
		assay_array_push(a, &row, utf8(a, why.ptr, why.len));
		assay_array_push(a, &row, details(r, a, c));
		assay_buf_reset(&why);
		assay_report__explain(&why, &tail, c);
		/* the words and the stderr tail count against the details' budget too: past it a
		 * case keeps its first line */
		if (h->detail_bytes + why.len + tail.len > r->o.html_detail_bytes) {
			assay_buf_reset(&why), assay_buf_reset(&tail);
			assay_report__first_line(&why, c);
		} else {
			h->detail_bytes += why.len + tail.len;
		}
		assay_array_push(a, &row, utf8(a, why.ptr, why.len));
		assay_array_push(a, &row, tail.len ? utf8(a, tail.ptr, tail.len)
						   : assay_value_null());
		assay_report__repro(&repro, r->run_arena ? &r->run : NULL, c);
		assay_array_push(a, &row, repro.len ? utf8(a, repro.ptr, repro.len)
						    : assay_value_null());
		assay_buf_release(&why), assay_buf_release(&tail), assay_buf_release(&repro);
	}
	assay_report__out_adds(&r->out, h->cases++ ? ",\n" : "\n");
	json_out(r, &row);
	assay_arena_free(a);
	return 0;
}

static int html_begin(struct assay_renderer *r, const assay_value *run, size_t total,
		      assay_err *err)
{
	struct html *h = r->state;

	(void)total, (void)err;
	h->b = (assay_buf)ASSAY_BUF_INIT;
	h->suite = assay_xstrdup(assay_report__suite(run));
	assay_report__out_add(&r->out, head, sizeof(head) - 1);
	assay_report__out_adds(&r->out, "<script type=\"application/json\" id=\"assay-cases\">[");
	return 0;
}

static int html_end(struct assay_renderer *r, const assay_value *summary, assay_err *err)
{
	struct html *h = r->state;
	assay_arena *a = assay_arena_new(0);
	assay_value info = assay_value_object();
	const assay_value *interrupted = assay_object_get(summary, "interrupted");

	(void)err;
	assay_object_set(a, &info, "suite", assay_value_strz(a, h->suite));
	assay_object_set(a, &info, "ended", assay_value_bool(summary != NULL));
	assay_object_set(a, &info, "interrupted",
			 assay_value_bool(interrupted && interrupted->kind == ASSAY_V_BOOL &&
					  interrupted->u.b));
	assay_object_set(a, &info, "left_out", assay_value_int((int64_t)h->left_out));
	assay_object_set(a, &info, "unrun", assay_value_int(assay_report__unrun(summary)));
	assay_report__out_adds(&r->out, "\n]</script>\n<script type=\"application/json\" "
					"id=\"assay-info\">");
	json_out(r, &info);
	assay_report__out_adds(&r->out, "</script>\n<script>\n");
	assay_report__out_add(&r->out, script, sizeof(script) - 1);
	assay_report__out_adds(&r->out, "</script>\n</body>\n</html>\n");
	assay_arena_free(a);
	return 0;
}

static void html_release(struct assay_renderer *r)
{
	struct html *h = r->state;

	assay_buf_release(&h->b);
	free(h->suite);
}

const struct assay_report__format assay_report__html = {
	"html", "report.html", false, sizeof(struct html), html_begin, html_case, html_end,
	html_release,
};
