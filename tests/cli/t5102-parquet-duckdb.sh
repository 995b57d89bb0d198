#!/usr/bin/env bash
# The Parquet writer's files read back by an independent reader, DuckDB (its Node package
# @duckdb/node-api from the npm registry): every value of every row, the column types, the
# schema as DuckDB sees it (repetition, logical types) and statistics that never hide a row.
# Needs node and the package, which scripts/install-deps.sh --tests installs; without them the
# test is skipped (lib.sh's skip: a failure under CI=true).
. "$(dirname "$0")/lib.sh"
: "${ASSAY_TEST_PARQUET:?ASSAY_TEST_PARQUET must name the assay-test-parquet program}"

# Installed by scripts/install-deps.sh --tests (no test downloads at test time).
NODE_DIR=${ASSAY_TEST_NODE_DIR:-/usr/local/lib/assay-test-node}

require_cmd node
[ -d "$NODE_DIR/node_modules/@duckdb/node-api" ] ||
	skip "no @duckdb/node-api in $NODE_DIR (scripts/install-deps.sh --tests installs it)"
export NODE_PATH="$NODE_DIR/node_modules"
node -e 'require(process.env.NODE_PATH + "/@duckdb/node-api")' >/dev/null 2>&1 ||
	skip "@duckdb/node-api does not load in this node ($(node --version))"

mkdir pq
"$ASSAY_TEST_PARQUET" pq 2>pq.err || { cat pq.err; exit 1; }
if grep -E -q "(Address|Leak|UndefinedBehavior)Sanitizer|runtime error:" pq.err; then
	cat pq.err
	exit 1
fi

# read_back NAME: DuckDB's reading of pq/NAME.parquet equals pq/NAME.expected, value by value.
read_back() {
	node "$ASSAY_SRC/tests/parquet/dump.mjs" "pq/$1.parquet" "pq/$1.got" "pq/$1.schema" \
		"pq/$1.meta"
	test_cmp "pq/$1.expected" "pq/$1.got"
}

test_case 'every flat type, required and optional, nulls, unicode, repaired bytes (zstd)' '
	read_back all_types'
test_case 'the same rows, uncompressed' '
	read_back all_types_plain
	[ "$(cut -f5 pq/all_types_plain.meta | sort -u | grep -v compression)" = UNCOMPRESSED ]'
test_case '100,000 rows in four row groups' '
	read_back big
	[ "$(wc -l < pq/big.got)" = 100001 ]
	[ "$(cut -f1,2 pq/big.meta | sort -u | grep -v row_group | tr "\t\n" ": ")" = "0:30000 1:30000 2:30000 3:10000 " ]
	[ "$(cut -f5 pq/big.meta | sort -u | grep -v compression)" = ZSTD ]'
test_case 'SlopCodeBench reports: lists of structs, null and empty lists, null members' '
	read_back reports
	expect_grep "^results	null	OPTIONAL	1	LIST	ListType\(\)$" pq/reports.schema
	expect_grep "^list	null	REPEATED	1	null	null$" pq/reports.schema
	expect_grep "^element	null	OPTIONAL	6	null	null$" pq/reports.schema
	expect_grep "^is_correct	BOOLEAN	OPTIONAL	null	null	null$" pq/reports.schema
	expect_grep "^id	BYTE_ARRAY	OPTIONAL	null	UTF8	StringType\(\)$" pq/reports.schema'
test_case 'an empty file has its columns and no rows' '
	read_back empty
	[ "$(cat pq/empty.got)" = "#a:VARCHAR	b:BIGINT" ]'
test_case 'timestamps are UTC microseconds, required columns are REQUIRED' '
	expect_grep "^t	INT64	REQUIRED	null	TIMESTAMP_MICROS	TimestampType\(isAdjustedToUTC=1, unit=TimeUnit\(.*MICROS=MicroSeconds\(\)" pq/all_types.schema
	expect_grep "^t_opt	INT64	OPTIONAL	" pq/all_types.schema'

test_done
