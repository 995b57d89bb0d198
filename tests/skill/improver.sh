#!/bin/sh
# A scripted improver for the skill tests and docs/skills.md: no model. Called as
# improver.sh ANALYSIS SKILL_DIR; it adds to the skill's "provides:" line the first criterion
# of IMPROVER_ADD (a comma-separated list) that the line lacks, and writes what it did to its
# standard output. With nothing left to add it changes nothing. IMPROVER_LOG=FILE appends
# "<analysis>" per call; IMPROVER_EXIT=N makes it exit N first; IMPROVER_NOISE=1 makes it only
# append a comment line to SKILL.md (a new version whose outputs are the same).
set -eu
if [ -n "${IMPROVER_LOG:-}" ]; then echo "analysis=${1:-}" >> "$IMPROVER_LOG"; fi
if [ -n "${IMPROVER_EXIT:-}" ]; then echo "failing on purpose" >&2; exit "$IMPROVER_EXIT"; fi
skill=$2
if [ -n "${IMPROVER_NOISE:-}" ]; then
	echo "<!-- reworded -->" >> "$skill/SKILL.md"
	echo "reworded"
	exit 0
fi
line=$(grep '^provides:' "$skill/SKILL.md")
for c in $(echo "${IMPROVER_ADD:-token-efficiency}" | tr ',' ' '); do
	case ", ${line#provides: }," in
	*", $c,"*) ;;
	*)
		sed "s/^provides:.*/$line, $c/" "$skill/SKILL.md" > "$skill/SKILL.md.new"
		mv "$skill/SKILL.md.new" "$skill/SKILL.md"
		echo "added $c"
		exit 0 ;;
	esac
done
echo "nothing to add"
