/**
 * bench/request-path: what one request costs the server's own thread, on SQLite and (with
 * FLAKEBOARD_TEST_POSTGRES_URL) on PostgreSQL. A built `serve` on 200 runs of 50 tests answers
 * BENCH_REQUESTS (default 6,000) requests from 10 callers with an API token, in turn over health,
 * the dashboard and the lists with and without `page`, after each was asked once (warm: the
 * answers come from the cache, so what is measured is the request path itself: sign-in lookup,
 * routing, sending). Figures: the server's CPU per 1,000 requests (all its threads, from /proc) and
 * its main thread's young-generation collections per 1,000 requests (bench/request-path/gc-count.mjs).
 * BENCH_BIN names another build's bin/flakeboard.js to measure beside this one, taking turns.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateHistory } from '../../server/demo/history.js';
import { ingestValue } from '../../server/ingest.js';
import { prepareToken } from '../api/server.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import { createTestDatabase, HAS_POSTGRES } from '../../fixtures/testing/postgres.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6000);
const CALLERS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PATHS = ['/api/health', '/api/recent-uploads', '/api/flaky-tests', '/api/slow-tests', '/api/dashboard?days=7', '/api/flaky-tests?page=1'];
const bins = [join(root, 'bin/flakeboard.js'), ...(process.env.BENCH_BIN ? [process.env.BENCH_BIN] : [])];
const work = mkdtempSync(join(tmpdir(), 'flakeboard-request-path-'));

async function prepare(target: string): Promise<string> {
  const store = await openAnyStore(target);
  try {
    for (const run of generateHistory({ seed: 28, runs: 200, tests: 50, days: 30 })) {
      await ingestValue(store, run.report, { fileName: run.fileName, gitBranch: run.branch, gitCommit: run.commit, approve: true });
    }
  } finally {
    await store.close();
  }
  return (await prepareToken(target)).token;
}

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function measure(bin: string, target: string, token: string): Promise<{ cpu: number; minor: number; minorMs: number }> {
  const gcOut = join(work, 'gc');
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', target], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: `--import ${pathToFileURL(join(root, 'bench/request-path/gc-count.mjs')).href}`, BENCH_GC_OUT: gcOut },
  });
  try {
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    for (let i = 0; i < 1500 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 20));
    const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1]?.replace(/\/$/, '');
    if (!url) throw new Error(`serve did not start:\n${output}`);
    const get = async (path: string) => {
      const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    };
    for (const path of PATHS) await get(path);
    const counts = async () => {
      child.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 400));
      return JSON.parse(readFileSync(`${gcOut}.${child.pid}`, 'utf8')) as { minor: number; minorMs: number };
    };
    await counts();
    const before = cpuMs(child.pid!);
    let sent = 0;
    await Promise.all(Array.from({ length: CALLERS }, async () => {
      while (sent < REQUESTS) await get(PATHS[sent++ % PATHS.length]!);
    }));
    const cpu = cpuMs(child.pid!) - before;
    const gc = await counts();
    return { cpu, minor: gc.minor, minorMs: gc.minorMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const per1000 = (n: number) => (n * 1000) / REQUESTS;
try {
  const targets: Array<[string, string]> = [['SQLite', join(work, 'bench.db')]];
  const database = HAS_POSTGRES ? await createTestDatabase() : null;
  if (database) targets.push(['PostgreSQL', database.url]);
  else console.log('PostgreSQL skipped: set FLAKEBOARD_TEST_POSTGRES_URL to measure it too');
  try {
    console.log(`${REQUESTS} requests from ${CALLERS} callers over ${PATHS.join(', ')}; per 1,000 requests:`);
    console.log('| engine | build | server CPU | young-generation collections (their time) |');
    console.log('| --- | --- | --- | --- |');
    for (const [engine, target] of targets) {
      const token = await prepare(target);
      for (let round = 0; round < ROUNDS; round++) {
        for (const bin of bins) {
          const r = await measure(bin, target, token);
          console.log(`| ${engine} | ${bin === bins[0] ? 'this one' : bin} | ${Math.round(per1000(r.cpu))} ms | ${per1000(r.minor).toFixed(1)} (${Math.round(per1000(r.minorMs))} ms) |`);
        }
      }
    }
  } finally {
    await database?.drop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
