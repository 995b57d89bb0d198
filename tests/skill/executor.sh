#!/bin/sh
# A scripted executor for the skill tests and docs/skills.md: no model, just a program that
# "uses" the skill. It answers the prompt with one line "<criterion>: ok" for each criterion
# the skill's SKILL.md lists on a line "provides: a, b, c", writes metrics.json and
# user_notes.md, and prints its transcript. EXECUTOR_SLEEP=S makes it take S seconds;
# EXECUTOR_EXIT=N makes it exit N; EXECUTOR_FLAKY=R makes run R forget what the skill provides.
# EXECUTOR_TOKENS=N adds "total_tokens": N to metrics.json.
set -eu
[ -n "${EXECUTOR_SLEEP:-}" ] && sleep "$EXECUTOR_SLEEP"
mkdir -p outputs
{
	echo "# Answer to: $ASSAY_PROMPT"
	[ "${EXECUTOR_FLAKY:-}" = "$ASSAY_RUN" ] ||
	grep '^provides:' "$ASSAY_SKILL_DIR/SKILL.md" | sed 's/^provides: *//' | tr ',' '\n' |
		sed 's/^ *//; /^$/d; s/$/: ok/'
	for f in inputs/*; do [ -f "$f" ] && echo "read input $(basename "$f")"; done
	true
} > outputs/answer.md
if [ -n "${EXECUTOR_TOKENS:-}" ]; then
	printf '{"total_tool_calls": 2, "total_steps": 3, "cost_usd": %s, "total_tokens": %s}\n' \
		"${EXECUTOR_COST:-0.01}" "$EXECUTOR_TOKENS" > metrics.json
else
	printf '{"total_tool_calls": 2, "total_steps": 3, "cost_usd": %s}\n' "${EXECUTOR_COST:-0.01}" > metrics.json
fi
echo "Uncertainty: none" > user_notes.md
echo "## Eval Prompt"
echo "$ASSAY_PROMPT"
echo "## Final Result"
echo "wrote outputs/answer.md"
exit "${EXECUTOR_EXIT:-0}"
