# Shared setup of the skill CLI tests (tests/cli/t8*.sh), sourced after tests/cli/lib.sh.
SKILL_TESTS="$ASSAY_SRC/tests/skill"
SKILL_FIXTURES="$FIXTURES/skills"

# make_workspace [PROFILE]: a copy of the demo skill in ./demo-skill, its workspace in ./ws
# with the scripted executor and judge, and the input file case-02 needs.
make_workspace() {
	rm -rf demo-skill ws
	cp -r "$SKILL_FIXTURES/demo-skill" demo-skill
	"$ASSAY" skill init demo-skill --workspace ws >/dev/null
	echo "some notes to summarise" > ws/notes.txt
	jq --arg e "$SKILL_TESTS/executor.sh" --arg j "$SKILL_TESTS/judge.sh" \
		--arg p "${1:-agentskills}" \
		'.executor.command = [$e] | .judge.command = [$j] | .judge.backoff = 0 |
		 .lint.profile = $p' ws/config.json > ws/config.tmp
	mv ws/config.tmp ws/config.json
}

# set_config JQ_FILTER: edits ws/config.json.
set_config() {
	jq "$1" ws/config.json > ws/config.tmp && mv ws/config.tmp ws/config.json
}
