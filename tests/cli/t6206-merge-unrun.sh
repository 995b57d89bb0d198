#!/usr/bin/env bash
# `assay merge` counts the case files a suite mistake leaves unrun from the suite it is given
# (--suite), never from a shard's summary (hostile review F4, issue 18 item 3;
# docs/scale-out.md "What a merge checks"): a shard whose summary says 0 still merges to the
# suite's count, and the merge fails as the run does.
. "$(dirname "$0")/lib.sh"

require_cmd jq
require_cmd sqlite3

# suite.yaml names group "featrues"; the folder is features/ with 3 case files; core/ has 2.
mkdir -p s/c/core s/c/features
printf 'name: typo\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {core: {}, featrues: {}}}}\n' > s/suite.yaml
for x in a b; do printf 'arguments: ["echo %s"]\nexpected: {output: "%s\\n"}\n' $x $x > s/c/core/$x.yaml; done
for x in f1 f2 f3; do printf 'arguments: ["echo %s"]\nexpected: {output: "%s\\n"}\n' $x $x > s/c/features/$x.yaml; done
"$ASSAY" run s -o s1 -q --shard 1/2 >/dev/null 2>&1
"$ASSAY" run s -o s2 -q --shard 2/2 >/dev/null 2>&1

test_case 'shards whose summaries say 0 unrun case files: the suite.s count is merged, exit 1' '
	for i in 1 2; do
		cp -r s$i f$i
		sqlite3 f$i/assay.db "UPDATE run SET summary = json_set(summary, '\''$.unrun_case_files'\'', 0)"
	done
	run_assay merge f1 f2 --suite s -o m -q; expect_exit 1
	jq -e ".unrun_case_files == 3 and .totals.passed == 2 and .totals.total == 2" m/summary.json'

test_case 'a case file left unrun since the shards ran is counted too' '
	printf "arguments: [\"echo f4\"]\nexpected: {output: \"f4\\\\n\"}\n" > s/c/features/f4.yaml
	run_assay merge s1 s2 --suite s -o m2; expect_exit 1
	expect_grep "^4 case files never ran" out
	jq -e ".unrun_case_files == 4" m2/summary.json
	rm s/c/features/f4.yaml'

test_case 'the mistake mended in the suite: 0, and the merge passes' '
	mv s/c/features s/features.off
	run_assay merge s1 s2 --suite s -o m3 -q; expect_exit 0
	jq -e ".unrun_case_files == 0" m3/summary.json
	mv s/features.off s/c/features'

test_done
