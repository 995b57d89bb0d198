#!/usr/bin/env bash
# An interrupt that comes as the running case ends (docs/cli.md, "How a case runs"): the case
# that ended is reported (its results are all in), and the case armed after it, which at -j1
# the ended case's server may already have let go (the relay, docs/security.md "The next case
# armed"), is a running case: killed, not reported, and run by --resume. Assay is stopped
# (SIGSTOP) across the moment the case ends, so that the interrupt comes after it every time.
. "$(dirname "$0")/lib.sh"

# The programs are found with pgrep, which sees every process of the machine: another run of
# this test (another build's ctest, at the same time) runs the same cases, and its pgrep has the
# pattern in its own command line. So each program's sleep ends in this script's pid (a case
# sleeps 0.417NNN s, not one more millisecond), and a pattern matches it whole, to the end of the
# command line: only this run's programs (`sh -c ...`, the `sleep` it execs, and without servers
# the case's supervisor, whose argv ends with the program's).
M=$$
A="sleep 0[.]417$M\$"
B="sleep 2[.]654$M\$"

test_case 'an interrupt as the running case ends reports it and kills the case after it' '
	require_cmd pgrep
	mkdir -p s/c/g
	printf "name: s\nadapter: {type: cli, command: [sh, -c], timeout: 10}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	printf "arguments: [\"sleep 0.417%s\"]\nexpected: {status_code: 0}\n" "$M" > s/c/g/a.yaml
	printf "arguments: [\"sleep 2.654%s\"]\nexpected: {status_code: 0}\n" "$M" > s/c/g/b.yaml
	for m in on off; do
		rm -rf res
		ASSAY_CASE_SERVER=$m "$ASSAY" run s -j 1 -o res >out 2>err &
		bg=$!
		for i in $(seq 250); do pgrep -f "$A" >/dev/null && break; sleep 0.02; done
		kill -STOP $bg
		# a ends while assay is stopped (b is armed by now: a started before the stop)
		for i in $(seq 250); do pgrep -f "$A" >/dev/null || break; sleep 0.02; done
		# its server reaps it and may let b go (the relay): give that time even under load
		for i in $(seq 100); do pgrep -f "$B" >/dev/null && break; sleep 0.03; done
		kill -INT $bg
		kill -CONT $bg
		code=0; wait $bg || code=$?
		[ $code = 5 ] || { echo "servers $m: exit $code"; cat out err; false; }
		# a ended before the interrupt: reported; b: not reported, nothing of it left
		grep "\"id\": \"a\"" res/reports.jsonl > a.before ||
			{ echo "servers $m: a, which had ended, is not reported"; cat out err; false; }
		if grep -q "\"id\": \"b\"" res/reports.jsonl; then echo "servers $m: b reported"; false; fi
		if pgrep -f "$B" >/dev/null; then echo "servers $m: b outlived the run"; false; fi
		ASSAY_CASE_SERVER=$m "$ASSAY" run s -j 1 -o res --resume >out 2>err ||
			{ echo "servers $m: resume"; cat out err; false; }
		# a is not run again (its report is the one of before); b is run and reported once
		grep "\"id\": \"a\"" res/reports.jsonl > a.after
		cmp -s a.before a.after || { echo "servers $m: a ran again"; false; }
		[ "$(grep -c "\"id\": \"b\"" res/reports.jsonl)" = 1 ] || { cat res/reports.jsonl; false; }
	done
'

test_done
