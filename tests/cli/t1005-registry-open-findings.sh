#!/usr/bin/env bash
# Findings of the review of issue 16 (registries and the loader's hooks): each case here failed
# on main as of that review and passes since its finding was fixed.
. "$(dirname "$0")/lib.sh"
PLUGINS=$(dirname "$ASSAY")

# api_suite: ./a, an api suite of one case (never started: check-suite only)
api_suite() {
	rm -rf a && mkdir -p a/checkpoint_1/core
	local kase=${2:-"expected: {status_code: 200}"}
	printf 'name: a\nadapter:\n  type: api\n  command: [python3, app.py, "{port}"]\n%bcheckpoints:\n  checkpoint_1:\n    groups:\n      core: {type: Core}\n' "${1:-}" > a/suite.yaml
	printf '%s\n' "$kase" > a/checkpoint_1/core/c.yaml
}

test_case 'a plug-in cannot silently hide a built-in verifier (exact) for every case' '
	cp -r "$FIXTURES/suites/failing" s
	cp "$PLUGINS/assay-plugin-hides_exact.so" s/hides.so
	printf "plugins: [hides.so]\n" >> s/suite.yaml
	run_assay check-suite s
	# refused, or at least said: the suite'"'"'s `exact` is no longer the built-in one
	grep -E -q "exact.*built.in|built.in.*exact" out err ||
		{ echo "nothing says exact is hidden:"; cat out err; exit 1; }
	run_assay run s -o res --group core
	[ "$code" = 3 ] || grep -E -q "exact.*built.in|built.in.*exact" err ||
		{ echo "the run passed every case with a forged exact, silently:"; cat out err; exit 1; }'

test_case 'a malformed tracked_files is not taken silently by an api suite (main refused it before the registry)' '
	api_suite "  tracked_files: x\n"
	run_assay check-suite a
	expect_grep "tracked_files" out'

test_case 'check-suite says once why an api case expecting headers as a list fails (as a run does)' '
	api_suite "" "expected: {headers: [1]}"
	run_assay check-suite a; expect_exit 3
	expect_grep "expected headers must be a mapping of name to value" out
	[ "$(grep -c "^error:" out)" = 1 ] || { cat out; exit 1; }'

test_case 'check-suite finds a command verifier without run, which fails every run of the case' '
	rm -rf c && mkdir -p c/checkpoint_1/core
	printf "name: c\nadapter: {type: cli, command: [\"true\"]}\ncheckpoints:\n  checkpoint_1:\n    groups:\n      core: {type: Core}\n" > c/suite.yaml
	printf "expected: {status_code: 0}\nverify: {status_code: {verifier: command}}\n" > c/checkpoint_1/core/x.yaml
	run_assay run c -o res; expect_exit 1
	jq -e ".case.error | test(\"needs .run.\")" res/reports.jsonl
	run_assay check-suite c; expect_exit 3
	expect_grep "x\.yaml:2:[0-9]+: .*run" out'

test_done
