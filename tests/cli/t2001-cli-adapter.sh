#!/usr/bin/env bash
# The cli adapter: argv, stdin, env, files, submissions, timeouts, signals, orphans.
. "$(dirname "$0")/lib.sh"

test_case 'every case of the basic suite passes' '
	run_assay run "$FIXTURES/suites/basic" -o res; expect_exit 0
	expect_grep "^total +[0-9]+ +[0-9]+ +100.0%" out
	[ "$(wc -l < res/reports.jsonl)" = "$(jq .totals.total res/summary.json)" ]'
test_case 'regression groups are named <checkpoint>_<group> and keep their origin' '
	run_assay run "$FIXTURES/suites/basic" -o res --checkpoint checkpoint_2; expect_exit 0
	jq -se ".[] | select(.group == \"checkpoint_1_core\") | .type == \"Regression\" and .original_checkpoint == \"checkpoint_1\" and .original_group == \"core\"" res/reports.jsonl >/dev/null
	jq -se ".[] | select(.group == \"again\") | .type == \"Regression\" and .original_group == \"errors\"" res/reports.jsonl >/dev/null
	# and the original group settings: errors'"'"' case_defaults expect status_code 2
	jq -se ".[] | select(.group == \"again\") | .results.status_code | .expected == 2 and .is_correct" res/reports.jsonl >/dev/null
	jq -e ".checkpoints.checkpoint_2.types.Regression.total > 1" res/summary.json'
test_case 'a missing program fails its case with a clear message, not assay' '
	run_assay run "$FIXTURES/suites/no-program" -o res; expect_exit 1
	jq -e ".results.status_code.actual == 127" res/reports.jsonl
	jq -e ".case.execution.status == \"exec_failed\"" res/reports.jsonl
	jq -e ".results.stderr.actual | test(\"cannot run .assay-no-such-program-xyz.: No such file or directory\")" res/reports.jsonl'
test_case '--entry replaces the command' '
	run_assay run "$FIXTURES/suites/no-program" -o res --entry "sh -c \"exit 0\""; expect_exit 0'
test_case '--submission replaces the submission folder' '
	cp -r "$FIXTURES/suites/basic/submission" sub
	printf "#!/bin/sh\necho replaced\n" > sub/prog.sh
	run_assay run "$FIXTURES/suites/basic" -o res --submission sub --case echo; expect_exit 1
	jq -se ".[] | select(.id == \"echo\") | .results.output.actual == \"replaced\n\"" res/reports.jsonl'
test_case 'a timeout gives status -1 and kills the case' '
	run_assay run "$FIXTURES/suites/failing" -o res --case timeout; expect_exit 1
	jq -e ".results.status_code.actual == -1 and .case.execution.status == \"timed_out\"" res/reports.jsonl
	jq -e ".case.execution.wall_time < 3" res/reports.jsonl'
test_case 'a case killed by a signal has status -N' '
	run_assay run "$FIXTURES/suites/failing" -o res --case killed; expect_exit 1
	jq -e ".results.status_code.actual == -9 and .case.execution.signal == 9" res/reports.jsonl'
test_case 'no process outlives a run (timeouts, background jobs, setsid), sandbox on or off' '
	# the pids printed are of the PID namespace with the sandbox: look for the sleeps, by a
	# duration no other run on this machine uses
	cp -r "$FIXTURES/suites/orphans" orphans
	sed -i "s/sleep 100\([123]\)/sleep 100\1.$$/" orphans/checkpoint_1/core/*.yaml
	for mode in on off; do
		run_assay run orphans -o res --kill-grace 0.2 --sandbox $mode
		[ "$(wc -l < res/reports.jsonl)" = 3 ]
		if pgrep -f "sleep 100[123][.]$$"; then echo "processes survived ($mode)"; exit 1; fi
	done'
test_case 'SIGINT kills the running case, keeps finished ones, and --resume completes the run' '
	code=0
	"$ASSAY" run "$FIXTURES/suites/orphans" -o res -q --kill-grace 0.2 & pid=$!
	sleep 0.6 # the first two cases end at once; the third runs for its whole second
	kill -INT $pid
	wait $pid || code=$?
	expect_exit 5
	jq -e ".interrupted == true and .totals.total == 2" res/summary.json
	[ "$(wc -l < res/reports.jsonl)" = 2 ]
	run_assay run "$FIXTURES/suites/orphans" -o res --resume --kill-grace 0.2
	expect_grep "resuming: 2 cases already done$" err
	[ "$(wc -l < res/reports.jsonl)" = 3 ]
	jq -e ".interrupted == false and .totals.total == 3" res/summary.json'
# Slurm's scancel signals every process of the job: assay and the case's program alike. The
# program's end by that signal is no verdict: the case is left for --resume, not stored failed.
# assay is stopped while its case's program dies, so that the report is in when it sees the
# interrupt (without that, the order is the kernel's).
test_case 'an interrupt that ends a case'"'"'s program too leaves that case for --resume' '
	rm -rf s res pid second && mkdir -p s/c/g
	printf "#!/bin/sh\n[ -e %s/second ] && exit 0\necho \$\$ > %s/pid\nexec sleep 30\n" "$PWD" "$PWD" > prog.sh
	printf "name: t\nadapter: {type: cli, command: [sh, %s/prog.sh]}\ncheckpoints: {c: {groups: {g: {}}}}\n" "$PWD" > s/suite.yaml
	printf "expected: {status_code: 0}\n" > s/c/g/a.yaml
	code=0
	"$ASSAY" run s -o res -q -j1 --sandbox off & apid=$!
	for i in $(seq 200); do [ -s pid ] && break; sleep 0.05; done
	[ -s pid ]
	kill -STOP $apid
	kill -TERM "$(cat pid)"
	sleep 0.5
	kill -TERM $apid
	kill -CONT $apid
	wait $apid || code=$?
	expect_exit 5
	jq -e ".interrupted == true and .not_run == [\"c/g/a\"]" res/summary.json
	[ "$(wc -l < res/reports.jsonl)" = 0 ]
	touch second
	run_assay run s -o res --resume -q --sandbox off; expect_exit 0
	jq -e ".interrupted == false and .totals.passed == 1" res/summary.json'
test_case 'resuming a suite with a group whose cases share a folder says that such a group runs whole' '
	run_assay run "$FIXTURES/suites/workdir" -o res
	run_assay run "$FIXTURES/suites/workdir" -o res --resume
	expect_grep "cases already done \(a group whose cases share a working folder or server runs again whole unless all of them are\)$" err'
test_case 'isolated: false shares one folder in order; isolated cases start fresh' '
	run_assay run "$FIXTURES/suites/workdir" -o res --case "[ab]-*"; expect_exit 0
	jq -se "map(select(.group == \"shared\" and .id == \"b-read\"))[0].case.passed" res/reports.jsonl
	jq -se "map(select(.group == \"isolated\" and .id == \"b-read\"))[0].case.passed" res/reports.jsonl'
test_case 'tracked files are collected as files-<path> attributes, unverified' '
	run_assay run "$FIXTURES/suites/workdir" -o res --case tracked; expect_exit 0
	jq -e ".results[\"files-run.log\"] | .actual == \"note\n\" and .is_correct == null" res/reports.jsonl
	jq -e ".results[\"files-out/result.txt\"].actual == \"r\n\"" res/reports.jsonl'
test_case 'a case id with glob characters still has its tracked files' '
	run_assay run "$FIXTURES/suites/workdir" -o res --case "glob\[x\]\*"; expect_exit 0
	jq -e ".id == \"glob[x]*\" and .results[\"files-run.log\"].actual == \"note\n\"" res/reports.jsonl'
test_case 'control characters of a submission never reach the terminal raw' '
	run_assay run "$FIXTURES/suites/workdir" -o res --case terminal --color never; expect_exit 1
	! grep -q "$(printf "\033")" out || false
	expect_grep "a.x1b\[2J.x1b\]52;c;SGVsbG8=.x07b" out'
test_case 'a link out of the working folder is not a produced file' '
	run_assay run "$FIXTURES/suites/workdir" -o res --case escape; expect_exit 1
	jq -e ".results[\"files-stolen.txt\"] | .actual == null and .is_correct == false" res/reports.jsonl'
test_case 'each checkpoint runs its own submission' '
	run_assay run "$FIXTURES/suites/workdir" -o res --case submission; expect_exit 0
	[ "$(jq -j .results.output.actual res/reports.jsonl | tr "\n" " ")" = "one two " ]'
test_case 'stdout is capped and the truncation recorded' '
	run_assay run "$FIXTURES/suites/basic" -o res --case argv-string --stdout-cap 5; expect_exit 1
	jq -e ".results.output.actual == \"[a  b\" and .case.execution.stdout_truncated == true" res/reports.jsonl'
test_case 'working folders are removed, or kept with --keep' '
	mkdir work
	run_assay run "$FIXTURES/suites/basic" -o res --work-dir work --case echo; expect_exit 0
	[ -z "$(ls work)" ]
	run_assay run "$FIXTURES/suites/basic" -o res --work-dir work --case echo --keep; expect_exit 0
	ls work/*/checkpoint_1/core/echo/prog.sh
	expect_grep "working folders kept in" out'
test_case 'run-case prints the verdict array; failing cases carry results' '
	run_assay run-case "$FIXTURES/suites/failing" --group core --case "w*"; expect_exit 1
	jq -e "length == 2" out
	jq -e ".[] | select(.id == \"wrong-output\") | .passed == false and .results.output.is_correct == false" out
	jq -e ".[] | select(.id == \"weighted\") | .score == 0.25 and .results.status_code.is_correct == true" out
	run_assay run-case "$FIXTURES/suites/failing" --group core --case pass; expect_exit 0
	jq -e ".[0] | (.results == null) and .passed" out'
test_case 'run-case --full shows every attribute' '
	run_assay run-case "$FIXTURES/suites/failing" --group core --case pass --full; expect_exit 0
	jq -e ".[0].results.output | .attribute == \"output\" and .actual == \"ok\n\" and .expected == \"ok\n\" and .is_correct == true" out
	jq -e ".[0].results.stderr | .is_correct == null and .weight == 0" out'

test_case 'a case without arguments runs the command alone' '
	mkdir -p na/c/g
	printf "name: na\nadapter: {type: cli, command: [echo, hi]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > na/suite.yaml
	printf "expected: {output: \"hi\\\\n\"}\n" > na/c/g/a.yaml
	run_assay run na -o res-na; expect_exit 0'

test_case 'a link planted in a shared folder: the next case cannot write its input file through it, is an error, and the run goes on' '
	mkdir -p pl/c/g pl/c/h keep && echo precious > keep/file
	printf "name: pl\nadapter: {type: cli, command: [sh, -c], network: on}\ncheckpoints: {c: {groups: {g: {isolated: false}, h: {}}}}\n" > pl/suite.yaml
	printf "arguments: [\"ln -s $PWD/keep/file input.txt; echo planted\"]\nexpected: {output: \"planted\\\\n\"}\n" > pl/c/g/a.yaml
	printf "arguments: [\"cat input.txt\"]\ninput_files: [{path: input.txt, content: pwned}]\nexpected: {output: pwned}\n" > pl/c/g/b.yaml
	printf "arguments: [\"echo after\"]\nexpected: {output: \"after\\\\n\"}\n" > pl/c/h/z.yaml
	run_assay run pl -o res-pl --sandbox off; expect_exit 1
	[ "$(cat keep/file)" = precious ]
	jq -se "map({(.id): .case.passed}) | add == {a: true, b: false, z: true}" res-pl/reports.jsonl
	jq -se "map(select(.id == \"b\"))[0].case.error | test(\"cannot prepare its input files: input.txt: \")" res-pl/reports.jsonl'

test_done
