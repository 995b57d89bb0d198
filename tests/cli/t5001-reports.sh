#!/usr/bin/env bash
# What a run writes: reports.jsonl lines and summary.json, as suite-format.md and
# verification.md name their fields.
. "$(dirname "$0")/lib.sh"

test_case 'each reports.jsonl line is a VerifierReport, its checkpoint, score and passed in case' '
	run_assay run "$FIXTURES/suites/basic" -o res --checkpoint checkpoint_1; expect_exit 0
	jq -e "keys_unsorted == [\"id\",\"group\",\"type\",\"timestamp\",\"duration\",\"results\",\"case\",\"original_checkpoint\",\"original_group\"]" res/reports.jsonl >/dev/null
	jq -e ".case | (.checkpoint == \"checkpoint_1\") and (.score | type == \"number\") and (.passed | type == \"boolean\")" res/reports.jsonl >/dev/null
	jq -e ".timestamp | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\\\.[0-9]{6}Z$\")" res/reports.jsonl >/dev/null'
test_case 'an AttributeResult has exactly its six fields' '
	run_assay run "$FIXTURES/suites/basic" -o res --case echo; expect_exit 0
	jq -e "[.results[] | keys] | unique == [[\"actual\",\"attribute\",\"diff\",\"expected\",\"is_correct\",\"weight\"]]" res/reports.jsonl
	jq -e ".results.status_code.weight == 0.5 and .results.output.weight == 1" res/reports.jsonl'
test_case 'summary.json counts passed and total per checkpoint and group type' '
	run_assay run "$FIXTURES/suites/failing" -o res --group core; expect_exit 1
	jq -e ".checkpoints.checkpoint_1.types.Core | .total == 8 and .passed == 1 and .pass_rate == 0.125" res/summary.json
	jq -e ".totals.total == 8" res/summary.json'
test_case 'the summary table shows each checkpoint and type' '
	run_assay run "$FIXTURES/suites/basic" -o res; expect_exit 0
	expect_grep "^checkpoint_1 +Core +[0-9]+ +[0-9]+ +100.0%" out
	expect_grep "^checkpoint_1 +Error +1 +1 +100.0%" out
	expect_grep "^checkpoint_2 +Regression " out'
test_case 'a case file cannot pose as assay'"'"'s additions: its error, passed, score keys stay out of case' '
	mkdir -p k/c/g
	printf "name: k\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > k/suite.yaml
	printf "arguments: [\"true\"]\nerror: boom\npassed: false\nscore: 0.1\npartial: {status_code: 0}\nexpected: {status_code: 0}\n" > k/c/g/a.yaml
	run_assay run k -o kres; expect_exit 0
	jq -e ".case | (has(\"error\") | not) and (has(\"partial\") | not) and .passed == true and .score == 1" kres/reports.jsonl
	run_assay report kres --format junit -o k.xml; expect_exit 0
	! grep -q "boom" k.xml'
test_case 'a case id that is not UTF-8 still gets its report line' '
	mkdir -p u/c/g
	printf "name: u\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > u/suite.yaml
	printf "arguments: [\"true\"]\nexpected: {status_code: 0}\n" > "u/c/g/$(printf "id\377").yaml"
	run_assay run u -o res; expect_exit 0
	[ "$(jq -r .id res/reports.jsonl)" = "$(printf "id\357\277\275")" ]'
test_case '--resume keeps finished cases, drops a torn last line and runs the rest' '
	run_assay run "$FIXTURES/suites/basic" -o res --checkpoint checkpoint_1 --group core --case "e*"
	expect_exit 0
	cp res/reports.jsonl before
	printf "{\"id\": \"torn" >> res/reports.jsonl
	run_assay run "$FIXTURES/suites/basic" -o res --checkpoint checkpoint_1 --resume; expect_exit 0
	expect_grep "resuming: 4 cases already done" err
	[ "$(grep -Fxc -f before res/reports.jsonl)" = 4 ] # kept as they were, in run order
	[ "$(jq -r .id res/reports.jsonl | sort | uniq -d)" = "" ]
	[ "$(wc -l < res/reports.jsonl)" = "$(jq .totals.total res/summary.json)" ]
	jq -e ".totals.passed == .totals.total and .totals.total == 14" res/summary.json'

test_done
