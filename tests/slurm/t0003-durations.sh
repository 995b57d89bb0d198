#!/usr/bin/env bash
# --shard-durations on a real (one-node) Slurm cluster (issue #22): docs/scale-out.md's array,
# given an earlier run's results (DURATIONS), balances its tasks on a suite of skewed case
# durations (tests/fixtures/suites/skewed: three cases of a second among 25, which the
# unweighted deal puts in one shard of three): the slowest task's run (its shard's duration,
# summary.json; Slurm's own start and end times are whole seconds) takes at most 1.3 times the
# mean. (The first run, unweighted, shows the skew the second one removes.)
. "$(dirname "$0")/lib.sh"

cluster_start
export SUITE="$FIXTURES/suites/skewed"

# run_array: the doc's submission as a 3-task array; sets $job and $merge, waits for both
run_array() {
	. ./submit.sh >submit.out
	merge=$(submitted submit.out | tail -n 1)
	[ -n "$job" ] && [ -n "$merge" ]
	wait_job "$job"
	wait_job "$merge"
	[ "$(job_state "$merge")" = COMPLETED ] || { cat "assay-jq-merge-$merge.log"; false; }
	jq -e ".totals.total == 25 and .totals.passed == 25" "results/jq-$job/merged/summary.json"
}

# slowest JOB: the slowest of the job's shards (its duration), over their mean
slowest() {
	jq -s "map(.duration) | max / (add / length)" "results/jq-$1"/shard-{1,2,3}/summary.json
}

test_case 'DURATIONS from a previous run balances the array (slowest task within 1.3x the mean)' '
	mkdir balance && cd balance
	doc_scripts 3
	run_array
	first=$job
	ratio=$(slowest "$first")
	echo "unweighted: slowest shard $ratio x the mean"
	jq -s -c "map(.duration)" "results/jq-$first"/shard-{1,2,3}/summary.json | tee ../unweighted
	# the fixture is skewed: without durations, one task takes far longer
	awk -v r="$ratio" "BEGIN { exit !(r > 1.5) }"
	export DURATIONS=results/jq-$first/merged
	run_array
	[ "$job" != "$first" ]
	ratio=$(slowest "$job")
	echo "with DURATIONS: slowest shard $ratio x the mean"
	jq -s -c "map(.duration)" "results/jq-$job"/shard-{1,2,3}/summary.json | tee ../weighted
	awk -v r="$ratio" "BEGIN { exit !(r <= 1.3) }"
	# the balanced split is another split of the same run: each slow case in its own shard
	for t in 1 2 3; do
		[ "$(jq -r "select(.id == \"a\" or .id == \"d\" or .id == \"g\") | .id" "results/jq-$job/shard-$t/reports.jsonl" | wc -l)" = 1 ]
	done
	no_sanitizer_report
	echo "$ratio" >../ratio'

if [ -s ratio ]; then
	echo "# skewed suite, each task's run (s): unweighted $(cat unweighted), with DURATIONS $(cat weighted): slowest $(cat ratio) x the mean"
fi
test_done
