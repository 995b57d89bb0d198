#!/usr/bin/env bash
# The report formats' names have one source, the library's table (src/lib/report/formats.c):
# --format's help and the unknown-format error are made from it, the bash completion reads the
# help, and the documents that must list the names by hand (the manual page, docs/cli.md,
# docs/reports.md) list exactly the table's, in its order. A format added to the table and
# not to a document fails here.
. "$(dirname "$0")/lib.sh"

MAN="$ASSAY_SRC/docs/assay.1"
CLI_MD="$ASSAY_SRC/docs/cli.md"
REPORTS_MD="$ASSAY_SRC/docs/reports.md"

# the names on --format's help line of `assay CMD`, one a line
help_names() {
	"$ASSAY" "$1" --help | sed -n 's/.*--format .*also write a report: \(.*\) (repeatable).*/\1/p' |
		tr -d , | tr ' ' '\n'
}

# the names after run's -f/--format item of the manual page (".BR json ", " jsonl ...")
man_names() {
	awk '/^\.BR \\-f ", " \\-\\-format/ { getline; getline; print; exit }' "$MAN" |
		sed 's/^\.BR //; s/"[^"]*"//g' | tr -s ' ' '\n' | sed '/^$/d'
}

test_case 'run and report list the same formats in --format help' '
	help_names report > names
	help_names run > run_names
	[ "$(wc -l < names)" -ge 7 ]
	grep -qx junit names
	test_cmp names run_names'
test_case 'an unknown format is refused naming the formats of the help' '
	help_names report > names
	run_assay run "$FIXTURES/suites/basic" -o res --format nope; expect_exit 2
	[ ! -e res ]
	expect_grep "unknown report format .nope. \($(paste -sd, names | sed "s/,/, /g")\)" err
	run_assay report res --format nope; expect_exit 2'
test_case 'every named format is accepted (and md for markdown)' '
	for f in $(help_names report) md; do
		run_assay run "$FIXTURES/suites/basic" -o "r-$f" --format "$f:$f.out"
		[ "$code" = 0 ] || [ "$code" = 1 ] || { echo "$f: exit $code"; cat err; exit 1; }
		[ -s "$f.out" ] || { echo "$f: no report"; exit 1; }
	done'
test_case 'the manual page lists exactly the formats, in order' '
	help_names report > names
	man_names > man
	test_cmp names man'
test_case 'docs/cli.md lists exactly the formats, in order' '
	help_names report > names
	grep -- "^| \`-f, --format F\\[:PATH\\]\` |" "$CLI_MD" |
		sed "s/^| \`-f, --format F\\[:PATH\\]\` | also write a report: //; s/ (repeatable.*//" |
		tr -d "\`," | tr " " "\n" > cli
	test_cmp names cli'
test_case 'docs/reports.md has a row for exactly the formats, in order' '
	help_names report > names
	sed -n "/^## Formats/,/^##/p" "$REPORTS_MD" | sed -n "s/^| \`\\([a-z]*\\)\` .*/\\1/p" > rows
	test_cmp names rows'
test_case 'bash completion offers the formats after --format and -f of run and report' '
	help_names report | paste -sd " " > want
	cat > complete.sh <<-EOF
	. "$ASSAY_SRC/contrib/completion/assay.bash"
	c() { COMP_WORDS=("\$@"); COMP_CWORD=\$((\$# - 1)); COMPREPLY=(); _assay; echo "\${COMPREPLY[*]}"; }
	c "$ASSAY" run --format ""
	c "$ASSAY" report res -f ""
	EOF
	bash complete.sh > got
	cat want want > want2
	test_cmp want2 got'

test_done
