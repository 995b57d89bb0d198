#!/usr/bin/env bash
# The CPU of assay's MAIN process per case (issue 19, item 3: goal <= 0.05 ms/case), apart from
# its case servers, supervisors and cases: `perf stat -e task-clock --no-inherit` on
# `assay run -j1 -q` over N trivial cases (`/bin/echo hello-N`, stdout compared, as in
# bench/floor.sh) and over N0 of them; the marginal cost is (cpu(N) - cpu(N0)) / (N - N0), so
# what a run pays once (start-up, the store's creation, the summary) drops out. CPU time, not
# wall time: a machine others are benchmarking on moves it little.
#
# With BASE=<folders of other builds' assay, space-separated> each round measures every build,
# alternately, and the ratio of this build's median to each other's is printed: the comparison
# is made in one run, on one machine state. Every run's totals are checked (all cases passed),
# so no figure times a failure.
#
# Each round also measures, the same way, bench/spawn_loop.c through case servers (the same
# spawns, through the proc API and the same servers, with nothing else: no case files, folders,
# verification, store or report) and prints assay's work of its own: assay's figure less the
# loop's, what the issue means by the main process "above its own spawn loop".
#
# Variants: on (the sandbox, assay's default), off (--sandbox off).
# Usage: [ROUNDS=5] [N=2000] [N0=300] [VARIANTS="on off"] [BUILD=build] [BASE=dir] bench/main_cpu.sh
# Needs perf (linux-perf) and jq.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
N=${N:-2000}
N0=${N0:-300}
VARIANTS=${VARIANTS:-"on off"}
BUILD=${BUILD:-build}
BASE=${BASE:-}
for b in "$BUILD" $BASE; do
	[ -x "$b/assay" ] || { echo "main_cpu.sh: no $b/assay (build it first: make)" >&2; exit 2; }
done
LOOP=$BUILD/assay-bench-spawn-loop
[ -x "$LOOP" ] || { echo "main_cpu.sh: no $LOOP (build it first: make)" >&2; exit 2; }
command -v perf >/dev/null || { echo "main_cpu.sh: needs perf" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/assay-bench-main.XXXXXX")
chmod 755 "$TMP" # with root, cases run as nobody: they must reach their folders
trap 'rm -rf "$TMP"' EXIT

make_suite() { # DIR COUNT
	mkdir -p "$1/c/g"
	printf 'name: floor\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > "$1/suite.yaml"
	for ((i = 1; i <= $2; i++)); do
		printf 'arguments: [hello-%d]\nexpected: {output: "hello-%d\\n"}\n' "$i" "$i" > "$1/c/g/e$i.yaml"
	done
}
make_suite "$TMP/big" "$N"
make_suite "$TMP/small" "$N0"
chmod -R a+rX "$TMP"

# The main process's task-clock, in ms, of one run: BUILD SUITE COUNT VARIANT
cpu_ms() {
	local out="$TMP/res" p
	rm -rf "$out"
	perf stat -x, -e task-clock --no-inherit -o "$TMP/perf" -- \
		"$1/assay" run "$TMP/$2" -q -j1 -o "$out" --sandbox "$4" >/dev/null 2>&1 || true
	p=$(jq .totals.passed "$out/summary.json" 2>/dev/null || echo 0)
	[ "$p" = "$3" ] || echo "warning: $1 sandbox $4: $p of $3 cases passed" >&2
	awk -F, '/task-clock/ { print $1 }' "$TMP/perf"
}
# The spawn loop's main-process task-clock, in ms: COUNT VARIANT
loop_ms() {
	mkdir -p "$TMP/loop" && chmod 755 "$TMP/loop"
	perf stat -x, -e task-clock --no-inherit -o "$TMP/perf" -- \
		"$LOOP" "$1" "$2" "$TMP/loop" servers >/dev/null 2>&1 ||
		echo "warning: the spawn loop failed ($1 spawns, sandbox $2)" >&2
	awk -F, '/task-clock/ { print $1 }' "$TMP/perf"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
key() { echo "$1" | tr -c 'a-zA-Z0-9\n' _; }

echo "== main-process CPU per case: ($N - $N0 cases), assay run -j1 -q, $ROUNDS rounds"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for b in "$BUILD" $BASE; do "$b/assay" run "$TMP/small" -q -j1 -o "$TMP/warm" >/dev/null 2>&1 || true; done
for ((r = 0; r < ROUNDS; r++)); do
	for v in $VARIANTS; do
		for b in "$BUILD" $BASE; do
			big=$(cpu_ms "$b" big "$N" "$v")
			small=$(cpu_ms "$b" small "$N0" "$v")
			awk -v a="$big" -v b="$small" -v n="$N" -v m="$N0" \
				'BEGIN { printf "%.4f\n", (a - b) / (n - m) }' >> "$TMP/ms-$(key "$b")-$v"
		done
		big=$(loop_ms "$N" "$v")
		small=$(loop_ms "$N0" "$v")
		awk -v a="$big" -v b="$small" -v n="$N" -v m="$N0" \
			'BEGIN { printf "%.4f\n", (a - b) / (n - m) }' >> "$TMP/loop-$v"
	done
done
for v in $VARIANTS; do
	for b in "$BUILD" $BASE; do
		printf 'sandbox %-3s  %-24s %.4f ms/case (rounds: %s)\n' "$v" "$b" \
			"$(median < "$TMP/ms-$(key "$b")-$v")" \
			"$(sort -g "$TMP/ms-$(key "$b")-$v" | tr '\n' ' ' | sed 's/ $//')"
	done
	printf 'sandbox %-3s  %-24s %.4f ms/case (rounds: %s)\n' "$v" "spawn loop, servers" \
		"$(median < "$TMP/loop-$v")" "$(sort -g "$TMP/loop-$v" | tr '\n' ' ' | sed 's/ $//')"
	awk -v a="$(median < "$TMP/ms-$(key "$BUILD")-$v")" -v l="$(median < "$TMP/loop-$v")" \
		'BEGIN { printf "sandbox %-3s  %s of its own (less the loop): %.4f ms/case, goal <= 0.05\n",
			 "'"$v"'", "'"$BUILD"'", a - l }'
	for b in $BASE; do
		awk -v a="$(median < "$TMP/ms-$(key "$BUILD")-$v")" \
		    -v b="$(median < "$TMP/ms-$(key "$b")-$v")" \
		    'BEGIN { printf "sandbox %-3s  %s over %s: %.3f\n", "'"$v"'", "'"$BUILD"'", "'"$b"'", a / b }'
	done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
