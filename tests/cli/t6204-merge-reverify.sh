#!/usr/bin/env bash
# `assay merge` trusts no shard's verdict (issue 18 item 1; docs/security.md "What a merge
# trusts"): every case is verified again from the suite's case file (--suite) and the actual
# values the shard recorded. A shard whose report line was forged (is_correct or passed
# flipped, expected rewritten to equal actual, the verified attribute deleted, given weight 0
# or is_correct null) is refused (exit 2), nothing written; forged tables alone are never read
# for a verdict; without --suite merge makes no verdict at all.
. "$(dirname "$0")/lib.sh"

require_cmd jq
require_cmd sqlite3

# A suite of one failing case (its output is wrong, its status right) and one passing case.
mkdir -p suite/c/g
printf 'name: rv\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' \
	> suite/suite.yaml
printf 'arguments: ["echo wrong"]\nexpected: {output: "right\\n", status_code: 0}\n' > suite/c/g/f.yaml
printf 'arguments: ["echo right"]\nexpected: {output: "right\\n", status_code: 0}\n' > suite/c/g/p.yaml
"$ASSAY" run suite -o s1 --shard 1/1 -q >/dev/null 2>&1

# forge SQL: a copy of the shard (f1) with SQL applied to its store.
forge() {
	rm -rf f1 m
	cp -r s1 f1
	sqlite3 f1/assay.db "$1"
}

# refused PATTERN: the merge of f1 exits 2 naming case c/g/f and PATTERN, and writes nothing.
refused() {
	run_assay merge f1 --suite suite -o m -q; expect_exit 2
	expect_grep "case c/g/f: .*$1" err
	[ ! -e m ]
}

# SQL that also makes the shard's own columns say pass (cases.passed, cases.score).
ALL="UPDATE cases SET passed = 1, score = 1 WHERE id = 'f';"

test_case 'the honest shard merges, verified again, as it was' '
	run_assay merge s1 --suite suite -o m -q; expect_exit 1
	jq -e ".totals.passed == 1 and .totals.total == 2" m/summary.json
	[ "$(sqlite3 m/assay.db "SELECT passed FROM cases WHERE id = '\''f'\''")" = 0 ]
	rm -rf m'

test_case 'without --suite merge makes no verdict: refused, nothing written' '
	run_assay merge s1 -o m -q; expect_exit 2
	expect_grep "trusts no shard.s verdict: give the suite the shards ran with --suite" err
	[ ! -e m ]'

test_case 'only the columns forged (cases.passed, cases.score): not read, the case still fails' '
	forge "$ALL"
	run_assay merge f1 --suite suite -o m -q; expect_exit 1
	[ "$(sqlite3 m/assay.db "SELECT passed FROM cases WHERE id = '\''f'\''")" = 0 ]
	jq -e ".totals.passed == 1" m/summary.json'

test_case 'a shard line with assay'\''s keys at the top level (a forged or older line): refused, they live in case' '
	forge "UPDATE cases SET line = json_set(line, '\''$.passed'\'', json('\''false'\''), '\''$.score'\'', 0, '\''$.checkpoint'\'', '\''x'\'') WHERE id = '\''p'\''"
	run_assay merge f1 --suite suite -o m -q; expect_exit 2
	expect_grep "case c/g/p: its report line has a field .passed. that assay run does not write" err
	[ ! -e m ]'

test_case 'only the report line forged (passed, score, is_correct): refused' '
	forge "UPDATE cases SET line = json_set(line, '\''$.case.passed'\'', json('\''true'\''), '\''$.case.score'\'', 1,
		'\''$.results.output.is_correct'\'', json('\''true'\'')) WHERE id = '\''f'\''"
	refused "its attribute output has another is_correct than re-verification makes"'

test_case 'is_correct and passed flipped everywhere, actual and expected still differ: refused' '
	forge "$ALL UPDATE cases SET line = json_set(line, '\''$.case.passed'\'', json('\''true'\''), '\''$.case.score'\'', 1,
		'\''$.results.output.is_correct'\'', json('\''true'\''), '\''$.results.output.diff'\'', null) WHERE id = '\''f'\''"
	refused "its attribute output has another is_correct than re-verification makes"'

test_case 'expected rewritten to equal actual (the case file digest unchanged): refused' '
	forge "$ALL UPDATE cases SET line = json_set(line, '\''$.case.passed'\'', json('\''true'\''), '\''$.case.score'\'', 1,
		'\''$.results.output.is_correct'\'', json('\''true'\''), '\''$.results.output.diff'\'', null,
		'\''$.results.output.expected'\'', '\''wrong'\'' || char(10)) WHERE id = '\''f'\''"
	refused "its attribute output has another expected value than the case file"'

test_case 'the verified attribute deleted: refused' '
	forge "$ALL UPDATE cases SET line = json_remove(json_set(line, '\''$.case.passed'\'', json('\''true'\''), '\''$.case.score'\'', 1),
		'\''$.results.output'\'') WHERE id = '\''f'\''"
	refused "its attribute output is missing from the shard.s results"'

test_case 'the verified attribute given weight 0 and is_correct null: refused' '
	forge "$ALL UPDATE cases SET line = json_set(line, '\''$.case.passed'\'', json('\''true'\''), '\''$.case.score'\'', 1,
		'\''$.results.output.is_correct'\'', null, '\''$.results.output.weight'\'', 0) WHERE id = '\''f'\''"
	refused "its attribute output has another is_correct than re-verification makes"'

test_case 'a case file that expects what the program printed, in a copy the shard names: not used' '
	cp -r suite evil
	printf "arguments: [\"echo wrong\"]\nexpected: {output: \"wrong\\\\n\", status_code: 0}\n" > evil/c/g/f.yaml
	forge "UPDATE run SET meta = json_set(meta, '\''$.suite_path'\'', '\''$PWD/evil'\'')"
	run_assay merge f1 -o m -q; expect_exit 2
	[ ! -e m ]
	# the user names the real suite: the case file the shard ran is checked against it
	run_assay merge f1 --suite suite -o m -q; expect_exit 1
	jq -e ".totals.passed == 1" m/summary.json'

# A suite whose verdicts a `command` verifier (the suite's own program) gives: case yes passes,
# case no fails.
mkdir -p cs/c/g cs/checks
printf 'name: cmdv\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' \
	> cs/suite.yaml
cat > cs/checks/ok.sh <<'EOF'
#!/bin/sh
case "$(cat)" in
*'"actual": "yes'*) echo '{"is_correct": true}' ;;
*) echo '{"is_correct": false}' ;;
esac
EOF
chmod +x cs/checks/ok.sh
for w in yes no; do
	printf 'arguments: ["echo %s"]\nexpected: {output: "anything"}\nverify: {output: {verifier: command, run: [checks/ok.sh]}}\n' \
		$w > cs/c/g/$w.yaml
done
"$ASSAY" run cs -o c1 --shard 1/1 -q >/dev/null 2>&1

test_case 'a command verifier (the suite'\''s program) decides again at merge: a forged pass refused' '
	[ "$(sqlite3 c1/assay.db "SELECT passed FROM cases WHERE id = '\''yes'\''")" = 1 ]
	run_assay merge c1 --suite cs -o cm -q; expect_exit 1
	jq -e ".totals.passed == 1 and .totals.total == 2" cm/summary.json
	cp -r c1 c2
	sqlite3 c2/assay.db "UPDATE cases SET passed = 1, score = 1, line = json_set(line, '\''$.case.passed'\'', json('\''true'\''),
		'\''$.case.score'\'', 1, '\''$.results.output.is_correct'\'', json('\''true'\'')) WHERE id = '\''no'\''"
	run_assay merge c2 --suite cs -o cm2 -q; expect_exit 2
	expect_grep "case c/g/no: its attribute output has another is_correct than re-verification makes" err
	[ ! -e cm2 ]'

# A suite verified by a plug-in the run loaded with --plugin (examples/plugin's line_set, built
# beside assay): merge verifies with it when given it too, and says so when not.
LINE_SET="$(dirname "$ASSAY")/assay-plugin-line-set.so"
mkdir -p ps/c/g
printf 'name: pl\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > ps/suite.yaml
printf 'arguments: ["printf \\"b\\\\na\\\\n\\""]\nexpected: {output: "a\\nb\\n"}\nverify: {output: {verifier: line_set}}\n' \
	> ps/c/g/x.yaml

test_case 'a plug-in verifier: merge --plugin verifies with it; without, refused saying why' '
	[ -f "$LINE_SET" ] || skip "assay-plugin-line-set.so is not built beside assay"
	run_assay run ps -o p1 --shard 1/1 -q --plugin "$LINE_SET"; expect_exit 0
	run_assay merge p1 --suite ps -o pm -q; expect_exit 2
	expect_grep "case c/g/x: cannot be verified again here: .*line_set.*give it to merge too" err
	[ ! -e pm ]
	run_assay merge p1 --suite ps -o pm -q --plugin "$LINE_SET"; expect_exit 0
	jq -e ".totals.passed == 1" pm/summary.json'

test_done
