#!/usr/bin/env bash
# The verifiers of issue #7 through the command line: their diffs in reports.jsonl, output that
# does not parse, bad verify entries found at load with file, line and key, and plug-ins given
# by suite.yaml or --plugin (the example line_set of examples/plugin, built by CMake beside the
# assay binary, and one of another ABI).
. "$(dirname "$0")/lib.sh"
SUITE="$FIXTURES/suites/verifiers"
PLUGINS=$(dirname "$ASSAY")

verdict() { jq -r "select(.id == \"$1\") | .case.passed" res/reports.jsonl; }
# one_case ID FILTER: FILTER holds for the report of case ID
one_case() { jq -se ".[] | select(.id == \"$1\") | $2" res/reports.jsonl; }

test_case 'each verifier judges, with its own diff' '
	run_assay run "$SUITE" -o res --plugin "$PLUGINS/assay-plugin-line-set.so"; expect_exit 1
	[ "$(verdict toml-ok)" = true ] && [ "$(verdict ini-ok)" = true ]
	[ "$(verdict line-set)" = true ]
	one_case toml-diff ".results.output.diff.type_changes[\"root[\u0027server\u0027][\u0027port\u0027]\"] | .old_type == \"int\" and .new_type == \"str\""
	one_case yaml-diff ".results.output.diff == {values_changed: {\"root[\u0027a\u0027]\": {new_value: 1, old_value: 2}}}"
	one_case csv-diff ".results.output.diff.values_changed[\"root[1][\u0027qty\u0027]\"] == {new_value: \"5\", old_value: \"4\"}"
	# calculate_score (issue #17): the one attribute is wrong, so the case scores 0; the
	# share of numbers that held is assay'"'"'s partial credit, beside it
	one_case numeric-partial ".results.output | .is_correct == false and (has(\"score\") | not)"
	one_case numeric-partial ".case.score == 0 and .case.partial.output == 0.6"
	one_case schema ".results.output.diff == {\"\$\": \"required: \u0027host\u0027 is a required property\", \"\$.port\": \"maximum: 70000 is greater than the maximum of 65535\"}"'

test_case 'output that does not parse fails with the reader message and position' '
	run_assay run "$SUITE" -o res --case toml-garbled; expect_exit 1
	jq -e ".results.output.is_correct == false and (.results.output.diff | startswith(\"output is not valid TOML: line 2, column 11: \"))" res/reports.jsonl
	jq -e ".case | has(\"error\") | not" res/reports.jsonl'

test_case 'without the plug-in, its case names the unknown verifier and the known ones' '
	run_assay run "$SUITE" -o res --case line-set; expect_exit 1
	jq -e ".case.error | test(\"line-set.yaml:5:11: verify.output: unknown verifier .line_set. \\\\(known: exact, text, .*json_schema, file, flexible, command; a plug-in.s verifier needs its shared object loaded: --plugin PATH, or plugins: .PATH. in suite.yaml\\\\)\")" res/reports.jsonl'

test_case 'a bad option value is found by check-suite at its file, line and key' '
	cp -r "$SUITE" s
	printf "arguments: [x]\nexpected: {output: x}\nverify:\n  output: {verifier: csv, delimiter: \"::\"}\n" > s/checkpoint_1/core/bad.yaml
	run_assay check-suite s --plugin "$PLUGINS/assay-plugin-line-set.so"; expect_exit 3
	expect_grep "^error: .*/s/checkpoint_1/core/bad.yaml:4:22: verify.output: option .delimiter. must be one character" out'

test_case 'suite.yaml plugins: loads shared objects, relative to the suite' '
	rm -rf s && cp -r "$SUITE" s && mkdir s/plugins
	cp "$PLUGINS/assay-plugin-line-set.so" s/plugins/line_set.so
	printf "plugins: [plugins/line_set.so]\n" >> s/suite.yaml
	run_assay run s -o res --case line-set; expect_exit 0'

test_case 'a plug-in that cannot be loaded stops the load, located' '
	rm -rf s && cp -r "$SUITE" s
	printf "plugins: [nope.so]\n" >> s/suite.yaml
	run_assay run s -o res; expect_exit 3
	expect_grep "suite.yaml:[0-9]+:11: cannot load plug-in: No such file or directory" err
	run_assay run "$SUITE" -o res --plugin "$PLUGINS/assay-plugin-wrong_abi.so"; expect_exit 3
	expect_grep "assay-plugin-wrong_abi.so: plug-in was built for plug-in ABI 99 .* this assay speaks ABI 1" err'

test_done
