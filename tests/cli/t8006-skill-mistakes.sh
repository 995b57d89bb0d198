#!/usr/bin/env bash
# assay skill: what a new user runs into (a review): a grading error in the report, a timed-out
# executor, --runs 0, a snapshot of nothing new.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

test_case 'the report counts grading errors apart from the pass rate' '
	make_workspace
	"$ASSAY" skill run ws --case case-01 >/dev/null
	set_config ".judge.retries = 0"
	JUDGE_MODE=invalid run_assay skill run ws --case case-02 --no-cache; expect_exit 1
	expect_grep "^case-02 +v0 run1  grading error: " out
	run_assay skill report ws; expect_exit 0
	expect_grep "^VERSION +CASE +RUNS +ERRORS +PASS +MEAN +RANGE +FLAKY$" out
	expect_grep "^v0 +case-01 +1 +0 +100% " out
	expect_grep "^v0 +case-02 +0 +1 +- +- +-  -$" out
	expect_grep "^v0 +\\(all cases\\) +1 +1 +100%" out
	run_assay skill report ws --json; expect_exit 0
	jq -e ".versions[0].grading_errors == 1 and .versions[0].cases[1].grading_errors == 1 and .versions[0].cases[1].pass_rate == null" out'

test_case 'a timed-out executor is shown as such' '
	make_workspace
	set_config ".executor.timeout = 1"
	EXECUTOR_SLEEP=5 run_assay skill run ws --case case-01; expect_exit 1
	expect_grep "^case-01 +v0 run1  .* timed out after 1 s " out
	! grep -q "exit -1" out'

test_case '--runs 0 is refused' '
	make_workspace
	run_assay skill run ws --runs 0; expect_exit 2
	expect_grep "runs must be at least 1" err
	test ! -d ws/runs/case-01'

test_case 'a snapshot of nothing new is refused unless --force' '
	make_workspace
	run_assay skill snapshot ws -d same; expect_exit 2
	expect_grep "nothing changed since v0: the skill folder holds what v0/skill holds \\(edit the skill first, or --force to make v1 anyway\\)" err
	test ! -e ws/v1
	jq -e ".current_version == 0 and (.versions | length) == 1" ws/history.json
	run_assay skill snapshot ws -d same --force; expect_exit 0
	jq -e ".current_version == 1" ws/history.json
	echo "one more line" >> demo-skill/SKILL.md
	run_assay skill snapshot ws -d changed; expect_exit 0
	jq -e ".current_version == 2" ws/history.json
	mkdir demo-skill/extra && echo x > demo-skill/extra/f
	run_assay skill snapshot ws -d "a new file"; expect_exit 0
	echo " " >> demo-skill/evals/evals.json
	run_assay skill snapshot ws -d "evals are never part of a snapshot"; expect_exit 2
	run_assay skill run ws --version 7; expect_exit 2
	expect_grep "version 7 has no snapshot" err'

test_case 'a --case that matches no id names the closest ids and exits 2 (issue 20 item 8)' '
	make_workspace
	run_assay skill run ws --case case-1; expect_exit 2
	expect_grep "no case of evals.json matches .case-1. \\(closest: case-01, case-02\\)" err
	! grep -q "has no cases" err || false
	test ! -d ws/runs'

test_done
