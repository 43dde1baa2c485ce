/**
 * bench/api: p50/p95 latency of every analytics GET at 10 concurrent connections against
 * `flakeboard serve` (the built binary) on a database of 1,000,000 results (500 runs × 500
 * tests × 4 browsers over 90 days), and at 5,000,000 (2,500 runs) with BENCH_API_5M=1.
 *
 *   npm run build && npm run bench:api
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashToken, newToken, API_TOKEN_PREFIX } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/api-tokens.js';
import { openStore } from '../../server/store/open.js';
import { createUser } from '../../server/store/users.js';
import { buildDatabase } from './build-db.js';
import { load, type LoadResult } from './load.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const data = join(root, 'bench/.data');
const seconds = Number(process.env.BENCH_SECONDS ?? 4);

async function prepareToken(dbPath: string): Promise<{ token: string; title: string; file: string; browser: string }> {
  const store = openStore(dbPath);
  try {
    const users = store.sqlite.prepare('SELECT id FROM users LIMIT 1').get() as { id: number } | undefined;
    const userId = users?.id ?? (await createUser(store, { username: 'bench', passwordHash: 'x', role: 'admin' })).id;
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(store, { name: 'bench', tokenHash: hashToken(token), userId });
    // A flaky test with a long history: the detail calls read the most rows for it.
    const test = store.sqlite
      .prepare('SELECT t.title, t.file, d.browser FROM daily_test_stats d JOIN tests t ON t.id = d.test_id WHERE d.passed_on_retry > 0 GROUP BY d.test_id, d.browser ORDER BY sum(d.runs) DESC LIMIT 1')
      .get() as { title: string; file: string; browser: string };
    return { token, ...test };
  } finally {
    await store.close();
  }
}

async function startServer(dbPath: string, env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(root, 'bin/flakeboard.js'), 'serve', '--port', '0', '--db', dbPath], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FLAKEBOARD_SCRYPT_N: '1024', ...env } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 600 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`serve did not start:\n${output}`);
  return { url: url.replace(/\/$/, ''), stop: () => child.kill('SIGTERM') };
}

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
    server.stop();
  }
  // The same with every query on the server's own thread, to show what the worker buys.
  const inline = await startServer(dbPath, { FLAKEBOARD_ANALYTICS_WORKER: '0' });
  try {
    rows.push(await healthUnderColdLoad(inline.url, headers, 'server thread'));
  } finally {
    inline.stop();
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
