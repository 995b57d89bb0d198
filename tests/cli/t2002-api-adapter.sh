#!/usr/bin/env bash
# The api adapter: a server per group (Python's http.server, loopback, free ports), requests,
# status/JSON/header verdicts, servers that never get ready, die, or will not stop, timeouts,
# retries, and the network confinement of a server.
. "$(dirname "$0")/lib.sh"

[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"
SUITE="$FIXTURES/suites/api"
APP="/usr/bin/python3 app.py {address} {port}"

# extra SUITE_DIR: a copy of the fixture with one more group, `extra`, whose cases the test
# writes into extra/checkpoint_1/extra/.
extra() {
	rm -rf extra && cp -r "$SUITE" extra
	sed -i "s/      failing: {type: Functionality}/&\n      extra: {type: Functionality}/" extra/suite.yaml
	mkdir -p extra/checkpoint_1/extra
}

test_case 'a passing and a failing api suite: status, JSON body and header verdicts' '
	run_assay run "$SUITE" -o res; expect_exit 1
	jq -se "map(select(.group == \"core\") | .case.passed) | all and length == 4" res/reports.jsonl
	jq -se "map(select(.group == \"failing\") | .case.passed) | any | not" res/reports.jsonl
	expect_grep "status_code: expected 200, got 201" out
	expect_grep "output: root\[.status.\]: expected 201, got 200" out
	expect_grep "headers: root\[.content-type.\]: expected \"application/json\", got \"text/plain\"" out
	expect_grep "^4 of 7 cases passed" out
	# what the server prints after an answer shows in that case'"'"'s log or the next one'"'"'s
	jq -se "map(select(.group == \"core\"))[0:2] | map(.case.execution.log // \"\") | add | test(\"served POST /echo\")" res/reports.jsonl
	# a request has no process figures: no zeros pretending to be a program'"'"'s
	jq -se "map(.case.execution | has(\"exit_code\") or has(\"max_rss\") or has(\"sandbox\")) | any | not" res/reports.jsonl'
test_case 'the report of an api case: case.type, parsed output, lower-case headers, the server log' '
	run_assay run "$SUITE" -o res --case echo-post; expect_exit 0
	jq -e ".case.type == \"api\" and .type == \"Core\"" res/reports.jsonl
	jq -e ".results.output.actual.json == {name: \"Ada\", tags: [\"x\", \"y\"]}" res/reports.jsonl
	jq -e ".results.output.actual.query == {q: [\"a b\"], n: [\"1\", \"2\"], flag: [\"True\"]}" res/reports.jsonl
	jq -e ".results.headers.actual[\"content-type\"] == \"application/json\" and .results.headers.actual[\"x-served\"] == \"1\"" res/reports.jsonl
	jq -e ".results.headers.expected == {\"content-type\": \"application/json\"}" res/reports.jsonl
	jq -e ".results.status_code.actual == 200" res/reports.jsonl
	jq -e ".case.execution.log | test(\"listening on 127.0.0.1:[0-9]+\")" res/reports.jsonl'
test_case 'run-case shows an api case' '
	run_assay run-case "$SUITE" --case not-found --full; expect_exit 0
	jq -e ".[0].results.status_code.actual == 404" out'
test_case 'a server that never answers fails its cases with the reason, in bounded time' '
	extra
	sed -i "s/startup_timeout: 10/startup_timeout: 1/" extra/suite.yaml
	start=$(date +%s)
	run_assay run extra -o res --entry "$APP never-ready" --group core; expect_exit 1
	[ $(( $(date +%s) - start )) -lt 8 ]
	jq -se "length == 4 and all(.case.execution.message | test(\"did not answer GET / on http://127.0.0.1:[0-9]+ within 1 second\"))" res/reports.jsonl
	jq -se "map(select(.id == \"echo-post\"))[0].results | [.status_code, .output, .headers] | all(.diff == \"no value: nothing ran, or no answer was received\" and .actual == null)" res/reports.jsonl
	jq -se ".[0].case.execution.log | test(\"never listening\")" res/reports.jsonl
	# the listing gives the reason alone: no request was sent, no attribute has a value
	expect_grep "did not answer GET / on http://127.0.0.1:[0-9]* within 1 second" out
	if grep -n "no value" out; then false; fi
	# a limit alone cannot pass when nothing was measured
	printf "path: /\nexpected: {execution_time: {max: 5}}\n" > extra/checkpoint_1/core/zz-limit.yaml
	run_assay run extra -o res2 --entry "$APP never-ready" --case zz-limit; expect_exit 1
	jq -e ".case.passed == false and (.results.execution_time.diff | test(\"not measured\"))" res2/reports.jsonl'
test_case 'a server that dies mid-group fails the rest of its group; the next group gets a new one' '
	run_assay run "$SUITE" -o res --entry "$APP die-after 1"; expect_exit 1
	jq -se "map(select(.group == \"core\")) | .[0].case.passed and (.[1:] | all(.case.passed | not))" res/reports.jsonl
	jq -se "map(select(.group == \"core\"))[1:] | all(.case.execution.message | test(\"the server exited with status 3 (before|during) case\"))" res/reports.jsonl
	# what it printed as it died is in the log of the case that saw it die, or of the one before
	jq -se "map(select(.group == \"core\"))[0:2] | map(.case.execution.log // \"\") | add | test(\"dying on purpose\")" res/reports.jsonl
	# the failing group: a fresh server answers its first case (wrong on purpose, not an error)
	jq -se "map(select(.group == \"failing\"))[0] | (.case.execution.message == null) and .results.output.actual.status == 200" res/reports.jsonl'
test_case 'a server that ignores SIGTERM and forks does not outlive its group (sandbox on and off)' '
	marker="assay-api-stubborn-$$-$RANDOM"
	for mode in on off; do
		run_assay run "$SUITE" -o res --entry "$APP stubborn $marker" --sandbox $mode --group core
		expect_exit 0
		if pgrep -f "$marker"; then echo "processes survived ($mode)"; exit 1; fi
	done'
test_case 'a chatty server is read while it starts; the log keeps the last 16 KiB' '
	run_assay run "$SUITE" -o res --entry "$APP chatty" --case echo-post; expect_exit 0
	jq -e ".case.execution.log | test(\"^server stdout:\\n\\\\[[.][.][.] [0-9]+ bytes before\\\\]\") and test(\"line 19999 of a chatty\")" res/reports.jsonl'
test_case 'a request past its timeout: status_code -1, timed_out, in about the timeout' '
	extra
	printf "path: /slow\nquery: {s: 5}\ntimeout: 0.5\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/slow.yaml
	start=$(date +%s)
	run_assay run extra -o res --group extra; expect_exit 1
	[ $(( $(date +%s) - start )) -lt 4 ]
	jq -e ".results.status_code.actual == -1 and .case.execution.status == \"timed_out\" and .case.execution.limit == \"timeout\"" res/reports.jsonl
	jq -e ".case.execution.message == \"timed out after 0.5 seconds\"" res/reports.jsonl'
test_case 'retries: connection errors are tried again, as many times as asked' '
	extra
	printf "path: /flaky\nquery: {key: a, fail: 2}\nretries: 2\nexpected: {status_code: 200, output: {attempts: 3}}\n" > extra/checkpoint_1/extra/enough.yaml
	printf "path: /flaky\nquery: {key: b, fail: 2}\nretries: 1\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/too-few.yaml
	run_assay run extra -o res --group extra; expect_exit 1
	jq -se "map({(.id): .case.passed}) | add == {enough: true, \"too-few\": false}" res/reports.jsonl
	jq -se "map(select(.id == \"too-few\"))[0].case.execution.message | test(\"no answer from the server at http://127.0.0.1:[0-9]+ [(]2 attempts[)]\")" res/reports.jsonl'
test_case 'network off: a server binds its own port but cannot connect to another loopback port' '
	"$ASSAY_TEST_TOOL" listen portfile 60 & listener=$!
	for i in $(seq 50); do [ -s portfile ] && break; sleep 0.1; done
	port=$(cat portfile)
	extra
	printf "path: /connect\nquery: {port: $port}\nexpected: {output: {connect: refused}}\nverify: {output: {verifier: json, ignore_extra_keys: true}}\n" > extra/checkpoint_1/extra/attack.yaml
	run_assay run extra -o res --group extra --sandbox required; expect_exit 0
	jq -e ".results.output.actual.error | test(\"Permission denied\")" res/reports.jsonl
	[ ! -s portfile.log ]
	# the attack itself works: with the network on it connects
	run_assay run extra -o res --group extra --network on; expect_exit 1
	jq -e ".results.output.actual.connect == \"connected\"" res/reports.jsonl
	kill $listener; wait $listener || true
	expect_grep connected portfile.log'
test_case 'the server runs in <group>/.server with the submission, writes nowhere else, gets the adapter env' '
	extra
	sed -i "s/  timeout: 5/  timeout: 5\n  env: {FROM_ADAPTER: hello}/" extra/suite.yaml
	printf "path: /env\nenv: {CASE_ONLY: x}\nexpected: {output: {cwd: .server, home_is_cwd: true, has_app: true, wrote_outside: false, case_env: null, group_env: hello}}\n" > extra/checkpoint_1/extra/env.yaml
	run_assay run extra -o res --group extra --sandbox required; expect_exit 0
	# without the sandbox the same write works: the check can fail
	run_assay run extra -o res --group extra --sandbox off; expect_exit 1
	jq -e ".results.output.actual.wrote_outside == true" res/reports.jsonl'
test_case 'a fixed adapter.port another program holds fails the group, never asks that program' '
	"$ASSAY_TEST_TOOL" listen portfile2 60 & listener=$!
	for i in $(seq 50); do [ -s portfile2 ] && break; sleep 0.1; done
	extra
	sed -i "s/  timeout: 5/  timeout: 5\n  port: $(cat portfile2)/" extra/suite.yaml
	run_assay run extra -o res --group core; expect_exit 1
	kill $listener; wait $listener || true
	jq -se "length == 4 and all(.case.execution.message | test(\"adapter.port [0-9]+ on 127.0.0.1 cannot be had: Address already in use\"))" res/reports.jsonl
	[ ! -s portfile2.log ]
	# free again: the fixed port serves
	run_assay run extra -o res --group core; expect_exit 0'
test_case 'the api keys of suite.yaml are checked at load, located' '
	extra
	sed -i "s/startup_timeout: 10/startup_timeout: -1/" extra/suite.yaml
	run_assay run extra -o res; expect_exit 3
	expect_grep "suite.yaml:[0-9]+:[0-9]+: adapter.startup_timeout must be a number of seconds > 0" err
	extra
	sed -i "s/response_is_json: true/response_is_json: true\n  address: localhost/" extra/suite.yaml
	run_assay run extra -o res; expect_exit 3
	expect_grep "adapter.address must be an IP address .127.0.0.1, ::1., not .localhost." err'
test_case 'a case with a bad api key is an error of that case, the rest runs' '
	extra
	printf "method: \"GE T\"\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/bad-method.yaml
	printf "path: /\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/good.yaml
	run_assay run extra -o res --group extra; expect_exit 1
	jq -se "map({(.id): .case.passed}) | add == {\"bad-method\": false, good: true}" res/reports.jsonl
	jq -se "map(select(.id == \"bad-method\"))[0].case.error | test(\"bad-method.yaml:1:[0-9]+: method must be an HTTP method\")" res/reports.jsonl'
test_case 'a hostile answer cannot exhaust assay: thousands of headers, a body past the cap' '
	extra
	printf "path: /many-headers\nquery: {n: 20000}\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/headers.yaml
	printf "path: /big\nquery: {n: 3000000}\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/big.yaml
	printf "path: /same-header\nquery: {n: 40000}\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/same.yaml
	start=$(date +%s)
	run_assay run extra -o res --group extra --stdout-cap 1000; expect_exit 0
	[ $(( $(date +%s) - start )) -lt 10 ]
	jq -se "map(select(.id == \"headers\"))[0].results.headers.actual | length == 1000" res/reports.jsonl
	jq -se "map(select(.id == \"big\"))[0].results.output.actual | length == 1000" res/reports.jsonl
	# one header 40,000 times: joined once (it cost the square of the repeats, gigabytes)
	run_assay show res same -a headers --value actual; expect_exit 0
	jq -e ".a | startswith(\", , , \")" out'
test_case '--accept writes a parsed JSON body into the case; headers it leaves to you' '
	extra
	run_assay run extra -o res --group failing --accept --yes; expect_exit 1
	grep -q "status.: 200" extra/checkpoint_1/failing/wrong-body.yaml
	grep -q "status_code: 201" extra/checkpoint_1/failing/wrong-status.yaml
	expect_grep "headers: its verifier ignores extra keys" out
	run_assay run extra -o res --group failing --case "wrong-[bs]*"; expect_exit 0'
# (a new user's trial: the reports' reproduce line of an api case ran it alone, with --case, on
# a fresh server, without the requests of its group that made the state it failed in; it passed)
test_case 'the reports reproduce an api case by its group, which builds the state it failed in' '
	extra
	printf "path: /echo\nexpected: {status_code: 200}\n" > extra/checkpoint_1/extra/a-first.yaml
	printf "path: /echo\nexpected: {headers: {x-served: \"1\"}}\n" > extra/checkpoint_1/extra/b-second.yaml
	run_assay run extra -o res --group extra --format tap --format markdown; expect_exit 1
	expect_grep "headers: root\[.x-served.\]: expected \"1\", got \"2\"" out
	line="assay run-case $PWD/extra --group checkpoint_1/extra"
	for f in report.tap summary.md; do
		grep -qF -- "$line" "res/$f" || { grep -o "assay run-case[^\"]*" "res/$f"; false; }
	done
	# pasted, it fails as the run did
	run_assay ${line#assay } --format text; expect_exit 1
	expect_grep "FAIL checkpoint_1/extra/b-second" out
	expect_grep "expected \"1\", got \"2\"" out'
test_done
