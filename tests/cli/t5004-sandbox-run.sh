#!/usr/bin/env bash
# The sandbox as `assay run` sets it up (docs/security.md "What assay run does with it"): the
# command's own files are readable wherever PATH finds them, what is hidden says so, the clean
# environment, limits by suite, checkpoint and case.
. "$(dirname "$0")/lib.sh"

mk_suite() { # COMMAND-YAML (a fresh suite, each test its own)
	rm -rf s res
	mkdir -p s/c/g
	printf 'name: sb\nadapter: {type: cli, command: %s}\ncheckpoints: {c: {groups: {g: {}}}}\n' "$1" > s/suite.yaml
}

test_case 'a command found on PATH outside the system folders runs, and so does what it links to' '
	mkdir -p tools/real bin
	printf "#!/bin/sh\necho tool ran \"\$@\"\n" > tools/real/tool
	chmod +x tools/real/tool
	ln -s "$PWD/tools/real/tool" bin/mytool
	mk_suite "[mytool]"
	printf "arguments: [x]\nexpected: {output: \"tool ran x\\\\n\"}\n" > s/c/g/a.yaml
	PATH="$PWD/bin:$PATH" run_assay run s -o res; expect_exit 0'

test_case 'a file the sandbox hides gives exit 126 and a note that says why' '
	mkdir -p hidden
	printf "#!/bin/sh\necho secret\n" > hidden/helper
	chmod +x hidden/helper
	mk_suite "[sh, -c]"
	printf "arguments: [\"$PWD/hidden/helper\"]\nexpected: {output: \"secret\\\\n\"}\n" > s/c/g/a.yaml
	run_assay run s -o res; expect_exit 1
	jq -e ".results.status_code.actual == 126 and (.case.execution.message | test(\"sandbox hides\"))" res/reports.jsonl
	run_assay run s -o res --sandbox off; expect_exit 0'

test_case 'the environment is clean: PATH, LANG, HOME (the working folder), TMPDIR, then --pass-env' '
	mk_suite "[sh, -c]"
	printf "arguments: [\"env | cut -d= -f1 | sort | tr \\\\\\\\n \\\\\\\\ ; [ \\\\\"\$HOME\\\\\" = \\\\\"\$PWD\\\\\" ] && echo home-ok\"]\nexpected: {status_code: 0}\n" > s/c/g/a.yaml
	SECRET_TOKEN=x MY_VAR=y run_assay run s -o res --pass-env "MY_*"; expect_exit 0
	out=$(jq -r .results.output.actual res/reports.jsonl)
	echo "$out" | grep -q "home-ok"
	echo "$out" | grep -q "MY_VAR"
	! echo "$out" | grep -q "SECRET_TOKEN" || false
	echo "$out" | grep -q "TMPDIR"'

test_case 'limits come from the suite, then the case; the limit hit is named' '
	mk_suite "[sh, -c]"
	sed -i "s/command: \[sh, -c\]}/command: [sh, -c], limits: {file_size: 1M}}/" s/suite.yaml
	printf "arguments: [\"head -c 2000000 /dev/zero > big\"]\nexpected: {status_code: 0}\n" > s/c/g/a.yaml
	printf "arguments: [\"head -c 2000000 /dev/zero > big\"]\nlimits: {file_size: 4M}\nexpected: {status_code: 0}\n" > s/c/g/b.yaml
	run_assay run s -o res; expect_exit 1
	jq -se "map({(.id): .}) | add | (.a.case.execution.limit == \"file_size\") and (.b.case.passed == true)" res/reports.jsonl
	printf "arguments: [x]\nlimits: {memroy: 1}\nexpected: {status_code: 0}\n" > s/c/g/b.yaml
	run_assay run s -o res; expect_exit 1
	jq -e "select(.id == \"b\") | .case.error | test(\"unknown limit .memroy.\")" res/reports.jsonl'

test_case 'tracked files bring in at most the output cap in all' '
	mk_suite "[sh, -c]"
	sed -i "s/command: \[sh, -c\]}/command: [sh, -c], tracked_files: [\"*.log\"]}/" s/suite.yaml
	printf "arguments: [\"for i in 1 2 3 4 5; do truncate -s 1M f\$i.log; done\"]\nexpected: {status_code: 0}\n" > s/c/g/a.yaml
	run_assay run s -o res --stdout-cap 2500K; expect_exit 0
	run_assay show res a; expect_exit 0
	[ "$(jq "[.results | to_entries[] | select(.key | startswith(\"files-\")) | .value.actual | length] | add" out)" -le 2560000 ]
	[ "$(jq "[.results | to_entries[] | select(.key | startswith(\"files-\"))] | length" out)" = 5 ]'

test_case 'tracked globs never pass through a link: a planted link cannot list a hidden folder' '
	mk_suite "[sh, -c]"
	sed -i "s/command: \[sh, -c\]}/command: [sh, -c], tracked_files: [\"*\/*\", \"*\"]}/" s/suite.yaml
	mkdir -p hidden && echo secret > hidden/answers.txt
	printf "arguments: [\"ln -s $PWD/hidden peek; ln -s $PWD/hidden/answers.txt f; mkdir d; echo mine > d/own\"]\nexpected: {status_code: 0}\n" > s/c/g/a.yaml
	run_assay run s -o res; expect_exit 0
	run_assay show res a; expect_exit 0
	jq -e ".results | has(\"files-d/own\") and (has(\"files-peek/answers.txt\") | not)" out
	! grep -q secret out'

test_case 'a repro folder and report files in a readable folder stay hidden from cases' '
	rm -rf proj && mkdir -p proj
	printf "#!/bin/sh\neval \"\$1\"\n" > proj/solve.sh && chmod +x proj/solve.sh
	mk_suite "[$PWD/proj/solve.sh]"
	printf "arguments: [\"echo wrong\"]\nexpected: {output: \"the secret answer\\\\n\"}\n" > s/c/g/a.yaml
	printf "arguments: [\"cat $PWD/proj/repro/c/g/a/expected/output\"]\nexpected: {status_code: 1}\n" > s/c/g/b.yaml
	printf "arguments: [\"cat $PWD/proj/old.tap\"]\nexpected: {status_code: 1}\n" > s/c/g/c.yaml
	echo "the secret answer" > proj/old.tap
	run_assay run s -o res --repro proj/repro --format tap:proj/old.tap; expect_exit 1
	[ -s proj/repro/c/g/a/expected/output ]
	jq -se "map(select(.case.passed)) | map(.id) == [\"b\", \"c\"]" res/reports.jsonl'

if [ "$(id -u)" = 0 ]; then
test_case 'with root, a case runs as nobody: its folders are handed to it, the results never' '
	mk_suite "[sh, -c]"
	mkdir -p res
	printf "arguments: [\"echo made > made; mkdir -p sub && echo x > sub/f; cat /proc/self/uid_map; echo x > $PWD/res/forged || echo no-results\"]\nexpected: {status_code: 0}\n" > s/c/g/a.yaml
	# without Landlock, only the uid keeps the case out of the results folder
	ASSAY_SANDBOX_REFUSE=landlock-fs run_assay run s -o res --keep; expect_exit 0
	out=$(jq -r .results.output.actual res/reports.jsonl)
	echo "$out" | grep -q "no-results"
	echo "$out" | grep -Eq "^ *1000 +65534 +1$"
	[ ! -e res/forged ]
	w=$(jq -r .work_dir res/summary.json)
	[ "$(stat -c %u:%g "$w/c/g/a/made" "$w/c/g/a/sub/f")" = "$(printf "65534:65534\n65534:65534")" ]
	[ "$(stat -c %u res/assay.db res/reports.jsonl | sort -u)" = 0 ]
	rm -rf "$w"'

# (a working folder nobody cannot reach is refused before any case runs: t5008)
test_case 'with root, a command nobody cannot reach fails the case with a message that says why' '
	mkdir -m 700 private && printf "#!/bin/sh\ntrue\n" > private/prog && chmod 755 private/prog
	mk_suite "[$PWD/private/prog]"
	printf "expected: {status_code: 0}\n" > s/c/g/a.yaml
	run_assay run s -o res; expect_exit 1
	jq -e ".case.execution.message | test(\"the case runs as nobody\")" res/reports.jsonl
	run_assay run s -o res --sandbox off; expect_exit 0'
fi

test_done
