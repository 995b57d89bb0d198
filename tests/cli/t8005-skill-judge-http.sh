#!/usr/bin/env bash
# The chat-completions judge (issue #8 item 6b) against a loopback server started here
# (tests/skill/chat_server.c: 127.0.0.1 only, at most 20 requests, gone after 60 seconds):
# the wire format, the API key from the environment, retries after a server error, the cost
# from usage, the cache, and an endpoint that does not answer.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"
SERVER="$(dirname "$ASSAY")/assay-chat-server"

start_server() { # FAIL_FIRST
	rm -f port requests.log
	"$SERVER" port answer.json requests.log "$1" 20 &
	server_pid=$!
	for _ in $(seq 50); do [ -s port ] && break; sleep 0.1; done
	port=$(cat port)
}
stop_server() { # (at exit, server_pid may be unset: a test case's subshell started it)
	[ -n "${server_pid:-}" ] || return 0
	kill "$server_pid" 2>/dev/null || true
	wait "$server_pid" 2>/dev/null || true
}
trap 'stop_server; rm -rf "$TMP"' EXIT

printf '%s' '```json
{"results": [{"criterion": "frontmatter", "score": 5, "reasoning": "has it"},
 {"criterion": "token-efficiency", "score": 3, "reasoning": "barely"}],
 "user_notes_summary": "none"}
```' > answer.json

test_case 'the grader over HTTP: key, model, messages, a retry after HTTP 500, the cost' '
	start_server 1
	make_workspace
	set_config ".grader = {type: \"http\", base_url: \"http://127.0.0.1:$port/v1/\", model: \"test-model\", api_key_env: \"TEST_JUDGE_KEY\", retries: 2, backoff: 0.05, timeout: 10, price_in: 1.0, price_out: 2.0}"
	TEST_JUDGE_KEY=sekrit run_assay skill run ws --case case-01; expect_exit 0
	expect_grep "^case-01 +v0 run1  pass  4.0 " out
	expect_grep ", cost 0.0114;" out
	test "$(wc -l < requests.log)" = 2
	cut -f1 requests.log | sort -u > auth
	echo "Authorization: Bearer sekrit" > want
	test_cmp want auth
	tail -n 1 requests.log | cut -f2 > body.json
	jq -e ".model == \"test-model\" and .temperature == 0 and (.messages | map(.role)) == [\"system\", \"user\"]" body.json
	jq -e ".messages[1].content | contains(\"## Expectations\")" body.json
	jq -e ".results[0].score == 5 and .results[1].passed == true and .user_notes_summary == \"none\"" ws/grading/case-01_v0_run1.json
	run_assay skill check ws; expect_exit 0
	TEST_JUDGE_KEY=sekrit run_assay skill run ws --case case-01; expect_exit 0
	test "$(wc -l < requests.log)" = 2
	stop_server'
test_case 'without the key variable no Authorization header is sent' '
	start_server 0
	make_workspace
	set_config ".judge = {type: \"http\", base_url: \"http://127.0.0.1:$port/v1\", model: \"m\", api_key_env: \"UNSET_JUDGE_KEY\", retries: 0}"
	run_assay skill run ws --case case-01; expect_exit 0
	test "$(cut -f1 requests.log)" = ""
	stop_server'
test_case 'an endpoint that never answers well is a grading error after the retries' '
	start_server 20
	make_workspace
	set_config ".grader = {type: \"http\", base_url: \"http://127.0.0.1:$port/v1\", model: \"m\", retries: 1, backoff: 0}"
	run_assay skill run ws --case case-01; expect_exit 1
	expect_grep "grading error: grader: no valid answer after 2 tries: http://127.0.0.1:$port/v1/chat/completions: HTTP 500" out
	test "$(wc -l < requests.log)" = 2
	stop_server
	run_assay skill run ws --case case-01 --no-cache; expect_exit 1
	expect_grep "grading error: .*chat/completions: (Couldn.t connect|Connection refused|Could not connect)" out'

test_done
