#!/usr/bin/env bash
# check-suite lists every error of a case at once, not its first only (hostile review F9, issue
# 18 item 4; docs/cli.md "assay check-suite"): an unknown expected attribute, a status_code that
# is not one, and a verify entry its verifier refuses (numeric abs_tol -1), all in one case file,
# are three errors, each located; the run still fails the case with its first error.
. "$(dirname "$0")/lib.sh"

mkdir -p s/c/g
printf 'name: all\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > s/suite.yaml
cat > s/c/g/x.yaml <<'Y'
arguments: ["echo 1"]
expected: {output: "1", files-x: 3, status_code: zero}
verify: {output: {verifier: numeric, abs_tol: -1}}
Y
printf 'arguments: ["echo 1"]\nexpected: {output: "1\\n"}\n' > s/c/g/ok.yaml

test_case 'three errors of one case, each located, at once' '
	run_assay check-suite s; expect_exit 3
	expect_grep "x.yaml:2:[0-9]+: .*unknown expected attribute .files-x." out
	expect_grep "x.yaml:2:[0-9]+: .*expected status_code must be an integer" out
	expect_grep "x.yaml:3:[0-9]+: .*verify.output: .*abs_tol" out
	expect_grep "3 errors" out'

test_case 'a case with one error still says one' '
	printf "arguments: [\"echo 1\"]\nexpected: {output: \"1\", files-x: 3}\n" > s/c/g/x.yaml
	run_assay check-suite s; expect_exit 3
	expect_grep "unknown expected attribute .files-x." out
	expect_grep "1 error" out'

# an unknown static asset stopped the listing (new-user review): the rest is checked as written
test_case 'an unknown static asset, and the errors after it' '
	printf "arguments: [\"{{static:nothere}}\"]\ntimeout: -1\nexpected: {output: \"1\"}\n" > s/c/g/y.yaml
	run_assay check-suite s; expect_exit 3
	expect_grep "y.yaml:1:[0-9]+: unknown static asset .nothere." out
	expect_grep "y.yaml:2:[0-9]+: timeout must be a number" out
	rm s/c/g/y.yaml'

test_case 'a group type a typo away from one names it' '
	mkdir -p t/c/g
	printf "name: t\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {type: Errors}}}}\n" > t/suite.yaml
	run_assay check-suite t; expect_exit 3
	expect_grep "suite.yaml:3:[0-9]+: group type must be Core, Functionality, Error or Regression .did you mean .Error..." out'

test_case 'an expected attribute a typo away from one names it' '
	printf "arguments: [x]\nexpected: {outptu: \"a\", max_rs: 3}\n" > s/c/g/y.yaml
	run_assay check-suite s; expect_exit 3
	expect_grep "y.yaml:2:[0-9]+: unknown expected attribute .outptu.: did you mean .output.\\? \\(status_code" out
	expect_grep "unknown expected attribute .max_rs.: did you mean .max_rss.\\?" out
	rm s/c/g/y.yaml'

test_case 'the run fails the case with its first error' '
	run_assay run s -o r -q; expect_exit 1
	expect_grep "unknown expected attribute" r/reports.jsonl'

test_done
