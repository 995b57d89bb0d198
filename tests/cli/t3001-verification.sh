#!/usr/bin/env bash
# Verification through the CLI: diffs and scores of failing cases; the wrong jq submission.
. "$(dirname "$0")/lib.sh"

test_case 'text failures carry a unified diff' '
	run_assay run "$FIXTURES/suites/failing" -o res --case wrong-output; expect_exit 1
	jq -e ".results.output.diff | test(\"^--- expected\n\\\\+\\\\+\\\\+ actual\n@@ -1,3 \\\\+1,3 @@\n a\n-b\n\\\\+B\n c\n$\")" res/reports.jsonl'
test_case 'weights: score is the weighted mean, passing ignores weights' '
	run_assay run "$FIXTURES/suites/failing" -o res --case weighted; expect_exit 1
	jq -e ".case.score == 0.25 and .case.passed == false" res/reports.jsonl'
# The message and column are Python's: json.loads("{not json\n") says "Expecting property name
# enclosed in double quotes: line 1 column 2 (char 1)".
test_case 'output that is not JSON fails with a parse-error diff' '
	run_assay run "$FIXTURES/suites/failing" -o res --case json-invalid; expect_exit 1
	jq -e ".results.output.is_correct == false and .results.output.diff == \"output is not valid JSON: line 1, column 2: Expecting property name enclosed in double quotes\"" res/reports.jsonl'
test_case 'json diffs use deepdiff vocabulary' '
	run_assay run "$FIXTURES/suites/failing" -o res --case json-diff; expect_exit 1
	jq -e ".results.output.diff.values_changed[\"root[\u0027a\u0027]\"] == {\"new_value\": 2, \"old_value\": 1}" res/reports.jsonl
	jq -e ".results.output.diff.dictionary_item_added == [\"root[\u0027extra\u0027]\"]" res/reports.jsonl
	jq -e ".results.output.diff.dictionary_item_removed == [\"root[\u0027gone\u0027]\"]" res/reports.jsonl
	jq -e ".results.output.diff.iterable_item_added[\"root[\u0027b\u0027][2]\"] == 3" res/reports.jsonl'
test_case 'a regex_paths pattern that does not compile makes the case an error' '
	run_assay run "$FIXTURES/suites/bad-regex-paths" -o res; expect_exit 1
	jq -e ".case.passed == false and .results.output.is_correct == false" res/reports.jsonl
	jq -e ".case.error | startswith(\"output: regex_paths: the pattern at root[\u0027v\u0027] does not compile: \")" res/reports.jsonl'
test_case 'an expected file that was not produced fails' '
	run_assay run "$FIXTURES/suites/failing" -o res --case missing-file; expect_exit 1
	jq -e ".results[\"files-never.txt\"] | .is_correct == false and .actual == null" res/reports.jsonl'
test_case 'the wrong jq fails exactly its corrupted cases, with the right diffs' '
	command -v jq >/dev/null
	run_assay run "$ASSAY_SRC/examples/jq-1.6" -o res --entry "$FIXTURES/bad-jq/jq"
	expect_exit 1
	jq -r "select(.case.passed | not) | .id" res/reports.jsonl | sort > failed
	printf "%s\n" base64-l0004 base64-l0014 jq-l0077 jq-l0105 jq-l0114 jq-l0627 > expect
	test_cmp expect failed
	[ "$(jq -s "map(select(.case.passed)) | length" res/reports.jsonl)" = 344 ]
	jq -se ".[] | select(.id == \"jq-l0105\") | .results.output.diff.values_changed[\"root[0][\u0027e\u0027]\"] == {\"new_value\": 3, \"old_value\": 2}" res/reports.jsonl
	jq -se ".[] | select(.id == \"jq-l0627\") | .results.output.diff.iterable_item_added == {\"root[1]\": 99}" res/reports.jsonl
	jq -se ".[] | select(.id == \"base64-l0004\") | .results.output.diff == \"output is not valid JSON Lines: line 1, column 1: Expecting value\"" res/reports.jsonl
	jq -se ".[] | select(.id == \"jq-l0114\") | .results.status_code.is_correct == false and .results.status_code.actual == 0" res/reports.jsonl
	jq -se ".[] | select(.id == \"jq-l0114\") | .results.stderr.is_correct == false" res/reports.jsonl'

test_done
