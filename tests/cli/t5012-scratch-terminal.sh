#!/usr/bin/env bash
# What the terminal shows of a case that waited for its room on the run's scratch tmpfs, or
# never ran for want of it (t5011 tests the verdicts; this, what a person reads).
. "$(dirname "$0")/lib.sh"

# (found in a closing note: the pool announced the case when it first tried it, undid it beside
# the case holding the room, and announced it again when it started: "[2/2] c/g/a2" twice, the
# first while only a1 ran)
test_case 'a case that waits for its room beside a running case is announced once, as it starts' '
	require_cmd script
	rm -rf f && mkdir -p f/sol f/c/g/a1/files
	echo small > f/sol/small
	printf "name: f\nadapter: {type: cli, command: [sh, -c], submission: sol}\ncheckpoints: {c: {groups: {g: {}}}}\n" > f/suite.yaml
	# a1 holds most of the room in its folder while it runs: a2 (an input file) cannot
	# start beside it, and starts once a1 has ended
	head -c 1400000 /dev/zero > f/c/g/a1/files/big
	printf "arguments: [\"sleep 0.5; wc -c < big\"]\nexpected: {output: \"1400000\\\\n\"}\n" > f/c/g/a1/case.yaml
	printf "arguments: [\"wc -c < in\"]\ninput_files: [{path: in, content: \"%s\"}]\nexpected: {output: \"300000\\\\n\"}\n" \
		"$(head -c 300000 /dev/zero | tr "\\0" x)" > f/c/g/a2.yaml
	script -qec "$ASSAY run f -o r -j 2 --scratch-size 1500K" typescript > out 2>&1 </dev/null
	[ "$(jq -r ".case.passed" r/reports.jsonl | tr "\n" " ")" = "true true " ]
	tr "\r" "\n" < out | grep -o "\[[0-9]*/2\] c/g/a[12]" > starts || true
	[ "$(tr "\n" " " < starts)" = "[1/2] c/g/a1 [2/2] c/g/a2 " ] || { cat -v out; false; }'

test_done
