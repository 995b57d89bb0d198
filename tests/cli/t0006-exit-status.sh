#!/usr/bin/env bash
# Every exit status of README's table, made to happen (issue #21 item 4): 0 passed, 1 failed,
# 2 the command line is wrong, 3 the suite does not load, 4 assay itself failed, 5 interrupted.
. "$(dirname "$0")/lib.sh"

# suite DIR ADAPTER_LINES...: a one-case suite (`hi`: `echo hello` prints hello) whose adapter
# section holds the given lines.
suite() {
	local dir=$1
	shift
	mkdir -p "$dir/checkpoint_1/core"
	{
		printf 'name: exit-status\nadapter:\n  type: cli\n'
		for line in "$@"; do printf '  %s\n' "$line"; done
		printf 'checkpoints:\n  checkpoint_1:\n    groups:\n      core: {type: Core}\n'
	} > "$dir/suite.yaml"
	printf 'arguments: [hello]\nexpected:\n  output: "hello\\n"\n' > "$dir/checkpoint_1/core/hi.yaml"
}

test_case '0: every case passed' '
	suite s "command: [echo]"
	run_assay run s -o res; expect_exit 0'

test_case '1: a case failed' '
	suite s "command: [echo, wrong]"
	run_assay run s -o res; expect_exit 1'

test_case '2: an unknown option, a bad value, --submission naming no folder, an --entry that does not parse' '
	suite s "command: [echo]"
	run_assay run s --no-such-option; expect_exit 2
	run_assay run s --jobs many; expect_exit 2
	run_assay run s -o res --submission "$TMP/nowhere"; expect_exit 2
	expect_grep "nowhere" err
	run_assay run s -o res --entry "'"'"'unterminated"; expect_exit 2
	expect_grep "^assay: error: --entry: unterminated single quote" err'

# both before the results folder is touched: they emptied an earlier run's store (new-user
# review); check-suite says it too
test_case '3: a misspelled adapter.command leaves nothing to run: the suite does not load' '
	suite s "command: [echo]"
	run_assay run s -o res; expect_exit 0
	cp res/assay.db before.db
	rm -rf s; suite s "comand: [echo]"
	run_assay run s -o res; expect_exit 3
	expect_grep "no command to run" err
	cmp res/assay.db before.db
	run_assay check-suite s; expect_exit 3
	expect_grep "^error: no command to run" out
	run_assay run s -o res --entry "'"'"'unterminated"; expect_exit 2
	cmp res/assay.db before.db
	run_assay run s -o res --entry ""; expect_exit 2
	expect_grep "no command to run" err
	cmp res/assay.db before.db'

# before the results folder is touched (it emptied an earlier run there), where suite.yaml
# names it; check-suite lists it too; --submission replaces it
test_case '3: a missing adapter.submission folder, or a checkpoint submission' '
	suite s "command: [echo]"
	run_assay run s -o res; expect_exit 0
	rm -rf s; suite s "command: [echo]" "submission: no-such-folder"
	run_assay run s -o res; expect_exit 3
	expect_grep "suite.yaml:5:15: adapter.submission .*/no-such-folder: no such folder" err
	[ "$(wc -l < res/reports.jsonl)" = 1 ] && [ "$(jq .totals.passed res/summary.json)" = 1 ]
	run_assay check-suite s; expect_exit 3
	expect_grep "^error: .*suite.yaml:5:15: adapter.submission" out
	run_assay run s -o res2 --submission s; expect_exit 0
	rm -rf s; suite s "command: [echo]"
	sed -i "s/^  checkpoint_1:\$/  checkpoint_1:\n    submission: nope/" s/suite.yaml
	run_assay run s -o res; expect_exit 3
	expect_grep "suite.yaml:7:17: checkpoint submission .*/nope: no such folder" err
	[ "$(wc -l < res/reports.jsonl)" = 1 ]'

test_case '3: a broken suite.yaml' '
	mkdir b; printf "name: [\n" > b/suite.yaml
	run_assay run b; expect_exit 3'

test_case '3: an unknown key under --strict; a suite with no case' '
	suite s "command: [echo]" "comand: [echo]"
	run_assay run s -o res --strict; expect_exit 3
	rm -rf s res; suite s "command: [echo]"; rm s/checkpoint_1/core/hi.yaml
	run_assay run s -o res; expect_exit 3'

test_case '4: assay cannot write its results' '
	suite s "command: [echo]"
	: > afile
	run_assay run s -o afile/res; expect_exit 4'

# signalled SIGNAL SUITE RESULTS [ignored]: runs SUITE into RESULTS and sends SIGNAL once the
# run has begun (with "ignored", assay starts with SIGNAL ignored, as under nohup); exit in $code
signalled() {
	code=0
	(if [ "${4:-}" = ignored ]; then trap "" "$1"; fi; exec "$ASSAY" run "$2" -o "$3" > out 2> err) &
	pid=$!
	for i in $(seq 50); do [ -f "$3/assay.db" ] && break; sleep 0.1; done
	sleep 0.3
	kill -"$1" $pid
	wait $pid || code=$?
}

test_case '5: interrupted (SIGINT): not every case ran' '
	suite s "command: [sh, -c, \"sleep 30\"]"
	signalled INT s res
	expect_exit 5'

test_case '5: a hang-up (SIGHUP) interrupts as SIGINT does, unless it is ignored (nohup)' '
	suite s "command: [sh, -c, \"sleep 30\"]"
	signalled HUP s res
	expect_exit 5
	[ "$(jq .interrupted res/summary.json)" = true ]
	# ignored: the run goes on, and its one case passes
	suite t "command: [sh, -c, \"sleep 1.5; echo hello\"]" "timeout: 5"
	signalled HUP t res2 ignored
	expect_exit 0
	[ "$(jq .interrupted res2/summary.json)" = false ]'

# caught PID SIGNAL: has process PID a handler for SIGNAL (a number) yet? (/proc, no fork)
caught() {
	local k v
	while read -r k v; do
		[ "$k" = SigCgt: ] && { [ $((0x$v >> ($2 - 1) & 1)) = 1 ]; return; }
	done < "/proc/$1/status"
	return 1
}

test_case '5: a signal while the suite loads stops assay before it touches the results folder' '
	# SIGTERM is caught from the start of loading (it used to be only as the run started: a
	# signal before killed assay, exit 143, its results folder half made); the run never
	# starts, and the results folder, an earlier run, is left whole. suite.yaml ends in 40 MB
	# of comments, which take long enough to read that the signal comes while it loads
	rm -rf s res3
	suite s "command: [echo]"
	head -c 40000000 /dev/zero | tr "\0" x | fold -w 1000 | sed "s/^/# /" >> s/suite.yaml
	run_assay run s -o res3 -q; expect_exit 0
	code=0
	"$ASSAY" run s -o res3 > out 2> err &
	pid=$!
	for i in $(seq 100000); do
		caught $pid 15 2>/dev/null || ! kill -0 $pid 2>/dev/null || continue
		break
	done
	kill -TERM $pid
	wait $pid || code=$?
	expect_exit 5
	expect_grep "interrupted before the run started: res3 is untouched" err
	[ "$(jq -c "[.interrupted, .totals.total]" res3/summary.json)" = "[false,1]" ]
	[ "$(wc -l < res3/reports.jsonl)" = 1 ]'

test_done
