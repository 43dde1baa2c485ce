/**
 * bench/outage: two built `flakeboard serve` processes on one database, as behind a load
 * balancer, under 40 distinct uploads (8 senders) and 20 readers polling the screens, with
 * /api/health asked every 20 ms from a process of its own. On SQLite (one file) and on a
 * PostgreSQL cluster of its own; on PostgreSQL a second round restarts the cluster in the middle.
 * Prints health, reader and upload latencies (p50, p95, max), the answers by status, and how
 * long after the start uploads were taken again.
 *
 *   npm run build && npm run bench -- outage
 *
 * BENCH_OUTAGE_HISTORY (default 200) runs of 50 tests are stored first, so the readers' answers
 * are not trivial. PostgreSQL needs initdb and pg_ctl (apt-get install postgresql).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer, type Server } from '../api/server.js';
import { pollHealth, type HealthSample } from '../../fixtures/testing/serve-process.js';
import { generateHistory } from '../../server/demo/history.js';
import { ingestValue } from '../../server/ingest.js';
import { hashToken, newToken, API_TOKEN_PREFIX } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import { createUser } from '../../server/store/accounts/users.js';
import { HAS_SERVER_PROGRAMS, startCluster, type Cluster } from '../../fixtures/testing/postgres-cluster.js';

const here = fileURLToPath(new URL('../..', import.meta.url));
const data = join(here, 'bench/.data/outage');
const HISTORY = Number(process.env.BENCH_OUTAGE_HISTORY ?? 200);
const UPLOADS = 40;
const READERS = 20;
const READ_PATHS = ['/api/dashboard?days=7', '/api/recent-uploads', '/api/flaky-tests', '/api/dashboard?days=30', '/api/slow-tests'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`);
function at(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return q === 1 ? (sorted.at(-1) ?? 0) : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
}
function quantiles(times: number[]): string {
  return `${ms(at(times, 0.5))} / ${ms(at(times, 0.95))} / ${ms(at(times, 1))}`;
}

/** The history, an admin and an upload+read token. */
async function prepare(target: string): Promise<string> {
  const store = await openAnyStore(target);
  try {
    for (const run of generateHistory({ seed: 28, runs: HISTORY, tests: 50, days: 30 })) {
      await ingestValue(store, run.report, { fileName: run.fileName, gitBranch: run.branch, gitCommit: run.commit, approve: true });
    }
    const user = await createUser(store, { username: 'bench', passwordHash: 'x', role: 'admin' });
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(store, { name: 'bench', tokenHash: hashToken(token), userId: user.id, scopes: ['upload', 'read'] });
    return token;
  } finally {
    await store.close();
  }
}

function report(round: string, n: number) {
  const startTime = new Date().toISOString();
  const specs = Array.from({ length: 200 }, (_, i) => ({
    title: `${round} upload ${n} test ${i}`,
    file: `load-${i % 10}.spec.ts`,
    line: 3 + i,
    column: 5,
    tests: [{ projectName: 'chromium', expectedStatus: 'passed', status: 'expected', results: [{ status: 'passed', retry: 0, duration: 100 + i, startTime }] }],
  }));
  return { config: { version: '1.50.0', projects: [{ name: 'chromium' }] }, suites: [{ title: 'load', file: 'load.spec.ts', specs }], errors: [], stats: { startTime, duration: 5000, expected: 200, unexpected: 0, flaky: 0, skipped: 0 } };
}

interface Round {
  health: number[];
  reads: number[];
  /** Each reader path's latencies as the readers saw them, and inside the servers (both together). */
  byPath: Map<string, { seen: number[]; inServer: number[] }>;
  /** /api/health inside the server it was asked of, from Node handing the request over to the last byte. */
  healthInServer: number[];
  uploads: number[];
  statuses: Map<string, number>;
  backAfterMs: number | null;
  /** Each server's own event-loop delay over the round (p99 / max, ms): what the server held, apart from the machine. */
  loop: string;
  /** The slowest health answers the poller saw, each split by the clocks of both sides. */
  slowestHealth: string;
}

const LOOP_OUT = join(data, 'loop-delay');
const LOOP_ENV = { NODE_OPTIONS: `--import ${pathToFileURL(join(here, 'bench/outage/loop-delay.mjs')).href}`, BENCH_LOOP_DELAY_OUT: LOOP_OUT };

async function loopDelays(servers: Server[]): Promise<{ loop: string; requests: Map<string, number[]>; healthSpans: Array<[number, number]> }> {
  const figures: string[] = [];
  const requests = new Map<string, number[]>();
  const healthSpans: Array<[number, number]> = [];
  for (const server of servers) {
    const file = `${LOOP_OUT}.${server.pid}`;
    rmSync(file, { force: true });
    process.kill(server.pid, 'SIGUSR2');
    for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(20);
    type Figures = { p99: number; max: number; long: { gapMs: number; cpuMs: number }[]; requests: Record<string, number[]>; health: Array<[number, number]> };
    const { p99, max, long, requests: times, health } = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Figures) : { p99: NaN, max: NaN, long: [], requests: {}, health: [] };
    healthSpans.push(...health);
    for (const [path, list] of Object.entries(times)) requests.set(path, [...(requests.get(path) ?? []), ...list]);
    // A long hold with the process's threads together using under half a core was a wait for the machine.
    if (process.env.BENCH_LOOP_DETAIL) process.stderr.write(`server ${server.pid}: ${JSON.stringify(long)}\n`);
    const waiting = long.filter((l) => l.cpuMs < l.gapMs / 2).length;
    figures.push(`${p99} / ${max} ms (${long.length - waiting} held over 150 ms working, ${waiting} waiting for a core)`);
  }
  return { loop: figures.join(', '), requests, healthSpans };
}

async function round(name: string, servers: Server[], token: string, restart?: () => Promise<void>): Promise<Round> {
  const auth = { authorization: `Bearer ${token}` };
  const statuses = new Map<string, number>();
  const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const reads: number[] = [];
  const seen = new Map<string, number[]>(READ_PATHS.map((path) => [path, []]));
  const uploads: number[] = [];
  let stored = 0;
  let restartedAt: number | null = null;
  let backAfterMs: number | null = null;
  await loopDelays(servers); // from here on: the round only, not the servers' start
  const probe = pollHealth(servers[0]!.url, 20);

  const send = async (n: number) => {
    const body = JSON.stringify({ testResults: report(name, n) });
    for (let attempt = 0; attempt < 400; attempt++) {
      const started = performance.now();
      const res = await fetch(`${servers[(n + attempt) % 2]!.url}/api/upload`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body }).catch(() => null);
      await res?.arrayBuffer();
      count(`upload ${res?.status ?? 'refused'}`);
      if (res?.status === 200) {
        uploads.push(performance.now() - started);
        stored++;
        if (restartedAt !== null && backAfterMs === null) backAfterMs = Date.now() - restartedAt;
        return;
      }
      await sleep(250);
    }
  };
  let sending = true;
  const read = async (r: number) => {
    for (let i = 0; sending; i++) {
      const started = performance.now();
      const path = READ_PATHS[(r + i) % READ_PATHS.length]!;
      const res = await fetch(`${servers[(r + i) % 2]!.url}${path}`, { headers: auth }).catch(() => null);
      await res?.arrayBuffer();
      count(`read ${res?.status ?? 'refused'}`);
      if (res?.status === 200) {
        reads.push(performance.now() - started);
        seen.get(path)!.push(performance.now() - started);
      }
      await sleep(20);
    }
  };
  const restarting = restart
    ? (async () => {
        while (stored < UPLOADS / 4) await sleep(20);
        await restart();
        restartedAt = Date.now();
      })()
    : Promise.resolve();
  const readers = Array.from({ length: READERS }, (_, r) => read(r));
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < UPLOADS) await send(next++);
  }));
  await restarting;
  sending = false;
  await Promise.all(readers);
  const health = (await probe.stop()).filter(Number.isFinite);
  const { loop, requests, healthSpans } = await loopDelays(servers);
  const byPath = new Map(READ_PATHS.map((path) => [path, { seen: seen.get(path)!, inServer: requests.get(path) ?? [] }]));
  return { health, healthInServer: requests.get('/api/health') ?? [], reads, byPath, uploads, statuses, backAfterMs, loop, slowestHealth: splitSlowest(probe.samples(), healthSpans) };
}

/**
 * The three slowest health answers, each as (begun → its bytes left the poller) + (→ the
 * server's thread took it) + (in the server, to its last byte) + (→ the poller read it), from the
 * poller's own times and the server's on the same clock: what the server's thread held apart
 * from what the poller's process waited for, at both ends. A call with no span of the server's
 * (refused, or not answered) is given whole.
 */
function splitSlowest(samples: HealthSample[], spans: Array<[number, number]>): string {
  const slowest = samples.filter((x) => Number.isFinite(x.ms)).sort((a, b) => b.ms - a.ms).slice(0, 3);
  return slowest
    .map(({ sentAt, writtenAt, ms: total }) => {
      const span = spans.find(([arrived, finished]) => arrived >= sentAt - 1 && finished <= sentAt + total + 1);
      if (!span || !Number.isFinite(writtenAt)) return ms(total);
      const [arrived, finished] = span;
      const parts = [writtenAt - sentAt, arrived - writtenAt, finished - arrived, sentAt + total - finished];
      return `${ms(total)} = ${parts.map((part) => ms(Math.max(0, part))).join(' + ')}`;
    })
    .join(', ');
}

const byPathRows: string[] = [];

function print(engine: string, name: string, r: Round): void {
  const answers = [...r.statuses].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${key}: ${n}`).join(', ');
  const p50p95 = (times: number[]) => `${ms(at(times, 0.5))} / ${ms(at(times, 0.95))}`;
  for (const [path, { seen, inServer }] of r.byPath) byPathRows.push(`| ${engine} | ${name} | \`${path}\` | ${seen.length} | ${p50p95(seen)} | ${p50p95(inServer)} |\n`);
  process.stdout.write(`| ${engine} | ${name} | ${quantiles(r.health)} | ${quantiles(r.healthInServer)} | ${quantiles(r.reads)} | ${quantiles(r.uploads)} | ${r.loop} | ${r.slowestHealth} | ${answers}${r.backAfterMs === null ? '' : `; uploads taken again ${(r.backAfterMs / 1000).toFixed(1)} s after the start`} |\n`);
}

async function main(): Promise<void> {
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  process.stdout.write('| engine | round | health p50 / p95 / max | health inside the server | reads p50 / p95 / max | uploads p50 / p95 / max | server loop delay p99 / max | slowest health answers: the poller’s send + before the server’s thread took it + in the server + before the poller read it | answers |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n');
  try {
    await rounds();
  } finally {
    process.stdout.write(`\n| engine | round | read path | answers | p50 / p95 seen by the readers | p50 / p95 inside the servers |\n| --- | --- | --- | --- | --- | --- |\n${byPathRows.join('')}`);
  }
}

async function rounds(): Promise<void> {

  const file = join(data, 'flakeboard.db');
  process.stderr.write(`SQLite: storing ${HISTORY} runs\n`);
  const sqliteToken = await prepare(file);
  const onFile = [await startServer(file, LOOP_ENV), await startServer(file, LOOP_ENV)];
  try {
    print('SQLite', 'under load', await round('sqlite', onFile, sqliteToken));
  } finally {
    for (const server of onFile) await server.stop();
  }

  if (!HAS_SERVER_PROGRAMS) {
    process.stderr.write('PostgreSQL skipped: initdb and pg_ctl not found (apt-get install postgresql)\n');
    return;
  }
  const cluster: Cluster = await startCluster();
  try {
    process.stderr.write(`PostgreSQL: storing ${HISTORY} runs\n`);
    const pgToken = await prepare(cluster.url);
    const onPg = [await startServer(cluster.url, LOOP_ENV), await startServer(cluster.url, LOOP_ENV)];
    try {
      print('PostgreSQL', 'under load', await round('pg', onPg, pgToken));
      print('PostgreSQL', 'restarted in the middle', await round('pg-restart', onPg, pgToken, async () => {
        await cluster.stop('fast');
        await sleep(1_000);
        await cluster.start();
      }));
    } finally {
      for (const server of onPg) await server.stop();
    }
  } finally {
    await cluster.remove();
  }
}

await main();
