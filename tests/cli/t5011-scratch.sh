#!/usr/bin/env bash
# Issue 18 item 9 / issue 19 item 2: the run's working folders live on a tmpfs of its own
# (docs/security.md "Working folders"), bounded in bytes and inodes, never seen by the host;
# plain folders on disk with --work-dir, --keep or ASSAY_SCRATCH=off.
. "$(dirname "$0")/lib.sh"

# pgrep sees every process of the machine, and another run of this test (another build's
# ctest) runs the same programs: each program's sleep ends in this script's pid, and a pattern
# matches it to its end, so only this run's programs match (t1104 says more).
M=$$

mk_suite() { # CASE-SHELL-COMMAND [MORE-CASE-SHELL-COMMANDS...]
	rm -rf s
	mkdir -p s/c/g
	printf 'name: w\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > s/suite.yaml
	local i=0 c
	for c in "$@"; do
		i=$((i + 1))
		printf 'arguments: ["%s"]\nexpected: {status_code: 0}\n' "$c" > "s/c/g/c$i.yaml"
	done
}

# the file system type of each case's working folder, in case order
fs_types() { jq -r '.results.output.actual' "$1/reports.jsonl" | tr -d '\n'; }

test_case 'the working folders are a tmpfs by default, plain folders otherwise' '
	mk_suite "stat -f -c %T ."
	run_assay run s -o r1; expect_exit 0
	[ "$(fs_types r1)" = tmpfs ]
	mkdir wd
	run_assay run s -o r2 --work-dir wd; expect_exit 0
	[ "$(fs_types r2)" != tmpfs ]
	run_assay run s -o r3 --keep --scratch-size 1M; expect_exit 0
	[ "$(fs_types r3)" != tmpfs ]
	expect_grep "scratch-size and --scratch-inodes do nothing with --keep" err
	ASSAY_SCRATCH=off run_assay run s -o r4; expect_exit 0
	[ "$(fs_types r4)" != tmpfs ]
	run_assay run-case s --case c/g/c1; expect_exit 0'

test_case 'the host never sees the tmpfs, and the run leaves no folder' '
	mkdir -m 755 t2 && export TMPDIR=$TMP/t2
	mk_suite "sleep 4.321$M; true"
	"$ASSAY" run s -o r >/dev/null 2>&1 &
	bg=$!
	for i in $(seq 200); do
		pgrep -f "sleep 4[.]321$M;" >/dev/null && break
		sleep 0.05
	done
	pgrep -f "sleep 4[.]321$M;" >/dev/null
	root=$(find "$TMPDIR" -maxdepth 1 -name "assay-??????")
	[ -n "$root" ] && [ -f "$root/.owner" ]
	! grep -q "assay-scratch" /proc/self/mountinfo || false
	! grep -qF " $root " /proc/self/mountinfo || false
	grep -q "assay-scratch" "/proc/$bg/mountinfo"
	wait $bg
	[ -z "$(find "$TMPDIR" -maxdepth 1 -name "assay-??????")" ]'

test_case 'a case past the inode bound gets ENOSPC, and the next case runs' '
	mk_suite "i=0; while [ \$i -lt 300 ]; do mkdir d\$i || exit 9; i=\$((i+1)); done" "true"
	run_assay run s -o r --scratch-inodes 200; expect_exit 1
	[ "$(jq -r .case.passed r/reports.jsonl | tr -d "\n")" = falsetrue ]
	grep -q "No space left on device" r/reports.jsonl
	run_assay run s -o r2 --scratch-inodes 5000; expect_exit 0'

test_case 'a case past the byte bound gets ENOSPC' '
	mk_suite "head -c 3000000 /dev/zero > big || exit 9" "true"
	run_assay run s -o r --scratch-size 1M; expect_exit 1
	[ "$(jq -r .case.passed r/reports.jsonl | tr -d "\n")" = falsetrue ]
	run_assay run s -o r2 --scratch-size 64M; expect_exit 0'

# (found by a new user's trial: the next case's folder was made before the filler's was removed,
# and every later case failed with "cannot prepare the working folder")
test_case 'a case that fills the tmpfs fails alone: the next cases get its room back' '
	rm -rf f && mkdir -p f/sol f/c/g
	head -c 600000 /dev/zero > f/sol/data
	printf "name: f\nadapter: {type: cli, command: [sh, -c], submission: sol}\ncheckpoints: {c: {groups: {g: {}}}}\n" > f/suite.yaml
	printf "arguments: [\"cat data data data > more\"]\nexpected: {status_code: 0}\n" > f/c/g/a.yaml
	# each writes too: it starts (armed ahead) only once the room of the filler is back
	for c in b c d; do
		printf "arguments: [\"head -c 100000 /dev/zero > out && wc -c < data\"]\nexpected: {status_code: 0}\n" > f/c/g/$c.yaml
	done
	run_assay run f -o r -j 1 --scratch-size 1500K; expect_exit 1
	[ "$(jq -r ".case.passed" r/reports.jsonl | tr "\n" " ")" = "false true true true " ] ||
		{ jq -c "{id: .id, e: .case.error}" r/reports.jsonl; false; }'

# (found by CI: the case armed while the filler ran was prepared then, and failed with "cannot
# prepare the working folder", as did every case armed after it)
test_case 'a case that cannot be armed for want of room starts when the room is back' '
	rm -rf f && mkdir -p f/sol f/c/g/a1/files f/c/g/a2/files f/c/g/a3/files
	echo small > f/sol/small
	printf "name: f\nadapter: {type: cli, command: [sh, -c], submission: sol}\ncheckpoints: {c: {groups: {g: {}}}}\n" > f/suite.yaml
	# a1 and a3 hold most of the room in their folders (files/) while they run: a2 (files/)
	# and a4 (an input file) cannot be armed then, and run once the room is back
	head -c 1400000 /dev/zero > f/c/g/a1/files/big
	cp f/c/g/a1/files/big f/c/g/a3/files/big
	head -c 300000 /dev/zero > f/c/g/a2/files/mid
	for c in a1 a3; do
		printf "arguments: [\"wc -c < big\"]\nexpected: {output: \"1400000\\\\n\"}\n" > f/c/g/$c/case.yaml
	done
	printf "arguments: [\"wc -c < mid\"]\nexpected: {output: \"300000\\\\n\"}\n" > f/c/g/a2/case.yaml
	printf "arguments: [\"wc -c < in\"]\ninput_files: [{path: in, content: \"%s\"}]\nexpected: {output: \"300000\\\\n\"}\n" \
		"$(head -c 300000 /dev/zero | tr "\\0" x)" > f/c/g/a4.yaml
	run_assay run f -o r -j 1 --scratch-size 1500K; expect_exit 0
	[ "$(jq -r ".case.passed" r/reports.jsonl | tr "\n" " ")" = "true true true true " ] ||
		{ jq -c "{id: .id, e: .case.error}" r/reports.jsonl; false; }'

# (found by an attack review: at -j2, the cases started beside a case that filled the tmpfs's
# inodes failed with "cannot prepare the working folder", or the run stopped with exit 4 and
# "cannot create temporary folder", the cases after it never run)
test_case "a case started beside one that fills the tmpfs waits for its room, at -j2 and -j3" '
	for left in 0 1; do # leaving no inode free, then one (the working folder fits, not the temporary one)
		rm -rf f && mkdir -p f/c/g
		printf "name: f\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > f/suite.yaml
		printf "arguments: [\"i=0; while mkdir d\$i 2>/dev/null; do i=\$((i+1)); done; [ $left = 0 ] || rmdir d0; sleep 1; true\"]\nexpected: {status_code: 0}\n" > f/c/g/a1.yaml
		# a2 ends once a1 has filled the inodes: the cases after it start beside a1
		printf "arguments: [\"while [ \$(stat -f -c %%d .) -gt 2 ]; do sleep 0.02; done\"]\nexpected: {status_code: 0}\n" > f/c/g/a2.yaml
		for c in a3 a4 a5 a6 a7; do
			printf "arguments: [\"true\"]\nexpected: {status_code: 0}\n" > f/c/g/$c.yaml
		done
		for j in 2 3; do
			run_assay run f -o r$left$j -j $j --scratch-inodes 300; expect_exit 0
			[ "$(jq -r ".case.passed" r$left$j/reports.jsonl | tr "\n" " ")" = "true true true true true true true " ] ||
				{ cat err; jq -c "{id: .id, e: .case.error}" r$left$j/reports.jsonl; false; }
		done
	done'

# (the new-user trial of issue 19: a case's folders made by its case server, and one that did not
# fit beside cases filling the tmpfs failed "cannot make its temporary folder" about twice a run
# at -j4: such a case now starts again once a case ends, as one assay could not prepare does)
test_case "cases beside ones that fill the tmpfs never fail for their own folders, at -j2 and -j4" '
	rm -rf f && mkdir -p f/sol f/c/fill f/c/quick
	cat > f/sol/p.sh <<"EOF"
if [ "$1" = fill ]; then mkdir "$TMPDIR/f" && i=0 && while : > "$TMPDIR/f/$i" 2>/dev/null; do i=$((i+1)); done; echo filled; else exit 2; fi
EOF
	printf "name: f\nadapter: {type: cli, command: [sh, p.sh], submission: sol}\ncheckpoints: {c: {groups: {fill: {}, quick: {}}}}\n" > f/suite.yaml
	for i in 01 02 03 04 05 06 07 08 09 10; do printf "arguments: [fill]\nexpected: {status_code: 0}\n" > f/c/fill/f$i.yaml; done
	for i in $(seq -w 1 20); do printf "arguments: [x]\nexpected: {status_code: 2}\n" > f/c/quick/q$i.yaml; done
	n=0
	for j in 4 2 4; do
		n=$((n + 1))
		run_assay run f -o r$n -j $j --scratch-inodes 300
		[ "$(wc -l < r$n/reports.jsonl)" = 30 ]
		! jq -r ".case.error // empty" r$n/reports.jsonl | grep -E "cannot make its temporary folder|cannot prepare the working folder" || false
		[ "$(jq -r "select(.id | startswith(\"q\")) | .case.passed" r$n/reports.jsonl | sort -u)" = true ]
	done'

# (the attack review of issue 19: the first case of an isolated: false group started beside a case
# filling the tmpfs got "cannot make its temporary folder" as its verdict when its server found
# no room, as its lane had begun and is not started again. Assay makes that case's temporary
# folder, as before: one that does not fit undoes the lane until a case ends)
test_case "the first case of an isolated: false group beside ones that fill the tmpfs never fails for its folder" '
	rm -rf f && mkdir -p f/sol
	cat > f/sol/p.sh <<"EOF"
if [ "$1" = fill ]; then k=0; while [ $k -lt 20 ]; do mkdir "$TMPDIR/f"; i=0; while echo > "$TMPDIR/f/$i" 2>/dev/null; do i=$((i+1)); done; sleep 0.01; rm -rf "$TMPDIR/f"; k=$((k+1)); done; echo filled; else exit 2; fi
EOF
	gs=
	for i in $(seq -w 1 30); do
		mkdir -p f/c/g$i
		gs="$gs g$i: {isolated: false},"
		if [ $((10#$i % 4)) = 1 ]; then printf "arguments: [fill]\nexpected: {status_code: 0}\n"; else printf "arguments: [x]\nexpected: {status_code: 2}\n"; fi > f/c/g$i/c.yaml
	done
	printf "name: f\nadapter: {type: cli, command: [sh, p.sh], submission: sol}\ncheckpoints: {c: {groups: {%s}}}\n" "$gs" > f/suite.yaml
	for n in 1 2 3 4; do
		run_assay run f -o l$n -j 4 --scratch-inodes 300
		[ "$(wc -l < l$n/reports.jsonl)" = 30 ]
		! jq -r ".case.error // empty" l$n/reports.jsonl | grep -E "cannot make its temporary folder|cannot prepare the working folder" || false
	done'

# (the same review: there the next group's folder did not fit, and the run stopped with exit 4
# and no report, not even of the cases that had ended)
test_case "a group set up beside a case that fills the tmpfs waits for its room" '
	rm -rf f && mkdir -p f/c/g1 f/c/g2
	printf "name: f\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g1: {}, g2: {}}}}\n" > f/suite.yaml
	cat > f/c/g1/a1.yaml <<"EOF"
arguments: ["i=0; while mkdir d$i 2>/dev/null; do i=$((i+1)); done; sleep 1"]
expected: {status_code: 0}
EOF
	cat > f/c/g1/a2.yaml <<"EOF"
arguments: ["while [ $(stat -f -c %d .) -gt 2 ]; do sleep 0.02; done"]
expected: {status_code: 0}
EOF
	printf "arguments: [true]\nexpected: {status_code: 0}\n" > f/c/g2/b1.yaml
	printf "arguments: [true]\nexpected: {status_code: 0}\n" > f/c/g2/b2.yaml
	run_assay run f -o r -j 2 --scratch-inodes 300; expect_exit 0
	[ "$(jq -r ".case.passed" r/reports.jsonl | tr "\n" " ")" = "true true true true " ] ||
		{ cat err; jq -c "{id: .id, e: .case.error}" r/reports.jsonl; false; }'

# (found by an attack review: with --keep the filler's folder never gives its room back, and the
# temporary folder or the group folder that could not be made then stopped the run, exit 4,
# with the cases after it never run)
test_case 'with --keep, a case that fills the working folders fails the cases after it, not the run' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root to mount a tmpfs"
	mkdir -m 755 small
	mount -t tmpfs -o size=4M,nr_inodes=64,mode=755 tmpfs small ||
		skip_optional "cannot mount a tmpfs here"
	rm -rf f && mkdir -p f/c/g f/c/h
	printf "name: f\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}, h: {}}}}\n" > f/suite.yaml
	printf "arguments: [\"i=0; while mkdir d\$i 2>/dev/null; do i=\$((i+1)); done\"]\nexpected: {status_code: 0}\n" > f/c/g/a1.yaml
	for c in g/a2 g/a3 h/b1; do printf "arguments: [true]\nexpected: {status_code: 0}\n" > f/c/$c.yaml; done
	run_assay run f -o r -j 1 --keep --work-dir "$PWD/small"
	umount small
	expect_exit 1
	[ "$(jq -r .id r/reports.jsonl | tr "\n" " ")" = "a1 a2 a3 b1 " ]
	[ "$(jq -r "select(.id == \"a1\") | .case.passed" r/reports.jsonl)" = true ]
	for c in a3 b1; do
		jq -r "select(.id == \"$c\") | .case.error" r/reports.jsonl | grep -q "No space left on device" ||
			{ jq -c "{id: .id, e: .case.error}" r/reports.jsonl; false; }
	done
	# a full disk is no planted link
	! grep -q "link planted" r/reports.jsonl || false'

# (the new-user trial: at -j2 a case whose input file did not fit beside a running case that
# held most of the room in its files/ failed with "cannot write its input file", before
# 5cd0704; the tests above fill the inodes, this one the bytes, with input files)
test_case 'at -jN a case whose input files do not fit beside a running case waits for its room' '
	rm -rf f && mkdir -p f/sol f/c/g/a1/files
	echo small > f/sol/small
	printf "name: f\nadapter: {type: cli, command: [sh, -c], submission: sol}\ncheckpoints: {c: {groups: {g: {}}}}\n" > f/suite.yaml
	head -c 1400000 /dev/zero > f/c/g/a1/files/big
	printf "arguments: [\"sleep 0.5; wc -c < big\"]\nexpected: {output: \"1400000\\\\n\"}\n" > f/c/g/a1/case.yaml
	for c in a2 a3; do
		printf "arguments: [\"wc -c < in\"]\ninput_files: [{path: in, content: \"%s\"}]\nexpected: {output: \"300000\\\\n\"}\n" \
			"$(head -c 300000 /dev/zero | tr "\\0" x)" > f/c/g/$c.yaml
	done
	for j in 2 3; do
		run_assay run f -o r$j -j $j --scratch-size 1500K; expect_exit 0
		[ "$(jq -r ".case.passed" r$j/reports.jsonl | tr "\n" " ")" = "true true true " ] ||
			{ jq -c "{id: .id, e: .case.error}" r$j/reports.jsonl; false; }
	done
	# one that does not fit even alone fails (once nothing else runs), and the run ends
	printf "arguments: [\"true\"]\ninput_files: [{path: in, content: \"%s\"}]\nexpected: {status_code: 0}\n" \
		"$(head -c 1600000 /dev/zero | tr "\\0" x)" > f/c/g/a4.yaml
	run_assay run f -o r4 -j 2 --scratch-size 1500K; expect_exit 1
	[ "$(jq -r ".case.passed" r4/reports.jsonl | tr "\n" " ")" = "true true true false " ]
	jq -r "select(.id == \"a4\") | .case.error" r4/reports.jsonl | grep -q "cannot prepare its input files"
	# ... and says where the room went, which a user with an empty disk could not tell
	jq -r "select(.id == \"a4\") | .case.error" r4/reports.jsonl |
		grep -q "the run.s working folders are a tmpfs of 1536000 bytes and 1000000 files: --scratch-size, --scratch-inodes"'

# (the new-user trial: an isolated: false group whose shared folder did not fit beside a running
# case failed at -j2 and passed at -j1; its first case now waits as any other case does)
test_case 'at -jN a shared-folder group that does not fit beside a running case waits for its room' '
	rm -rf f && mkdir -p f/c/g/a1/files f/c/s/b1/files
	printf "name: f\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}, s: {isolated: false}}}}\n" > f/suite.yaml
	head -c 1400000 /dev/zero > f/c/g/a1/files/big
	printf "arguments: [\"sleep 0.5; wc -c < big\"]\nexpected: {output: \"1400000\\\\n\"}\n" > f/c/g/a1/case.yaml
	head -c 300000 /dev/zero > f/c/s/b1/files/mid
	# b2 reads what b1 left in the shared folder
	printf "arguments: [\"wc -c < mid > seen\"]\nexpected: {status_code: 0}\n" > f/c/s/b1/case.yaml
	printf "arguments: [\"cat seen\"]\nexpected: {output: \"300000\\\\n\"}\n" > f/c/s/b2.yaml
	for j in 2 3; do
		run_assay run f -o r$j -j $j --scratch-size 1500K; expect_exit 0
		[ "$(jq -r ".case.passed" r$j/reports.jsonl | tr "\n" " ")" = "true true true " ] ||
			{ jq -c "{id: .id, e: .case.error}" r$j/reports.jsonl; false; }
	done'

# (attack review: a lane whose first case cannot be loaded has run nothing when its next case
# does not fit beside a running case; that case failed at -j2 and passed at -j1)
test_case 'at -jN a shared-folder group whose first case cannot be loaded waits for its room too' '
	rm -rf f && mkdir -p f/c/g/a1/files f/c/s/b1/files
	printf "name: f\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}, s: {isolated: false}}}}\n" > f/suite.yaml
	head -c 1400000 /dev/zero > f/c/g/a1/files/big
	printf "arguments: [\"sleep 0.5; wc -c < big\"]\nexpected: {output: \"1400000\\\\n\"}\n" > f/c/g/a1/case.yaml
	printf "arguments: [oops\n" > f/c/s/b0.yaml
	head -c 300000 /dev/zero > f/c/s/b1/files/mid
	printf "arguments: [\"wc -c < mid > seen\"]\nexpected: {status_code: 0}\n" > f/c/s/b1/case.yaml
	printf "arguments: [\"cat seen\"]\nexpected: {output: \"300000\\\\n\"}\n" > f/c/s/b2.yaml
	for j in 2 3; do
		run_assay run f -o r$j -j $j --scratch-size 1500K; expect_exit 1
		[ "$(jq -r ".case.passed" r$j/reports.jsonl | tr "\n" " ")" = "true false true true " ] ||
			{ jq -c "{id: .id, e: .case.error}" r$j/reports.jsonl; false; }
	done'

test_case 'a run killed mid-case leaves its folder, which the next run removes' '
	mkdir -m 755 t5 && export TMPDIR=$TMP/t5
	mk_suite "sleep 5.432$M; true"
	"$ASSAY" run s -o r >/dev/null 2>&1 &
	bg=$!
	for i in $(seq 200); do
		pgrep -f "sleep 5[.]432$M;" >/dev/null && break
		sleep 0.05
	done
	pgrep -f "sleep 5[.]432$M;" >/dev/null
	root=$(find "$TMPDIR" -maxdepth 1 -name "assay-??????")
	kill -9 $bg; wait $bg || true
	[ -d "$root" ]
	mk_suite true
	run_assay run s -o r2; expect_exit 0
	[ ! -e "$root" ]
	grep -qF "assay: removed $root" err || { cat err; false; }'

test_case 'without root: a tmpfs with the sandbox on, a plain folder with it off' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root to become another user"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	mk_suite "stat -f -c %T ."
	mkdir -m 1777 nb
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/ TMPDIR="$TMP/nb" "$@"; }
	as_nobody "$ASSAY" run s -o nb/r1 >out 2>err || { cat err; false; }
	[ "$(fs_types nb/r1)" = tmpfs ]
	as_nobody "$ASSAY" run s -o nb/r2 --sandbox off >out 2>err || { cat err; false; }
	[ "$(fs_types nb/r2)" != tmpfs ]
	[ -z "$(find nb -maxdepth 1 -name "assay-??????")" ]'

test_done
