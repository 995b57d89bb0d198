#!/usr/bin/env bash
# Where Slurm cannot start (issue #22): the Slurm tests say "skipped:" with the reason (ctest
# counts them as skipped), except in CI (CI=true), which installs Slurm: there they fail, with
# the daemons' logs. Either way nothing the cluster started outlives the test. Shown with a
# munged that exits at once, and a slurmd that does (slurmctld then runs and must be stopped).
. "$(dirname "$0")/lib.sh"

# a test that only starts the cluster, in a folder of its own (TMPDIR) to look for leftovers in
cat >start.sh <<'SH'
. "$ASSAY_SRC/tests/slurm/lib.sh"
cluster_start
echo "cluster up"
SH

# attempt DAEMON [CI]: the cluster started with a DAEMON that fails at once; output in out,
# exit status in $code
attempt() {
	local ci=${2:-} dir="$PWD/tmp-$1${2:-}" fake="$PWD/fake-$1"
	mkdir -p "$fake" "$dir"
	printf '#!/bin/sh\necho "%s: refusing to start" >&2\nexit 1\n' "$1" >"fake-$1/$1"
	chmod 755 "fake-$1/$1"
	code=0
	if [ -n "$ci" ]; then set -- CI=true; else set -- -u CI; fi
	env "$@" TMPDIR="$dir" PATH="$fake:$PATH" timeout 100 bash start.sh >out 2>&1 ||
		code=$?
	cat out
}

# nothing_left DIR: no process runs with DIR in its command line, and DIR is empty
nothing_left() {
	sleep 0.5
	if pgrep -a -f "$1"; then return 1; fi
	[ -z "$(ls -A "$1")" ]
}

test_case 'munged cannot start: skipped, saying why; nothing left running' '
	attempt munged
	[ "$code" = 0 ]
	expect_grep "^skipped: munged did not start" out
	if grep -q "cluster up" out; then false; fi
	nothing_left "$PWD/tmp-munged"'

test_case 'slurmd cannot start: skipped, saying why; slurmctld and munged stopped' '
	attempt slurmd
	[ "$code" = 0 ]
	expect_grep "^skipped: the one-node Slurm cluster did not come up" out
	nothing_left "$PWD/tmp-slurmd"'

test_case 'in CI the same is a failure, with the daemons'"'"' logs' '
	attempt slurmd ci
	[ "$code" = 1 ]
	expect_grep "^FAILED - skipped under CI: the one-node Slurm cluster did not come up" out
	expect_grep "^--- .*/slurmd.out" out
	expect_grep "slurmd: refusing to start" out
	if grep -q "^skipped:" out; then false; fi
	nothing_left "$PWD/tmp-slurmdci"'

test_done
