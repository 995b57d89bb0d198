#!/usr/bin/env bash
# `assay merge` takes no case's identity from a shard's report line (hostile review F1, issue 18
# item 1; docs/scale-out.md "What a merge checks"): the id, group, checkpoint, type and
# original_checkpoint/original_group of each merged line are the suite's case that the row (by
# its own key) is verified again against. A line that says otherwise (ids swapped between two
# rows, so that each verdict lands on the other case; a group's type changed), a timestamp or
# duration that is not one, or a field an `assay run` never writes, is refused (exit 2),
# nothing written.
. "$(dirname "$0")/lib.sh"

require_cmd jq
require_cmd sqlite3

# f fails (wrong output), p passes; the group is Core.
mkdir -p s/c/g
printf 'name: rv\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {type: Core}}}}\n' \
	> s/suite.yaml
printf 'arguments: ["echo wrong"]\nexpected: {output: "right\\n", status_code: 0}\n' > s/c/g/f.yaml
printf 'arguments: ["echo right"]\nexpected: {output: "right\\n", status_code: 0}\n' > s/c/g/p.yaml
"$ASSAY" run s -o s1 --shard 1/1 -q >/dev/null 2>&1

# forge SQL: a copy of the shard (f1) with SQL applied to its store.
forge() {
	rm -rf f1 m
	cp -r s1 f1
	sqlite3 f1/assay.db "$1"
}

# refused PATTERN: the merge of f1 exits 2 with PATTERN and writes nothing.
refused() {
	run_assay merge f1 --suite s -o m -q; expect_exit 2
	expect_grep "$1" err
	[ ! -e m ]
}

test_case 'the honest shard merges: f fails, p passes, in every report' '
	run_assay merge s1 --suite s -o m -q; expect_exit 1
	jq -s -e "map(select(.id == \"f\"))[0] | .case.passed == false and .type == \"Core\"" m/reports.jsonl
	jq -s -e "map(select(.id == \"p\"))[0] | .case.passed == true" m/reports.jsonl
	run_assay report m --format junit; expect_exit 0
	expect_grep "testcase.*name=\"f\"" out
	rm -rf m'

test_case 'ids swapped between the two lines (and type Error): refused, not f passed' '
	forge "UPDATE cases SET line = json_set(line, '\''$.id'\'', CASE id WHEN '\''f'\'' THEN '\''p'\'' ELSE '\''f'\'' END,
		'\''$.type'\'', '\''Error'\'')"
	refused "case c/g/[fp]: its report line says id \"[fp]\" but the suite.s case has \"[fp]\": a line never names another case"'

test_case 'only the type of the line changed (Core to Error): refused' '
	forge "UPDATE cases SET line = json_set(line, '\''$.type'\'', '\''Error'\'') WHERE id = '\''f'\''"
	refused "case c/g/f: its report line says type \"Error\" but the suite.s case has \"Core\""'

test_case 'group, checkpoint or original_group of the line changed: refused' '
	forge "UPDATE cases SET line = json_set(line, '\''$.group'\'', '\''h'\'') WHERE id = '\''f'\''"
	refused "case c/g/f: its report line says group \"h\""
	forge "UPDATE cases SET line = json_set(line, '\''$.case.checkpoint'\'', '\''d'\'') WHERE id = '\''f'\''"
	refused "case c/g/f: its report line says checkpoint \"d\""
	forge "UPDATE cases SET line = json_set(line, '\''$.original_group'\'', '\''x'\'') WHERE id = '\''f'\''"
	refused "case c/g/f: its report line says original_group \"x\""'

test_case 'a timestamp or duration that is not one: refused' '
	forge "UPDATE cases SET line = json_set(line, '\''$.timestamp'\'', 5) WHERE id = '\''f'\''"
	refused "case c/g/f: its timestamp is not a time"
	forge "UPDATE cases SET line = json_set(line, '\''$.timestamp'\'', '\''yesterday'\'') WHERE id = '\''f'\''"
	refused "case c/g/f: its timestamp is not a time"
	forge "UPDATE cases SET line = json_set(line, '\''$.duration'\'', -1) WHERE id = '\''f'\''"
	refused "case c/g/f: its duration is not a number of seconds"'

test_case 'a field assay run never writes, added to the line: refused' '
	forge "UPDATE cases SET line = json_set(line, '\''$.verdict'\'', '\''pass'\'') WHERE id = '\''f'\''"
	refused "case c/g/f: its report line has a field .verdict. that assay run does not write"'

test_case 'the merged lines are those of an unsharded run, timings apart' '
	run_assay run s -o u -q; expect_exit 1
	run_assay merge s1 --suite s -o m -q; expect_exit 1
	norm() { jq -c "del(.timestamp, .duration, .case.execution)" "$1"; }
	norm u/reports.jsonl > a; norm m/reports.jsonl > b
	test_cmp a b'

test_done
