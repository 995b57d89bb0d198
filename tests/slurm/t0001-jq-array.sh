#!/usr/bin/env bash
# docs/scale-out.md's Slurm job array on a real (one-node) Slurm cluster (issue #22): the jq
# example as a 3-task array and the merge job depending on it equal a single run; one task of
# the doc's 4-task array cancelled mid-run makes the merge job fail naming its shard, and the
# task submitted again as the doc says resumes it: the merge then equals the single run, and
# no case ran or was reported twice. Prints the wall time of the array against a -j1 run.
. "$(dirname "$0")/lib.sh"

cluster_start

# the single run the merged ones must equal: -j1, the suite named as the jobs name it (the
# cases' arguments hold the path of its assets)
export SUITE="$ASSAY_SRC/examples/jq-1.6"
t0=$(now)
"$ASSAY" run "$SUITE" -j1 -o single -q >single.out 2>&1 || [ $? = 1 ]
t1=$(now)
single_time=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

# the doc's submission, from the doc's scripts, in folder $1 (array of $2 tasks): sets $job and
# $merge
submit_doc() {
	mkdir "$1" && cd "$1"
	doc_scripts "${2:-}"
	. ./submit.sh >submit.out
	merge=$(submitted submit.out | tail -n 1)
	[ -n "$job" ] && [ -n "$merge" ] && [ "$job" != "$merge" ]
}

test_case 'the jq example as a 3-task array, then the merge job: the single run' '
	a0=$(now)
	submit_doc three 3
	wait_job "$job"
	a1=$(now)
	wait_job "$merge"
	a2=$(now)
	for t in 1 2 3; do
		[ "$(job_state "${job}_$t")" = COMPLETED ] || { job_state "${job}_$t"; cat assay-jq-*.log; false; }
	done
	[ "$(job_state "$merge")" = COMPLETED ] || { cat assay-jq-merge-*.log; false; }
	# each task wrote its log where #SBATCH --output puts it, and ran shard I of 3
	for t in 1 2 3; do [ -f "assay-jq-${job}_$t.log" ]; done
	jq -s -e "map(.shard.index) == [1, 2, 3] and all(.shard.count == 3) and all(.interrupted == false)" \
		results/jq-$job/shard-{1,2,3}/summary.json
	same_run ../single "results/jq-$job/merged"
	jq -e ".totals.total == 350" "results/jq-$job/merged/summary.json"
	grep -q "^merged 3 shards" "assay-jq-merge-$merge.log"
	no_sanitizer_report
	awk -v a="$a0" -v b="$a1" -v c="$a2" "BEGIN { printf \"%.1f %.1f\\n\", b - a, c - b }" >../array-time'

test_case 'a task cancelled mid-run: the merge names its shard; submitted again, it resumes' '
	submit_doc cancel
	shard=results/jq-$job/shard-3
	# the doc array as written: four tasks; task 3 is cancelled once it has results
	n=0
	for i in $(seq 1200); do
		n=$(cat "$shard/reports.jsonl" 2>/dev/null | wc -l)
		[ "$n" -ge 10 ] && break
		sleep 0.1
	done
	[ "$n" -ge 10 ]
	[ "$(job_state "${job}_3")" = RUNNING ]
	scancel "${job}_3"
	wait_job "$job"
	[ "$(job_state "${job}_3")" = CANCELLED ]
	for t in 1 2 4; do [ "$(job_state "${job}_$t")" = COMPLETED ]; done
	jq -e ".interrupted == true" "$shard/summary.json" || [ ! -f "$shard/summary.json" ]
	# the merge job ran all the same (afterany), and failed naming the shard
	wait_job "$merge"
	[ "$(job_state "$merge")" = FAILED ]
	grep -F "shard-3: shard 3/4 did not finish" "assay-jq-merge-$merge.log"
	[ ! -e "results/jq-$job/merged" ]
	# what the shard had finished when it was cancelled
	jq -c "{checkpoint: .case.checkpoint, group, id, timestamp}" "$shard/reports.jsonl" | sort >before
	before=$(wc -l <before)
	[ "$before" -ge 10 ]
	# the doc: run that shard again, naming it, then merge again
	. ./retry.sh >retry.out
	merge2=$(submitted retry.out | tail -n 1)
	[ -n "$retry" ] && [ -n "$merge2" ] && [ "$merge2" != "$retry" ]
	wait_job "$retry"
	wait_job "$merge2"
	[ "$(job_state "$retry")" = COMPLETED ] || { cat "assay-jq-${retry}_3.log"; false; }
	[ "$(job_state "$merge2")" = COMPLETED ] || { cat "assay-jq-merge-$merge2.log"; false; }
	jq -e ".interrupted == false and .shard.index == 3 and .shard.count == 4" "$shard/summary.json"
	# resumed: the cases finished before the cancel kept their results (their timestamps),
	# and the shard ran the others
	jq -c "{checkpoint: .case.checkpoint, group, id, timestamp}" "$shard/reports.jsonl" | sort >after
	[ "$(comm -23 before after | wc -l)" = 0 ]
	[ "$(wc -l <after)" -gt "$before" ]
	# nothing twice: in the shard, nor across shards, nor in the merged run
	[ -z "$(jq -r "[.checkpoint, .group, .id] | join(\"/\")" "$shard/reports.jsonl" | sort | uniq -d)" ]
	[ "$(cat results/jq-$job/shard-*/reports.jsonl | wc -l)" = 350 ]
	[ "$(jq -r "[.checkpoint, .group, .id] | join(\"/\")" results/jq-$job/shard-*/reports.jsonl | sort -u | wc -l)" = 350 ]
	[ "$(sqlite3 "$shard/assay.db" "SELECT count(*) FROM cases")" = "$(wc -l <after)" ]
	same_run ../single "results/jq-$job/merged"
	no_sanitizer_report'

if [ -s array-time ]; then
	read -r array merge_time <array-time
	echo "# jq example (350 cases): 3-task array ${array} s (then its merge job ${merge_time} s); single -j1 run ${single_time} s"
fi
test_done
