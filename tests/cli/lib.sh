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
# Runs make their roots (assay-XXXXXX) here, not in the shared $TMPDIR: a root a killed run left
# is this script's, removed with it, and another script's run never sweeps it (and says so).
export TMPDIR="$TMP"

n_passed=0
n_failed=0
n_skipped=0
skip_reasons=""

# skip REASON: ends the test case (or, outside one, the whole script) as skipped: counted,
# shown as "skip - TITLE: REASON", and reported to ctest as a skip (never as a pass). For a
# missing dependency that scripts/install-deps.sh --tests installs: under CI=true (CI installs
# them all) a skip is a failure, so a broken install can never pass for a green run.
# skip_optional REASON: the same for a condition no install can change (no root, no HOME);
# it skips under CI too.
skip() {
	printf '%s\n' "$1" >"$TMP/.skip"
	[ -n "${ASSAY_IN_TEST_CASE:-}" ] || skip_script
	exit 77
}
skip_optional() {
	printf 'optional: %s\n' "$1" >"$TMP/.skip"
	[ -n "${ASSAY_IN_TEST_CASE:-}" ] || skip_script
	exit 77
}
# (a skip before any test case: the whole script is skipped)
skip_script() {
	local reason
	reason=$(cat "$TMP/.skip")
	if [ "${CI:-}" = true ] && [ "${reason#optional: }" = "$reason" ]; then
		echo "FAILED - skipped under CI: $reason (scripts/install-deps.sh --tests installs it)"
		echo "0 passed, 1 failed"
		exit 1
	fi
	echo "skipped: ${reason#optional: }"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
}

# require_cmd CMD...: skips the test case (or the script) unless every CMD is on PATH.
require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}

# test_case TITLE BODY: runs BODY (a string of shell commands) in a subshell with `set -e`, so
# that any failing command fails the test. (The subshell must be a statement of its own: in an
# `if` condition or before `||`, bash ignores `set -e` inside it and only the last command
# would count.)
test_case() {
	local title=$1 body=$2 status reason
	if [ -n "${tests_done:-}" ]; then # after test_done, nothing would count it
		echo "FAILED - $title: a test case after test_done"
		exit 1
	fi
	rm -f "$TMP/.skip"
	(set -e; ASSAY_IN_TEST_CASE=1; eval "$body") >"$TMP/.out" 2>&1
	status=$?
	if [ "$status" -eq 0 ]; then
		n_passed=$((n_passed + 1))
		echo "ok - $title"
	elif [ "$status" -eq 77 ] && [ -f "$TMP/.skip" ]; then
		reason=$(cat "$TMP/.skip")
		if [ "${CI:-}" = true ] && [ "${reason#optional: }" = "$reason" ]; then
			n_failed=$((n_failed + 1))
			echo "FAILED - $title: skipped under CI: $reason (scripts/install-deps.sh --tests installs it)"
		else
			n_skipped=$((n_skipped + 1))
			skip_reasons="$skip_reasons; ${reason#optional: }"
			echo "skip - $title: ${reason#optional: }"
		fi
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

# Prints "N passed, N failed[, N skipped]"; exits non-zero on any failure. A script that skipped
# a test case and failed none says "skipped:" so that ctest reports it as skipped, not passed.
test_done() {
	tests_done=1
	if [ "$n_skipped" -gt 0 ]; then
		echo "$n_passed passed, $n_failed failed, $n_skipped skipped"
		[ "$n_failed" -eq 0 ] && echo "skipped: $n_skipped test case(s)${skip_reasons#;}"
	else
		echo "$n_passed passed, $n_failed failed"
	fi
	[ "$n_failed" -eq 0 ]
}
