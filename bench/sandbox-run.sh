#!/usr/bin/env bash
# Benchmark: what the sandbox costs per case through `assay run` (issue #5: at most 10%). A suite
# of N trivial cases (/bin/echo) is run with --sandbox off and --sandbox on, alternating, RUNS
# times each, in the same run; the medians per case and their ratio are printed. Everything a
# run does is in the figure: loading each case, the supervisor, the layers, verifying, the
# results store.
# Working folders go to $TMPDIR, or to WORK_DIR when set: where /tmp is ext4 mounted with
# `discard`, every removed folder waits for the disk, and Landlock's references delay those
# waits out of the sandboxed run's way, so compare on a tmpfs too (WORK_DIR=/dev/shm).
# Usage: [WORK_DIR=DIR] bench/sandbox-run.sh [N] [RUNS]   (needs build/assay)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
RUNS=${2:-5}
ASSAY=${ASSAY:-build/assay}
TMP=$(mktemp -d)
chmod 755 "$TMP" # with root, cases run as nobody: they must reach what is in it
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$TMP/s/c/g"
printf 'name: echo\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n' \
	> "$TMP/s/suite.yaml"
for i in $(seq 1 "$N"); do
	printf 'arguments: [hi]\nexpected: {output: "hi\\n"}\n' > "$TMP/s/c/g/e$i.yaml"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for r in $(seq 1 "$RUNS"); do
	for mode in off on; do
		start=$(date +%s.%N)
		"$ASSAY" run "$TMP/s" -q -o "$TMP/res-$mode" --sandbox "$mode" \
			${WORK_DIR:+--work-dir "$WORK_DIR"}
		end=$(date +%s.%N)
		awk -v a="$start" -v b="$end" 'BEGIN { print b - a }' >> "$TMP/$mode"
	done
done
off=$(median < "$TMP/off")
on=$(median < "$TMP/on")
echo "cases: $N, runs: $RUNS each, interleaved, working folders in ${WORK_DIR:-${TMPDIR:-/tmp}}"
awk -v off="$off" -v on="$on" -v n="$N" 'BEGIN {
	printf "sandbox off: median %.3f s (%.0f us per case)\n", off, off * 1e6 / n
	printf "sandbox on:  median %.3f s (%.0f us per case)\n", on, on * 1e6 / n
	printf "ratio on/off: %.3f\n", on / off
}'
