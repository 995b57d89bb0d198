#!/usr/bin/env bash
# Store fault injection, as SQLite and curl test theirs: every write point of a small run (the
# store's writes, its commits and fsyncs, reports.jsonl, summary.json, blobs, the temp files and
# renames of atomic writes) fails once with ENOSPC and once with EIO (tests/faultinject, loaded
# with LD_PRELOAD). After each, `--resume` completes the run: every case exactly once, the same
# verdicts as a run without faults, a store that passes its integrity check. A faulted run that
# says it finished (exit 0 or 1) must already hold every case: a swallowed write error is a lie.
# In the sanitizer build (make check-asan sets ASAN_OPTIONS) only ENOSPC runs: the error paths are
# the same for both errors, and the normal build checks EIO at every point.
. "$(dirname "$0")/lib.sh"

[ -n "${ASSAY_FAULTINJECT:-}" ] && [ -f "$ASSAY_FAULTINJECT" ] || skip_script "the fault injector was not built (ASSAY_FAULTINJECT)"
require_cmd sqlite3
require_cmd jq

errnos="ENOSPC EIO"
[ -z "${ASAN_OPTIONS:-}" ] || errnos=ENOSPC
# The injector is built without sanitizers; an ASan assay must accept it after its runtime.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# Five cases: one passes with a 1.2 MB output (a blob), one fails, one is an error group case.
make_suite() {
	mkdir -p s/checkpoint_1/core s/checkpoint_1/errors
	cat > s/suite.yaml <<-'EOF'
	name: faults
	adapter: {type: cli, command: [sh, -c], timeout: 10}
	checkpoints:
	  checkpoint_1:
	    groups: {core: {type: Core}, errors: {type: Error}}
	EOF
	for i in 1 2; do
		printf 'arguments: ["echo case-%d"]\nexpected: {output: "case-%d\\n"}\n' "$i" "$i" \
			> "s/checkpoint_1/core/c$i.yaml"
	done
	printf 'arguments: ["yes x | head -c 1200000"]\nexpected: {status_code: 0}\n' > s/checkpoint_1/core/big.yaml
	printf 'arguments: ["echo wrong"]\nexpected: {output: "right\\n"}\n' > s/checkpoint_1/core/fails.yaml
	printf 'arguments: ["echo oops >&2; exit 3"]\nexpected: {status_code: 3}\n' > s/checkpoint_1/errors/e1.yaml
}

# One line per case, sorted: id, passed, score (read where either report layout keeps them).
verdicts() {
	jq -c '[.id, (.case.passed // .passed), (.case.score // .score)]' "$1/reports.jsonl" | sort
}

# The folder holds exactly the reference run's results.
same_as_reference() {
	local d=$1
	[ "$(sqlite3 "$d/assay.db" "PRAGMA integrity_check")" = ok ]
	[ "$(sqlite3 "$d/assay.db" "SELECT count(*), count(DISTINCT id) FROM cases")" = "5|5" ]
	verdicts "$d" > got.txt
	test_cmp ref.txt got.txt
	jq -c '[.totals.total, .totals.passed]' "$d/summary.json" > got-totals.txt
	test_cmp ref-totals.txt got-totals.txt
}

# Fails write point K (of the run into res-K) with errno E, then resumes without faults.
fault_then_resume() {
	local k=$1 e=$2 d="res-$e-$1" rc=0
	ASSAY_FAULT_PATH="$PWD/$d" ASSAY_FAULT_AT=$k ASSAY_FAULT_ERRNO=$e LD_PRELOAD="$ASSAY_FAULTINJECT" \
		"$ASSAY" run s -o "$d" -q >"$d.out" 2>"$d.err" || rc=$?
	if [ "$rc" -ge 128 ] || grep -E -q "Sanitizer|runtime error:" "$d.err"; then
		echo "write point $k ($e): assay crashed (exit $rc)"; cat "$d.err"; return 1
	fi
	echo "$rc" >> "rc-$e"
	if [ "$rc" -ge 2 ] && ! grep -q "error:" "$d.err"; then
		echo "write point $k ($e): exit $rc without a message"; cat "$d.err"; return 1
	fi
	if [ "$rc" -le 1 ] && ! (same_as_reference "$d") >/dev/null 2>&1; then
		echo "write point $k ($e): exit $rc but the results are incomplete"; cat "$d.err"; return 1
	fi
	run_assay run s -o "$d" -q --resume
	if [ "$code" != 1 ]; then
		echo "write point $k ($e): the faulted run exited $rc, --resume exited $code"
		cat "$d.err" err; return 1
	fi
	same_as_reference "$d" || { echo "write point $k ($e): after --resume"; return 1; }
	rm -rf "$d" "$d.out" "$d.err"
}

test_case 'the injector counts the write points of a run, and a run under it changes nothing' '
	cd "$TMP" && make_suite
	run_assay run s -o ref -q; expect_exit 1
	verdicts ref > ref.txt
	jq -c "[.totals.total, .totals.passed]" ref/summary.json > ref-totals.txt
	[ "$(wc -l < ref.txt)" = 5 ]
	ASSAY_FAULT_PATH="$PWD/count" ASSAY_FAULT_COUNT="$PWD/points" LD_PRELOAD="$ASSAY_FAULTINJECT" \
		"$ASSAY" run s -o count -q >/dev/null 2>&1 || true
	same_as_reference count
	n=$(cat points)
	echo "$n write points"
	[ "$n" -ge 20 ]'

for e in $errnos; do
	test_case "every write point failing with $e, then --resume: nothing lost or doubled" '
		cd "$TMP"
		n=$(cat points)
		for k in $(seq 1 "$n"); do
			fault_then_resume "$k" '"$e"'
		done
		# most faults are errors the run reports (exit 4), not swallowed
		echo "exit codes of the faulted runs: $(sort rc-'"$e"' | uniq -c | tr -s " \n" " ")"
		[ "$(grep -c "^4$" rc-'"$e"')" -ge $((n / 2)) ]'
done

test_done
