#!/usr/bin/env bash
# The Anthropic Messages API judge (issue 20 item 6) against a loopback server started here
# (tests/skill/anthropic_server.py: 127.0.0.1 only, gone after 60 seconds): the wire format
# (x-api-key, anthropic-version, system apart from the messages, content blocks), retries
# after a server error, the cost from usage, the cache, an error reply named.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 0; }

start_server() { # FAIL_FIRST MAX_REQUESTS
	rm -f port requests.log
	python3 "$SKILL_TESTS/anthropic_server.py" port answer.json requests.log "$1" "${2:-20}" &
	server_pid=$!
	for _ in $(seq 100); do [ -s port ] && break; sleep 0.1; done
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

test_case 'the grader over the Messages API: headers, body, content blocks, a retry, the cost' '
	start_server 1
	make_workspace
	set_config ".grader = {type: \"anthropic\", base_url: \"http://127.0.0.1:$port/\", model: \"claude-test\", api_key_env: \"TEST_ANTHROPIC_KEY\", retries: 2, backoff: 0.05, timeout: 10, price_in: 1.0, price_out: 2.0}"
	TEST_ANTHROPIC_KEY=sekrit run_assay skill run ws --case case-01; expect_exit 0
	expect_grep "^case-01 +v0 run1  pass  4.0 " out
	# executor 0.01 + (1000 + 100 input tokens at 1.0 + 200 output tokens at 2.0) per million
	expect_grep ", cost 0.0115;" out
	test "$(wc -l < requests.log)" = 2
	cut -f1-3 requests.log | sort -u > got
	printf "sekrit\t2023-06-01\t/v1/messages\n" > want
	test_cmp want got
	tail -n 1 requests.log | cut -f4 > body.json
	jq -e ".model == \"claude-test\" and .temperature == 0 and (.max_tokens | type) == \"number\" and (.system | test(\"grader\")) and (.messages | map(.role)) == [\"user\"]" body.json
	jq -e ".messages[0].content | contains(\"## Expectations\")" body.json
	jq -e ".results[0].score == 5 and .results[1].passed == true and .user_notes_summary == \"none\"" ws/grading/case-01_v0_run1.json
	run_assay skill check ws; expect_exit 0
	# the cache answers the same question again: no request
	TEST_ANTHROPIC_KEY=sekrit run_assay skill run ws --case case-01; expect_exit 0
	test "$(wc -l < requests.log)" = 2
	stop_server'
test_case 'the default key variable is ANTHROPIC_API_KEY; unset, no key is sent' '
	start_server 0
	make_workspace
	set_config ".judge = {type: \"anthropic\", base_url: \"http://127.0.0.1:$port\", model: \"m\", retries: 0}"
	ANTHROPIC_API_KEY=k2 run_assay skill run ws --case case-01; expect_exit 0
	test "$(cut -f1 requests.log)" = k2
	unset ANTHROPIC_API_KEY
	run_assay skill run ws --case case-02 --no-cache; expect_exit 0
	test "$(wc -l < requests.log)" = 2
	test "$(tail -n 1 requests.log | cut -f1)" = ""
	stop_server'
test_case 'an endpoint that fails every try is a grading error naming the reply' '
	start_server 20
	make_workspace
	set_config ".grader = {type: \"anthropic\", base_url: \"http://127.0.0.1:$port\", model: \"m\", retries: 1, backoff: 0}"
	run_assay skill run ws --case case-01; expect_exit 1
	expect_grep "grading error: grader: no valid answer after 2 tries: http://127.0.0.1:$port/v1/messages: HTTP 500: .*try again" out
	test "$(wc -l < requests.log)" = 2
	stop_server'
test_case 'an anthropic judge without a model is refused at load' '
	make_workspace
	set_config ".judge = {type: \"anthropic\"}"
	run_assay skill run ws --case case-01; expect_exit 3
	expect_grep "the anthropic judge needs a model" err'

test_done
