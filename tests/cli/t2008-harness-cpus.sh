#!/usr/bin/env bash
# The CPUs of the harness (docs/cli.md, src/cli/cpus.c): with fewer cases at once than CPUs,
# assay and its case servers keep off the first -j CPUs it may run on, and every program still
# runs on all of them (its own CPUs are assay's, not its supervisor's). ASSAY_PIN=off, or -j at
# the CPU count, leaves everything on assay's CPUs.
. "$(dirname "$0")/lib.sh"

# count LIST: the CPUs of a Cpus_allowed_list ("0-3,5" is 5)
count() { echo "$1" | tr ',' '\n' | awk -F- '{ n += (NF == 2 ? $2 - $1 + 1 : 1) } END { print n }'; }
mine=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)

mk_suite() { # cases that print their own CPUs and write their parent's (their supervisor's)
	rm -rf s res seen
	mkdir -p s/c/g seen
	chmod 777 seen
	printf 'name: cpus\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > s/suite.yaml
	for i in 1 2 3; do
		printf "arguments: [\"awk '/^Cpus_allowed_list/ { print \$2 }' /proc/self/status; awk '/^Cpus_allowed_list/ { print \$2 }' /proc/\$PPID/status > $PWD/seen/parent-$i || true\"]\nexpected: {output: \"x\"}\n" > s/c/g/e$i.yaml
	done
}
program_cpus() { jq -r '.results.output.actual' res/reports.jsonl | sort -u | tr -d '\n'; }

if [ "$(count "$mine")" -lt 2 ]; then
	skip_optional "assay may run on one CPU only: there is none to spare"
fi

test_case 'at -j1 a program runs on every CPU of assay'"'"'s, its supervisor on all but the first' '
	mk_suite
	run_assay run s -o res -j1 --sandbox off; expect_exit 1
	[ "$(program_cpus)" = "$mine" ] || { echo "program: $(program_cpus), assay: $mine"; false; }
	for f in seen/parent-*; do
		p=$(cat "$f")
		[ "$(count "$p")" = $(( $(count "$mine") - 1 )) ] || { echo "supervisor: $p, assay: $mine"; false; }
	done'

test_case 'with the sandbox on too, a program runs on every CPU of assay'"'"'s' '
	mk_suite
	run_assay run s -o res -j1 --sandbox on; expect_exit 1
	[ "$(program_cpus)" = "$mine" ] || { echo "program: $(program_cpus), assay: $mine"; false; }'

test_case 'ASSAY_PIN=off, and -j at the CPU count, leave the supervisor on assay'"'"'s CPUs' '
	mk_suite
	ASSAY_PIN=off run_assay run s -o res -j1 --sandbox off; expect_exit 1
	[ "$(program_cpus)" = "$mine" ]
	for f in seen/parent-*; do [ "$(cat "$f")" = "$mine" ]; done
	mk_suite
	run_assay run s -o res -j "$(count "$mine")" --sandbox off; expect_exit 1
	for f in seen/parent-*; do [ "$(cat "$f")" = "$mine" ]; done'

test_case 'at -j as high as the CPUs and above, a program runs on every CPU of assay'"'"'s (not the one its case waited on)' '
	mk_suite
	for i in 4 5 6 7 8 9; do cp s/c/g/e1.yaml s/c/g/e$i.yaml; done
	for j in "$(count "$mine")" $(( $(count "$mine") + 1 )); do
		for sb in on off; do
			for pin in on off; do
				rm -rf res
				ASSAY_PIN=$pin run_assay run s -o res -j "$j" --sandbox $sb; expect_exit 1
				[ "$(program_cpus)" = "$mine" ] ||
					{ echo "-j$j sandbox $sb pin $pin: program: $(program_cpus), assay: $mine"; false; }
			done
		done
	done'

test_case 'under taskset a program keeps assay'"'"'s CPUs, not the machine'"'"'s' '
	require_cmd taskset
	first=${mine%%[,-]*}
	mk_suite
	code=0; taskset -c "$first" "$ASSAY" run s -o res -j1 --sandbox off >out 2>err || code=$?
	expect_exit 1
	[ "$(program_cpus)" = "$first" ] || { echo "program: $(program_cpus)"; false; }'

test_done
