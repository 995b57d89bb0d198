#!/usr/bin/env bash
# `assay skill review --serve` against hostile clients (review findings; docs/security.md,
# "assay skill review --serve"): a client that sends `GET /` and never reads could hold the
# one-connection-at-a-time server forever (only the request had a deadline): each connection
# now has 10 s in all. Any Host was answered, so a site whose name was rebound to 127.0.0.1
# could read the page: only 127.0.0.1:PORT and localhost:PORT are, 403 otherwise. The POST's
# Content-Type was a prefix match (application/jsonp was taken): the media type must match.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"

require_cmd python3

# start: 40 runs whose transcript and outputs are 64 KiB each (a 5 MiB page, more than the
# socket buffers hold for a client that reads nothing), served; sets $port and $spid
start() {
	cd "$(mktemp -d -p "$TMP")"
	make_workspace
	cat > big.sh <<-SH
	#!/bin/sh
	"$SKILL_TESTS/executor.sh"
	head -c 65536 /dev/zero | tr "\\\\0" x
	head -c 65536 /dev/zero | tr "\\\\0" y > outputs/big.txt
	SH
	chmod +x big.sh
	set_config ".executor.command = [\"$PWD/big.sh\"]"
	run_assay skill run ws --runs 20 -j 2
	: > serve.out
	"$ASSAY" skill review ws --serve > serve.out 2>&1 &
	spid=$!
	trap 'kill "$spid" 2>/dev/null || true' EXIT # a failed check ends the test case's subshell
	for _ in $(seq 200); do grep -q "^serving http" serve.out && break; sleep 0.05; done
	port=$(sed -n "s/^serving http:\/\/127\.0\.0\.1:\([0-9]*\)\/ .*/\1/p" serve.out)
	test -n "$port"
}

stop() {
	kill "$spid"; wait "$spid" 2>/dev/null || true
}

# http REQUEST_HEAD [BODY]: sends the request (\n becomes \r\n), prints the status, or "none"
# when no answer came within 30 s
http() {
	python3 - "$port" "$1" "${2:-}" <<-\PY
	import socket, sys
	port, head, body = int(sys.argv[1]), sys.argv[2], sys.argv[3].encode()
	s = socket.create_connection(("127.0.0.1", port), timeout=30)
	req = head.replace("\\n", "\r\n")
	if body: req += "Content-Length: %d\r\n" % len(body)
	s.sendall(req.encode() + b"\r\n" + body)
	data = b""
	try:
	    while True:
	        c = s.recv(65536)
	        if not c: break
	        data += c
	except socket.timeout:
	    pass
	print(data.split(b" ")[1].decode() if data.startswith(b"HTTP/1.1 ") else "none")
	PY
}

test_case 'a client that never reads the page does not hold the server' '
	start
	[ "$(stat -c %s ws/review.html)" -gt 5000000 ]
	# asks for the page with a tiny receive buffer, then reads nothing for 40 s
	python3 - "$port" > stalled.out 2>&1 <<-\PY &
	import socket, sys, time
	s = socket.socket()
	s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
	s.connect(("127.0.0.1", int(sys.argv[1])))
	s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:" + sys.argv[1].encode() + b"\r\n\r\n")
	print("sent", flush=True)
	time.sleep(40)
	PY
	stalled=$!
	for _ in $(seq 100); do grep -q sent stalled.out && break; sleep 0.05; done
	sleep 1
	t0=$(date +%s)
	[ "$(http "GET / HTTP/1.1\nHost: 127.0.0.1:$port\n")" = 200 ]
	[ $(( $(date +%s) - t0 )) -le 20 ]
	kill $stalled 2>/dev/null; wait $stalled 2>/dev/null || true
	stop'

test_case 'only Host 127.0.0.1:PORT or localhost:PORT is answered' '
	start
	[ "$(http "GET / HTTP/1.1\nHost: 127.0.0.1:$port\n")" = 200 ]
	[ "$(http "GET / HTTP/1.1\nHost: localhost:$port\n")" = 200 ]
	[ "$(http "GET / HTTP/1.1\nHost: rebound.example:$port\n")" = 403 ]
	[ "$(http "GET / HTTP/1.1\nHost: 127.0.0.1\n")" = 403 ]
	[ "$(http "GET / HTTP/1.0\n")" = 403 ]
	good="{\"reviews\": [{\"run_id\": \"case-01/v0/run1\", \"feedback\": \"fine\"}], \"status\": \"complete\"}"
	[ "$(http "POST /feedback HTTP/1.1\nHost: rebound.example:$port\nContent-Type: application/json\n" "$good")" = 403 ]
	test ! -e ws/feedback.json
	[ "$(http "POST /feedback HTTP/1.1\nHost: localhost:$port\nOrigin: http://localhost:$port\nContent-Type: application/json\n" "$good")" = 200 ]
	test -e ws/feedback.json
	stop'

test_case 'the POST media type is application/json exactly, parameters allowed' '
	start
	good="{\"reviews\": [{\"run_id\": \"case-01/v0/run1\", \"feedback\": \"fine\"}], \"status\": \"complete\"}"
	post() { http "POST /feedback HTTP/1.1\nHost: 127.0.0.1:$port\nContent-Type: $1\n" "$good"; }
	[ "$(post application/jsonp)" = 415 ]
	[ "$(post "application/json-seq")" = 415 ]
	[ "$(post "application/json x")" = 415 ]
	test ! -e ws/feedback.json
	[ "$(post "application/json; charset=utf-8")" = 200 ]
	[ "$(post "Application/JSON")" = 200 ]
	[ "$(post "application/json ;charset=utf-8")" = 200 ]
	test -e ws/feedback.json
	stop'

test_done
