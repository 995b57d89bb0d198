#!/bin/sh
# A scripted judge for the skill tests and docs/skills.md (needs jq): reads assay's request
# on stdin, prints one JSON answer.
#   grader:     score 4 for each criterion whose "<criterion>: ok" line is in the outputs, else 2
#   comparator: the output with more "ok" lines wins; on a tie, always "A" (a position bias,
#               which the order swap must expose)
#   analyzer:   a fixed analysis
# JUDGE_MODE=invalid prints something that is not JSON; JUDGE_MODE=fail exits 3;
# JUDGE_LOG=FILE appends each request (one line of JSON) to FILE.
set -eu
req=$(cat)
if [ -n "${JUDGE_LOG:-}" ]; then printf '%s\n' "$req" >> "$JUDGE_LOG"; fi
case "${JUDGE_MODE:-}" in
invalid) echo "I think the answer is good"; exit 0 ;;
fail) echo "judge failed" >&2; exit 3 ;;
esac
role=$(printf '%s' "$req" | jq -r .role)
case $role in
grader)
	printf '%s' "$req" | jq '{
		results: [.request.expectations[] as $e | {criterion: $e.criterion,
			score: (if (.request.outputs | contains($e.criterion + ": ok")) then 4 else 2 end),
			reasoning: "scripted: looked for \($e.criterion): ok"}],
		claims: [{claim: "wrote the answer", verified: true, evidence: "outputs/answer.md"}],
		user_notes_summary: "", eval_feedback: ""}' ;;
comparator)
	printf '%s' "$req" | jq '
		(.request.output_a | [match(": ok"; "g")] | length) as $a |
		(.request.output_b | [match(": ok"; "g")] | length) as $b |
		{winner: (if $b > $a then "B" else "A" end), reasoning: "A has \($a), B has \($b) criteria met",
		 scores: {description_quality: {A: 5, B: 5}, convention_compliance: {A: 5, B: 5},
			type_specific_quality: {A: 5, B: 5}, token_efficiency: {A: 5, B: 5},
			content_value: {A: ([$a + 1, 10] | min), B: ([$b + 1, 10] | min)}}}' ;;
analyzer)
	jq -n '{strengths: ["covers more criteria"], weaknesses: ["misses token efficiency"],
		suggestions: [{area: "body", before: "provides: frontmatter",
			after: "provides: frontmatter, token-efficiency", reasoning: "meets both criteria"}]}' ;;
*) echo "unknown role $role" >&2; exit 2 ;;
esac
