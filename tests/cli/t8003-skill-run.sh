#!/usr/bin/env bash
# assay skill run (issue #8 items 5 and 6a): the executor in isolated run folders, the command
# judge, grading files exactly per the contract, grading errors, -j, the budget.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

test_case 'eval mode: one run per case, graded per the contract, the average on v0' '
	make_workspace
	run_assay skill run ws; expect_exit 1
	expect_grep "^case-01 +v0 run1  pass  3.0 " out
	expect_grep "^case-02 +v0 run1  FAIL  3.0 " out
	expect_grep "^v0: 2 of 2 runs graded, 1 passed, 0 grading errors, 0 skipped; .*average_score 3.0$" out
	jq -e "keys_unsorted == [\"case_id\",\"version\",\"run\",\"overall_score\",\"required_score\",\"results\",\"overall\",\"convention_compliance\",\"claims\",\"user_notes_summary\",\"eval_feedback\",\"execution_metrics\"]" ws/grading/case-01_v0_run1.json
	jq -e ".overall_score == 3.0 and .required_score == 4.0 and .overall == \"pass\" and .results[1].passed == false" ws/grading/case-01_v0_run1.json
	jq -e ".required_score == 3.0 and .overall == \"fail\"" ws/grading/case-02_v0_run1.json
	jq -e ".execution_metrics == {\"total_tool_calls\": 2, \"total_steps\": 3, \"cost_usd\": 0.01}" ws/grading/case-01_v0_run1.json
	jq -e ".convention_compliance.type_alignment.details == \"v0/skill/SKILL.md: technique skill: has numbered steps\"" ws/grading/case-01_v0_run1.json
	jq -e ".versions[0].average_score == 3.0" ws/history.json
	run_assay skill check ws; expect_exit 0'
test_case 'a run folder holds inputs, outputs, transcript, metrics, notes and timing' '
	make_workspace
	run_assay skill run ws --case case-02; expect_exit 1
	r=ws/runs/case-02/v0/run1
	test "$(cat $r/inputs/notes.txt)" = "some notes to summarise"
	expect_grep "^read input notes.txt$" $r/outputs/answer.md
	expect_grep "^## Eval Prompt$" $r/transcript.md
	test -f $r/metrics.json && test -f $r/user_notes.md
	jq -e ".status == \"exited\" and .exit_code == 0 and .seconds >= 0" $r/timing.json
	test ! -e ws/grading/case-01_v0_run1.json'
test_case 'improve mode runs each case three times, in parallel with -j' '
	make_workspace
	run_assay skill run ws --mode improve -j 3; expect_exit 1
	test "$(ls ws/grading | wc -l)" = 6
	for c in case-01 case-02; do for r in 1 2 3; do test -f ws/grading/${c}_v0_run$r.json; done; done
	run_assay skill check ws; expect_exit 0'
test_case 'an answer that is never valid is retried, then a grading error; nothing is guessed' '
	make_workspace
	set_config ".judge.retries = 1"
	rm -f judge.log
	JUDGE_MODE=invalid JUDGE_LOG=$PWD/judge.log run_assay skill run ws --case case-01; expect_exit 1
	expect_grep "^case-01 +v0 run1  grading error: grader: no valid answer after 2 tries: the answer is not JSON" out
	test "$(wc -l < judge.log)" = 2
	test ! -e ws/grading/case-01_v0_run1.json
	jq -e ".role == \"grader\" and .attempts == 2" ws/runs/case-01/v0/run1/grading_error.json
	jq -e ".versions[0].average_score == null" ws/history.json
	run_assay skill check ws; expect_exit 0'
test_case 'judge answers are cached by role, model and prompt' '
	make_workspace
	rm -f judge.log
	JUDGE_LOG=$PWD/judge.log run_assay skill run ws --case case-01; expect_exit 0
	JUDGE_LOG=$PWD/judge.log run_assay skill run ws --case case-01; expect_exit 0
	test "$(wc -l < judge.log)" = 1
	JUDGE_LOG=$PWD/judge.log run_assay skill run ws --case case-01 --no-cache; expect_exit 0
	test "$(wc -l < judge.log)" = 2'
test_case 'the time budget stops new runs; runs under way finish' '
	make_workspace
	EXECUTOR_SLEEP=1 run_assay skill run ws --mode improve --budget-seconds 0.5; expect_exit 1
	expect_grep "skipped \(budget\)" out
	expect_grep "the budget ran out: 5 runs not started" err
	test "$(ls ws/grading | wc -l)" = 1'
test_case 'the cost budget counts metrics.json cost_usd' '
	make_workspace
	EXECUTOR_COST=0.5 run_assay skill run ws --mode improve --budget-cost 1 -j 1; expect_exit 1
	expect_grep ", cost 1.0000;" out
	expect_grep "^v0: 2 of 6 runs graded, .* 4 skipped" out'
test_case 'a failing executor is graded as it is; a missing one is a run error, not an error of assay' '
	make_workspace
	EXECUTOR_EXIT=3 run_assay skill run ws --case case-01; expect_exit 0
	expect_grep "exit 3 " out
	set_config ".executor.command = [\"/nonexistent/executor\"]"
	run_assay skill run ws --case case-01; expect_exit 1
	expect_grep "^case-01 +v0 run1  run error: the executor could not be started: /nonexistent/executor: No such file or directory" out'
test_case 'a link planted by the executor is never followed when assay writes the run folder' '
	make_workspace
	cat > evil.sh <<-SH
	#!/bin/sh
	ln -s "$PWD/target" transcript.md
	ln -s "$PWD/target2" timing.json
	echo stdout-text
	SH
	chmod +x evil.sh
	echo original > target; echo original > target2
	set_config ".executor.command = [\"$PWD/evil.sh\"]"
	run_assay skill run ws --case case-01; expect_exit 1
	test "$(cat target)" = original
	test "$(cat target2)" = original'
test_case 'the executor never sees the rubric: snapshots and run folders hold no evals' '
	make_workspace
	cat > peek.sh <<-SH
	#!/bin/sh
	find "\$ASSAY_SKILL_DIR" . > outputs/seen.txt
	SH
	chmod +x peek.sh
	set_config ".executor.command = [\"$PWD/peek.sh\"]"
	run_assay skill run ws --case case-01
	! grep -q evals ws/runs/case-01/v0/run1/outputs/seen.txt'
test_case 'a run that floods its outputs does not flood the judge' '
	make_workspace
	cat > flood.sh <<-SH
	#!/bin/sh
	mkdir -p outputs/d
	head -c 200000 /dev/zero | tr "\\\\0" x > outputs/big.txt
	for i in \$(seq 400); do cp outputs/big.txt outputs/d/f\$i.txt; done
	head -c 30000000 /dev/zero | tr "\\\\0" y
	SH
	chmod +x flood.sh
	set_config ".executor.command = [\"$PWD/flood.sh\"]"
	rm -f judge.log
	JUDGE_LOG=$PWD/judge.log run_assay skill run ws --case case-01; expect_exit 1
	test "$(wc -c < judge.log)" -lt 4000000
	test "$(wc -c < ws/runs/case-01/v0/run1/transcript.md)" = 16777216'
test_case 'a sandboxed command judge cannot read the workspace' '
	make_workspace
	cat > peek.sh <<-SH
	#!/bin/sh
	req=\$(cat)
	if cat "\$PEEK" >/dev/null 2>&1; then echo "saw the workspace" >&2; exit 9; fi
	printf "%s" "\$req" | jq "{results: [.request.expectations[] | {criterion, score: 3}]}"
	SH
	chmod +x peek.sh
	set_config ".judge.command = [\"$PWD/peek.sh\"] | .judge.retries = 0"
	PEEK=$PWD/ws/config.json run_assay skill run ws --case case-01; expect_exit 1
	expect_grep "the judge exited with status 9: saw the workspace" out
	set_config ".judge.sandbox = true"
	PEEK=$PWD/ws/config.json run_assay skill run ws --case case-01; expect_exit 0
	expect_grep "^case-01 +v0 run1  pass  3.0 " out'
test_case 'a workspace that cannot be used exits 3 with the place of the problem' '
	make_workspace
	printf "{\"skill\": \"x\",\n \"jobs\": \"two\"}\n" > ws/config.json
	run_assay skill run ws; expect_exit 3
	expect_grep "ws/config.json:2:10: .jobs. must be a number" err
	make_workspace
	set_config ".judge.command = \"\""
	run_assay skill run ws; expect_exit 3
	expect_grep "the command judge has no command" err
	run_assay skill run /nonexistent; expect_exit 3'

test_done
