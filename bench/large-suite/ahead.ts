/**
 * bench/large-suite/ahead.ts: what `serve` does after the data changes under it. On a copy of a
 * large-suite history: the landing screens asked for once (so they are kept), then one report
 * imported by another process (`flakeboard import`), as CI does while a team looks; the time
 * until every kept answer is current again (computed ahead, docs/operations.md#kept-answers) and
 * the server's CPU for that; then each screen's first answer after the import.
 *
 *   npm run build && npm run bench -- large:ahead [5m|10m]
 */
import { copyFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { buildDatabase } from '../api/build-db.js';
import { prepareToken, startServer } from '../api/server.js';
import { ownReports } from '../../fixtures/testing/public-reports.js';
import { LARGE_SUITE, LARGE_SUITE_5M, TEN_MILLION } from './scenarios.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const data = fileURLToPath(new URL('../.data', import.meta.url));
const scenario = process.argv[2] === '10m' ? TEN_MILLION : process.argv[2] === '5m' ? LARGE_SUITE_5M : LARGE_SUITE;
const PATHS = ['/api/dashboard?days=7', '/api/dashboard?days=30', '/api/dashboard?days=90', '/api/dashboard?days=0', '/api/flaky-trends', '/api/trends', '/api/flaky-tests', '/api/slow-tests', '/api/error-patterns'];

const source = join(data, scenario.file);
await buildDatabase(source, scenario.runs, scenario.shape);
// A copy: the import below must not change the history the other benchmarks reuse.
const db = join(data, `ahead-${scenario.file}`);
copyFileSync(source, db);
const test = await prepareToken(db);
const headers = { authorization: `Bearer ${test.token}` };
const get = async (url: string) => {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: status ${response.status}`);
  return performance.now() - started;
};
const raw = new Database(db, { readonly: true });
const versions = () => raw.prepare('SELECT version FROM kept_answers').pluck().all() as Array<string | null>;
const startLoad = loadavg()[0]!.toFixed(1);
const server = await startServer(db);
try {
  const cold = new Map<string, number>();
  for (const path of PATHS) cold.set(path, await get(server.url + path));
  // Kept after they are sent.
  while (versions().length < PATHS.length || versions().some((v) => v === null)) await new Promise((resolve) => setTimeout(resolve, 50));
  const [before] = versions();
  const cpu = server.cpuMs();
  const started = performance.now();
  execFileSync(process.execPath, [join(root, 'bin/flakeboard.js'), 'import', ownReports()[0]!, '--db', db], { stdio: 'ignore' });
  const imported = performance.now() - started;
  while (!versions().every((v) => v !== null && v !== before)) await new Promise((resolve) => setTimeout(resolve, 50));
  const current = performance.now() - started;
  const aheadCpu = server.cpuMs() - cpu;
  const after = new Map<string, number>();
  for (const path of PATHS) after.set(path, await get(server.url + path));
  console.log(`\n${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average ${startLoad} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
  console.log(`${scenario.label}: ${versions().length} answers kept; one report imported in ${imported.toFixed(0)} ms; every kept answer current ${(current / 1000).toFixed(1)} s after the import began (serve notices within its look interval); serve's CPU meanwhile ${aheadCpu.toFixed(0)} ms`);
  console.table(PATHS.map((path) => ({ path, 'first answer, cold ms': Math.round(cold.get(path)!), 'first answer after the import ms': Math.round(after.get(path)!) })));
} finally {
  await server.stop();
  raw.close();
  rmSync(db, { force: true });
  rmSync(`${db}-wal`, { force: true });
  rmSync(`${db}-shm`, { force: true });
}
