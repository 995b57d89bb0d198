#!/usr/bin/env bash
# assay skill compare and report (issue #8 items 7 and 8): blind labels from a seeded PRNG,
# each pair in both orders, order consistency and the win rate with its interval, the
# analysis; the report's pass rates, ranges, flaky and non-discriminating criteria.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

# Two versions: v0 provides "frontmatter", v1 also "token-efficiency"; three runs each.
two_versions() {
	make_workspace
	"$ASSAY" skill run ws --mode improve -j 2 >/dev/null || true
	sed -i "s/^provides: frontmatter$/provides: frontmatter, token-efficiency/" demo-skill/SKILL.md
	"$ASSAY" skill snapshot ws -d "covers token efficiency" >/dev/null
	"$ASSAY" skill run ws --mode improve -j 2 >/dev/null
}

test_case 'the better version wins every pair in both orders' '
	two_versions
	rm -f judge.log
	JUDGE_LOG=$PWD/judge.log run_assay skill compare ws v0 v1; expect_exit 0
	expect_grep "^pairs: 6 \(judged 6, 0 failed judgements\)$" out
	expect_grep "^order consistency: 100.0% \(6 of 6 pairs\)$" out
	expect_grep "^win rate of v1 over v0: 100.0% \(95% CI 61.0%-100.0%, Wilson\)$" out
	expect_grep "^winner: v1; analysis written$" out
	test "$(ls ws/comparisons/*_order[12].json | wc -l)" = 12
	test "$(ls ws/comparisons/assignments | wc -l)" = 6
	jq -e ".order_consistency_rate == 1 and .win_rate.version == \"v1\" and .win_rate.rate == 1 and .judged_pairs == 6" ws/comparisons/v0_vs_v1.json
	jq -e ".winner_version == \"v1\" and .loser_version == \"v0\" and (.suggestions[0] | has(\"before\") and has(\"after\"))" ws/analysis/v0_vs_v1.json
	run_assay skill check ws; expect_exit 0
	expect_grep "^0 errors, 0 warnings$" err'
test_case 'each judgement unblinds, through its assignment, to the same winner' '
	for f in ws/comparisons/assignments/*.json; do
		base=$(basename "$f" .json)
		for k in 1 2; do
			w=$(jq -r .winner ws/comparisons/${base}_order$k.json)
			test "$(jq -r ".order$k.$w" "$f")" = v1
		done
		test "$(jq -r .order1.A "$f")" = "$(jq -r .order2.B "$f")"
	done
	jq -r .order1.A ws/comparisons/assignments/*.json | sort | uniq -c | wc -l | grep -q 2'
test_case 'no judge is told which version it reads' '
	# Runs of a case give equal outputs here, so the cache answers all but 2 x 2 requests.
	test "$(grep -c "\"role\": \"comparator\"" judge.log)" = 4
	grep "\"role\": \"comparator\"" judge.log > cmp.log
	! grep -q "$PWD/ws" cmp.log || false
	! grep -E -q "v[01]/|\"v[01]\"|assignment" cmp.log || false
	grep -q "\"role\": \"analyzer\"" judge.log
	grep "\"role\": \"analyzer\"" judge.log | grep -q "\"winner_version\": \"v1\""'
test_case 'a seed draws the same labels again; another seed others' '
	cp -r ws/comparisons/assignments first
	run_assay skill compare ws v0 v1 --no-analysis; expect_exit 0
	diff -r first ws/comparisons/assignments
	run_assay skill compare ws v0 v1 --seed 12345 --no-analysis; expect_exit 0
	! diff -r -q first ws/comparisons/assignments >/dev/null'
test_case 'a judge biased to position A is order-inconsistent on equal outputs' '
	make_workspace
	"$ASSAY" skill run ws --mode improve >/dev/null || true
	"$ASSAY" skill snapshot ws -d "no change" --force >/dev/null
	"$ASSAY" skill run ws --mode improve >/dev/null || true
	run_assay skill compare ws v0 v1; expect_exit 0
	expect_grep "^order consistency: 0.0% \(0 of 6 pairs\)$" out
	expect_grep "^win rate of v1 over v0: 50.0% \(95% CI 18.8%-81.2%, Wilson\)$" out
	jq -e "[.pair_results[].order_consistent] == [false,false,false,false,false,false]" ws/comparisons/v0_vs_v1.json'
test_case 'failed judgements are counted, not guessed' '
	JUDGE_MODE=invalid run_assay skill compare ws v0 v1 --no-cache; expect_exit 1
	expect_grep "^pairs: 6 \(judged 0, 12 failed judgements\)$" out
	expect_grep "^  failed: case-01 run 1 order 1: comparator: no valid answer" out
	test "$(grep -c "^  failed: " out)" = 3
	expect_grep "^  \.\.\. 9 more \(comparisons/v0_vs_v1.json lists every one\)$" out
	expect_grep "^winner: none \(no pair was judged\)$" out
	jq -e ".judged_pairs == 0 and .order_consistency_rate == null and .failed_judgements == 12 and .winner_version == null" ws/comparisons/v0_vs_v1.json'
test_case 'compare needs runs of both versions' '
	make_workspace
	run_assay skill compare ws v0 v1; expect_exit 2
	expect_grep "no version v1: the workspace has v0 to v0" err
	"$ASSAY" skill snapshot ws -d "a second version" --force >/dev/null
	run_assay skill compare ws v0 v1; expect_exit 3
	expect_grep "no case has runs of both v0 and v1" err
	run_assay skill compare ws v0; expect_exit 2
	run_assay skill compare ws v0 v0; expect_exit 2
	expect_grep "two different versions" err'
test_case 'the report: pass rate, mean and range per version and case' '
	two_versions
	run_assay skill report ws; expect_exit 0
	expect_grep "^v0 +case-01 +3 +0 +100% +3.0 +3.0-3.0  -$" out
	expect_grep "^v0 +case-02 +3 +0 +0% +3.0 +3.0-3.0  -$" out
	expect_grep "^v1 +case-02 +3 +0 +100% +4.0 +4.0-4.0  -$" out
	expect_grep "^  case-01: frontmatter$" out
	run_assay skill report ws --json; expect_exit 0
	jq -e ".versions[1].pass_rate == 1 and .versions[0].pass_rate == 0.5 and .versions[0].cases[1].mean == 3.0" out
	jq -e ".never_discriminating == [{\"case_id\": \"case-01\", \"criterion\": \"frontmatter\", \"runs\": 6}, {\"case_id\": \"case-02\", \"criterion\": \"frontmatter\", \"runs\": 6}]" out
	jq -e ".warnings == []" out'
test_case 'flaky criteria and evals too easy' '
	make_workspace
	sed -i "s/^provides: frontmatter$/provides: frontmatter, token-efficiency/" demo-skill/SKILL.md
	rm -rf ws && "$ASSAY" skill init demo-skill --workspace ws >/dev/null
	echo "some notes to summarise" > ws/notes.txt
	jq --arg e "$SKILL_TESTS/executor.sh" --arg j "$SKILL_TESTS/judge.sh" ".executor.command = [\$e] | .judge.command = [\$j]" ws/config.json > c && mv c ws/config.json
	"$ASSAY" skill run ws --mode improve >/dev/null
	run_assay skill report ws; expect_exit 0
	expect_grep "^warning: evals too easy: the baseline v0 passes every case in every run" out
	EXECUTOR_FLAKY=2 "$ASSAY" skill run ws --mode improve --no-cache >/dev/null || true
	run_assay skill report ws; expect_exit 0
	expect_grep "^v0 +case-01 +3 +0 +67% +3.3 +2.0-4.0  frontmatter, token-efficiency$" out
	! grep -q "evals too easy" out'

test_done
