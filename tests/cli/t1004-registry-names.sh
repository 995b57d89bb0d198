#!/usr/bin/env bash
# The names the registries look up (issue 16.2: adapters, report formats, judge kinds), given odd
# values by a hostile suite, workspace or command line: empty, NUL bytes through YAML and JSON
# escapes, case and space differences, the names of another table's entries, very long. Each is
# refused, located, naming the table's entries, and `assay check-suite` says what `assay run`
# says (review of issue 16).
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

# suite_with_type TYPE: ./t, a suite whose adapter.type is TYPE (written as is, at line 3 col 9)
suite_with_type() {
	rm -rf t && mkdir -p t/checkpoint_1/core
	printf 'name: t\nadapter:\n  type: %s\n  command: [true]\ncheckpoints:\n  checkpoint_1:\n    groups:\n      core: {type: Core}\n' "$1" > t/suite.yaml
	printf 'expected: {status_code: 0}\n' > t/checkpoint_1/core/a.yaml
}

test_case 'an odd adapter.type is refused at its place by run and check-suite alike' '
	long=$(head -c 100000 /dev/zero | tr "\0" a)
	for t in "\"\"" "\"\\0\"" "\"cli\\0\"" "\"cli\\0x\"" "\"\\0cli\"" CLI Api "\"cli \"" json exact html \
		 command "[cli]" "{cli: 1}" "!!binary Y2xp" "$long"; do
		suite_with_type "$t"
		run_assay run t -o res; expect_exit 3
		grep -E -q "^assay: error: t/suite\.yaml:3:[0-9]+: adapter\.type must be (cli or api|cli, api(, [a-z]+)* or [a-z]+)$" err ||
			{ echo "run, type ${t:0:20}:"; cat err; exit 1; }
		[ ! -e res ] || { echo "a results folder was made for type ${t:0:20}"; exit 1; }
		sed -n "1s/^assay: error: t\//error: $(pwd | sed "s/[\/&]/\\\\&/g")\/t\//p" err > want
		run_assay check-suite t; expect_exit 3
		head -n 1 out > got
		test_cmp want got
	done'
test_case 'a missing or null adapter.type says it is required, listing the adapters' '
	suite_with_type "~"
	run_assay check-suite t; expect_exit 3
	expect_grep "t/suite\.yaml:3:3: adapter\.type is required \(cli(,| or) api" out'

test_case 'an odd --format is refused before anything runs, naming the formats' '
	run_assay run "$FIXTURES/suites/basic" -o res --format json; expect_exit 0
	for f in "" ":" ":x.json" JSON Md Markdown " json" "json " "json,tap" cli exact command \
		 "$(head -c 5000 /dev/zero | tr "\0" j)"; do
		run_assay report res --format "$f"; expect_exit 2
		expect_grep "^assay: error: unknown report format .* \(json, jsonl, junit, tap, markdown, html, parquet" err
		run_assay run "$FIXTURES/suites/basic" -o res2 --format "$f"; expect_exit 2
		[ ! -e res2 ] || { echo "run made res2 with --format ${f:0:20}"; exit 1; }
	done
	run_assay report res --format md; expect_exit 0'

test_case 'a long unknown verifier name is cut in its message, which keeps the known names' '
	suite_with_type cli
	printf "expected: {status_code: 0}\nverify: {status_code: {verifier: %s}}\n" \
		"$(head -c 3000 /dev/zero | tr "\0" x)" > t/checkpoint_1/core/a.yaml
	run_assay check-suite t; expect_exit 3
	expect_grep "a\.yaml:2:[0-9]+: verify\.status_code: unknown verifier .x{64}\.\.\.. \(known: exact, .*command; a plug-in.s verifier needs its shared object loaded: --plugin PATH, or plugins: \[PATH\] in suite\.yaml\)$" out'

test_case 'an odd judge type is refused naming every kind' '
	make_workspace
	for t in "\"bogus\"" "\"\"" "\"Command\"" "\"command \"" "\"cli\"" "\"json\"" "\"markdown\""; do
		set_config ".grader.type = $t"
		run_assay skill run ws --case case-01; expect_exit 3
		expect_grep "judge type must be \"command\", \"http\", \"anthropic\"|judge type must be \"command\", \"http\" or \"anthropic\"" err
	done'
test_case 'a judge setting holding a NUL is refused at its place, not read cut' '
	make_workspace
	set_config ".grader.type = \"command\\u0000junk\""
	run_assay skill check ws; expect_exit 1
	expect_grep "ws/config\.json:[0-9]+:[0-9]+: error: .type. must not contain a NUL byte" out
	run_assay skill run ws --case case-01; expect_exit 3
	expect_grep "ws/config\.json:[0-9]+:[0-9]+: .type. must not contain a NUL byte" err
	[ ! -e ws/grading/case-01_v0_run1.json ]'

test_done
