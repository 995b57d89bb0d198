#!/usr/bin/env bash
# Scale-out (issue #10 part 3): `assay run --shard I/N` splits the selected cases by id,
# deterministically, keeping groups that share a working folder whole, balanced by an earlier
# run's durations when given; `--shard auto` reads Slurm's and Kubernetes' variables; `assay
# merge` makes the shards' results into the run an unsharded `assay run` would have written,
# and refuses a wrong set of shards.
. "$(dirname "$0")/lib.sh"

SUITE="$FIXTURES/suites/shard"
require_cmd jq
require_cmd sqlite3

# Report lines without what differs from run to run (timings).
strip() {
	jq -c 'del(.timestamp, .duration, .case.execution.wall_time, .case.execution.cpu_time,
		   .case.execution.max_rss)' "$1"
}

# A results folder's report lines in run order (as its store keeps them: with several cases
# at once, reports.jsonl is in the order cases finished).
in_order() {
	sqlite3 "$1/assay.db" "SELECT line FROM cases ORDER BY position" > "$1.ordered"
	strip "$1.ordered"
}

# The checkpoint/group/id of a results folder's cases, sorted.
names() {
	jq -r '[.case.checkpoint, .group, .id] | join("/")' "$1/reports.jsonl" | sort
}

# One unsharded run and three shards, made once for the tests below (a small value cap, so
# that report lines cut values into the store's blobs).
"$ASSAY" run "$SUITE" -o single -q --value-cap 200 >/dev/null 2>&1
for i in 1 2 3; do
	"$ASSAY" run "$SUITE" -o "s$i" --shard "$i/3" --value-cap 200 >"s$i.out" 2>"s$i.err"
done

test_case 'three shards, merged, are the unsharded run (reports, summary, store)' '
	[ -s single/reports.jsonl ]
	run_assay merge s1 s2 s3 --suite "$SUITE" -o merged --value-cap 200; expect_exit 1
	expect_grep "^merged 3 shards: merged" out
	expect_grep "^25 of 28 cases passed" out
	expect_grep "^  FAIL checkpoint_1/core/h-fails" out
	expect_grep "reproduce: env -i .* sh -c .echo wrong." out
	test_cmp <(in_order single) <(strip merged/reports.jsonl)
	test_cmp <(in_order merged) <(strip merged/reports.jsonl)
	test_cmp <(jq "del(.duration)" single/summary.json) <(jq "del(.duration)" merged/summary.json)
	# the store: the same cases, positions, attributes, blobs and case-file hashes
	q="SELECT position, checkpoint, grp, id, type, passed, score, error, case_hash FROM cases ORDER BY position"
	test_cmp <(sqlite3 single/assay.db "$q") <(sqlite3 merged/assay.db "$q")
	q="SELECT c.checkpoint, c.grp, c.id, a.key, a.value ->> '\''is_correct'\'', a.value -> '\''actual'\'', a.value -> '\''expected'\'' FROM cases c, json_each(c.line, '\''\$.results'\'') a ORDER BY c.position, a.key"
	[ "$(sqlite3 merged/assay.db "$q" | wc -l)" -gt 28 ]
	test_cmp <(sqlite3 single/assay.db "$q") <(sqlite3 merged/assay.db "$q")
	q="SELECT sha256, kind, bytes FROM blobs ORDER BY sha256"
	[ "$(sqlite3 merged/assay.db "SELECT count(*) FROM blobs")" -gt 0 ]
	test_cmp <(sqlite3 single/assay.db "$q") <(sqlite3 merged/assay.db "$q")
	jq -e ".merged.count == 3 and (.merged.from | map(.index)) == [1, 2, 3] and .cases == 28" \
		<(sqlite3 merged/assay.db "SELECT meta FROM run")
	# what reads a results folder reads the merged one
	run_assay report merged --format junit; expect_exit 0
	expect_grep "<testsuites" out
	run_assay show merged checkpoint_1/core/h-fails; expect_exit 0
	run_assay compare single merged; expect_exit 0
	run_assay run "$SUITE" -o merged --last-failed -q; expect_exit 1
	[ "$(wc -l < merged/reports.jsonl)" = 3 ]'

test_case 'every case runs in exactly one shard; the group sharing a folder stays whole' '
	cat s1/reports.jsonl s2/reports.jsonl s3/reports.jsonl |
		jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" | sort > all
	jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" single/reports.jsonl | sort > want
	test_cmp want all
	# s1..s3 of the shared group: all in one shard, and in order there (each passed)
	n=$(grep -l "\"group\": \"shared\"" s1/reports.jsonl s2/reports.jsonl s3/reports.jsonl | wc -l)
	[ "$n" = 1 ]
	jq -s -e "map(select(.group == \"shared\")) | length == 3 and all(.case.passed)" \
		$(grep -l "\"group\": \"shared\"" s[123]/reports.jsonl)
	# balanced by case counts: 28 cases, one unit of 3, so 9 or 10 each
	for i in 1 2 3; do
		n=$(wc -l < s$i/reports.jsonl)
		[ "$n" -ge 8 ] && [ "$n" -le 11 ]
		expect_grep "^assay: shard $i/3: $n of 28 cases" s$i.err
	done
	# each shard says which it is
	jq -e ".shard.index == 2 and .shard.count == 3 and .shard.cases == 28 and (.shard.split | length) == 64 and (.shard.suite_hash | length) == 64" s2/summary.json
	jq -e ".shard.index == 2" <(sqlite3 s2/assay.db "SELECT meta FROM run")
	# the same split on every run (and machine): the same cases again
	run_assay run "$SUITE" -o again2 --shard 2/3 -q; [ "$code" != 2 ]
	test_cmp <(names s2) <(names again2)
	jq -e --slurpfile a s2/summary.json ".shard == \$a[0].shard" again2/summary.json'

test_case 'one shard, and more shards than cases, still merge' '
	run_assay run "$SUITE" -o one --shard 1/1 -q; expect_exit 1
	run_assay merge one --suite "$SUITE" -o one-merged -q --value-cap 200; expect_exit 1
	test_cmp <(in_order single) <(strip one-merged/reports.jsonl)
	for i in $(seq 1 30); do "$ASSAY" run "$SUITE" -o many$i --shard $i/30 -q >/dev/null 2>&1 || true; done
	[ "$(cat many*/reports.jsonl | wc -l)" = 28 ]
	[ "$(jq -s "map(select(.totals.total == 0)) | length" many*/summary.json)" -ge 2 ]
	run_assay merge many* --suite "$SUITE" -o many-merged -q --value-cap 200; expect_exit 1
	test_cmp <(in_order single) <(strip many-merged/reports.jsonl)'

test_case '--shard-durations balances by an earlier run: the slow case gets a shard of its own' '
	# m3 took 100 s, every other case 1 s
	jq -c "if .id == \"m3\" then .duration = 100 else .duration = 1 end" single/reports.jsonl > durations.jsonl
	for i in 1 2; do
		run_assay run "$SUITE" -o d$i --shard $i/2 --shard-durations durations.jsonl -q
	done
	n1=$(wc -l < d1/reports.jsonl); n2=$(wc -l < d2/reports.jsonl)
	[ $((n1 + n2)) = 28 ]
	slow=$(grep -l "\"id\": \"m3\"" d1/reports.jsonl d2/reports.jsonl)
	[ "$(wc -l < "$slow")" = 1 ]
	# without durations the split is by counts: 14 and 14 (give or take the shared group)
	run_assay run "$SUITE" -o c1 --shard 1/2 -q
	n=$(wc -l < c1/reports.jsonl); [ "$n" -ge 12 ] && [ "$n" -le 16 ]
	# a results folder works as well as its reports.jsonl
	mkdir prev && cp durations.jsonl prev/reports.jsonl
	run_assay run "$SUITE" -o d1b --shard 1/2 --shard-durations prev -q
	test_cmp <(names d1) <(names d1b)
	run_assay merge d1 d2 --suite "$SUITE" -o d-merged -q --value-cap 200; expect_exit 1
	test_cmp <(in_order single) <(strip d-merged/reports.jsonl)
	# a split with other durations is another split: not merged with this one
	run_assay merge d1 c1 --suite "$SUITE" -o bad -q; expect_exit 2
	expect_grep "were split differently" err
	[ ! -e bad ]
	run_assay run "$SUITE" -o x --shard-durations durations.jsonl; expect_exit 2
	expect_grep "give --shard too" err
	run_assay run "$SUITE" -o x --shard 1/2 --shard-durations no-such.jsonl; expect_exit 2
	echo "not json" > bad.jsonl
	run_assay run "$SUITE" -o x --shard 1/2 --shard-durations bad.jsonl; expect_exit 2
	expect_grep "bad.jsonl:1" err'

test_case '--shard auto: Slurm job arrays and Kubernetes Indexed Jobs' '
	# --array=4-6: task 5 is the second of three
	SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_MAX=6 SLURM_ARRAY_TASK_COUNT=3 \
		"$ASSAY" run "$SUITE" -o slurm2 --shard auto -q || true
	test_cmp <(names s2) <(names slurm2)
	# --array=0-4:2: task 4 is the third of three
	SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=4 SLURM_ARRAY_TASK_STEP=2 \
		SLURM_ARRAY_TASK_COUNT=3 "$ASSAY" run "$SUITE" -o slurm3 --shard auto -q || true
	test_cmp <(names s3) <(names slurm3)
	# --array=1,4,9 has no rank to compute
	code=0; SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=9 SLURM_ARRAY_TASK_COUNT=3 \
		"$ASSAY" run "$SUITE" -o x --shard auto 2>err >/dev/null || code=$?
	expect_exit 2; expect_grep "not an evenly stepped range" err
	code=0; SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 \
		"$ASSAY" run "$SUITE" -o x --shard auto/4 2>err >/dev/null || code=$?
	expect_exit 2; expect_grep "has 3 tasks" err
	# Kubernetes: a 0-based index; the count from ASSAY_SHARD_COUNT or auto/N
	JOB_COMPLETION_INDEX=0 ASSAY_SHARD_COUNT=3 "$ASSAY" run "$SUITE" -o k1 --shard auto -q || true
	test_cmp <(names s1) <(names k1)
	JOB_COMPLETION_INDEX=2 "$ASSAY" run "$SUITE" -o k3 --shard auto/3 -q || true
	test_cmp <(names s3) <(names k3)
	run_assay merge k1 s2 k3 --suite "$SUITE" -o k-merged -q; expect_exit 1
	code=0; JOB_COMPLETION_INDEX=1 "$ASSAY" run "$SUITE" -o x --shard auto 2>err >/dev/null || code=$?
	expect_exit 2; expect_grep "ASSAY_SHARD_COUNT" err
	code=0; JOB_COMPLETION_INDEX=3 ASSAY_SHARD_COUNT=3 "$ASSAY" run "$SUITE" -o x --shard auto 2>err >/dev/null || code=$?
	expect_exit 2; expect_grep "shard 4 of 3 does not exist" err
	code=0; env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX "$ASSAY" run "$SUITE" -o x --shard auto 2>err >/dev/null || code=$?
	expect_exit 2; expect_grep "no SLURM_ARRAY_TASK_ID" err
	[ ! -e x ]'

test_case 'a wrong --shard is a usage error' '
	for bad in 0/3 4/3 3 x/3 1/0 -1/3 1/x "" 1/3/3 auto/0; do
		run_assay run "$SUITE" -o x --shard "$bad"; expect_exit 2
	done
	run_assay run "$SUITE" -o x --shard 0/3; expect_grep "numbered from 1" err
	run_assay run "$SUITE" -o x --shard 1/100001; expect_exit 2
	[ ! -e x ]'

test_case 'merge refuses a missing, duplicated or foreign shard, and changes nothing' '
	run_assay merge s1 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "shard 2/3 is missing" err
	run_assay merge s1 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "shards 2/3, 3/3 are missing" err
	cp -r s2 s2-copy
	run_assay merge s1 s2 s2-copy s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "shard 2/3 is given twice: s2 and s2-copy" err
	# N differs
	run_assay run "$SUITE" -o h1 --shard 1/2 -q
	run_assay merge h1 s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "shard 1/2 but s2 is shard 2/3" err
	# another selection
	run_assay run "$SUITE" -o sel1 --shard 1/3 -g core -q
	run_assay merge sel1 s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "split differently" err
	# another suite (suite.yaml changed)
	cp -r "$SUITE" other && sed -i "s/^name: shard/name: other/" other/suite.yaml
	run_assay run other -o o1 --shard 1/3 -q
	run_assay merge o1 s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "hold runs of different suites" err
	# not a shard, not results at all
	run_assay merge single s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "single: holds a run that was not sharded" err
	run_assay merge nowhere s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "not a results folder" err
	run_assay merge s1 s2 s3 -q; expect_exit 2
	run_assay merge s1 s2 s3 --suite "$SUITE" -o s2 -q; expect_exit 2
	# the same folder by another name: refused, the shard untouched
	before=$(sha256sum s2/summary.json)
	run_assay merge s1 s2 s3 --suite "$SUITE" -o ./s2/ -q; expect_exit 2
	expect_grep "is the shard s2" err
	ln -s s2 s2-link
	run_assay merge s1 s2-link s3 --suite "$SUITE" -o s2 -q; expect_exit 2
	[ "$(sha256sum s2/summary.json)" = "$before" ]
	[ "$(wc -l < s2/reports.jsonl)" -ge 8 ]
	[ ! -e m ]'

test_case 'merge refuses an unfinished shard and a shard store that lies' '
	cp -r s1 cut1 && sqlite3 cut1/assay.db "UPDATE run SET finished = NULL"
	run_assay merge cut1 s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "shard 1/3 did not finish" err
	# a case copied into a second shard
	cp -r s1 dup1
	sqlite3 dup1/assay.db "ATTACH \"s2/assay.db\" AS o; INSERT INTO cases (position, checkpoint, grp, id, passed, score, line) SELECT position, checkpoint, grp, id, passed, score, line FROM o.cases LIMIT 1"
	run_assay merge dup1 s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "is in two shards: dup1 and s2" err
	# two cases at one place
	cp -r s1 twice1
	sqlite3 twice1/assay.db "INSERT INTO cases (position, checkpoint, grp, id, passed, score, line) SELECT position, checkpoint, grp, id || \"x\", passed, score, line FROM cases WHERE position = (SELECT min(position) FROM cases)"
	run_assay merge twice1 s2 s3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "two cases have one place in the run" err
	# a case taken out
	cp -r s3 hole3 && sqlite3 hole3/assay.db "DELETE FROM cases WHERE seq = (SELECT max(seq) FROM cases)"
	run_assay merge s1 s2 hole3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "in no shard: a shard.s results are incomplete" err
	# a position past the run
	cp -r s3 far3 && sqlite3 far3/assay.db "UPDATE cases SET position = 9999 WHERE seq = (SELECT max(seq) FROM cases)"
	run_assay merge s1 s2 far3 --suite "$SUITE" -o m -q; expect_exit 2
	expect_grep "has no place in the run" err
	[ ! -e m ]'

test_case 'merge replaces an existing results folder whole, never anything else' '
	run_assay merge s1 s2 s3 --suite "$SUITE" -o res -q --value-cap 200; expect_exit 1
	run_assay merge s1 s2 s3 --suite "$SUITE" -o res -q --value-cap 200; expect_exit 1
	test_cmp <(in_order single) <(strip res/reports.jsonl)
	[ "$(ls -a | grep -c "merge-")" = 0 ]
	mkdir keep && echo precious > keep/file
	run_assay merge s1 s2 s3 --suite "$SUITE" -o keep -q; expect_exit 2
	expect_grep "not a results folder: not replaced" err
	[ "$(cat keep/file)" = precious ]
	mkdir empty
	run_assay merge s1 s2 s3 --suite "$SUITE" -o empty -q; expect_exit 1
	[ -s empty/summary.json ]
	run_assay merge s1 s2 s3 --suite "$SUITE" -o res2/ -q; expect_exit 1
	run_assay merge s1 s2 s3 --suite "$SUITE" -o res2// -q; expect_exit 1
	[ -s res2/summary.json ] && [ "$(ls -a res2 | grep -c merge-)" = 0 ]
	# a failed merge leaves the old results as they were
	before=$(sha256sum res/summary.json)
	run_assay merge s1 s2 --suite "$SUITE" -o res -q; expect_exit 2
	[ "$(sha256sum res/summary.json)" = "$before" ]'

test_case '--resume continues the same shard only' '
	cp -r s2 r2
	run_assay run "$SUITE" -o r2 --shard 2/3 --resume -q
	[ "$code" = 0 ] || [ "$code" = 1 ]
	test_cmp <(names s2) <(names r2)
	run_assay run "$SUITE" -o r2 --shard 1/3 --resume -q; expect_exit 2
	expect_grep "another shard" err
	run_assay run "$SUITE" -o r2 --resume -q; expect_exit 2
	expect_grep "a shard.s run" err'

test_case 'an api suite: each group stays whole in one shard (its cases share one server)' '
	API="$FIXTURES/suites/api"
	for i in 1 2 3; do
		code=0; "$ASSAY" run "$API" -o "api$i" --shard "$i/3" -q || code=$?
		[ "$code" -le 1 ]
	done
	for g in core failing; do
		n=$(grep -l "\"group\": \"$g\"" api1/reports.jsonl api2/reports.jsonl api3/reports.jsonl | wc -l)
		[ "$n" = 1 ]
	done
	cat api1/reports.jsonl api2/reports.jsonl api3/reports.jsonl | jq -r .id | sort > got
	[ "$(wc -l < got)" = 7 ]
	run_assay merge api1 api2 api3 --suite "$API" -o apim; expect_exit 1'

test_case 'a value beyond 1 MiB (a blob file) goes through shards and merge whole' '
	mkdir -p big/c/g
	printf "name: big\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > big/suite.yaml
	for x in a b; do
		printf "arguments: [\"yes $x | head -c 2097152\"]\nexpected: {output: \"no\"}\n" > big/c/g/$x.yaml
	done
	run_assay run big -o bsingle -q; expect_exit 1
	for i in 1 2; do run_assay run big -o "b$i" --shard "$i/2" -q; done
	run_assay merge b1 b2 --suite big -o bmerged; expect_exit 1
	[ "$(ls bmerged/blobs | wc -l)" = 2 ]
	[ "$(sqlite3 bmerged/assay.db "SELECT count(*) FROM blobs b JOIN blob_chunks c ON c.blob = b.sha256 WHERE b.bytes > 1048576")" = 0 ]
	run_assay show bmerged a -a output --value actual; expect_exit 0
	[ "$(grep -c "^a$" out)" = 1048576 ] && [ "$(grep -vc "^a$" out)" = 0 ]
	test_cmp <(sqlite3 bsingle/assay.db "SELECT sha256, bytes FROM blobs ORDER BY 1") \
		<(sqlite3 bmerged/assay.db "SELECT sha256, bytes FROM blobs ORDER BY 1")'

test_case 'hostile review: blob files that are not plain files of their bytes are refused' '
	f=$(ls b1/blobs | head -1)
	[ -n "$f" ]
	# an empty record without file or chunk: the SHA-256 of nothing is not its name
	cp -r b1 hz1
	rm hz1/blobs/$f
	sqlite3 hz1/assay.db "UPDATE blobs SET bytes = 0 WHERE sha256 = '\''$f'\''"
	run_assay merge hz1 b2 --suite big -o hzm; expect_exit 2
	expect_grep "does not hold the bytes its SHA-256 names" err
	sqlite3 hz1/assay.db "UPDATE blobs SET bytes = -1 WHERE sha256 = '\''$f'\''"
	run_assay merge hz1 b2 --suite big -o hzm; expect_exit 2
	expect_grep "negative size" err
	# a device node is never opened (with root only: mknod)
	if [ "$(id -u)" = 0 ]; then
		cp -r b1 hd1
		rm hd1/blobs/$f
		mknod hd1/blobs/$f c 1 5
		run_assay merge hd1 b2 --suite big -o hdm; expect_exit 2
		expect_grep "is not a file of the recorded size" err
	fi
	[ ! -e hzm ] && [ ! -e hdm ]'

test_case 'hostile review: a temporary blob name left by a killed run of the same pid is skipped' '
	rm -rf tmpres
	run_assay run big -o tmpres -q --case a; expect_exit 1
	rc=0
	sh -c "touch tmpres/blobs/.tmp-\$\$-1 tmpres/blobs/.tmp-\$\$-2; exec \"$ASSAY\" run big -o tmpres --resume -q" || rc=$?
	[ $rc = 1 ]
	[ "$(sqlite3 tmpres/assay.db "SELECT count(*) FROM cases")" = 2 ]'

test_done
