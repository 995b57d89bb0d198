#!/usr/bin/env bash
# The next case armed while the one before it runs (docs/cli.md, "How a case runs (cli
# adapter)"; the pool's arm/go, proc.h `gated`): its folder, process and sandbox are made
# ahead, but its program starts only once the case before it has ended, its timeout and
# execution time count from its start, a case cannot reach the armed case after it, and an
# interrupted run never runs a case that was only armed. Every check runs with case servers (the
# default: the next case is forked and sandboxed ahead) and with ASSAY_CASE_SERVER=off (nothing
# is made ahead: the start is deferred to the go).
. "$(dirname "$0")/lib.sh"

# pgrep sees every process of the machine, and another run of this test (another build's
# ctest) runs the same programs: each program's sleep ends in this script's pid, and a pattern
# matches it to its end, so only this run's programs match (t1104 says more).
M=$$

# suite NAME SANDBOX: a suite of sh -c cases, one group, made empty
suite() {
	rm -rf "$1"
	mkdir -p "$1/c/g"
	printf 'name: %s\nadapter: {type: cli, command: [sh, -c], timeout: 10, sandbox: %s}\ncheckpoints: {c: {groups: {g: {}}}}\n' \
		"$1" "$2" > "$1/suite.yaml"
}
# case SUITE ID SCRIPT [EXPECTED-YAML]
case_() {
	printf 'arguments: [%s]\n%s\n' "$(jq -Rn --arg s "$3" '$s')" "${4:-expected: {status_code: 0\}}" \
		> "$1/c/g/$2.yaml"
}

test_case 'at -j1 the armed case starts only after the case before it has ended' '
	for sb in on off; do
		suite order $sb
		# each prints its start and its end (nanoseconds); case a ends last thing it does
		for id in a b c d; do
			case_ order $id "date +%s%N; sleep 0.2; date +%s%N"
		done
		for m in on off; do
			rm -rf res
			ASSAY_CASE_SERVER=$m "$ASSAY" run order -j 1 -o res >out 2>err ||
				{ echo "sandbox $sb servers $m"; cat out err; false; }
			jq -r ".results.output.actual" res/reports.jsonl | tr -s "\n" " " > times
			# a.start a.end b.start b.end ...: never decreasing
			awk "{ for (i = 2; i <= NF; i++) if (\$i < \$(i - 1)) { print \"overlap at \" i \": \" \$0; exit 1 } }" times ||
				{ echo "sandbox $sb servers $m"; false; }
			[ "$(wc -w < times)" = 8 ]
		done
	done
'

test_case 'an armed case is timed from its start, not from its arming' '
	suite timing on
	case_ timing a "sleep 1.5"
	printf "arguments: [\"sleep 0.3\"]\ntimeout: 1\nexpected: {status_code: 0}\n" > timing/c/g/b.yaml
	for m in on off; do
		rm -rf res
		ASSAY_CASE_SERVER=$m "$ASSAY" run timing -j 1 -o res >out 2>err ||
			{ echo "servers $m"; jq -c "{id, passed: .case.passed, ex: .case.execution}" res/reports.jsonl; false; }
		w=$(jq -r "select(.id == \"b\") | .case.execution.wall_time" res/reports.jsonl)
		awk -v w="$w" "BEGIN { exit !(w >= 0.29 && w < 0.9) }" || { echo "servers $m: b took $w s"; false; }
	done
'

test_case 'an armed case'"'"'s duration holds its whole program: never shorter than its wall time' '
	# duration leaves out the wait armed, not the go: without a server the go makes the
	# process, and the program may be running before the go returns
	rm -rf dur && mkdir -p dur/c/g
	printf "name: dur\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > dur/suite.yaml
	for i in $(seq 100 399); do printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > dur/c/g/e$i.yaml; done
	for m in on off; do
		for sb in off on; do
			rm -rf res
			ASSAY_CASE_SERVER=$m "$ASSAY" run dur -j 1 -o res --sandbox $sb >out 2>err ||
				{ echo "servers $m sandbox $sb"; cat out err; false; }
			[ "$(jq -s length res/reports.jsonl)" = 300 ]
			short=$(jq -c "select(.duration < .case.execution.wall_time) | [.id, .duration, .case.execution.wall_time]" res/reports.jsonl)
			[ -z "$short" ] || { echo "servers $m sandbox $sb: duration < wall_time: $short"; false; }
		done
	done
'

test_case 'a case cannot kill, stop or find the case armed after it' '
	suite reach on
	# everything it can name: every pid it sees, its process group, -1
	case_ reach a1-attack "ls /proc | grep -E \"^[0-9]+\$\" | while read p; do kill -STOP \$p; kill -KILL \$p; done 2>/dev/null; kill -KILL -1; true"
	for i in 2 3 4; do
		case_ reach a$i-victim "echo ok" "expected: {output: \"ok\\n\"}"
	done
	for m in on off; do
		rm -rf res
		# the attack kills itself too (kill -1): it fails, every victim passes
		code=0; ASSAY_CASE_SERVER=$m "$ASSAY" run reach -j 1 -o res >out 2>err || code=$?
		[ "$(jq -s "map(select(.case.passed) | .id) | join(\" \")" res/reports.jsonl)" = "\"a2-victim a3-victim a4-victim\"" ] ||
			{ echo "servers $m: exit $code"; jq -c "{id, passed: .case.passed, ex: .case.execution}" res/reports.jsonl; false; }
	done
'

test_case 'an interrupted run never runs the case it had armed, and --resume runs it' '
	suite intr off
	mark=$TMP/armed-ran
	case_ intr a "sleep 30.$M"
	case_ intr b "touch $mark"
	for m in on off; do
		rm -rf res "$mark"
		ASSAY_CASE_SERVER=$m "$ASSAY" run intr -j 1 -o res >out 2>err &
		bg=$!
		for i in $(seq 200); do
			pgrep -f "sleep 30[.]$M\$" >/dev/null && break
			sleep 0.05
		done
		sleep 0.3 # b is armed by now
		kill -INT $bg
		code=0; wait $bg || code=$?
		[ $code = 5 ] || { echo "servers $m: exit $code"; cat out err; false; }
		[ ! -e "$mark" ] || { echo "servers $m: the armed case ran"; false; }
		[ ! -s res/reports.jsonl ] || [ -z "$(jq -r "select(.id == \"b\") | .id" res/reports.jsonl)" ]
		# no process of it is left waiting either
		! pgrep -f "touch $mark" >/dev/null || false
		case_ intr a "true"
		ASSAY_CASE_SERVER=$m "$ASSAY" run intr -j 1 -o res --resume >out 2>err ||
			{ echo "servers $m: resume"; cat out err; false; }
		[ -e "$mark" ]
		[ "$(jq -s "map(select(.case.passed)) | length" res/reports.jsonl)" = 2 ]
		case_ intr a "sleep 30.$M"
	done
'

test_case 'with --exitfirst nothing is armed: the case after a failure never starts' '
	suite ff off
	mark=$TMP/ff-ran
	case_ ff a "sleep 0.3; exit 3"
	case_ ff b "touch $mark"
	rm -rf res
	code=0; "$ASSAY" run ff -j 1 -x -o res >out 2>err || code=$?
	[ $code = 1 ] || { cat out err; false; }
	[ ! -e "$mark" ]
'

# Without a PID namespace (the kernel refuses the user namespace: containers, some
# distributions), a process a server forks is in the host's PID namespace, of the running case's
# user (nobody with root, assay's uid without): no Landlock layer stops prlimit(2),
# setpriority(2), sched_setaffinity(2) or ioprio_set(2), and without the Landlock scope (Linux <
# 6.12) not SIGSTOP either. So no case is armed on such a server: its start waits for the go, as
# with ASSAY_CASE_SERVER=off, and the case before it has nothing of it to reach.
test_case 'without a PID namespace a case cannot reach the case armed after it' '
	require_cmd renice prlimit taskset ionice timeout
	suite nopidns on
	# its sibling servers child named assay-init: the armed case, waiting for its go
	case_ nopidns a1-attack "sleep 0.3; srv=\$PPID; top=\$(awk \"/^PPid/{print \\\$2}\" /proc/\$srv/status)
for p in \$(ls /proc | grep -E \"^[0-9]+\\\$\"); do
  pp=\$(awk \"/^PPid/{print \\\$2}\" /proc/\$p/status 2>/dev/null); [ -n \"\$pp\" ] && [ \"\$pp\" != \"\$srv\" ] || continue
  [ \"\$(awk \"/^PPid/{print \\\$2}\" /proc/\$pp/status 2>/dev/null)\" = \"\$top\" ] || continue
  [ \"\$(cat /proc/\$p/comm 2>/dev/null)\" = assay-init ] || continue
  echo \$p; { renice -n 19 -p \$p; prlimit --pid \$p --nofile=5:5 --fsize=0:0; taskset -p 1 \$p; ionice -c 3 -p \$p; kill -STOP \$p; } >/dev/null 2>&1
done; true"
	for i in 2 3 4; do
		case_ nopidns a$i-victim "nice; ulimit -n; ulimit -f; taskset -p \$\$ | sed \"s/.*: //\"; ionice -p \$\$"
	done
	for refuse in user-namespace user-namespace,landlock-scope; do
		for m in off on; do
			rm -rf res-$m
			code=0
			ASSAY_SANDBOX_REFUSE=$refuse ASSAY_CASE_SERVER=$m timeout 60 "$ASSAY" run nopidns -j 1 -o res-$m >out 2>err || code=$?
			# a victim left stopped (the attack reached it) must not outlive the test
			for v in $(jq -r "select(.id == \"a1-attack\") | .results.output.actual" res-$m/reports.jsonl 2>/dev/null); do
				[ "$(cat /proc/$v/comm 2>/dev/null)" = assay-init ] && kill -KILL $v
			done
			[ $code = 0 ] || { echo "$refuse servers $m: exit $code"; cat out err; false; }
			[ "$(wc -l < res-$m/reports.jsonl)" = 4 ]
		done
		[ "$(jq -s "map(select(.id != \"a1-attack\") | .results.output.actual) | unique | length" res-on/reports.jsonl)" = 1 ] &&
		[ "$(jq -r "select(.id == \"a2-victim\") | .results.output.actual" res-on/reports.jsonl)" = \
		  "$(jq -r "select(.id == \"a2-victim\") | .results.output.actual" res-off/reports.jsonl)" ] || {
			echo "$refuse:"; jq -r "\"\(.id): \(.results.output.actual)\"" res-on/reports.jsonl res-off/reports.jsonl; false; }
	done
'

# With the sandbox off nothing keeps a case from the armed process after it (no namespaces):
# one it stops before its go holds up that case, but never the run: its server, killed when the
# case times out, is what the library waits for, and the stopped process holds none of its pipes
# but the case's own output.
test_case 'with the sandbox off, an armed case stopped by the case before it fails alone' '
	require_cmd timeout
	suite stopped off
	case_ stopped a1-attack "sleep 0.3; srv=\$PPID; top=\$(awk \"/^PPid/{print \\\$2}\" /proc/\$srv/status)
for p in \$(ls /proc | grep -E \"^[0-9]+\\\$\"); do
  pp=\$(awk \"/^PPid/{print \\\$2}\" /proc/\$p/status 2>/dev/null); [ -n \"\$pp\" ] && [ \"\$pp\" != \"\$srv\" ] || continue
  [ \"\$(awk \"/^PPid/{print \\\$2}\" /proc/\$pp/status 2>/dev/null)\" = \"\$top\" ] || continue
  [ \"\$(cat /proc/\$p/comm 2>/dev/null)\" = assay-init ] || continue
  echo \$p; kill -STOP \$p
done; true"
	printf "arguments: [\"echo ok\"]\ntimeout: 1\nexpected: {output: \"ok\\n\"}\n" > stopped/c/g/a2-victim.yaml
	case_ stopped a3-next "echo ok" "expected: {output: \"ok\\n\"}"
	rm -rf res
	code=0
	timeout 60 "$ASSAY" run stopped -j 1 -o res >out 2>err || code=$?
	for v in $(jq -r "select(.id == \"a1-attack\") | .results.output.actual" res/reports.jsonl 2>/dev/null); do
		[ "$(cat /proc/$v/comm 2>/dev/null)" = assay-init ] && kill -KILL $v
	done
	[ $code = 1 ] || { echo "exit $code"; cat out err; false; }
	[ "$(jq -r "select(.id == \"a3-next\") | .case.passed" res/reports.jsonl)" = true ]
'

test_case 'at -j2 a case that ends lets the case armed after it go, even while assay is stopped (the relay)' '
	for sb in on off; do
		suite relay2 $sb
		case_ relay2 a "sleep 1"
		case_ relay2 b "sleep 3"
		case_ relay2 c "date +%s%N"
		case_ relay2 d "true"
		rm -rf res
		"$ASSAY" run relay2 -j 2 -o res >out 2>err &
		pid=$!
		sleep 0.5
		kill -STOP $pid
		sleep 1.5
		resumed=$(date +%s%N)
		kill -CONT $pid
		wait $pid || { echo "sandbox $sb"; cat out err; false; }
		started=$(jq -r "select(.id == \"c\") | .results.output.actual" res/reports.jsonl)
		# c follows a (armed once a and b run): a ends at ~1 s, while assay is stopped
		[ "$started" -lt "$resumed" ] || { echo "sandbox $sb: c started at $started, assay resumed at $resumed"; false; }
		# a and c ended while assay was stopped, a second before it resumed: that wait is in
		# neither duration
		for id in a c; do
			d=$(jq -r "select(.id == \"$id\") | [.duration, .case.execution.wall_time] | @tsv" res/reports.jsonl)
			awk -v d="$d" "BEGIN { split(d, v, \"\t\"); exit !(v[1] < v[2] + 0.5) }" ||
				{ echo "sandbox $sb: $id took (duration, wall time) $d"; false; }
		done
	done'

test_case 'a case armed after the case it follows has ended gets its whole timeout' '
	# a ends while assay is stopped; b, relayed by a server, ends too; c, armed on b once
	# assay resumes, found its go waiting: its timeout counts from its arming, not from the
	# relay long before (it was reported timed out after milliseconds)
	for sb in on off; do
		suite late $sb
		case_ late a "sleep 0.3"
		case_ late b "true"
		case_ late c "echo c" "expected: {output: \"c\\n\"}
timeout: 0.5"
		case_ late d "echo d" "expected: {output: \"d\\n\"}
timeout: 0.5"
		rm -rf res
		"$ASSAY" run late -j 1 -o res >out 2>err &
		pid=$!
		sleep 0.1
		kill -STOP $pid
		sleep 1.5
		kill -CONT $pid
		wait $pid || { echo "sandbox $sb"; cat out; jq -c "{id, e: .case.execution}" res/reports.jsonl; false; }
	done'

test_case 'the time spent arming the next case is not in the duration of the case that ended' '
	# a ends; its server lets b go, and assay, before it verifies a, arms c, copying its 300 MB
	# folder: time of c, not of a
	suite prep on
	case_ prep a "sleep 0.5; echo a" "expected: {output: \"a\\n\"}"
	case_ prep b "true"
	mkdir -p prep/c/g/c/files
	printf "arguments: [true]\nexpected: {status_code: 0}\n" > prep/c/g/c/case.yaml
	head -c 300M /dev/urandom > prep/c/g/c/files/blob
	rm -f prep/c/g/c.yaml
	for sb in on off; do
		rm -rf res
		"$ASSAY" run prep -j 1 -o res --sandbox $sb >out 2>err || { echo "sandbox $sb"; cat out err; false; }
		c=$(jq -r "select(.id == \"c\") | .duration" res/reports.jsonl)
		awk -v c="$c" "BEGIN { exit !(c > 0.3) }" ||
			skip_optional "arming c took $c s: too little to tell"
		a=$(jq -r "select(.id == \"a\") | [.duration, .case.execution.wall_time] | @tsv" res/reports.jsonl)
		awk -v a="$a" -v c="$c" "BEGIN { split(a, v, \"\t\"); exit !(v[1] < v[2] + c / 2) }" ||
			{ echo "sandbox $sb: a took (duration, wall time) $a, arming c $c"; false; }
	done'

test_case 'an interrupt while assay verifies a case keeps the cases that ended meanwhile' '
	# a is verified for 3 s (its verifier sleeps); b, let go by the server of a as a ended,
	# and c, armed meanwhile and let go by the server of b, end within it; the interrupt
	# comes then: all three are reported (they were dropped: b as not pumped in its turn,
	# c as only armed), and d, which never started, is not
	for sb in on off; do
		suite intr $sb
		mkdir -p intr/checks
		cat > intr/checks/slow.sh <<EOF
#!/bin/sh
cat >/dev/null; sleep 3; echo "{\\"is_correct\\": true}"
EOF
		chmod +x intr/checks/slow.sh
		case_ intr a "echo a" "expected: {output: x}
verify: {output: {verifier: command, run: [checks/slow.sh]}}"
		for id in b c d; do
			case_ intr $id "echo $id" "expected: {output: \"$id\\n\"}"
		done
		rm -rf res
		code=0
		"$ASSAY" run intr -j 1 -o res >out 2>err &
		pid=$!
		sleep 1.5
		kill -INT $pid
		wait $pid || code=$?
		expect_exit 5
		ran=$(jq -r "select(.case.passed) | .id" res/reports.jsonl | sort | tr -d "\n")
		[ "$ran" = abc ] || { echo "sandbox $sb: reported $ran"; cat err; jq -c . res/summary.json; false; }
	done'

test_done
