#!/usr/bin/env bash
# Terminal messages that are right the first time (issue #21 item 3), and input_files lists in
# case defaults merging by path (item 5).
. "$(dirname "$0")/lib.sh"

# A suite whose cases are shell scripts (sh -c ARGUMENT).
mkdir -p s/checkpoint_1/core
cat > s/suite.yaml <<'EOF'
name: messages
adapter:
  type: cli
  command: [sh, -c]
checkpoints:
  checkpoint_1:
    groups:
      core:
        type: Core
        case_defaults:
          input_files:
          - {path: a.txt, content: "A"}
          - {path: b.txt, content: "B"}
EOF
cd s/checkpoint_1/core
cat > regex.yaml <<'EOF'
arguments: ["printf '42\\n'"]
expected: {output: '^\d+$'}
verify: {output: regex}
EOF
cat > fields.yaml <<'EOF'
arguments: ["printf '{\"mean_price\": 3}\\n'"]
expected: {output: {mean_price: 2}}
verify: {output: json_fields}
EOF
cat > numeric.yaml <<'EOF'
arguments: ["printf '1.23 0.3\\n'"]
expected: {output: [1.23, 0.1]}
verify: {output: numeric}
EOF
cat > flexible.yaml <<'EOF'
arguments: ["printf 'Hello There\\nWorld\\n'"]
expected: {output: "Goodbye There\nWorld\nAgain\n"}
verify: {output: flexible}
EOF
cat > cut.yaml <<'EOF'
arguments: ["printf 'hello world\\n'"]
expected: {output: "hello world\n"}
EOF
cat > file.yaml <<'EOF'
arguments: ["printf 'a\\nb\\n' > f.txt"]
expected:
  files: {f.txt: {content: "a\nc\n"}}
verify: {files: {verifier: file}}
EOF
cat > merged.yaml <<'EOF'
arguments: ["cat a.txt b.txt c.txt"]
input_files:
- {path: b.txt, content: "b2"}
- {path: c.txt, content: "c"}
expected: {output: "Ab2c"}
EOF
cat > dropped.yaml <<'EOF'
arguments: ["test -e a.txt || test -e b.txt || echo none"]
input_files: null
expected: {output: "none\n"}
EOF
cd "$TMP"

run_assay run s -o res --max-failures 20 --color never --stdout-cap 1M

test_case 'regex: the actual text beside the pattern, and the trailing-newline trap' '
	expect_exit 1
	expect_grep "^    output: pattern did not match \(full\)$" out
	grep -qxF -- "      - expected pattern: ^\\d+\$" out
	grep -qxF -- "      + actual: \"42\\n\"" out
	expect_grep "matches the output without its trailing newline" out'

test_case 'json_fields: the path once' '
	expect_grep "^    output: mean_price: expected" out
	! grep -q "mean_price: mean_price" out'

test_case 'numeric: number_1 as the docs name it, no count that is right, no float noise' '
	expect_grep "^    output: number_1 \(the 2nd number\): expected 0.1, got 0.3 \(diff: 0.2," out
	! grep -q "numbers, got" out || false
	! grep -q "0.1999" out'

test_case 'flexible: the expected text as the author wrote it' '
	sed -n "/core\/flexible /,/reproduce:/p" out > flexible.txt
	expect_grep "^ *-Goodbye There$" flexible.txt
	expect_grep "^ *-Again$" flexible.txt
	expect_grep "^ *\+Hello There$" flexible.txt
	! grep -q "goodbye there" flexible.txt || false
	! grep -q "No newline" flexible.txt'

test_case 'file content diffs: newlines are lines, never \x0a; a check that passed is no difference' '
	sed -n "/core\/file /,/reproduce:/p" out > file.txt
	! grep -q "x0a" file.txt || false
	expect_grep "^ *content:$" file.txt
	expect_grep "^ *-c$" file.txt
	expect_grep "^ *\+b$" file.txt
	! grep -q "File exists" file.txt'

test_case 'a cut output says so in the listing' '
	run_assay run s -o res2 --case cut --stdout-cap 4 --color never; expect_exit 1
	expect_grep "output was cut at --stdout-cap" out'

test_case '-f jsonl without a path is a usage error before anything is made' '
	run_assay run s -o fresh -f jsonl; expect_exit 2
	expect_grep "jsonl needs a path" err
	[ ! -e fresh ]'

test_case 'run-case takes --color as run does' '
	run_assay run-case s --case regex --color always --format text; expect_exit 1
	grep -q "$(printf "\033")\[" out
	run_assay run-case s --case regex --color never --format text; expect_exit 1
	! grep -q "$(printf "\033")" out || false
	run_assay run-case s --case regex --color sometimes; expect_exit 2'

test_case 'input_files of a case merge with the group defaults by path' '
	jq -s -e "map(select(.id == \"merged\"))[0].results.output.is_correct" res/reports.jsonl'

test_case 'input_files: null drops the inherited list' '
	jq -s -e "map(select(.id == \"dropped\"))[0].results.output.is_correct" res/reports.jsonl'

test_done
