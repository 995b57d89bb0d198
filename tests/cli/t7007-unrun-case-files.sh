#!/usr/bin/env bash
# Case files a suite mistake leaves unrun (issue 18 item 3): a group name misspelled in
# suite.yaml leaves its folder's case files out of the run. -q never hides that warning, and
# the count is in summary.json (`unrun_case_files`) and on the terminal's last line, and the run
# fails (exit 1): a run of the rest never reads as "all passed".
. "$(dirname "$0")/lib.sh"

require_cmd jq

# suite.yaml names group "featrues"; the folder is features/ with 3 case files; core/ has 2.
mkdir -p s/c/core s/c/features
printf 'name: typo\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {core: {}, featrues: {}}}}\n' > s/suite.yaml
for x in a b; do printf 'arguments: ["echo %s"]\nexpected: {output: "%s\\n"}\n' $x $x > s/c/core/$x.yaml; done
for x in f1 f2 f3; do printf 'arguments: ["echo %s"]\nexpected: {output: "%s\\n"}\n' $x $x > s/c/features/$x.yaml; done

test_case '-q still warns that case files never run, and the run fails' '
	run_assay run s -o r1 -q; expect_exit 1
	expect_grep "features/: 3 case files in a folder that is no group of checkpoint .c.: they are never run" err
	expect_grep "did you mean .featrues.?" err'

test_case 'summary.json counts them: unrun_case_files' '
	run_assay run s -o r2 -q
	jq -e ".unrun_case_files == 3 and .totals.total == 2 and .totals.passed == 2" r2/summary.json'

test_case 'the terminal never says only "2 of 2 passed"' '
	run_assay run s -o r3; expect_exit 1
	expect_grep "^2 of 2 cases passed" out
	expect_grep "^3 case files never ran: a mistake of the suite left them out .a folder suite.yaml declares no group or checkpoint for" out'

test_case 'every report says so: junit (an error), tap, markdown, html; none says all passed alone' '
	run_assay run s -o r5 -q --format junit --format tap --format markdown --format html; expect_exit 1
	expect_grep "<testcase name=\"case files that never ran\"" r5/junit.xml
	expect_grep "<error message=\"3 case files never ran" r5/junit.xml
	expect_grep "^# 3 case files never ran" r5/report.tap
	expect_grep "3 case files never ran" r5/summary.md
	expect_grep "\"unrun\": ?3" r5/report.html
	command -v xmllint >/dev/null || skip_optional "xmllint"
	xmllint --noout r5/junit.xml'

test_case 'merged shards keep the count, and the merge fails as the run does' '
	run_assay run s -o sh1 -q --shard 1/2; expect_exit 1
	run_assay run s -o sh2 -q --shard 2/2; expect_exit 1
	run_assay merge sh1 sh2 --suite s -o m; expect_exit 1
	expect_grep "^3 case files never ran" out
	jq -e ".unrun_case_files == 3 and .totals.passed == 2" m/summary.json'

test_case 'a suite without the mistake counts 0, and passes' '
	rm -r s/c/features
	run_assay run s -o r4 -q; expect_exit 0
	jq -e ".unrun_case_files == 0" r4/summary.json
	[ ! -s err ] || ! grep -q "never run" err'

# (the attack review of duplicate ids: a case folder with case.yaml and case.yml ran one and
# said nothing of the other)
test_case 'a case folder with more than one case file: the ones not read are never run, and said' '
	mkdir -p d/c/g/x d/c/g/y
	printf "name: two\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > d/suite.yaml
	printf "arguments: [\"echo x\"]\nexpected: {output: \"x\\\\n\"}\n" > d/c/g/x/case.yaml
	cp d/c/g/x/case.yaml d/c/g/x/case.yml
	printf "{\"arguments\": [\"echo y\"]}\n" > d/c/g/x/case.json
	cp d/c/g/x/case.yaml d/c/g/y/case.yaml
	run_assay run d -o r -q; expect_exit 1
	expect_grep "x/: a case folder with more than one case file: case.yaml is read, case.yml and case.json are never run" err
	grep -c "case folder with more than one" err | grep -qx 1
	jq -e ".unrun_case_files == 2 and .totals.total == 2 and .totals.passed == 2" r/summary.json'

test_done
