#!/usr/bin/env bash
# assay against the physical floor of running a suite (issue 19): 2,000 trivial cases
# (`/bin/echo hello-N`, stdout compared), `assay run -j1`, against bench/floor.c (a copy of the
# team's shared baseline: for each case posix_spawn, pipes read to EOF, wait; no verification,
# no folder, no isolation), built here. Rounds alternate floor and assay, so the load others put
# on the machine weighs on both alike; every figure is a ratio to the floor measured in the same
# round, and the median of the rounds is reported. The load average is printed before and after.
#
# Variants (each its own line, all in every round):
#   on    sandbox on (assay's default), working folders in the default place ($TMPDIR)
#   off   --sandbox off, working folders in the default place
#   on-nopin, off-nopin   the same with ASSAY_PIN=off: assay and its servers stay on every CPU
#         (docs/cli.md, "The CPUs of the harness"), for comparison
# Goals (issue 19): on <= 1.15, off <= 1.05.
#
# Usage: [ROUNDS=7] [N=2000] [VARIANTS="on off"] [BUILD=build] bench/floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}
N=${N:-2000}
VARIANTS=${VARIANTS:-"on off"}
BUILD=${BUILD:-build}
ASSAY=$BUILD/assay
[ -x "$ASSAY" ] || { echo "floor.sh: build $ASSAY first (make)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/assay-bench-floor.XXXXXX")
chmod 755 "$TMP" # with root, cases run as nobody: they must reach their folders
trap 'rm -rf "$TMP"' EXIT
cc -O2 -o "$TMP/floor" bench/floor.c

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'; }

# The suite: N cases of /bin/echo hello-N, each expecting its own line; and the floor's input,
# the same N argvs with an empty stdin file.
mkdir -p "$TMP/suite/c/g"
printf 'name: floor\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > "$TMP/suite/suite.yaml"
: > "$TMP/empty"
for ((i = 1; i <= N; i++)); do
	printf 'arguments: [hello-%d]\nexpected: {output: "hello-%d\\n"}\n' "$i" "$i" > "$TMP/suite/c/g/e$i.yaml"
	printf '2\n/bin/echo\0hello-%d\0%s\0' "$i" "$TMP/empty"
done > "$TMP/floor.in"

floor() { "$TMP/floor" < "$TMP/floor.in"; }
run_assay() { # VARIANT
	local pin=on
	rm -rf "$TMP/res-$1"
	[ "${1#*-}" = nopin ] && pin=off
	ASSAY_PIN=$pin "$ASSAY" run "$TMP/suite" -q -j1 -o "$TMP/res-$1" --sandbox "${1%-nopin}"
}

echo "== $N trivial cases, assay run -j1 against the bare floor (bench/floor.c), $ROUNDS rounds"
load
floor >/dev/null; for v in $VARIANTS; do run_assay "$v" >/dev/null 2>&1 || true; done # warm up
for v in $VARIANTS; do : > "$TMP/ratio-$v"; : > "$TMP/ms-$v"; done
: > "$TMP/ms-floor"
for ((r = 0; r < ROUNDS; r++)); do
	for v in $VARIANTS; do
		f=$(timed floor)
		a=$(timed run_assay "$v")
		echo "$f" >> "$TMP/ms-floor"
		awk -v f="$f" -v a="$a" -v n="$N" 'BEGIN { print a / f }' >> "$TMP/ratio-$v"
		awk -v a="$a" -v n="$N" 'BEGIN { print a * 1000 / n }' >> "$TMP/ms-$v"
	done
done
for v in $VARIANTS; do
	p=$(jq .totals.passed "$TMP/res-$v/summary.json" 2>/dev/null || echo 0)
	[ "$p" = "$N" ] || echo "warning: sandbox $v: $p of $N cases passed: the figures time failures"
done
awk -v f="$(median < "$TMP/ms-floor")" -v n="$N" 'BEGIN { printf "floor:         %.3f ms/case\n", f * 1000 / n }'
for v in $VARIANTS; do
	goal=1.15; [ "${v%-nopin}" = off ] && goal=1.05
	printf 'sandbox %-9s  %.3f ms/case  ratio to the floor: median %.3f (rounds: %s) goal <= %s\n' "$v" \
		"$(median < "$TMP/ms-$v")" "$(median < "$TMP/ratio-$v")" "$(sort -g "$TMP/ratio-$v" | tr '\n' ' ' | sed 's/ $//')" "$goal"
done
load
