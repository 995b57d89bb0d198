#!/usr/bin/env bash
# No silent passes (issue #11): selections take the listing's names, repeat, and never select
# nothing quietly; --strict (and strict: true) turn every warning into an error; a file can be
# expected not to exist.
. "$(dirname "$0")/lib.sh"

BASIC="$FIXTURES/suites/basic"

test_case '--case takes checkpoint/group/id globs, the names the listing prints' '
	run_assay run "$BASIC" -o res --case checkpoint_1/core/echo; expect_exit 0
	[ "$(jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" res/reports.jsonl)" = checkpoint_1/core/echo ]
	run_assay run "$BASIC" -o res --case "checkpoint_2/*/echo"; expect_exit 0
	[ "$(jq -r .group res/reports.jsonl)" = checkpoint_1_core ]'
test_case '--case takes group/id globs too' '
	run_assay run "$BASIC" -o res --case "again/*"; expect_exit 0
	[ "$(jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" res/reports.jsonl | tr "\n" " ")" = "checkpoint_2/again/fail " ]
	run_assay run "$BASIC" -o res --case "core/echo"; expect_exit 0
	[ "$(jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" res/reports.jsonl)" = checkpoint_1/core/echo ]'
test_case '--case and --group repeat (any matches)' '
	run_assay run "$BASIC" -o res --case "echo*" --case fail -g core -g "checkpoint_2/ag*"
	expect_exit 0
	[ "$(jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" res/reports.jsonl | tr "\n" " ")" = "checkpoint_1/core/echo checkpoint_2/core/echo-two checkpoint_2/again/fail " ]'
test_case 'a selection matching nothing exits 2 naming the closest cases' '
	run_assay run "$BASIC" -o none --case checkpoint_1/core/ecoh; expect_exit 2
	expect_grep "^assay: error: no case matches .checkpoint_1/core/ecoh. \(closest: checkpoint_1/core/echo, " err
	[ ! -e none ]
	run_assay run "$BASIC" -o res -g cor; expect_exit 2
	expect_grep "no group matches .cor. \(closest: core" err
	run_assay run-case "$BASIC" --case nothing-like-it; expect_exit 2'
test_case 'an unknown checkpoint exits 2 naming the checkpoints' '
	run_assay run "$BASIC" -o res -c checkpoint_3; expect_exit 2
	expect_grep "no checkpoint named .checkpoint_3. \(checkpoints: checkpoint_1, checkpoint_2\)" err'
test_case 'one of several patterns matching nothing is a warning, an error under --strict' '
	run_assay run "$BASIC" -o res --case echo --case ehco; expect_exit 0
	expect_grep "^assay: warning: no case matches .ehco. \(closest: echo" err
	run_assay run "$BASIC" -o res --case echo --case ehco --strict; expect_exit 2
	expect_grep "no case matches .ehco. .* \(an error under strict\)" err'

# A suite whose only case misspells `expected`: it passes on its group's defaults leniently.
mkdir -p typo/c/g
cat > typo/suite.yaml <<'EOF'
name: typo
adapter: {type: cli, command: [sh, -c, "echo hi"], sandbox: off}
checkpoints:
  c:
    groups:
      g: {case_defaults: {expected: {status_code: 0}}}
EOF
# (`arguments: []`: until the cli adapter NUL-terminates the argv of a case without arguments)
printf 'arguments: []\nexpect:\n  output: "bye\\n"\n' > typo/c/g/only.yaml

test_case 'a case with expect: for expected passes leniently, warned with the key meant' '
	run_assay run typo -o res; expect_exit 0
	expect_grep "only.yaml:2:1: unknown case key .expect. \(ignored; did you mean .expected.\?\)" err'
test_case 'under --strict that case fails, naming the key' '
	run_assay run typo -o res --strict; expect_exit 1
	expect_grep "error: .*only.yaml:2:1: unknown case key .expect. \(did you mean .expected.\?\) \(an error under strict\)" out
	jq -e ".case.passed == false and (.case.error | test(\"an error under strict\"))" res/reports.jsonl'
test_case 'strict: true in suite.yaml does the same' '
	cp -r typo strict && sed -i "s/^name: typo/name: typo\nstrict: true/" strict/suite.yaml
	run_assay run strict -o res; expect_exit 1
	jq -e ".case.passed == false" res/reports.jsonl'
test_case 'under --strict an unknown key of suite.yaml is a load error (exit 3) at its line' '
	cp -r typo keys && sed -i "s/^name: typo/name: typo\ndescripton: x/" keys/suite.yaml
	run_assay run keys -o res; expect_exit 0
	expect_grep "suite.yaml:2:1: unknown key .descripton. in suite.yaml \(ignored; did you mean .description.\?\)" err
	run_assay run keys -o res --strict; expect_exit 3
	expect_grep "^assay: error: .*suite.yaml:2:1: unknown key .descripton. in suite.yaml \(did you mean .description.\?\) \(an error under strict\)" err
	expect_grep "^  descripton: x$" err'
test_case 'a warning is printed once, though a regression group loads its case again' '
	cp -r typo twice && sed -i "s/^checkpoints:/checkpoints:\n  d: {groups: {h: {}}, regressions: [{checkpoint: c}]}/" twice/suite.yaml
	mkdir -p twice/d/h && printf "arguments: []\nexpected: {status_code: 0}\n" > twice/d/h/x.yaml
	run_assay run twice -o res; expect_exit 0
	[ "$(grep -c "unknown case key" err)" = 1 ]
	[ "$(jq -s length res/reports.jsonl)" = 3 ]'

test_case 'a suite with no case at all (a misspelled folder) does not pass: exit 3' '
	mkdir -p empty/c/gruop && cp typo/suite.yaml empty/ && cp typo/c/g/only.yaml empty/c/gruop/
	run_assay run empty -o res; expect_exit 3
	expect_grep "warning: .*group .g. has no folder" err
	expect_grep "^assay: error: the suite has no cases" err'

mkdir -p absent/c/g
cat > absent/suite.yaml <<'EOF'
name: absent
adapter: {type: cli, command: [sh, -c]}
checkpoints: {c: {groups: {g: {}}}}
EOF
printf 'arguments: ["true"]\nexpected: {files: {out.txt: {absent: true}}}\n' > absent/c/g/none.yaml
printf 'arguments: ["echo x > out.txt"]\nexpected: {files: {out.txt: {absent: true}}}\n' > absent/c/g/made.yaml
printf 'arguments: ["true"]\nexpected: {files: {out.txt: {absent: yes, size: 1}}}\n' > absent/c/g/bad.yaml

test_case 'files: {path: {absent: true}} asserts a file was not produced' '
	run_assay run absent -o res; expect_exit 1
	jq -se ".[] | select(.id == \"none\") | .case.passed and .results[\"files-out.txt\"].is_correct" res/reports.jsonl
	jq -se ".[] | select(.id == \"made\") | (.case.passed | not) and .results[\"files-out.txt\"].actual == \"x\n\"" res/reports.jsonl
	expect_grep "^    file .out.txt. was produced \(2 bytes\), but it should not exist$" out
	jq -se ".[] | select(.id == \"bad\") | .case.error | contains(\"write {absent: true} to expect\")" res/reports.jsonl
	! grep -q "reproduce: .* sh -c < /dev/null" out'

test_done
