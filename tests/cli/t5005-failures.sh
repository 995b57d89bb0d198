#!/usr/bin/env bash
# The failure listing a person acts on (issue #11): a reason per attribute in one line where it
# fits, structured diffs one line per change, how the program ended, the stderr tail (a crash's
# traceback), a command reproducing the case, regression repeats shown once, colour, what an
# interrupted run ran, failed ids in summary.json, run-case's readable form.
. "$(dirname "$0")/lib.sh"

# A suite written here: a program in sh whose subcommands fail in known ways.
mkdir -p s/sol s/c1/core s/c2/core
cat > s/sol/prog.sh <<'EOF'
case "$1" in
add) printf '{"id": 1, "title": "%s"}\n' "$2" ;;
crash)
	echo 'Traceback (most recent call last):' >&2
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "  File \"prog.py\", line $i, in f$i" >&2; done
	echo 'ValueError: boom' >&2
	exit 1 ;;
empty) ;;
text) printf 'hello\nworld\n' ;;
echo) cat ;;
sleep) sleep 30 ;;
big) exec head -c 100000 /dev/zero > big.bin ;;
esac
EOF
cat > s/suite.yaml <<'EOF'
name: failures
adapter: {type: cli, command: [sh, prog.sh], submission: sol, timeout: 5}
checkpoints:
  c1:
    groups:
      core: {type: Core}
  c2:
    groups:
      core: {type: Core}
    regressions: [{checkpoint: c1, groups: [core]}]
EOF
cat > s/c1/core/add.yaml <<'EOF'
arguments: [add, milk]
expected: {output: {id: 2, title: milk}, status_code: 0}
verify: {output: json}
EOF
cat > s/c1/core/many.yaml <<'EOF'
arguments: [add, x]
expected: {output: {id: 1, title: y, tags: [a], extra: 1}}
verify: {output: json}
EOF
cat > s/c1/core/crash.yaml <<'EOF'
arguments: [crash]
expected: {output: {id: 1}, status_code: 0}
verify: {output: json}
EOF
cat > s/c1/core/empty.yaml <<'EOF'
arguments: [empty]
expected: {output: "hi\n"}
EOF
cat > s/c1/core/text.yaml <<'EOF'
arguments: [text]
expected: {output: "hello\nthere\n"}
EOF
cat > s/c1/core/stdin.yaml <<'EOF'
arguments: [echo]
stdin: "it's a\nstdin\n"
env: {GREETING: hi there}
expected: {output: "nope\n"}
EOF
cat > s/c1/core/slow.yaml <<'EOF'
arguments: [sleep]
timeout: 0.3
expected: {status_code: 0}
EOF
cat > s/c1/core/limit.yaml <<'EOF'
arguments: [big]
limits: {file_size: 1K}
expected: {status_code: 0}
EOF
cat > s/c1/core/zz-hang.yaml <<'EOF'
arguments: [sleep]
timeout: 60
expected: {status_code: 0}
EOF
cat > s/c2/core/ok.yaml <<'EOF'
arguments: [text]
expected: {output: "hello\nworld\n"}
EOF

test_case 'a changed value is one line naming expected and actual' '
	run_assay run s -o res --case c1/core/add; expect_exit 1
	expect_grep "^    output: root\[.id.\]: expected 2, got 1$" out'
test_case 'a structured diff with several changes: one line per change' '
	run_assay run s -o res --case c1/core/many; expect_exit 1
	expect_grep "^    output: 3 differences$" out
	expect_grep "^      root\[.tags.\]: missing key$" out
	expect_grep "^      root\[.title.\]: expected \"y\", got \"x\"$" out
	! grep -q "new_value\|old_value" out'
# (a new user's trial: the reports' one line read "output: 3 differences root[...]: ...")
test_case 'the reports give several changes in one line: their count, then the first' '
	run_assay run s -o res --case c1/core/many --format junit; expect_exit 1
	expect_grep "failure message=\"output: 3 differences, the first: root\[" res/junit.xml'
test_case 'empty output says so' '
	run_assay run s -o res --case c1/core/empty; expect_exit 1
	expect_grep "^    output is empty, expected \"hi\\\\n\"$" out
	run_assay run s -o res --case c1/core/crash; expect_exit 1
	expect_grep "^    output is empty$" out'
test_case 'a one-line text change is one line, with its line number' '
	run_assay run s -o res --case c1/core/text; expect_exit 1
	expect_grep "^    output: line 2: expected \"there\", got \"world\"$" out'
# (a new user's trial: the reports' one line of a text differing on several lines was the diff's
# heading, "stderr (- expected, + actual):", its colon pointing at nothing)
test_case 'a text differing on several lines: the reports say "differs", the listing the diff' '
	mkdir -p t/c/g
	printf "name: t\nadapter: {type: cli, command: [seq, \"12\"]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > t/suite.yaml
	printf "expected:\n  output: |\n" > t/c/g/m.yaml
	for i in 1 two 3 4 five 6 7 8 nine 10 11 12; do echo "    $i" >> t/c/g/m.yaml; done
	run_assay run t -o rt --format junit --format markdown; expect_exit 1
	expect_grep "^    output \(- expected, \+ actual\):$" out
	expect_grep "failure message=\"output differs\"" rt/junit.xml
	expect_grep "<code>c/g/m</code> fail: output differs</summary>" rt/summary.md'
test_case 'a crashing program: its traceback is in the listing, the last lines of it' '
	run_assay run s -o res --case c1/core/crash; expect_exit 1
	expect_grep "^    status_code: expected 0, got 1$" out
	expect_grep "^    stderr, last 10 of 14 lines:$" out
	expect_grep "^      \| ValueError: boom$" out
	! grep -q "line 3, in f3" out'
test_case 'a timeout and a limit say how the program ended' '
	run_assay run s -o res --case slow --case limit; expect_exit 1
	expect_grep "^    timed out after 0.3 seconds$" out
	expect_grep "^    stopped at its file size limit \(1024 bytes\)$" out'
test_case 'the reproduce line runs the case by hand as assay ran it' '
	run_assay run s -o res --case c1/core/stdin; expect_exit 1
	expect_grep "^    reproduce: printf %s \\$.it\\\\.s a\\\\nstdin\\\\n. \| env -i PATH=\"\\\$PATH\" LANG=\"\\\$LANG\" HOME=\"\\\$PWD\" TMPDIR=\"\\\$\(mktemp -d\)\" GREETING=.hi there. sh prog.sh echo$" out
	expect_grep "^      \(in the case.s working folder, which --keep keeps\)$" out'
test_case 'with --keep it starts in the kept folder with the stdin in a file, and reproduces' '
	run_assay run s -o res --case c1/core/stdin --keep; expect_exit 1
	line=$(sed -n "s/^    reproduce: //p" out)
	case "$line" in "cd /"*" < /"*/.stdin/c1/core/stdin) ;; *) echo "$line"; exit 1;; esac
	[ "$(bash -c "$line")" = "$(printf "it'"'"'s a\nstdin")" ]
	rm -rf "$(sed -n "s/^working folders kept in //p" out)"'
test_case 'the reproduce line keeps the variables --pass-env passed (env -i would drop them)' '
	mkdir -p pe/c/g
	printf "name: pe\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > pe/suite.yaml
	printf "arguments: [\"echo \$ASSAY_T_SEEN/\$ASSAY_T_CASE\"]\nenv: {ASSAY_T_CASE: mine}\nexpected: {output: no}\n" > pe/c/g/a.yaml
	ASSAY_T_SEEN=yes ASSAY_T_CASE=theirs run_assay run pe -o peres --pass-env "ASSAY_T_*" --keep; expect_exit 1
	jq -e ".results.output.actual == \"yes/mine\\n\"" peres/reports.jsonl
	line=$(sed -n "s/^    reproduce: //p" out)
	case "$line" in *" ASSAY_T_SEEN=\"\$ASSAY_T_SEEN\" "*"ASSAY_T_CASE=mine sh -c "*) ;; *) echo "$line"; exit 1;; esac
	[ "$(ASSAY_T_SEEN=yes ASSAY_T_CASE=theirs bash -c "$line")" = "yes/mine" ]
	rm -rf "$(sed -n "s/^working folders kept in //p" out)"'
test_case 'resumed: a replayed case whose long stdin the store cut says its size, not the cut'"'"'s' '
	mkdir -p long/sol long/c/g && cp s/sol/prog.sh long/sol/
	printf "name: long\nadapter: {type: cli, command: [sh, prog.sh], submission: sol}\ncheckpoints: {c: {groups: {g: {}}}}\n" > long/suite.yaml
	{ printf "arguments: [echo]\nexpected: {output: no}\nstdin: \""; head -c 100000 /dev/zero | tr "\\000" x; printf "\"\n"; } > long/c/g/x.yaml
	run_assay run long -o lres; expect_exit 1
	expect_grep "# the case.s stdin, 100000 bytes$" out
	run_assay run long -o lres --resume; expect_exit 1
	expect_grep "# the case.s stdin, 100000 bytes \\(its case file has it\\)$" out
	expect_grep "^    output: failed \\(a diff of [0-9]+ bytes, kept in the store: assay show DIR ID prints it\\)$" out'
test_case 'a regression copy failing the same way is one line' '
	run_assay run s -o res --case add --case text; expect_exit 1
	expect_grep "^  FAIL c2/c1_core/add  the same failure as c1/core/add$" out
	expect_grep "^  FAIL c2/c1_core/text  the same failure as c1/core/text$" out
	[ "$(grep -c "expected 2, got 1" out)" = 1 ]'
test_case 'a regression copy failing otherwise than its original is shown in full' '
	mkdir -p s2 && cp -r s/suite.yaml s/c1 s/c2 s2/ && mkdir -p s2/sol s2/sol2
	printf "echo one\n" > s2/sol/prog.sh; printf "echo two\n" > s2/sol2/prog.sh
	sed -i "s/submission: sol,/submission: sol,/; s/^  c2:/  c2:\n    submission: sol2/" s2/suite.yaml
	run_assay run s2 -o res --case text; expect_exit 1
	expect_grep "^    output: expected \"hello\\\\nthere\\\\n\", got \"one\\\\n\"$" out
	expect_grep "^    output: expected \"hello\\\\nthere\\\\n\", got \"two\\\\n\"$" out
	! grep -q "same failure" out'
test_case 'many failures: the first in detail, then names, then a count' '
	mkdir -p many/c/g
	printf "name: many\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > many/suite.yaml
	for i in $(seq 100 160); do printf "arguments: [\"exit 1\"]\nexpected: {status_code: 0}\n" > many/c/g/f$i.yaml; done
	run_assay run many -o res --max-failures 2; expect_exit 1
	expect_grep "^Failures \(61, first 2 shown in detail\):$" out
	[ "$(grep -c "^  FAIL c/g/f1[0-9][0-9]$" out)" = 50 ]
	expect_grep "^  \.\.\. and 9 more \(summary.json lists them all\)$" out
	[ "$(jq ".failed | length" res/summary.json)" = 61 ]'
test_case 'summary.json lists the failed cases' '
	run_assay run s -o res --case add --case ok; expect_exit 1
	jq -e ".failed == [\"c1/core/add\", \"c2/c1_core/add\"]" res/summary.json'
test_case 'colour: never unless asked, always with --color=always, NO_COLOR respected' '
	run_assay run s -o res --case c1/core/text; expect_exit 1
	! grep -q "$(printf "\033")" out || false
	run_assay run s -o res --case c1/core/text --color=always; expect_exit 1
	grep -q "$(printf "\033\\[31mFAIL")" out
	NO_COLOR=1 run_assay run s -o res --case c1/core/text --color=always; expect_exit 1
	grep -q "$(printf "\033")" out
	run_assay run s -o res --color=sometimes; expect_exit 2'
test_case 'an interrupted run says how many of its cases ran' '
	code=0
	"$ASSAY" run s -o res -c c1 >out 2>err & pid=$!
	# the last case hangs: interrupt it once the others are reported
	for i in $(seq 200); do [ -s res/reports.jsonl ] && [ "$(wc -l < res/reports.jsonl)" -ge 8 ] && break; sleep 0.05; done
	kill -INT $pid; wait $pid || code=$?
	expect_exit 5
	expect_grep "^interrupted: 8 of 9 cases ran, 0 passed in " out
	expect_grep "^\(--resume runs the rest into the same results folder\)$" out'
test_case 'run-case: text on request (readable diffs, checkpoints), json otherwise' '
	run_assay run-case s --case c1/core/text --format text; expect_exit 1
	expect_grep "^FAIL c1/core/text " out
	expect_grep "^    output: line 2: expected \"there\", got \"world\"$" out
	run_assay run-case s --case c1/core/text; expect_exit 1
	jq -e ".[0].checkpoint == \"c1\" and .[0].group == \"core\"" out
	run_assay run-case s --format yaml; expect_exit 2'

test_case 'status_code nonzero: a program that could not start is an error, never a pass' '
	mkdir -p nz/c/e
	printf "name: nz\nadapter: {type: cli, command: [./nothere]}\ncheckpoints: {c: {groups: {e: {type: Error}}}}\n" > nz/suite.yaml
	printf "expected: {status_code: nonzero}\n" > nz/c/e/a.yaml
	run_assay run nz -o nzres; expect_exit 1
	expect_grep "^0 of 1 case passed" out
	jq -e "select(.id == \"a\") | .case.passed == false and .case.score == 0 and (.case.error | test(\"cannot run\"))" nzres/reports.jsonl
	printf "expected: {execution_time: {max: 5}}\n" > nz/c/e/a.yaml
	run_assay run nz -o nzres2; expect_exit 1
	jq -e ".case.passed == false and .case.score == 0" nzres2/reports.jsonl'

test_case 'a command that is not executable says so, with the sandbox on and off' '
	mkdir -p nx/c/g nx/sub
	printf "name: nx\nadapter: {type: cli, command: [./prog.sh], submission: sub}\ncheckpoints: {c: {groups: {g: {}}}}\n" > nx/suite.yaml
	printf "#!/bin/sh\necho hi\n" > nx/sub/prog.sh
	chmod 644 nx/sub/prog.sh
	printf "expected: {output: \"hi\\\\n\"}\n" > nx/c/g/a.yaml
	for sb in on off; do
		run_assay run nx -o nxres-$sb --sandbox $sb; expect_exit 1
		jq -e ".case.error | test(\"cannot run .*not executable\")" nxres-$sb/reports.jsonl
	done'

test_case 'status_code nonzero and a timeout: a pass the terminal points out; --strict fails it' '
	mkdir -p nt/c/e
	printf "name: nt\nadapter: {type: cli, command: [sh, -c, \"sleep 5\"], timeout: 0.5}\ncheckpoints: {c: {groups: {e: {type: Error}}}}\n" > nt/suite.yaml
	printf "expected: {status_code: nonzero}\n" > nt/c/e/slow.yaml
	run_assay run nt -o ntres; expect_exit 0
	expect_grep "^note: 1 passing case .c/e/slow. passed although the program timed out" out
	run_assay run nt -o ntres2 --strict; expect_exit 1
	jq -e ".case.passed == false and (.case.error | test(\"strict\"))" ntres2/reports.jsonl'

test_case 'the note on a killed case that passed blames no status_code the case does not expect' '
	mkdir -p nq/c/e
	printf "name: nq\nadapter: {type: cli, command: [sh, -c, \"sleep 5\"], timeout: 0.5}\ncheckpoints: {c: {groups: {e: {}}}}\n" > nq/suite.yaml
	printf "expected: {stderr: \"\"}\n" > nq/c/e/quiet.yaml
	printf "expected: {status_code: -1}\n" > nq/c/e/minus-one.yaml
	run_assay run nq -o nqres; expect_exit 0
	expect_grep "^note: 2 passing cases .c/e/minus-one, .... passed although the program timed out or was killed" out
	! grep -q "status_code: nonzero. accepts that" out || false
	expect_grep "what they expect does not rule that out" out'

test_done
