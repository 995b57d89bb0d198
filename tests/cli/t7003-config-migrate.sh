#!/usr/bin/env bash
# examples/config-migrate: every verifier on one program. The solution passes every case, the
# broken submission fails exactly the cases its bugs touch (its README lists them), and
# check-suite finds no problem.
. "$(dirname "$0")/lib.sh"

# the suite, with the line_set plug-in CMake built beside the assay binary
cp -r "$ASSAY_SRC/examples/config-migrate" suite
cp "$(dirname "$ASSAY")/assay-plugin-line-set.so" suite/plugins/line_set.so

test_case 'the solution passes every case' '
	run_assay run suite -o res; expect_exit 0
	[ "$(jq -s "length" res/reports.jsonl)" = 19 ]
	[ "$(jq -s "map(select(.case.passed and .case.score == 1)) | length" res/reports.jsonl)" = 19 ]'

test_case 'the broken submission fails exactly the cases its bugs touch' '
	run_assay run suite -o res --submission suite/solution-broken; expect_exit 1
	jq -r "select(.case.passed | not) | \"\(.group)/\(.id)\"" res/reports.jsonl | sort > failed
	printf "%s\n" errors/duplicate-section outputs/csv outputs/log outputs/log-content \
		outputs/toml outputs/yaml summary/stats summary/stats-text > expect
	test_cmp expect failed
	# Pattern 1: a contained message is correct with weight 0.8, so calculate_score is 1.0 (it
	# was 0.9 when assay multiplied a partial credit into the score); the 0.8 is case.partial
	jq -se ".[] | select(.id == \"missing-input\") | .case.passed and .case.score == 1 and .results.stderr.weight == 0.8 and .case.partial.stderr == 0.8" res/reports.jsonl
	jq -se ".[] | select(.id == \"toml\") | .results[\"files-config.toml\"].diff.type_changes[\"root[\u0027server\u0027][\u0027port\u0027]\"] | .old_type == \"int\" and .new_type == \"str\"" res/reports.jsonl
	jq -se ".[] | select(.id == \"csv\") | .results[\"files-report.csv\"].diff.columns == {missing: [\"type\"], extra: [\"kind\"]}" res/reports.jsonl
	jq -se ".[] | select(.id == \"log-content\") | .results[\"files-out/migrate.log\"].diff.content | endswith(\" section database: 6 keys\n-done\n\")" res/reports.jsonl
	jq -se ".[] | select(.id == \"stats\") | .case.score == 0 and .case.partial.output > 0.8" res/reports.jsonl'

test_case 'check-suite finds no problem' '
	run_assay check-suite suite; expect_exit 0
	expect_grep "^19 cases checked: 0 errors, 0 warnings$" out'

test_done
