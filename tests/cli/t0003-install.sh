#!/usr/bin/env bash
# Installing (issue #11): the CMake install target puts the program, its manual page and its
# bash completion under a prefix; `assay --help`, `assay help CMD`, docs/cli.md and the manual
# page name the same commands and options (git's t0450: every option is documented).
. "$(dirname "$0")/lib.sh"

BUILD=$(dirname "$ASSAY")
CLI_MD="$ASSAY_SRC/docs/cli.md"
MAN="$ASSAY_SRC/docs/assay.1"

# The commands `assay --help` lists, and the long options `assay CMD --help` lists.
commands() { "$ASSAY" --help | sed -n 's/^  \([a-z-]*\)  .*/\1/p'; }
options() { "$ASSAY" "$1" --help | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z-]*\).*/\2/p'; }

test_case 'the install target installs the program, its manual page and its completion' '
	cmake --install "$BUILD" --prefix "$TMP/prefix" > log
	"$TMP/prefix/bin/assay" version | grep -q "^assay "
	[ -f "$TMP/prefix/share/man/man1/assay.1" ]
	[ -f "$TMP/prefix/share/bash-completion/completions/assay" ]
	[ "$(find "$TMP/prefix" -type f | wc -l)" = 3 ]'
test_case 'DESTDIR stages an install' '
	DESTDIR="$TMP/stage" cmake --install "$BUILD" --prefix /usr > log
	[ -x "$TMP/stage/usr/bin/assay" ]'
test_case 'assay help CMD is assay CMD --help; an unknown one is a usage error' '
	for c in $(commands); do
		[ "$c" = version ] && continue
		"$ASSAY" help "$c" > a; "$ASSAY" "$c" --help > b; test_cmp a b
	done
	run_assay help frobnicate; expect_exit 2'
test_case 'every command and every option is in docs/cli.md and in the manual page' '
	for c in $(commands); do
		grep -q "^## assay $c\b\|\`assay $c\b" "$CLI_MD" || { echo "cli.md lacks $c"; exit 1; }
		grep -q "^\.B assay $(echo "$c" | sed "s/-/\\\\\\\\-/g")\b\|^\.SH ASSAY $(echo "$c" | tr a-z A-Z | sed "s/-/\\\\\\\\-/g")" "$MAN" || { echo "assay.1 lacks $c"; exit 1; }
		for o in $(options "$c"); do
			grep -q -- "--$o\b" "$CLI_MD" || { echo "cli.md lacks $c --$o"; exit 1; }
			grep -q -- "\\\\-\\\\-$(echo "$o" | sed "s/-/\\\\\\\\-/g")\b" "$MAN" || { echo "assay.1 lacks $c --$o"; exit 1; }
		done
	done'
test_case 'the manual page renders without warnings' '
	if ! command -v groff > /dev/null; then echo "groff missing: skipped"; exit 0; fi
	groff -man -Tutf8 -ww "$MAN" > page 2> warnings
	[ ! -s warnings ] || { cat warnings; exit 1; }
	grep -q "last-failed" page'
test_case 'bash completion completes commands, options and their values from the program' '
	cat > complete.sh <<-EOF
	. "$ASSAY_SRC/contrib/completion/assay.bash"
	c() { COMP_WORDS=("\$@"); COMP_CWORD=\$((\$# - 1)); COMPREPLY=(); _assay; echo "\${COMPREPLY[*]}"; }
	c "$ASSAY" ru
	c "$ASSAY" run --las
	c "$ASSAY" run "$FIXTURES/suites/basic" -c ""
	c "$ASSAY" run --color ""
	c "$ASSAY" help run-
	c "$ASSAY" skill sn
	EOF
	bash complete.sh > got
	printf "%s\n" "run run-case" "--last-failed" "checkpoint_1 checkpoint_2" "auto always never" "run-case" "snapshot" > want
	test_cmp want got'

test_done
