#!/usr/bin/env bash
# assay compare gives no verdict on no evidence (issue 18 item 2; docs/statistics.md, "How assay
# compare uses them"): one paired case that got worse, or a narrow run (--case) against a full
# one, is never "significantly worse" (exit 0, "verdict: none"); cases in one run only are
# counted as such, never as evidence; the score interval alone gates nothing; an exact test
# whose p-value reaches alpha (5 flips of 10 pairs) still does.
. "$(dirname "$0")/lib.sh"

require_cmd jq

# A suite of N cases expecting "ok-I"; submission good/ answers all, bad$K/ gets cases 1..K wrong.
make_suite() {
	local n=$1
	mkdir -p "s$n/c/core"
	printf "name: ev\nadapter: {type: cli, command: [sh, prog.sh]}\ncheckpoints: {c: {groups: {core: {type: Core}}}}\n" > "s$n/suite.yaml"
	for i in $(seq 1 "$n"); do
		printf "arguments: [\"%d\"]\nexpected: {output: \"ok-%d\\\\n\"}\n" "$i" "$i" > "s$n/c/core/c$(printf %02d "$i").yaml"
	done
}
mkdir -p good && echo 'echo "ok-$1"' > good/prog.sh
for k in 1 4 5; do
	mkdir -p "bad$k" && echo "[ \"\$1\" -le $k ] && echo no || echo \"ok-\$1\"" > "bad$k/prog.sh"
done
make_suite 1
make_suite 10
make_suite 38
"$ASSAY" run s1 -o one-good -q --submission good >/dev/null 2>&1 || true
"$ASSAY" run s1 -o one-bad -q --submission bad1 >/dev/null 2>&1 || true
"$ASSAY" run s38 -o full -q --submission good >/dev/null 2>&1 || true
"$ASSAY" run s38 -o narrow -q --submission bad1 --case c/core/c01 >/dev/null 2>&1 || true
for sub in good bad4 bad5; do
	"$ASSAY" run s10 -o "ten-$sub" -q --submission "$sub" >/dev/null 2>&1 || true
done

test_case 'one paired case that went pass -> fail: no verdict, exit 0' '
	run_assay compare one-good one-bad; expect_exit 0
	expect_grep "1 pass->fail, 0 fail->pass" out
	expect_grep "^verdict: none: 1 paired case, at least 10 needed to judge" out
	run_assay compare one-good one-bad --json; expect_exit 0
	jq -e "(.worse | not) and (.judged | not) and .min_pairs == 10 and .paired == 1" out'

test_case 'a narrow run (--case) against a full one: 37 only in A are not evidence, exit 0' '
	[ "$(wc -l < narrow/reports.jsonl)" = 1 ]
	run_assay compare full narrow; expect_exit 0
	expect_grep "1 paired; 37 only in A, 0 only in B \\(not in the statistics\\)" out
	expect_grep "^verdict: none: 1 paired case" out
	run_assay compare full narrow --json; expect_exit 0
	jq -e "(.worse | not) and .only_a == 37 and (.only_in_a | length) == 37 and .paired == 1" out'

test_case 'the score interval alone gates nothing: 4 flips of 10 (p = 0.0625), exit 0' '
	run_assay compare ten-good ten-bad4 --json; expect_exit 0
	jq -e ".judged and (.worse | not) and .score.diff_hi < 0" out
	jq -e "(.mcnemar.p_b_worse - 0.0625 | fabs) < 1e-12 and (.sign_test.p_b_worse - 0.0625 | fabs) < 1e-12" out
	jq -e ".sign_test.score_fell == 4 and .sign_test.score_rose == 0" out'

test_case 'an exact test that reaches alpha still gates: 5 flips of 10 (p = 0.03125), exit 1' '
	run_assay compare ten-good ten-bad5; expect_exit 1
	expect_grep "verdict: B is significantly worse than A" out
	run_assay compare ten-good ten-bad5 --json; expect_exit 1
	jq -e ".worse and (.mcnemar.p_b_worse - 0.03125 | fabs) < 1e-12" out
	# a minimum above the pairs: no verdict
	run_assay compare ten-good ten-bad5 --min-pairs 11; expect_exit 0
	expect_grep "^verdict: none: 10 paired cases, at least 11 needed" out'

test_done
