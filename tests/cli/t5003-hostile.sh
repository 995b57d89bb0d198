#!/usr/bin/env bash
# A hostile suite (issue #5 "Tests: one attack per promise"): each case tries one attack, and
# is written so that it passes only when the attack failed (or its verdict is checked below).
# The test then checks that every canary is intact, every other verdict is right, the results
# are whole and unforged, nothing outlives the run, and assay exited normally.
# HOSTILE_JOBS (default 1) is the run's -j: t5007-hostile-parallel.sh runs the same attacks with
# cases running side by side.
. "$(dirname "$0")/lib.sh"

TOOL=$ASSAY_TEST_TOOL
W=$TMP/world             # what a case must never touch
mkdir -p "$W/keep" "$W/home"
echo precious > "$W/keep/file"
echo secret > "$W/home/secret"

"$TOOL" listen "$W/port" 60 & listener=$!
for i in $(seq 50); do [ -s "$W/port" ] && break; sleep 0.1; done
PORT=$(head -n 1 "$W/port")

S=$TMP/hostile
mkdir -p "$S/checkpoint_1/attacks" "$S/checkpoint_1/shared"
cat > "$S/suite.yaml" <<EOF
name: hostile
adapter:
  type: cli
  command: [sh, -c]
  timeout: 5
  read_paths: ["$(dirname "$TOOL")"]
checkpoints:
  checkpoint_1:
    groups:
      attacks: {type: Core}
      shared: {type: Core, isolated: false}
EOF
case_file() { # NAME GROUP SCRIPT EXPECTED-YAML
	printf 'arguments: [%s]\n%s\n' "$(jq -Rn --arg s "$3" '$s')" "$4" > "$S/checkpoint_1/$2/$1.yaml"
}
T=$TOOL
case_file a-forge attacks "$T forge-results z-after" 'expected: {output: "blocked\n"}'
case_file b-canary attacks "$T write-file $W/keep/pwned; $T write-file /tmp/assay-pwned-$$" 'expected: {status_code: 1}'
case_file c-home attacks "$T read-file $W/home/secret" 'expected: {status_code: 1}'
case_file d-suite attacks "cat $S/checkpoint_1/attacks/d-suite.yaml" 'expected: {status_code: 1}'
case_file e-connect attacks "$T connect $PORT" 'expected: {status_code: 1}'
case_file f-signal attacks "pkill -TERM -f 'assay run' ; kill -TERM -1; echo alive" 'expected: {status_code: 0}'
case_file g-forkbomb attacks "$T fork-bomb hostile-bomb-marker-$$" 'expected: {status_code: -1}
limits: {processes: 64}
timeout: 2'
case_file h-rename-group attacks 'g=$(dirname "$PWD"); mv "$g" "$g.x" && ln -s '"$W/keep"' "$g"; echo tried' 'expected: {output: "tried\n"}'
case_file i-move-workdir attacks 'd=$PWD; cd .. && mv "$d" "$d.moved"; echo tried' 'expected: {output: "tried\n"}'
# (its program blocks once assay stops reading at the cap, until its timeout: time enough to
# reach the cap under ASan on a loaded machine, which 5 s was not once)
case_file j-nul-flood attacks 'head -c 200000000 /dev/zero' 'expected: {output: ""}
timeout: 15'
case_file k-big-json attacks 'printf "["; yes "1," | head -c 66000000 | tr -d "\n"; printf "1]"' 'expected: {output: []}
verify: {output: {verifier: json}}'
case_file l-fake-number attacks 'printf "{\"n\": \"\\u0000assay-number:12\"}"' 'expected: {output: {n: 12}}
verify: {output: {verifier: json}}'
case_file m-rss attacks 'true' 'expected: {status_code: 0, max_rss: {max: 50000000}}'
case_file z-after attacks 'echo ok > made; cat made' 'expected: {output: "ok\n", files: {made: "ok\n"}}'
case_file a-rename-shared shared 'd=$PWD; mv "$d" "$d.x" && ln -s '"$W/keep"' "$d"; echo tried' 'expected: {output: "tried\n"}'
case_file b-after shared 'echo ok > made; cat made' 'expected: {output: "ok\n"}'
NCASES=16
report() { # ID: its report line
	jq -c "select(.id == \"$1\")" res/reports.jsonl
}

# Every check of a finished run, in the folder holding its results (res/).
check_run() {
	# canaries
	[ "$(cat "$W/keep/file")" = precious ]
	[ "$(ls "$W/keep")" = file ]
	[ ! -e /tmp/assay-pwned-$$ ]
	[ ! -s "$W/port.log" ]
	# the results: whole, once each, nothing forged
	[ "$(wc -l < res/reports.jsonl)" = $NCASES ]
	[ "$(jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" res/reports.jsonl | sort -u | wc -l)" = $NCASES ]
	[ "$(sqlite3 res/assay.db "SELECT count(*) FROM cases")" = $NCASES ]
	[ "$(sqlite3 res/assay.db "PRAGMA integrity_check")" = ok ]
	# every case had every layer, the namespaces included (with or without root)
	[ "$(jq -c "select((.case.execution.sandbox | length) != 7 or .case.execution.sandbox_refused != null) | .id" res/reports.jsonl)" = "" ]
	# the attacks that must fail their own case; every other case passed
	report j-nul-flood | jq -e ".case.passed == false and .case.execution.stdout_truncated == true"
	report k-big-json | jq -e ".case.passed == false"
	report l-fake-number | jq -e ".case.passed == false and (.results.output.diff | tostring | test(\"type_changes\"))"
	failing=$(jq -r "select(.case.passed == false) | .id" res/reports.jsonl | sort | tr "\n" " ")
	[ "$failing" = "j-nul-flood k-big-json l-fake-number " ] || { echo "failing: $failing"; jq -c "select(.case.passed == false) | {id, results, case}" res/reports.jsonl | cut -c1-600; false; }
	# nothing outlives the run
	! pgrep -f "hostile-bomb-marker-$$" || false
	# the summary agrees
	jq -e ".totals.total == $NCASES and .totals.passed == $((NCASES - 3))" res/summary.json
}

test_case 'every attack fails, every canary is intact, every verdict is right' '
	run_assay run "$S" -o res --stdout-cap 128M --sandbox required -j "${HOSTILE_JOBS:-1}"
	expect_exit 1
	check_run'

test_case 'the verification budget bounds a huge document: the case fails within the budget, the run goes on' '
	report k-big-json | jq -e ".duration < 90" # the 60 s budget bounds it, even under ASan on a busy machine
	report k-big-json | jq -e ".results.output.diff | tostring | test(\"verification budget\")"'

# The same attacks on assay run by an unprivileged user (the CLI is not dumpable, and the
# sandbox must still make its namespaces). Needs root to become nobody.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 1777 "$W/keep" # only the sandbox stands between a case and the canaries now
	chmod 644 "$W/home/secret"
	mkdir nobody && chown 65534:65534 nobody
	test_case 'run by an unprivileged user: every attack fails, with every layer' '
		cd nobody
		code=0
		setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$PWD" TMPDIR="$PWD" \
			"$ASSAY" run "$S" -o res --stdout-cap 128M --sandbox required \
			-j "${HOSTILE_JOBS:-1}" >out 2>err || code=$?
		expect_exit 1
		check_run'
	# Without the namespaces (refused) and with a supervisor per case, a case runs as
	# the user beside the supervisors of the cases after it: none may be dumpable, even
	# in the moment after its exec (the CLI holds capabilities in a user namespace of
	# its own, for its tmpfs: with them it could read the image, and the kernel left the
	# supervisor dumpable; a case forged a report through /proc/PID/fd/3, attack review)
	test_case 'run by an unprivileged user without the namespaces: no case opens the report pipe of another' '
		mkdir -p nobody/grab/c/g
		cd nobody
		# the tool is the command: the attack is a child of its supervisor, whose parent is assay
		printf "name: grab\nadapter: {type: cli, command: [%s], timeout: 60}\ncheckpoints: {c: {groups: {g: {}}}}\n" \
			"$ASSAY_TEST_TOOL" > grab/suite.yaml
		printf "arguments: [grab-report-pipes, \"4\", grandparent]\nexpected: {output: \"opened 0\\\\n\"}\n" > grab/c/g/a.yaml
		for i in $(seq 300); do
			printf "arguments: [whoami]\nexpected: {status_code: 0}\n" > grab/c/g/b$i.yaml
		done
		chown -R 65534:65534 grab
		code=0
		ASSAY_CASE_SERVER=off ASSAY_SANDBOX_REFUSE=user-namespace,landlock-fs,landlock-scope,landlock-net \
			setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$PWD" TMPDIR="$PWD" \
			"$ASSAY" run grab -o gres -j 2 -q >out 2>err || code=$?
		jq -r "select(.id == \"a\") | .results.output.actual" gres/reports.jsonl
		expect_exit 0'
fi

kill "$listener" 2>/dev/null
test_done
