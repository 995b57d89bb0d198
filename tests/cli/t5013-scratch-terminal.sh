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

# (found in a closing note: a case whose input file did not fit showed a "no value" line per
# attribute and a reproduce line, one whose files/ did not fit only its error; a case that
# could not be loaded shows only its error too)
test_case 'a case that never ran shows its error alone, however its setting up failed' '
	rm -rf g && mkdir -p g/c/g/b/files
	printf "name: g\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > g/suite.yaml
	printf "arguments: [\"true\"]\ninput_files: [{path: in, content: \"%s\"}]\nexpected: {status_code: 0, output: \"\"}\n" \
		"$(head -c 1600000 /dev/zero | tr "\\0" x)" > g/c/g/a.yaml
	head -c 1600000 /dev/zero > g/c/g/b/files/big
	printf "arguments: [\"true\"]\nexpected: {status_code: 0, output: \"\"}\n" > g/c/g/b/case.yaml
	printf "arguments: [oops\n" > g/c/g/c.yaml
	run_assay run g -o r -j 1 --scratch-size 1500K; expect_exit 1
	# each: its FAIL line, then its error line, and nothing else
	sed -n "/^Failures/,/^\$/p" out | sed "1d;\$d" > listing
	[ "$(grep -c . listing)" = 6 ] || { cat out; false; }
	[ "$(sed -n "2p;4p;6p" listing | cut -c1-11 | sort -u)" = "    error: " ] || { cat out; false; }
	expect_grep "^    error: cannot prepare its input files: in: cannot write: No space left on device" listing
	expect_grep "^    error: cannot prepare the working folder: big: cannot write: No space left on device" listing
	if grep -q "no value\|reproduce" out; then cat out; false; fi
	# the reports say it in the terminal'"'"'s words, with no line to run again either
	"$ASSAY" report r --format markdown:r.md
	[ "$(grep -c "assay run-case" r.md)" = 0 ] || { cat r.md; false; }
	[ "$(grep -c "^status_code: no value" r.md)" = 0 ] || { cat r.md; false; }
	# a program that could not be executed was started: its lines and reproduce line stay
	rm -rf h && mkdir -p h/c/g
	printf "name: h\nadapter: {type: cli, command: [./no-such-program]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > h/suite.yaml
	printf "expected: {status_code: 0}\n" > h/c/g/a.yaml
	run_assay run h -o r2; expect_exit 1
	expect_grep "^    error: cannot run .\./no-such-program.: No such file or directory" out
	expect_grep "^    status_code: expected 0, got 127" out
	expect_grep "^    reproduce: .*\./no-such-program < /dev/null" out'

test_done
