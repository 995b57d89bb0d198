#!/usr/bin/env bash
# Test scripts run each test case's body with `set -e`, and bash's `set -e` ignores the status
# of a command negated with `!`: a line `! grep -q secret out` in the middle of a body never
# fails the test, whatever grep finds. So a negated line must end its body (the closing quote)
# or say `|| false` (whose `false` does fail it). This check lists every other one.
#
# Usage: check-negations.sh ROOT        (checks ROOT/tests/cli/*.sh and ROOT/tests/slurm/*.sh)
#        check-negations.sh --self-test (a planted dead negation must be found)
set -euo pipefail

check() {
	local root=$1 bad
	bad=$(grep -nE '^[[:space:]]*! ' "$root"/tests/cli/*.sh "$root"/tests/slurm/*.sh 2>/dev/null |
		grep -vE "'[[:space:]]*$|\|\|[[:space:]]*false[[:space:]]*$|\\\\[[:space:]]*$" || true)
	if [ -n "$bad" ]; then
		echo "$bad"
		echo "negations: $(wc -l <<<"$bad") line(s) negated with ! that set -e ignores: end them with '|| false'"
		return 1
	fi
}

if [ "${1:-}" = --self-test ]; then
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mkdir -p "$t/tests/cli"
	printf "test_case 'x' '\n\t! grep -q a out || false\n\t! grep -q b out\n\ttrue\n\t! grep -q c out'\n" > "$t/tests/cli/t1.sh"
	out=$(check "$t") && { echo "self-test: a dead negation passed"; exit 1; }
	grep -q "t1.sh:3:" <<<"$out" && [ "$(grep -c '^/' <<<"$out")" = 1 ] ||
		{ echo "self-test: wrong lines: $out"; exit 1; }
	echo "self-test passed"
	exit 0
fi
check "${1:?usage: check-negations.sh ROOT}"
