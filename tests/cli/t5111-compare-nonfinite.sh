#!/usr/bin/env bash
# assay compare takes no verdict from what is not a score, and pairs cases by their names
# exactly (hostile review F10, issue 18 item 2; docs/statistics.md): a NaN or Infinity score is
# refused naming the case (exit 2), never counted as 0 ("significantly worse"); a case of
# checkpoint "c\nx", group "g" is not the case of checkpoint "c", group "x\ng", nor is a name
# holding a NUL byte the name cut at it.
. "$(dirname "$0")/lib.sh"

require_cmd jq

# lines FILE CP GROUP PASSED SCORE: ten report lines x0..x9 (CP, GROUP as JSON string bodies;
# checkpoint, passed and score in case, where a report line keeps them).
lines() {
	for i in 0 1 2 3 4 5 6 7 8 9; do
		printf '{"group": "%s", "id": "x%d", "case": {"checkpoint": "%s", "passed": %s, "score": %s}}\n' \
			"$3" "$i" "$2" "$4" "$5"
	done > "$1"
}
lines a.jsonl c g true 1

test_case 'the same runs: no verdict against B, exit 0 (the fixture is sound)' '
	lines b.jsonl c g true 1
	run_assay compare a.jsonl b.jsonl --json; expect_exit 0
	jq -e ".paired == 10 and (.worse | not)" out'

test_case 'NaN scores in B: refused naming the case, not "significantly worse"' '
	lines b.jsonl c g true NaN
	run_assay compare a.jsonl b.jsonl; expect_exit 2
	expect_grep "b.jsonl.*case c/g/x0 has score NaN: not a score" err
	! grep -q "significantly worse" out'

test_case 'Infinity and -Infinity scores (in A or B): refused' '
	lines b.jsonl c g true Infinity
	run_assay compare a.jsonl b.jsonl; expect_exit 2
	expect_grep "case c/g/x0 has score Infinity" err
	lines b.jsonl c g true -Infinity
	run_assay compare b.jsonl a.jsonl; expect_exit 2
	expect_grep "case c/g/x0 has score -Infinity" err'

test_case 'a newline in a name does not pair two different cases' '
	lines a2.jsonl "c\\nx" g true 1
	lines b2.jsonl c "x\\ng" false 0
	run_assay compare a2.jsonl b2.jsonl --any-suite --json; expect_exit 0
	jq -e ".paired == 0 and .only_a == 10 and .only_b == 10 and (.worse | not)" out'

test_case 'a NUL byte in a name does not pair it with the name cut there' '
	lines a3.jsonl "c\\u0000x" g true 1
	lines b3.jsonl c g false 0
	run_assay compare a3.jsonl b3.jsonl --any-suite --json; expect_exit 0
	jq -e ".paired == 0 and (.worse | not)" out'

test_done
