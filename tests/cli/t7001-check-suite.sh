#!/usr/bin/env bash
# assay check-suite: every problem of a suite at once, located, exit 3; --mutate: the checks
# that still pass wrong results.
. "$(dirname "$0")/lib.sh"

test_case 'every problem at once, each once, located, exit 3' '
	run_assay check-suite "$FIXTURES/suites/check-suite"; expect_exit 3
	S="$FIXTURES/suites/check-suite"
	cat > expect <<-EOF
	error: $S/suite.yaml:13:25: group type must be Core, Functionality, Error or Regression
	error: $S/suite.yaml:15:5: timeout must be a number of seconds > 0
	error: $S/checkpoint_1/core/bad-option.yaml:4:22: verify.output: option '"'"'delimiter'"'"' must be one character other than a quote or a line end (or "tab"), got '"'"';;'"'"'
	error: $S/checkpoint_1/core/bad-schema.yaml:4:11: verify.output: json_schema: the draft-07 keyword '"'"'if'"'"' is not supported by assay (at #)
	error: $S/checkpoint_1/core/bad-yaml.yaml:1:20: did not find expected '"'"','"'"' or '"'"']'"'"' (while parsing a flow sequence)
	EOF
	grep -v unknown-verifier out | grep ^error: > got
	test_cmp expect got
	expect_grep "^error: $S/checkpoint_1/core/unknown-verifier.yaml:3:22: verify.output: unknown verifier .jsonn. \\(did you mean .json.\\? known: exact, text, " out
	expect_grep "^warning: $S/suite.yaml:8:1: unknown key .bogus_key. in suite.yaml \\(ignored\\)" out
	expect_grep "^warning: $S/checkpoint_1/core/bad-option.yaml:1:1: unknown case key .colour." out
	expect_grep "^5 cases checked: 6 errors, 2 warnings$" out'

test_case 'a sound suite has no problem; --quiet drops warnings' '
	run_assay check-suite "$FIXTURES/suites/basic"; expect_exit 0
	expect_grep "cases checked: 0 errors" out
	run_assay check-suite "$FIXTURES/suites/check-suite" --quiet; expect_exit 3
	! grep -q ^warning: out'

test_case 'a suite.yaml that does not parse is one error' '
	run_assay check-suite "$FIXTURES/suites/broken-suite"; expect_exit 3
	expect_grep "^error: .*/broken-suite/suite.yaml:[0-9]+:[0-9]+: " out
	expect_grep "^0 cases checked: 1 error, 0 warnings$" out'

test_case 'usage errors exit 2' '
	run_assay check-suite; expect_exit 2
	run_assay check-suite a b; expect_exit 2
	run_assay check-suite --nope x; expect_exit 2
	run_assay check-suite --help; expect_exit 0
	expect_grep "usage: assay check-suite SUITE \\[--mutate\\]" out'

test_case '--mutate lists the checks that pass wrong results' '
	run_assay check-suite "$FIXTURES/suites/mutate" --mutate; expect_exit 1
	cat > expect <<-EOF
	checkpoint_1/core/anything-goes: output still passes with empty output
	checkpoint_1/core/anything-goes: output still passes with its last line dropped
	checkpoint_1/core/anything-goes: output still passes with a digit changed
	checkpoint_1/core/exists-only: files-out.txt still passes with empty output
	checkpoint_1/core/exists-only: files-out.txt still passes with its last line dropped
	checkpoint_1/core/exists-only: files-out.txt still passes with a digit changed
	checkpoint_1/core/first-line-only: output still passes with its last line dropped
	checkpoint_1/core/first-line-only: output still passes with a digit changed
	4 cases: 4 passed and were mutated, 0 failed as is; 18 mutants, 8 survived
	EOF
	test_cmp expect out'

test_case '--mutate: strong checks kill every mutant (exit 0)' '
	run_assay check-suite "$FIXTURES/suites/mutate" --mutate --case strong; expect_exit 0
	expect_grep "^1 case: 1 passed and was mutated, 0 failed as is; 8 mutants, 0 survived$" out'

test_case '--mutate: a case that fails as is is listed, not mutated' '
	run_assay check-suite "$FIXTURES/suites/mutate" --mutate --case strong --entry "sh -c \"echo no\""; expect_exit 1
	expect_grep "^checkpoint_1/core/strong: fails as is \\(no mutant tried\\)$" out'

test_done
