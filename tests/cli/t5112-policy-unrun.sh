#!/usr/bin/env bash
# A pass policy counts case files a suite mistake left unrun (hostile review F6, issue 18 item 3):
# a run that never ran some of the suite's case files passes no policy, as an interrupted run
# passes none: `--pass-policy all-cases` exits 1, and summary.json's `policies` say false.
. "$(dirname "$0")/lib.sh"

require_cmd jq

# suite.yaml names group "featrues"; the folder is features/ with 2 case files; core/ has 2.
mkdir -p s/c/core s/c/features
printf 'name: typo\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {core: {type: Core}, featrues: {}}}}\n' > s/suite.yaml
for x in a b; do printf 'arguments: ["echo %s"]\nexpected: {output: "%s\\n"}\n' $x $x > s/c/core/$x.yaml; done
for x in f1 f2; do printf 'arguments: ["echo %s"]\nexpected: {output: "%s\\n"}\n' $x $x > s/c/features/$x.yaml; done

test_case 'all-cases with 2 case files unrun: exit 1' '
	run_assay run s -o r1 -q --pass-policy all-cases; expect_exit 1
	jq -e ".unrun_case_files == 2 and .totals.passed == 2" r1/summary.json'

test_case 'no policy passes, in summary.json either (any, core-cases, any-case)' '
	for p in any core-cases any-case all-non-error-cases; do
		run_assay run s -o r2 -q --pass-policy $p; expect_exit 1
	done
	jq -e "[.policies[]] | all(. == false)" r2/summary.json'

test_case 'the mistake mended: all-cases passes' '
	mv s/c/features s/off
	run_assay run s -o r3 -q --pass-policy all-cases; expect_exit 0
	jq -e ".policies[\"all-cases\"] == true" r3/summary.json
	mv s/off s/c/features'

test_done
