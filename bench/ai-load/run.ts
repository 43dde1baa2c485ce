/**
 * bench/ai-load: /api/health (p50, p95, max, asked every 20 ms from a separate process) and the
 * server's event-loop delay while six callers each post a ~9.5 MB AI analysis at once, the
 * bodies sent by another process; beside the same figures idle, in the same run. The server
 * runs in this process from the sources (buildApp on a SQLite file), so another checkout's
 * sources can be measured with the same load: BENCH_ROOT=/path/to/checkout.
 *
 *   npm run bench -- ai-load
 *   BENCH_ROOT=/path/to/other/checkout npm run bench -- ai-load
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pollHealth } from '../../fixtures/testing/serve-process.js';
import { bigAnalysisRequest } from '../../fixtures/testing/ai-load.js';

const here = fileURLToPath(new URL('../..', import.meta.url));
const root = resolve(process.env.BENCH_ROOT ?? here);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USERS = ['ana', 'ben', 'cai', 'dee', 'eli', 'fay'];
const PASSWORD = 'correct horse battery';

const from = (path: string) => import(pathToFileURL(join(root, path)).href);
const { buildApp } = await from('server/app.ts');
const { hashPassword } = await from('server/auth/passwords.ts');
const { createUser } = await from('server/store/accounts/users.ts');
const { openStore } = await from('server/store/engine/open.ts');

function stats(times: number[]) {
  const ok = times.filter(Number.isFinite).sort((a, b) => a - b);
  const at = (q: number) => ok[Math.min(ok.length - 1, Math.floor(q * ok.length))] ?? 0;
  return { n: times.length, p50: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1), max: +(ok.at(-1) ?? 0).toFixed(1), failed: times.length - ok.length };
}

const dir = mkdtempSync(join(tmpdir(), 'flakeboard-bench-ai-'));
const store = openStore(join(dir, 'bench.db'));
const scrypt = { N: 1024, r: 8, p: 1 };
const hash = await hashPassword(PASSWORD, scrypt);
for (const username of USERS) await createUser(store, { username, passwordHash: hash, role: 'member' });
const app = await buildApp({ store, uiDir: null, scrypt, logger: false });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const headers: Array<Record<string, string>> = [];
for (const username of USERS) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: PASSWORD } });
  const xsrf = res.cookies.find((c: { name: string }) => c.name === 'XSRF-TOKEN').value;
  headers.push({ authorization: `Bearer ${res.json().token}`, 'x-xsrf-token': xsrf, 'content-type': 'application/json' });
}
const bodyFile = join(dir, 'body.json');
const body = bigAnalysisRequest('pays by card');
writeFileSync(bodyFile, body);

function postAll(): Promise<Array<{ status: number }>> {
  const child = spawn(process.execPath, [join(here, 'fixtures/testing/post-load.mjs'), `${url}/api/ai-analysis`, bodyFile, JSON.stringify(headers)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((done) => child.on('exit', () => done(JSON.parse(out))));
}

async function measure(work: () => Promise<unknown>) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const probe = pollHealth(url, 20);
  const started = performance.now();
  const result = await work();
  const seconds = +((performance.now() - started) / 1000).toFixed(1);
  const health = stats(await probe.stop());
  loop.disable();
  return { health, loopMaxMs: +(loop.max / 1e6).toFixed(1), loopP99Ms: +(loop.percentile(99) / 1e6).toFixed(1), seconds, result };
}

console.log(`ai-load: ${root}, body ${(body.length / 1e6).toFixed(1)} MB × ${USERS.length} callers, ${ROUNDS} rounds`);
await postAll(); // warm: the worker started, the code compiled
for (let round = 1; round <= ROUNDS; round++) {
  const idle = await measure(() => new Promise((r) => setTimeout(r, 3000)));
  const loaded = await measure(async () => (await postAll()).map((a) => a.status));
  console.log(JSON.stringify({ round, idle: { ...idle, result: undefined }, loaded }));
}
await app.close();
await store.close();
rmSync(dir, { recursive: true });
