#!/usr/bin/env bash
# The no-skill baseline (issue 20 item 2): `skill run --baseline` also runs each case without
# the skill (configuration without_skill: an empty skill folder), grades it apart, and run and
# report show the skill's effect on the pass rate with its 95% interval (Newcombe).
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

test_case 'each run also runs without the skill; the delta has its interval' '
	make_workspace
	run_assay skill run ws --baseline --runs 2; expect_exit 1
	expect_grep "^case-01 +v0 run1  pass  3.0 " out
	expect_grep "^case-01 +no-skill run1  FAIL  2.0 " out
	test "$(grep -c " no-skill run" out)" = 4
	expect_grep "^v0: 4 of 4 runs graded, 2 passed, 0 grading errors, 0 skipped; " out
	# 2/4 against 0/4: Wilson [0.150, 0.850] and [0, 0.490], Newcombe -0.102 to +0.850
	expect_grep "^no skill: 4 of 4 runs graded, 0 passed, 0 grading errors, 0 skipped; the skill.s effect on the pass rate: \+50% \(95% CI -10% to \+85%, Newcombe\)$" out
	for c in case-01 case-02; do for r in 1 2; do
		g=ws/without_skill/grading/${c}_run$r.json
		jq -e ".version == null and .configuration == \"without_skill\" and .case_id == \"$c\" and .run == $r and .overall == \"fail\"" $g
		test -f ws/without_skill/runs/$c/run$r/transcript.md
	done; done
	# the version has its own files, untouched by the baseline
	test "$(ls ws/grading | wc -l)" = 4
	jq -e ".versions[0].average_score == 3.0" ws/history.json
	run_assay skill report ws --json; expect_exit 0
	jq -e ".without_skill.runs == 4 and .without_skill.pass_rate == 0 and .without_skill.mean == 2.0" out
	jq -e ".versions[0].delta_without_skill | .pass_rate == 0.5 and (.ci_lo * 1000 | round) == -102 and (.ci_hi * 1000 | round) == 850 and .mean == 1.0" out
	run_assay skill report ws; expect_exit 0
	expect_grep "^v0 +\(all cases\) .*vs no skill \+50% \(95% CI -10% to \+85%\), mean \+1.0$" out
	expect_grep "^no-skill +case-01 +2 +0 +0% +2.0$" out
	run_assay skill check ws; expect_exit 0'
test_case 'the executor gets an empty skill folder and the configuration' '
	make_workspace
	cat > spy.sh <<-SH
	#!/bin/sh
	echo "\$ASSAY_CONFIGURATION \$1 \$(ls -A "\$ASSAY_SKILL_DIR" | wc -l)" >> $PWD/spy.log
	exec "$SKILL_TESTS/executor.sh"
	SH
	chmod +x spy.sh
	set_config ".executor.command = [\"$PWD/spy.sh\", \"{configuration}\"]"
	mkdir -p ws/without_skill/skill && cp demo-skill/SKILL.md ws/without_skill/skill/
	run_assay skill run ws --baseline --case case-01; expect_exit 0
	sort spy.log > got
	printf "with_skill with_skill 1\nwithout_skill without_skill 0\n" > want
	test_cmp want got
	expect_grep "^case-01 +no-skill run1  FAIL" out'
test_case 'without --baseline nothing runs without the skill; report says nothing of it' '
	make_workspace
	run_assay skill run ws --case case-01; expect_exit 0
	test ! -e ws/without_skill
	! grep -q "no skill" out || false
	run_assay skill report ws --json; expect_exit 0
	jq -e ".without_skill == null and .versions[0].delta_without_skill == null" out'
test_case 'a baseline run the budget skipped is counted and makes the run fail' '
	make_workspace
	run_assay skill run ws --baseline --case case-01 --budget-cost 0.005; expect_exit 1
	expect_grep "^case-01 +v0 run1  pass" out
	expect_grep "^case-01 +no-skill run1  skipped \(budget\)$" out
	expect_grep "^no skill: 0 of 1 runs graded, 0 passed, 0 grading errors, 1 skipped$" out'

test_done
