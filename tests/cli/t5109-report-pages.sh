#!/usr/bin/env bash
# The HTML report and the compare page in headless Chromium (issue #21 item 2), read from the DOM
# (no screenshot): examples/jq-1.6 run with a jq that corrupts four programs' answers (six cases
# fail), and with the real jq. The pages load without an error, the charts have the right bars
# with the right labels, filtering and opening a case work; on the compare page the flips come
# first and open to A's and B's actual values side by side. What a program printed never becomes
# markup on the compare page either. tests/report/cdp.mjs drives Chromium (DevTools protocol).
# And item 1: every report says why a case failed in the terminal's words, with the last lines
# of stderr and a reproduce line.
. "$(dirname "$0")/lib.sh"

require_cmd jq
CDP="$ASSAY_SRC/tests/report/cdp.mjs"

# page URL CHECKS: the checks' JSON in page.json; fails on any error the page raised
page() {
	require_cmd chromium node
	node "$CDP" "$1" "$2" > page.json 2> page.err || { cat page.err; return 1; }
}

cat > report-checks.js <<'EOF'
(async () => {
  const $ = (id) => document.getElementById(id);
  const bars = (id) => [...document.querySelectorAll('#' + id + ' g.bar')].map((g) => ({
    label: g.getAttribute('data-label'), value: Number(g.getAttribute('data-value')),
    rects: g.querySelectorAll('rect').length, text: g.textContent }));
  const out = {
    ready: document.body.getAttribute('data-ready'),
    total: $('total').textContent,
    rate: bars('chart-rate'), duration: bars('chart-duration'), score: bars('chart-score'),
    slowest: [...document.querySelectorAll('#slowest li')].map((li) => li.getAttribute('data-case')),
  };
  // filtering, as a person does it: the status select, then the name box
  $('f-status').value = 'notpass';
  $('f-status').dispatchEvent(new Event('change'));
  out.notpass = $('shown').textContent;
  out.notpass_rows = [...document.querySelectorAll('#rows tr.expandable')].length;
  out.notpass_titles = [...document.querySelectorAll('#rows tr')].every((tr) => tr.title);
  $('f-text').value = 'l0105';
  $('f-text').dispatchEvent(new Event('input'));
  out.named = $('shown').textContent;
  // opening a case: a click on its row
  const row = document.querySelector('#rows tr.expandable');
  out.row = row.querySelector('td.name').textContent;
  out.marker = getComputedStyle(row.querySelector('td.st'), '::before').content;
  row.click();
  const det = document.querySelector('#rows tr.detail');
  out.opened = !!det && row.classList.contains('open');
  out.explain = det && det.querySelector('pre.explain').textContent;
  out.repro = det && det.querySelector('pre.repro') && det.querySelector('pre.repro').textContent;
  out.raw = det && det.querySelector('details.raw summary') && det.querySelector('details.raw summary').textContent;
  row.click();
  out.closed = !document.querySelector('#rows tr.detail');
  return out;
})()
EOF

cat > compare-checks.js <<'EOF'
(async () => {
  const $ = (id) => document.getElementById(id);
  const out = {
    ready: document.body.getAttribute('data-ready'),
    verdict: $('verdict').textContent,
    first_h2: document.querySelector('main h2').textContent,
    failing: [...document.querySelectorAll('#flips-failing tr.flip')].map((tr) => tr.getAttribute('data-case')),
    failing_why: [...document.querySelectorAll('#flips-failing tr.flip')].map((tr) => tr.lastChild.textContent),
    passing: [...document.querySelectorAll('#flips-passing tr.flip')].length,
    groups: [...document.querySelectorAll('#chart-groups g.bar')].map((g) => ({
      label: g.getAttribute('data-label'), value: Number(g.getAttribute('data-value')),
      rects: g.querySelectorAll('rect').length })),
    measures: [...document.querySelectorAll('#stats tr.measure')].map((tr) => ({
      name: tr.getAttribute('data-measure'), cells: [...tr.children].map((td) => td.textContent),
      interval: tr.querySelectorAll('svg line.ci').length })),
    mcnemar: $('mcnemar').textContent,
    sign: $('sign').textContent,
  };
  const row = document.querySelector('#flips-failing tr.flip');
  if (row) {
    row.click();
    const det = row.nextSibling;
    out.opened = det && det.classList.contains('detail') ? [...det.querySelectorAll('.side h5')].map((h) => h.textContent) : null;
    out.values = det ? [...det.querySelectorAll('.side pre')].map((p) => p.textContent) : null;
  }
  out.img = document.querySelectorAll('img').length;
  out.pwned = window.pwned === undefined ? null : window.pwned;
  return out;
})()
EOF

run_assay run "$ASSAY_SRC/examples/jq-1.6" -o bad --entry "$FIXTURES/bad-jq/jq" --format html -q
bad_code=$code
run_assay run "$ASSAY_SRC/examples/jq-1.6" -o good -q
good_code=$code

test_case 'the report of a run with six failures: charts, slowest cases, filtering, opening a case' '
	[ "$bad_code" = 1 ]
	page "file://$PWD/bad/report.html" report-checks.js
	jq -e ".ready == \"yes\" and .total == \"350\"" page.json
	# pass rate per checkpoint and group type: a bar each, labelled, at the rate of reports.jsonl
	jq -s -c "group_by(.type) | map({\"label\": (\"checkpoint_1 \u00b7 \" + .[0].type),
		value: ((map(select(.case.passed)) | length) / length * 10000 | round / 10000), rects: 2})
		| sort_by(.[\"label\"])" bad/reports.jsonl > want-rate
	jq -c ".rate | map({\"label\": .[\"label\"], value, rects}) | sort_by(.[\"label\"])" page.json > got-rate
	test_cmp want-rate got-rate
	# durations and scores: ten bins each, every case in one
	jq -e ".duration | length == 10 and (map(.value) | add) == 350" page.json
	# the bins are even and labelled with the digits their edges need (0.025 s, not 0.03)
	jq -r ".duration[][\"label\"]" page.json | sed "s/ s\$//; s/\xe2\x80\x93/ /" |
		awk "NR == 1 { w = \$2 - \$1 } { if ((\$2 - \$1) - w > 1e-9 || w - (\$2 - \$1) > 1e-9 || (NR > 1 && \$1 != last)) bad = 1; last = \$2 }
		     END { exit bad }"
	jq -e ".score | length == 10 and .[0][\"label\"] == \"0.0\u20130.1\" and .[0].value == 6 and .[9][\"label\"] == \"0.9\u20131.0\" and .[9].value == 344" page.json
	# the slowest cases, named, slowest first
	jq -s -r "sort_by(-.duration) | .[0] | .case.checkpoint + \"/\" + .group + \"/\" + .id" bad/reports.jsonl > want-slow
	jq -r ".slowest | length == 5, .[0]" page.json > got-slow
	printf "true\n%s\n" "$(cat want-slow)" | test_cmp - got-slow
	# filtering by status, then by name; a row that opens says so
	jq -e ".notpass == \"6\" and .notpass_rows == 6 and .notpass_titles and .named == \"1\"" page.json
	jq -e ".marker | test(\"\u25b8\")" page.json
	# opening: why in the terminal words, the reproduce line, the raw values one click away
	jq -e ".row == \"checkpoint_1/core/jq-l0105\" and .opened and .closed" page.json
	jq -e ".explain == \"output: root[0][\u0027e\u0027]: expected 2, got 3\"" page.json
	jq -e ".repro | test(\"^assay run-case .*/examples/jq-1.6 --case checkpoint_1/core/jq-l0105 --entry .*/bad-jq/jq$\")" page.json
	jq -e ".raw | test(\"raw\")" page.json'

test_case 'assay compare --format html: flips first, deltas per group, statistics, side by side' '
	[ "$bad_code" = 1 ] && [ "$good_code" = 0 ]
	run_assay compare good bad --format html -o cmp.html; expect_exit 1
	expect_grep "wrote cmp.html" err
	! grep -q -E "(src|href)=\"(https?:)?//" cmp.html || false
	page "file://$PWD/cmp.html" compare-checks.js
	jq -e ".ready == \"yes\" and (.verdict | test(\"^B is significantly worse than A\")) and .first_h2 == \"Flips\"" page.json
	jq -s -c "map(select(.case.passed | not) | .case.checkpoint + \"/\" + .group + \"/\" + .id)" bad/reports.jsonl > want-flips
	jq -c ".failing" page.json > got-flips
	test_cmp want-flips got-flips
	jq -e ".passing == 0 and (.failing_why | index(\"output: root[0][\u0027e\u0027]: expected 2, got 3\") != null)" page.json
	# a bar per group, its value the change of pass rate, from the runs themselves
	jq -s -c "group_by(.group) | map({\"label\": (\"checkpoint_1/\" + .[0].group),
		value: (((map(select(.case.passed)) | length) - length) / length * 10000 | round / 10000),
		rects: 1}) | sort_by(.[\"label\"])" bad/reports.jsonl > want-groups
	jq -c ".groups | sort_by(.[\"label\"])" page.json > got-groups
	test_cmp want-groups got-groups
	# the statistics with their intervals, as the text output has them
	jq -e "[.measures[].name] == [\"pass_rate\", \"score\", \"time\", \"max_rss\"] and all(.measures[]; .interval == 1)" page.json
	jq -e ".measures[0].cells[1:5] == [\"100.0%\", \"98.3%\", \"-1.7%\", \"[-3.1%, -0.6%]\"]" page.json
	run_assay compare good bad; expect_exit 1
	expect_grep "^pass rate +100.0% +98.3% +-1.7% +\[-3.1%, -0.6%\]$" out
	jq -e ".mcnemar | test(\"6 pass.fail, 0 fail.pass; p\\\\(B worse\\\\) = 0.01563\")" page.json
	jq -e ".sign | test(\"6 fell, 0 rose\")" page.json
	# the first flip opened: expected, then A and B side by side
	jq -e ".opened == [\"expected\", \"actual in A\", \"actual in B\"]" page.json
	# (A passed: its actual value is the expected one; B'"'"'s is not)
	jq -e ".values | length == 3 and .[0] == .[1] and .[1] != .[2]" page.json'

test_case 'compare page: no verdict from too few pairs, and says so' '
	head -5 good/reports.jsonl > a.jsonl
	head -5 bad/reports.jsonl > b.jsonl
	run_assay compare a.jsonl b.jsonl --format html -o few.html; expect_exit 0
	page "file://$PWD/few.html" compare-checks.js
	jq -e ".verdict | test(\"^No verdict: 5 paired cases, at least 10 needed\")" page.json'

test_case 'compare page: what a program printed is never markup' '
	mkdir -p n/checkpoint_1/core
	printf "name: nasty\nadapter: {type: cli, command: [\"false\"]}\ncheckpoints: {checkpoint_1: {groups: {core: {}}}}\n" > n/suite.yaml
	printf "arguments: [x]\nexpected: {output: \"ok\\\\n\"}\n" > n/checkpoint_1/core/c.yaml
	printf "echo ok\n" > ok.sh
	printf "echo \"</script><img src=x onerror=\\\\\"window.pwned=1\\\\\"><script>window.pwned=2</script>\"\n" > bad.sh
	chmod 755 ok.sh bad.sh
	run_assay run n -o ra --entry "$PWD/ok.sh"; expect_exit 0
	run_assay run n -o rb --entry "$PWD/bad.sh"; expect_exit 1
	grep -q "</script><img" rb/reports.jsonl
	run_assay compare ra rb --format html -o nasty.html; expect_exit 0
	! grep -q "</script><img" nasty.html || false
	page "file://$PWD/nasty.html" compare-checks.js
	jq -e ".img == 0 and .pwned == null" page.json
	jq -e ".values | map(select(test(\"</script><img\"))) | length == 1" page.json'

test_case 'compare --format: a wrong value, --json with html, -o without html, runs of no one suite: usage errors' '
	run_assay compare good bad --format pdf; expect_exit 2
	run_assay compare good bad --format html --json; expect_exit 2
	run_assay compare good bad -o x.html; expect_exit 2
	[ ! -e x.html ]
	# runs that share no case: refused before a page is written, as the text refuses them
	head -3 good/reports.jsonl > p.jsonl
	sed -n 4,6p bad/reports.jsonl > q.jsonl
	run_assay compare p.jsonl q.jsonl --format html -o none.html; expect_exit 2
	expect_grep "share no case" err
	[ ! -e none.html ]
	run_assay compare p.jsonl q.jsonl --format html; expect_exit 2
	[ ! -s out ]
	run_assay compare p.jsonl q.jsonl --format html --any-suite -o any.html; expect_exit 0
	[ -s any.html ]'

# A case that fails one JSON value and writes two lines to stderr; the words each report must
# hold, as that format writes them (a line of its own where the format gives it one).
mkdir -p w/checkpoint_1/core
printf 'name: words\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {checkpoint_1: {groups: {core: {}}}}\n' > w/suite.yaml
cat > w/checkpoint_1/core/fruit.yaml <<'EOF'
arguments: ['echo first-stderr-line >&2; echo last-stderr-line >&2; echo "[{\"name\": \"cherry\"}]"']
expected: {output: [{name: apple}]}
verify: {output: json}
EOF
cat > words.out <<'EOF'
    output: root[0]['name']: expected "apple", got "cherry"
EOF
cat > words.junit <<'EOF'
<failure message="output: root[0]['name']: expected &quot;apple&quot;, got &quot;cherry&quot;" type="failure">output: root[0]['name']: expected "apple", got "cherry"
EOF
cat > words.tap <<'EOF'
  message: "output: root[0]['name']: expected \"apple\", got \"cherry\""
EOF
cat > words.md <<'EOF'
output: root[0]['name']: expected "apple", got "cherry"
EOF
cat > words.html <<'EOF'
"output: root[0]['name']: expected \"apple\", got \"cherry\""
EOF

test_case 'one wording everywhere: terminal, JUnit, TAP, Markdown and HTML; stderr tail and reproduce line' '
	run_assay run w -o res --color never --format junit --format tap --format markdown --format html
	expect_exit 1
	grep -qxF -f words.out out
	grep -qF -f words.junit res/junit.xml
	grep -qxF -f words.tap res/report.tap
	grep -qxF -f words.md res/summary.md
	grep -qF -f words.html res/report.html
	for f in res/junit.xml res/report.tap res/summary.md res/report.html; do
		grep -q "last-stderr-line" $f || { echo "$f: no stderr tail"; exit 1; }
		grep -q "assay run-case .*/w --case checkpoint_1/core/fruit" $f || { echo "$f: no reproduce line"; exit 1; }
	done
	# the raw diff stays in reports.jsonl
	jq -e ".results.output.diff.values_changed" res/reports.jsonl'

test_done
