#!/usr/bin/env bash
# Benchmark: what an api case costs through `assay run` against what the same requests cost
# from a bare client, and against a cli case (/bin/echo) through `assay run`. One server (tests/fixtures/suites/api/submission/app.py, Python's
# http.server) answers N cases (GET /text, its body verified) in one group with a shared working
# folder; the baseline is a Python http.client loop sending the same N requests, a fresh
# connection each (as assay does), to the same server started by hand. Alternated RUNS times in
# the same run; medians per request and their ratio are printed. The assay figure holds
# everything a run does: the server's start and readiness, loading each case, the request,
# verifying, the reports and the store.
# Usage: bench/api.sh [N] [RUNS]   (needs build/assay and /usr/bin/python3)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
RUNS=${2:-5}
ASSAY=${ASSAY:-build/assay}
PY=/usr/bin/python3
APP=$PWD/tests/fixtures/suites/api/submission/app.py
TMP=$(mktemp -d)
chmod 755 "$TMP" # with root, cases run as nobody: they must reach what is in it
server=
trap 'rm -rf "$TMP"; [ -z "$server" ] || kill "$server" 2>/dev/null || true' EXIT

mkdir -p "$TMP/s/c/g"
cp "$APP" "$TMP/s/app.py"
printf 'name: api-bench\nadapter: {type: api, command: [%s, app.py, "{address}", "{port}"], submission: .}\ncheckpoints: {c: {groups: {g: {isolated: false}}}}\n' \
	"$PY" > "$TMP/s/suite.yaml"
mkdir -p "$TMP/sub" && cp "$APP" "$TMP/sub/app.py"
sed -i "s|submission: .}|submission: $TMP/sub}|" "$TMP/s/suite.yaml"
mkdir -p "$TMP/e/c/g"
printf 'name: echo\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {isolated: false}}}}\n' \
	> "$TMP/e/suite.yaml"
for i in $(seq 1 "$N"); do
	printf 'arguments: [hi]\nexpected: {output: "hi\\n"}\n' > "$TMP/e/c/g/e$i.yaml"
	printf 'path: /text\nexpected: {output: "plain words\\n", status_code: 200}\n' > "$TMP/s/c/g/r$i.yaml"
done

port=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$PY "$APP" 127.0.0.1 "$port" > /dev/null 2>&1 & server=$!
for i in $(seq 50); do
	$PY -c "import socket; socket.create_connection(('127.0.0.1', $port)).close()" 2>/dev/null && break
	sleep 0.1
done

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for r in $(seq 1 "$RUNS"); do
	start=$(date +%s.%N)
	$PY - "$port" "$N" <<'PYEOF'
import http.client, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
for _ in range(n):
    c = http.client.HTTPConnection("127.0.0.1", port)
    c.request("GET", "/text")
    r = c.getresponse()
    assert r.status == 200 and r.read() == b"plain words\n"
    c.close()
PYEOF
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { print b - a }' >> "$TMP/bare"
	start=$(date +%s.%N)
	"$ASSAY" run "$TMP/s" -q -o "$TMP/res"
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { print b - a }' >> "$TMP/assay"
	start=$(date +%s.%N)
	"$ASSAY" run "$TMP/e" -q -o "$TMP/res-e"
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { print b - a }' >> "$TMP/cli"
done
bare=$(median < "$TMP/bare")
assay=$(median < "$TMP/assay")
cli=$(median < "$TMP/cli")
echo "requests: $N, runs: $RUNS each, interleaved"
awk -v bare="$bare" -v assay="$assay" -v cli="$cli" -v n="$N" 'BEGIN {
	printf "bare http.client loop: median %.3f s (%.0f us per request)\n", bare, bare * 1e6 / n
	printf "assay run:             median %.3f s (%.0f us per case)\n", assay, assay * 1e6 / n
	printf "assay run, cli echo:   median %.3f s (%.0f us per case)\n", cli, cli * 1e6 / n
	printf "api / bare: %.2f; api / cli: %.2f\n", assay / bare, assay / cli
}'
