#!/usr/bin/env bash
# Python verifiers as verification.md writes them (issue 17 item 3): the contract's Basic
# example, Examples 1-4 and Patterns 1 and 3, pasted verbatim into tests/contract/pysuite/verifiers,
# run by assay through its bridge, give the results, scores and verdicts the contract's own
# definitions give (tests/contract/check_python_verifiers.py runs them without assay, with the
# contract's pydantic model, and compares); a bad answer is an error of its case only; the
# budget, the sandbox and the choice of Python hold.
# Needs a Python with pydantic, deepdiff and PyYAML (scripts/install-deps.sh --tests installs
# Debian's); without one the test prints "skipped:" with the reason.
. "$(dirname "$0")/lib.sh"
SUITE="$ASSAY_SRC/tests/contract/pysuite"

PY=""
for p in "${ASSAY_TEST_PYTHON:-}" /usr/bin/python3 python3; do
	[ -n "$p" ] || continue
	if "$p" -c "import pydantic, deepdiff, yaml" >/dev/null 2>&1; then
		PY=$(command -v "$p")
		break
	fi
done
[ -n "$PY" ] || skip "no Python with pydantic, deepdiff and yaml"
export ASSAY_PYTHON="$PY"

# one_case CHECKPOINT ID FILTER: FILTER holds for that case's report line
one_case() { jq -se ".[] | select(.case.checkpoint == \"$1\" and .id == \"$2\") | $3" res/reports.jsonl; }

test_case 'the contract examples, verbatim, give the contract results, scores and verdicts' '
	run_assay run "$SUITE" -o res; expect_exit 1
	"$PY" "$ASSAY_SRC/tests/contract/check_python_verifiers.py" "$SUITE" res/reports.jsonl
	[ "$(jq -s length res/reports.jsonl)" = 15 ]'

test_case 'the results are what the examples return, key for key' '
	one_case basic fail ".results.status_code == {attribute: \"status_code\", actual: 3, expected: 0, diff: \"Expected: 0, Got: 3\", is_correct: false, weight: 0.5}"
	one_case basic pass ".case.passed and .case.score == 1"
	one_case example1 wrong "[.results | to_entries[] | select(.value.is_correct != null) | .key] | sort == [\"field_id\", \"field_user.name\", \"status_code\", \"structure\"]"
	one_case example1 wrong ".results[\"field_user.name\"].diff == \"user.name: expected Ada, got Bob\""
	one_case example1 not-json ".results.json_parse | .is_correct == false and (.diff | startswith(\"Failed to parse JSON: Expecting value\"))"
	one_case example2 files ".results[\"files-missing.txt\"] | .is_correct == false and .weight == 1 and .diff == \"File not found: missing.txt\""
	one_case example2 files ".results[\"files-log.txt\"] | .is_correct and .weight == 0.5 and .actual == \"log: done\n\""
	one_case example3 close ".case.score == 1 and .results.number_0.diff == \"✓ Number 0: 1.005 (within 0.01 of 1.0)\""
	one_case example3 tight ".results.number_count.is_correct == false and .results.number_1.is_correct"
	one_case example4 json ".results.format | .is_correct == false and .weight == 0.3"
	one_case example4_json json ".results.format.is_correct and .results.efficiency.is_correct and .case.passed"
	one_case patterns contains ".results.output | .is_correct and .weight == 0.8"'

test_case 'which Python runs the verifiers is said, and --python chooses it' '
	run_assay run "$SUITE" -o res --checkpoint basic; expect_exit 1
	expect_grep "^assay: Python verifiers run with .$PY. \\(ASSAY_PYTHON\\)$" err
	run_assay run "$SUITE" -o res2 --checkpoint basic --python /nonexistent/python3; expect_exit 1
	expect_grep "^assay: Python verifiers run with ./nonexistent/python3. \\(--python\\)$" err
	jq -e ".case.error | test(\"python verifier .*basic.py. \\\\(class Verifier, python ./nonexistent/python3.\\\\) could not be started\")" res2/reports.jsonl >/dev/null'

mk_suite() {
	mkdir -p "$1/c1/core"
	cat > "$1/suite.yaml" <<-EOF
	name: py
	adapter: {type: cli, command: [sh, -c]}
	verifier: {python: v.py, timeout: 3}
	checkpoints:
	  c1:
	    threshold: 2
	    groups: {core: {}}
	EOF
	printf "arguments: [\"echo %s\"]\nexpected: {output: x}\n" "$2" > "$1/c1/core/$2.yaml"
}

test_case 'a bad answer is an error of its case; the other cases are verified' '
	mk_suite s ok
	for c in weight0 extra notdict raises nonjson; do
		printf "arguments: [\"echo %s\"]\nexpected: {output: x}\n" $c > s/c1/core/$c.yaml
	done
	cat > s/v.py <<-EOF
	from slop_code.evaluation.verifiers.models import VerificationResult
	class Verifier:
	    def __init__(self, config):
	        self.threshold = config.get("threshold", 0)
	        assert config.threshold == 2 and config.get("missing", 5) == 5
	    def __call__(self, group_name, case_name, actual, expected):
	        what = actual.output.strip()
	        if what == "weight0":
	            return {"output": {"diff": "d", "is_correct": True, "weight": 0}}
	        if what == "extra":
	            return {"output": {"diff": "d", "is_correct": True, "weight": 1, "score": 1}}
	        if what == "notdict":
	            return [1]
	        if what == "raises":
	            raise RuntimeError("boom")
	        if what == "nonjson":
	            return {"output": VerificationResult.create(object(), True)}
	        print("chatter on stdout goes to stderr")
	        return {"output": VerificationResult.create("fine", actual.output == "ok\n"),
	                "threshold": VerificationResult.create(self.threshold, True, 0.5)}
	EOF
	run_assay run s -o res; expect_exit 1
	one_case c1 ok ".case.passed and .case.score == 1 and .results.threshold.diff == 2"
	one_case c1 weight0 ".case.error | test(\"weight\")"
	one_case c1 extra ".case.error | test(\"score\")"
	one_case c1 notdict ".case.error | test(\"returned list, not a dict of VerificationResult\")"
	one_case c1 raises ".case.error | test(\"RuntimeError: boom\")"
	one_case c1 nonjson ".case.error | test(\"cannot be written as JSON|not JSON serializable|diff\")"
	for c in weight0 extra notdict raises nonjson; do one_case c1 $c ".case.passed == false and .case.score == 0" >/dev/null; done'

test_case 'a verifier that cannot be built, or names no such class, makes every case an error' '
	mk_suite b ok
	printf "class Other:\n    pass\n" > b/v.py
	run_assay run b -o res; expect_exit 1
	one_case c1 ok ".case.error | test(\"defines no class .Verifier.\")"
	printf "import no_such_module_here\n" > b/v.py
	run_assay run b -o res2; expect_exit 1
	jq -e ".case.error | test(\"No module named .no_such_module_here.\")" res2/reports.jsonl >/dev/null'

test_case 'the time budget stops a verifier that does not answer, and the next case gets a new one' '
	mk_suite t slow
	printf "arguments: [\"echo fast\"]\nexpected: {output: x}\n" > t/c1/core/t2-fast.yaml
	cat > t/v.py <<-EOF
	import time
	class Verifier:
	    def __init__(self, config): pass
	    def __call__(self, g, c, actual, expected):
	        if actual.output.startswith("slow"):
	            time.sleep(30)
	        return {"output": VerificationResult.create("ok", True)}
	EOF
	start=$(date +%s)
	run_assay run t -o res -j1; expect_exit 1
	[ $(( $(date +%s) - start )) -lt 25 ]
	one_case c1 slow ".case.error | test(\"did not answer within 3 seconds\")"
	one_case c1 t2-fast ".case.passed"'

test_case 'the memory budget bounds the verifier process' '
	mk_suite m big
	# under a memory cgroup the verifier is killed only once it has touched 512 MiB: over 3 s
	# on a VM whose page faults cost 12 us, where the time budget would end it first
	sed -i "s/timeout: 3}/timeout: 60}/" m/suite.yaml
	grep -q "timeout: 60}" m/suite.yaml
	cat > m/v.py <<-EOF
	class Verifier:
	    def __init__(self, config): pass
	    def __call__(self, g, c, actual, expected):
	        blob = bytearray(1500 * 1024 * 1024)
	        return {"output": VerificationResult.create(len(blob), True)}
	EOF
	run_assay run m -o res; expect_exit 1
	one_case c1 big ".case.error | test(\"MemoryError|killed|resource limit\")"'

test_case 'the verifier runs in the sandbox: no network, no reading outside' '
	mk_suite n ok
	echo secret > "$TMP/secret.txt"
	cat > n/v.py <<-EOF
	import socket
	class Verifier:
	    def __init__(self, config): pass
	    def __call__(self, g, c, actual, expected):
	        try:
	            open("$TMP/secret.txt").read(); read = "read"
	        except OSError as e:
	            read = type(e).__name__
	        try:
	            socket.socket(socket.AF_INET, socket.SOCK_STREAM); net = "socket"
	        except OSError as e:
	            net = type(e).__name__
	        return {"read": VerificationResult.create(read, read != "read"),
	                "net": VerificationResult.create(net, net != "socket")}
	EOF
	run_assay run n -o res
	if ! jq -e ".case.execution.sandbox | index(\"landlock-fs\")" res/reports.jsonl >/dev/null; then
		echo "no Landlock on this kernel: the attack is not judged"; exit 0
	fi
	expect_exit 0
	one_case c1 ok ".results.read.is_correct and .results.net.is_correct"'

test_case 'the verifier runs in a fresh folder of its own, removed after, never / nor assay'"'"'s' '
	mk_suite w ok
	cat > w/v.py <<-EOF
	import os, tempfile
	class Verifier:
	    def __init__(self, config):
	        self.start = os.getcwd()
	    def __call__(self, g, c, actual, expected):
	        open("mine.txt", "w").write("x")
	        # a module planted in the working folder is not imported
	        open("planted_mod.py", "w").write("X = 1\n")
	        try:
	            import planted_mod; planted = "imported"
	        except ImportError:
	            planted = "not imported"
	        return {"cwd": VerificationResult.create(os.getcwd(), os.getcwd() == self.start),
	                "planted": VerificationResult.create(planted, planted == "not imported"),
	                "tmp": VerificationResult.create(tempfile.gettempdir(), True)}
	EOF
	mkdir ptmp
	before=$(stat -c "%u:%g %a" / "$PWD")
	TMPDIR=$PWD/ptmp run_assay run w -o res; expect_exit 0
	dir=$(jq -r ".results.cwd.diff" res/reports.jsonl)
	case "$dir" in "$PWD"/ptmp/assay-plugin-??????) ;; *) echo "ran in $dir"; exit 1;; esac
	one_case c1 ok ".results.tmp.diff == \"$dir\""
	[ ! -e "$dir" ] && [ -z "$(ls ptmp)" ]
	one_case c1 ok ".results.planted.is_correct"
	[ "$(stat -c "%u:%g %a" / "$PWD")" = "$before" ]'

test_case 'the case'"'"'s output cannot forge an answer, whatever the verifier prints or runs' '
	mk_suite f ok
	cat > f/c1/core/ok.yaml <<-EOF
	arguments: ["printf %s \x27{\"results\": {\"forged\": {\"diff\": \"f\", \"is_correct\": true, \"weight\": 1}}}\x27; echo"]
	expected: {output: x}
	EOF
	cat > f/v.py <<-EOF
	import os, subprocess
	class Verifier:
	    def __init__(self, config): pass
	    def __call__(self, g, c, actual, expected):
	        print(actual.output)
	        os.write(1, actual.output.encode())
	        subprocess.run(["sh", "-c", "printf %s \"\$0\"", actual.output])
	        return {"output": VerificationResult.create("judged", actual.output == "right\n")}
	EOF
	run_assay run f -o res; expect_exit 1
	one_case c1 ok ".results.output.diff == \"judged\" and .results.output.is_correct == false"
	one_case c1 ok "(.results | has(\"forged\") | not) and .case.passed == false and .case.error == null"'

test_case 'a cut output is never judged, by a Python verifier either (unless allow_truncated)' '
	mk_suite cutsuite cut
	cat > cutsuite/c1/core/cut.yaml <<-EOF
	arguments: ["printf right; head -c 2000 /dev/zero | tr \x27\\\\0\x27 \x27 \x27; echo wrong"]
	expected: {output: right}
	EOF
	cat > cutsuite/v.py <<-EOF
	class Verifier:
	    def __init__(self, config): pass
	    def __call__(self, g, c, actual, expected):
	        return {"output": VerificationResult.create("judged", actual.output.startswith("right"))}
	EOF
	run_assay run cutsuite -o res --stdout-cap 5; expect_exit 1
	one_case c1 cut ".results.output.is_correct == false and (.results.output.diff | test(\"cut at 5 bytes\"))"
	one_case c1 cut ".case.passed == false and .case.score == 0"
	printf "verify: {output: {allow_truncated: true}}\n" >> cutsuite/c1/core/cut.yaml
	rm -rf res
	run_assay run cutsuite -o res --stdout-cap 5; expect_exit 0
	one_case c1 cut ".results.output.diff == \"judged\" and .case.passed == true"'

test_case 'an api case: the verifier reads the response (status_code, body, headers)' '
	cp -r "$FIXTURES/suites/api" api
	chmod -R a+rX api
	printf "verifier: {python: v.py}\n" >> api/suite.yaml
	cat > api/v.py <<-EOF
	import json
	class Verifier:
	    def __init__(self, config): pass
	    def __call__(self, g, c, actual, expected):
	        body = json.loads(actual.output) if c == "echo-post" else None
	        return {
	            "status_code": VerificationResult.create(
	                [actual.status_code, expected.status_code],
	                actual.status_code == expected.status_code),
	            "body": VerificationResult.create(
	                type(actual.output).__name__,
	                body is None or body["json"] == expected.output["json"]),
	            "headers": VerificationResult.create(
	                sorted(k.lower() for k in actual.headers)[:1],
	                "content-type" in (k.lower() for k in actual.headers)),
	        }
	EOF
	run_assay run api -o res; expect_exit 1
	one_case checkpoint_1 echo-post ".case.passed and .results.body.diff == \"str\" and .results.status_code.diff == [200, 200]"
	one_case checkpoint_1 wrong-status ".results.status_code | .is_correct == false and .diff == [201, 200]"'

test_done
