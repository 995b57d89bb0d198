#!/usr/bin/env bash
# Benchmark: assay running examples/jq-1.6 against the floor, a bare bash loop that starts the
# same 350 jq processes with the same arguments and standard input and throws the output away.
# Both are timed in the same run, alternating, RUNS times each; the medians and their ratio are
# printed. The goal (issue #2) is assay <= 1.15 x the floor.
# Usage: bench/run-jq.sh [RUNS]   (needs build/assay, jq)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-7}
ASSAY=${ASSAY:-build/assay}
SUITE=examples/jq-1.6
TMP=$(mktemp -d)
chmod 755 "$TMP" # with root, cases run as nobody: they must reach what is in it
trap 'rm -rf "$TMP"' EXIT

# The exact invocations, as assay resolved them: its reports carry each case's definition
# (arguments after {{static:}} substitution, stdin). This first run also warms the caches.
"$ASSAY" run "$SUITE" -q -o "$TMP/warm" || true
n=$(wc -l < "$TMP/warm/reports.jsonl")
mkdir "$TMP/in"
i=0
{
	echo 'set +e'
	while IFS= read -r line; do
		i=$((i + 1))
		printf '%s' "$line" | jq -j '.case.stdin // ""' > "$TMP/in/$i"
		args=$(printf '%s' "$line" | jq -r '.case.arguments | map(@sh) | join(" ")')
		echo "jq $args < '$TMP/in/$i' > /dev/null 2>&1"
	done < "$TMP/warm/reports.jsonl"
} > "$TMP/floor.sh"

now() { date +%s.%N; }
floor=()
tool=()
for ((r = 0; r < RUNS; r++)); do
	t0=$(now); bash "$TMP/floor.sh"; t1=$(now)
	floor+=("$(awk "BEGIN{print $t1 - $t0}")")
	t0=$(now); "$ASSAY" run "$SUITE" -q -o "$TMP/out" || true; t1=$(now)
	tool+=("$(awk "BEGIN{print $t1 - $t0}")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mf=$(median "${floor[@]}")
mt=$(median "${tool[@]}")
passed=$(jq -s 'map(select(.passed)) | length' "$TMP/out/reports.jsonl")
printf 'cases: %s (passed %s)\n' "$n" "$passed"
printf 'floor (bare loop): median %.3f s over %d runs\n' "$mf" "$RUNS"
printf 'assay run:         median %.3f s over %d runs\n' "$mt" "$RUNS"
printf 'ratio assay/floor: %.3f\n' "$(awk "BEGIN{print $mt / $mf}")"
