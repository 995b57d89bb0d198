#!/usr/bin/env bash
# Issue #17 items 1 and 2: every reports.jsonl line assay writes for the fixture suites loads
# under the contract's VerifierReport and AttributeResult (tests/contract/verification_models.py,
# the models of verification.md as written: extra="forbid", weight >= 0, ...), and the score and
# verdict assay states for each case are the contract's calculate_score and did_pass of its
# results. Needs python3 with pydantic 2 (on this kind of machine, pip's; Debian 12 has only 1.10).
. "$(dirname "$0")/lib.sh"
CHECK="$ASSAY_SRC/tests/contract/check_reports.py"

python3 -c 'import pydantic, sys; sys.exit(int(pydantic.VERSION.split(".")[0]) < 2)' 2>/dev/null ||
	skip_optional "python3 with pydantic 2 is needed (the machine's pip has it; Debian 12 packages only pydantic 1)"

test_case 'the checker refuses a line with a key the contract forbids' '
	printf "%s\n" "{\"id\": \"c\", \"group\": \"g\", \"type\": \"Core\", \"duration\": 0, \"results\": {}, \"case\": {\"score\": 0.0, \"passed\": true}, \"score\": 1}" > bad.jsonl
	! python3 "$CHECK" bad.jsonl > msg || false
	grep -q "Extra inputs are not permitted" msg'

test_case 'the checker refuses a stated score that is not calculate_score' '
	printf "%s\n" "{\"id\": \"c\", \"group\": \"g\", \"type\": \"Core\", \"duration\": 0, \"results\": {\"output\": {\"attribute\": \"output\", \"actual\": \"a\", \"expected\": \"b\", \"is_correct\": false, \"weight\": 1.0}}, \"case\": {\"score\": 0.6, \"passed\": false}}" > bad.jsonl
	! python3 "$CHECK" bad.jsonl > msg || false
	grep -q "calculate_score 0.0" msg'

for suite in basic verifiers failing workdir api mutate; do
	test_case "every line of the $suite suite's reports.jsonl is a VerifierReport" "
		run_assay run \"\$FIXTURES/suites/$suite\" -o res-$suite --plugin \"\$(dirname \"\$ASSAY\")/assay-plugin-line-set.so\"
		[ \"\$code\" = 0 ] || [ \"\$code\" = 1 ]
		python3 \"\$CHECK\" res-$suite/reports.jsonl"
done

test_case "every line of examples/config-migrate's reports.jsonl, solution and broken submission, is a VerifierReport" '
	cp -r "$ASSAY_SRC/examples/config-migrate" cm
	cp "$(dirname "$ASSAY")/assay-plugin-line-set.so" cm/plugins/line_set.so
	run_assay run cm -o res-cm; expect_exit 0
	run_assay run cm -o res-cmb --submission cm/solution-broken; expect_exit 1
	python3 "$CHECK" res-cm/reports.jsonl res-cmb/reports.jsonl'

test_case 'format_result: assay show --format-result gives what the model gives' '
	run_assay run "$FIXTURES/suites/verifiers" -o res --plugin "$(dirname "$ASSAY")/assay-plugin-line-set.so"
	python3 "$CHECK" --format-result res/reports.jsonl > want.json
	jq -e ".[\"checkpoint_1/core/numeric-partial\"] == {output: \"F\"}" want.json
	run_assay show res "checkpoint_1/core/numeric-partial" --format-result; expect_exit 0
	jq -e ". == {output: \"F\"}" out
	# every case of the verifiers and basic suites: assay'"'"'s map is the model'"'"'s
	for r in res res-basic; do
		python3 "$CHECK" --format-result $r/reports.jsonl > want.json
		n=0
		for k in $(jq -r "keys[]" want.json); do
			run_assay show $r "$k" --format-result; expect_exit 0
			jq -e --arg k "$k" --slurpfile w want.json ". == \$w[0][\$k]" out >/dev/null
			n=$((n + 1))
		done
		[ "$n" -ge 9 ] && [ "$n" = "$(jq "keys | length" want.json)" ]
	done'

test_done
