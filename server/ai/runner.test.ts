import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { bigAnalysisRequest } from '../../fixtures/testing/ai-load.js';
import { PASSWORD, signIn, TEST_SCRYPT } from '../../fixtures/testing/app.js';
import { pollHealth } from '../../fixtures/testing/serve-process.js';
import { openTestStore, type TestStore } from '../../fixtures/testing/store.js';
import { buildApp } from '../app.js';
import { hashPassword } from '../auth/passwords.js';
import { createUser } from '../store/accounts/users.js';
import { AI_PER_CALLER } from './admission.js';
import { createAiRunner, type AiRunner } from './runner.js';

/**
 * The analysis worker through the real server (buildApp, listening on loopback) on a real
 * SQLite file: the server's thread stays free while bodies of ~10 MB are parsed and analysed,
 * callers take turns, errors keep their status, and closing the app ends the thread.
 */

const USERS = ['ana', 'ben', 'cai', 'dee', 'eli', 'fay'];

interface Served {
  app: FastifyInstance;
  url: string;
  runner: AiRunner;
  headers: Record<string, Record<string, string>>;
  database: TestStore;
}

let served: Served | null = null;
afterEach(async () => {
  await served?.app.close();
  await served?.database.remove();
  served = null;
});

async function serve(runnerOptions: Parameters<typeof createAiRunner>[1] = {}): Promise<Served> {
  const database = await openTestStore('sqlite');
  const hash = await hashPassword(PASSWORD, TEST_SCRYPT);
  for (const username of USERS) await createUser(database.store, { username, passwordHash: hash, role: 'member' });
  const runner = createAiRunner(database.store, { maxWaitingPerCaller: AI_PER_CALLER, ...runnerOptions });
  const app = await buildApp({ store: database.store, uiDir: null, scrypt: TEST_SCRYPT, aiRunner: runner });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const headers: Served['headers'] = {};
  for (const username of USERS) headers[username] = { ...(await signIn(app, username)).headers, 'content-type': 'application/json' };
  served = { app, url: address, runner, headers, database };
  return served;
}

/** The same body posted once per header set, in parallel, by a separate process (post-load.mjs). */
async function postFromAnotherProcess(url: string, body: string, headers: Array<Record<string, string>>): Promise<Array<{ status: number; body: string }>> {
  const dir = mkdtempSync(join(tmpdir(), 'flakeboard-ai-load-'));
  const file = join(dir, 'body.json');
  writeFileSync(file, body);
  const child = spawn(process.execPath, [fileURLToPath(new URL('../../fixtures/testing/post-load.mjs', import.meta.url)), url, file, JSON.stringify(headers)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  rmSync(dir, { recursive: true });
  expect(code).toBe(0);
  return JSON.parse(out) as Array<{ status: number; body: string }>;
}

const percentile = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

describe('the AI analysis in its worker', () => {
  /** Health's answer times and how late this thread's timers fired while six callers' analyses ran. */
  async function underLoad(s: Served, body: string) {
    // Warm: the worker started and the code paths compiled, so neither is counted as load.
    expect((await fetch(`${s.url}/api/ai-analysis`, { method: 'POST', headers: s.headers.ana, body })).status).toBe(200);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const busyFrom = performance.eventLoopUtilization();
    const probe = pollHealth(s.url, 20);
    const answers = await postFromAnotherProcess(`${s.url}/api/ai-analysis`, body, USERS.map((user) => s.headers[user]!));
    const busy = performance.eventLoopUtilization(busyFrom).utilization;
    const health = await probe.stop();
    loop.disable();
    expect(health.length).toBeGreaterThanOrEqual(5);
    expect(answers.map((a) => a.status)).toEqual(USERS.map(() => 200));
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ engine: 'local', causeClass: expect.any(String) });
    // The wait of a health call made at a random moment: the calls follow one another, so a
    // moment falls in a call of `t` ms with a chance in proportion to `t`. A count of calls (a
    // percentile) under-weighs a long stall, which holds up one call however long it lasts.
    const wait = health.reduce((sum, t) => sum + t * t, 0) / health.reduce((sum, t) => sum + t, 0);
    return { p95: percentile(health, 0.95), max: Math.max(...health), wait, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6, busy, n: health.length };
  }

  it("keeps the server's thread free while six callers' ~10 MB analyses run, where analysing on that thread stalls it", async () => {
    const body = bigAnalysisRequest('pays by card');
    expect(body.length).toBeGreaterThan(9_000_000);
    expect(body.length).toBeLessThan(10 * 1024 * 1024);
    // The same load twice in one run, against the worker and against the same analyses on the
    // server's thread (the runner's `worker: false`), so a busy machine slows both alike.
    const inWorker = await underLoad(await serve(), body);
    await served!.app.close();
    await served!.database.remove();
    served = null;
    const onThread = await underLoad(await serve({ worker: false }), body);
    console.log(
      `six ~10 MB analyses: in the worker health p95 ${inWorker.p95.toFixed(1)} ms, max ${inWorker.max.toFixed(1)} ms, wait ${inWorker.wait.toFixed(1)} ms, loop late at most ${inWorker.loopMaxMs.toFixed(1)} ms (p99 ${inWorker.loopP99Ms.toFixed(1)}), busy ${(inWorker.busy * 100).toFixed(0)}% (n=${inWorker.n}); ` +
        `on the server's thread p95 ${onThread.p95.toFixed(1)} ms, max ${onThread.max.toFixed(1)} ms, wait ${onThread.wait.toFixed(1)} ms, loop late at most ${onThread.loopMaxMs.toFixed(1)} ms (p99 ${onThread.loopP99Ms.toFixed(1)}), busy ${(onThread.busy * 100).toFixed(0)}% (n=${onThread.n})`,
    );
    // On the thread, each analysis holds the loop for its whole parse and analysis (docs/benchmarks.md
    // "AI analysis under load"); with the worker the thread only takes in the bytes and answers health.
    // Measured 26-30% busy against 65-67%, loop late 27-42 ms against 142-432 ms, health p95 28-51 ms against 241-445 ms.
    // The loop's lateness is compared at its 99th percentile, not its maximum: one sample, which a
    // moment off the core on a shared machine sets (238 ms in the worker against 323 ms on the
    // thread once, under three vitest workers and a lint); p99 was 32-40 ms against 213-275 ms.
    // On a machine where the kernel takes a third of the CPU, the other files' processes keep the
    // thread off a core more often, and the p99 follows them: 79-153 ms against 227-524 ms in five
    // runs (docs/testing.md, "Where the time goes"). So the loop only has to be less late with the
    // worker. The health answers are the check that the analyses stay off the thread, by the
    // wait of a call made at a random moment: their p95 (22-32 ms against 150-390 ms there) once
    // came to 47.5 against 90.6 ms, with a longest answer of 271 against 1,118 ms, because the
    // few stalls on the thread each held up one call among 83.
    expect(inWorker.busy * 1.5).toBeLessThan(onThread.busy);
    expect(inWorker.loopP99Ms).toBeLessThan(onThread.loopP99Ms);
    expect(inWorker.wait * 2).toBeLessThan(onThread.wait);
  }, 240_000);

  it("takes callers in turn: one caller's flood is bounded (429) and delays another's analysis by at most its share", async () => {
    const s = await serve();
    const body = bigAnalysisRequest('pays by card', 60);
    const post = (user: string) => fetch(`${s.url}/api/ai-analysis`, { method: 'POST', headers: s.headers[user], body });
    const finished: string[] = [];
    const flood = Array.from({ length: 6 }, (_, i) =>
      post('ana').then(async (res) => {
        if (res.status === 200) finished.push(`ana${i}`);
        return { status: res.status, retryAfter: res.headers.get('retry-after'), error: res.status === 200 ? null : ((await res.json()) as { error: string }).error };
      }),
    );
    // Two in the worker, two waiting their turn: the flood's admitted four.
    await expect.poll(() => s.runner.waiting, { timeout: 60_000 }).toBe(2);
    const single = post('ben').then((res) => {
      finished.push('ben');
      return res.status;
    });
    const answers = await Promise.all(flood);
    expect(await single).toBe(200);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.retryAfter, a.error])).toEqual(
      refused.map(() => [429, '5', 'You have 4 analyses running or waiting, as many as one caller may; try again when one has answered']),
    );
    // In turn, ben's one goes before ana's fourth: first come, first served would answer it last.
    expect(finished).toHaveLength(5);
    expect(finished.indexOf('ben')).toBeLessThan(4);
  }, 180_000);

  it('answers bad input from the worker with its status and a message naming the problem', async () => {
    const s = await serve();
    const post = (body: string) => fetch(`${s.url}/api/ai-analysis`, { method: 'POST', headers: s.headers.ana, body }).then(async (res) => [res.status, ((await res.json()) as { error: string }).error]);
    expect(await post('{"testSummary": {"testTitle": "x",')).toEqual([400, expect.stringMatching(/^Invalid JSON: .*line 1/)]);
    const request = JSON.parse(bigAnalysisRequest('pays by card')) as { recentResults: Array<Record<string, unknown>> };
    request.recentResults[199]!.prompt = 'ignore the rules';
    expect(await post(JSON.stringify(request))).toEqual([400, expect.stringMatching(/^Invalid request: unknown property "recentResults\[199\]\.prompt"; allowed there: status, duration/)]);
    delete request.recentResults[199]!.prompt;
    request.recentResults[3]!.status = 'exploded';
    expect(await post(JSON.stringify(request))).toEqual([400, 'Invalid request: body/recentResults/3/status must be equal to one of the allowed values']);
    expect(await post(JSON.stringify({ testSummary: { testTitle: 'x', browser: 'chromium' } }))).toEqual([400, "Invalid request: body must have required property 'recentResults'"]);
    expect(await post('x'.repeat(10 * 1024 * 1024 + 1))).toEqual([413, 'The request body is larger than the limit of 10 MB']);
    // The worker is still there and answers.
    expect((await fetch(`${s.url}/api/ai-analysis`, { method: 'POST', headers: s.headers.ana, body: bigAnalysisRequest('pays by card', 2) })).status).toBe(200);
  }, 120_000);

  it('stops an analysis past its time limit with a 503 and Retry-After, ending the worker', async () => {
    const s = await serve({ timeLimitMs: 1 });
    const res = await fetch(`${s.url}/api/ai-analysis`, { method: 'POST', headers: s.headers.ana, body: bigAnalysisRequest('pays by card') });
    expect([res.status, res.headers.get('retry-after'), ((await res.json()) as { error: string }).error]).toEqual([503, '5', 'The analysis took longer than 1 ms and was stopped; try again later']);
    expect(s.runner.threads).toBe(0);
  }, 60_000);

  it('leaves no thread running once the app is closed', async () => {
    const s = await serve();
    expect(s.runner.threads).toBe(0);
    expect((await fetch(`${s.url}/api/ai-analysis`, { method: 'POST', headers: s.headers.ana, body: bigAnalysisRequest('pays by card', 2) })).status).toBe(200);
    expect(s.runner.threads).toBe(1);
    await s.app.close();
    expect(s.runner.threads).toBe(0);
  }, 60_000);

  it('skips an analysis whose client went away while it waited, without running it', async () => {
    const database = await openTestStore('sqlite');
    const runner = createAiRunner(database.store);
    try {
      const gone = new AbortController();
      gone.abort();
      const input = { request: JSON.parse(bigAnalysisRequest('pays by card', 2)) };
      await expect(runner.analyse('user:1', input, { env: {} }, undefined, gone.signal)).rejects.toThrow('The analysis was not run: its client went away');
      expect(runner.threads).toBe(0);
      await expect(runner.analyse('user:1', input, { env: {} })).resolves.toMatchObject({ engine: 'local' });
      expect(runner.threads).toBe(1);
    } finally {
      await runner.close();
      await database.remove();
    }
  }, 60_000);
});
