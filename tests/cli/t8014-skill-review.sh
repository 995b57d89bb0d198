#!/usr/bin/env bash
# assay skill review (issue 20 item 4): one static HTML page (no server, network or CDN) to
# read each case, each run's outputs, transcript and grades with their evidence, the
# comparisons and analyses, and to leave feedback per run; with --serve the page saves it as
# feedback.json. Tested in headless Chromium: loaded, navigated, feedback typed and saved (the
# DevTools protocol, tests/skill/review_driver.mjs), the saved JSON checked against
# tests/skill/feedback.schema.json by assay's own json_schema verifier.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

# nasty_workspace: the demo workspace, its runs' outputs holding markup.
nasty_workspace() {
	make_workspace
	cat > nasty.sh <<-SH
	#!/bin/sh
	"$SKILL_TESTS/executor.sh"
	printf '</script><b>x</b><script>alert(1)</script>\n' > outputs/nasty.md
	SH
	chmod +x nasty.sh
	set_config ".executor.command = [\"$PWD/nasty.sh\"]"
	run_assay skill run ws; expect_exit 1
}

# check_schema FILE: FILE is valid under tests/skill/feedback.schema.json (draft-07).
check_schema() {
	rm -rf schema-suite && mkdir -p schema-suite/c1/g schema-suite/sub
	cp "$1" schema-suite/sub/doc.json
	printf "name: schema\nadapter:\n  type: cli\n  command: [cat, doc.json]\n  submission: sub\ncheckpoints:\n  c1:\n    groups:\n      g: {type: Core}\n" > schema-suite/suite.yaml
	{ echo "expected:"; echo "  output: |"; sed "s/^/    /" "$SKILL_TESTS/feedback.schema.json"; echo "verify:"; echo "  output: json_schema"; } > schema-suite/c1/g/feedback.yaml
	"$ASSAY" run schema-suite -q
}

test_case 'the page is one file, needs no network, and no output becomes markup' '
	nasty_workspace
	run_assay skill review ws; expect_exit 0
	test "$(cat out)" = "ws/review.html"
	! grep -Eiq "(src|href)=[\"'"'"']?(https?:)?//" ws/review.html || false
	# no CSS import or url(): the page script may say URL.createObjectURL
	! grep -Eiq "@import|(^|[^a-z])url\(" ws/review.html || false
	! grep -q "</script><b>" ws/review.html || false
	grep -qF "\\u003c/script>\\u003cb>x" ws/review.html
	run_assay skill review ws -o elsewhere.html; expect_exit 0
	test -f elsewhere.html'
test_case 'loaded from the file in Chromium: no console error; runs, comparisons, analysis shown' '
	require_cmd chromium
	nasty_workspace
	sed -i "s/^provides: frontmatter$/provides: frontmatter, token-efficiency/" demo-skill/SKILL.md
	run_assay skill snapshot ws -d better; expect_exit 0
	run_assay skill run ws --baseline; expect_exit 0
	run_assay skill compare ws v0 v1; expect_exit 0
	run_assay skill review ws; expect_exit 0
	timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--user-data-dir="$TMP/chrome1" --dump-dom "file://$PWD/ws/review.html" > dom.html 2>chrome.err
	! grep -E "CONSOLE.*(Uncaught|Error|error)" chrome.err || false
	grep -q "data-ready=\"yes\"" dom.html
	grep -q "id=\"case-title\">case-01<" dom.html
	! grep -q "<b>x</b>" dom.html || false
	grep -q "scripted: looked for frontmatter: ok" dom.html
	# both versions'"'"' runs of the case, the comparisons and the analysis
	test "$(grep -o "<section class=\"run\"" dom.html | wc -l)" = 3
	grep -q "<h3 class=\"fail\">without the skill run 1: fail 2" dom.html
	grep -q "<summary>v0_vs_v1.json</summary>" dom.html
	grep -q "<summary>case-01_v0_vs_v1_run1_order1.json</summary>" dom.html
	grep -q "winner_version" dom.html'
test_case 'served: navigate, give feedback, save; feedback.json checked against its schema' '
	require_cmd chromium node
	node --experimental-websocket -e "if (typeof WebSocket !== \"function\") process.exit(1)" 2>/dev/null ||
		skip_optional "node has no WebSocket (node 20.10 or later drives Chromium here)"
	nasty_workspace
	"$ASSAY" skill review ws --serve > serve.out 2>&1 &
	spid=$!
	trap "kill $spid 2>/dev/null || true" EXIT # a failing step must not leave the server running
	# the whole line: the file may be read while it is written
	for _ in $(seq 200); do grep -q "^serving http.*Ctrl-C stops)$" serve.out && break; sleep 0.05; done
	url=$(sed -n "s/^serving \(http[^ ]*\) .*/\1/p" serve.out)
	test -n "$url"
	st=0; node --experimental-websocket "$SKILL_TESTS/review_driver.mjs" "$url" "$TMP/chrome2" > drive.json || st=$?
	cat drive.json
	test $st = 0
	jq -e ".cases == [\"case-01\", \"case-02\"] and .first == \"case-01\" and .runs_shown == 1 and .grades == 3 and .prompt == \"Create a skill for managing Docker deployments\"" drive.json
	jq -e ".second == \"case-02\" and .hash == \"#case=case-02\" and .back == \"case-01\" and .kept == \"too long: cut the summary\"" drive.json
	jq -e ".markup == 0 and .status == \"saved\" and .errors == []" drive.json
	f=ws/feedback.json
	jq -e ".status == \"complete\" and ([.reviews[].run_id] | sort) == [\"case-01/v0/run1\", \"case-02/v0/run1\"]" $f
	jq -e ".reviews[] | select(.run_id == \"case-02/v0/run1\") | .case_id == \"case-02\" and .version == 0 and .run == 1 and .feedback == \"too long: cut the summary\"" $f
	check_schema $f
	# the page served again shows what was saved
	python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())" "$url" > again.html
	grep -q "too long: cut the summary" again.html
	kill $spid; wait $spid 2>/dev/null || true'
test_case 'the feedback endpoint refuses other origins, other media types and bad JSON' '
	require_cmd python3
	nasty_workspace
	"$ASSAY" skill review ws --serve > serve.out 2>&1 &
	spid=$!
	trap "kill $spid 2>/dev/null || true" EXIT # a failing step must not leave the server running
	# the whole line: the file may be read while it is written
	for _ in $(seq 200); do grep -q "^serving http.*Ctrl-C stops)$" serve.out && break; sleep 0.05; done
	url=$(sed -n "s/^serving \(http[^ ]*\) .*/\1/p" serve.out)
	post() { # BODY CONTENT_TYPE [ORIGIN]: prints the status
		python3 - "$url" "$1" "$2" "${3:-}" <<-PY
		import sys, urllib.request, urllib.error
		url, body, ctype, origin = sys.argv[1:5]
		h = {"Content-Type": ctype}
		if origin: h["Origin"] = origin
		try:
		    print(urllib.request.urlopen(urllib.request.Request(url + "feedback", body.encode(), h)).status)
		except urllib.error.HTTPError as e:
		    print(e.code)
		PY
	}
	good="{\"reviews\": [{\"run_id\": \"case-01/v0/run1\", \"feedback\": \"fine\", \"timestamp\": \"2026-01-01T00:00:00Z\"}], \"status\": \"complete\"}"
	test "$(post "$good" application/json "http://evil.example")" = 403
	test "$(post "$good" text/plain)" = 415
	test ! -e ws/feedback.json
	test "$(post "{not json" application/json)" = 400
	test "$(post "{\"reviews\": [{\"run_id\": \"../../etc\", \"feedback\": \"x\"}]}" application/json)" = 400
	test ! -e ws/feedback.json
	test "$(post "$good" application/json "${url%/}")" = 200
	jq -e ".reviews == [{\"run_id\": \"case-01/v0/run1\", \"case_id\": \"case-01\", \"version\": 0, \"run\": 1, \"feedback\": \"fine\", \"timestamp\": \"2026-01-01T00:00:00Z\"}]" ws/feedback.json
	check_schema ws/feedback.json
	base="{\"reviews\": [{\"run_id\": \"case-01/without_skill/run1\", \"feedback\": \"as expected\"}], \"status\": \"complete\"}"
	test "$(post "$base" application/json)" = 200
	jq -e ".reviews[0] | .run_id == \"case-01/without_skill/run1\" and .version == null and .run == 1 and .case_id == \"case-01\"" ws/feedback.json
	check_schema ws/feedback.json
	kill $spid; wait $spid 2>/dev/null || true'

test_done
