#!/bin/sh
# A scripted executor for the trigger evals (tests/cli/t8013, docs/skills.md): no model. For
# the query in ASSAY_PROMPT it "reads" each installed skill (ASSAY_SKILLS_DIR/<name>/SKILL.md)
# whose description shares a word of 5 letters or more with the query, and says so in its
# transcript ("Read <path>"), as an agent's log would. TRIGGER_STYLE=tool prints a Skill tool
# call ({"name": "Skill", "input": {"skill": "<name>"}}) instead.
set -eu
for f in "$ASSAY_SKILLS_DIR"/*/SKILL.md; do
	desc=$(grep -i '^description:' "$f" | tr 'A-Z' 'a-z')
	name=$(basename "$(dirname "$f")")
	for w in $(echo "$ASSAY_PROMPT" | tr 'A-Z' 'a-z' | tr -c 'a-z\n' ' '); do
		[ ${#w} -ge 5 ] || continue
		case $desc in
		*"$w"*)
			if [ "${TRIGGER_STYLE:-}" = tool ]; then
				echo "{\"type\": \"tool_use\", \"name\": \"Skill\", \"input\": {\"skill\": \"$name\"}}"
			else
				echo "Read $f"
			fi
			break ;;
		esac
	done
done
echo "Answered: $ASSAY_PROMPT"
