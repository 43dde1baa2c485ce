/**
 * bench/import/postgres.ts: importing the 50,000-result report (bench/import's one-report
 * scenario) into PostgreSQL beside SQLite and the floor of reading and JSON.parse-ing the file,
 * in one process, taking turns, medians of BENCH_REPEAT.
 *
 *   BENCH_SCENARIOS=one-report-compact npm run bench -- import      (once: writes the report)
 *   FLAKEBOARD_BENCH_POSTGRES_URL=postgres://… npm run bench -- import:postgres
 *
 * Each import goes into a fresh database: a new file, a new PostgreSQL database on that server.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ingestFile } from '../../server/ingest.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const url = process.env.FLAKEBOARD_BENCH_POSTGRES_URL ?? process.env.FLAKEBOARD_TEST_POSTGRES_URL;
if (!url) throw new Error('set FLAKEBOARD_BENCH_POSTGRES_URL to a PostgreSQL server the benchmark may create databases on');
const folder = join(root, 'bench/.data/import', process.env.BENCH_REPORT ?? 'compact');
if (!existsSync(folder)) throw new Error(`no report in ${folder}: run BENCH_SCENARIOS=one-report-compact npm run bench -- import first`);
const file = join(folder, readdirSync(folder).find((f) => f.endsWith('.json'))!);
const repeat = Number(process.env.BENCH_REPEAT ?? 3);

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function floor(): number {
  const started = performance.now();
  JSON.parse(readFileSync(file, 'utf8'));
  return performance.now() - started;
}

async function importInto(engine: 'sqlite' | 'postgres'): Promise<{ ms: number; results: number }> {
  let target: string;
  let remove: () => Promise<void>;
  if (engine === 'postgres') {
    const name = `fb_bench_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}`);
    const parsed = new URL(url!);
    parsed.pathname = `/${name}`;
    target = parsed.toString();
    remove = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-bench-'));
    target = join(dir, 'bench.db');
    remove = async () => rmSync(dir, { recursive: true, force: true });
  }
  const store = await openAnyStore(target);
  try {
    const started = performance.now();
    const stored = await ingestFile(store, file, { fileName: 'bench.json', approve: true, fallbackGit: () => ({ branch: null, commit: null }) });
    return { ms: performance.now() - started, results: stored.tests };
  } finally {
    await store.close();
    await remove();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const runs = { floor: [] as number[], sqlite: [] as number[], postgres: [] as number[] };
let results = 0;
for (let i = 0; i < repeat; i++) {
  runs.floor.push(floor());
  for (const engine of ['sqlite', 'postgres'] as const) {
    const measured = await importInto(engine);
    runs[engine].push(measured.ms);
    results = measured.results;
  }
}
const floorMs = median(runs.floor);
console.table(
  (['sqlite', 'postgres'] as const).map((engine) => {
    const ms = median(runs[engine]);
    return { engine, results, floorMs: Math.round(floorMs), importMs: Math.round(ms), ratio: +(ms / floorMs).toFixed(2), resultsPerSecond: Math.round(results / (ms / 1000)) };
  }),
);
