#!/usr/bin/env bash
# Issue #17 item 5: original_checkpoint / original_group naming a checkpoint or group that is not
# in the suite are labels on the reports (verification.md: "For regression cases"), never a load
# error; under --strict they are said, as a note, and the suite still loads.
. "$(dirname "$0")/lib.sh"

mkdir -p s/checkpoint_2/old s/checkpoint_2/older
cat > s/suite.yaml <<'EOF'
name: labels
adapter: {type: cli, command: [/bin/echo]}
checkpoints:
  checkpoint_2:
    groups:
      old: {type: Regression, original_checkpoint: checkpoint_1, original_group: core}
      older: {original_checkpoint: checkpoint_2, original_group: gone}
EOF
printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > s/checkpoint_2/old/a.yaml
printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > s/checkpoint_2/older/b.yaml

test_case 'a checkpoint or group outside the suite is a label, and the cases run from their own folder' '
	run_assay run s -o res; expect_exit 0
	jq -se ".[] | select(.id == \"a\") | .type == \"Regression\" and .original_checkpoint == \"checkpoint_1\" and .original_group == \"core\" and .case.passed" res/reports.jsonl
	jq -se ".[] | select(.id == \"b\") | .type == \"Regression\" and .original_checkpoint == \"checkpoint_2\" and .original_group == \"gone\"" res/reports.jsonl
	! grep -q "not in this suite" err'

test_case 'under --strict they are said, and the suite still loads' '
	run_assay run s -o res --strict; expect_exit 0
	expect_grep "original_checkpoint .checkpoint_1. is not in this suite" err
	expect_grep "original_group .gone. is not in this suite" err'

test_done
