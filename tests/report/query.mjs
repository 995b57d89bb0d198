// Runs one SQL query with DuckDB (@duckdb/node-api) and prints each row as a JSON array, one
// per line (bigints as numbers). FILE in the query is the Parquet file given.
// Usage: node query.mjs FILE.parquet "SELECT ... FROM read_parquet(FILE)"
// Run with NODE_PATH naming the node_modules folder that holds @duckdb/node-api.
import { createRequire } from 'node:module';

const require = createRequire(process.env.NODE_PATH + '/');
const duckdb = require('@duckdb/node-api');
const [file, sql] = process.argv.slice(2);
const db = await duckdb.DuckDBInstance.create(':memory:');
const con = await db.connect();
const lit = "'" + file.replaceAll("'", "''") + "'";
const r = await con.runAndReadAll(sql.replaceAll('FILE', lit));
for (const row of r.getRowsJson())
	console.log(JSON.stringify(row));
