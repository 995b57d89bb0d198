#!/usr/bin/env bash
# The CLI tests' own harness (lib.sh) cannot lie: a test case that skips is counted and shown
# as skipped, never as passed; ctest sees the script as skipped; under CI=true a skip of a
# dependency that scripts/install-deps.sh installs is a failure; skip_optional skips even there;
# a test case after test_done fails the script.
. "$(dirname "$0")/lib.sh"

# child BODY: a test script of one passing case and BODY, run with lib.sh.
child() {
	cat > child.sh <<-EOS
	. "$ASSAY_SRC/tests/cli/lib.sh"
	test_case "passes" "true"
	$1
	test_done
	EOS
}

test_case 'a skipped test case is counted as skipped, and ctest is told so' '
	child "test_case \"needs a tool\" \"skip \\\"no such tool\\\"; echo never\""
	code=0; env -u CI bash child.sh > out 2>&1 || code=$?
	cat out
	[ "$code" = 0 ]
	grep -q "^skip - needs a tool: no such tool$" out
	grep -q "^1 passed, 0 failed, 1 skipped$" out
	grep -q "^skipped: 1 test case(s) no such tool$" out
	! grep -q "^ok - needs a tool" out'

test_case 'under CI=true a skipped dependency fails the script' '
	child "test_case \"needs a tool\" \"require_cmd assay-no-such-command-$$\""
	code=0; CI=true bash child.sh > out 2>&1 || code=$?
	cat out
	[ "$code" != 0 ]
	grep -q "^FAILED - needs a tool: skipped under CI: assay-no-such-command-$$ is not installed" out
	grep -q "^1 passed, 1 failed$" out'

test_case 'skip_optional skips under CI too' '
	child "test_case \"needs root\" \"skip_optional \\\"needs root\\\"\""
	code=0; CI=true bash child.sh > out 2>&1 || code=$?
	cat out
	[ "$code" = 0 ]
	grep -q "^skip - needs root: needs root$" out'

test_case 'a skip before any test case skips the whole script (a failure under CI)' '
	printf ". \"%s/tests/cli/lib.sh\"\nskip \"no python\"\ntest_case never false\ntest_done\n" "$ASSAY_SRC" > whole.sh
	code=0; env -u CI bash whole.sh > out 2>&1 || code=$?
	cat out
	[ "$code" = 0 ] && grep -q "^skipped: no python$" out && ! grep -q never out
	code=0; CI=true bash whole.sh > out 2>&1 || code=$?
	[ "$code" = 1 ] && grep -q "^0 passed, 1 failed$" out'

test_case 'a failing command in a body fails the case; exit 77 without skip is a failure' '
	child "test_case \"exits 77\" \"exit 77\""
	code=0; env -u CI bash child.sh > out 2>&1 || code=$?
	cat out
	[ "$code" != 0 ]
	grep -q "^FAILED - exits 77$" out'

test_case 'a test case written after test_done fails the script (nothing would count it)' '
	printf ". \"%s/tests/cli/lib.sh\"\ntest_case passes true\ntest_done\ntest_case late false\n" "$ASSAY_SRC" > late.sh
	code=0; env -u CI bash late.sh > out 2>&1 || code=$?
	cat out
	[ "$code" != 0 ]
	grep -q "^FAILED - late: a test case after test_done$" out'

test_done
