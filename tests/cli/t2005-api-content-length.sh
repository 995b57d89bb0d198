#!/usr/bin/env bash
# Issue #17 item 6: HTTP as clients send it. A POST, PUT or PATCH without a body says
# `Content-Length: 0` (as httpx does), so a stateful suite against a server on Python's
# http.server that refuses bodies without a length passes in full, and header names are
# compared without regard to case.
. "$(dirname "$0")/lib.sh"
SUITE="$FIXTURES/suites/api-stateful"

require_cmd python3

test_case 'a stateful suite against a server that refuses bodies without a length passes' '
	run_assay run "$SUITE" -o res -j 1; expect_exit 0
	jq -se "length == 3 and all(.case.passed)" res/reports.jsonl'

test_case 'a PUT without a body is accepted too, and the POSTs left empty items' '
	cp -r "$SUITE" s
	cat > s/checkpoint_1/core/d-echo.yaml <<-EOF
	method: PUT
	path: /items
	expected:
	  status_code: 200
	  output: {count: 1}
	EOF
	run_assay run s -o res -j 1; expect_exit 0
	jq -se "map(select(.id == \"c-count\"))[0].results.output.actual.items == [\"(empty)\", \"(empty)\"]" res/reports.jsonl'

test_done
