#!/usr/bin/env bash
# assay skill lint (issue #8 item 4): the deterministic checks grouped under the five
# convention_compliance keys, as a table or JSON; exit 1 on an error-severity failure.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

test_case 'a published skill passes the specification: exit 0, a table of the five keys' '
	run_assay skill lint "$SKILL_FIXTURES/published/verification-before-completion"; expect_exit 0
	expect_grep "^KEY +PASSED +DETAILS$" out
	for k in frontmatter description_field token_efficiency progressive_disclosure type_alignment; do
		expect_grep "^$k " out
	done
	expect_grep "^type_alignment +yes +no type declared$" out
	expect_grep "^0 errors, 0 warnings \(profile agentskills\)$" out'
test_case 'an error-severity failure exits 1 so CI can gate on it' '
	run_assay skill lint "$SKILL_FIXTURES/published/template"; expect_exit 1
	expect_grep "^error +NM4 +.*/template/SKILL.md:2: Directory name .template. must match skill name .template-skill.$" out
	expect_grep "^frontmatter +no +NM4 " out
	run_assay skill lint "$SKILL_FIXTURES/published/template" --name template-skill; expect_exit 0'
test_case 'the JSON has the convention_compliance object and every check' '
	run_assay skill lint "$SKILL_FIXTURES/broken/broken-refs" --json; expect_exit 1
	jq -e ".convention_compliance | keys_unsorted == [\"frontmatter\",\"description_field\",\"token_efficiency\",\"progressive_disclosure\",\"type_alignment\"]" out
	jq -e ".convention_compliance.progressive_disclosure.passed == false" out
	jq -e "[.checks[] | select(.passed == false and .severity == \"error\") | .message] == [\"link '\''references/missing.md'\'' does not resolve inside the skill\"]" out
	jq -e "[.checks[] | select(.passed == false and .id == \"PD1\") | [.severity, .line]] == [[\"error\", 8], [\"warning\", 8]]" out
	jq -e ".errors == 1 and .profile == \"agentskills\"" out'
test_case 'profiles change severities, not checks' '
	run_assay skill lint "$SKILL_FIXTURES/broken/claude-helper"; expect_exit 0
	expect_grep "^warning +NM5 " out
	run_assay skill lint "$SKILL_FIXTURES/broken/claude-helper" --profile claude-code; expect_exit 1
	expect_grep "^error +NM5 " out
	expect_grep "^error +FM8 " out
	run_assay skill lint "$SKILL_FIXTURES/published/brand-guidelines" --profile writing-skills; expect_exit 1
	expect_grep "^error +BD3 .*body is 664 words \(budget 500 for other skills\)$" out
	run_assay skill lint "$SKILL_FIXTURES/published/brand-guidelines" --profile writing-skills --budget-class frequently-loaded; expect_exit 1
	expect_grep "budget 200 for frequently-loaded" out'
test_case 'every broken fixture fails, with the line of its problem' '
	for d in "$SKILL_FIXTURES"/broken/*/; do
		case $d in */na*ve-skill/|*/claude-helper/) continue ;; esac
		run_assay skill lint "$d"; expect_exit 1
	done
	run_assay skill lint "$SKILL_FIXTURES/broken/bad-yaml"; expect_exit 1
	expect_grep "^error +FM2 +.*/bad-yaml/SKILL.md:3: Invalid YAML in frontmatter: " out'
test_case '--all lists passed checks; usage mistakes exit 2' '
	run_assay skill lint "$SKILL_FIXTURES/demo-skill" --all --profile writing-skills; expect_exit 0
	expect_grep "^ok +TA1 .*technique skill: has numbered steps$" out
	run_assay skill lint "$SKILL_FIXTURES/demo-skill" --profile nope; expect_exit 2
	run_assay skill lint /nonexistent; expect_exit 3'

test_done
