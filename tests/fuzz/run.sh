#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, in build/fuzz) and runs each for SECONDS on a
# copy of its seed corpus (tests/fuzz/corpus/<target>). Prints the executions each reached. A
# target that fails leaves its input in build/fuzz/crash-<target>-*: add that file to
# tests/fuzz/regressions/<target>/ with the fix, so test_fuzz replays it on every build.
# Usage: tests/fuzz/run.sh [SECONDS]     (needs clang and libclang-rt-14-dev)
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-30}
B=build/fuzz
if [ ! -f "$B/Makefile" ]; then
	CC=clang CXX=clang++ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DASSAY_FUZZ=ON -DASSAY_SANITIZE=address,undefined -DASSAY_TESTS=OFF >/dev/null
fi
cmake --build "$B" -j "$(nproc)" --target fuzz_json fuzz_yaml fuzz_diff fuzz_like fuzz_toml fuzz_ini fuzz_csv >/dev/null
status=0
for t in json yaml diff like toml ini csv; do
	work="$B/corpus-$t"
	rm -rf "$work"
	mkdir -p "$work"
	cp tests/fuzz/corpus/$t/* "$work"/ 2>/dev/null || true
	log="$B/fuzz-$t.log"
	if ASAN_OPTIONS=detect_leaks=1 "$B/fuzz_$t" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 \
		-artifact_prefix="$B/crash-$t-" "$work" >"$log" 2>&1; then
		runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
		echo "fuzz_$t: ${runs:-done} in ${SECONDS_EACH} s, no failure"
	else
		echo "fuzz_$t: FAILED (see $log and $B/crash-$t-*)"
		tail -30 "$log"
		status=1
	fi
done
exit $status
