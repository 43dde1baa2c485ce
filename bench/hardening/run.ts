/**
 * bench/hardening: does anything stall `flakeboard serve`? /api/health latency (p50, p95, max),
 * asked every 20 ms from a separate process, while the built server (a) stores uploads of 14 MB
 * and 95 MB, (b) takes 200 uploads 10 at a time with 50 concurrent readers, (c) runs beside a
 * CLI import of a 50 MB report into its database, (d) computes cold analytics; and the time
 * from SIGTERM to exit during a 95 MB upload. Loopback only, bounded counts.
 *
 *   npm run build && npm run bench -- hardening
 *   BENCH_ROOT=/path/to/other/checkout npm run bench -- hardening   (another build, to compare)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { pollHealth } from '../../fixtures/testing/serve-process.js';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHistory } from '../../server/demo/history.js';
import { bigReportText } from '../../fixtures/testing/big-report.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';
import { openStore } from '../../server/store/engine/open.js';
import { createUser } from '../../server/store/accounts/users.js';
import { buildDatabase } from '../api/build-db.js';

const here = fileURLToPath(new URL('../..', import.meta.url));
const root = resolve(process.env.BENCH_ROOT ?? here);
const data = join(here, 'bench/.data/hardening');
const RUNS = Number(process.env.BENCH_HARDENING_RUNS ?? 100);

interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
  failed: number;
}

function stats(times: number[]): Stats {
  const ok = times.filter(Number.isFinite).sort((a, b) => a - b);
  const at = (q: number) => ok[Math.min(ok.length - 1, Math.floor(q * ok.length))] ?? 0;
  return { n: times.length, p50: at(0.5), p95: at(0.95), max: ok.at(-1) ?? 0, failed: times.length - ok.length };
}

async function startServer(dbPath: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(root, 'bin/flakeboard.js'), 'serve', '--port', '0', '--db', dbPath, '--body-limit', '200'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FLAKEBOARD_SCRYPT_N: '1024' },
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 600 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`serve did not start:\n${output}`);
  return { url: url.replace(/\/$/, ''), child };
}

async function apiToken(dbPath: string): Promise<string> {
  const store = openStore(dbPath);
  try {
    const user = store.sqlite.prepare("SELECT id FROM users WHERE role = 'admin' LIMIT 1").get() as { id: number } | undefined;
    const userId = user?.id ?? (await createUser(store, { username: 'bench', passwordHash: 'x', role: 'admin' })).id;
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(store, { name: `bench-${Date.now()}`, tokenHash: hashToken(token), userId, scopes: ['upload', 'read'] });
    return token;
  } finally {
    await store.close();
  }
}

const f = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(n < 10 ? 1 : 0)} ms`);
const body = (report: string, fileName: string) => Buffer.from(`{"metadata":{"fileName":${JSON.stringify(fileName)}},"testResults":${report}}`);

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  process.stderr.write(`building or reusing a database of ${RUNS} runs × 500 tests × 4 browsers\n`);
  const base = join(here, `bench/.data/hardening-base-${RUNS}.db`);
  const built = await buildDatabase(base, RUNS);
  const dbPath = join(data, 'flakeboard.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  copyFileSync(base, dbPath);
  const token = await apiToken(dbPath);
  const auth = { authorization: `Bearer ${token}` };
  process.stderr.write('generating reports\n');
  const r14 = body(bigReportText(14, 101), 'r14.json');
  const r95 = body(bigReportText(95, 102), 'r95.json');
  const small = [...generateHistory({ seed: 9, runs: 200, tests: 50, days: 30 })].map((run, i) => body(JSON.stringify(run.report), `s${i}.json`));
  const cliReport = join(data, 'import-50mb.json');
  writeFileSync(cliReport, bigReportText(50, 103));

  const rows: Array<{ scenario: string; ms: number; health: Stats; note: string }> = [];
  let server = await startServer(dbPath);
  const upload = async (payload: ReturnType<typeof body>) => {
    const res = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: payload });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${text}`);
    return JSON.parse(text) as { testsProcessed: number };
  };
  const during = async (scenario: string, work: () => Promise<string>) => {
    process.stderr.write(`${scenario}\n`);
    const probe = pollHealth(server.url, 20);
    await new Promise((r) => setTimeout(r, 200));
    const started = performance.now();
    const note = await work();
    const ms = performance.now() - started;
    rows.push({ scenario, ms, health: stats(await probe.stop()), note });
  };

  await during('idle (1 s)', async () => {
    await new Promise((r) => setTimeout(r, 1000));
    return '';
  });
  await during(`upload 14 MB (${(r14.length / 1e6).toFixed(1)} MB body)`, async () => `${(await upload(r14)).testsProcessed} results`);
  await during(`upload 95 MB (${(r95.length / 1e6).toFixed(1)} MB body)`, async () => `${(await upload(r95)).testsProcessed} results`);
  // 50 readers in a closed loop, until `until` resolves; the same mix with and without uploads.
  const readers = async (until: Promise<unknown>) => {
    let done = false;
    const readerTimes: number[] = [];
    const reader = async (i: number) => {
      const paths = ['/api/recent-uploads', '/api/uploads/pending', '/api/dashboard?days=30'];
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${server.url}${paths[i % paths.length]}`, { headers: auth });
        await res.arrayBuffer();
        readerTimes.push(res.ok ? performance.now() - started : -1);
      }
    };
    const all = Array.from({ length: 50 }, (_, i) => reader(i));
    await until;
    done = true;
    await Promise.all(all);
    const s = stats(readerTimes);
    return `readers: ${s.n} calls, p50 ${f(s.p50)}, p95 ${f(s.p95)}, max ${f(s.max)}, ${s.failed} failed`;
  };
  await during('50 readers alone (20 s)', () => readers(new Promise((r) => setTimeout(r, 20_000))));
  await during('200 uploads, 10 at a time, 50 readers', () => {
    let next = 0;
    const uploader = async () => {
      while (next < small.length) await upload(small[next++]!);
    };
    return readers(Promise.all(Array.from({ length: 10 }, uploader)));
  });
  await during('CLI import of a 50 MB report', async () => {
    const child = spawn(process.execPath, [join(root, 'bin/flakeboard.js'), 'import', cliReport, '--db', dbPath, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return `exit code ${code}`;
  });
  await during('cold analytics (13 calls, 2 at a time)', async () => {
    // A write first, so every answer is computed again.
    await upload(small[0]!);
    const paths = ['/api/dashboard?days=7', '/api/dashboard?days=30', '/api/dashboard?days=90', '/api/dashboard?days=0', '/api/flaky-trends?period=7', '/api/flaky-tests', '/api/slow-tests', '/api/trends', '/api/error-patterns', '/api/flaky-trends?period=14', '/api/flaky-trends?period=30', '/api/dashboard?days=14', '/api/dashboard?days=60'];
    const times: number[] = [];
    for (let i = 0; i < paths.length; i += 2) {
      await Promise.all(
        paths.slice(i, i + 2).map(async (path) => {
          const started = performance.now();
          await (await fetch(server.url + path, { headers: auth })).arrayBuffer();
          times.push(performance.now() - started);
        }),
      );
    }
    return `slowest cold answer ${Math.max(...times).toFixed(0)} ms`;
  });

  // SIGTERM while a 95 MB upload is being stored: how long until the process has exited.
  process.stderr.write('SIGTERM during a 95 MB upload\n');
  const pending = fetch(`${server.url}/api/upload`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: body(bigReportText(95, 104), 'r95b.json') }).then(
    (res) => String(res.status),
    () => 'connection closed',
  );
  await new Promise((r) => setTimeout(r, 2500));
  const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
  const signalled = performance.now();
  server.child.kill('SIGTERM');
  const exitCode = await exited;
  const sigtermMs = performance.now() - signalled;
  const answer = await pending;
  server = { url: '', child: server.child };

  const lines = [
    `flakeboard serve (${root === here ? 'this checkout' : root}) on ${built.results.toLocaleString('en')} results; /api/health asked every 20 ms from another process`,
    '',
    '| while | took | health p50 | health p95 | health max | health calls (failed) | note |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${f(r.ms)} | ${f(r.health.p50)} | ${f(r.health.p95)} | ${f(r.health.max)} | ${r.health.n} (${r.health.failed}) | ${r.note} |`),
    '',
    `SIGTERM during a 95 MB upload: exited in ${f(sigtermMs)} with code ${exitCode}; the upload was answered ${answer}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(join(data, `result-${Date.now()}.md`), `${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
