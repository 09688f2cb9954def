// The DuckDB side of bench/tpch_vs_duckdb.py: loads a `hindsight gen` data folder into in-memory DuckDB tables
// (schema from its catalog.json), then runs each query --repeat times per thread count and prints one JSON
// object per line: {"query", "threads", "ms": [...], "rows"} or {"query", "threads", "error"}; first a
// {"loaded": {table: rows}, "load_ms"} line.
//
//   node duckdb_peer.mjs --peer DIR --data DIR --threads 1,2 --repeat 3 q01.sql q13.sql ...
//
// --peer is the npm prefix holding node_modules/@duckdb/node-api. The time is runAndReadAll (execute and
// fetch every row) in process, the tables already in memory.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

function parseArgs(argv) {
  const out = { threads: [1], repeat: 3, files: [] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--peer') out.peer = argv[++i];
    else if (a === '--data') out.data = argv[++i];
    else if (a === '--threads') out.threads = argv[++i].split(',').map(Number);
    else if (a === '--repeat') out.repeat = Number(argv[++i]);
    else out.files.push(a);
  }
  if (!out.peer || !out.data) throw new Error('usage: duckdb_peer.mjs --peer DIR --data DIR [--threads 1,2] [--repeat 3] FILE...');
  return out;
}

function sqlString(s) { return `'${s.replaceAll("'", "''")}'`; }
function ident(s) { return `"${s.replaceAll('"', '""')}"`; }

const args = parseArgs(process.argv.slice(2));
const require = createRequire(path.join(path.resolve(args.peer), 'package.json'));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve('@duckdb/node-api')).href);

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
const catalog = JSON.parse(readFileSync(path.join(args.data, 'catalog.json'), 'utf8'));
const t0 = performance.now();
const loaded = {};
for (const t of catalog.tables) {
  const cols = t.columns.map((c) => `${ident(c.name)} ${c.type}${c.nullable === false ? ' NOT NULL' : ''}`);
  await conn.run(`CREATE TABLE ${ident(t.name)} (${cols.join(', ')})`);
  const file = path.resolve(args.data, t.file);
  await conn.run(`COPY ${ident(t.name)} FROM ${sqlString(file)} (FORMAT csv, HEADER true, DELIMITER ',', QUOTE '"', ESCAPE '"')`);
  const r = await conn.runAndReadAll(`SELECT count(*) FROM ${ident(t.name)}`);
  loaded[t.name] = Number(r.getRows()[0][0]);
}
console.log(JSON.stringify({ loaded, load_ms: performance.now() - t0 }));

for (const threads of args.threads) {
  await conn.run(`SET threads = ${threads}`);
  for (const file of args.files) {
    const query = path.basename(file).replace(/\.sql$/, '');
    const sql = readFileSync(file, 'utf8');
    const ms = [];
    let rows = null;
    try {
      for (let i = 0; i < args.repeat; ++i) {
        const s = performance.now();
        const reader = await conn.runAndReadAll(sql);
        rows = reader.getRows().length;
        ms.push(performance.now() - s);
      }
      console.log(JSON.stringify({ query, threads, ms, rows }));
    } catch (e) {
      console.log(JSON.stringify({ query, threads, error: String(e && e.message ? e.message : e).split('\n')[0] }));
    }
  }
}
