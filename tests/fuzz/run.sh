#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, in build/fuzz) and runs each for SECONDS on a
# copy of its seed corpus (tests/fuzz/corpus/<target>), as many at once as there are cores.
# Prints the executions each reached. A target that fails leaves its input in
# build/fuzz/crash-<target>-*: add that file to tests/fuzz/regressions/<target>/ with the fix,
# so test_fuzz replays it on every build.
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
# one target per core at a time: each is one process, and the run's wall time is what CI waits for
fuzz_one() { # TARGET: runs it, writes its line of the summary to $B/fuzz-TARGET.result
	local t=$1 work="$B/corpus-$1" log="$B/fuzz-$1.log" runs
	rm -rf "$work"
	mkdir -p "$work"
	cp tests/fuzz/corpus/$t/* "$work"/ 2>/dev/null || true
	if ASAN_OPTIONS=detect_leaks=1 "$B/fuzz_$t" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 \
		-artifact_prefix="$B/crash-$t-" "$work" >"$log" 2>&1; then
		runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
		echo "fuzz_$t: ${runs:-done} in ${SECONDS_EACH} s, no failure" > "$B/fuzz-$t.result"
	else
		{ echo "fuzz_$t: FAILED (see $log and $B/crash-$t-*)"; tail -30 "$log"; } > "$B/fuzz-$t.result"
	fi
}
targets=(json yaml diff like toml ini csv)
at_once=$(nproc)
status=0
for ((i = 0; i < ${#targets[@]}; i += at_once)); do
	for t in "${targets[@]:i:at_once}"; do
		rm -f "$B/fuzz-$t.result"
		fuzz_one "$t" &
	done
	wait
done
for t in "${targets[@]}"; do
	if [ -f "$B/fuzz-$t.result" ]; then
		cat "$B/fuzz-$t.result"
	else
		echo "fuzz_$t: FAILED (no result)"
	fi
	grep -q FAILED "$B/fuzz-$t.result" 2>/dev/null && status=1
	[ -f "$B/fuzz-$t.result" ] || status=1
done
exit $status
