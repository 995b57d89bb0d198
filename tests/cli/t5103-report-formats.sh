#!/usr/bin/env bash
# Report formats (issue #9 item 3): written during a run with --format and later by
# `assay report` from the store, byte for byte the same; JUnit valid against the Ant JUnit
# schema (xmllint) with failures and errors apart, outputs cut, and under its size limit; TAP 14
# with YAML diagnostics that parse; Markdown; HTML that loads in headless Chromium without a
# console error and shows the right counts; reports.parquet with SlopCodeBench's columns, read
# back by DuckDB. Each check that needs a tool (xmllint, chromium, python3-yaml, node) says
# "skipped" in its output when the tool is missing.
. "$(dirname "$0")/lib.sh"

XSD="$FIXTURES/junit/JUnit.xsd"

# Each test in a folder of its own.
fresh() {
	cd "$(mktemp -d -p "$TMP")"
}
ALL="--format json --format junit --format tap --format markdown --format html --format parquet"

# run_failing: the failing fixture suite into res/, every format written during the run.
run_failing() {
	run_assay run "$FIXTURES/suites/failing" -o res $ALL --format jsonl:res/copy.jsonl "$@"
	expect_exit 1
}

test_case 'every format written during a run equals the one assay report makes from the store' '
	fresh
	run_failing
	for f in json:reports.json junit:junit.xml tap:report.tap markdown:summary.md \
		 html:report.html parquet:reports.parquet; do
		run_assay report res --format "${f%%:*}" -o again; expect_exit 0
		cmp "res/${f#*:}" again
	done
	run_assay report res --format jsonl; expect_exit 0
	cmp out res/reports.jsonl
	cmp res/copy.jsonl res/reports.jsonl'

test_case 'json is an array of the report lines' '
	fresh
	run_failing
	jq -e "length == 13 and (map(.id) | sort) == (map(.id) | unique)" res/reports.json
	[ "$(jq -c ".[]" res/reports.json)" = "$(jq -c . res/reports.jsonl)" ]'

test_case 'junit: valid against the schema, failures apart from errors' '
	fresh
	require_cmd xmllint
	run_failing
	xmllint --noout --schema "$XSD" res/junit.xml
	xmllint --xpath "string(//testsuite[@name=\"checkpoint_1.core\"]/@failures)" res/junit.xml > f
	xmllint --xpath "string(//testsuite[@name=\"checkpoint_1.core\"]/@errors)" res/junit.xml > e
	[ "$(cat f)/$(cat e)" = 5/2 ]
	[ "$(xmllint --xpath "string(//testsuite[@name=\"checkpoint_1.broken\"]/@errors)" res/junit.xml)" = 4 ]
	[ "$(xmllint --xpath "string(//testcase[@name=\"timeout\"]/error/@type)" res/junit.xml)" = timed_out ]
	[ "$(xmllint --xpath "string(//testcase[@name=\"killed\"]/error/@type)" res/junit.xml)" = signaled ]
	[ "$(xmllint --xpath "count(//testcase)" res/junit.xml)" = 13 ]
	[ "$(xmllint --xpath "count(//testcase[not(*)])" res/junit.xml)" = 2 ]'

# A suite whose cases print awkward things: markup, control characters, bytes that are not
# UTF-8, 100 KB of output, and an id with XML and TAP specials.
make_nasty() {
	mkdir -p n/c/g
	printf "name: \"n<&>\"\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > n/suite.yaml
	cat > "n/c/g/a<b>&#1.yaml" <<-\YAML
	arguments: ["printf %s '</script><b>x</b>'; printf '\\001\\377\\033[2J'"]
	expected: {output: no}
	YAML
	cat > n/c/g/big.yaml <<-\YAML
	arguments: ["head -c 102400 /dev/zero | tr '\\0' x; echo oops >&2"]
	expected: {output: no}
	YAML
	cat > n/c/g/fine.yaml <<-\YAML
	arguments: ["echo ok"]
	expected: {output: "ok\n"}
	YAML
}

test_case 'junit: hostile text stays valid XML, outputs cut at --text-cap and say how long' '
	fresh
	require_cmd xmllint
	make_nasty
	run_assay run n -o res --format junit --text-cap 1K; expect_exit 1
	xmllint --noout --schema "$XSD" res/junit.xml
	expect_grep "\\[cut: 102400 bytes in all\\]" res/junit.xml
	[ "$(wc -c < res/junit.xml)" -lt 12000 ]
	xmllint --xpath "string(//system-err)" res/junit.xml | grep -q oops
	[ "$(xmllint --xpath "string(//testcase[1]/@name)" res/junit.xml)" = "a<b>&#1" ]'

test_case 'junit: the file stays under its size limit, every case keeps its testcase' '
	fresh
	require_cmd xmllint
	mkdir -p m/c/g
	printf "name: m\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > m/suite.yaml
	for i in $(seq 1 40); do
		printf "arguments: [\"yes y | head -c 20000\"]\nexpected: {output: no}\n" > m/c/g/c$i.yaml
	done
	run_assay run m -o res -q; expect_exit 1
	run_assay report res --format junit --junit-max-bytes 60K --text-cap 16K -o j.xml
	expect_exit 0
	[ "$(wc -c < j.xml)" -lt 61440 ]
	xmllint --noout --schema "$XSD" j.xml
	[ "$(xmllint --xpath "count(//testcase/failure)" j.xml)" = 40 ]
	expect_grep "details left out: the report reached its size limit" j.xml
	run_assay report res --format junit --text-cap 16K -o whole.xml; expect_exit 0
	! grep -q "details left out" whole.xml'

test_case 'tap: version 14, a test point per case, the plan, YAML diagnostics that parse' '
	fresh
	run_failing
	[ "$(head -1 res/report.tap)" = "TAP version 14" ]
	expect_grep "^1\\.\\.13$" res/report.tap
	[ "$(grep -c "^not ok " res/report.tap)" = 11 ]
	[ "$(grep -c "^ok " res/report.tap)" = 2 ]
	python3 -c "import yaml" 2>/dev/null || skip "python3-yaml is not installed"
	python3 - res/report.tap <<-PY
	import sys, yaml
	blocks, cur = [], None
	for line in open(sys.argv[1], encoding="utf-8"):
	    if line == "  ---\n": cur = []
	    elif line == "  ...\n": blocks.append(yaml.safe_load("".join(cur))); cur = None
	    elif cur is not None: assert line.startswith("  "), line; cur.append(line[2:])
	assert len(blocks) == 11, len(blocks)
	sev = sorted(b["severity"] for b in blocks)
	assert sev.count("error") == 6 and sev.count("fail") == 5, sev
	wo = [b for b in blocks if b["at"]["id"] == "wrong-output"][0]
	assert wo["attributes"]["output"]["expect"] == "a\\nb\\nc\\n", wo
	assert wo["attributes"]["output"]["got"] == "a\\nB\\nc\\n", wo
	PY'

test_case 'tap: descriptions escape # and \, control characters never end a line' '
	fresh
	make_nasty
	run_assay run n -o res --format tap; expect_exit 1
	expect_grep "^not ok 1 - c/g/a<b>&\\\\#1$" res/report.tap
	[ "$(grep -c "^\\(not \\)\\?ok " res/report.tap)" = 3 ]
	python3 -c "import yaml" 2>/dev/null || exit 0
	python3 - res/report.tap <<-PY
	import sys, yaml
	text = open(sys.argv[1], encoding="utf-8").read()
	body = text.split("  ---\n")[1].split("  ...\n")[0]
	d = yaml.safe_load("".join(l[2:] + "\n" for l in body.splitlines()))
	assert "</script>" in d["attributes"]["output"]["got"], d
	PY'

test_case 'markdown: verdict, tables by type and group, failing cases with their diffs' '
	fresh
	run_failing
	expect_grep "^## assay: failing — 11 of 13 cases did not pass$" res/summary.md
	expect_grep "^\\| checkpoint_1 \\| Core \\| 1 \\| 5 \\| 2 \\| 8 \\| 12.5% \\|" res/summary.md
	expect_grep "^\\| checkpoint_1 \\| broken \\| Functionality \\| 1 \\| 0 \\| 4 \\| 5 \\|" res/summary.md
	expect_grep "❌ .core-cases." res/summary.md
	expect_grep "✅ .any-core-cases." res/summary.md
	[ "$(grep -c "^<details>" res/summary.md)" = 11 ]
	expect_grep "</code> error: " res/summary.md
	! grep -q "error: error:" res/summary.md || false'

# PATTERN is found in FILE (markdown) only inside fenced code blocks, where it is text.
only_in_fences() {
	awk -v pat="$1" '/^```/ { inside = !inside; next } index($0, pat) && !inside { bad = 1 } END { exit bad }' "$2"
}

test_case 'markdown: under 1 MiB, markup a program printed stays text' '
	fresh
	make_nasty
	run_assay run n -o res --format markdown --text-cap 64K; expect_exit 1
	[ "$(wc -c < res/summary.md)" -lt 1048576 ]
	only_in_fences "<b>x</b>" res/summary.md
	expect_grep "&lt;/script&gt;|</script><b>" res/summary.md'

test_case 'html: loads in Chromium without console errors and shows the right counts' '
	fresh
	require_cmd chromium
	run_failing
	dom() { timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr \
		--v=0 --user-data-dir="$TMP/chrome" --dump-dom "file://$PWD/res/report.html$1" 2>chrome.err; }
	dom "" > dom.html
	! grep -E "CONSOLE.*(Uncaught|Error|error)" chrome.err || false
	grep -q "data-ready=\"yes\"" dom.html
	for pair in total:13 passed:2 failed:5 errors:6 shown:13; do
		grep -q "id=\"${pair%%:*}\">${pair#*:}<" dom.html || { echo "no $pair"; exit 1; }
	done
	dom "?status=error" > err.html
	grep -q "id=\"shown\">6<" err.html
	dom "?group=checkpoint_1/broken&status=notpass" > grp.html
	grep -q "id=\"shown\">4<" grp.html'

test_case 'html: what a program printed is never markup' '
	fresh
	require_cmd chromium
	make_nasty
	run_assay run n -o res --format html; expect_exit 1
	! grep -q "</script><b>" res/report.html || false
	timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--user-data-dir="$TMP/chrome" --dump-dom "file://$PWD/res/report.html" > dom.html 2>chrome.err
	! grep -q "<b>x</b>" dom.html || false
	grep -q "id=\"total\">3<" dom.html'

test_case 'parquet: SlopCodeBench columns, read back by DuckDB' '
	fresh
	NODE_PATH="${ASSAY_TEST_NODE_DIR:-/usr/local/lib/assay-test-node}/node_modules"
	[ -d "$NODE_PATH/@duckdb/node-api" ] || skip "no @duckdb/node-api (scripts/install-deps.sh --tests installs it)"
	export NODE_PATH
	run_failing
	q() { node "$ASSAY_SRC/tests/report/query.mjs" res/reports.parquet "$1"; }
	q "SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet(FILE))" | tr -d "[]\"" | paste -sd, > cols
	[ "$(cat cols)" = problem,checkpoint,version,problem_version,id,group,type,timestamp,duration,results,case,original_checkpoint,original_group ]
	q "SELECT count(*), count(DISTINCT id), min(problem) FROM read_parquet(FILE)" > n
	[ "$(cat n)" = "[\"13\",\"13\",\"failing\"]" ] || [ "$(cat n)" = "[13,13,\"failing\"]" ]
	q "SELECT r.actual, r.expected, r.is_correct FROM (SELECT unnest(results) AS r FROM read_parquet(FILE) WHERE id = '"'"'wrong-output'"'"') WHERE r.attribute = '"'"'output'"'"'" > wo
	[ "$(cat wo)" = "[\"a\\nB\\nc\\n\",\"a\\nb\\nc\\n\",false]" ]'

test_case 'a failure shows its diff before the expected and actual values (junit, tap, markdown)' '
	fresh
	run_failing
	first() { grep -n -m1 -E "$1" "$2" | cut -d: -f1; }
	for f in res/junit.xml res/report.tap res/summary.md; do
		d=$(first "^(  +)?(\*\*)?diff(\*\*)?:" $f); e=$(first "^(  +)?(\*\*)?(expected|expect)(\*\*)?:" $f)
		[ -n "$d" ] && [ -n "$e" ] && [ "$d" -lt "$e" ] || { echo "$f: diff at line $d, expected at $e"; exit 1; }
	done'

test_done
