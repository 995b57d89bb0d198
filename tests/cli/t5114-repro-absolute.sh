#!/usr/bin/env bash
# The reports' reproduce line (review finding): `assay run-case /abs/suite --case CP/G/ID
# --submission sub` kept --submission as typed, so the line pasted in another folder failed
# ("--submission sub: no such folder"). The run now records the submission folder absolute, as
# the suite's: JUnit, TAP, Markdown and HTML show it so, and the line runs from elsewhere.
# --entry stays as typed (its relative program is the case's working folder's).
. "$(dirname "$0")/lib.sh"

setup() {
	cd "$(mktemp -d -p "$TMP")"
	mkdir -p s/c/g here/sub elsewhere
	printf "name: r\nadapter: {type: cli, command: [false]}\ncheckpoints: {c: {groups: {g: {}}}}\n" \
		> s/suite.yaml
	printf "arguments: []\nexpected: {output: \"no\\\\n\"}\n" > s/c/g/y.yaml
	printf "#!/bin/sh\necho ok\n" > here/sub/p.sh
	chmod +x here/sub/p.sh
	cd here
	run_assay run ../s -o res -e ./p.sh -s sub \
		--format junit --format tap --format markdown --format html
	expect_exit 1
}

test_case 'every report repeats --submission absolute, --entry as typed' '
	setup
	line="assay run-case $(dirname "$PWD")/s --case c/g/y --entry ./p.sh --submission $PWD/sub"
	for f in junit.xml report.tap summary.md report.html; do
		grep -qF -- "$line" "res/$f" || { echo "not in $f: $line"; grep -o "assay run-case[^<\"]*" "res/$f"; exit 1; }
	done
	run_assay report res --format markdown; expect_exit 0
	grep -qF -- "$line" out'

test_case 'the line from the Markdown report runs the case from another folder' '
	setup
	line=$(grep -o "assay run-case .*--submission [^ ]*" res/summary.md | head -1)
	cd ../elsewhere
	run_assay ${line#assay }
	expect_exit 1
	expect_grep "\"id\": \"y\"" out
	expect_grep "\\+ok" out
	! grep -q "no such folder" err || false'

test_case '--resume with the submission typed again, relative, is the same program' '
	setup
	run_assay run ../s -o res -e ./p.sh -s ./sub --resume; expect_exit 1
	run_assay run ../s -o res -e ./p.sh -s ../here/sub --resume; expect_exit 1
	mkdir -p other; cp sub/p.sh other/
	run_assay run ../s -o res -e ./p.sh -s other --resume; expect_exit 2
	expect_grep "must run the same program" err'

test_done
