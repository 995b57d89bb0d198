#!/usr/bin/env bash
# The command line itself: help, usage errors, unknown commands, exit codes.
. "$(dirname "$0")/lib.sh"

test_case 'no arguments is a usage error' '
	run_assay; expect_exit 2; expect_grep "usage: assay" err'
test_case '--help prints the commands on stdout' '
	run_assay --help; expect_exit 0; expect_grep "^  run " out; expect_grep "^  run-case " out'
test_case 'an unknown command is a usage error' '
	run_assay frobnicate; expect_exit 2; expect_grep "unknown command .frobnicate." err'
test_case 'run without a suite is a usage error' '
	run_assay run; expect_exit 2; expect_grep "usage: assay run" err'
test_case 'run --help documents every option' '
	run_assay run --help; expect_exit 0
	for o in entry submission checkpoint group case output keep stdout-cap stderr-cap; do
		expect_grep "[-]-$o" out
	done'
test_case 'an unknown option is a usage error' '
	run_assay run "$FIXTURES/suites/basic" --bogus; expect_exit 2
	expect_grep "unknown option .--bogus." err'
test_case 'an option without its value is a usage error' '
	run_assay run "$FIXTURES/suites/basic" --case; expect_exit 2; expect_grep "needs a value" err'
test_case 'a bad size is a usage error' '
	run_assay run "$FIXTURES/suites/basic" --stdout-cap lots; expect_exit 2'
test_case 'version' '
	run_assay version; expect_exit 0; expect_grep "^assay [0-9]+\.[0-9]+\.[0-9]+$" out'
test_case 'a failed write of standard output exits 4' '
	code=0
	"$ASSAY" run "$FIXTURES/suites/basic" -o res --case echo > /dev/full 2>err || code=$?
	expect_exit 4
	expect_grep "writing standard output failed: No space left on device" err'
test_case 'a reader closing the pipe early is not an error' '
	"$ASSAY" run "$FIXTURES/suites/basic" -o res --case echo 2>err | true # gone before assay writes
	[ ! -s err ]'
test_case '--max-failures 0 details no failure but names them all, 1 details one' '
	run_assay run "$FIXTURES/suites/failing" -o res --group core --max-failures 0; expect_exit 1
	expect_grep "^Failures \(7, none shown in detail: --max-failures 0\):" out
	[ "$(grep -c "^  FAIL checkpoint_1/core/[a-z-]*$" out)" = 7 ]
	! grep -q "score" out || false
	run_assay run "$FIXTURES/suites/failing" -o res --group core --max-failures 1; expect_exit 1
	expect_grep "^Failures \(7, first 1 shown in detail\):" out
	[ "$(grep -c "^  FAIL .*score" out)" = 1 ]
	[ "$(grep -c "^  FAIL " out)" = 7 ]'

test_done
