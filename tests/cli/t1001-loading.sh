#!/usr/bin/env bash
# Loading suites: positions of errors, broken cases reported while the rest runs.
. "$(dirname "$0")/lib.sh"

test_case 'a missing suite folder exits 3' '
	run_assay run "$TMP/nowhere"; expect_exit 3; expect_grep "no such suite folder" err'
test_case 'a folder without suite.yaml exits 3' '
	mkdir empty; run_assay run empty; expect_exit 3; expect_grep "no suite.yaml" err'
test_case 'malformed suite.yaml exits 3 naming file, line and column' '
	run_assay run "$FIXTURES/suites/broken-suite"; expect_exit 3
	expect_grep "broken-suite/suite.yaml:[0-9]+:[0-9]+: " err
	expect_grep "\^$" err'
test_case 'a wrongly typed value in suite.yaml names its position' '
	run_assay run "$FIXTURES/suites/bad-type"; expect_exit 3
	expect_grep "bad-type/suite.yaml:5:12: timeout must be a number of seconds > 0" err'
test_case 'broken cases are errors of their own; the rest of the suite runs' '
	run_assay run "$FIXTURES/suites/failing" -o res --group broken; expect_exit 1
	[ "$(wc -l < res/reports.jsonl)" = 5 ]
	jq -se ".[] | select(.id == \"still-runs\") | .case.passed == true" res/reports.jsonl
	jq -se ".[] | select(.id == \"bad-yaml\") | .case.passed == false and (.case.error | test(\"bad-yaml.yaml:[0-9]+:[0-9]+: \"))" res/reports.jsonl
	jq -se ".[] | select(.id == \"unknown-asset\") | .case.error | test(\"unknown-asset.yaml:1:[0-9]+: unknown static asset .nope.\")" res/reports.jsonl
	jq -se ".[] | select(.id == \"nothing-expected\") | .case.error | test(\"expects nothing\")" res/reports.jsonl
	jq -se ".[] | select(.id == \"bad-regex\") | .case.passed == false and (.case.error | test(\"output: \"))" res/reports.jsonl'
test_case 'a case whose id another has is an error of its own, counted once everywhere' '
	mkdir -p d/c/g
	printf "name: d\nadapter: {type: cli, command: [echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > d/suite.yaml
	printf "arguments: [a]\nexpected: {output: \"a\\\\n\"}\n" > d/c/g/c1.yaml
	cp d/c/g/c1.yaml d/c/g/c1.yml
	printf "{\"arguments\": [\"a\"], \"expected\": {\"output\": \"a\\\\n\"}}\n" > d/c/g/c1.json
	printf "arguments: [x]\nexpected: {output: \"x\\\\n\"}\n" > d/c/g/c2.yaml
	run_assay run d -o res; expect_exit 1
	jq -e ".totals.total == 4 and .totals.passed == 2 and .totals.errors == 2" res/summary.json
	[ "$(wc -l < res/reports.jsonl)" = 4 ]
	[ "$(sqlite3 res/assay.db "SELECT count(*) FROM cases")" = 4 ]
	[ "$(jq -r .id res/reports.jsonl | sort | tr "\n" " ")" = "c1 c1~2 c1~3 c2 " ]
	jq -se "map(select(.id | startswith(\"c1~\"))) | length == 2 and all(.case.error | test(\"duplicate case id .c1.\"))" res/reports.jsonl
	# the first file in byte order (c1.json) runs: c1.yaml is the first duplicate
	jq -se "map(select(.id == \"c1~2\"))[0].case.error | test(\"c1.yaml: duplicate\")" res/reports.jsonl'
test_case 'the id of a duplicate does not depend on the selection (--case, --resume, --last-failed)' '
	mkdir -p dd/c/g
	printf "name: d\nadapter: {type: cli, command: [echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > dd/suite.yaml
	printf "arguments: [a]\nexpected: {output: \"a\\\\n\"}\n" > dd/c/g/c1.yaml
	printf "arguments: [b]\nexpected: {output: \"b\\\\n\"}\n" > dd/c/g/c1.yml
	cp dd/c/g/c1.yml "dd/c/g/c1~2.yaml"
	# c1~2 is the file c1~2.yaml in every run: c1.yml is c1~3 even when c1~2.yaml is not selected
	run_assay run dd -o part --case c1; expect_exit 0
	[ "$(jq -r .id part/reports.jsonl)" = c1 ]
	# a resumed run keeps no result of one file for another
	run_assay run dd -o part --resume; expect_exit 1
	jq -e ".totals.total == 3 and .totals.passed == 2 and .totals.errors == 1" part/summary.json
	run_assay run dd -o all; expect_exit 1
	[ "$(jq -r .id all/reports.jsonl | tr "\n" " ")" = "c1 c1~2 c1~3 " ] # id order
	jq -se "map(select(.id == \"c1~2\"))[0].case.passed == true" part/reports.jsonl
	# --last-failed selects the duplicate by the id it was reported under
	run_assay run dd -o part --last-failed; expect_exit 1
	[ "$(jq -r .id part/reports.jsonl)" = "c1~3" ]
	jq -e ".totals.total == 1 and .totals.errors == 1" part/summary.json
	run_assay run dd -o one --case "c1~3"; expect_exit 1
	jq -e "select(.id == \"c1~3\") | .case.error | test(\"c1.yml: duplicate case id\")" one/reports.jsonl'
test_case 'a resumed run replays no duplicate: neither its error for a case now none, nor a result for a duplicate' '
	for isolated in true false; do
	rm -rf de res; mkdir -p de/c/g
	printf "name: d\nadapter: {type: cli, command: [echo]}\ncheckpoints: {c: {groups: {g: {isolated: $isolated}}}}\n" > de/suite.yaml
	printf "arguments: [a]\nexpected: {output: \"a\\\\n\"}\n" > de/c/g/c1.yaml
	printf "arguments: [b]\nexpected: {output: \"b\\\\n\"}\n" > de/c/g/c1.yml
	run_assay run de -o res; expect_exit 1
	# a group of shared state whose only other case finished is not run again for a duplicate
	run_assay run de -o res --resume; expect_exit 1
	if grep -q "run again" err; then cat err; false; fi
	# the duplicate given the id it was reported under: it runs, and passes
	mv de/c/g/c1.yml "de/c/g/c1~2.yaml"
	run_assay run de -o res --resume; expect_exit 0
	jq -e ".totals.total == 2 and .totals.passed == 2 and .totals.errors == 0" res/summary.json
	# and back: c1~2 (passed) is a duplicate again, of the same content
	mv "de/c/g/c1~2.yaml" de/c/g/c1.yml
	run_assay run de -o res --resume; expect_exit 1
	jq -e ".totals.total == 2 and .totals.passed == 1 and .totals.errors == 1" res/summary.json
	jq -se "map(select(.id == \"c1~2\"))[0].case.error | test(\"c1.yml: duplicate case id\")" res/reports.jsonl
	done'
test_case 'an error case has results and a zero score' '
	run_assay run "$FIXTURES/suites/failing" -o res --group broken --case bad-yaml; expect_exit 1
	jq -e ".results.error.is_correct == false and .case.score == 0" res/reports.jsonl'
test_case 'filters: --checkpoint, --group and --case' '
	run_assay run "$FIXTURES/suites/basic" -o res --checkpoint checkpoint_1 --group core --case "env-*"
	expect_exit 0
	[ "$(jq -r .id res/reports.jsonl | tr "\n" " ")" = "env-case env-checkpoint env-suite " ]'
test_case 'an unknown checkpoint is a usage error naming the checkpoints' '
	run_assay run "$FIXTURES/suites/basic" --checkpoint nope; expect_exit 2
	expect_grep "no checkpoint named .nope. \(checkpoints: checkpoint_1, checkpoint_2\)" err'

test_done
