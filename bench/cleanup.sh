#!/usr/bin/env bash
# Cleaning up after a case against the case's own time (issue 18 item 9): one case makes N
# empty folders (default 40,000) in its working folder; the figure is the run's wall time minus
# the case's own execution_time (assay's cleanup and bookkeeping), over the case's own time.
# Rounds alternate the run's tmpfs (the default) and the working folders on disk
# (ASSAY_SCRATCH=off: $TMPDIR's file system), and report medians.
# Usage: [N=40000] [ROUNDS=3] [BUILD=build] bench/cleanup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-40000}
ROUNDS=${ROUNDS:-3}
ASSAY=${BUILD:-build}/assay
[ -x "$ASSAY" ] || { echo "cleanup.sh: build $ASSAY first (make)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/assay-bench-cleanup.XXXXXX")
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/suite/c/g"
cat > "$TMP/suite/suite.yaml" <<YAML
name: cleanup
adapter: {type: cli, command: [/bin/sh, -c, 'i=0; while [ \$i -lt $N ]; do echo d\$i; i=\$((i+1)); done | xargs mkdir; echo made']}
checkpoints: {c: {groups: {g: {}}}}
YAML
printf 'expected: {output: "made\\n"}\n' > "$TMP/suite/c/g/many.yaml"
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "== one case making $N empty folders, $ROUNDS rounds"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for mode in tmpfs disk; do : > "$TMP/$mode"; done
for ((r = 0; r < ROUNDS; r++)); do
	for mode in tmpfs disk; do
		rm -rf "$TMP/res"
		t0=$(now)
		if [ $mode = disk ]; then
			ASSAY_SCRATCH=off "$ASSAY" run "$TMP/suite" -q -o "$TMP/res" >/dev/null 2>&1 || true
		else
			"$ASSAY" run "$TMP/suite" -q -o "$TMP/res" >/dev/null 2>&1 || true
		fi
		t1=$(now)
		c=$(jq -r '.case.execution.wall_time' "$TMP/res/reports.jsonl" | head -1)
		p=$(jq -r .case.passed "$TMP/res/reports.jsonl")
		[ "$p" = true ] || echo "warning: the case did not pass ($mode)"
		awk -v a="$t0" -v b="$t1" -v c="$c" 'BEGIN { printf "%.3f %.3f %.3f\n", (b - a - c) / c, c, b - a }' >> "$TMP/$mode"
	done
done
for mode in tmpfs disk; do
	printf '%-6s cleanup over the case'"'"'s own time: median %.2f (case %.2f s, run %.2f s)\n' "$mode" \
		"$(cut -d' ' -f1 "$TMP/$mode" | median)" "$(cut -d' ' -f2 "$TMP/$mode" | median)" "$(cut -d' ' -f3 "$TMP/$mode" | median)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
