#!/usr/bin/env bash
# assay skill package (issue 20 item 7): the .skill archive skill-creator's package_skill.py
# writes (a deflated ZIP of the folder, entries named <folder>/<path>), read back by Python's
# zipfile and by unzip; only after a lint that passes; never a link followed.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 0; }

make_skill() {
	rm -rf brand-guidelines
	cp -r "$SKILL_FIXTURES/published/brand-guidelines" brand-guidelines
	mkdir -p brand-guidelines/scripts brand-guidelines/references brand-guidelines/.git
	printf '#!/bin/sh\necho hi\n' > brand-guidelines/scripts/run.sh
	chmod 755 brand-guidelines/scripts/run.sh
	head -c 200000 /dev/zero | tr '\0' 'a' > brand-guidelines/references/big.md
	printf 'caf\303\251\n' > "brand-guidelines/references/caf$(printf '\303\251').md"
	echo "ref: refs/heads/main" > brand-guidelines/.git/HEAD
}

# check_zip ARCHIVE FOLDER: every regular file of FOLDER (but .git/) is in ARCHIVE under
# <name>/<path> with its bytes and mode, nothing else is, and every entry is deflated.
check_zip() {
	python3 - "$1" "$2" <<-'PY'
	import os, stat, sys, zipfile
	arc, folder = sys.argv[1], sys.argv[2]
	name = os.path.basename(folder.rstrip("/"))
	want = {}
	for root, dirs, files in os.walk(folder):
	    dirs[:] = [d for d in dirs if not (root == folder and d == ".git")]
	    for f in files:
	        p = os.path.join(root, f)
	        if os.path.islink(p):
	            continue
	        want[name + "/" + os.path.relpath(p, folder)] = p
	z = zipfile.ZipFile(arc)
	assert z.testzip() is None, "a bad CRC"
	got = {i.filename: i for i in z.infolist()}
	assert sorted(got) == sorted(want), (sorted(got), sorted(want))
	assert [i.filename for i in z.infolist()] == sorted(got), "entries in sorted order"
	for n, p in want.items():
	    i = got[n]
	    assert i.compress_type == zipfile.ZIP_DEFLATED, n
	    assert z.read(n) == open(p, "rb").read(), n
	    assert (i.external_attr >> 16) & 0o777 == stat.S_IMODE(os.lstat(p).st_mode), n
	PY
}

test_case 'a skill that passes the lint is packaged as skill-creator does' '
	make_skill
	run_assay skill package brand-guidelines; expect_exit 0
	expect_grep "^$PWD/brand-guidelines.skill: 4 files, [0-9]+ bytes; lint passed" out
	check_zip brand-guidelines.skill brand-guidelines
	python3 -c "import zipfile,sys; i=zipfile.ZipFile(sys.argv[1]).getinfo(\"brand-guidelines/scripts/run.sh\"); assert (i.external_attr>>16)&0o777==0o755" brand-guidelines.skill
	test "$(stat -c %s brand-guidelines.skill)" -lt 100000
	if command -v unzip >/dev/null; then unzip -tq brand-guidelines.skill; fi'
test_case '-o names the folder (made when missing); a second package replaces the first' '
	make_skill
	run_assay skill package brand-guidelines -o dist/new; expect_exit 0
	test -f dist/new/brand-guidelines.skill
	rm brand-guidelines/references/big.md
	run_assay skill package brand-guidelines -o dist/new; expect_exit 0
	check_zip dist/new/brand-guidelines.skill brand-guidelines
	test -z "$(ls dist/new | grep -v "^brand-guidelines.skill$")"'
test_case 'a lint error writes nothing and exits 1, naming the error' '
	rm -rf template; cp -r "$SKILL_FIXTURES/published/template" template
	run_assay skill package template -o dist; expect_exit 1
	expect_grep "^error +NM4 " err
	expect_grep "nothing packaged" err
	test ! -e dist/template.skill
	run_assay skill package template -o dist --profile claude-code; expect_exit 0
	test -f dist/template.skill'
test_case 'a link is never followed: the file it points to stays out of the package' '
	make_skill
	echo "secret outside the skill" > secret.txt
	ln -s "$PWD/secret.txt" brand-guidelines/references/notes.md
	ln -s .. brand-guidelines/up
	run_assay skill package brand-guidelines; expect_exit 0
	expect_grep "references/notes.md is a symbolic link: not packaged" err
	expect_grep "up is a symbolic link: not packaged" err
	! python3 -c "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); sys.exit(0 if any(b\"secret outside\" in z.read(n) for n in z.namelist()) else 1)" brand-guidelines.skill || false
	check_zip brand-guidelines.skill brand-guidelines'
test_case 'no such folder is exit 3; no argument is a usage error' '
	run_assay skill package no-such-skill; expect_exit 3
	run_assay skill package; expect_exit 2'

test_done
