#!/usr/bin/env bash
# Time per graded run of `assay skill run` with the command judge, against a bare shell loop
# that runs the same executor and judge commands the same number of times (the baseline),
# interleaved ROUNDS times. Not a test: run it by hand, on a quiet machine.
# usage: tests/skill/bench-run.sh [BUILD_DIR] [CASES] [ROUNDS]
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ASSAY=${1:-$SRC/build}/assay
CASES=${2:-40}
ROUNDS=${3:-3}
T=$SRC/tests/skill
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
cp -r "$SRC/tests/fixtures/skills/demo-skill" skill
jq --argjson n "$CASES" '.cases = [range($n) as $i | .cases[0] | .id = "case-\($i)"]' \
	skill/evals/evals.json > e && mv e skill/evals/evals.json
"$ASSAY" skill init skill --workspace ws >/dev/null
jq --arg e "$T/executor.sh" --arg j "$T/judge.sh" \
	'.executor.command = [$e] | .judge.command = [$j]' ws/config.json > c && mv c ws/config.json
req=$(jq -c -n --rawfile p ws/prompts/grader.md '{role: "grader", model: "", prompt: $p,
	request: {expectations: [{criterion: "frontmatter", required: true},
	{criterion: "token-efficiency", required: false}], outputs: "frontmatter: ok"}}')
now() { date +%s.%N; }
for r in $(seq "$ROUNDS"); do
	t0=$(now)
	for i in $(seq "$CASES"); do
		rm -rf b && mkdir -p b/outputs
		(cd b && ASSAY_PROMPT=p ASSAY_SKILL_DIR="$W/ws/v0/skill" ASSAY_RUN=1 "$T/executor.sh" > transcript.md)
		printf '%s' "$req" | "$T/judge.sh" > /dev/null
	done
	t1=$(now)
	"$ASSAY" skill run ws --no-cache -j 1 > /dev/null || true
	t2=$(now)
	echo "round $r: baseline $(echo "($t1 - $t0) / $CASES * 1000" | bc -l | cut -c1-6) ms/run," \
		"assay $(echo "($t2 - $t1) / $CASES * 1000" | bc -l | cut -c1-6) ms/run," \
		"ratio $(echo "($t2 - $t1) / ($t1 - $t0)" | bc -l | cut -c1-5)"
done
