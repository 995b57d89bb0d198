#!/usr/bin/env bash
# assay skill improve (issue 20 item 1): the improve loop of skill-evals.md 3.5 on its own:
# runs of the current version, grading, blind comparison with the previous one (both orders),
# analysis, the improver's next version snapshotted; the stop rules; resumable after a kill.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

with_improver() { # extra template words...
	set_config ".improver.command = [\"$SKILL_TESTS/improver.sh\", \"{analysis}\", \"{skill}\"]"
}

test_case 'the loop runs, compares, analyses, improves and stops at the target' '
	make_workspace
	with_improver
	IMPROVER_LOG=$PWD/imp.log run_assay skill improve ws; expect_exit 0
	expect_grep "^== v0: runs$" out
	test "$(grep -cE "^case-0[12] +v0 run[123]  " out)" = 6
	expect_grep "^== v0: the improver writes the next version$" out
	expect_grep "^== v1: snapshot made$" out
	test "$(grep -cE "^case-0[12] +v1 run[123]  pass" out)" = 6
	expect_grep "^== v1 against v0: win rate 100.0% \(95% CI 61.0%-100.0%\): improved$" out
	expect_grep "^stopped: v1 reached the target pass rate \(100% of runs passed, target 100%\)$" out
	expect_grep "^best version: v1 \(100% of its runs passed\)$" out
	# the improver ran once, at v0, which has no comparison: no analysis to give it
	test "$(cat imp.log)" = "analysis="
	expect_grep "^provides: frontmatter, token-efficiency$" demo-skill/SKILL.md
	expect_grep "^provides: frontmatter, token-efficiency$" ws/v1/skill/SKILL.md
	jq -e ".current_version == 1 and .versions[1].description == \"improver, from v0\" and .versions[1].average_score == 4.0" ws/history.json
	jq -e ".start_version == 0 and .best_version == 1 and (.stopped | test(\"target\")) and ([.iterations[].version] == [0, 1]) and .iterations[1].improved == true and .iterations[1].win_rate == 1.0 and .iterations[1].analysis == \"analysis/v0_vs_v1.json\" and .iterations[0].pass_rate == 0.5" ws/improve.json
	test -f ws/analysis/v0_vs_v1.json
	test "$(ls ws/comparisons/case-01_v0_vs_v1_run1_order*.json | wc -l)" = 2
	expect_grep "^added token-efficiency$" ws/improve/v0/improver.stdout
	run_assay skill check ws; expect_exit 0'
test_case 'versions that do not improve stop the loop after --patience; the best is the earliest' '
	make_workspace
	with_improver
	IMPROVER_NOISE=1 run_assay skill improve ws --runs 1; expect_exit 0
	expect_grep "^== v1 against v0: win rate 50.0% .*: not improved$" out
	expect_grep "^== v2 against v1: win rate 50.0% .*: not improved$" out
	expect_grep "^stopped: no improvement for 2 iterations$" out
	expect_grep "^best version: v0 \(50% of its runs passed\)$" out
	jq -e ".current_version == 2" ws/history.json
	jq -e ".best_version == 0 and ([.iterations[] | .improved] == [null, false, false])" ws/improve.json'
test_case '--iterations caps the new versions; a stopped session is over, the next starts anew' '
	make_workspace
	with_improver
	IMPROVER_NOISE=1 run_assay skill improve ws --runs 1 --iterations 1 --patience 5; expect_exit 0
	expect_grep "^stopped: 1 new version made \(--iterations\)$" out
	jq -e ".current_version == 1" ws/history.json
	IMPROVER_NOISE=1 run_assay skill improve ws --runs 1 --iterations 1 --patience 5; expect_exit 0
	expect_grep "^== session from v1 " out
	expect_grep "^case-01 +v1 run1  pass .*\(kept: graded before\)$" out
	jq -e ".current_version == 2 and .versions[2].description == \"improver, from v1\"" ws/history.json
	jq -e ".start_version == 1 and ([.iterations[].version] == [1, 2])" ws/improve.json'
test_case 'without an improver the next version is the author'"'"'s; a failing improver fails the loop' '
	make_workspace
	run_assay skill improve ws --runs 1; expect_exit 0
	expect_grep "^stopped: no improver in config.json: the next version is yours" out
	test ! -e ws/v1
	make_workspace
	with_improver
	IMPROVER_EXIT=3 run_assay skill improve ws --runs 1; expect_exit 1
	expect_grep "^stopped: the improver exited 3 \(improve/v0/improver.stderr\)$" out
	expect_grep "failing on purpose" ws/improve/v0/improver.stderr
	test ! -e ws/v1
	make_workspace
	with_improver
	IMPROVER_ADD=frontmatter run_assay skill improve ws --runs 1; expect_exit 0
	expect_grep "^stopped: the improver changed nothing in the skill$" out
	make_workspace
	jq ".cases = []" demo-skill/evals/evals.json > e && mv e demo-skill/evals/evals.json
	run_assay skill improve ws; expect_exit 1
	expect_grep "^stopped: nothing to run: evals.json has no cases" out'
test_case 'killed in the middle, it resumes: no graded run is run again, the result is the same' '
	make_workspace
	with_improver
	cat > spy.sh <<-SH
	#!/bin/sh
	echo "\$ASSAY_CASE_ID \$(basename "\$(dirname "\$ASSAY_SKILL_DIR")") run\$ASSAY_RUN" >> $PWD/exec.log
	exec "$SKILL_TESTS/executor.sh"
	SH
	chmod +x spy.sh
	set_config ".executor.command = [\"$PWD/spy.sh\"]"
	# each graded run takes 1 s: the kill lands between the third and the sixth even on a loaded
	# machine (0.3 s failed once under a full ctest -j2)
	EXECUTOR_SLEEP=1 "$ASSAY" skill improve ws -j 1 >first.out 2>&1 &
	pid=$!
	# (waits up to 60 s for the third: an ASan build under a full ctest -j2 is slow to start)
	for _ in $(seq 1200); do [ "$(ls ws/grading 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.05; done
	kill -9 $pid; wait $pid 2>/dev/null || true
	ls ws/grading > before
	test "$(wc -l < before)" -ge 3
	test "$(wc -l < before)" -lt 6
	run_assay skill improve ws -j 1; expect_exit 0
	expect_grep "^stopped: v1 reached the target pass rate" out
	for f in $(cat before); do
		c=${f%%_v*}; r=${f##*_run}; r=run${r%.json}
		test "$(grep -c "^$c v0 $r$" exec.log)" = 1
		expect_grep "^$c +v0 $r  .*\(kept: graded before\)$" out
	done
	test "$(grep -c " v1 " exec.log)" = 6
	jq -e ".current_version == 1" ws/history.json
	jq -e ".best_version == 1 and (.stopped | test(\"target\"))" ws/improve.json
	run_assay skill check ws; expect_exit 0'
test_case 'skill run --resume keeps what was graded and runs the rest' '
	make_workspace
	run_assay skill run ws --case case-01 --runs 2; expect_exit 0
	cp ws/grading/case-01_v0_run1.json keep.json
	rm ws/grading/case-01_v0_run2.json
	touch ws/runs/case-01/v0/run1/marker ws/runs/case-01/v0/run2/marker
	run_assay skill run ws --runs 2 --resume; expect_exit 1
	expect_grep "^case-01 +v0 run1  pass  3.0  \(kept: graded before\)$" out
	expect_grep "^case-01 +v0 run2  pass  3.0  exit 0 " out
	# a kept run is not run again (its folder stays); the other is made afresh
	test -e ws/runs/case-01/v0/run1/marker
	test ! -e ws/runs/case-01/v0/run2/marker
	cmp keep.json ws/grading/case-01_v0_run1.json
	expect_grep "^v0: 4 of 4 runs graded, 2 passed" out'

test_done
