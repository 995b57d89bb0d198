#!/usr/bin/env bash
# Parallel cases (issue 10 part 1): -j N runs cases at once, yet the listing, summary.json and
# reports.jsonl read as at -j1; a shared-folder group runs in order; Ctrl-C kills the running
# cases, keeps the finished ones, and --resume completes the run with every case once; a
# shared group that did not finish runs again whole on --resume.
. "$(dirname "$0")/lib.sh"

M=$$ # marks this test's processes: sleeps of durations no other run uses

# A suite: isolated cases that sleep different times (in run order, not in length order) and
# write when they ran on stderr, two that fail, and a shared-folder group whose cases read the
# files of the earlier ones.
make_suite() { # DIR
	mkdir -p "$1/c1/iso" "$1/c1/shared" "$1/c2/more"
	cat > "$1/suite.yaml" <<'EOF'
name: parallel
adapter: {type: cli, command: [sh, -c], timeout: 30}
checkpoints:
  c1:
    groups:
      iso: {type: Core}
      shared: {type: Core, isolated: false}
  c2:
    groups:
      more: {type: Functionality}
EOF
	local i=0
	for s in 8 2 6 1 5 3 7 4; do
		i=$((i + 1))
		printf 'arguments: ["echo start $(date +%%s.%%N) >&2; sleep 0.%s%s; echo end $(date +%%s.%%N) >&2; echo ok"]\nexpected: {output: "ok\\n"}\n' \
			"$s" "$M" > "$1/c1/iso/case$i.yaml"
	done
	printf 'arguments: ["sleep 0.3%s; echo wrong"]\nexpected: {output: "right\\n"}\n' "$M" > "$1/c1/iso/fail1.yaml"
	printf 'arguments: ["echo oops >&2; exit 3"]\nexpected: {status_code: 0}\n' > "$1/c2/more/fail2.yaml"
	for id in a b c; do
		printf 'arguments: ["sleep 0.2%s; echo %s >> log; cat log"]\nexpected: {output: "%s"}\n' \
			"$M" "$id" "$(case $id in a) echo 'a\n' ;; b) echo 'a\nb\n' ;; c) echo 'a\nb\nc\n' ;; esac)" \
			> "$1/c1/shared/$id.yaml"
	done
	for i in 1 2 3; do
		printf 'arguments: ["sleep 0.%s%s; echo %s"]\nexpected: {output: "%s\\n"}\n' "$((4 - i))" "$M" "$i" "$i" \
			> "$1/c2/more/m$i.yaml"
	done
}
make_suite s
N=16

# what must not depend on -j: the listing and table (times aside), summary.json (its duration
# aside), reports.jsonl's order
normal() { sed -E 's/in [0-9.]+ s$/in T s/; s/^results: r[0-9]/results: R/' "$1"; }

test_case '-j4 lists, sums up and reports exactly as -j1' '
	run_assay run s -o r1 -j1 --color never; expect_exit 1
	normal out > out1
	run_assay run s -o r4 -j4 --color never --format jsonl:f4.jsonl; expect_exit 1
	normal out > out4
	test_cmp out1 out4
	expect_grep "^  FAIL c1/iso/fail1 " out4
	expect_grep "^  FAIL c2/more/fail2 " out4
	jq -S "del(.duration)" r1/summary.json > sum1
	jq -S "del(.duration)" r4/summary.json > sum4
	test_cmp sum1 sum4
	jq -e ".totals.total == $N and .totals.passed == $((N - 2)) and .interrupted == false" r4/summary.json
	# every case once, in run order
	jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" r1/reports.jsonl > ids1
	jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" r4/reports.jsonl > ids4
	test_cmp ids1 ids4
	# a --format report is written in run order too
	jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" f4.jsonl > idsf4
	test_cmp ids1 idsf4
	[ "$(wc -l < ids4)" = $N ] && [ "$(sort -u ids4 | wc -l)" = $N ]
	[ "$(sqlite3 r4/assay.db "SELECT count(*) FROM cases")" = $N ]'

# cases_at_once SUITE ARGS...: runs SUITE (cases that sleep 30 s, marked with $M) in the
# background and waits for the observable event, two of its cases alive at once (pgrep), for
# at most 20 s; then interrupts the run. Prints the most cases seen alive at once.
make_sleepers() {
	mkdir -p "$1/c/g"
	printf "name: p\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > "$1/suite.yaml"
	for i in 1 2 3 4; do
		printf "arguments: [\"sleep 30 # t2003-at-once-%s\"]\nexpected: {status_code: 0}\n" "$M" > "$1/c/g/s$i.yaml"
	done
}
cases_at_once() {
	local pid most=0 n i
	"$@" >/dev/null 2>&1 & pid=$!
	for i in $(seq 200); do
		n=$(pgrep -fc "sleep 30 # t2003-at-once-$M") || n=0
		[ "$n" -gt "$most" ] && most=$n
		[ "$most" -ge 2 ] && break
		sleep 0.1
	done
	kill -INT $pid; wait $pid || true
	echo "$most"
}
make_sleepers p

test_case '-j4 really runs cases at once; -j1 never does' '
	# at -j4, two cases are seen alive at once
	[ "$(cases_at_once "$ASSAY" run p -o rp4 -j4 -q)" -ge 2 ]
	# [start, end] of each isolated case of a -j1 run, which wrote them: none overlaps another
	overlaps() {
		jq -s "[.[] | select(.group == \"iso\" and .case.passed) | .results.stderr.actual
			| capture(\"start (?<s>[0-9.]+)\\nend (?<e>[0-9.]+)\") | [(.s | tonumber), (.e | tonumber)]]
			| sort | [range(1; length) as \$i | select(.[\$i][0] < .[\$i - 1][1])] | length" "$1"
	}
	[ "$(overlaps r1/reports.jsonl)" = 0 ]
	# and the shared group ran in order, in one folder (its outputs say so: all passed)
	jq -se "[.[] | select(.group == \"shared\") | .case.passed] == [true, true, true]" r4/reports.jsonl'

test_case 'the default -j is the CPUs assay may run on (taskset, Slurm), not the machine'"'"'s' '
	require_cmd taskset
	[ "$(nproc --all)" -ge 2 ] || skip_optional "needs two CPUs"
	overlaps() {
		jq -s "[.[] | select(.group == \"iso\" and .case.passed) | .results.stderr.actual
			| capture(\"start (?<s>[0-9.]+)\\nend (?<e>[0-9.]+)\") | [(.s | tonumber), (.e | tonumber)]]
			| sort | [range(1; length) as \$i | select(.[\$i][0] < .[\$i - 1][1])] | length" "$1"
	}
	code=0
	taskset -c 0 "$ASSAY" run s -o rt1 -q || code=$?
	expect_exit 1
	[ "$(overlaps rt1/reports.jsonl)" = 0 ]
	[ "$(cases_at_once taskset -c 0,1 "$ASSAY" run p -o rt2 -q)" -ge 2 ]'

test_case 'run-case -j4 shows the same verdicts as -j1' '
	run_assay run-case s -j1 --format json; expect_exit 1
	jq -S "map(del(.results))" out > rc1
	run_assay run-case s -j4 --format json; expect_exit 1
	jq -S "map(del(.results))" out > rc4
	test_cmp rc1 rc4'

test_case 'Ctrl-C kills the running cases, keeps the finished ones; --resume completes with every case once' '
	rm -rf t && cp -r s t
	printf "arguments: [\"sleep 5.0%s; echo late\"]\nexpected: {output: \"late\\\\n\"}\n" "$M" > t/c1/iso/case0.yaml
	code=0
	"$ASSAY" run t -o ri -j4 -q & pid=$!
	for i in $(seq 100); do [ "$(cat ri/reports.jsonl 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.1; done
	kill -INT $pid
	wait $pid || code=$?
	expect_exit 5
	if pgrep -f "sleep [0-9][.][0-9]$M"; then echo "a case outlived the interrupt"; false; fi
	jq -e ".interrupted == true and .totals.total < $((N + 1)) and (.not_run | index(\"c1/iso/case0\")) != null" ri/summary.json
	jq -e "(.not_run | length) + .totals.total == $((N + 1))" ri/summary.json
	[ "$(wc -l < ri/reports.jsonl)" = "$(jq .totals.total ri/summary.json)" ]
	run_assay run t -o ri -j4 --resume; expect_exit 1
	jq -e ".interrupted == false and .totals.total == $((N + 1)) and .totals.passed == $((N - 1))" ri/summary.json
	jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" ri/reports.jsonl > ids
	[ "$(wc -l < ids)" = $((N + 1)) ] && [ "$(sort -u ids | wc -l)" = $((N + 1)) ]
	[ "$(sqlite3 ri/assay.db "SELECT count(*) FROM cases")" = $((N + 1)) ]
	# in run order, as a run that was never interrupted
	run_assay run t -o rf -j4 -q; expect_exit 1
	jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" rf/reports.jsonl > idsf
	test_cmp idsf ids'

test_case 'the terminal names the cases an interrupt left out' '
	rm -rf t2 && cp -r s t2
	printf "arguments: [\"sleep 5.0%s\"]\nexpected: {status_code: 0}\n" "$M" > t2/c1/iso/case0.yaml
	code=0
	"$ASSAY" run t2 -o rt -j2 --color never >out 2>err & pid=$!
	for i in $(seq 100); do [ "$(cat rt/reports.jsonl 2>/dev/null | wc -l)" -ge 1 ] && break; sleep 0.1; done
	kill -INT $pid
	wait $pid || code=$?
	expect_exit 5
	expect_grep "^interrupted: [0-9]+ of $((N + 1)) cases ran" out
	expect_grep "^  not run: c1/iso/case0$" out'

test_case '--resume runs a shared-folder group that did not finish again whole' '
	# only the first case of the shared group has a result: the others read its file, so the
	# whole group runs again (replaying a and running b, c in a fresh folder would fail them)
	run_assay run s -o rs -j4 --case "c1/shared/a"; expect_exit 0
	expect_grep "^assay: warning: c1/shared: 1 of 3 cases selected; .*\(isolated: false\)" err
	a_before=$(jq -r .timestamp rs/reports.jsonl)
	run_assay run s -o rs -j4 --resume; expect_exit 1
	jq -se "[.[] | select(.group == \"shared\") | .case.passed] == [true, true, true]" rs/reports.jsonl
	[ "$(jq -r "select(.group == \"shared\" and .id == \"a\") | .timestamp" rs/reports.jsonl)" != "$a_before" ]
	jq -e ".totals.total == $N" rs/summary.json
	# a shared group that did finish is replayed, not run
	stamp=$(jq -r "select(.group == \"shared\" and .id == \"b\") | .timestamp" rs/reports.jsonl)
	rm -rf rs2 && cp -r rs rs2
	sqlite3 rs2/assay.db "DELETE FROM cases WHERE grp = \"iso\" AND id = \"case1\""
	run_assay run s -o rs2 -j4 --resume; expect_exit 1
	[ "$(jq -r "select(.group == \"shared\" and .id == \"b\") | .timestamp" rs2/reports.jsonl)" = "$stamp" ]'

test_case '-x with -j4 starts nothing after the first failure and reports what ran' '
	run_assay run s -o rx -j4 -x; expect_exit 1
	expect_grep "^stopped at the first failure \(--exitfirst\): [0-9]+ of $N cases ran" out
	total=$(jq .totals.total rx/summary.json)
	[ "$total" -lt $N ] && [ "$(wc -l < rx/reports.jsonl)" = "$total" ]
	jq -e ".totals.passed < .totals.total" rx/summary.json'

test_case 'a case of a shared group that cannot be loaded fails alone; the group goes on' '
	rm -rf sb && cp -r s sb
	printf "arguments: [x]\nexpectd: {output: x}\n" > sb/c1/shared/b.yaml
	run_assay run sb -o rsb -j4 --strict; expect_exit 1
	jq -se "[.[] | select(.group == \"shared\") | {(.id): .case.passed}] | add == {a: true, b: false, c: false}" rsb/reports.jsonl
	jq -e ".interrupted == false and .totals.total == $N" rsb/summary.json
	# c ran (after a, in the same folder): its output has a but not b
	jq -se "map(select(.id == \"c\"))[0].results.output.actual == \"a\\nc\\n\"" rsb/reports.jsonl'

test_case 'a bad -j is a usage error' '
	run_assay run s -o rb -j x; expect_exit 2
	expect_grep "bad value .x. for option .--jobs." err'

test_done
