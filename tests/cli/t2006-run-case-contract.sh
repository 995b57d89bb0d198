#!/usr/bin/env bash
# Issue #17 item 4: run-case as verification.md shows it: -s SOLUTION -p PROBLEM -c 1 -e ENV.yaml
# [--case X] [--group G] [--full]; an environment file of SlopCodeBench's shape; --entry under its
# long name; a docker environment without podman or docker is a clear usage error.
. "$(dirname "$0")/lib.sh"

mkdir -p problems/greet/checkpoint_1/core sol
cat > problems/greet/suite.yaml <<'EOF'
name: greet
adapter: {type: cli, command: [/bin/false], timeout: 10}
checkpoints:
  checkpoint_1:
    groups:
      core: {type: Core}
EOF
cat > problems/greet/checkpoint_1/core/ada.yaml <<'EOF'
arguments: [Ada]
expected:
  output: "prepared\nhello Ada\n"
EOF
cat > sol/main.sh <<'EOF'
cat prepared.txt
echo "$GREETING $1"
EOF
cat > env.yaml <<'EOF'
name: local-sh
type: local
environment:
  env: {GREETING: hello}
setup:
  eval_commands:
    - echo prepared > prepared.txt
commands:
  command: sh
  entry_file: main.sh
EOF

test_case 'the contract'"'"'s flags: -s -p (a name under ./problems/) -c 1 -e ENV.yaml --full' '
	run_assay run-case -s sol -p greet -c 1 -e env.yaml --full; expect_exit 0
	jq -e "length == 1 and .[0].id == \"ada\" and .[0].passed and .[0].score == 1" out
	jq -e ".[0].format_result == {output: \"P\"}" out
	jq -e ".[0].results.output.actual == \"prepared\\nhello Ada\\n\"" out'

test_case '-p takes a folder too, -c a checkpoint name, --case and --group select' '
	run_assay run-case -s sol -p problems/greet -c checkpoint_1 -e env.yaml --case ada --group core; expect_exit 0
	jq -e "length == 1 and .[0].passed" out'

test_case '-c N is a checkpoint named N when the suite has one' '
	mkdir -p num/7/core
	printf "name: num\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {\"7\": {groups: {core: {}}}}\n" > num/suite.yaml
	printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > num/7/core/a.yaml
	run_assay run-case -p num -c 7 --format json; expect_exit 0
	jq -e "length == 1 and .[0].checkpoint == \"7\" and .[0].passed" out
	run_assay run-case -p num -c 8 --format json; expect_exit 2
	expect_grep "checkpoint_8" err'

test_case '--entry keeps working under its long name, and not with -e' '
	run_assay run-case problems/greet -s sol --entry "sh main.sh" --format json; expect_exit 1
	jq -e ".[0].passed == false" out
	run_assay run-case problems/greet -s sol --entry "sh main.sh" -e env.yaml; expect_exit 2
	expect_grep "give one" err'

test_case 'a failing setup command says so' '
	sed "s/echo prepared > prepared.txt/exit 3/" env.yaml > bad.yaml
	run_assay run-case -s sol -p greet -c 1 -e bad.yaml --full; expect_exit 1
	jq -e ".[0].results.stderr.actual | test(\"setup.eval_commands failed\")" out'

test_case 'a docker environment without podman or docker says how to run locally' '
	mkdir -p bare
	for t in sh; do ln -s "$(command -v $t)" bare/$t; done
	printf "type: docker\ndocker: {image: python:3.12}\ncommands: {command: python, entry_file: main.py}\n" > d.yaml
	PATH="$PWD/bare" run_assay run-case -s sol -p greet -c 1 -e d.yaml; expect_exit 2
	expect_grep "neither podman nor docker is installed: run the cases locally instead" err'

# A stand-in engine first on PATH: it says how it was called, then runs the command given after
# the image here (so the case still passes when the wrapping is right).
test_case 'a docker environment runs the setup and the entry through the engine, in its image' '
	mkdir -p fakebin
	printf "%s\n" "#!/bin/sh" "echo \"engine: \$*\" >&2" \
		"while [ \"\$1\" != img:1 ]; do shift; done; shift" "exec \"\$@\"" > fakebin/docker
	chmod +x fakebin/docker
	sed "s/^type: local/type: docker\ndocker: {image: \"img:1\"}/" env.yaml > dk.yaml
	PATH="$PWD/fakebin:$PATH" run_assay run-case -s sol -p greet -c 1 -e dk.yaml --sandbox off --full
	expect_exit 0
	jq -e ".[0].passed and .[0].score == 1" out
	jq -e ".[0].results.stderr.actual | test(\"^engine: run --rm -i -v [^ ]+:/workspace -w /workspace -e GREETING img:1 sh -c \")" out'

# SlopCodeBench writes entry_file as a template of the problem's entry file, and may move the
# container's working folder (configs/environments/*.yaml: "{entry_file}.py", docker.workdir).
test_case 'entry_file "{entry_file}.sh" takes --entry-file NAME; docker.workdir is where the folder goes' '
	sed "s/entry_file: main.sh/entry_file: \"{entry_file}.sh\"/" env.yaml > tmpl.yaml
	run_assay run-case -s sol -p greet -c 1 -e tmpl.yaml; expect_exit 2
	expect_grep "give it with --entry-file NAME" err
	run_assay run-case -s sol -p greet -c 1 -e tmpl.yaml --entry-file main --format json; expect_exit 0
	jq -e ".[0].passed" out
	sed "s/^type: local/type: docker\ndocker: {image: \"img:1\", workdir: \/w2}/" tmpl.yaml > dk2.yaml
	PATH="$PWD/fakebin:$PATH" run_assay run-case -s sol -p greet -c 1 -e dk2.yaml --entry-file main --sandbox off --full
	expect_exit 0
	jq -e ".[0].results.stderr.actual | test(\"^engine: run --rm -i -v [^ ]+:/w2 -w /w2 -e GREETING img:1 sh -c \")" out'

test_case '--keep names the kept folder on stderr with JSON output, where the array has no place for it' '
	run_assay run-case -s sol -p greet -c 1 -e env.yaml --keep --format json; expect_exit 0
	jq -e "length == 1 and .[0].passed" out
	kept=$(sed -n "s/^assay: working folders kept in //p" err)
	test -n "$kept" && test -f "$kept/checkpoint_1/core/ada/prepared.txt"
	rm -rf "$kept"
	run_assay run-case -s sol -p greet -c 1 -e env.yaml --format json; expect_exit 0
	! grep -q "kept in" err || false'

test_case 'an interrupted run-case does not point to --resume, which it has not' '
	mkdir -p slow/c/g
	printf "name: slow\nadapter: {type: cli, command: [sh, -c], timeout: 60}\ncheckpoints: {c: {groups: {g: {}}}}\n" > slow/suite.yaml
	printf "arguments: [\"sleep 30\"]\nexpected: {output: x}\n" > slow/c/g/a.yaml
	code=0
	"$ASSAY" run-case slow --format text > out 2> err &
	pid=$!
	sleep 1.5
	kill -INT $pid
	wait $pid || code=$?
	expect_exit 5
	expect_grep "not run: c/g/a" out
	! grep -q -- "--resume" out || false'

test_case 'an interrupted run-case prints the array of the cases that finished (json)' '
	mkdir -p slow2/c/g
	printf "name: slow\nadapter: {type: cli, command: [sh, -c], timeout: 60}\ncheckpoints: {c: {groups: {g: {}}}}\n" > slow2/suite.yaml
	printf "arguments: [\"echo a\"]\nexpected: {output: \"a\\\\n\"}\n" > slow2/c/g/a.yaml
	printf "arguments: [\"sleep 30\"]\nexpected: {output: x}\n" > slow2/c/g/b.yaml
	code=0
	"$ASSAY" run-case slow2 -j 1 --format json > out 2> err &
	pid=$!
	sleep 1.5
	kill -INT $pid
	wait $pid || code=$?
	expect_exit 5
	[ "$(jq -c "[.[] | {id, passed}]" out)" = "[{\"id\":\"a\",\"passed\":true}]" ] || { cat out err; false; }'

test_done
