#!/usr/bin/env bash
# The documentation's commands work and print what the documentation shows (issue #11): the
# README's "first suite in five minutes" and docs/tutorial.md. A fenced block after a
# `<!-- tutorial: run -->` (or `commands`, `fix`) marker is run, in order, in one shell; a block
# after `<!-- tutorial: output -->` must equal what the run block before it printed (stdout and
# stderr), times aside.
. "$(dirname "$0")/lib.sh"

# assay on the PATH, as the README's install step puts it there.
mkdir -p bin && ln -s "$ASSAY" bin/assay
export PATH="$TMP/bin:$PATH"

# Splits a markdown file into numbered blocks: blocks/N.run and blocks/N.output.
split_blocks() {
	rm -rf blocks && mkdir blocks
	awk -v dir=blocks '
		/^<!-- tutorial: / { kind = ($3 == "output") ? "output" : "run"; armed = 1; next }
		armed && /^```/ { n++; file = sprintf("%s/%02d.%s", dir, n, kind); inside = 1; armed = 0; next }
		inside && /^```$/ { inside = 0; next }
		inside { print > file }
	' "$1"
}

# Runs every run block of the current split in one shell (so that `cd` carries over), each
# block's output into blocks/N.got, then compares each output block with the run before it.
run_blocks() {
	local script=run.sh last="" n
	: > "$script"
	for f in blocks/*.run; do
		n=${f%.run}
		printf '{\n%s\n} > "%s/%s.got" 2>&1\n' "$(cat "$f")" "$TMP" "$n" >> "$script"
	done
	mkdir -p work && (cd work && bash "$TMP/$script")
	for f in blocks/*; do
		case $f in
		*.run) last=${f%.run} ;;
		*.output)
			[ -n "$last" ] || { echo "$f: an output block before any run block"; return 1; }
			sed -E "s/ in [0-9]+\.[0-9]+ s$/ in T s/" "$f" > want
			sed -E "s/ in [0-9]+\.[0-9]+ s$/ in T s/" "$last.got" > got
			diff -u want got || { echo "(the output after $last.run differs)"; return 1; } ;;
		esac
	done
}

test_case 'the README: two commands, then the five-minute suite, its output, the fix' '
	split_blocks "$ASSAY_SRC/README.md"
	[ "$(ls blocks/*.run | wc -l)" -ge 2 ] && [ "$(ls blocks/*.output | wc -l)" -ge 1 ]
	sed -n "/five minutes/,\$p" "$ASSAY_SRC/README.md" | grep -q "tutorial: commands"
	run_blocks
	last=$(ls blocks/*.got | tail -1)
	expect_grep "^3 of 3 cases passed in " "$last"'
test_case 'docs/tutorial.md, step by step' '
	rm -rf work
	split_blocks "$ASSAY_SRC/docs/tutorial.md"
	[ "$(ls blocks/*.output | wc -l)" -ge 5 ]
	run_blocks'
test_case 'the path example of docs/suite-format.md passes as written' '
	mkdir -p paths/c/g
	printf "name: p\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > paths/suite.yaml
	{
		printf "arguments: [\"cat out.json\"]\ninput_files: [{path: out.json, content: %s}]\n" \
			"'"'"'{\"id\": 7, \"created\": \"2031-01-02T03:04:05Z\", \"items\": [{\"sku\": \"A1\", \"added\": \"now\"}], \"trace\": {\"t\": 1}}'"'"'"
		awk "/^### Paths in the json options/ { f = 1 } f && /^\`\`\`yaml/ { p = 1; next }
		     p && /^\`\`\`/ { exit } p { print }" "$ASSAY_SRC/docs/suite-format.md"
	} > paths/c/g/x.yaml
	grep -q exclude_regex_paths paths/c/g/x.yaml
	run_assay run paths -o res; expect_exit 0'

test_done
