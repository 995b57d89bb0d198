#!/usr/bin/env bash
# Issue 18 item 10: a run killed by SIGKILL cannot remove its root (assay-XXXXXX, with the
# cases' folders); the next run or --resume in the same place removes the roots whose owner is
# gone, and says so, never a live run's, never one kept with --keep.
. "$(dirname "$0")/lib.sh"

mk_suite() { # CASE-SHELL-COMMAND
	rm -rf s
	mkdir -p s/c/g
	printf 'name: w\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > s/suite.yaml
	printf 'arguments: ["%s"]\nexpected: {status_code: 0}\n' "$1" > s/c/g/a.yaml
}

roots() { find work -maxdepth 1 -name "assay-??????" | wc -l; }

# Starts a run whose case sleeps, in the background ($bg), and waits until its case runs.
start_sleeper() {
	mk_suite "touch started; sleep 60"
	"$ASSAY" run s -o "$1" --work-dir work $2 >/dev/null 2>&1 &
	bg=$!
	for i in $(seq 200); do
		[ -n "$(find work -name started)" ] && break
		sleep 0.05
	done
	[ -n "$(find work -name started)" ]
}

test_case 'a killed run leaves its root; the next run removes it, never a live one' '
	rm -rf work && mkdir work
	start_sleeper res ""
	live=$(find work -maxdepth 1 -name "assay-??????")
	[ -f "$live/.owner" ]
	mk_suite true
	run_assay run s -o res2 --work-dir work; expect_exit 0
	[ -d "$live" ]
	kill -9 $bg; wait $bg || true
	[ -d "$live" ]
	run_assay run s -o res2 --work-dir work; expect_exit 0
	[ ! -e "$live" ]
	grep -qF "assay: removed $live, the working folders of a run that was killed" err ||
		{ cat err; false; }
	[ "$(roots)" = 0 ]'

test_case '--resume removes them too' '
	rm -rf work && mkdir work
	start_sleeper res ""
	kill -9 $bg; wait $bg || true
	[ "$(roots)" = 1 ]
	mk_suite true
	run_assay run s -o res --resume --work-dir work; expect_exit 0
	[ "$(roots)" = 0 ]'

test_case 'a kept root stays, and so does a folder that is not a run root' '
	rm -rf work && mkdir work
	mk_suite true
	run_assay run s -o res --work-dir work --keep; expect_exit 0
	[ "$(roots)" = 1 ]
	# the cases kept, not the emptied folders waiting for reuse
	[ -z "$(find work -name .spare)" ] || { find work; false; }
	mkdir work/assay-notour
	run_assay run s -o res --work-dir work; expect_exit 0
	[ "$(roots)" = 2 ]
	rm -rf work'

test_case 'a dead owner whose pid lives again (another start time) is gone' '
	rm -rf work && mkdir work
	start_sleeper res ""
	kill -9 $bg; wait $bg || true
	root=$(find work -maxdepth 1 -name "assay-??????")
	echo "$$ 1" > "$root/.owner"
	mk_suite true
	run_assay run s -o res2 --work-dir work; expect_exit 0
	[ ! -e "$root" ]'

test_done
