#!/usr/bin/env bash
# With every shard under a producer's control, the split's fingerprint (an unkeyed SHA-256 of
# public data) can be remade for any change, so `assay merge` checks what it can against the
# suite it is given (hostile review F5; docs/scale-out.md "What a merge checks"): the
# checkpoints, groups and their types of the shards' summaries must be the suite's, and the
# cases the shards hold must be exactly those the shards' recorded selection (--checkpoint,
# --group, --case, --last-failed) keeps of the suite; the selection is kept in the merged run's
# description.
. "$(dirname "$0")/lib.sh"

require_cmd jq
require_cmd sqlite3
require_cmd python3

# f fails (wrong output), p passes; the group is Core.
mkdir -p s/c/g
printf 'name: rv\nadapter: {type: cli, command: [sh, -c]}\ncheckpoints: {c: {groups: {g: {type: Core}}}}\n' \
	> s/suite.yaml
printf 'arguments: ["echo wrong"]\nexpected: {output: "right\\n", status_code: 0}\n' > s/c/g/f.yaml
printf 'arguments: ["echo right"]\nexpected: {output: "right\\n", status_code: 0}\n' > s/c/g/p.yaml

# The split fingerprint of shards/split.c remade for a 1/1 split of c/g's isolated cases IDS
# (comma-separated) with group type TYPE: what a producer controlling every shard can compute.
fingerprint() {
	python3 - "$1" "$2" "$3" <<'PY'
import hashlib, sys
suite_hash, gtype, ids = sys.argv[1:4]
m = hashlib.sha256()
def add(s): m.update(s.encode() + b'\0')
for s in ["assay shard split 2", suite_hash, "1", "c", "g", gtype]: add(s)
for i in ids.split(','):
    for s in ["unit", "c/g/" + i, "1", "case", i]: add(s)
print(m.hexdigest())
PY
}

meta() { sqlite3 "$1/assay.db" "SELECT meta FROM run"; }

test_case 'the fingerprint remade here is the one assay makes (the attacks below are real)' '
	run_assay run s -o s1 --shard 1/1 -q; expect_exit 1
	H=$(meta s1 | jq -r .suite_hash)
	[ "$(fingerprint "$H" Core f,p)" = "$(meta s1 | jq -r .shard.split)" ]'

test_case 'every group made Error (summary, lines, fingerprint remade): refused' '
	H=$(meta s1 | jq -r .suite_hash)
	cp -r s1 f1
	sqlite3 f1/assay.db "UPDATE run SET summary = json_set(summary, '\''$.checkpoints.c.groups.g.type'\'', '\''Error'\''),
		meta = json_set(meta, '\''$.shard.split'\'', '\''$(fingerprint "$H" Error f,p)'\'');
		UPDATE cases SET type = '\''Error'\'', line = json_set(line, '\''$.type'\'', '\''Error'\'')"
	run_assay merge f1 --suite s -o m -q; expect_exit 2
	expect_grep "group c/g is Error in the shards. summary but Core in the suite" err
	[ ! -e m ]'

test_case 'the honest selection (--case p) merges, and the merged run says what it selected' '
	run_assay run s -o p1 --shard 1/1 --case p -q; expect_exit 0
	meta p1 | jq -e ".shard.selection.cases == [\"p\"]"
	run_assay merge p1 --suite s -o pm -q; expect_exit 0
	meta pm | jq -e ".merged.selection.cases == [\"p\"] and .merged.selection.checkpoint == null"
	meta pm | jq -e ".merged.from[0].arguments | index(\"--case\") != null"'

test_case 'the failing case dropped (a --case p shard whose selection is erased): refused' '
	cp -r p1 p2
	sqlite3 p2/assay.db "UPDATE run SET meta = json_set(meta, '\''$.shard.selection.cases'\'', json('\''[]'\''))"
	run_assay merge p2 --suite s -o m2 -q; expect_exit 2
	expect_grep "case c/g/f of the suite.s selection is in no shard" err
	[ ! -e m2 ]'

test_case 'a shard that does not say what it selected: refused' '
	cp -r p1 p3
	sqlite3 p3/assay.db "UPDATE run SET meta = json_remove(meta, '\''$.shard.selection'\'')"
	run_assay merge p3 --suite s -o m3 -q; expect_exit 2
	expect_grep "does not say which cases it selected" err
	[ ! -e m3 ]'

test_case 'shards of different selections: refused' '
	run_assay run s -o q1 --shard 1/2 -q --case "*"
	run_assay run s -o q2 --shard 2/2 -q
	run_assay merge q1 q2 --suite s -o m4 -q; expect_exit 2
	expect_grep "selected other cases" err
	[ ! -e m4 ]'

test_case 'a shard whose description lacks host, started and arguments: merged, no crash' '
	cp -r p1 p4
	sqlite3 p4/assay.db "UPDATE run SET meta = json_remove(meta, '\''$.host'\'', '\''$.arguments'\'', '\''$.started'\'')"
	run_assay merge p4 --suite s -o m5 -q; expect_exit 0
	meta m5 | jq -e ".merged.from[0].host == null and .merged.from[0].arguments == null"'

test_done
