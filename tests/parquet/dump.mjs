// Reads a Parquet file with DuckDB (@duckdb/node-api) and prints it in the canonical text form
// that tests/parquet/pq_write.c writes as NAME.expected (see the comment at its top), so the two
// can be compared byte for byte. Also prints DuckDB's view of the file's schema and metadata.
// Usage: node dump.mjs FILE.parquet DATA_OUT SCHEMA_OUT META_OUT
// Run with NODE_PATH naming the node_modules folder that holds @duckdb/node-api.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

const require = createRequire(process.env.NODE_PATH + '/');
const duckdb = require('@duckdb/node-api');
const [file, dataOut, schemaOut, metaOut] = process.argv.slice(2);

const db = await duckdb.DuckDBInstance.create(':memory:');
const con = await db.connect();
const lit = "'" + file.replaceAll("'", "''") + "'";

function fmt(v) {
	if (v === null) return 'null';
	if (typeof v === 'string') return JSON.stringify(v);
	if (typeof v === 'bigint') return v.toString();
	if (typeof v === 'boolean') return v ? 'true' : 'false';
	if (typeof v === 'number') {
		if (Number.isNaN(v)) return 'nan';
		const b = Buffer.alloc(8);
		b.writeDoubleBE(v);
		return 'd:' + b.toString('hex');
	}
	if (v instanceof duckdb.DuckDBTimestampTZValue) return 't:' + v.micros.toString();
	if (v instanceof duckdb.DuckDBListValue) return '[' + v.items.map(fmt).join(',') + ']';
	if (v instanceof duckdb.DuckDBStructValue)
		return '{' + Object.entries(v.entries).map(([k, x]) => k + '=' + fmt(x)).join(',') + '}';
	throw new Error('unexpected value ' + String(v) + ' of ' + typeof v);
}

// Rows in file order: file_row_number is DuckDB's own count of the row's place in the file.
const r = await con.runAndReadAll(
	`SELECT * EXCLUDE (file_row_number) FROM read_parquet(${lit}, file_row_number = true) ` +
	'ORDER BY file_row_number');
const names = r.columnNames();
const types = r.columnTypes().map(String);
const lines = ['#' + names.map((n, i) => n + ':' + types[i]).join('\t')];
for (const row of r.getRows())
	lines.push(row.map(fmt).join('\t'));
writeFileSync(dataOut, lines.join('\n') + '\n');

async function table(sql, out) {
	const t = await con.runAndReadAll(sql);
	// One line per row: tabs and newlines inside values are escaped.
	const cell = (x) => (x === null ? 'null' : String(x).replaceAll('\\', '\\\\')
		.replaceAll('\t', '\\t').replaceAll('\n', '\\n'));
	const rows = t.getRows().map((row) => row.map(cell).join('\t'));
	writeFileSync(out, t.columnNames().join('\t') + '\n' + rows.join('\n') + '\n');
}
await table('SELECT name, type, repetition_type, num_children, converted_type, logical_type ' +
	`FROM parquet_schema(${lit})`, schemaOut);
await table('SELECT row_group_id, row_group_num_rows, path_in_schema, type, compression, ' +
	'num_values, stats_null_count, stats_min_value, stats_max_value ' +
	`FROM parquet_metadata(${lit}) ORDER BY row_group_id, column_id`, metaOut);

// Statistics: DuckDB skips row groups by their min/max and null counts, so a wrong bound loses
// rows. Every filter is counted twice, on the file and on a copy in memory, and must agree.
await con.run(`CREATE TABLE m AS SELECT * FROM read_parquet(${lit})`);
let bad = 0, checked = 0;
for (let i = 0; i < names.length; i++) {
	if (/\[\]$/.test(types[i])) continue;
	const col = '"' + names[i].replaceAll('"', '""') + '"';
	const sample = await con.runAndReadAll(
		`SELECT DISTINCT ${col} AS v FROM m WHERE ${col} IS NOT NULL AND NOT isnan(try_cast(${col} AS DOUBLE)) IS TRUE ORDER BY v LIMIT 12`);
	const preds = [`${col} IS NULL`, `${col} IS NOT NULL`];
	for (const [v] of sample.getRows()) {
		const param = v instanceof duckdb.DuckDBTimestampTZValue ? `'${v.toString()}'::TIMESTAMPTZ`
			: typeof v === 'string' ? "'" + v.replaceAll("'", "''") + "'"
			: typeof v === 'number' ? `'${v}'::DOUBLE` : String(v);
		for (const op of ['=', '<', '>'])
			preds.push(`${col} ${op} ${param}`);
	}
	for (const p of preds) {
		const a = await con.runAndReadAll(`SELECT count(*) FROM read_parquet(${lit}) WHERE ${p}`);
		const b = await con.runAndReadAll(`SELECT count(*) FROM m WHERE ${p}`);
		checked++;
		if (a.getRows()[0][0] !== b.getRows()[0][0]) {
			bad++;
			console.error(`filter ${p}: ${a.getRows()[0][0]} rows from the file, ${b.getRows()[0][0]} in memory`);
		}
	}
}
console.log(`${file}: ${r.getRows().length} rows, ${checked} filters agree: ${checked - bad}`);
process.exit(bad ? 1 : 0);
