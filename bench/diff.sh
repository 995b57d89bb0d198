#!/usr/bin/env bash
# Benchmark of the structural diff (issue #6), against python3-deepdiff in the same run.
#
#   1. A pair of ~22 MB documents (bench/gen_docs.py, 155,000 records): one case whose program
#      is `cat`, expected.output the first document in a JSON case file, verifier json. assay's
#      whole `assay run` (load the case, run, parse, diff, write the report and its blobs) is
#      timed RUNS times (median) with its peak RSS; deepdiff 6.2.2 is timed once on the same
#      pair (json.load of both files + DeepDiff + to_json), and the ratio is printed. The
#      change counts of both are printed too: they must agree.
#   2. assay-bench-diff: a 10,000-item array with one change, a 1 MB pair under ignore_order,
#      100,000 levels of nesting (in-process, parse + diff + report).
#   3. With DEEPDIFF_SLOW=1, deepdiff also runs the 1 MB ignore_order pair (about 5 minutes).
#
# Usage: bench/diff.sh [RUNS]     (needs build/assay, build/assay-bench-diff, /usr/bin/python3
#                                   with python3-deepdiff)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
ASSAY=${ASSAY:-$PWD/build/assay}
BENCH=${BENCH:-$PWD/build/assay-bench-diff}
PY=/usr/bin/python3
TMP=$(mktemp -d)
chmod 755 "$TMP" # with root, cases run as nobody: they must reach what is in it
trap 'rm -rf "$TMP"' EXIT

"$PY" -c 'import deepdiff' 2>/dev/null || { echo "needs python3-deepdiff (apt-get install python3-deepdiff)"; exit 2; }

echo "== 1. 22 MB pair, json verifier, one case"
"$PY" bench/gen_docs.py 155000 "$TMP/e.json" "$TMP/a.json"
mkdir -p "$TMP/suite/checkpoint_1/core" "$TMP/suite/sub"
cp "$TMP/a.json" "$TMP/suite/sub/actual.json"
"$PY" - "$TMP" <<'EOF'
import json, sys
t = sys.argv[1]
e = json.load(open(t + "/e.json"))
case = {"arguments": ["actual.json"], "expected": {"output": e},
        "verify": {"output": {"verifier": "json", "significant_digits": 12}}}
json.dump(case, open(t + "/suite/checkpoint_1/core/big.json", "w"))
open(t + "/suite/suite.yaml", "w").write(
    "name: bigdiff\nadapter:\n  type: cli\n  command: [cat]\n  submission: sub\n  timeout: 120\n"
    "checkpoints:\n  checkpoint_1:\n    groups:\n      core: {type: Core}\n")
EOF
in_bytes=$(($(stat -c %s "$TMP/e.json") + $(stat -c %s "$TMP/a.json")))
times=()
rss=0
for ((r = 0; r < RUNS; r++)); do
	rm -rf "$TMP/out"
	/usr/bin/time -f "%e %M" -o "$TMP/time" "$ASSAY" run "$TMP/suite" -q -o "$TMP/out" || true
	read -r t m < <(tail -n 1 "$TMP/time") # "Command exited with non-zero status" may come first
	times+=("$t")
	((m > rss)) && rss=$m
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ta=$(median "${times[@]}")
"$ASSAY" show "$TMP/out" big -a output --value diff > "$TMP/diff.json" # whole, from the store
"$PY" - "$TMP/diff.json" <<'EOF'
import json, sys
diff = json.load(open(sys.argv[1]))
print("assay counts:   ", {k: len(v) for k, v in diff.items()})
EOF
/usr/bin/time -f "%e %M" -o "$TMP/dtime" "$PY" - "$TMP" <<'EOF'
import json, sys
from deepdiff import DeepDiff
t = sys.argv[1]
d = json.loads(DeepDiff(json.load(open(t + "/e.json")), json.load(open(t + "/a.json")),
                        ignore_numeric_type_changes=True).to_json())
print("deepdiff counts:", {k: len(v) for k, v in d.items()})
EOF
read -r td md < <(tail -n 1 "$TMP/dtime")
printf 'inputs: %.1f MB\n' "$(awk "BEGIN{print $in_bytes / 1e6}")"
printf 'assay run:  median %.3f s over %d runs, peak RSS %.1f MB (%.2f x the inputs)\n' \
	"$ta" "$RUNS" "$(awk "BEGIN{print $rss / 1024}")" "$(awk "BEGIN{print $rss * 1024 / $in_bytes}")"
printf 'deepdiff:   %.3f s, peak RSS %.1f MB\n' "$td" "$(awk "BEGIN{print $md / 1024}")"
printf 'ratio deepdiff/assay: %.1f x\n' "$(awk "BEGIN{print $td / $ta}")"

echo
echo "== 2. in-process scenarios (median of $RUNS)"
"$BENCH" "$RUNS"

if [ "${DEEPDIFF_SLOW:-0}" = 1 ]; then
	echo
	echo "== 3. deepdiff on the 1 MB ignore_order pair"
	"$PY" - <<'EOF'
import json, random, time
from deepdiff import DeepDiff
# the same documents as assay-bench-diff's unordered_1mb (an LCG shuffle of 9000 records)
n, seed, perm = 9000, 12345, list(range(9000))
for i in range(n - 1, 0, -1):
    seed = (seed * 1103515245 + 12345) % 2**32
    j = seed % (i + 1)
    perm[i], perm[j] = perm[j], perm[i]
e = [{"id": i, "name": "user-%06d" % i, "tags": ["a", "b"], "score": float("%d.5" % (i % 997)),
      "nested": {"level": i % 10}} for i in range(n)]
a = [{"id": k, "name": "user-%06d" % k, "tags": ["b", "a"],
      "score": float("%d.5" % (k % 997 + (k % 100 == 0))), "nested": {"level": k % 10}}
     for k in perm]
t0 = time.time()
d = DeepDiff(e, a, ignore_numeric_type_changes=True, ignore_order=True, report_repetition=True)
print("deepdiff ignore_order 1 MB: %.1f s, %d entries" % (time.time() - t0,
      sum(len(v) for v in json.loads(d.to_json()).values())))
EOF
fi
