#!/usr/bin/env bash
# The edit-run loop (issue #11): --last-failed re-runs what failed, -x stops at the first
# failure, --accept writes actual values back as expected (asking first), and a suite then
# passes.
. "$(dirname "$0")/lib.sh"

# A program with two bugs, a suite that catches them, and one case that passes.
make_suite() {
	rm -rf s && mkdir -p s/sol s/c1/core s/c2/core
	cat > s/sol/prog.sh <<'EOF'
case "$1" in
greet) printf 'Hello, %s!\n' "$2" ;;
count) printf '{"n": %s, "unit": "items"}\n' "$(( $2 + 1 ))" ;;
fail) echo "no such thing" >&2; exit 3 ;;
files) echo made > made.txt ;;
slow) sleep 30 ;;
esac
EOF
	cat > s/suite.yaml <<'EOF'
name: loop
adapter: {type: cli, command: [sh, prog.sh], submission: sol, timeout: 5}
checkpoints:
  c1:
    groups:
      core: {type: Core, case_defaults: {expected: {status_code: 0}}}
  c2:
    groups:
      core: {type: Core}
    regressions: [{checkpoint: c1, groups: [core]}]
EOF
	cat > s/c1/core/a-greet.yaml <<'EOF'
# greets by name
arguments: [greet, Ada]
expected:
  output: "Hello, Ada!\n"   # passes
EOF
	cat > s/c1/core/b-count.yaml <<'EOF'
# counts: the program adds one
arguments: [count, "2"]
expected:
  output:
    n: 2
    unit: items
verify:
  output: json   # structurally
EOF
	cat > s/c1/core/c-fail.yaml <<'EOF'
arguments: [fail]
expected:
  output: ""
  stderr: |
    not found
EOF
	cat > s/c1/core/d-files.yaml <<'EOF'
arguments: [files]
expected:
  files:
    made.txt: {absent: true}
    other.txt: "x\n"
EOF
	cat > s/c1/core/e-regex.yaml <<'EOF'
arguments: [greet, Bob]
expected: {output: "^Hi"}
verify: {output: {verifier: regex, match: search}}
EOF
	cat > s/c2/core/slow.yaml <<'EOF'
arguments: [slow]
timeout: 0.2
expected: {status_code: 0}
EOF
}

test_case '--last-failed re-runs only what failed in the results folder' '
	make_suite
	run_assay run s -o res; expect_exit 1
	run_assay run s -o res --last-failed; expect_exit 1
	[ "$(jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" res/reports.jsonl | tr "\n" " ")" = "c1/core/b-count c1/core/c-fail c1/core/d-files c1/core/e-regex c2/core/slow c2/c1_core/b-count c2/c1_core/c-fail c2/c1_core/d-files c2/c1_core/e-regex " ]
	run_assay run s -o res --last-failed --case "c1/*"; expect_exit 1
	[ "$(jq -s length res/reports.jsonl)" = 4 ]'
test_case '--last-failed with nothing failed runs every selected case; without results it is a usage error' '
	make_suite
	run_assay run s -o res --case a-greet; expect_exit 0
	run_assay run s -o res --last-failed; expect_exit 1
	expect_grep "no failed cases in res: running every selected case" err
	[ "$(jq -s length res/reports.jsonl)" = 11 ]
	run_assay run s -o nowhere --last-failed; expect_exit 2
	expect_grep "nowhere holds no results" err
	run_assay run s -o res --last-failed --resume; expect_exit 2'
test_case '-x stops at the first failure and says so' '
	make_suite
	run_assay run s -o res -x -j1; expect_exit 1
	[ "$(jq -s length res/reports.jsonl)" = 2 ]
	expect_grep "^stopped at the first failure \(--exitfirst\): 2 of 11 cases ran, 1 passed in " out
	run_assay run s -o res --exitfirst -q -j1; expect_exit 1
	[ "$(jq -s length res/reports.jsonl)" = 2 ]
	[ "$(jq .interrupted res/summary.json)" = true ]
	[ "$(jq ".not_run | length" res/summary.json)" = 9 ]
	run_assay run s -o res --resume -q -j1; expect_exit 1
	[ "$(jq -s length res/reports.jsonl)" = 11 ]
	[ "$(jq .interrupted res/summary.json)" = false ]'
test_case '--accept asks, needs a terminal or --yes, and writes nothing on no' '
	make_suite; cp -r s before
	run_assay run s -o res --accept; expect_exit 2
	expect_grep "answer on a terminal, or pass --yes" err
	printf "n\n" | script -qec "$ASSAY run s -o res --accept" /dev/null 2>&1 | tr -d "\r" > out
	expect_grep "Write 5 values into 3 case files\? \[y/N\] nothing written$" out
	diff -r before s'
test_case '--accept writes the actual values, keeping comments, and the suite then passes' '
	make_suite
	printf "y\n" | script -qec "$ASSAY run s -o res --accept" /dev/null 2>&1 | tr -d "\r" > out
	[ "$(grep -c "not accepted" out)" = 2 ]
	expect_grep "^  c1/core/b-count.yaml: expected output$" out
	expect_grep "^  c1/core/c-fail.yaml: expected status_code stderr$" out
	expect_grep "^  c1/core/d-files.yaml: expected files-made.txt files-other.txt$" out
	expect_grep "^  not accepted: c1/core/e-regex: output: its verifier compares with a pattern" out
	expect_grep "^  not accepted: c2/core/slow: the program did not exit by itself" out
	expect_grep "accepted 5 values: run the suite again to check$" out
	grep -q "^# counts: the program adds one$" s/c1/core/b-count.yaml
	grep -q "^  output: json   # structurally$" s/c1/core/b-count.yaml
	grep -q "^  output: {\"n\": 3, \"unit\": \"items\"}$" s/c1/core/b-count.yaml
	cat > want <<-EOF
	arguments: [fail]
	expected:
	  output: ""
	  stderr: |
	    no such thing
	  status_code: 3
	EOF
	test_cmp want s/c1/core/c-fail.yaml
	grep -q "made.txt: \"made\\\\n\"" s/c1/core/d-files.yaml || { cat s/c1/core/d-files.yaml; false; }
	grep -q "other.txt: {\"absent\": true}" s/c1/core/d-files.yaml
	sed -i "s/\\^Hi/^Hello/" s/c1/core/e-regex.yaml
	sed -i "s/timeout: 0.2/timeout: 20/; s/\[slow\]/[greet, x]/" s/c2/core/slow.yaml
	run_assay run s -o res; expect_exit 0
	expect_grep "^11 of 11 cases passed" out'
test_case '--accept keeps a nonzero rule, and takes yaml output as its text' '
	make_suite
	mkdir -p s/c1/err
	sed -i "s/      core: {type: Core, case_defaults: {expected: {status_code: 0}}}/&\\n      err: {type: Error}/" s/suite.yaml
	printf "arguments: [greet, x]\nexpected: {status_code: nonzero}\n" > s/c1/err/rule.yaml
	printf "arguments: [greet, Ada]\nexpected: {output: \"x: 1\"}\nverify: {output: yaml}\n" > s/c1/core/f-yaml.yaml
	run_assay run s -o res --accept --yes --case rule --case f-yaml; expect_exit 1
	expect_grep "not accepted: c1/err/rule: status_code: .nonzero. is a rule" out
	grep -q "status_code: nonzero" s/c1/err/rule.yaml
	run_assay run s -o res --case f-yaml; expect_exit 0'

test_case '--accept --yes asks nothing; --quiet is refused' '
	make_suite
	run_assay run s -o res --accept --yes --case b-count; expect_exit 1
	expect_grep "^accepted 1 value: run the suite again to check$" out
	run_assay run s -o res --case b-count; expect_exit 0
	run_assay run s -o res --accept --yes -q; expect_exit 2'
test_case 'the progress line on a terminal is rewritten at most every 0.1 s, not per case' '
	rm -rf many && mkdir -p many/c/g
	printf "name: many\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > many/suite.yaml
	for i in $(seq 1 300); do printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > many/c/g/e$i.yaml; done
	start=$(date +%s.%N)
	script -qec "$ASSAY run many -o res-many -j1" /dev/null > out 2>&1 </dev/null
	took=$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN { print b - a }")
	n=$(grep -o "\[[0-9]*/300\]" out | wc -l)
	[ "$(jq .totals.passed res-many/summary.json)" = 300 ]
	# one line at the start, then one per 0.1 s of the run at most
	max=$(awk -v t="$took" "BEGIN { print int(t * 10) + 2 }")
	[ "$n" -ge 1 ] && [ "$n" -le "$max" ] && [ "$n" -lt 300 ] ||
		{ echo "progress lines: $n in $took s (at most $max)"; false; }'


test_case 'a start the progress line held back is written while that case runs, not never' '
	rm -rf held && mkdir -p held/c/g
	printf "name: held\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > held/suite.yaml
	# five quick cases, all within 0.1 s of the first line, then one that runs 1.5 s
	for i in 1 2 3 4 5; do printf "arguments: [\"echo hi\"]\nexpected: {output: \"hi\\\\n\"}\n" > held/c/g/a$i.yaml; done
	printf "arguments: [\"sleep 1.5\"]\nexpected: {status_code: 0}\n" > held/c/g/z-slow.yaml
	script -qec "$ASSAY run held -o res-held -j1" /dev/null > out 2>&1 </dev/null
	[ "$(jq .totals.passed res-held/summary.json)" = 6 ] || { cat out; false; }
	grep -q "\[6/6\] c/g/z-slow" out || { echo "the slow case never showed:"; tr "\r" "\n" < out; false; }'
test_done
