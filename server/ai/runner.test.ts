import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { AiAnalysisRequest } from '../../core/api/ai.js';
import { PASSWORD, signIn, TEST_SCRYPT } from '../../fixtures/testing/app.js';
import { pollHealth } from '../../fixtures/testing/serve-process.js';
import { openTestStore, type TestStore } from '../../fixtures/testing/store.js';
import { buildApp } from '../app.js';
import { hashPassword } from '../auth/passwords.js';
import { createUser } from '../store/accounts/users.js';
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
  const runner = createAiRunner(database.store, runnerOptions);
  const app = await buildApp({ store: database.store, uiDir: null, scrypt: TEST_SCRYPT, aiRunner: runner });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const headers: Served['headers'] = {};
  for (const username of USERS) headers[username] = { ...(await signIn(app, username)).headers, 'content-type': 'application/json' };
  served = { app, url: address, runner, headers, database };
  return served;
}

/** What the detail dialog could send at the size limit: 200 results of long, varied error text (about 9.5 MB). */
function bigRequest(title: string, results = 200): string {
  const line = (i: number, j: number) => `    at Page.click (tests/checkout/step-${i}-${j}.spec.ts:${(i * 31 + j) % 400}:${j % 80}) expected "$${i}.${j}" but received "$${j}.${i}"`;
  const text = (i: number, lines: number) => Array.from({ length: lines }, (_, j) => line(i, j)).join('\n');
  const request: AiAnalysisRequest = {
    testSummary: { testTitle: title, browser: 'chromium', passRate: 0.5, totalRuns: results, failedRuns: results / 2 },
    recentResults: Array.from({ length: results }, (_, i) => ({
      status: i % 2 === 0 ? 'failed' : 'passed',
      duration: 1000 + i,
      errorMessage: `TimeoutError: locator.click: Timeout ${5000 + i}ms exceeded.\n${text(i, 250)}`,
      errorStack: text(i + 1, 190),
      codeSnippet: `> ${i} | await page.getByRole('button', { name: 'Pay ${i}' }).click();`,
      testFile: 'checkout.spec.ts',
      runDate: new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString(),
    })),
  };
  return JSON.stringify(request);
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
  it("keeps /api/health quick while six callers' ~10 MB analyses run: its p95 under that load within 10× its idle p95", async () => {
    const s = await serve();
    const body = bigRequest('pays by card');
    expect(body.length).toBeGreaterThan(9_000_000);
    expect(body.length).toBeLessThan(10 * 1024 * 1024);
    // Warm: the worker started and the code paths compiled, so neither is counted as load.
    expect((await fetch(`${s.url}/api/ai-analysis`, { method: 'POST', headers: s.headers.ana, body })).status).toBe(200);

    const idleProbe = pollHealth(s.url, 20);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = await idleProbe.stop();

    const loadProbe = pollHealth(s.url, 20);
    const answers = await postFromAnotherProcess(`${s.url}/api/ai-analysis`, body, USERS.map((user) => s.headers[user]!));
    const loaded = await loadProbe.stop();

    const ratio = percentile(loaded, 0.95) / percentile(idle, 0.95);
    console.log(`health idle p95 ${percentile(idle, 0.95).toFixed(1)} ms (n=${idle.length}); under six analyses p95 ${percentile(loaded, 0.95).toFixed(1)} ms, max ${Math.max(...loaded).toFixed(1)} ms (n=${loaded.length}); ratio ${ratio.toFixed(1)}`);
    expect(loaded.length).toBeGreaterThanOrEqual(5);
    expect(loaded.every(Number.isFinite)).toBe(true);
    expect(ratio).toBeLessThan(10);
    expect(answers.map((a) => a.status)).toEqual(USERS.map(() => 200));
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ engine: 'local', causeClass: expect.any(String) });
  }, 180_000);
});
