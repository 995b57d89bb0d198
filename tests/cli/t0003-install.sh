#!/usr/bin/env bash
# Installing (issue #11): the CMake install target puts the program, its manual page, its
# bash completion and the public headers with assay.pc (for plug-ins) under a prefix; `assay --help`, `assay help CMD`, docs/cli.md and the manual
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
	[ -f "$TMP/prefix/include/assay/plugin.h" ]
	for h in "$ASSAY_SRC"/include/assay/*.h; do cmp "$h" "$TMP/prefix/include/assay/${h##*/}"; done
	[ "$(find "$TMP/prefix" -type f ! -path "*/include/assay/*" | sort | sed "s|$TMP/prefix/||" | tr "\n" " ")" = \
	  "bin/assay lib/pkgconfig/assay.pc share/bash-completion/completions/assay share/man/man1/assay.1 " ]'
test_case 'a plug-in builds against the installed headers and runs in the installed assay' '
	[ -d "$TMP/prefix/include/assay" ] || cmake --install "$BUILD" --prefix "$TMP/prefix" > log
	if command -v pkg-config > /dev/null; then
		flags=$(echo $(PKG_CONFIG_PATH="$TMP/prefix/lib/pkgconfig" pkg-config --cflags assay))
		[ "$flags" = "-I$TMP/prefix/include" ]
	else
		flags="-I$TMP/prefix/include"
	fi
	# only the installed headers: the source tree is not on the include path
	cc -std=c17 -Wall -Wextra -Werror -shared -fPIC -O2 $flags \
		-o line_set.so "$ASSAY_SRC/examples/plugin/line_set.c"
	mkdir -p ps/c/g
	cat > ps/suite.yaml <<-EOF
	name: ps
	adapter: {type: cli, command: [/usr/bin/printf, "b\\na\\n"], sandbox: off}
	checkpoints:
	  c: {groups: {g: {}}}
	EOF
	printf "expected: {output: \"a\\\\nb\\\\n\"}\nverify: {output: line_set}\n" > ps/c/g/x.yaml
	run_assay run ps -o r0; expect_exit 1
	expect_grep "unknown verifier .line_set..*--plugin PATH, or plugins: \[PATH\] in suite.yaml" out
	"$TMP/prefix/bin/assay" run --plugin ./line_set.so ps -o r1 > out 2> err
	expect_grep "1 of 1 case passed" out'
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
	require_cmd groff
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
	c "$ASSAY" run-case --pro
	c "$ASSAY" run-case -p "$FIXTURES/suites/basic" -e env.yaml -c ""
	c "$ASSAY" run-case -p b -c ""
	EOF
	mkdir -p problems && cp -r "$FIXTURES/suites/basic" problems/b
	bash complete.sh > got
	printf "%s\n" "run run-case" "--last-failed" "checkpoint_1 checkpoint_2" "auto always never" "run-case" "snapshot" "--problem" "checkpoint_1 checkpoint_2" "checkpoint_1 checkpoint_2" > want
	test_cmp want got'

test_done
