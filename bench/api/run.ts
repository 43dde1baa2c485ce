/**
 * bench/api: p50/p95 latency of every analytics GET at 10 concurrent connections against
 * `flakeboard serve` (the built binary) on a database of 1,000,000 results (500 runs × 500
 * tests × 4 browsers over 90 days), and at 5,000,000 (2,500 runs) with BENCH_API_5M=1.
 *
 *   npm run build && npm run bench -- api
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDatabase } from './build-db.js';
import { load, type LoadResult } from './load.js';
import { prepareToken, startServer } from './server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const data = join(root, 'bench/.data');
const seconds = Number(process.env.BENCH_SECONDS ?? 4);

async function measure(label: string, dbPath: string, runs: number) {
  process.stderr.write(`${label}: building or reusing ${dbPath}\n`);
  const built = await buildDatabase(dbPath, runs);
  const { token, title, file, browser } = await prepareToken(dbPath);
  const server = await startServer(dbPath);
  const headers = { authorization: `Bearer ${token}` };
  const e = encodeURIComponent;
  const paths = [
    '/api/dashboard?days=7',
    '/api/dashboard?days=30',
    '/api/dashboard?days=90',
    '/api/dashboard?days=0',
    '/api/flaky-trends?period=7',
    '/api/flaky-tests',
    `/api/test-details/${e(title)}/${e(browser)}`,
    `/api/flaky-tests/${e(file)}/${e(title)}/${e(browser)}/daily-stats`,
    '/api/slow-tests',
    '/api/trends',
    '/api/error-patterns',
    '/api/recent-uploads',
    '/api/uploads/pending',
  ];
  const rows: Array<{ path: string; coldMs: number } & LoadResult> = [];
  try {
    for (const path of paths) {
      // The first call computes the answer (the cache is empty after each start or write);
      // the load that follows is served from the cache until runs are written again.
      const started = performance.now();
      await (await fetch(server.url + path, { headers })).arrayBuffer();
      const coldMs = performance.now() - started;
      const r = await load(server.url + path, headers, { connections: 10, seconds });
      rows.push({ path, coldMs, ...r });
      process.stderr.write(`  ${path}: cold ${coldMs.toFixed(1)} ms, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms\n`);
    }
    // Does a heavy read stall everyone else? /api/health answered while flaky-tests is loaded.
    const [health] = await Promise.all([
      load(`${server.url}/api/health`, {}, { connections: 1, seconds }),
      load(`${server.url}/api/flaky-tests`, headers, { connections: 9, seconds }),
    ]);
    rows.push({ path: '/api/health while /api/flaky-tests is loaded', coldMs: 0, ...health });
    rows.push(await healthUnderColdLoad(server.url, headers, 'worker'));
  } finally {
    await server.stop();
  }
  // The same with every query on the server's own thread, to show what the worker buys.
  const inline = await startServer(dbPath, { FLAKEBOARD_ANALYTICS_WORKER: '0' });
  try {
    rows.push(await healthUnderColdLoad(inline.url, headers, 'server thread'));
  } finally {
    await inline.stop();
  }
  return { label, results: built.results, buildSeconds: Math.round(built.seconds), rows };
}

/**
 * No request may block the others: /api/health's latency while two callers keep asking for
 * dashboards nobody asked for before (a fresh URL each time, so every one is computed cold).
 */
async function healthUnderColdLoad(url: string, headers: Record<string, string>, where: string) {
  const [health, cold] = await Promise.all([
    load(`${url}/api/health`, {}, { connections: 1, seconds }),
    load((n) => `${url}/api/dashboard?days=90&cold=${n}-${Math.random()}`, headers, { connections: 2, seconds }),
  ]);
  process.stderr.write(`  health while cold dashboards compute on the ${where}: p50 ${health.p50.toFixed(1)} ms, p95 ${health.p95.toFixed(1)} ms (cold dashboard p50 ${cold.p50.toFixed(0)} ms)\n`);
  return { path: `/api/health while cold dashboards compute (${where})`, coldMs: cold.p50, ...health };
}

mkdirSync(data, { recursive: true });
const scenarios = [await measure('1M results', join(data, 'api-1m.db'), 500)];
if (process.env.BENCH_API_5M === '1') scenarios.push(await measure('5M results', join(data, 'api-5m.db'), 2500));
for (const s of scenarios) {
  console.log(`\n${s.label} (${s.results} results)`);
  console.table(s.rows.map((r) => ({ path: r.path.slice(0, 60), cold: +r.coldMs.toFixed(1), p50: +r.p50.toFixed(1), p95: +r.p95.toFixed(1), 'req/s': Math.round(r.perSecond), errors: r.errors })));
}
writeFileSync(join(data, 'api-results.json'), JSON.stringify({ node: process.version, date: new Date().toISOString(), scenarios }, null, 2));
