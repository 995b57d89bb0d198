#!/usr/bin/env bash
# One rounding for every report (review finding): 9 of 16 cases is 56.25%, which the terminal,
# Markdown and `assay compare` printed as 56.2% (printf's tie to even) and the HTML report and
# the compare page as 56.3% (toFixed). Every report now rounds a tie up (docs/reports.md,
# "Rounding"): 56.3% everywhere, and a change of 43.75 points is +43.8 in the text and the page.
. "$(dirname "$0")/lib.sh"

CDP="$ASSAY_SRC/tests/report/cdp.mjs"

# suite DIR PASSING: 16 cases c10..c25, the first PASSING of them pass
suite() {
	mkdir -p "$1/c/g"
	printf "name: r\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" \
		> "$1/suite.yaml"
	for i in $(seq 10 25); do
		o=no; [ "$i" -lt $((10 + $2)) ] && o=ok
		printf "arguments: [\"echo %s\"]\nexpected: {output: \"ok\\\\n\"}\n" "$o" > "$1/c/g/c$i.yaml"
	done
}

setup() {
	cd "$(mktemp -d -p "$TMP")"
	suite a 9; suite b 16
	run_assay run a -o ra --format markdown --format html; expect_exit 1
	cp out term.txt
	run_assay run b -o rb -q; expect_exit 0
}

test_case 'terminal and Markdown: 9 of 16 is 56.3%' '
	setup
	expect_grep "^total .* 9 *16 *56\\.3%" term.txt
	! grep -q "56\\.2" term.txt || false
	expect_grep "| \\*\\*all\\*\\* | 9 | 7 | 0 | 16 | 56\\.3% |" ra/summary.md
	! grep -q "56\\.2" ra/summary.md || false'

test_case 'assay compare text: 56.3% and a change of +43.8 points' '
	setup
	run_assay compare ra rb; expect_exit 0
	expect_grep "^pass rate  *56\\.3% *100\\.0% *[+]43\\.8% " out'

test_case 'the HTML report and the compare page in Chromium: the same digits' '
	setup
	require_cmd chromium node
	run_assay compare ra rb --format html -o cmp.html; expect_exit 0
	echo "(() => document.getElementById(\"rate\").textContent)()" > rate.js
	node "$CDP" "file://$PWD/ra/report.html" rate.js > rate.json
	[ "$(cat rate.json)" = "\"56.3%\"" ]
	cat > cmp.js <<-\JS
	(() => ({
	  cells: [...document.querySelectorAll("#stats tr.measure[data-measure=pass_rate] td")].map((td) => td.textContent),
	  group: document.querySelector("#chart-groups g.bar").textContent }))()
	JS
	node "$CDP" "file://$PWD/cmp.html" cmp.js > cmp.json
	cat cmp.json
	jq -e ".cells[1] == \"56.3%\" and .cells[2] == \"100.0%\" and .cells[3] == \"+43.8%\"" cmp.json
	jq -e ".group | contains(\"56.3% \\u2192 100.0% (+43.8 pts)\")" cmp.json'

test_done
