/**
 * bench/large-suite: every GET of the API against `flakeboard serve` (the built
 * binary) on a large suite (50,000 distinct tests, 1,000,000 results) and on bench/api's
 * history (2,000 distinct tests, 1,000,000 results); BENCH_LARGE_5M=1 adds the large suite
 * at 5,000,000 results. For each GET: the first answer after a fresh start, warm p50/p95 with
 * 10 concurrent connections, and the answer's size; the first answer again after a restart,
 * which finds it kept (docs/operations.md#kept-answers); for each history, serve's peak resident
 * memory. Databases are built once under bench/.data/ and reused. The server's CPU time for
 * each first answer is measured too: on a shared machine it is the figure that holds still.
 * BENCH_ONLY=large|small runs one history. BENCH_ENGINE=postgres measures the same histories on
 * PostgreSQL (postgres.ts: copied by migrate-db, served by `serve --db postgres://…`);
 * BENCH_ENGINE=both measures each history on SQLite, then on PostgreSQL, in the same run.
 *
 *   npm run build && npm run bench -- large
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDatabase } from '../api/build-db.js';
import { load } from '../api/load.js';
import { prepareToken, startServer } from '../api/server.js';
import { copyHistory, startBenchPostgres, type BenchPostgres } from './postgres.js';
import { LARGE_SUITE, LARGE_SUITE_5M, SMALL_SUITE, TEN_MILLION, type Scenario } from './scenarios.js';
import { measureUpkeep, type Upkeep } from './upkeep.js';

type Engine = 'sqlite' | 'postgres';
const engineSetting = process.env.BENCH_ENGINE ?? 'sqlite';
if (!['sqlite', 'postgres', 'both'].includes(engineSetting)) throw new Error(`BENCH_ENGINE=${engineSetting}: say sqlite, postgres or both`);
const engines: Engine[] = engineSetting === 'both' ? ['sqlite', 'postgres'] : [engineSetting as Engine];

const data = fileURLToPath(new URL('../.data', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = 10;

interface Row {
  path: string;
  firstMs: number;
  /** Server CPU time of the first answer (all threads). */
  firstCpuMs: number;
  /** The same GET's first answer after a restart with that answer kept (docs/operations.md#kept-answers). */
  keptMs: number;
  keptCpuMs: number;
  bytes: number;
  p50: number;
  p95: number;
  perSecond: number;
  errors: number;
}

/** The windows and lists again for main (most runs) and one feature branch, where a history has branches. */
const BRANCH_PATHS = ['main', 'feature/apple-pay'].flatMap((branch) =>
  ['/api/dashboard?days=7', '/api/dashboard?days=30', '/api/dashboard?days=90', '/api/dashboard?days=0', '/api/flaky-tests?days=30', '/api/flaky-tests?days=0'].map((path) => `${path}&branch=${encodeURIComponent(branch)}`),
);

function paths(test: { title: string; file: string; browser: string }, scenario: Scenario): string[] {
  const e = encodeURIComponent;
  return [
    ...(scenario === TEN_MILLION ? BRANCH_PATHS : []),
    '/api/dashboard?days=7',
    '/api/dashboard?days=30',
    '/api/dashboard?days=90',
    '/api/dashboard?days=0',
    '/api/flaky-trends?period=7',
    '/api/flaky-trends',
    '/api/trends',
    '/api/flaky-tests',
    '/api/slow-tests',
    '/api/error-patterns',
    '/api/recent-uploads',
    '/api/uploads/pending',
    `/api/test-details/${e(test.title)}/${e(test.browser)}`,
    `/api/flaky-tests/${e(test.file)}/${e(test.title)}/${e(test.browser)}/daily-stats`,
  ];
}

async function timed(url: string, headers: Record<string, string>): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, bytes: body.byteLength, status: response.status };
}

async function measure(scenario: Scenario, engine: Engine) {
  const file = join(data, scenario.file);
  process.stderr.write(`${scenario.label} on ${engine}: building or reusing ${file}\n`);
  const built = await buildDatabase(file, scenario.runs, scenario.shape);
  let dbPath = file;
  let copy: Awaited<ReturnType<typeof copyHistory>> | null = null;
  if (engine === 'postgres') {
    postgres ??= startBenchPostgres(data);
    copy = await copyHistory(postgres.url, file, scenario.file.replace(/\.db$/, ''), scenario.runs);
    dbPath = copy.url;
  }
  const test = await prepareToken(dbPath);
  const headers = { authorization: `Bearer ${test.token}` };
  const rows: Row[] = [];
  // First answer after start: a fresh `serve` per GET, so no answer is already cached, and
  // none kept (startServer forgets them). Then a restart, which finds that answer kept.
  const first = new Map<string, { ms: number; bytes: number; cpuMs: number; keptMs: number; keptCpuMs: number }>();
  const firstAnswer = async (path: string, keptAnswers: boolean) => {
    const server = await startServer(dbPath, {}, { keptAnswers });
    try {
      const cpu = server.cpuMs();
      const r = await timed(server.url + path, headers);
      if (r.status !== 200) throw new Error(`${path}: status ${r.status}`);
      return { ...r, cpuMs: server.cpuMs() - cpu };
    } finally {
      await server.stop();
    }
  };
  for (const path of paths(test, scenario)) {
    const cold = await firstAnswer(path, false);
    const kept = await firstAnswer(path, true);
    if (kept.bytes !== cold.bytes) throw new Error(`${path}: the kept answer has ${kept.bytes} bytes, the computed one ${cold.bytes}`);
    first.set(path, { ...cold, keptMs: kept.ms, keptCpuMs: kept.cpuMs });
  }
  // Warm: one server, each GET loaded by 10 callers at once.
  const server = await startServer(dbPath);
  let memory;
  try {
    for (const path of paths(test, scenario)) {
      await timed(server.url + path, headers);
      const r = await load(server.url + path, headers, { connections, seconds });
      const f = first.get(path)!;
      rows.push({ path, firstMs: f.ms, firstCpuMs: f.cpuMs, keptMs: f.keptMs, keptCpuMs: f.keptCpuMs, bytes: f.bytes, p50: r.p50, p95: r.p95, perSecond: r.perSecond, errors: r.errors });
      process.stderr.write(`  ${path}: first ${f.ms.toFixed(0)} ms (server CPU ${f.cpuMs.toFixed(0)} ms), kept ${f.keptMs.toFixed(0)} ms (${f.keptCpuMs.toFixed(0)} ms), ${(f.bytes / 1024).toFixed(1)} KB, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms\n`);
    }
    memory = server.memory();
  } finally {
    await server.stop();
  }
  const copied = copy?.seconds ? { seconds: Math.round(copy.seconds), rows: copy.rows, rowsPerSecond: Math.round((copy.rows ?? 0) / copy.seconds) } : null;
  // Last: on PostgreSQL the import and prune change the copy the reads above used.
  const upkeep: Upkeep | null = scenario === TEN_MILLION ? await measureUpkeep(data, dbPath, scenario.shape.tests) : null;
  return { label: `${scenario.label}, ${engine}`, results: built.results, buildSeconds: Math.round(built.seconds), copied, memory, rows, upkeep };
}

let postgres: BenchPostgres | null = null;

mkdirSync(data, { recursive: true });
const startLoad = loadavg()[0]!.toFixed(1);
const only = process.env.BENCH_ONLY;
const scenarios = [];
try {
  for (const engine of engines) {
    if (only === '10m') {
      scenarios.push(await measure(TEN_MILLION, engine));
      continue;
    }
    if (only !== 'small') scenarios.push(await measure(LARGE_SUITE, engine));
    if (only !== 'large') scenarios.push(await measure(SMALL_SUITE, engine));
    if (process.env.BENCH_LARGE_5M === '1') scenarios.push(await measure(LARGE_SUITE_5M, engine));
  }
} finally {
  (postgres as BenchPostgres | null)?.stop();
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; load average at the start ${startLoad}, at the end ${loadavg()[0]!.toFixed(1)}`;
console.log(`\n${machine}; ${connections} connections for ${seconds} s per GET`);
for (const s of scenarios) {
  const copied = s.copied ? `; copied by migrate-db in ${s.copied.seconds} s (${s.copied.rows} rows, ${s.copied.rowsPerSecond} rows/s)` : '';
  console.log(`\n${s.label} (${s.results} results, built in ${s.buildSeconds} s): serve RSS ${s.memory?.rssMb.toFixed(0)} MB, peak ${s.memory?.peakMb.toFixed(0)} MB${copied}`);
  if (s.upkeep) console.log(`database ${s.upkeep.databaseMb.toFixed(0)} MB; one more report of ${s.upkeep.importResults} results imported in ${s.upkeep.importSeconds.toFixed(1)} s; prune --older-than ${s.upkeep.pruneOlderThan} removed ${s.upkeep.prunedRuns} runs in ${s.upkeep.pruneSeconds.toFixed(1)} s`);
  console.table(s.rows.map((r) => ({ path: r.path.slice(0, 60), 'first ms': Math.round(r.firstMs), 'first CPU ms': Math.round(r.firstCpuMs), 'kept ms': Math.round(r.keptMs), 'kept CPU ms': Math.round(r.keptCpuMs), KB: +(r.bytes / 1024).toFixed(1), p50: +r.p50.toFixed(1), p95: +r.p95.toFixed(1), 'req/s': Math.round(r.perSecond), errors: r.errors })));
}
writeFileSync(join(data, `large-results-${engineSetting}.json`), JSON.stringify({ machine, date: new Date().toISOString(), connections, seconds, scenarios }, null, 2));
