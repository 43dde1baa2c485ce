/**
 * bench/ops: `flakeboard prune`, `backup` and `doctor` (the built binary) on a copy of a database
 * of 400,000 results (200 runs × 500 tests × 4 browsers over 90 days) while `flakeboard serve`
 * runs on it, with GET /api/health asked every 10 ms and a small report uploaded every 250 ms
 * throughout: how long each command takes and what the server's answers cost meanwhile,
 * against the same server left alone.
 *
 *   npm run build && npm run bench -- ops
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { smallReport } from '../../fixtures/testing/app.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';
import { openStore } from '../../server/store/engine/open.js';
import { createUser } from '../../server/store/accounts/users.js';
import { buildDatabase } from '../api/build-db.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const data = join(root, 'bench/.data');
const bin = join(root, 'bin/flakeboard.js');
const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_OPS_RUNS ?? 200);

interface Latency {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

let uploads = 0;

/** Calls `request` every `every` ms until stopped; the latency of each answer. */
function repeat(every: number, request: () => Promise<Response>): { stop(): Promise<Latency> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await request();
      const body = await res.text();
      if (res.status !== 200) throw new Error(`answered ${res.status}: ${body}`);
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, every));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
      return { count: times.length, p50: at(0.5), p95: at(0.95), max: times.at(-1)! };
    },
  };
}

/** Health every 10 ms and an upload every 250 ms until `during` settles. */
async function serveWhile<T>(url: string, token: string, during: () => Promise<T>): Promise<{ value: T; seconds: number; health: Latency; upload: Latency }> {
  const health = repeat(10, () => fetch(`${url}/api/health`));
  const upload = repeat(250, () =>
    fetch(`${url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ testResults: smallReport(`bench upload ${++uploads}`), metadata: { fileName: `bench-${uploads}.json` } }),
    }),
  );
  const started = performance.now();
  const value = await during();
  const seconds = (performance.now() - started) / 1000;
  return { value, seconds, health: await health.stop(), upload: await upload.stop() };
}

async function createToken(dbPath: string): Promise<string> {
  const store = openStore(dbPath);
  try {
    const user = await createUser(store, { username: 'bench', passwordHash: 'x', role: 'admin' });
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(store, { name: 'bench', tokenHash: hashToken(token), userId: user.id, scopes: ['upload', 'read'] });
    return token;
  } finally {
    await store.close();
  }
}

async function cli(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [bin, ...args], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  const source = join(data, `ops-${RUNS}.db`);
  process.stderr.write(`building or reusing ${source}\n`);
  const built = await buildDatabase(source, RUNS);
  const work = join(data, 'ops-work.db');
  const backup = join(data, 'ops-backup.db');
  for (const f of [work, `${work}-wal`, `${work}-shm`, backup]) rmSync(f, { force: true });
  copyFileSync(source, work);
  const token = await createToken(work);

  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', work], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FLAKEBOARD_SCRYPT_N: '1024' } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 600 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1]?.replace(/\/$/, '');
  if (!url) throw new Error(`serve did not start:\n${output}`);

  try {
    const rows: Array<[string, string, Latency, Latency]> = [];
    const idle = await serveWhile(url, token, () => new Promise((r) => setTimeout(r, 3000)));
    rows.push(['serve alone (3 s)', '', idle.health, idle.upload]);

    const doctor = await serveWhile(url, token, () => cli(['doctor', '--db', work, '--json']).catch((e: { stdout: string }) => e.stdout));
    rows.push(['doctor (full integrity_check)', `${doctor.seconds.toFixed(1)} s`, doctor.health, doctor.upload]);

    const copy = await serveWhile(url, token, () => cli(['backup', '--db', work, backup, '--json']));
    rows.push([`backup (${(statSync(backup).size / 1024 ** 2).toFixed(0)} MB, checked)`, `${copy.seconds.toFixed(1)} s`, copy.health, copy.upload]);

    const prune = await serveWhile(url, token, () => cli(['prune', '--db', work, '--older-than', '45d', '--yes', '--json']));
    const s = JSON.parse(prune.value) as { runs: number; results: number; attempts: number; days: number };
    rows.push([`prune --older-than 45d (${s.runs} runs, ${s.results.toLocaleString('en-US')} results)`, `${prune.seconds.toFixed(1)} s`, prune.health, prune.upload]);

    const sizeBefore = statSync(work).size;
    const vacuum = await serveWhile(url, token, () => cli(['prune', '--db', work, '--older-than', '45d', '--yes', '--vacuum', '--json']));
    const v = JSON.parse(vacuum.value) as { reclaimedBytes: number };
    rows.push([`prune --vacuum (${(v.reclaimedBytes / 1024 ** 2).toFixed(0)} MB of ${(sizeBefore / 1024 ** 2).toFixed(0)} MB given back)`, `${vacuum.seconds.toFixed(1)} s`, vacuum.health, vacuum.upload]);

    const ms = (n: number) => `${n.toFixed(1)} ms`;
    process.stdout.write(`\n${built.results.toLocaleString('en-US')} results, ${RUNS} runs; GET /api/health every 10 ms and POST /api/upload every 250 ms meanwhile\n\n`);
    process.stdout.write('| while | took | health p50 | health p95 | health max | uploads | upload p50 | upload max |\n|---|---|---|---|---|---|---|---|\n');
    for (const [label, took, h, u] of rows) process.stdout.write(`| ${label} | ${took} | ${ms(h.p50)} | ${ms(h.p95)} | ${ms(h.max)} | ${u.count} | ${ms(u.p50)} | ${ms(u.max)} |\n`);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
