#!/usr/bin/env bash
# reports.parquet read back (issue 17 item 2, from_parquet_row): `assay report FILE.parquet` and
# `assay show FILE.parquet` give the report lines the file was written from (the contract's
# columns: id, group, type, timestamp, duration, results, case, original_checkpoint,
# original_group; score and passed remade by calculate_score and did_pass), DuckDB reads the
# same rows when its node package is installed (scripts/install-deps.sh --tests), and a damaged
# file is a clear error, never a crash.
. "$(dirname "$0")/lib.sh"
SUITE="$FIXTURES/suites/verifiers"

# The contract's fields of a report line, with ensure_json_string undone as from_parquet_row
# does (JSON text read as its value) and case.score / case.passed as calculate_score / did_pass
# (assay's additions live in the line's case object, report.h).
cat > contract.jq <<'EOF'
def unj: if type == "string" then (. as $s | try fromjson catch $s) else . end;
# (not map_values: jq 1.6 loses a try inside |=)
def mapv(f): with_entries({key, value: (.value | f)});
def calc: [.results[] | select(.is_correct != null)] as $v
  | if ($v | map(.weight) | add // 0) > 0
    then ($v | map(if .is_correct then .weight else 0 end) | add) / ($v | map(.weight) | add)
    else 0 end;
. as $l |
{id, group, type, timestamp, duration, original_checkpoint, original_group,
 case: ((.case | mapv(unj)) + {score: ($l | calc),
        passed: ([$l.results[] | select(.is_correct != null) | .is_correct] | all)}),
 results: (.results | mapv({attribute, actual: (.actual | unj), expected: (.expected | unj),
                                  diff: (.diff | unj), is_correct, weight}))}
EOF

test_case 'assay report FILE.parquet gives back the lines the file was written from' '
	run_assay run "$SUITE" -o res; expect_exit 1
	run_assay report res --format parquet -o r.parquet; expect_exit 0
	run_assay report r.parquet --format jsonl -o back.jsonl; expect_exit 0
	run_assay report res --format jsonl -o orig.jsonl; expect_exit 0
	[ "$(wc -l < back.jsonl)" = "$(wc -l < orig.jsonl)" ] && [ "$(wc -l < back.jsonl)" -gt 5 ]
	jq -cS -f contract.jq orig.jsonl > want
	jq -cS . back.jsonl > got
	test_cmp want got'

test_case 'other report formats and show read a parquet file as they read a results folder' '
	run_assay report r.parquet --format junit -o r.xml; expect_exit 0
	grep -q "<testsuites" r.xml
	id=$(jq -r "select(.case.passed == false) | .id" back.jsonl | head -n 1)
	run_assay show r.parquet "$id"; expect_exit 0
	jq -e ".id == \"$id\" and (.results | length) > 0" out >/dev/null
	run_assay show r.parquet "$id" --attribute output --value expected; expect_exit 0
	run_assay show r.parquet no-such-case; expect_exit 1
	expect_grep "no case matches" err'

test_case 'a damaged or foreign parquet file is an error that says what is wrong' '
	head -c 300 r.parquet > cut.parquet
	run_assay report cut.parquet --format jsonl; expect_exit 2
	expect_grep "not a Parquet file as assay writes them" err
	size=$(stat -c %s r.parquet)
	# the footer and page headers at set places, then every 101st byte with bytes that vary
	offs="8 40 100 $((size - 60)) $((size - 30)) $((size - 12))"
	offs="$offs $(seq 4 101 $((size - 8)))"
	i=0
	for off in $offs; do
		i=$((i + 1))
		cp r.parquet bad.parquet
		case $((i % 4)) in
		0) b="\377\377\377\377" ;; 1) b="\000" ;; 2) b="\177\001" ;; *) b="\200\200\200\200\001" ;;
		esac
		printf "$b" | dd of=bad.parquet bs=1 seek=$off conv=notrunc 2>/dev/null
		run_assay report bad.parquet --format jsonl -o /dev/null
		[ "$code" = 0 ] || [ "$code" = 2 ] || { echo "offset $off: exit $code"; cat err; exit 1; }
	done'

# Installed by scripts/install-deps.sh --tests (no test downloads at test time).
NODE_DIR=${ASSAY_TEST_NODE_DIR:-/usr/local/lib/assay-test-node}
test_case 'DuckDB reads the same rows (ids, groups, attributes, verdicts)' '
	require_cmd node
	[ -d "$NODE_DIR/node_modules/@duckdb/node-api" ] ||
		skip "no @duckdb/node-api in $NODE_DIR (scripts/install-deps.sh --tests installs it)"
	cat > duck.cjs <<-EOF
	const { DuckDBInstance } = require("@duckdb/node-api");
	(async () => {
	  const db = await DuckDBInstance.create(":memory:");
	  const c = await db.connect();
	  const r = await c.runAndReadAll("SELECT checkpoint, \"group\" AS g, id, list_transform(results, x -> x.attribute || \x27=\x27 || coalesce(lower(x.is_correct::VARCHAR), \x27null\x27)) AS a FROM read_parquet(\x27r.parquet\x27)");
	  for (const row of r.getRowObjectsJS()) console.log([row.checkpoint, row.g, row.id, row.a.join(",")].join("\t"));
	})();
	EOF
	NODE_PATH="$NODE_DIR/node_modules" node duck.cjs | sort > duck.got
	jq -r "[.case.checkpoint, .group, .id, ([.results[] | .attribute + \"=\" + (if .is_correct == null then \"null\" else (.is_correct | tostring) end)] | join(\",\"))] | @tsv" back.jsonl | sort > duck.want
	test_cmp duck.want duck.got'

test_done
