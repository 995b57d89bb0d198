#!/usr/bin/env bash
# Mistakes a new suite author makes that assay used to let pass in silence (a review by a new
# user): undeclared folders of cases, empty expected texts, hand-made regression groups,
# defaults that break a case, and the messages around them.
. "$(dirname "$0")/lib.sh"

# mksuite DIR: a small cli suite (checkpoint_1: core, features; checkpoint_2: core).
mksuite() {
	mkdir -p "$1/checkpoint_1/core" "$1/checkpoint_1/features" "$1/checkpoint_2/core" "$1/assets"
	cat > "$1/suite.yaml" <<-EOF
	name: mistakes
	adapter: {type: cli, command: [/bin/echo], sandbox: off}
	static_assets:
	  data: {path: assets/data.yaml}
	checkpoints:
	  checkpoint_1:
	    groups:
	      core: {type: Core}
	      features: {type: Functionality}
	  checkpoint_2:
	    groups:
	      core: {type: Core}
	EOF
	echo "a: 1" > "$1/assets/data.yaml"
	for d in checkpoint_1/core checkpoint_1/features checkpoint_2/core; do
		printf 'arguments: [hi]\nexpected: {output: "hi\\n"}\n' > "$1/$d/hello.yaml"
	done
}

test_case 'folders of cases the suite does not declare are warned about, with did-you-mean' '
	mksuite s
	mkdir -p s/checkpoint_1/featrues s/checkpoint_3/core s/checkpoint_1/notes
	cp s/checkpoint_1/core/hello.yaml s/checkpoint_1/featrues/a.yaml
	cp s/checkpoint_1/core/hello.yaml s/checkpoint_1/featrues/b.yaml
	cp s/checkpoint_1/core/hello.yaml s/checkpoint_3/core/c.yaml
	echo "just notes" > s/checkpoint_1/notes/README.md
	run_assay check-suite s; expect_exit 0
	expect_grep "^warning: .*/s/checkpoint_1/featrues/: 2 case files in a folder that is no group of checkpoint .checkpoint_1.: they are never run \\(did you mean .features.\\?\\)$" out
	expect_grep "^warning: .*/s/checkpoint_3/: 1 case file in 1 group folder, but suite.yaml has no checkpoint there: it is never run \\(did you mean .checkpoint_[12].\\?\\)$" out
	! grep -q notes out || false
	! grep -q assets out || false
	expect_grep "^3 cases checked: 0 errors, 2 warnings$" out
	run_assay check-suite s --strict; expect_exit 3
	expect_grep "^3 cases checked: 2 errors, 0 warnings$" out
	run_assay run s -o r1; expect_exit 1
	expect_grep "warning: .*featrues" err
	expect_grep "^3 case files never ran" out
	run_assay run s -o r2 --strict; expect_exit 3
	expect_grep "featrues|checkpoint_3" err'

test_case 'folders that belong to the suite are not undeclared' '
	mksuite s2
	mkdir -p s2/solution/tests s2/checkpoint_1/core/big/files s2/results s2/checkpoint_1/cfg
	printf "x: 1\n" > s2/solution/tests/conf.yaml
	printf "x: 1\n" > s2/checkpoint_1/core/big/files/in.yaml
	printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > s2/checkpoint_1/core/big/case.yaml
	printf "x: 1\n" > s2/checkpoint_1/cfg/c.yaml
	sed -i "s|sandbox: off}|sandbox: off, submission: solution, read_paths: [checkpoint_1/cfg]}|" s2/suite.yaml
	(cd s2 && "$ASSAY" run . -o assay-results >/dev/null 2>&1) || true
	run_assay check-suite s2 --strict; expect_exit 0
	expect_grep "^4 cases checked: 0 errors, 0 warnings$" out'

test_case 'type: Regression on a hand-made regression group is accepted; one problem is printed once' '
	mksuite s3
	cat >> s3/suite.yaml <<-EOF
	      old_core: {type: Regression, original_checkpoint: checkpoint_1, original_group: core}
	EOF
	run_assay check-suite s3 --strict; expect_exit 0
	expect_grep "^4 cases checked: 0 errors, 0 warnings$" out
	sed -i "s/type: Regression, original/type: Core, original/" s3/suite.yaml
	run_assay check-suite s3; expect_exit 0
	expect_grep "^warning: .*suite.yaml:[0-9]+:[0-9]+: .type. of a regression group is ignored" out
	run_assay check-suite s3 --strict; expect_exit 3
	test "$(grep -c "regression group is ignored" out)" = 1
	expect_grep "^4 cases checked: 1 error, 0 warnings$" out'

test_case 'an empty expected text: contains and flexible (Pattern 1: "" is in every text) warn at load' '
	mkdir -p e/c/g
	cat > e/suite.yaml <<-EOF
	name: e
	adapter: {type: cli, command: [/bin/echo], sandbox: off}
	checkpoints:
	  c: {groups: {g: {}}}
	EOF
	printf "arguments: [totally wrong]\nexpected: {output: \"\"}\nverify: {output: contains}\n" > e/c/g/a.yaml
	printf "arguments: [totally wrong]\nexpected: {output: \"\"}\nverify: {output: flexible}\n" > e/c/g/b.yaml
	printf "arguments: [\"\"]\nexpected: {output: \"\"}\nverify: {output: flexible}\n" > e/c/g/c.yaml
	run_assay check-suite e; expect_exit 0
	expect_grep "^warning: .*/e/c/g/a.yaml:2:20: expected.output is empty: contains matches any output$" out
	expect_grep "^warning: .*/e/c/g/b.yaml:2:20: expected.output is empty: flexible matches any output$" out
	expect_grep "^warning: .*/e/c/g/c.yaml:2:20: expected.output is empty: flexible matches any output$" out
	expect_grep "^3 cases checked: 0 errors, 3 warnings$" out
	run_assay check-suite e --strict; expect_exit 3
	run_assay run e -o re; expect_exit 0
	jq -se ".[] | select(.id == \"b\") | .results.output | .is_correct and .weight == 0.8" re/reports.jsonl'

test_case 'a verify entry of defaults that breaks a case names the case' '
	mkdir -p d/c/g
	cat > d/suite.yaml <<-EOF
	name: d
	adapter: {type: cli, command: [/bin/echo], sandbox: off}
	checkpoints:
	  c: {groups: {g: {}}}
	defaults:
	  verify:
	    output: json
	EOF
	printf "arguments: [bye]\nexpected: {output: \"bye\\\\n\"}\n" > d/c/g/x.yaml
	run_assay check-suite d; expect_exit 3
	expect_grep "^error: .*/d/c/g/x.yaml:2:20: verify.output: expected.output is not valid JSON: .* \\(the verify entry is inherited from .*/d/suite.yaml:7:13\\)$" out
	sed -i "s/output: json/output: {verifier: json, ignore_ordr: true}/" d/suite.yaml
	run_assay check-suite d; expect_exit 3
	expect_grep "^error: .*/d/c/g/x.yaml:2:20: verify.output: unknown option .ignore_ordr. for verifier .json. .*\\(the verify entry is inherited from .*/d/suite.yaml:7:[0-9]+\\)$" out'

test_case 'a verifier error is printed once' '
	mkdir -p v/c/g
	cat > v/suite.yaml <<-EOF
	name: v
	adapter: {type: cli, command: [/bin/echo], sandbox: off}
	checkpoints:
	  c: {groups: {g: {}}}
	EOF
	printf "arguments: [bye]\nexpected: {output: \"bye\\\\n\"}\nverify: {output: json}\n" > v/c/g/x.yaml
	run_assay run v -o rv; expect_exit 1
	test "$(grep -c "is not valid JSON" out)" = 1'

test_case 'show and report create nothing in the results folder; a run leaves only assay.db' '
	mkdir -p ro/c/g
	cat > ro/suite.yaml <<-EOF
	name: ro
	adapter: {type: cli, command: [/bin/echo], sandbox: off}
	checkpoints:
	  c: {groups: {g: {}}}
	EOF
	printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > ro/c/g/x.yaml
	run_assay run ro -o rr; expect_exit 0
	ls rr > before
	! grep -q "assay.db-" before || false
	run_assay show rr x; expect_exit 0
	run_assay report rr --format markdown; expect_exit 0
	run_assay report rr --format json -o rr.json; expect_exit 0
	ls rr > after
	test_cmp before after
	# a store an older assay left in WAL mode is read without creating its log files
	python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"PRAGMA journal_mode=WAL\"); c.close()" rr/assay.db
	ls rr > before
	! grep -q "assay.db-" before || false
	run_assay report rr --format markdown; expect_exit 0
	expect_grep "the one case passed" out
	run_assay show rr x; expect_exit 0
	ls rr > after
	test_cmp before after'

test_case 'show labels each case when an id matches a case and its regression copy' '
	mksuite sh
	cat >> sh/suite.yaml <<-EOF
	    regressions:
	      - {checkpoint: checkpoint_1, groups: [features]}
	EOF
	rm sh/checkpoint_2/core/hello.yaml
	printf "arguments: [hi]\nexpected: {output: \"hi\\\\n\"}\n" > sh/checkpoint_2/core/other.yaml
	run_assay run sh -o rs; expect_exit 0
	run_assay show rs other; expect_exit 0
	! grep -q "==>" out || false
	run_assay show rs checkpoint_1/features/hello; expect_exit 0
	! grep -q "==>" out || false
	run_assay show rs hello; expect_exit 0
	expect_grep "^==> checkpoint_1/core/hello <==$" out
	expect_grep "^==> checkpoint_1/features/hello <==$" out
	expect_grep "^==> checkpoint_2/checkpoint_1_features/hello <==$" out
	test "$(grep -c "==>" out)" = 3'

test_case 'check-suite refuses the options of results by name, and takes those of running' '
	mksuite cs
	run_assay check-suite cs --mutate -o somewhere; expect_exit 2
	expect_grep "check-suite writes no results folder or report: .-o. is an option of assay run only" err
	run_assay check-suite cs --mutate --format=json; expect_exit 2
	expect_grep "..--format. is an option of assay run only" err
	test ! -e somewhere
	run_assay check-suite cs --mutate -c checkpoint_1 -g core --sandbox off --kill-grace 0.5 --stdout-cap 1M; expect_exit 0
	expect_grep "^1 case: 1 passed and was mutated" out'

test_case 'a command verifier program relative to the suite runs from anywhere; one not found says where it was looked for' '
	mkdir -p cv/c/g cv/checks elsewhere
	cat > cv/suite.yaml <<-EOF
	name: cv
	adapter: {type: cli, command: [/bin/echo], sandbox: off}
	checkpoints:
	  c: {groups: {g: {}}}
	EOF
	printf "#!/bin/sh\ncat >/dev/null; echo \"{\\\\\"is_correct\\\\\": true, \\\\\"diff\\\\\": null}\"\n" > cv/checks/ok.sh
	chmod +x cv/checks/ok.sh
	cat cv/checks/ok.sh
	printf "arguments: [hi]\nexpected: {output: \"hi\\\\\\\\n\"}\nverify: {output: {verifier: command, run: [checks/ok.sh]}}\n" > cv/c/g/a.yaml
	printf "arguments: [hi]\nexpected: {output: \"hi\\\\\\\\n\"}\nverify: {output: {verifier: command, run: \"checks/ok.sh --x\", persistent: false}}\n" > cv/c/g/b.yaml
	(cd elsewhere && "$ASSAY" run ../cv -o ../rcv > ../out 2> ../err) || { cat out err; false; }
	expect_grep "^2 of 2 cases passed" out
	printf "arguments: [hi]\nexpected: {output: \"hi\\\\\\\\n\"}\nverify: {output: {verifier: command, run: [checks/nope.sh]}}\n" > cv/c/g/c.yaml
	run_assay run cv -o rcv2; expect_exit 1
	expect_grep "verifier command .checks/nope.sh. could not be started: No such file or directory \\(.checks/nope.sh. is in neither the suite.s folder nor the folder assay runs in: write it relative to the suite, or as \\{\\{static:NAME\\}\\}" out'

test_case 'verifier diffs list only differences, in the document words, once' '
	mkdir -p nm/c/g
	cat > nm/suite.yaml <<-EOF
	name: nm
	adapter: {type: cli, command: [/usr/bin/printf], sandbox: off}
	checkpoints:
	  c: {groups: {g: {}}}
	EOF
	printf "arguments: [\"1 2 3 5\"]\nexpected: {output: \"1 2 3 4\"}\nverify: {output: numeric}\n" > nm/c/g/a.yaml
	cat > nm/c/g/b.yaml <<-\EOF
	arguments: ['{"a": 1, "b": 2}']
	expected: {output: [a]}
	verify: {output: json_keys}
	EOF
	cat > nm/c/g/c.yaml <<-\EOF
	arguments: ['{"a": {"b": 0}}']
	expected: {output: {a.b: null}}
	verify: {output: json_fields}
	EOF
	run_assay run nm -o rnm; expect_exit 1
	expect_grep "^    output: Number 3: expected 4.0, got 5.0 \\(diff: 1.0, tolerance: 1e-06\\)$" out
	expect_grep "^    output: extra: \\[\"b\"\\]$" out
	expect_grep "^    output: a.b: expected null, got 0$" out
	! grep -q "differences\\|number_count\\|missing: \\[\\]\\|None" out'

test_case 'did you mean for verify options and attributes; --strict says error; singular words' '
	mkdir -p dy/c/g
	cat > dy/suite.yaml <<-EOF
	name: dy
	adapter: {type: cli, command: [/bin/sh, -c], sandbox: off, timeout: 1}
	checkpoints:
	  c: {groups: {g: {}}}
	EOF
	printf "arguments: [\"echo hi\"]\nexpected: {output: \"hi\\\\\\\\n\"}\nverify: {ouput: text, output: {verifier: json, ignore_ordr: true}}\n" > dy/c/g/x.yaml
	run_assay check-suite dy; expect_exit 3
	expect_grep "unknown option .ignore_ordr. for verifier .json. \\(did you mean .ignore_order.\\?\\)" out
	expect_grep "verify.ouput is ignored: no expected value for it \\(did you mean .output.\\?\\)" out
	printf "arguments: [\"sleep 5\"]\nexpected: {output: x}\nverify: {ouput: text}\n" > dy/c/g/x.yaml
	run_assay run dy -o rdy; expect_exit 1
	expect_grep "^assay: warning: .*verify.ouput is ignored" err
	expect_grep "timed out after 1 second$" out
	expect_grep "^0 of 1 case passed" out
	run_assay run dy -o rdy2 --strict; expect_exit 1
	expect_grep "^assay: error: .*verify.ouput is ignored" err
	! grep -q "assay: warning:" err'

# the strict load's error and the warning of the load that is not strict were both listed
test_case 'check-suite --strict lists an unknown adapter key once, as an error' '
	mkdir -p ak/c/g
	printf "name: ak\nadapter: {type: cli, command: [sh, -c], comand: x}\ncheckpoints: {c: {groups: {g: {}}}}\n" > ak/suite.yaml
	printf "arguments: [\"echo hi\"]\nexpected: {status_code: 0}\n" > ak/c/g/x.yaml
	run_assay check-suite ak --strict; expect_exit 3
	[ "$(grep -c "unknown key .comand." out)" = 1 ]
	! grep -q "ignored" out || false
	expect_grep "^1 case checked: 1 error, 0 warnings$" out'

test_done
