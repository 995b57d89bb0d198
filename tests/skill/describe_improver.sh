#!/bin/sh
# A scripted description improver for the trigger evals (tests/cli/t8013, docs/skills.md): no
# model. Called as describe_improver.sh RESULTS SKILL_DIR, it reads triggers/vN/results.json
# and rewrites the description of SKILL_DIR/SKILL.md: each word of 5+ letters of a query that
# should not have triggered and did is removed from it; each query that should have
# triggered and did not is added to it ("Also for queries such as <query>.", without ":" or
# "#", so that the description stays a plain YAML scalar). Needs jq.
set -eu
results=$1 skill=$2
desc=$(sed -n 's/^description: *//p' "$skill/SKILL.md")
for q in $(jq -r '.queries[] | select(.correct == false and .should_trigger == false) | .query | @base64' "$results"); do
	for w in $(echo "$q" | base64 -d | tr 'A-Z' 'a-z' | tr -c 'a-z\n' ' '); do
		[ ${#w} -ge 5 ] && desc=$(echo "$desc" | sed "s/ *\b$w\b//Ig")
	done
done
for q in $(jq -r '.queries[] | select(.correct == false and .should_trigger == true) | .query | @base64' "$results"); do
	desc="$desc Also for queries such as $(echo "$q" | base64 -d | tr -d ":#")."
done
awk -v d="$desc" '/^description:/ && !done { print "description: " d; done = 1; next } { print }' \
	"$skill/SKILL.md" > "$skill/SKILL.md.new"
mv "$skill/SKILL.md.new" "$skill/SKILL.md"
echo "description: $desc"
