#!/usr/bin/env bash
# Case files in a group folder that the loader never takes as cases are said and counted
# (hostile review F7, issue 18 item 3; suite-format.md "Layout"): a folder of case files inside
# a group folder (sub/x.yaml), a case file whose extension is not lower case (U.YAML), a case
# folder whose case file is misnamed (cf/Case.yaml) and a hidden case file (.h.yaml) each warn
# "never run", even under -q, count in summary.json's unrun_case_files, and fail the run. A
# case folder's own files and a static asset folder inside a group folder are not cases.
# -q never hides that a --case or --group pattern matched nothing.
. "$(dirname "$0")/lib.sh"

require_cmd jq

mkdir -p s/c/g/sub s/c/g/cf s/c/g/cv/files s/c/g/data
cat > s/suite.yaml <<'Y'
name: hid
adapter: {type: cli, command: [sh, -c]}
static_assets: {data: {path: c/g/data}}
checkpoints: {c: {groups: {g: {}}}}
Y
printf 'arguments: ["echo a"]\nexpected: {output: "a\\n"}\n' > s/c/g/a.yaml
printf 'arguments: ["echo v"]\nexpected: {output: "v\\n"}\n' > s/c/g/cv/case.yaml
echo '{"x": 1}' > s/c/g/cv/files/in.json
echo '{"x": 1}' > s/c/g/data/table.json
for f in sub/x.yaml U.YAML cf/Case.yaml .h.yaml; do
	printf 'arguments: ["echo z"]\nexpected: {output: "z\\n"}\n' > "s/c/g/$f"
done

test_case 'each unrun case file warns under -q, is counted, and the run fails' '
	run_assay run s -o r1 -q; expect_exit 1
	expect_grep "c/g/sub/: 1 case file in a folder inside group .g. that is no case folder .* never run" err
	expect_grep "c/g/U.YAML: .*extension.*lower case.* never run" err
	expect_grep "c/g/cf/: .*Case.yaml.*case.yaml.* never run" err
	expect_grep "c/g/.h.yaml: .*must not start with .* never run" err
	jq -e ".unrun_case_files == 4 and .totals.total == 2 and .totals.passed == 2" r1/summary.json'

test_case 'a case folder.s files and a static asset folder are not warned about' '
	run_assay run s -o r2 -q
	! grep -q "cv\|data" err'

test_case 'the mistakes mended: nothing unrun, exit 0' '
	mkdir -p fixed && cp -r s/. fixed/
	rm -r fixed/c/g/sub fixed/c/g/U.YAML fixed/c/g/.h.yaml && mv fixed/c/g/cf/Case.yaml fixed/c/g/cf/case.yaml
	run_assay run fixed -o r3 -q; expect_exit 0
	jq -e ".unrun_case_files == 0 and .totals.total == 3" r3/summary.json'

test_case '-q still says that a --case pattern matched nothing' '
	run_assay run fixed -o r4 -q --case c/g/a --case c/g/bb; expect_exit 0
	expect_grep "no case matches .c/g/bb." err'

test_case 'check-suite reports them too' '
	run_assay check-suite s
	for w in "c/g/sub/: " "c/g/U.YAML: " "c/g/cf/: " "c/g/.h.yaml: "; do
		expect_grep "^warning: .*$w.* never run" out
	done'

test_done
