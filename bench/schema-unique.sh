#!/usr/bin/env bash
# Benchmark: the json_schema verifier's uniqueItems (hashed, O(n log n)) against the same
# document checked with `type: array` only (parsing and everything else a case costs), for
# arrays "[[0],[1],...]" of N items, through `assay run-case`. Alternated RUNS times in the same
# run; prints the medians and the ratio uniqueItems / baseline for each N (a ratio that stays
# flat as N grows says the check is no longer quadratic; it took 185 s at N = 160000).
# Usage: bench/schema-unique.sh [RUNS] [N...]   (needs build/assay and /usr/bin/python3)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
shift || true
SIZES=${*:-40000 160000 640000}
ASSAY=${ASSAY:-$PWD/build/assay}
TMP=$(mktemp -d)
chmod 755 "$TMP" # with root, cases run as nobody: they must reach what is in it
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$TMP/s/c/g" "$TMP/s/sub"
printf 'import sys\nn = int(sys.argv[1])\nsys.stdout.write("[" + ",".join("[%%d]" %% i for i in range(n)) + "]")\n' \
	> "$TMP/s/sub/gen.py"
printf 'name: schema-unique\nadapter: {type: cli, command: [/usr/bin/python3, gen.py], submission: sub, timeout: 600}\ncheckpoints: {c: {groups: {g: {type: Core}}}}\n' \
	> "$TMP/s/suite.yaml"

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
one() { # CASE: seconds of one run-case
	local t0 t1
	t0=$(date +%s.%N)
	"$ASSAY" run-case "$TMP/s" --case "$1" >/dev/null
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

printf '%10s %12s %12s %8s\n' N baseline_s unique_s ratio
for n in $SIZES; do
	printf 'arguments: ["%s"]\nexpected: {output: {type: array}}\nverify: {output: json_schema}\n' "$n" > "$TMP/s/c/g/base$n.yaml"
	printf 'arguments: ["%s"]\nexpected: {output: {type: array, uniqueItems: true}}\nverify: {output: json_schema}\n' "$n" > "$TMP/s/c/g/uniq$n.yaml"
	: > "$TMP/b" ; : > "$TMP/u"
	for _ in $(seq "$RUNS"); do
		one "base$n" >> "$TMP/b"
		one "uniq$n" >> "$TMP/u"
	done
	b=$(median < "$TMP/b"); u=$(median < "$TMP/u")
	printf '%10s %12.3f %12.3f %8.2f\n' "$n" "$b" "$u" "$(echo "$u / $b" | bc -l)"
done
