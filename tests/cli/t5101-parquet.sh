#!/usr/bin/env bash
# The Parquet writer's files from the outside: magic bytes, footer length, no temp file left
# behind, the same bytes for the same rows. tests/cli/t5102-parquet-duckdb.sh reads the values
# back with DuckDB.
. "$(dirname "$0")/lib.sh"
: "${ASSAY_TEST_PARQUET:?ASSAY_TEST_PARQUET must name the assay-test-parquet program}"

# write_files DIR: runs the writer program, failing on a sanitizer report.
write_files() {
	mkdir -p "$1"
	"$ASSAY_TEST_PARQUET" "$1" 2>"$1.err"
	! grep -E -q "(Address|Leak|UndefinedBehavior)Sanitizer|runtime error:" "$1.err" || false
}

# u32le FILE OFFSET: the little-endian 32-bit number at OFFSET.
u32le() {
	od -An -t u4 --endian=little -j "$2" -N 4 "$1" | tr -d " "
}

test_case 'every file starts and ends with PAR1 around a footer that fits in it' '
	write_files pq
	for f in pq/*.parquet; do
		size=$(stat -c %s "$f")
		[ "$(head -c 4 "$f")" = PAR1 ]
		[ "$(tail -c 4 "$f")" = PAR1 ]
		footer=$(u32le "$f" $((size - 8)))
		[ "$footer" -gt 0 ] && [ "$footer" -le $((size - 12)) ] || { echo "$f: footer $footer, size $size"; exit 1; }
	done
	[ "$(ls pq/*.parquet | wc -l)" = 5 ]'
test_case 'no temp file is left beside a finished file' '
	write_files pq
	[ -z "$(ls pq | grep -v -e "\.parquet\$" -e "\.expected\$")" ] || { ls pq; exit 1; }'
test_case 'the same rows give the same bytes' '
	write_files a
	write_files b
	for f in a/*.parquet; do cmp "$f" "b/${f#a/}"; done'
test_case 'an empty file is 4 magic bytes, a footer and its length' '
	write_files pq
	size=$(stat -c %s pq/empty.parquet)
	[ $((4 + $(u32le pq/empty.parquet $((size - 8))) + 8)) = "$size" ]'

test_done
