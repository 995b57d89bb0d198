#!/usr/bin/env bash
# A task of docs/scale-out.md's array that fails, on a real (one-node) Slurm cluster (issue
# #22): the node's copy of assay dies half-way through its shard (SIGKILL, as a crash or the
# OOM killer leaves it: no summary, no chance to clean up); the task fails, and the merge job,
# which waits for every task however it ended, fails naming the unfinished shard instead of
# merging a partial run. And a task whose assay cannot start at all (no shard folder): the
# merge names the missing shard.
. "$(dirname "$0")/lib.sh"

cluster_start

# the node's assay: in task 1, dies once its shard has begun (its store is there), or, with
# CRASH=start, exits at once as a node without a working assay would (127: not found)
mkdir node-bin
cat >node-bin/assay <<'EOF'
#!/bin/bash
[ "${SLURM_ARRAY_TASK_ID:-}" = 1 ] || exec "$REAL_ASSAY" "$@"
[ "${CRASH:-}" != start ] || { echo "assay: not found" >&2; exit 127; }
out=""
prev=""
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
"$REAL_ASSAY" "$@" &
pid=$!
for _ in $(seq 200); do [ -e "$out/assay.db" ] && break; sleep 0.05; done
sleep 0.3
kill -KILL "$pid"
wait "$pid"
EOF
chmod 755 node-bin/assay
export REAL_ASSAY="$ASSAY" PATH="$PWD/node-bin:$PATH"
# three slow cases in shard 1 of 3: it dies before its end
export SUITE="$FIXTURES/suites/skewed"

test_case 'a task that dies fails, and the merge job names its shard and merges nothing' '
	mkdir crash && cd crash
	doc_scripts 3
	. ./submit.sh >submit.out
	merge=$(submitted submit.out | tail -n 1)
	[ -n "$job" ] && [ -n "$merge" ]
	wait_job "$job"
	# the merge starts once the array has ended (with afterok it would stay pending for ever)
	wait_job "$merge" 60
	[ "$(job_state "${job}_1")" = FAILED ]
	scontrol show job "${job}_1" | grep -q "ExitCode=137:0"
	for t in 2 3; do [ "$(job_state "${job}_$t")" = COMPLETED ]; done
	[ -d "results/jq-$job/shard-1" ] && [ ! -f "results/jq-$job/shard-1/summary.json" ]
	# the merge ran (afterany), and failed: exit 2, the shard named, nothing written
	[ "$(job_state "$merge")" = FAILED ]
	scontrol show job "$merge" | grep -q "ExitCode=2:0"
	grep -F "shard-1: shard 1/3 did not finish" "assay-jq-merge-$merge.log"
	[ ! -e "results/jq-$job/merged" ]
	no_sanitizer_report'

test_case 'a task whose assay cannot start: the merge job names the missing shard' '
	mkdir start && cd start
	doc_scripts 3
	CRASH=start . ./submit.sh >submit.out
	merge=$(submitted submit.out | tail -n 1)
	[ -n "$job" ] && [ -n "$merge" ]
	wait_job "$job"
	wait_job "$merge" 60
	[ "$(job_state "${job}_1")" = FAILED ]
	scontrol show job "${job}_1" | grep -q "ExitCode=127:0"
	[ ! -e "results/jq-$job/shard-1" ]
	[ "$(job_state "$merge")" = FAILED ]
	scontrol show job "$merge" | grep -q "ExitCode=2:0"
	grep -F "shard 1/3 is missing" "assay-jq-merge-$merge.log"
	[ ! -e "results/jq-$job/merged" ]
	no_sanitizer_report'

test_done
