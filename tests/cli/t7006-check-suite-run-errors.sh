#!/usr/bin/env bash
# check-suite finds at load what `assay run` would find (issue 18 item 4): a suite with no cases
# (run refuses it), an expected value the default verifier refuses (`expected: {output: {a: 1}}`
# under the default text verifier: run fails the case), located file:line:col, and every such error
# of a case at once.
. "$(dirname "$0")/lib.sh"

suite() {
	mkdir -p "$1/c/g"
	printf 'name: cs\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > "$1/suite.yaml"
}

test_case 'a suite with no cases: run refuses it, check-suite says so' '
	suite empty
	run_assay run empty -o r -q; expect_exit 3
	run_assay check-suite empty; expect_exit 3
	expect_grep "^error: .*empty/suite.yaml: the suite has no cases" out'

test_case 'a mapping expected of output under the default verifier: an error at its line' '
	suite map
	printf "arguments: [\"echo hi\"]\nexpected: {output: {a: 1}}\n" > map/c/g/m.yaml
	run_assay check-suite map; expect_exit 3
	expect_grep "^error: .*map/c/g/m.yaml:2:[0-9]*: expected.output: " out
	expect_grep "1 error" out'

test_case 'every refused expected value of a case, at once' '
	suite two
	printf "arguments: [\"echo hi\"]\nexpected: {output: {a: 1}, stderr: [1, 2]}\n" > two/c/g/t.yaml
	run_assay check-suite two; expect_exit 3
	expect_grep "^error: .*two/c/g/t.yaml:2:[0-9]*: expected.output: " out
	expect_grep "^error: .*two/c/g/t.yaml:2:[0-9]*: expected.stderr: " out
	expect_grep "2 errors" out'

test_case 'what a run checks without a verifier is no error: limits, absent files, plain values' '
	suite ok
	printf "arguments: [\"echo hi\"]\nexpected: {output: \"hi\\\\n\", status_code: 0, max_rss: {max: 100000000}, files: {x.txt: {absent: true}, y.txt: hi}}\n" > ok/c/g/o.yaml
	run_assay check-suite ok; expect_exit 0
	expect_grep "0 errors" out'

test_done
