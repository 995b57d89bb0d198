#!/usr/bin/env bash
# The results store (issue #9 item 1): killing assay at any moment loses no finished case and
# never corrupts the store; --resume completes the run with every case exactly once; a second
# run into the same folder is refused; `assay show` prints a case whole.
. "$(dirname "$0")/lib.sh"

# Each test in a folder of its own.
fresh() {
	cd "$(mktemp -d -p "$TMP")"
}

# A suite of N short cases (each sleeps a little, so kills land mid-case as well as between).
make_suite() {
	local n=$1
	mkdir -p s/checkpoint_1/core s/checkpoint_1/errors
	cat > s/suite.yaml <<-'EOF'
	name: kills
	adapter: {type: cli, command: [sh, -c], timeout: 10}
	checkpoints:
	  checkpoint_1:
	    groups: {core: {type: Core}, errors: {type: Error}}
	EOF
	for i in $(seq 1 "$n"); do
		grp=core
		[ $((i % 5)) -eq 0 ] && grp=errors
		printf 'arguments: ["sleep 0.0%d; echo case-%d # t5002-%d"]\nexpected: {output: "case-%d\\n"}\n' \
			$((i % 7)) "$i" $$ "$i" > "s/checkpoint_1/$grp/c$(printf %03d "$i").yaml"
	done
}

test_case 'SIGKILL at random moments, then --resume: every case exactly once, store intact' '
	fresh
	command -v sqlite3 >/dev/null
	make_suite 40
	RANDOM=42
	flag=""
	kills=0
	for round in $(seq 1 30); do
		"$ASSAY" run s -o res -q $flag >/dev/null 2>&1 &
		pid=$!
		sleep "0.$((RANDOM % 4))$((RANDOM % 10))"
		if ! kill -KILL "$pid" 2>/dev/null; then
			wait "$pid" && break
		fi
		wait "$pid" || true
		kills=$((kills + 1))
		flag=--resume
		# (a kill before the store was made leaves none: nothing to check)
		[ ! -e res/assay.db ] || [ "$(sqlite3 res/assay.db "PRAGMA integrity_check")" = ok ]
	done
	[ "$kills" -ge 3 ]
	run_assay run s -o res --resume; expect_exit 0
	[ "$(sqlite3 res/assay.db "SELECT count(*), count(DISTINCT id) FROM cases")" = "40|40" ]
	[ "$(sqlite3 res/assay.db "SELECT count(*) FROM cases WHERE passed = 1")" = 40 ]
	[ "$(wc -l < res/reports.jsonl)" = 40 ]
	[ "$(jq -r .id res/reports.jsonl | sort -u | wc -l)" = 40 ]
	jq -e ".totals.total == 40 and .totals.passed == 40" res/summary.json
	# nothing a killed run started is still running
	! pgrep -f "t5002-$$" >/dev/null'

test_case 'a second run into a folder in use is refused and changes nothing' '
	fresh
	make_suite 3
	printf "arguments: [\"sleep 30 # t5002-lock-$$\"]\nexpected: {status_code: 0}\n" > s/checkpoint_1/core/c000.yaml
	"$ASSAY" run s -o res -q >/dev/null 2>&1 &
	pid=$!
	# wait for the event: the first run holds the lock (its pid written into assay.lock) and
	# runs its 30-second case
	for i in $(seq 1 200); do
		[ -s res/assay.lock ] && pgrep -f "t5002-lock-$$" >/dev/null && break
		sleep 0.1
	done
	run_assay run s -o res
	expect_exit 2
	expect_grep "another assay run \(pid $pid\) is writing into this results folder" err
	kill -INT "$pid"; wait "$pid" || true
	# the refused run wrote nothing: every line is the first run'"'"'s, each case once
	[ "$(jq -r .id res/reports.jsonl | sort | uniq -d | wc -l)" = 0 ]
	jq -e ".interrupted" res/summary.json'

test_case '--resume refuses a folder that ran another suite' '
	fresh
	make_suite 2
	run_assay run s -o res; expect_exit 0
	sed -i "s/name: kills/name: other/" s/suite.yaml
	run_assay run s -o res --resume; expect_exit 2
	expect_grep "holds a run of another suite" err'

test_case '--resume refuses another program: another --entry or --submission' '
	fresh
	make_suite 2
	run_assay run s -o res --entry "sh -c"; expect_exit 0
	run_assay run s -o res --resume; expect_exit 2
	expect_grep "must run the same program" err
	run_assay run s -o res --resume --entry "bash -c"; expect_exit 2
	mkdir sub
	run_assay run s -o res --resume --entry "sh -c" --submission sub; expect_exit 2
	expect_grep "without --submission, and this one with --submission sub" err
	run_assay run s -o res --resume --entry "sh -c"; expect_exit 0'

test_case '--resume refuses the sandbox turned off or on' '
	fresh
	make_suite 2
	run_assay run s -o res; expect_exit 0
	run_assay run s -o res --resume --sandbox off; expect_exit 2
	expect_grep "holds a run made with the sandbox on, and this one has it off" err
	run_assay run s -o res --resume --sandbox required; expect_exit 0
	run_assay run s -o res2 --sandbox off; expect_exit 0
	run_assay run s -o res2 --resume; expect_exit 2
	expect_grep "with the sandbox off, and this one has it on" err
	run_assay run s -o res2 --resume --sandbox off; expect_exit 0'

test_case 'a new run into a folder replaces the earlier run: no stale report files' '
	fresh
	make_suite 2
	run_assay run s -o res -f junit -f tap; expect_exit 0
	[ -f res/junit.xml ] && [ -f res/report.tap ]
	run_assay run s -o res -f tap --case c001; expect_exit 0
	[ ! -e res/junit.xml ] && [ -f res/report.tap ]
	grep -q "^1\.\.1$" res/report.tap'

test_case '--resume refuses a selection leaving out cases the folder holds; a wider one grows the run' '
	fresh
	make_suite 3
	run_assay run s -o res; expect_exit 0
	run_assay run s -o res --resume --case c001; expect_exit 2
	expect_grep "holds 2 finished cases this selection leaves out" err
	run_assay run s -o res2 --case c001; expect_exit 0
	run_assay run s -o res2 --resume; expect_exit 0
	[ "$(wc -l < res2/reports.jsonl)" = 3 ]
	run_assay run s -o res --resume; expect_exit 0'

# stop_after_one SIGNAL DIR: runs cases c001 and c002 of s into DIR (-j1), sends SIGNAL once
# c001 is in DIR/reports.jsonl, and prints the exit status of assay.
stop_after_one() {
	local bg i code=0

	"$ASSAY" run s -o "$2" -j1 -q --case c001 --case c002 >out 2>err &
	bg=$!
	for i in $(seq 300); do
		[ "$(wc -l < "$2/reports.jsonl" 2>/dev/null)" = 1 ] && break
		sleep 0.05
	done
	kill -"$1" $bg
	wait $bg || code=$?
	echo $code
}

# A narrower selection holding every finished case would redefine an unfinished run as a
# smaller finished one (exit 0, the cases left out in no not_run); a wider one puts the cases it
# finished before at their places in its own order.
test_case '--resume refuses a selection narrower than its run; a wider one keeps the run order' '
	fresh
	make_suite 3
	printf "arguments: [\"sleep 30; echo t5002-%d\"]\nexpected: {status_code: 0}\n" $$ \
		> s/checkpoint_1/core/c002.yaml
	[ "$(stop_after_one TERM res)" = 5 ]
	run_assay run s -o res --resume --case c001; expect_exit 2
	expect_grep "holds a run that has not run 1 case this selection leaves out .checkpoint_1/core/c002" err
	# as many cases, but another in the place of the one not run
	run_assay run s -o res --resume --case c001 --case c003; expect_exit 2
	expect_grep "holds a run that has not run 1 case this selection leaves out .checkpoint_1/core/c002" err
	# killed (no summary, no not_run): the count of cases it selected
	rm -rf res3
	stop_after_one KILL res3 >/dev/null
	run_assay run s -o res3 --resume --case c001; expect_exit 2
	expect_grep "holds a run of 2 cases; this selection has 1" err
	rm -rf res2
	run_assay run s -o res2 --case c003 --case c001; expect_exit 0
	printf "arguments: [\"true\"]\nexpected: {status_code: 0}\n" > s/checkpoint_1/core/c002.yaml
	run_assay run s -o res2 --resume; expect_exit 0
	[ "$(jq -r .id res2/reports.jsonl | tr "\n" " ")" = "c001 c002 c003 " ] ||
		{ cat res2/reports.jsonl; false; }'

test_case '--resume runs again a case whose file changed since' '
	fresh
	make_suite 2
	run_assay run s -o res; expect_exit 0
	printf "arguments: [\"echo new\"]\nexpected: {output: \"new\\\\n\"}\n" > s/checkpoint_1/core/c001.yaml
	run_assay run s -o res --resume -v; expect_exit 0
	expect_grep "resuming: 2 cases already done" err
	[ "$(jq -r "select(.id == \"c001\") | .results.output.actual" res/reports.jsonl)" = new ]
	[ "$(wc -l < res/reports.jsonl)" = 2 ]'

test_case 'show prints a case whole, cut values included; a value alone as its bytes' '
	fresh
	mkdir -p b/c/g
	printf "name: b\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > b/suite.yaml
	printf "arguments: [\"yes x | tr -d [:space:] | head -c 300000\"]\nexpected: {status_code: 0}\n" > b/c/g/big.yaml
	run_assay run b -o res; expect_exit 0
	grep -q "assay_cut" res/reports.jsonl
	[ "$(wc -c < res/reports.jsonl)" -lt 70000 ]
	run_assay show res c/g/big -a output --value actual; expect_exit 0
	[ "$(wc -c < out)" = 300000 ]
	[ "$(tr -d x < out | wc -c)" = 0 ]
	run_assay show res big; expect_exit 0
	jq -e ".results.output.actual | length == 300000" out
	run_assay show res nothing; expect_exit 1
	expect_grep "no case matches .nothing. in res \(a case that has not run has no result there\)" err
	run_assay show res nothing -a output; expect_exit 1
	expect_grep "no case matches .nothing. in res" err
	run_assay show res big -a files-nope; expect_exit 1
	expect_grep "no case matching .big. in res has an attribute .files-nope." err
	run_assay show not-a-results-folder big; expect_exit 2
	expect_grep "not a results folder" err'

# (a new user's trial: `assay show DIR keys-wrong` for the case c1/list/04-keys-wrong said only
# that no case matches; a part of a name is no name, but the names that hold it are the ones
# meant)
test_case 'show names the cases that hold a CASE matching none, and the glob that shows them' '
	mkdir -p b/c/g
	printf "name: b\nadapter: {type: cli, command: [true]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > b/suite.yaml
	for c in 01-put-a 02-get-a 03-get-ab 04-del; do printf "expected: {status_code: 0}\n" > b/c/g/$c.yaml; done
	run_assay run b -o res; expect_exit 0
	run_assay show res put-a; expect_exit 1
	expect_grep "no case matches .put-a. in res \(a case that has not run has no result there\); did you mean .c/g/01-put-a.\?$" err
	run_assay show res get-a; expect_exit 1
	expect_grep "; 2 cases hold it: c/g/02-get-a, c/g/03-get-ab \(.\*get-a\*. shows them all\)$" err
	run_assay show res "*get-a*"; expect_exit 0
	[ "$(grep -c "^==> c/g/0[23]-get-ab\? <==$" out)" = 2 ]
	run_assay show res /0; expect_exit 1
	expect_grep "; 4 cases hold it: c/g/01-put-a, c/g/02-get-a, c/g/03-get-ab, [.][.][.]$" err
	run_assay show res/reports.jsonl 04-de; expect_exit 1
	expect_grep "did you mean .c/g/04-del.\?$" err
	# a glob that matches nothing names nothing more
	run_assay show res "put*"; expect_exit 1
	expect_grep "there\)$" err'

# (the new-user trial: both printed the usage alone, no word of what was wrong)
test_case 'show says what is wrong with its command line: CASE missing, --value without --attribute, --attribute with --format-result' '
	fresh
	mkdir -p b/c/g
	printf "name: b\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > b/suite.yaml
	printf "arguments: [\"echo hi\"]\nexpected: {output: \"hi\\\\n\"}\n" > b/c/g/one.yaml
	run_assay run b -o res; expect_exit 0
	run_assay show res; expect_exit 2
	expect_grep "^assay: error: give the case to show after the results folder" err
	run_assay show res one --value actual; expect_exit 2
	expect_grep "^assay: error: --value needs --attribute" err
	run_assay show res one -a output --format-result; expect_exit 2
	expect_grep "^assay: error: --format-result prints every attribute.s verdict: give it or --attribute, not both" err
	run_assay show; expect_exit 2
	expect_grep "^usage: assay show" err
	run_assay show res one -a output --value actual; expect_exit 0
	[ "$(cat out)" = hi ]
	# a file of the folder that is no report file (the new-user trial: only the parse error)
	run_assay show res/summary.json one; expect_exit 2
	expect_grep "^assay: error: res/summary.json: not a reports.jsonl or reports.parquet \(line 1, column 2: .*\); give the results folder" err'

test_case 'a resumed run'"'"'s duration adds up its invocations (an interrupted one included)' '
	fresh
	mkdir -p d/c/g
	printf "name: d\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > d/suite.yaml
	for x in a b; do printf "arguments: [\"sleep 1 # t5002-dur-$$\"]\nexpected: {status_code: 0}\n" > d/c/g/$x.yaml; done
	"$ASSAY" run d -o r -q -j1 >/dev/null 2>&1 &
	pid=$!
	# wait for the event: case a finished (its line written), so b is running
	for i in $(seq 1 200); do [ -s r/reports.jsonl ] && break; sleep 0.1; done
	kill -INT $pid; wait $pid || true
	# the first invocation ran a (1 s) at least
	jq -e ".interrupted and .duration >= 1" r/summary.json
	first=$(jq .duration r/summary.json)
	run_assay run d -o r -j1 --resume; expect_exit 0
	# the second ran b (1 s): the total is both invocations, not the last alone
	jq -e ".duration >= $first + 1" r/summary.json
	# and the terminal says both: this invocation, and the whole run as summary.json has it
	expect_grep "^2 of 2 cases passed in [0-9.]* s .[0-9.]* s with its earlier invocations.$" out
	grep -Fq "$(printf "(%.2f s with its earlier" "$(jq .duration r/summary.json)")" out ||
		{ cat out; jq .duration r/summary.json; false; }'

test_done
