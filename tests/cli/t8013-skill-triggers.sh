#!/usr/bin/env bash
# assay skill triggers (issue 20 item 5): each query of evals/triggers.json through the
# executor with the skill installed among others; read or not from the transcript; precision
# and recall per description version. tests/skill/trigger_executor.sh "reads" a skill whose
# description shares a word of 5+ letters with the query.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

setup() {
	make_workspace
	rm -rf old-demo-skill
	mkdir -p old-demo-skill/evals
	printf -- "---\nname: old-demo-skill\ndescription: Use when someone asks about weather forecasts and rain.\n---\n\nLook outside.\n" > old-demo-skill/SKILL.md
	echo "[]" > old-demo-skill/evals/evals.json
	cat > demo-skill/evals/triggers.json <<-JSON
	[
	  {"query": "evaluate this small skill please", "should_trigger": true},
	  {"query": "what will the weather be tomorrow", "should_trigger": false},
	  {"query": "summarise these meeting notes", "should_trigger": true},
	  {"query": "criteria for the weather forecasts", "should_trigger": false}
	]
	JSON
	set_config ".triggers = {command: [\"$SKILL_TESTS/trigger_executor.sh\"], skills: [\"../old-demo-skill\"]}"
}

test_case 'precision and recall of a description; the wrong queries named' '
	setup
	run_assay skill triggers ws; expect_exit 1
	expect_grep "^ok +should trigger: +read in 1 of 1 run  evaluate this small skill please$" out
	expect_grep "^ok +should not: +read in 0 of 1 run  what will the weather be tomorrow$" out
	expect_grep "^WRONG should trigger: +read in 0 of 1 run  summarise these meeting notes$" out
	expect_grep "^WRONG should not: +read in 1 of 1 run  criteria for the weather forecasts$" out
	expect_grep "^v0: 4 queries; true positives 1, false positives 1, false negatives 1, true negatives 1$" out
	expect_grep "^v0 +50% +50% +50%  Use when a test needs a small skill" out
	r=ws/triggers/v0/results.json
	jq -e ".version == 0 and .precision == 0.5 and .recall == 0.5 and .accuracy == 0.5 and .tp == 1 and .fp == 1 and .fn == 1 and .tn == 1" $r
	jq -e "[.queries[] | .correct] == [true, true, false, false] and .queries[1].triggered == false" $r
	# installed among the others, without anyone'"'"'s evals/; the decoy read in query 2
	test -f ws/triggers/v0/skills/demo-skill/SKILL.md && test -f ws/triggers/v0/skills/old-demo-skill/SKILL.md
	test ! -e ws/triggers/v0/skills/demo-skill/evals && test ! -e ws/triggers/v0/skills/old-demo-skill/evals
	expect_grep "old-demo-skill/SKILL.md" ws/triggers/v0/runs/q2/run1/transcript.out'
test_case 'per description version: a better description, snapshotted, is measured apart' '
	setup
	run_assay skill triggers ws; expect_exit 1
	sed -i "s/^description: .*/description: Use when a test needs a small skill to evaluate, or to summarise meeting notes./" demo-skill/SKILL.md
	run_assay skill snapshot ws -d "description covers notes"; expect_exit 0
	run_assay skill triggers ws --runs 3; expect_exit 0
	test "$(grep -c "^ok " out)" = 4
	expect_grep "read in 3 of 3 runs  summarise these meeting notes$" out
	expect_grep "^v0 +50% +50% +50%  Use when a test needs a small skill to evaluate; answers" out
	expect_grep "^v1 +100% +100% +100%  Use when a test needs a small skill to evaluate, or to summarise" out
	jq -e ".runs_per_query == 3 and .recall == 1.0" ws/triggers/v1/results.json
	run_assay skill triggers ws --version 0; expect_exit 1
	expect_grep "^v0: 4 queries" out'
test_case 'a Skill tool call in the transcript counts as reading the skill' '
	setup
	TRIGGER_STYLE=tool run_assay skill triggers ws; expect_exit 1
	expect_grep "^v0: 4 queries; true positives 1, false positives 1, false negatives 1, true negatives 1$" out'
test_case 'mistakes: no triggers.json, a malformed entry, an executor that cannot start' '
	setup
	rm demo-skill/evals/triggers.json
	run_assay skill triggers ws; expect_exit 3
	expect_grep "triggers.json" err
	echo "[{\"query\": \"x\"}]" > demo-skill/evals/triggers.json
	run_assay skill triggers ws; expect_exit 3
	expect_grep "triggers.json:1:2: .*should_trigger" err
	echo "[{\"query\": \"x\", \"should_trigger\": true}]" > demo-skill/evals/triggers.json
	set_config ".triggers.command = [\"$PWD/missing-executor\"]"
	run_assay skill triggers ws; expect_exit 1
	expect_grep "^1 run could not start: the executor could not be started: .*missing-executor: No such file or directory$" out
	run_assay skill triggers ws --version 5; expect_exit 2
	echo "[]" > demo-skill/evals/triggers.json
	run_assay skill triggers ws; expect_exit 1
	expect_grep "nothing measured: evals/triggers.json has no queries" err'
test_case 'the description loop: the improver rewrites it until every query is right' '
	setup
	set_config ".triggers.improver = {command: [\"$SKILL_TESTS/describe_improver.sh\", \"{results}\", \"{skill}\"]}"
	run_assay skill triggers ws --iterations 3; expect_exit 0
	expect_grep "^v0: 4 queries; true positives 1, false positives 1, false negatives 1, true negatives 1$" out
	expect_grep "^== v0: the description improver writes the next version$" out
	expect_grep "^== v1: snapshot made$" out
	expect_grep "^v1: 4 queries; true positives 2, false positives 0, false negatives 0, true negatives 2$" out
	expect_grep "^stopped: every query is right$" out
	expect_grep "^v0 +50% +50% +50%  " out
	expect_grep "^v1 +100% +100% +100%  " out
	jq -e ".accuracy == 1.0 and (.description | endswith(\"Also for queries such as summarise these meeting notes.\"))" ws/triggers/v1/results.json
	jq -e ".current_version == 1 and .versions[1].description == \"description improver, from v0\"" ws/history.json
	! grep -qi "criteria" ws/v1/skill/SKILL.md || false
	test -f ws/triggers/improve/v0/improver.stdout
	run_assay skill check ws; expect_exit 0'
test_case 'the description loop stops when a new description is no better, or without an improver' '
	setup
	set_config ".triggers.improver = {command: [\"$SKILL_TESTS/improver.sh\", \"{results}\", \"{skill}\"]}"
	IMPROVER_NOISE=1 run_assay skill triggers ws --iterations 3; expect_exit 1
	expect_grep "^stopped: the new description is no better \(accuracy 50%, before 50%\)$" out
	jq -e ".current_version == 1" ws/history.json
	setup
	run_assay skill triggers ws --iterations 3; expect_exit 1
	expect_grep "^stopped: no triggers.improver in config.json" out'

test_done
