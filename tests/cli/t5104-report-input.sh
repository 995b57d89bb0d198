#!/usr/bin/env bash
# Bad input to assay report, show and compare (issue #9): a store written by a newer assay, a
# truncated reports.jsonl, a folder that is not a results folder. Each gives one clear error,
# and nothing is changed: no report file appears, an old one keeps its bytes, the store too.
. "$(dirname "$0")/lib.sh"

fresh() {
	cd "$(mktemp -d -p "$TMP")"
}

test_case 'a folder that is not a results folder: one error, no report written' '
	fresh
	mkdir empty
	run_assay report empty --format junit -o out.xml; expect_exit 2
	[ "$(wc -l < err)" = 1 ]
	expect_grep "^assay: error: empty: not a results folder \\(no assay.db\\)$" err
	[ ! -e out.xml ]
	run_assay compare empty empty; expect_exit 2
	expect_grep "not a results folder" err
	run_assay report nowhere --format tap; expect_exit 2
	expect_grep "no such results folder or reports file" err'

test_case 'a store of a newer assay: refused, the store and an old report untouched' '
	fresh
	require_cmd sqlite3
	run_assay run "$FIXTURES/suites/basic" -o res -q --checkpoint checkpoint_1; expect_exit 0
	sqlite3 res/assay.db "UPDATE meta SET value = '"'"'99'"'"' WHERE key = '"'"'schema'"'"'"
	sha256sum res/assay.db > before
	echo old > out.tap
	run_assay report res --format tap -o out.tap; expect_exit 2
	[ "$(wc -l < err)" = 1 ]
	expect_grep "written by a newer assay \\(store schema 99; this assay knows 3\\): nothing was changed" err
	[ "$(cat out.tap)" = old ]
	sha256sum -c before >/dev/null
	run_assay compare res res; expect_exit 2
	expect_grep "newer assay" err'

test_case 'a truncated reports.jsonl: the file and line named, no report written' '
	fresh
	run_assay run "$FIXTURES/suites/failing" -o res -q; expect_exit 1
	head -c -40 res/reports.jsonl > cut.jsonl
	n=$(wc -l < cut.jsonl)
	echo old > out.md
	run_assay report cut.jsonl --format markdown -o out.md; expect_exit 2
	[ "$(wc -l < err)" = 1 ]
	expect_grep "^assay: error: cut.jsonl: line $((n + 1)): truncated: the file ends in the middle of a report line" err
	[ "$(cat out.md)" = old ]
	run_assay report cut.jsonl --format jsonl; expect_exit 2
	[ ! -s out ]
	run_assay compare res/reports.jsonl cut.jsonl; expect_exit 2
	expect_grep "cut.jsonl: line $((n + 1)): truncated" err'

test_case 'a reports.jsonl line that is not a report: named with its line' '
	fresh
	run_assay run "$FIXTURES/suites/failing" -o res -q; expect_exit 1
	{ head -3 res/reports.jsonl; echo "[1, 2]"; tail -2 res/reports.jsonl; } > bad.jsonl
	run_assay report bad.jsonl --format tap; expect_exit 2
	expect_grep "^assay: error: bad.jsonl: line 4: not a report line: not a JSON object$" err
	[ ! -s out ]
	# an object, but no report: names what it lacks, for report and compare alike
	{ head -3 res/reports.jsonl; echo "{\"foo\": 1}"; } > odd.jsonl
	run_assay report odd.jsonl --format tap; expect_exit 2
	expect_grep "odd.jsonl: line 4: not a report line: no checkpoint" err
	{ head -3 res/reports.jsonl; echo "{\"checkpoint\": \"c\", \"group\": \"g\", \"id\": \"x\", \"passed\": \"yes\"}"; } > odd.jsonl
	run_assay compare res/reports.jsonl odd.jsonl; expect_exit 2
	expect_grep "odd.jsonl: line 4: not a report line: no passed" err'

test_case 'a whole reports.jsonl renders as the store does (cut values stay cut)' '
	fresh
	run_assay run "$FIXTURES/suites/failing" -o res -q; expect_exit 1
	run_assay report res/reports.jsonl --format tap -o a.tap; expect_exit 0
	run_assay report res --format tap -o b.tap; expect_exit 0
	# but for the reproduce line: a bare reports.jsonl does not record the suite folder
	expect_grep "^  reproduce: \"assay run-case SUITE --case checkpoint_1/core/json-diff\"$" a.tap
	expect_grep "^  reproduce: \"assay run-case .*/suites/failing --case checkpoint_1/core/json-diff\"$" b.tap
	sed "/^  reproduce: /d" a.tap > a2.tap
	sed "/^  reproduce: /d" b.tap > b2.tap
	cmp a2.tap b2.tap'

test_case 'a run that never ended (killed): its finished cases are rendered, and it says so' '
	fresh
	mkdir -p s/c/g
	printf "name: k\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	printf "arguments: [\"true\"]\nexpected: {status_code: 0}\n" > s/c/g/a.yaml
	printf "arguments: [\"sleep 30; : t5104-orphan-%s\"]\nexpected: {status_code: 0}\n" $$ > s/c/g/b.yaml
	"$ASSAY" run s -o res -q >/dev/null 2>&1 &
	pid=$!
	# wait for the event: case a committed to the store (batched, store.h), read as SQLite
	# readers see it
	for i in $(seq 1 200); do
		[ "$(sqlite3 res/assay.db "SELECT count(*) FROM cases" 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	[ "$(sqlite3 res/assay.db "SELECT count(*) FROM cases")" = 1 ]
	kill -KILL $pid; wait $pid || true
	pkill -KILL -f "t5104-orphan-$$" || true # only ours: other tests run in parallel
	run_assay report res --format markdown; expect_exit 0
	expect_grep "The run did not end" out
	expect_grep "the one case passed" out'

test_done
