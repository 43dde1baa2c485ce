/**
 * bench/lists: the paged list calls on a large suite: 12,500 specs × 4 browsers
 * (50,000 distinct tests), 20 reports over 20 days = 1,000,000 results. For each call: the
 * first answer after `serve` starts (cold), its size, then p50/p95 with 10 callers at once.
 *
 *   npm run build && npm run bench -- lists       (BENCH_LISTS_DB=path reuses a database)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../server/store/engine/open.js';
import { load } from '../api/load.js';
import { benchToken, largeSuiteDatabase, OPTIONS, root, startServer } from './setup.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);

async function prepare(path: string) {
  const store = openStore(path);
  try {
    const token = await benchToken(store, 'bench');
    // A title that several files share (the generator reuses titles), and one flaky test.
    const shared = store.sqlite.prepare('SELECT title FROM tests GROUP BY title HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 1').pluck().get() as string;
    const flaky = store.sqlite
      .prepare('SELECT t.title, t.file, x.browser FROM test_totals x JOIN tests t ON t.id = x.test_id WHERE x.passed_on_retry > 0 ORDER BY x.runs DESC LIMIT 1')
      .get() as { title: string; file: string; browser: string };
    const runId = store.sqlite.prepare('SELECT max(id) FROM runs').pluck().get() as number;
    return { token, shared, runId, ...flaky };
  } finally {
    await store.close();
  }
}

const dataDir = join(root, 'bench/.data');
const dbPath = await largeSuiteDatabase();
const { token, shared, runId, title, file, browser } = await prepare(dbPath);
const e = encodeURIComponent;
const paths = [
  '/api/flaky-tests',
  '/api/flaky-tests?page=1&pageSize=50',
  '/api/flaky-tests?page=100&pageSize=50',
  '/api/flaky-tests?page=1&search=checkout',
  '/api/flaky-tests?page=1&browser=webkit&sort=score',
  '/api/flaky-tests?page=1&severity=severe&sort=last_failure',
  '/api/flaky-tests?page=1&severity=declining',
  '/api/slow-tests',
  '/api/slow-tests?page=20',
  '/api/error-patterns',
  '/api/recent-uploads',
  `/api/test-details/${e(title)}/${e(browser)}?file=${e(file)}`,
  `/api/test-details/${e(shared)}/chromium`,
  // Run details: a run of 50,000 results.
  `/api/uploads/${runId}`,
  `/api/uploads/${runId}/results?page=2&sort=duration`,
  `/api/uploads/${runId}/results?page=1&status=failed&sort=name`,
  `/api/uploads/${runId}/results?page=1&search=checkout`,
];
const server = await startServer(dbPath);
const headers = { authorization: `Bearer ${token}` };
const rows: Array<Record<string, string | number>> = [];
try {
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(server.url + path, { headers });
    const bytes = (await response.arrayBuffer()).byteLength;
    const coldMs = performance.now() - started;
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    const r = await load(server.url + path, headers, { connections: 10, seconds });
    rows.push({ path: path.slice(0, 70), 'cold ms': Math.round(coldMs), KB: Math.round(bytes / 1024), 'p50 ms': +r.p50.toFixed(1), 'p95 ms': +r.p95.toFixed(1), errors: r.errors });
    process.stderr.write(`  ${path}: cold ${coldMs.toFixed(0)} ms, ${Math.round(bytes / 1024)} KB, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms\n`);
  }
} finally {
  server.stop();
}
console.table(rows);
writeFileSync(join(dataDir, 'lists-results.json'), JSON.stringify({ node: process.version, date: new Date().toISOString(), options: OPTIONS, rows }, null, 2));
