# Shared setup of the CLI behaviour tests (git's t/test-lib.sh, jq's tests/setup, much smaller).
# A test script sources this, calls `test_case 'title' 'commands'` for each check, and ends with
# `test_done`, which prints "N passed, N failed" and exits non-zero on any failure.
# Environment (set by ctest): ASSAY (the binary), ASSAY_TEST_TOOL, ASSAY_SRC (the source tree).
set -u
export LC_ALL=C TZ=UTC
unset NO_COLOR

: "${ASSAY:?ASSAY must name the assay binary}"
: "${ASSAY_SRC:?ASSAY_SRC must name the source tree}"
FIXTURES="$ASSAY_SRC/tests/fixtures"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/assay-cli-test.XXXXXX")
# Run as root, assay runs sandboxed cases as nobody (docs/security.md): they must be able to
# reach the tools and folders a test makes here.
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

n_passed=0
n_failed=0

# test_case TITLE BODY: runs BODY (a string of shell commands) in a subshell with `set -e`, so
# that any failing command fails the test. (The subshell must be a statement of its own: in an
# `if` condition or before `||`, bash ignores `set -e` inside it and only the last command
# would count.)
test_case() {
	local title=$1 body=$2 status
	(set -e; eval "$body") >"$TMP/.out" 2>&1
	status=$?
	if [ "$status" -eq 0 ]; then
		n_passed=$((n_passed + 1))
		echo "ok - $title"
	else
		n_failed=$((n_failed + 1))
		echo "FAILED - $title"
		sed 's/^/    /' "$TMP/.out"
	fi
}

# run_assay ARGS...: runs assay, keeping stdout in out, stderr in err and the exit code in $code.
# A sanitizer report on stderr is a failure whatever the exit code was.
run_assay() {
	code=0
	"$ASSAY" "$@" >out 2>err || code=$?
	if grep -E -q "(Address|Leak|UndefinedBehavior)Sanitizer|runtime error:" err; then
		code="sanitizer-report"
	fi
}

# expect_exit N: the last run_assay exited with N.
expect_exit() {
	if [ "$code" != "$1" ]; then
		echo "expected exit $1, got $code"
		echo "--- stdout"; cat out
		echo "--- stderr"; cat err
		return 1
	fi
}

# test_cmp EXPECTED ACTUAL: files are equal (shows a diff otherwise).
test_cmp() {
	diff -u "$1" "$2"
}

# expect_grep PATTERN FILE: FILE has a line matching the extended regex PATTERN.
expect_grep() {
	if ! grep -E -q -- "$1" "$2"; then
		echo "no line matching '$1' in $2:"
		cat "$2"
		return 1
	fi
}

test_done() {
	echo "$n_passed passed, $n_failed failed"
	[ "$n_failed" -eq 0 ]
}
