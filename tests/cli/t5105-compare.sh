#!/usr/bin/env bash
# assay compare (issue #9 item 5): newly failing and newly passing cases, deltas, the exact
# McNemar test and paired bootstrap intervals; exit 1 only when B is significantly worse.
. "$(dirname "$0")/lib.sh"

# A suite of 30 cases, each expecting "ok-N"; submission good/ answers all, bad/ gets the
# cases from $1 on wrong, half/ gets every other case wrong.
make_suite() {
	mkdir -p s/c/core good bad half
	printf "name: cmp\nadapter: {type: cli, command: [sh, prog.sh]}\ncheckpoints: {c: {groups: {core: {type: Core}}}}\n" > s/suite.yaml
	for i in $(seq 1 30); do
		printf "arguments: [\"%d\"]\nexpected: {output: \"ok-%d\\\\n\"}\n" "$i" "$i" > "s/c/core/c$(printf %02d "$i").yaml"
	done
	echo 'echo "ok-$1"' > good/prog.sh
	echo '[ "$1" -ge 21 ] && echo "no" || echo "ok-$1"' > bad/prog.sh
	echo '[ $(($1 % 2)) = 0 ] && echo "no" || echo "ok-$1"' > half/prog.sh
	for sub in good bad half; do
		"$ASSAY" run s -o "run-$sub" -q --submission "$sub" >/dev/null 2>&1 || true
	done
}

make_suite

test_case 'a run against itself: nothing flips, not worse, exit 0' '
	run_assay compare run-good run-good; expect_exit 0
	expect_grep "^30 paired$" out
	expect_grep "0 pass->fail, 0 fail->pass; p\\(B worse\\) = 1" out
	expect_grep "verdict: B is not significantly worse than A" out'

test_case 'B breaks 10 cases: listed as newly failing, McNemar p < alpha, exit 1' '
	run_assay compare run-good run-bad; expect_exit 1
	expect_grep "^newly failing \\(passed in A, not in B\\) \\(10\\):$" out
	expect_grep "^  c/core/c21  score 1.000 -> 0.000" out
	expect_grep "10 pass->fail, 0 fail->pass; p\\(B worse\\) = 0.0009766" out
	expect_grep "verdict: B is significantly worse than A \\(alpha 0.05\\)" out
	run_assay compare run-good run-bad --json; expect_exit 1
	jq -e ".worse and .mcnemar.pass_to_fail == 10 and (.newly_failing | length) == 10 and .score.diff_hi < 0" out
	jq -e ".score.diff == (-10 / 30) and .paired == 30" out
	jq -e ".pass_rate.diff == (-10 / 30) and .pass_rate.diff_lo <= .pass_rate.diff and .pass_rate.diff_hi < 0" out'

test_case 'the other way round B is better: newly passing, exit 0' '
	run_assay compare run-bad run-good; expect_exit 0
	expect_grep "^newly passing \\(failed in A, passed in B\\) \\(10\\):$" out
	expect_grep "verdict: B is not significantly worse" out'

test_case '--alpha decides: 10 flips against 5 are worse at 0.2, not at 0.05' '
	run_assay compare run-bad run-half --json; expect_exit 0
	jq -e "(.mcnemar.p_b_worse - 0.15087890625 | fabs) < 1e-12" out
	jq -e ".score.diff_lo < 0 and .score.diff_hi > 0" out
	run_assay compare run-bad run-half --alpha 0.2; expect_exit 1
	expect_grep "verdict: B is significantly worse than A \\(alpha 0.2\\)" out
	run_assay compare run-good run-bad --alpha 0.7; expect_exit 2'

test_case 'flips both ways: McNemar counts each side' '
	run_assay compare run-bad run-half --json; expect_exit 0
	jq -e ".mcnemar.pass_to_fail == 10 and .mcnemar.fail_to_pass == 5" out
	jq -e "(.newly_passing | length) == 5" out
	jq -e ".newly_failing | map(.id) | all(test(\"c(0[2468]|1[02468]|20)\"))" out'

test_case 'the same inputs and seed give the same intervals; --seed changes them' '
	run_assay compare run-good run-half --json; cp out one
	run_assay compare run-good run-half --json; cmp one out
	run_assay compare run-good run-half --json --seed 7
	! cmp -s one out || false
	jq -e ".score.diff_lo <= .score.diff and .score.diff <= .score.diff_hi" out
	jq -e ".time.pairs == 30 and .max_rss.pairs == 30" out'

test_case 'cases in one run only are listed apart and left out of the statistics' '
	rm -rf s2 && cp -r s s2 && rm s2/c/core/c01.yaml
	printf "arguments: [\"99\"]\nexpected: {output: \"ok-99\\\\n\"}\n" > s2/c/core/c99.yaml
	"$ASSAY" run s2 -o run-s2 -q --submission good >/dev/null 2>&1
	run_assay compare run-good run-s2 --json; expect_exit 0
	jq -e ".paired == 29 and (.only_in_a | map(.id)) == [\"c01\"] and (.only_in_b | map(.id)) == [\"c99\"]" out
	run_assay compare run-good run-s2; expect_exit 0
	expect_grep "1 only in A, 1 only in B" out'

test_case 'a reports.jsonl file compares like its results folder' '
	run_assay compare run-good/reports.jsonl run-bad; expect_exit 1
	expect_grep "10 pass->fail" out'

test_case 'runs of different suites are refused unless --any-suite; sharing no case too' '
	mkdir -p other/c/g
	printf "name: other\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > other/suite.yaml
	printf "arguments: [true]\nexpected: {status_code: 0}\n" > other/c/g/x.yaml
	run_assay run other -o run-other; expect_exit 0
	run_assay compare run-good run-other; expect_exit 2
	expect_grep "runs of different suites" err
	run_assay compare run-good/reports.jsonl run-other/reports.jsonl; expect_exit 2
	expect_grep "share no case" err
	run_assay compare run-good run-other --any-suite; expect_exit 0'

test_done
