#!/usr/bin/env bash
# Benchmarks of the process pool (issue 10): every figure is a ratio of two things timed in the
# same run, alternating, so the load other users put on the machine weighs on both alike; the
# load average is printed before and after each part.
#
#   jq     examples/jq-1.6 (350 cases, against Debian's jq) at -j1 and at -j2, RUNS times each;
#          goal: -j2 at least 1.9x faster than -j1 on 2 cores (issue 19; 1.8 before). In the
#          same rounds, what the machine itself gives: the bare floor loop (bench/floor.c)
#          making 350 runs of `jq -c true` on `null` (a jq case's shape, without assay), as one
#          loop and as two loops of 175 at once. A machine whose two CPUs do not each run a
#          spawn-heavy loop as fast as one alone (a VM whose host is busy, SMT siblings) shows
#          it there: -j2 over -j1 cannot be read without it.
#   spawn  N trivial cases (/bin/echo hi) through `assay run -j1` against bench/spawn_loop.c, a
#          minimal C loop making the same spawns (the case supervisor, the same sandbox setting, the
#          environment the cli adapter gives a case) and nothing else, RUNS times each; goal: assay
#          <= 1.15x the loop per case.
#   rss    the same trivial suites at 1,000, 10,000 and 100,000 cases (SIZES), once each, -j1:
#          wall per case against the loop, and assay's peak RSS; goal: flat, <= 50 MB at 100,000.
#
# Working folders go to WORK_DIR (default /dev/shm when it exists, else $TMPDIR): where /tmp is
# ext4 mounted with `discard`, every removed folder waits for the disk, a cost of the file
# system, not of assay (bench/sandbox-run.sh says more). Suites and results stay in $TMPDIR: a
# results folder under a system folder such as /dev would make the sandbox walk that folder for
# every case to hide it (a cost real runs do not have). SANDBOX (default on, assay's default) is
# the setting of both assay and the loop.
# Usage: [RUNS=5] [N=2000] [SIZES="1000 10000 100000"] [SANDBOX=on|off] bench/pool.sh [jq|spawn|rss|all]
#        (needs build/assay and build/assay-bench-spawn-loop; jq for the jq part)
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT=${1:-all}
RUNS=${RUNS:-5}
N=${N:-2000}
SIZES=${SIZES:-"1000 10000 100000"}
SANDBOX=${SANDBOX:-on}
BUILD=${BUILD:-build}
ASSAY=$BUILD/assay
LOOP=$BUILD/assay-bench-spawn-loop
if [ -z "${WORK_DIR:-}" ]; then
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then WORK_DIR=/dev/shm; else WORK_DIR=${TMPDIR:-/tmp}; fi
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/assay-bench-pool.XXXXXX")
WORK=$(mktemp -d "$WORK_DIR/assay-bench-pool-work.XXXXXX")
chmod 755 "$WORK" "$TMP" # with root, cases run as nobody: they must reach their folders
trap 'rm -rf "$TMP" "$WORK"' EXIT

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# timed CMD...: seconds the command took (its exit status ignored: failing cases exit 1)
timed() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'; }

# echo_suite DIR N: a suite of N cases running /bin/echo hi
echo_suite() {
	mkdir -p "$1/c/g"
	printf 'name: echo\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > "$1/suite.yaml"
	local i
	for ((i = 1; i <= $2; i++)); do
		printf 'arguments: [hi]\nexpected: {output: "hi\\n"}\n' > "$1/c/g/e$i.yaml"
	done
}
run_echo() { # SUITE OUT
	"$ASSAY" run "$1" -q -j1 -o "$2" --sandbox "$SANDBOX" --work-dir "$WORK"
}

bench_jq() {
	command -v jq >/dev/null || { echo "jq: not installed, skipped"; return; }
	echo "== jq suite (examples/jq-1.6), -j1 against -j2, $RUNS runs each, interleaved"
	load
	"$ASSAY" run examples/jq-1.6 -q -j2 -o "$TMP/jq-warm" --work-dir "$WORK" || true
	local r j i
	cc -O2 -o "$TMP/floor" bench/floor.c
	printf 'null\n' > "$TMP/null.json"
	: > "$TMP/f175"
	for ((i = 0; i < 175; i++)); do printf '3\njq\0-c\0true\0%s\0' "$TMP/null.json" >> "$TMP/f175"; done
	cat "$TMP/f175" "$TMP/f175" > "$TMP/f350"
	: > "$TMP/j1"; : > "$TMP/j2"; : > "$TMP/c1"; : > "$TMP/c2"; : > "$TMP/m1"; : > "$TMP/m2"
	for ((r = 0; r < RUNS; r++)); do
		timed "$TMP/floor" < "$TMP/f350" >> "$TMP/m1"
		timed sh -c '"$1" < "$2" & "$1" < "$2"; wait' sh "$TMP/floor" "$TMP/f175" >> "$TMP/m2"
		for j in 1 2; do
			# wall seconds, and the CPUs the run got on average (its processes' CPU time
			# over its wall time): on a machine others load, -j2 cannot get 2
			/usr/bin/time -f '%e %U %S' -o "$TMP/time" "$ASSAY" run examples/jq-1.6 -q -j$j \
				-o "$TMP/jq$j" --work-dir "$WORK" >/dev/null 2>&1 || true
			awk '{ print $1 }' "$TMP/time" >> "$TMP/j$j"
			awk '{ print ($2 + $3) / $1 }' "$TMP/time" >> "$TMP/c$j"
		done
	done
	[ "$(jq .totals.passed "$TMP/jq2/summary.json")" = 350 ] ||
		echo "warning: not every jq case passed at -j2"
	local m1 m2
	m1=$(median < "$TMP/j1"); m2=$(median < "$TMP/j2")
	printf 'CPUs the runs got (median): -j1 %.2f, -j2 %.2f\n' "$(median < "$TMP/c1")" "$(median < "$TMP/c2")"
	cmp -s <(jq -c 'del(.duration)' "$TMP/jq1/summary.json") <(jq -c 'del(.duration)' "$TMP/jq2/summary.json") ||
		echo "warning: -j1 and -j2 summaries differ"
	printf -- '-j1: median %.3f s\n-j2: median %.3f s\nspeed-up -j2 over -j1: %.2fx (goal >= 1.9 on 2 cores)\n' \
		"$m1" "$m2" "$(awk -v a="$m1" -v b="$m2" 'BEGIN { print a / b }')"
	local f1 f2
	f1=$(median < "$TMP/m1"); f2=$(median < "$TMP/m2")
	printf 'the machine: 350 bare jq runs in one loop %.3f s, in two at once %.3f s: %.2fx\n' \
		"$f1" "$f2" "$(awk -v a="$f1" -v b="$f2" 'BEGIN { print a / b }')"
	load
}

bench_spawn() {
	echo "== $N trivial cases, assay run -j1 against the C loop, sandbox $SANDBOX, $RUNS runs each, interleaved"
	load
	echo_suite "$TMP/s$N" "$N"
	"$LOOP" 50 "$SANDBOX" "$WORK" >/dev/null # warm up
	local r
	: > "$TMP/loop"; : > "$TMP/assay"
	for ((r = 0; r < RUNS; r++)); do
		"$LOOP" "$N" "$SANDBOX" "$WORK" >> "$TMP/loop"
		rm -rf "$TMP/res"
		timed run_echo "$TMP/s$N" "$TMP/res" >> "$TMP/assay"
	done
	[ "$(jq .totals.passed "$TMP/res/summary.json")" = "$N" ] ||
		echo "warning: not every case passed: the figures time failures, not cases"
	local ml ma
	ml=$(median < "$TMP/loop"); ma=$(median < "$TMP/assay")
	awk -v l="$ml" -v a="$ma" -v n="$N" 'BEGIN {
		printf "C loop:    median %.3f s (%.0f us per case)\n", l, l * 1e6 / n
		printf "assay -j1: median %.3f s (%.0f us per case)\n", a, a * 1e6 / n
		printf "ratio assay/loop: %.3f (goal <= 1.15)\n", a / l
	}'
	load
}

bench_rss() {
	echo "== peak RSS and time per case as the case count grows, -j1, sandbox $SANDBOX"
	load
	printf '%8s %12s %12s %8s %12s\n' cases "assay us" "loop us" ratio "peak RSS"
	local n
	for n in $SIZES; do
		rm -rf "$TMP/s" "$TMP/res"
		echo_suite "$TMP/s" "$n"
		local l a rss
		l=$("$LOOP" "$n" "$SANDBOX" "$WORK")
		/usr/bin/time -f '%e %M' -o "$TMP/time" "$ASSAY" run "$TMP/s" -q -j1 -o "$TMP/res" \
			--sandbox "$SANDBOX" --work-dir "$WORK" || true
		read -r a rss < "$TMP/time"
		[ "$(jq .totals.passed "$TMP/res/summary.json")" = "$n" ] || echo "warning: not every case passed"
		awk -v n="$n" -v a="$a" -v l="$l" -v r="$rss" 'BEGIN {
			printf "%8d %12.0f %12.0f %8.3f %9.1f MB\n", n, a * 1e6 / n, l * 1e6 / n, a / l, r / 1024 }'
	done
	load
}

case $WHAT in
jq) bench_jq ;;
spawn) bench_spawn ;;
rss) bench_rss ;;
all) bench_jq; bench_spawn; bench_rss ;;
*) echo "usage: bench/pool.sh [jq|spawn|rss|all]" >&2; exit 2 ;;
esac
