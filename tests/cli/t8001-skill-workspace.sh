#!/usr/bin/env bash
# assay skill init, snapshot and check (issue #8 items 1-3): what a workspace holds, that a
# second init changes nothing, path:line:col for every problem, exit statuses.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

test_case 'init creates the eval file, workspace, history, v0 snapshot and grading/' '
	cp -r "$SKILL_FIXTURES/published/brand-guidelines" .
	run_assay skill init brand-guidelines; expect_exit 0
	expect_grep "^workspace: .*/brand-guidelines-workspace$" out
	jq -e ".version == \"1.0\" and .cases == [] and (.skill | startswith(\"/\"))" brand-guidelines/evals/evals.json
	jq -e ".current_version == 0 and (.versions | length) == 1" brand-guidelines-workspace/history.json
	jq -e ".versions[0] | .version == 0 and .description == \"baseline\" and .git_hash == null and .path == \"v0/skill\" and .average_score == null and (.timestamp | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$\"))" brand-guidelines-workspace/history.json
	test -f brand-guidelines-workspace/v0/skill/SKILL.md
	test ! -e brand-guidelines-workspace/v0/skill/evals
	test -d brand-guidelines-workspace/grading
	test -f brand-guidelines-workspace/prompts/grader.md'
test_case 'running init twice changes nothing' '
	run_assay skill init brand-guidelines; expect_exit 0
	find brand-guidelines brand-guidelines-workspace -printf "%p %i %s %T@\n" | sort > before
	run_assay skill init brand-guidelines; expect_exit 0
	expect_grep "nothing to do" out
	find brand-guidelines brand-guidelines-workspace -printf "%p %i %s %T@\n" | sort > after
	test_cmp before after'
test_case 'a fresh workspace passes check, warned that it has no cases yet; run refuses it' '
	run_assay skill check brand-guidelines-workspace; expect_exit 0
	expect_grep "^0 errors, 1 warning$" err
	expect_grep "evals.json has no cases yet" out
	jq ".judge.command = [\"true\"] | .executor.command = [\"true\"]" brand-guidelines-workspace/config.json > c.json
	mv c.json brand-guidelines-workspace/config.json
	run_assay skill run brand-guidelines-workspace --mode eval; expect_exit 1
	expect_grep "nothing to run: evals.json has no cases" err'
test_case 'snapshot copies the skill without evals/ and advances current_version' '
	make_workspace
	echo "more" >> demo-skill/SKILL.md
	run_assay skill snapshot ws --description "adds more"; expect_exit 0
	expect_grep "^v1/skill: snapshot made; current_version is 1$" out
	jq -e ".current_version == 1 and .versions[1].description == \"adds more\" and .versions[1].path == \"v1/skill\" and .versions[1].git_hash == null" ws/history.json
	tail -n 1 ws/v1/skill/SKILL.md | grep -q "^more$"
	test ! -e ws/v1/skill/evals
	run_assay skill check ws; expect_exit 0'
test_case 'snapshot records HEAD only when the skill is committed' '
	command -v git >/dev/null || exit 0
	make_workspace
	git init -q demo-skill && git -C demo-skill add -A &&
		git -C demo-skill -c user.name=t -c user.email=t@t commit -qm c
	run_assay skill snapshot ws -d clean --force; expect_exit 0
	jq -e ".versions[1].git_hash == \"$(git -C demo-skill rev-parse HEAD)\"" ws/history.json
	echo dirty >> demo-skill/SKILL.md
	run_assay skill snapshot ws -d dirty; expect_exit 0
	jq -e ".versions[2].git_hash == null" ws/history.json'
test_case 'init on a committed skill without evals.json records HEAD (issue 20 item 8)' '
	command -v git >/dev/null || exit 0
	cp -r "$SKILL_FIXTURES/published/brand-guidelines" bg
	git init -q bg && git -C bg add -A && git -C bg -c user.name=t -c user.email=t@t commit -qm c
	run_assay skill init bg; expect_exit 0
	test -f bg/evals/evals.json
	jq -e ".versions[0].git_hash == \"$(git -C bg rev-parse HEAD)\"" bg-workspace/history.json
	echo dirty >> bg/SKILL.md
	run_assay skill init bg --workspace ws2; expect_exit 0
	jq -e ".versions[0].git_hash == null" ws2/history.json'
test_case 'check names path:line:col for each problem and exits 1' '
	make_workspace
	cat > ws/history.json <<-JSON
	{"versions": [
	  {"version": 0, "timestamp": "2026-02-22 20:00", "description": "baseline",
	   "git_hash": null, "path": "v9/skill", "average_score": 4.0}],
	 "current_version": 0}
	JSON
	run_assay skill check ws; expect_exit 1
	expect_grep "ws/history.json:2:31: error: versions\[0\]: timestamp must be ISO 8601 UTC" out
	expect_grep "ws/history.json:3:30: error: versions\[0\]: path .v9/skill. is not a folder" out
	expect_grep "history.json:3:42: error: versions\[0\]: average_score must be null: no grading file of version 0" out'
test_case 'a malformed file gives its line and column' '
	printf "{\"cases\": [\n  {\"id\": \"a\",,}\n]}\n" > broken.json
	run_assay skill check broken.json; expect_exit 1
	expect_grep "^broken.json:2:14: error: Expecting property name enclosed in double quotes" out'
test_case 'check finds a grading file that lies about its derived fields' '
	make_workspace
	run_assay skill run ws; expect_exit 1
	jq ".results[0].passed = false | .overall = \"fail\"" ws/grading/case-01_v0_run1.json > g && mv g ws/grading/case-01_v0_run1.json
	run_assay skill check ws; expect_exit 1
	expect_grep "case-01_v0_run1.json:[0-9]+:[0-9]+: error: results\[0\]: passed must be true \(derived: score >= 3\)" out
	expect_grep "case-01_v0_run1.json:[0-9]+:[0-9]+: error: grading: overall must be \"pass\"" out
	run_assay skill check ws/grading/case-01_v0_run1.json; expect_exit 1
	expect_grep "overall must be \"pass\"" out'
test_case 'usage mistakes exit 2, missing things 3' '
	run_assay skill; expect_exit 2
	run_assay skill frobnicate; expect_exit 2
	run_assay skill init; expect_exit 2
	run_assay skill check /nonexistent; expect_exit 3
	run_assay skill init /nonexistent; expect_exit 3
	run_assay skill snapshot /nonexistent -d x; expect_exit 3
	run_assay skill check --kind nope x; expect_exit 2
	run_assay skill --help; expect_exit 0
	expect_grep "^  compare " out'

test_done
