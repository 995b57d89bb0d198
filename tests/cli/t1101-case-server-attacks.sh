#!/usr/bin/env bash
# Attacks on case servers (docs/security.md, "How a case runs": "Nothing of a case reaches the
# next", "A dead server fails its case, not the run"). Each suite's first case attacks the
# server it runs on (PID 1 of its namespace, of the program's uid); the cases after it, on the
# same server (-j 1: one lane, one server), must run as they would after any other case. Every
# check runs with servers and with ASSAY_CASE_SERVER=off (a supervisor per case), whose results
# are the reference: the two must agree.
. "$(dirname "$0")/lib.sh"

# pgrep sees every process of the machine, and another run of this test (another build's
# ctest) runs the same programs: each program's sleep ends in this script's pid, and a pattern
# matches it to its end, so only this run's programs match (t1104 says more).
M=$$

# suite NAME ATTACK VICTIM EXPECTED-YAML: a suite NAME/ whose case a1-attack runs ATTACK and
# whose cases a2..a5 each run VICTIM, expecting EXPECTED-YAML.
suite() {
	rm -rf "$1"
	mkdir -p "$1/checkpoint_1/g"
	cat > "$1/suite.yaml" <<EOF
name: $1
adapter:
  type: cli
  command: [sh, -c]
  timeout: 10
checkpoints:
  checkpoint_1:
    groups:
      g: {type: Core}
EOF
	printf 'arguments: [%s]\nexpected: {status_code: 0}\n' "$(jq -Rn --arg s "$2" '$s')" \
		> "$1/checkpoint_1/g/a1-attack.yaml"
	for i in 2 3 4 5; do
		printf 'arguments: [%s]\n%s\n' "$(jq -Rn --arg s "$3" '$s')" "$4" \
			> "$1/checkpoint_1/g/a$i-victim.yaml"
	done
}

# both SUITE [ARGS...]: runs SUITE with servers (res-on/) and without (res-off/); each run must
# exit 0 with every case reported and passed.
both() {
	local s=$1 m
	shift
	for m in off on; do
		code=0
		ASSAY_CASE_SERVER=$m "$ASSAY" run "$s" -o "res-$m" -j 1 "$@" >out 2>err || code=$?
		if [ "$code" != 0 ]; then
			echo "servers $m: exit $code"; cat out err
			jq -c '{id, passed: .case.passed, out: .results.output.actual, sig: .case.execution.signal, error: .case.error}' "res-$m/reports.jsonl" 2>/dev/null
			return 1
		fi
		[ "$(wc -l < "res-$m/reports.jsonl")" = 5 ]
	done
}

test_case 'a case cannot lower the resource limits of the cases after it (prlimit on PID 1)' '
	require_cmd prlimit
	suite lim "prlimit --pid 1 --fsize=0:0 --nofile=64:64; prlimit --pid \$PPID --fsize=0:0; true" \
		"echo hello > f && cat f && ulimit -f" "expected: {output: \"hello\nunlimited\n\"}"
	both lim
'

test_case 'a case cannot lower the priority, CPUs or I/O class of the cases after it' '
	require_cmd renice taskset chrt ionice
	suite prio "renice -n 19 -p 1; taskset -p 1 1; chrt -i -p 0 1; ionice -c 3 -p 1; true" \
		"nice; chrt -p \$\$ | head -n 1 | sed \"s/.*: //\"; ionice -p \$\$; taskset -p \$\$ | sed \"s/.*: //\"" \
		"expected: {status_code: 0}"
	both prio
	# the victims print what a fresh process gets: the same in every victim, and as without
	# servers
	[ "$(jq -s "map(select(.id != \"a1-attack\") | .results.output.actual) | unique | length" res-on/reports.jsonl)" = 1 ] || {
		jq -r "select(.id != \"a1-attack\") | \"\(.id): \(.results.output.actual)\"" res-on/reports.jsonl; false; }
	[ "$(jq -r "select(.id == \"a3-victim\") | .results.output.actual" res-on/reports.jsonl)" = \
	  "$(jq -r "select(.id == \"a3-victim\") | .results.output.actual" res-off/reports.jsonl)" ]
'

# A program runs under the scheduling policy assay was started with, with servers as without
# (a review of case servers under SCHED_BATCH, since reverted: with them, programs got
# SCHED_OTHER under chrt -b and chrt -f)
test_case 'a program runs under the scheduling policy assay runs under, with servers or without' '
	require_cmd chrt
	suite pol "true" "chrt -p \$\$ | head -n 1 | sed \"s/.*: //\"; sh -c \"chrt -p \\\$\\\$\" | head -n 1 | sed \"s/.*: //\"" "expected: {status_code: 0}"
	for pre in "" "chrt -b 0" "chrt -f 1"; do
		for m in off on; do
			rm -rf "res-$m"
			ASSAY_CASE_SERVER=$m $pre "$ASSAY" run pol -o "res-$m" -j 1 >out 2>err || { cat err; false; }
		done
		[ "$(jq -r "select(.id == \"a3-victim\") | .results.output.actual" res-on/reports.jsonl)" = \
		  "$(jq -r "select(.id == \"a3-victim\") | .results.output.actual" res-off/reports.jsonl)" ] || {
			echo "under [$pre]:"; jq -r ".results.output.actual" res-on/reports.jsonl res-off/reports.jsonl; false; }
	done
	[ "$(jq -r "select(.id == \"a3-victim\") | .results.output.actual" res-on/reports.jsonl)" = "$(printf "SCHED_FIFO\nSCHED_FIFO")" ]
'

test_case 'System V IPC a case makes does not reach the cases after it' '
	require_cmd ipcmk ipcs
	suite ipc "ipcmk -M 4096 -p 0666 && ipcmk -Q && ipcmk -S 1" \
		"ipcs -m -q -s | grep -c ^0x; true" "expected: {output: \"0\n\"}"
	both ipc
'

# mq_open(O_CREAT) makes the queue before Landlock refuses to open it (EACCES): the queue stays
# in the IPC namespace, and its existence (EACCES, not ENOENT, for a later open) is a channel.
test_case 'POSIX message queues a case makes do not reach the cases after it' '
	require_cmd python3
	py() { printf "python3 -c %s" "$(printf "%q" "import ctypes, os; rt = ctypes.CDLL(\"librt.so.1\", use_errno=True); rt.mq_open(b\"/assay-t1101\", $1, 0o600, None); print(os.strerror(ctypes.get_errno()))")"; }
	suite mq "$(py "os.O_CREAT | os.O_RDWR")" "$(py os.O_RDONLY)" "expected: {output: \"No such file or directory\n\"}"
	both mq
'

# On the run's tmpfs each case's server makes its temporary folder in the run's .tmp (issue 19):
# as root, nobody may make a folder there but not list it, and not chmod it (its owner is root),
# which would fail every later case; nor can a case's leftovers reach the next.
test_case 'a case cannot keep the cases after it from a fresh temporary folder' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root: without it the user owns .tmp, as the cases run as the user (docs/security.md)"
	suite tmp "touch \"\$TMPDIR/left\"; chmod 0 \"\$TMPDIR\"; chmod 0 \"\${TMPDIR%/*}\" 2>/dev/null && echo chmod-parent; true" \
		"[ -z \"\$(ls -A \"\$TMPDIR\")\" ] && echo x > \"\$TMPDIR/f\" && cat \"\$TMPDIR/f\"" \
		"expected: {output: \"x\n\"}"
	both tmp
	[ "$(jq -r "select(.id == \"a1-attack\") | .results.output.actual" res-on/reports.jsonl)" = "" ]
'

# (the attack review: with .tmp writable by nobody and no Landlock, a case filled the tmpfs
# with files in .tmp, which stay to the end of the run, and failed every later case; without
# Landlock assay makes the temporary folders itself, in a .tmp nobody cannot write)
test_case 'without Landlock a case cannot fill .tmp for the cases after it' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root (cases as nobody)"
	suite fill "i=0; while [ \$i -lt 400 ] && touch \"\${TMPDIR%/*}/x\$i\" 2>/dev/null; do i=\$((i+1)); done; [ \$i = 0 ] || echo filled; true" \
		"echo x > \"\$TMPDIR/f\" && cat \"\$TMPDIR/f\"" "expected: {output: \"x\n\"}"
	ASSAY_SANDBOX_REFUSE=landlock-fs both fill --scratch-inodes 300
	[ "$(jq -r "select(.id == \"a1-attack\") | .results.output.actual" res-on/reports.jsonl)" = "" ]
'

# On the run's tmpfs an empty case's working folder is made by its server too, in its group's
# folder, named by the case's id (issue 19): only where Landlock keeps every case out of that
# folder (with root it is root's, 0733: nobody may make folders in it, not list or chmod it),
# so no case can make a later case's folder first or fail it; without Landlock assay makes them.
test_case 'a case cannot make the working folders of the cases after it first' '
	suite wd "mkdir ../a3-victim ../a4-victim 2>/dev/null && echo planted; chmod 0 .. 2>/dev/null && echo chmod-group; ls .. >/dev/null 2>&1 && echo listed; true" \
		"[ -z \"\$(ls -A)\" ] && test -w . && echo fresh" "expected: {output: \"fresh\n\"}"
	both wd
	[ "$(jq -r "select(.id == \"a1-attack\") | .results.output.actual" res-on/reports.jsonl)" = "" ] || {
		jq -r "select(.id == \"a1-attack\") | .results.output.actual" res-on/reports.jsonl; false; }
	# without Landlock assay makes each folder, as it does with a supervisor per case
	ASSAY_SANDBOX_REFUSE=landlock-fs ASSAY_CASE_SERVER=on "$ASSAY" run wd -o res-nl -j 1 >out 2>err || true
	[ "$(jq -r .case.passed res-nl/reports.jsonl | tr "\n" " ")" = "true true true true true " ] || {
		cat out err; jq -c "{id, out: .results.output.actual, error: .case.error}" res-nl/reports.jsonl; false; }
'

test_case 'a case cannot take the run down by starving its server of descriptors' '
	require_cmd prlimit
	suite fds "prlimit --pid 1 --nofile=4:4; true" "echo ok" "expected: {output: \"ok\n\"}"
	both fds
'

# A hard RLIMIT_CPU of 0 on its server (or supervisor) would have the kernel kill it at its next
# tick (here: reaping the orphans the case makes), and with it the case's figures: a case sets
# no other process's limits (seccomp: prlimit64 with a pid), and its program exits as itself.
test_case 'a case cannot have its server killed by a CPU limit of 0 (prlimit on PID 1)' '
	require_cmd prlimit
	suite cpu "for p in 1 \$PPID; do prlimit --pid \$p --cpu=0:0 && echo set-\$p; done; i=0; while [ \$i -lt 300 ]; do (true &); i=\$((i+1)); done; echo ok" \
		"echo ok" "expected: {output: \"ok\n\"}"
	both cpu
	for m in on off; do
		got=$(jq -c "select(.id == \"a1-attack\") | [.case.execution.status, .results.output.actual]" \
			res-$m/reports.jsonl)
		[ "$got" = "[\"exited\",\"ok\\n\"]" ] || { echo "servers $m: $got"; false; }
	done
'

# Without the sandbox a case can stop its supervisor (or server): the library kills it after
# the timeout it cannot obey, with no report, so no figures; it passed as a timeout whose
# output matched (hostile review). A death, as any other: the case fails.
test_case 'a case that stops its supervisor or server (no sandbox) fails' '
	rm -rf stop && mkdir -p stop/c/g
	printf "name: stop\nadapter: {type: cli, command: [sh, -c], timeout: 1, sandbox: off}\ncheckpoints: {c: {groups: {g: {}}}}\n" > stop/suite.yaml
	printf "arguments: [\"echo ok; kill -STOP \$PPID; exit 0\"]\nexpected: {output: \"ok\\\\n\"}\n" > stop/c/g/a.yaml
	for mode in on off; do
		rm -rf res-stop
		code=0
		ASSAY_CASE_SERVER=$mode "$ASSAY" run stop -j1 -o res-stop --shard 1/1 >out 2>err || code=$?
		[ $code = 1 ] || { echo "mode $mode: exit $code"; cat out err; false; }
		got=$(jq -c "[.results.output.actual, .case.passed, .case.execution.status, (.case.error != null)]" res-stop/reports.jsonl)
		[ "$got" = "[\"ok\\n\",false,\"timed_out\",true]" ] || { echo "mode $mode: $got"; false; }
		# merge verifies the shard again, and keeps the failure (it refused the shard)
		rm -rf m-stop
		code=0; "$ASSAY" merge res-stop --suite stop -o m-stop >out 2>err || code=$?
		[ $code = 1 ] || { echo "mode $mode: merge exit $code"; cat out err; false; }
		[ "$(jq -c "[.case.passed, (.case.error != null)]" m-stop/reports.jsonl)" = "[false,true]" ]
	done
'

# A server killed mid-case (by anyone: here the test) fails that case, as a supervisor's death
# does, and the run goes on (exit 1, every case reported), with servers and without.
test_case 'a supervisor or server killed mid-case fails its case, not the run' '
	rm -rf kill && mkdir -p kill/c/g
	printf "name: kill\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > kill/suite.yaml
	# what it printed matches: it fails all the same (no figures, no report)
	printf "arguments: [\"echo ok; sleep 7.654%s\"]\nexpected: {output: \"ok\\\\n\"}\n" "$M" > kill/c/g/a.yaml
	printf "arguments: [\"true\"]\nexpected: {status_code: 0}\n" > kill/c/g/b.yaml
	for mode in on off; do
		rm -rf res-kill
		ASSAY_CASE_SERVER=$mode "$ASSAY" run kill -j 1 -o res-kill >out 2>err &
		bg=$!
		for i in $(seq 200); do
			pgrep -f "sleep 7[.]654$M\$" >/dev/null && break
			sleep 0.05
		done
		# the one running case a (the parent of the sleep): the next case may be armed on another
		sup=
		for pid in $(pgrep -f "sleep 7[.]654$M\$"); do
			pp=$(ps -o ppid= -p $pid | tr -d " ")
			[ "$(ps -o comm= -p "$pp")" = assay-init ] && sup=$pp
		done
		[ -n "$sup" ]
		kill -9 $sup
		code=0; wait $bg || code=$?
		[ $code = 1 ] || { echo "mode $mode: exit $code"; cat err; false; }
		[ "$(jq -r .id res-kill/reports.jsonl | sort | tr "\n" " ")" = "a b " ]
		jq -r "select(.id == \"a\") | .case.execution.message" res-kill/reports.jsonl |
			grep -q "case $( [ $mode = on ] && echo server || echo supervisor ) was killed by signal 9 during the case"
		got=$(jq -c "select(.id == \"a\") | [.results.output.actual, .case.passed, .case.error]" \
			res-kill/reports.jsonl)
		case $got in
		"[\"ok\\n\",false,\"the case "*" was killed by signal 9 during the case\"]") ;;
		*) echo "mode $mode: $got"; false ;;
		esac
		[ "$(jq -r "select(.id == \"b\") | .case.passed" res-kill/reports.jsonl)" = true ] ||
			{ echo "mode $mode"; jq -c "select(.id == \"b\")" res-kill/reports.jsonl; false; }
	done
'

test_done
