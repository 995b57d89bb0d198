#!/usr/bin/env bash
# Benchmark: what sharding costs (issue #10 part 3). A suite of N trivial cases (/bin/echo) is
# run whole, then as K shards one after another (the split's cost is in each shard), then the
# shards are merged; RUNS times each, interleaved, in the same run. Printed: the medians, the
# shards' sum over the whole run (the split's overhead), and the merge over the whole run (what
# a merge costs against running the cases), per case.
# Usage: bench/shard-merge.sh [N] [K] [RUNS]   (needs build/assay)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-3000}
K=${2:-3}
RUNS=${3:-3}
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

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for r in $(seq 1 "$RUNS"); do
	rm -rf "$TMP"/whole "$TMP"/shard-* "$TMP"/merged
	t0=$(now)
	"$ASSAY" run "$TMP/s" -q -o "$TMP/whole"
	t1=$(now)
	for k in $(seq 1 "$K"); do
		"$ASSAY" run "$TMP/s" -q -o "$TMP/shard-$k" --shard "$k/$K"
	done
	t2=$(now)
	"$ASSAY" merge "$TMP"/shard-* --suite "$TMP/s" -o "$TMP/merged" -q
	t3=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >> "$TMP/t-whole"
	awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }' >> "$TMP/t-shards"
	awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }' >> "$TMP/t-merge"
done
whole=$(median < "$TMP/t-whole")
shards=$(median < "$TMP/t-shards")
merge=$(median < "$TMP/t-merge")
echo "cases: $N, shards: $K, runs: $RUNS each, interleaved"
awk -v w="$whole" -v s="$shards" -v m="$merge" -v n="$N" -v k="$K" 'BEGIN {
	printf "whole run:        median %.3f s (%.0f us per case)\n", w, w * 1e6 / n
	printf "%d shards, summed: median %.3f s (%.0f us per case): %.3fx the whole run\n", k, s, s * 1e6 / n, s / w
	printf "merge:            median %.3f s (%.0f us per case): %.3fx the whole run\n", m, m * 1e6 / n, m / w
}'
