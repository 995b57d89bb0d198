#!/usr/bin/env bash
# The Parquet writer's files read back by an independent reader, DuckDB (its Node package
# @duckdb/node-api from the npm registry): every value of every row, the column types, the
# schema as DuckDB sees it (repetition, logical types) and statistics that never hide a row.
# Needs node and npm; without them, or when the package cannot be installed, the test prints
# "skipped:" with the reason (ctest then reports it as skipped, not passed).
. "$(dirname "$0")/lib.sh"
: "${ASSAY_TEST_PARQUET:?ASSAY_TEST_PARQUET must name the assay-test-parquet program}"

DUCKDB_NODE_API=@duckdb/node-api@1.5.6-r.1
# Installed once per build folder, outside the source tree.
NPM_DIR=$(cd "$(dirname "$ASSAY_TEST_PARQUET")" && pwd)/duckdb-node

skip() {
	echo "skipped: $1"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
}

command -v node >/dev/null 2>&1 || skip "node is not installed (scripts/install-deps.sh installs it)"
if [ ! -d "$NPM_DIR/node_modules/@duckdb/node-api" ]; then
	command -v npm >/dev/null 2>&1 || skip "npm is not installed (scripts/install-deps.sh installs it)"
	mkdir -p "$NPM_DIR"
	if ! timeout 600 npm install --prefix "$NPM_DIR" --no-audit --no-fund --no-save \
		"$DUCKDB_NODE_API" >"$TMP/npm.log" 2>&1; then
		sed 's/^/    /' "$TMP/npm.log" | tail -n 20
		skip "npm could not install $DUCKDB_NODE_API"
	fi
fi
export NODE_PATH="$NPM_DIR/node_modules"
node -e 'require(process.env.NODE_PATH + "/@duckdb/node-api")' >/dev/null 2>&1 ||
	skip "$DUCKDB_NODE_API does not load in this node ($(node --version))"

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
