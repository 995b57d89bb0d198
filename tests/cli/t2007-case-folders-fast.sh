#!/usr/bin/env bash
# The main process's fast paths for a case's folders (issue 19 item 3): a working folder made
# empty for the case is handed to the sandbox's user without being read, and removed by its
# group folder's descriptor; a folder that is not empty (a submission, files/, input files) is
# still wholly handed over, and one a case left files in is still removed.
. "$(dirname "$0")/lib.sh"

mk_suite() { # SUBMISSION-LINE (a fresh suite)
	rm -rf s res
	mkdir -p s/c/g s/sub
	printf 'name: fast\nadapter: {type: cli, command: [sh, -c]%s}\ncheckpoints: {c: {groups: {g: {}}}}\n' "$1" > s/suite.yaml
	echo sub > s/sub/from-sub
}

if [ "$(id -u)" = 0 ]; then
test_case 'with root, what assay put in a working folder is the case'"'"'s to change, and an empty one is its own' '
	mk_suite ", submission: sub"
	# a submission file, an input file and a files/ file: each appended to by nobody
	mkdir -p s/c/g/b/files
	echo files > s/c/g/b/files/from-files
	printf "arguments: [\"echo more >> from-sub && echo ok\"]\nexpected: {output: \"ok\\\\n\"}\n" > s/c/g/a.yaml
	printf "arguments: [\"echo more >> from-files && echo more >> in.txt && echo ok\"]\ninput_files: [{path: in.txt, content: x}]\nexpected: {output: \"ok\\\\n\"}\n" > s/c/g/b/case.yaml
	run_assay run s -o res; expect_exit 0
	mk_suite ""
	printf "arguments: [\"echo x > made && mkdir d && echo y > d/f && echo z > \$TMPDIR/t && echo ok\"]\nexpected: {output: \"ok\\\\n\"}\n" > s/c/g/a.yaml
	printf "arguments: [\"echo more >> in.txt && echo ok\"]\ninput_files: [{path: in.txt, content: x}]\nexpected: {output: \"ok\\\\n\"}\n" > s/c/g/b.yaml
	# without --keep (on the run'"'"'s scratch tmpfs: no spare folders, so the working folder is
	# made empty, and given to nobody as it is made unless an input file went into it:
	# cli_run.c cwd_empty, proc.h assay_sandbox_give), then kept (on disk, from spares)
	run_assay run s -o res; expect_exit 0
	run_assay run s -o res --keep; expect_exit 0
	w=$(jq -r .work_dir res/summary.json)
	[ "$(stat -c %u:%g "$w/c/g/a" "$w/c/g/a/made" "$w/c/g/b/in.txt" | sort -u)" = 65534:65534 ]
	rm -rf "$w"'

test_case 'with root and umask 077, every case of every group reaches its folders (made passable once per group)' '
	mk_suite ""
	mkdir -p s/c/h
	printf "name: fast\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}, h: {}}}, d: {groups: {g: {}}}}\n" > s/suite.yaml
	mkdir -p s/d/g
	for g in c/g c/h d/g; do for i in 1 2 3; do
		printf "arguments: [\"echo x > made && echo y > \$TMPDIR/t && echo ok\"]\nexpected: {output: \"ok\\\\n\"}\n" > s/$g/e$i.yaml
	done; done
	(umask 077; run_assay run s -o res -j2; expect_exit 0)
	(umask 077; run_assay run s -o res -j1; expect_exit 0)'
fi

test_case 'a case'"'"'s folder that holds what it made is removed, an empty one too, and the group'"'"'s after them' '
	mk_suite ""
	printf "arguments: [\"mkdir -p d/e && echo y > d/e/f && ln -s / up && echo ok\"]\nexpected: {output: \"ok\\\\n\"}\n" > s/c/g/a.yaml
	printf "arguments: [\"echo ok\"]\nexpected: {output: \"ok\\\\n\"}\n" > s/c/g/b.yaml
	mkdir work
	run_assay run s -o res --work-dir "$PWD/work"; expect_exit 0
	[ -z "$(ls -A work)" ]
	[ -d /etc ] && [ -e /bin/sh ]'

test_done
