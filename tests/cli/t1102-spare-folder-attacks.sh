#!/usr/bin/env bash
# Attacks on spare folders (src/lib/util/spare.c: a case's working and temporary folders are
# renamed into <run root>/.spare, emptied, and renamed into place for a later case). A later
# case must get a folder as a fresh one is (docs/security.md, "Nothing of a case reaches the
# next"), and a folder that was a case's must not let that case's user steer what assay does in
# it for the next one. Spare folders are used where the run's folders are on disk: with --keep,
# --work-dir, ASSAY_SCRATCH=off (here), or where the run's tmpfs cannot be mounted.
. "$(dirname "$0")/lib.sh"

# suite NAME: an empty suite NAME/ of one group g (cases added by case_file)
suite() {
	rm -rf "$1"
	mkdir -p "$1/checkpoint_1/g"
	cat > "$1/suite.yaml" <<EOF
name: $1
adapter:
  type: cli
  command: [sh, -c]
  timeout: 30
checkpoints:
  checkpoint_1:
    groups:
      g: {type: Core}
EOF
}
case_file() { # SUITE ID SCRIPT EXPECTED-YAML
	printf 'arguments: [%s]\n%s\n' "$(jq -Rn --arg s "$3" '$s')" "$4" > "$1/checkpoint_1/g/$2.yaml"
}

# Inode flags a case's user may set on its own folders (chattr: S synchronous writes, D
# synchronous folder updates, A no atime) are no extended attribute: recycle() keeps them, and a
# later case's writes all go to disk synchronously (a slower case, a timeout it would not hit).
test_case 'inode flags a case sets on its folders do not reach a later case' '
	require_cmd chattr lsattr
	suite flags
	case_file flags a1-attack "chattr +S +D +A . \"\$TMPDIR\" && echo set || echo refused" "expected: {status_code: 0}"
	for i in 2 3 4 5 6; do
		case_file flags a$i-victim "lsattr -d . \"\$TMPDIR\" | cut -d \" \" -f 1 | tr -d \"e-\"; true" \
			"expected: {output: \"\n\n\"}"
	done
	ASSAY_SCRATCH=off run_assay run flags -o res -j 1
	[ "$(jq -r "select(.id == \"a1-attack\") | .results.output.actual" res/reports.jsonl)" = set ] ||
		skip_optional "this file system has no chattr flags"
	jq -c "select(.id != \"a1-attack\") | {id, flags: .results.output.actual}" res/reports.jsonl
	expect_exit 0
'

# A folder's times are the owner's to set (touch -d): kept by recycle(), they carry 2 x 64 bits
# per folder from a case to a later one, which a fresh folder (made now) would not.
test_case 'the times a case sets on its folders do not reach a later case' '
	suite times
	case_file times a1-attack "touch -d @123456789 . \"\$TMPDIR\"" "expected: {status_code: 0}"
	for i in 2 3 4 5 6; do
		case_file times a$i-victim "stat -c %X:%Y . \"\$TMPDIR\" | grep -c 123456789; true" \
			"expected: {output: \"0\n\"}"
	done
	ASSAY_SCRATCH=off run_assay run times -o res -j 1
	jq -c "select(.id != \"a1-attack\") | {id, found: .results.output.actual}" res/reports.jsonl
	expect_exit 0
'

# As root with the sandbox, the cases run as nobody, and a spare keeps the owner its last case
# gave it: nobody. When it is renamed into place, assay (root) copies the submission into a folder
# that nobody may write, before handing it over. Where Landlock is refused (a kernel before
# 5.13, or the test hook here), a case running beside it (-j2) plants a link there, and root
# writes the submission's file through it, anywhere. A folder assay makes is root's until the
# hand-over: the link cannot be planted.
test_case 'root: a case cannot make assay write through a link it plants in a later case'"'"'s folder' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root"
	suite race
	mkdir -p sub/sub target
	for i in 0 1 2 3 4 5 6 7; do head -c 4000000 /dev/zero > sub/big$i; done
	echo pwned > sub/sub/pwned
	chmod -R a+rX sub target
	case_file race a-hostile "end=\$((\$(date +%s) + 6)); while [ \$(date +%s) -lt \$end ]; do for d in ../*/; do ln -s $TMP/target \"\${d}sub\" 2>/dev/null; done; done; true" \
		"expected: {status_code: 0}"
	for i in $(seq -w 1 30); do case_file race v$i true "expected: {status_code: 0}"; done
	ASSAY_SCRATCH=off ASSAY_SANDBOX_REFUSE=landlock-fs run_assay run race -o res -s sub -j2
	expect_exit 0
	if [ -e target/pwned ]; then ls -l target; echo "root wrote through a planted link"; false; fi
'

test_done
