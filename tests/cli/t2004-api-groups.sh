#!/usr/bin/env bash
# The cases of an api group depend on each other (one server per group, whose state a case builds
# on for the next): every feature treats such a group as a unit. --shard keeps it whole; --resume
# runs an interrupted group again whole; a fixed adapter.port runs one group at a time whatever
# -j is; a selection that takes part of a group says the others did not run; a server that
# cannot start shows why in the terminal listing.
. "$(dirname "$0")/lib.sh"

require_cmd jq
M=$$ # marks this test's servers

# A server that keeps a list: POST /add appends the body's item and answers the count, GET /items
# answers the list (after ?sleep=S seconds).
make_suite() { # DIR [PORT]
	mkdir -p "$1/sub" "$1/c1/g1" "$1/c1/g2"
	cat > "$1/sub/server.py" <<'EOF'
import json, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlsplit
items = []
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def reply(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        url = urlsplit(self.path)
        time.sleep(float(parse_qs(url.query).get("sleep", ["0"])[0]))
        self.reply(items if url.path == "/items" else "ready")
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        items.append(json.loads(self.rfile.read(n))["item"])
        self.reply({"count": len(items)})
    def log_message(self, *a):
        pass
print("listening", flush=True)
HTTPServer((sys.argv[1], int(sys.argv[2])), H).serve_forever()
EOF
	cat > "$1/suite.yaml" <<EOF
name: stateful
adapter:
  type: api
  command: [/usr/bin/python3, server.py, "{address}", "{port}", "marker-$M"]
  submission: sub
  response_is_json: true
  timeout: 30
${2:+  port: $2}
checkpoints:
  c1:
    groups:
      g1: {type: Core}
      g2: {type: Core}
EOF
	for g in g1 g2; do
		printf 'method: post\npath: /add\nbody: {item: x}\nexpected: {output: {count: 1}}\n' > "$1/c1/$g/a-add.yaml"
		printf 'method: post\npath: /add\nbody: {item: y}\nexpected: {output: {count: 2}}\n' > "$1/c1/$g/b-add.yaml"
		printf 'path: /items\nexpected: {output: [x, y]}\n' > "$1/c1/$g/c-list.yaml"
	done
}

make_suite s
ids() { jq -r '[.checkpoint, .group, .id, (.passed | tostring)] | join("/")' "$1" | sort; }

test_case 'the stateful suite passes whole at -j1 and -j4' '
	run_assay run s -o r1 -j1 -q; expect_exit 0
	run_assay run s -o r4 -j4 -q; expect_exit 0
	jq -e ".totals.passed == 6" r4/summary.json'

test_case '--shard keeps each api group whole in one shard' '
	run_assay run s -o sh1 --shard 1/2 -q; expect_exit 0
	run_assay run s -o sh2 --shard 2/2 -q; expect_exit 0
	cat sh1/reports.jsonl sh2/reports.jsonl > both
	[ "$(wc -l < both)" = 6 ]
	jq -se "all(.case.passed)" both
	for g in g1 g2; do
		n=$(grep -l "\"group\": \"$g\"" sh1/reports.jsonl sh2/reports.jsonl | wc -l)
		[ "$n" = 1 ]
	done
	run_assay merge sh1 sh2 --suite s -o shm; expect_exit 0'

test_case '--resume runs an api group interrupted mid-way again whole, on a fresh server' '
	rm -rf t && cp -r s t
	printf "path: /items\nquery: {sleep: \"3.0$M\"}\nexpected: {output: [x, y]}\n" > t/c1/g1/c-list.yaml
	code=0
	"$ASSAY" run t -o ri -j1 -q & pid=$!
	for i in $(seq 100); do [ "$(cat ri/reports.jsonl 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1; done
	sleep 0.3
	kill -INT $pid
	wait $pid || code=$?
	expect_exit 5
	jq -e ".interrupted == true and (.not_run | index(\"c1/g1/c-list\")) != null" ri/summary.json
	before=$(jq -r "select(.id == \"a-add\") | .timestamp" ri/reports.jsonl)
	run_assay run t -o ri -j1 --resume; expect_exit 0
	jq -e ".interrupted == false and .totals.total == 6 and .totals.passed == 6" ri/summary.json
	# a-add ran again (its server is gone), not replayed
	[ "$(jq -r "select(.group == \"g1\" and .id == \"a-add\") | .timestamp" ri/reports.jsonl)" != "$before" ]
	if pgrep -f "marker-$M" >/dev/null; then echo "a server outlived its run"; false; fi'

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
make_suite p "$port"

test_case 'a fixed adapter.port runs one group at a time: the same verdicts at -j1 and -j4' '
	run_assay run p -o p1 -j1 -q; expect_exit 0
	run_assay run p -o p4 -j4 -q; expect_exit 0
	test_cmp <(ids p1/reports.jsonl) <(ids p4/reports.jsonl)
	jq -e ".totals.passed == 6" p4/summary.json'

test_case 'a server that cannot start shows why in the terminal listing' '
	rm -rf b && cp -r s b
	printf "print(\"starting up\")\nraise RuntimeError(\"no database configured $M\")\n" > b/sub/server.py
	run_assay run b -o rb -j1 --color never; expect_exit 1
	expect_grep "^  FAIL c1/g1/a-add" out
	expect_grep "^    server output \(execution.log\)" out
	expect_grep "^      \| RuntimeError: no database configured $M" out
	# it ran, and failed: the submission'"'"'s failure, not an error
	jq -e ".totals.errors == 0" rb/summary.json'

test_case 'a server command nobody may run says why, with the root hint when root' '
	rm -rf x && cp -r s x
	printf "#!/bin/sh\n" > "$TMP/noexec-$M" && chmod 644 "$TMP/noexec-$M"
	sed -i "s|/usr/bin/python3, server.py|$TMP/noexec-$M|" x/suite.yaml
	run_assay run x -o rx -j1 --color never; expect_exit 1
	expect_grep "could not be started .*Permission denied" out
	if [ "$(id -u)" = 0 ]; then expect_grep "assay runs as root, so the server runs as nobody" out; fi
	# no server ran: every case is an error, as a cli case whose program could not start
	jq -e ".totals.errors == .totals.total and .totals.total > 0" rx/summary.json ||
		{ jq .totals rx/summary.json; false; }
	# (a new user'"'"'s trial: "could not be started (...) before it answered on /" said it
	# might have answered)
	if grep -n "before it answered" out; then false; fi'

test_case 'a selection that takes part of an api group says the others did not run' '
	run_assay run s -o rc --case "c1/g1/c-list"; expect_exit 1
	[ "$(grep -c "warning: c1/g1: 1 of 3 cases selected; its cases depend on each other" err)" = 1 ]
	run_assay run-case s --case "c1/g2/[ab]-add"; expect_exit 0
	expect_grep "warning: c1/g2: 2 of 3 cases selected" err
	# a whole group, or the whole suite: nothing to say
	run_assay run s -o rg --group "c1/g1"; expect_exit 0
	! grep -q "cases selected" err || false
	# --last-failed: only the failing case of the group runs again
	rm -rf l && cp -r s l
	printf "method: post\npath: /add\nbody: {item: y}\nexpected: {output: {count: 9}}\n" > l/c1/g1/b-add.yaml
	run_assay run l -o rl -q; expect_exit 1
	run_assay run l -o rl --last-failed; expect_exit 1
	expect_grep "warning: c1/g1: 1 of 3 cases selected" err
	# (a new user'"'"'s trial: the warning said what did not run, not how to run it all)
	expect_grep "the others did not run \(-g c1/g1 runs it whole\)$" err
	run_assay run l -o rl --last-failed -q; expect_exit 1
	! grep -q "cases selected" err'

# (a new user's trial: a resumed api run said "12 cases already done", then ran 8 of them
# again, their groups being partly done, and said nothing of it)
test_case '--resume says how many finished cases run again with their unfinished groups' '
	run_assay run s -o rr --case "c1/g1/[ab]-add" --case c1/g2/a-add -q; expect_exit 0
	run_assay run s -o rr --resume; expect_exit 0
	expect_grep "^assay: resuming: 3 cases already done" err
	expect_grep "^assay: resuming: 3 of them run again, with their groups, which did not finish: c1/g1, c1/g2$" err
	jq -e ".totals.passed == 6" rr/summary.json
	# a run that stops again keeps no result of the group'"'"'s earlier server beside the new
	# one'"'"'s: c-list'"'"'s, made on a server without the adds, is dropped as its group runs whole,
	# so the store (reports.jsonl, assay report) and summary.json'"'"'s not_run agree
	rm -rf x && cp -r s x
	printf "method: post\npath: /add\nbody: {item: y}\nexpected: {output: {count: 9}}\n" > x/c1/g1/b-add.yaml
	run_assay run x -o rx -j1 --case c1/g1/c-list -q; expect_exit 1
	run_assay run x -o rx -j1 --resume -x; expect_exit 1
	expect_grep "^assay: resuming: 1 of them run again, with their group, which did not finish: c1/g1$" err
	jq -e ".interrupted and (.not_run | index(\"c1/g1/c-list\"))" rx/summary.json
	[ "$(jq -r .id rx/reports.jsonl | tr "\n" " ")" = "a-add b-add " ] || { cat rx/reports.jsonl; false; }
	run_assay report rx --format json; expect_exit 0
	jq -e "length == 2" out
	# all of a group done: it is replayed, nothing to say
	run_assay run s -o rw -g c1/g1 -q; expect_exit 0
	run_assay run s -o rw --resume; expect_exit 0
	! grep -q "run again" err'

test_done
