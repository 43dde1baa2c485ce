/**
 * bench/ops: `flakeboard prune`, `backup` and `doctor` (the built binary) on a copy of a database
 * of 400,000 results (200 runs × 500 tests × 4 browsers over 90 days) while `flakeboard serve`
 * runs on it, with GET /api/health asked every 10 ms throughout: how long each command takes
 * and what the server's answers cost meanwhile, against the same server left alone.
 *
 *   npm run build && npm run bench:ops
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

/** Asks /api/health every 10 ms until `during` settles; the latencies of every answer. */
async function healthWhile<T>(url: string, during: () => Promise<T>): Promise<{ value: T; seconds: number; health: Latency }> {
  const times: number[] = [];
  let running = true;
  const poll = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`health answered ${res.status}`);
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const started = performance.now();
  const value = await during();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await poll;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { value, seconds, health: { count: times.length, p50: at(0.5), p95: at(0.95), max: times.at(-1)! } };
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

  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', work], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FLAKEBOARD_SCRYPT_N: '1024' } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 600 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1]?.replace(/\/$/, '');
  if (!url) throw new Error(`serve did not start:\n${output}`);

  try {
    const rows: Array<[string, string, Latency]> = [];
    const idle = await healthWhile(url, () => new Promise((r) => setTimeout(r, 3000)));
    rows.push(['serve alone (3 s)', '', idle.health]);

    const doctor = await healthWhile(url, () => cli(['doctor', '--db', work, '--json']).catch((e: { stdout: string }) => e.stdout));
    rows.push(['doctor (full integrity_check)', `${doctor.seconds.toFixed(1)} s`, doctor.health]);

    const copy = await healthWhile(url, () => cli(['backup', '--db', work, backup, '--json']));
    rows.push([`backup (${(statSync(backup).size / 1024 ** 2).toFixed(0)} MB, checked)`, `${copy.seconds.toFixed(1)} s`, copy.health]);

    const prune = await healthWhile(url, () => cli(['prune', '--db', work, '--older-than', '45d', '--yes', '--json']));
    const s = JSON.parse(prune.value) as { runs: number; results: number; attempts: number; days: number };
    rows.push([`prune --older-than 45d (${s.runs} runs, ${s.results.toLocaleString('en-US')} results)`, `${prune.seconds.toFixed(1)} s`, prune.health]);

    const sizeBefore = statSync(work).size;
    const vacuum = await healthWhile(url, () => cli(['prune', '--db', work, '--older-than', '45d', '--yes', '--vacuum', '--json']));
    const v = JSON.parse(vacuum.value) as { reclaimedBytes: number };
    rows.push([`prune --vacuum (${(v.reclaimedBytes / 1024 ** 2).toFixed(0)} MB of ${(sizeBefore / 1024 ** 2).toFixed(0)} MB given back)`, `${vacuum.seconds.toFixed(1)} s`, vacuum.health]);

    const ms = (n: number) => `${n.toFixed(1)} ms`;
    process.stdout.write(`\n${built.results.toLocaleString('en-US')} results, ${RUNS} runs; GET /api/health every 10 ms meanwhile\n\n`);
    process.stdout.write('| while | took | health answers | p50 | p95 | max |\n|---|---|---|---|---|---|\n');
    for (const [label, took, h] of rows) process.stdout.write(`| ${label} | ${took} | ${h.count} | ${ms(h.p50)} | ${ms(h.p95)} | ${ms(h.max)} |\n`);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
