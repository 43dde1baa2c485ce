/**
 * bench/lists/mixed.ts: the calls the UI polls, under load, on the large suite (
 * 1,000,000 results, bench/lists/setup.ts). 50 readers in a closed loop over the dashboard's
 * calls (dashboard, pending count, recent uploads, a run's details and its results) while one
 * prober asks /api/health every 20 ms, as a load balancer would. Figures: p50/p95/max per call.
 *
 *   npm run build && npm run bench -- mixed     (BENCH_SECONDS=20, BENCH_READERS=50)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../server/store/engine/open.js';
import { benchToken, largeSuiteDatabase, OPTIONS, root, startServer } from './setup.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const readers = Number(process.env.BENCH_READERS ?? 50);

async function prepare(path: string) {
  const store = openStore(path);
  try {
    const token = await benchToken(store, 'bench-mixed');
    const runId = store.sqlite.prepare('SELECT max(id) FROM runs').pluck().get() as number;
    return { token, runId };
  } finally {
    await store.close();
  }
}

interface Figures {
  n: number;
  failed: number;
  p50: number;
  p95: number;
  max: number;
}

function figures(times: number[], failed: number): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, failed, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
}

const dbPath = await largeSuiteDatabase();
const { token, runId } = await prepare(dbPath);
const headers = { authorization: `Bearer ${token}` };
const paths = [
  '/api/dashboard?days=30',
  '/api/uploads/pending',
  '/api/recent-uploads',
  '/api/recent-uploads?page=1&pageSize=20',
  `/api/uploads/${runId}`,
  `/api/uploads/${runId}/results?page=2&pageSize=50&sort=duration`,
];
const server = await startServer(dbPath);
const times = new Map<string, number[]>(paths.map((p) => [p, []]));
const failures = new Map<string, number>();
const health: number[] = [];
let healthFailed = 0;
try {
  // Every call once, so the figures are of a warm server being polled, not of first answers.
  for (const path of paths) {
    const response = await fetch(server.url + path, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  }
  const end = performance.now() + seconds * 1000;
  const reader = async (i: number) => {
    for (let n = i; performance.now() < end; n++) {
      const path = paths[n % paths.length]!;
      const started = performance.now();
      const response = await fetch(server.url + path, { headers }).catch(() => null);
      if (response) await response.arrayBuffer();
      if (response?.ok) times.get(path)!.push(performance.now() - started);
      else failures.set(path, (failures.get(path) ?? 0) + 1);
    }
  };
  const prober = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/health`).catch(() => null);
      if (response) await response.arrayBuffer();
      if (response?.ok) health.push(performance.now() - started);
      else healthFailed++;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await Promise.all([prober(), ...Array.from({ length: readers }, (_, i) => reader(i))]);
} finally {
  server.stop();
}
const rows = [
  { call: '/api/health (prober, every 20 ms)', ...figures(health, healthFailed) },
  ...paths.map((path) => ({ call: path, ...figures(times.get(path)!, failures.get(path) ?? 0) })),
].map(({ call, n, failed, p50, p95, max }) => ({ call, calls: n, failed, 'p50 ms': +p50.toFixed(1), 'p95 ms': +p95.toFixed(1), 'max ms': +max.toFixed(0) }));
console.table(rows);
writeFileSync(
  join(root, 'bench/.data/mixed-results.json'),
  JSON.stringify({ node: process.version, date: new Date().toISOString(), options: OPTIONS, readers, seconds, rows }, null, 2),
);
