#!/usr/bin/env bash
# Pass policies (issue #9 item 2: SlopCodeBench's PassPolicy decides the exit status) and
# failure repro bundles (item 6: a folder per failing case, with a command running it again).
. "$(dirname "$0")/lib.sh"

fresh() {
	cd "$(mktemp -d -p "$TMP")"
}

test_case 'policies decide the exit status as SlopCodeBench decides a checkpoint' '
	fresh
	for p in any:0 any-case:0 all-cases:1 all-non-error-cases:1 core-cases:1 \
		 all-core-cases:1 any-core-cases:0; do
		run_assay run "$FIXTURES/suites/failing" -o "res-${p%%:*}" -q --pass-policy "${p%%:*}"
		expect_exit "${p#*:}"
	done
	run_assay run "$FIXTURES/suites/failing" -o res -q; expect_exit 1
	run_assay run "$FIXTURES/suites/failing" -o res -q --pass-policy most; expect_exit 2
	expect_grep "unknown pass policy .most." err'

test_case 'only Error cases fail: all-non-error-cases and core-cases pass, the default does not' '
	fresh
	mkdir -p s/c/core s/c/errors
	printf "name: p\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {core: {type: Core}, errors: {type: Error}}}}\n" > s/suite.yaml
	printf "arguments: [\"true\"]\nexpected: {status_code: 0}\n" > s/c/core/ok.yaml
	printf "arguments: [\"true\"]\nexpected: {status_code: 2}\n" > s/c/errors/bad.yaml
	run_assay run s -o r1 -q; expect_exit 1
	run_assay run s -o r2 -q --pass-policy all-non-error-cases; expect_exit 0
	run_assay run s -o r3 -q --pass-policy core-cases; expect_exit 0
	run_assay run s -o r4 -q --pass-policy all-cases; expect_exit 1
	jq -e ".checkpoints.c.pass_counts == {\"Core\": 1, \"Error\": 0} and .checkpoints.c.total_counts == {\"Core\": 1, \"Error\": 1}" r1/summary.json
	jq -e ".policies == {\"any\": true, \"any-case\": true, \"all-cases\": false, \"all-non-error-cases\": true, \"core-cases\": true, \"any-core-cases\": true}" r1/summary.json
	jq -e ".overall_pass_rate == 0.5" r1/summary.json'

test_case 'an interrupted run passes no policy' '
	fresh
	mkdir -p s/c/g
	printf "name: i\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	printf "arguments: [\"true\"]\nexpected: {status_code: 0}\n" > s/c/g/a.yaml
	printf "arguments: [\"sleep 30\"]\nexpected: {status_code: 0}\n" > s/c/g/b.yaml
	"$ASSAY" run s -o res -q --pass-policy any >/dev/null 2>&1 &
	pid=$!
	# wait for the event: case a committed to the store, then interrupt case b
	for i in $(seq 1 200); do
		[ "$(sqlite3 res/assay.db "SELECT count(*) FROM cases" 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	kill -INT $pid
	code=0; wait $pid || code=$?
	[ "$code" = 5 ]
	jq -e ".interrupted and .policies.any == false" res/summary.json'

test_case 'a repro bundle per failing case: argv, env, stdin, files, expected, actual, diffs' '
	fresh
	mkdir -p s/c/g/with-files/files
	printf "name: r\nadapter: {type: cli, command: [sh, -c], env: {FROM_SUITE: 1}}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	cat > s/c/g/with-files/case.yaml <<-\YAML
	arguments: ["cat in.txt data.txt; cat; echo \"$CASE_VAR\""]
	stdin: "from stdin\n"
	env: {CASE_VAR: "x y", GONE: null}
	input_files: [{path: in.txt, content: "input file\n"}]
	expected: {output: "something else\n", status_code: 0}
	YAML
	printf "kept\n" > s/c/g/with-files/files/data.txt
	printf "arguments: [\"echo fine\"]\nexpected: {output: \"fine\\\\n\"}\n" > s/c/g/fine.yaml
	run_assay run s -o res -q --repro bundles; expect_exit 1
	[ ! -e bundles/c/g/fine ]
	b=bundles/c/g/with-files
	jq -e ". == [\"sh\", \"-c\", \"cat in.txt data.txt; cat; echo \\\"\$CASE_VAR\\\"\"]" $b/argv.json
	jq -e ".CASE_VAR == \"x y\" and .GONE == null and .FROM_SUITE == \"1\"" $b/env.json
	[ "$(cat $b/stdin)" = "from stdin" ]
	[ "$(cat $b/files/in.txt)" = "input file" ]
	[ "$(cat $b/files/data.txt)" = kept ]
	printf "input file\nkept\nfrom stdin\nx y\n" | cmp - $b/actual/output
	printf "something else\n" | cmp - $b/expected/output
	jq -e ".output.is_correct == false" $b/report.json >/dev/null || jq -e ".results.output.is_correct == false" $b/report.json
	jq -e ".output | test(\"^--- expected\")" $b/diff.json
	jq -e ".status_code == 0" $b/expected.json
	[ -x $b/rerun.sh ]
	[ "$(grep -vc "^#" $b/rerun.sh)" = 1 ]'

test_case 'rerun.sh runs just that case again, under the same limits' '
	fresh
	mkdir -p s/c/g
	printf "name: r\nadapter: {type: cli, command: [sh, -c], timeout: 5}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	printf "arguments: [\"echo one\"]\nexpected: {output: \"two\\\\n\"}\n" > "s/c/g/a*b.yaml"
	printf "arguments: [\"echo one\"]\nexpected: {output: \"two\\\\n\"}\n" > s/c/g/axb.yaml
	printf "arguments: [\"echo ok\"]\nexpected: {output: \"ok\\\\n\"}\n" > s/c/g/ok.yaml
	run_assay run s -o res -q --repro bundles --stdout-cap 1M --kill-grace 0.5; expect_exit 1
	b="bundles/c/g/a*b"
	expect_grep "--stdout-cap 1048576 " "$b/rerun.sh"
	expect_grep "--kill-grace 0.5 " "$b/rerun.sh"
	code=0; "$b/rerun.sh" -q >/dev/null 2>&1 || code=$?
	[ "$code" = 1 ]
	jq -e ".totals.total == 1" "$b/rerun/summary.json"
	[ "$(jq -r .id "$b/rerun/reports.jsonl")" = "a*b" ]'

test_case 'a case id with quotes and shell syntax: the bundle and its command keep it whole' '
	fresh
	mkdir -p s/c/g
	printf "name: r\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	id="it'"'"'s \$(touch pwned) \"q\" [x]"
	printf "arguments: [\"true\"]\nexpected: {status_code: 1}\n" > "s/c/g/$id.yaml"
	run_assay run s -o res -q --repro bundles; expect_exit 1
	[ -f "bundles/c/g/$id/report.json" ]
	code=0; "bundles/c/g/$id/rerun.sh" -q >/dev/null 2>&1 || code=$?
	[ "$code" = 1 ]
	[ ! -e pwned ] && [ ! -e "bundles/c/g/$id/pwned" ]
	[ "$(jq -r .id "bundles/c/g/$id/rerun/reports.jsonl")" = "$id" ]'

test_case 'rerun.sh runs the case as the run did: its --sandbox, --network and --pass-env' '
	fresh
	mkdir -p s/c/g
	printf "name: r\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	printf "arguments: [\"echo \$ASSAY_T_COLOUR\"]\nexpected: {output: \"blue\\\\n\"}\n" > s/c/g/colour.yaml
	ASSAY_T_COLOUR=red run_assay run s -o res -q --repro bundles --sandbox off --network on \
		--pass-env "ASSAY_T_*"; expect_exit 1
	jq -e ".results.output.actual == \"red\\n\" and .case.execution.sandbox == []" res/reports.jsonl
	expect_grep " .--sandbox. .off. " bundles/c/g/colour/rerun.sh
	expect_grep " .--network. .on. " bundles/c/g/colour/rerun.sh
	expect_grep " .--pass-env. .ASSAY_T_\*. " bundles/c/g/colour/rerun.sh
	code=0; ASSAY_T_COLOUR=red bundles/c/g/colour/rerun.sh -q || code=$?
	[ "$code" = 1 ]
	jq -e ".results.output.actual == \"red\\n\" and .case.execution.sandbox == []" \
		bundles/c/g/colour/rerun/reports.jsonl
	run_assay run s -o res2 -q --repro bundles2; expect_exit 1
	! grep -q -- "--sandbox\|--network\|--pass-env" bundles2/c/g/colour/rerun.sh || false'

test_case 'the rerun of a case in a shared working folder runs its whole group' '
	mkdir -p sh/c/g
	printf "name: sh\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {isolated: false}}}}\n" > sh/suite.yaml
	printf "arguments: [\"echo 1 > state\"]\nexpected: {status_code: 0}\n" > sh/c/g/a.yaml
	printf "arguments: [\"cat state\"]\nexpected: {output: \"2\\\\n\"}\n" > sh/c/g/b.yaml
	run_assay run sh -o res-sh --repro rp; expect_exit 1
	grep -q "share one working folder" rp/c/g/b/rerun.sh
	! grep -q -- "--case" rp/c/g/b/rerun.sh || false
	rp/c/g/b/rerun.sh -q || true
	jq -e "select(.id == \"b\") | .results.output.actual == \"1\\n\"" rp/c/g/b/rerun/reports.jsonl'

test_case 'a big report in a bundle is one line of JSON; a small one is indented' '
	mkdir -p bigr/c/g
	printf "name: bigr\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > bigr/suite.yaml
	printf "arguments: [\"yes abc | head -c 2000000\"]\nexpected: {output: no}\n" > bigr/c/g/big.yaml
	printf "arguments: [\"echo small\"]\nexpected: {output: no}\n" > bigr/c/g/small.yaml
	run_assay run bigr -o res-big -q --repro rb; expect_exit 1
	[ "$(wc -l < rb/c/g/big/report.json)" = 1 ]
	[ "$(wc -l < rb/c/g/small/report.json)" -gt 5 ]
	jq -e ".results.output.actual | length == 2000000" rb/c/g/big/report.json'

test_done
