#!/usr/bin/env bash
# Issue #17 item 7: a cut output is never judged. A program printing the right answer, a flood of
# spaces and a wrong answer does not pass once its output is cut at --stdout-cap: every attribute
# verified from the cut capture fails with a diff naming the cut, unless the case opts in with
# verify: {output: {allow_truncated: true}}.
. "$(dirname "$0")/lib.sh"

mkdir -p s/checkpoint_1/core
cat > s/suite.yaml <<'EOF'
name: cut
adapter: {type: cli, command: [sh, -c, 'echo 42; head -c 5000 /dev/zero | tr "\0" " "; echo 41']}
checkpoints:
  checkpoint_1:
    groups:
      core: {type: Core}
EOF
for v in text numeric jsonl yaml; do
	printf "expected: {output: \"42\"}\nverify: {output: {verifier: %s}}\n" "$v" > s/checkpoint_1/core/$v.yaml
done
sed -i "s/{verifier: text}/{verifier: text, strip: true}/" s/checkpoint_1/core/text.yaml
printf "expected: {output: \"42\"}\nverify: {output: {verifier: contains, allow_truncated: true}}\n" > s/checkpoint_1/core/opted-in.yaml

test_case 'an output cut at its cap fails every attribute verified from it' '
	run_assay run s -o res --stdout-cap 100; expect_exit 1
	for v in text numeric jsonl yaml; do
		jq -se ".[] | select(.id == \"$v\") | .results.output.is_correct == false and .case.passed == false and .case.score == 0" res/reports.jsonl
		jq -se ".[] | select(.id == \"$v\") | .results.output.diff | test(\"^output was cut at 100 bytes\")" res/reports.jsonl
	done'

test_case 'allow_truncated: true judges the cut output' '
	jq -se ".[] | select(.id == \"opted-in\") | .case.passed" res/reports.jsonl'

test_case 'without the cap, the whole output is judged (and the wrong answer fails)' '
	run_assay run s -o res2; expect_exit 1
	jq -se ".[] | select(.id == \"text\") | .results.output.diff | test(\"cut\") | not" res2/reports.jsonl'

test_case 'allow_truncated must be a boolean' '
	printf "expected: {output: \"42\"}\nverify: {output: {allow_truncated: 3}}\n" > s/checkpoint_1/core/bad.yaml
	run_assay check-suite s; expect_exit 3
	expect_grep "allow_truncated" out'

test_done
