#!/usr/bin/env bash
# Benchmark of reports (issue #9): a generated run of N cases written to the results store as a
# run writes it (bench/reports_gen.c: the store sink: assay.db, reports.jsonl, summary.json),
# alone (the baseline) and with every report format streamed beside it (assay run --format
# ...); then `assay report` rendering the 100,000-case store to each format, against the
# baseline of rendering it to JSONL (reading the store and writing reports.jsonl alone).
# Peak memory (maximum RSS, GNU time) at 10,000, 30,000 and 100,000 cases shows whether it
# stays flat as cases grow. Ratios are against a baseline measured in the same run.
# With chromium installed, the 100,000-case HTML page is loaded headless and its counts read.
#
# Usage: bench/reports.sh [SIZES...]   (default 10000 30000 100000; needs build/assay and
#                                       build/assay-bench-reports, and /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/.."
ASSAY=${ASSAY:-$PWD/build/assay}
GEN=${GEN:-$PWD/build/assay-bench-reports}
SIZES=${*:-10000 30000 100000}
TMP=$(mktemp -d)
chmod 755 "$TMP" # with root, cases run as nobody: they must reach what is in it
trap 'rm -rf "$TMP"' EXIT

# measure NAME CMD...: prints "NAME seconds peak-KB" and keeps them in $secs / $kb.
measure() {
	local name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || {
		cat "$TMP/err"
		exit 1
	}
	read -r secs kb < "$TMP/time"
	printf "  %-28s %8.2f s %9d KB\n" "$name" "$secs" "$kb"
}

echo "== a generated run written to the store, alone and with every format streamed beside it"
for n in $SIZES; do
	echo "-- $n cases"
	measure "store (baseline)" "$GEN" "$TMP/s$n" "$n" store
	base=$secs
	measure "store + 6 formats" "$GEN" "$TMP/a$n" "$n" all
	awk -v a="$secs" -v b="$base" -v n="$n" 'BEGIN {
		printf "  per case: baseline %.1f us, with every format %.1f us (x%.2f)\n",
			b / n * 1e6, a / n * 1e6, a / b }'
	ls -l "$TMP/a$n" | awk 'NR > 1 { printf "    %-16s %12d bytes\n", $9, $5 }'
	[ "$n" = "${SIZES##* }" ] || rm -rf "$TMP/a$n" "$TMP/s$n"
done

n=${SIZES##* }
echo "== assay report from the $n-case store, each format (baseline: jsonl)"
measure "jsonl (baseline)" "$ASSAY" report "$TMP/s$n" --format jsonl -o "$TMP/r.jsonl"
base=$secs
for f in json junit tap markdown html parquet; do
	measure "$f" "$ASSAY" report "$TMP/s$n" --format "$f" -o "$TMP/r.$f"
	awk -v a="$secs" -v b="$base" -v n="$n" -v s="$(wc -c < "$TMP/r.$f")" 'BEGIN {
		printf "    %.1f us per case (x%.2f the baseline), %d bytes\n", a / n * 1e6, a / b, s }'
done
echo "  JUnit under GitLab's 30 MB: $(wc -c < "$TMP/r.junit") bytes"
if command -v xmllint >/dev/null; then
	xmllint --noout --schema tests/fixtures/junit/JUnit.xsd "$TMP/r.junit" 2>&1 | tail -1
fi
if command -v chromium >/dev/null; then
	cp "$TMP/r.html" "$TMP/r.html.html"
	start=$(date +%s.%N)
	timeout 300 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome" \
		--dump-dom "file://$TMP/r.html.html" 2>/dev/null > "$TMP/dom"
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" 'BEGIN { printf "  HTML: Chromium loaded and drew it in %.1f s: ", e - s }'
	grep -o 'id="\(total\|passed\|failed\|errors\)">[0-9]*' "$TMP/dom" | tr '\n' ' '
	echo
fi
