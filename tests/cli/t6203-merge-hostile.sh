#!/usr/bin/env bash
# `assay merge` and the readers of a results folder do not trust a hostile shard (docs/security.md,
# "What a merge trusts"; docs/scale-out.md): a case renamed, swapped or added, a verdict its
# attributes do not make, a blob whose bytes are not its hash, a shard run on a copy of the suite
# with edited case files, a store whose tables are endless views, and absurd counts are refused
# (exit 2) and nothing is written.
. "$(dirname "$0")/lib.sh"

require_cmd jq
require_cmd sqlite3

# A copy of the suite (its case files are edited below) and its two shards; a small value cap
# makes report lines cut values into the stores' blobs.
cp -r "$FIXTURES/suites/shard" suite
for i in 1 2; do
	"$ASSAY" run suite -o "s$i" --shard "$i/2" --value-cap 200 -q >/dev/null 2>&1
done

# The shard (s1 or s2) holding case checkpoint_1/core/$1.
holder() {
	for i in 1 2; do
		[ "$(sqlite3 s$i/assay.db "SELECT count(*) FROM cases WHERE checkpoint = 'checkpoint_1' AND grp = 'core' AND id = '$1'")" = 1 ] &&
			{ echo "s$i"; return; }
	done
}

# Two isolated cases of checkpoint_1/core held by one shard, and one held by the other.
for id in a b c d e f g z-first; do echo "$(holder $id) $id"; done > where
read -r S X <<<"$(grep -m1 '^s1 ' where)"
Y=$(grep '^s1 ' where | sed -n 2p | cut -d" " -f2)
read -r T Z <<<"$(grep -m1 '^s2 ' where)"

# merge_refused PATTERN SHARDS...: the merge exits 2 with PATTERN and writes nothing.
merge_refused() {
	local pattern=$1
	shift
	rm -rf m
	run_assay merge --suite "${SUITE_DIR:-suite}" "$@" -o m -q; expect_exit 2
	expect_grep "$pattern" err
	[ ! -e m ]
}

test_case 'the honest shards merge (the baseline of the attacks below)' '
	[ -n "$X" ] && [ -n "$Y" ] && [ -n "$Z" ]
	run_assay merge s1 s2 -o m -q --suite suite; expect_exit 1
	jq -e ".totals.passed > 0" m/summary.json'

test_case 'a case renamed to a case of another shard is held twice: refused' '
	cp -r s1 r1
	sqlite3 r1/assay.db "UPDATE cases SET id = '\''$Z'\'', passed = 1, score = 1,
		line = json_set(line, '\''$.id'\'', '\''$Z'\'') WHERE grp = '\''core'\'' AND id = '\''$X'\''"
	merge_refused "case checkpoint_1/core/$Z is held twice" r1 s2'

test_case 'cases swapped, renamed or moved within a shard: not where the split put them' '
	cp -r s1 w1
	sqlite3 w1/assay.db "UPDATE cases SET id = '\''tmp'\'' WHERE grp = '\''core'\'' AND id = '\''$X'\'';
		UPDATE cases SET id = '\''$X'\'' WHERE grp = '\''core'\'' AND id = '\''$Y'\'';
		UPDATE cases SET id = '\''$Y'\'' WHERE grp = '\''core'\'' AND id = '\''tmp'\''"
	merge_refused "not those their split placed there" w1 s2
	cp -r s1 n1
	sqlite3 n1/assay.db "UPDATE cases SET id = '\''new'\'' WHERE grp = '\''core'\'' AND id = '\''$X'\''"
	merge_refused "not those their split placed there" n1 s2
	# a whole group is one unit: a case of it renamed still shows
	for s in s1 s2; do grep -q "\"group\": \"shared\"" $s/reports.jsonl && h=$s; done
	cp -r $h h1
	sqlite3 h1/assay.db "UPDATE cases SET id = id || '\''x'\'' WHERE seq = (SELECT max(seq) FROM cases WHERE grp = '\''shared'\'')"
	if [ $h = s1 ]; then merge_refused "not those their split placed" h1 s2
	else merge_refused "not those their split placed" s1 h1; fi'

test_case 'a case that says passed but whose attributes do not: refused' '
	h=$(holder h-fails)
	cp -r $h p1
	sqlite3 p1/assay.db "UPDATE cases SET passed = 1, score = 1, line = json_set(line,
		'\''$.case.passed'\'', json('\''true'\''), '\''$.case.score'\'', 1) WHERE checkpoint = '\''checkpoint_1'\'' AND id = '\''h-fails'\''"
	if [ $h = s1 ]; then set -- p1 s2; else set -- s1 p1; fi
	merge_refused "case checkpoint_1/core/h-fails: says passed but re-verification fails it" "$@"
	# a score its attributes do not make
	cp -r s1 q1
	sqlite3 q1/assay.db "UPDATE cases SET line = json_set(line, '\''$.case.score'\'', 0.5) WHERE grp = '\''core'\'' AND id = '\''$X'\''"
	merge_refused "says score 0.5 but re-verification makes 1" q1 s2'

test_case 'a blob whose bytes are not its SHA-256: refused' '
	b=$(for s in s1 s2; do [ "$(sqlite3 $s/assay.db "SELECT count(*) FROM blob_chunks")" -gt 0 ] && echo $s; done | head -1)
	[ -n "$b" ]
	cp -r $b b1
	sqlite3 b1/assay.db "UPDATE blob_chunks SET data = CAST('\''forged'\'' AS BLOB)"
	if [ $b = s1 ]; then set -- b1 s2; else set -- s1 b1; fi
	merge_refused "does not hold the bytes its SHA-256 names" "$@"'

test_case 'a shard run on a copy of the suite with an edited case file: refused' '
	cp -r suite edited
	h=$(holder h-fails)
	k=${h#s}
	printf "arguments: [\"echo edited\"]\nexpected: {output: \"edited\\\\n\", status_code: 0}\n" \
		> edited/checkpoint_1/core/h-fails.yaml
	"$ASSAY" run edited -o e$k --shard $k/2 --value-cap 200 -q >/dev/null 2>&1 || true
	[ "$(sqlite3 e$k/assay.db "SELECT passed FROM cases WHERE checkpoint = '\''checkpoint_1'\'' AND id = '\''h-fails'\''")" = 1 ]
	if [ $k = 1 ]; then set -- e1 s2; else set -- s1 e2; fi
	merge_refused "found different case files" "$@"
	# the shard lies about the digest too: the stored case-file hashes give it away
	honest=$(sqlite3 $h/assay.db "SELECT json_extract(meta, '\''$.shard.cases_hash'\'') FROM run")
	sqlite3 e$k/assay.db "UPDATE run SET meta = json_set(meta, '\''$.shard.cases_hash'\'', '\''$honest'\'')"
	merge_refused "ran case checkpoint_1/core/h-fails from another case file" "$@"'

test_case 'a store whose tables are endless views: refused at once by merge, report and show' '
	endless="WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"
	cp -r s1 v1
	sqlite3 v1/assay.db "ALTER TABLE cases RENAME TO c0;
		CREATE VIEW cases AS $endless SELECT c0.* FROM c0, r"
	cp -r s1 v2
	sqlite3 v2/assay.db "ALTER TABLE blob_chunks RENAME TO b0;
		CREATE VIEW blob_chunks AS $endless SELECT b0.* FROM b0, r"
	cp -r s1 v3
	sqlite3 v3/assay.db "ALTER TABLE meta RENAME TO m0;
		CREATE VIEW META AS $endless SELECT m0.* FROM m0, r"
	for v in v1 v2 v3; do
		rm -rf m
		code=0; timeout 30 "$ASSAY" merge $v s2 --suite suite -o m -q >out 2>err || code=$?
		[ $code = 2 ]; expect_grep "is not a plain table: not an assay results store" err; [ ! -e m ]
	done
	code=0; timeout 30 "$ASSAY" report v1 --format tap >out 2>err || code=$?
	[ $code != 0 ] && [ $code != 124 ]; expect_grep "its cases is not a plain table" err
	code=0; timeout 30 "$ASSAY" show v2 "checkpoint_1/core/$X" >out 2>err || code=$?
	[ $code != 0 ] && [ $code != 124 ]; expect_grep "its blob_chunks is not a plain table" err
	# a column gone
	cp -r s1 c1
	sqlite3 c1/assay.db "ALTER TABLE cases DROP COLUMN max_rss"
	merge_refused "its table cases has no column max_rss" c1 s2'

test_case 'absurd counts in a shard: refused, never allocated' '
	cp -r s1 big1
	sqlite3 big1/assay.db "UPDATE run SET meta = json_set(meta, '\''$.shard.count'\'', 4611686018427387904)"
	merge_refused "not a possible shard" big1 s2
	cp -r s1 big2
	sqlite3 big2/assay.db "UPDATE run SET meta = json_set(meta, '\''$.shard.cases'\'', 4611686018427387904)"
	merge_refused "not a possible shard" big2 s2
	cp -r s1 idx1
	sqlite3 idx1/assay.db "UPDATE run SET meta = json_set(meta, '\''$.shard.index'\'', 7)"
	merge_refused "not a possible shard" idx1 s2
	# more cases than the shards hold, in every shard (so the split agrees)
	for s in s1 s2; do
		cp -r $s many$s
		sqlite3 many$s/assay.db "UPDATE run SET meta = json_set(meta, '\''$.shard.cases'\'', 50000000)"
	done
	merge_refused "in no shard" manys1 manys2'

test_case 'a case file edited and its shard resumed: merged with the suite at hand' '
	mkdir re && cd re
	cp -r "$FIXTURES/suites/shard" suite
	for i in 1 2; do "$ASSAY" run suite -o s$i --shard $i/2 -q >/dev/null 2>&1 || true; done
	for i in 1 2; do
		[ "$(sqlite3 s$i/assay.db "SELECT count(*) FROM cases WHERE checkpoint = '\''checkpoint_1'\'' AND grp = '\''core'\'' AND id = '\''a'\''")" = 1 ] && k=$i
	done
	printf "arguments: [\"echo a2\"]\nexpected: {output: \"a2\\\\n\", status_code: 0}\n" \
		> suite/checkpoint_1/core/a.yaml
	# not resumed: the case ran from the old file
	merge_refused "ran case checkpoint_1/core/a from another case file" s1 s2
	# resumed, shard by shard (the regression group checkpoint_2/checkpoint_1_core runs the
	# same file, maybe in the other shard)
	"$ASSAY" run suite -o s$k --shard $k/2 --resume -q >/dev/null 2>&1 || true
	o=$((3 - k))
	if [ "$(sqlite3 s$o/assay.db "SELECT count(*) FROM cases WHERE id = '\''a'\''")" != 0 ]; then
		merge_refused "shard $o ran case checkpoint_2/checkpoint_1_core/a from another case file" s1 s2
		"$ASSAY" run suite -o s$o --shard $o/2 --resume -q >/dev/null 2>&1 || true
	fi
	run_assay merge s1 s2 --suite suite -o m -q; expect_exit 1
	[ "$(sqlite3 m/assay.db "SELECT passed FROM cases WHERE checkpoint = '\''checkpoint_1'\'' AND grp = '\''core'\'' AND id = '\''a'\''")" = 1 ]
	cd ..'

test_done
