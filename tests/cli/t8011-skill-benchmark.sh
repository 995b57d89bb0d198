#!/usr/bin/env bash
# assay skill benchmark (issue 20 item 3): benchmarks/<time>/benchmark.json in the shape
# skill-creator's references/schemas.md documents and its viewer reads (field names exactly),
# from the version's runs and the no-skill baseline's: time and tokens from each run, mean,
# sample stddev, min, max per configuration, delta strings, and notes on expectations that
# never discriminate or are flaky.
. "$(dirname "$0")/lib.sh"
. "$ASSAY_SRC/tests/skill/setup.sh"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 0; }

# shape FILE: the fields schemas.md names, with their types, and nothing the viewer would miss.
shape() {
	python3 - "$1" <<-'PY'
	import json, sys
	b = json.load(open(sys.argv[1]))
	assert list(b) == ["metadata", "runs", "run_summary", "notes"], list(b)
	m = b["metadata"]
	for k, t in [("skill_name", str), ("skill_path", str), ("executor_model", str),
	             ("analyzer_model", str), ("timestamp", str), ("evals_run", list),
	             ("runs_per_configuration", int)]:
	    assert isinstance(m[k], t), k
	assert m["timestamp"].endswith("Z")
	for r in b["runs"]:
	    assert isinstance(r["eval_id"], int) and isinstance(r["eval_name"], str)
	    assert r["configuration"] in ("with_skill", "without_skill")
	    assert isinstance(r["run_number"], int) and r["run_number"] >= 1
	    res = r["result"]
	    assert set(res) == {"pass_rate", "passed", "failed", "total", "time_seconds",
	                        "tokens", "tool_calls", "errors"}, set(res)
	    assert res["passed"] + res["failed"] == res["total"]
	    assert abs(res["pass_rate"] - res["passed"] / res["total"]) < 1e-4
	    for e in r["expectations"]:
	        assert isinstance(e["text"], str) and isinstance(e["passed"], bool)
	        assert isinstance(e["evidence"], str)
	    assert all(isinstance(n, str) for n in r["notes"])
	s = b["run_summary"]
	for c in [k for k in s if k != "delta"]:
	    assert c in ("with_skill", "without_skill")
	    for k in ("pass_rate", "time_seconds", "tokens"):
	        assert set(s[c][k]) == {"mean", "stddev", "min", "max"}, (c, k)
	assert all(isinstance(n, str) for n in b["notes"])
	PY
}

test_case 'with a baseline: both configurations, their statistics and the delta strings' '
	make_workspace
	cat > tok.sh <<-SH
	#!/bin/sh
	if [ "\$ASSAY_CONFIGURATION" = with_skill ]; then EXECUTOR_TOKENS=1500; else EXECUTOR_TOKENS=1000; fi
	export EXECUTOR_TOKENS
	exec "$SKILL_TESTS/executor.sh"
	SH
	chmod +x tok.sh
	set_config ".executor.command = [\"$PWD/tok.sh\"]"
	EXECUTOR_FLAKY=2 run_assay skill run ws --baseline --runs 3; expect_exit 1
	run_assay skill benchmark ws; expect_exit 0
	f=$(ls ws/benchmarks/*/benchmark.json)
	test "$(head -n 1 out)" = "$PWD/$f"
	expect_grep "^v0 with the skill: 6 runs, expectation pass rate 33.3%$" out
	expect_grep "^without the skill: 6 runs, expectation pass rate 0.0%$" out
	shape $f
	jq -e ".metadata.skill_name == \"demo-skill\" and .metadata.evals_run == [1, 2] and .metadata.runs_per_configuration == 3" $f
	jq -e "[.runs[] | [.eval_name, .configuration, .run_number]] == [[\"case-01\",\"with_skill\",1],[\"case-01\",\"with_skill\",2],[\"case-01\",\"with_skill\",3],[\"case-01\",\"without_skill\",1],[\"case-01\",\"without_skill\",2],[\"case-01\",\"without_skill\",3],[\"case-02\",\"with_skill\",1],[\"case-02\",\"with_skill\",2],[\"case-02\",\"with_skill\",3],[\"case-02\",\"without_skill\",1],[\"case-02\",\"without_skill\",2],[\"case-02\",\"without_skill\",3]]" $f
	jq -e ".runs[0].result | .pass_rate == 0.5 and .passed == 1 and .failed == 1 and .total == 2 and .tokens == 1500 and .tool_calls == 2 and .errors == 0 and .time_seconds > 0" $f
	jq -e ".runs[0].expectations[0] | .text == \"Has YAML frontmatter with name and description fields\" and .passed == true" $f
	t=$(jq .seconds ws/runs/case-01/v0/run1/timing.json)
	jq -e "(.runs[0].result.time_seconds - $t) | fabs < 0.0001" $f
	# with: 0.5 0 0.5 per case, twice: mean 1/3, sample stddev sqrt(1/15)
	jq -e ".run_summary.with_skill.pass_rate == {\"mean\": 0.3333, \"stddev\": 0.2582, \"min\": 0.0, \"max\": 0.5}" $f
	jq -e ".run_summary.without_skill.pass_rate == {\"mean\": 0.0, \"stddev\": 0.0, \"min\": 0.0, \"max\": 0.0}" $f
	jq -e ".run_summary.with_skill.tokens.mean == 1500 and .run_summary.without_skill.tokens.mean == 1000" $f
	jq -e ".run_summary.delta.pass_rate == \"+0.33\" and .run_summary.delta.tokens == \"+500\" and (.run_summary.delta.time_seconds | test(\"^[+-][0-9]+[.][0-9]$\"))" $f
	jq -e "[.notes[] | select(test(\"flaky with the skill: passed in 2 of 3 runs\"))] | length == 2" $f'
test_case 'an expectation that passes with and without the skill is noted' '
	make_workspace
	cat > both.sh <<-SH
	#!/bin/sh
	"$SKILL_TESTS/executor.sh"
	echo "frontmatter: ok" > outputs/always.md
	SH
	chmod +x both.sh
	set_config ".executor.command = [\"$PWD/both.sh\"]"
	run_assay skill run ws --baseline --case case-01; expect_exit 0
	run_assay skill benchmark ws; expect_exit 0
	f=$(ls ws/benchmarks/*/benchmark.json)
	shape $f
	jq -e "[.notes[] | select(. == \"Expectation '\''frontmatter'\'' of case-01 passes in every run with and without the skill - it cannot show what the skill is worth\")] | length == 1" $f
	jq -e ".metadata.evals_run == [1]" $f'
test_case 'without a baseline: with_skill only, no delta, a note says how to get one' '
	make_workspace
	run_assay skill run ws; expect_exit 1
	run_assay skill benchmark ws; expect_exit 0
	expect_grep "^without the skill: no run \(assay skill run --baseline\)$" out
	run_assay skill benchmark ws; expect_exit 0
	test "$(ls ws/benchmarks | wc -l)" = 2
	for f in ws/benchmarks/*/benchmark.json; do
		shape $f
		jq -e "(.run_summary | keys) == [\"with_skill\"] and (.notes | any(test(\"--baseline\")))" $f
	done'
test_case 'a version without graded runs is a usage error; nothing is written' '
	make_workspace
	run_assay skill benchmark ws; expect_exit 2
	expect_grep "version 0 has no graded run" err
	test ! -e ws/benchmarks
	run_assay skill benchmark ws --version 3; expect_exit 2'

test_done
