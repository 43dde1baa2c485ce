/**
 * Hostile report text, end to end through the built product: a stored run whose error message
 * is crafted against the redaction rules, analysed by a real `flakeboard serve` while
 * /api/health is polled (it blocked 10-80 s), and `flakeboard import` of a report holding the
 * 100,000-space message and the line of 50,000 \' (30 s and 8.6 s).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { execa, type ResultPromise } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../fixtures/testing/cli.js';
import { CRAFTED_REDACTION_MESSAGE, ESCAPED_QUOTES_50K, SPACES_100K } from '../fixtures/testing/hostile-text.js';
import { makeTempDir } from '../fixtures/testing/temp.js';

const PASSWORD = 'correct horse battery';
const ENV = cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' });

let temp: ReturnType<typeof makeTempDir>;
let child: ResultPromise | null = null;
beforeEach(() => {
  temp = makeTempDir('flakeboard-hostile-');
});
afterEach(async () => {
  child?.kill('SIGKILL');
  await child?.catch(() => {});
  child = null;
  temp.cleanup();
});

/** A one-test report whose failure carries `message` (raw and pre-formatted, as Playwright writes both). */
function reportWith(title: string, message: string): string {
  const result = { status: 'failed', retry: 0, duration: 1200, startTime: '2026-11-20T10:00:00.000Z', error: { message }, errors: [{ message }] };
  const spec = { title, file: 'shop.spec.ts', line: 3, column: 5, tests: [{ projectName: 'chromium', expectedStatus: 'passed', status: 'unexpected', results: [result] }] };
  return JSON.stringify({
    config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
    suites: [{ title: 'shop.spec.ts', file: 'shop.spec.ts', specs: [spec] }],
    errors: [],
    stats: { startTime: '2026-11-20T10:00:00.000Z', duration: 5000, expected: 0, unexpected: 1, flaky: 0, skipped: 0 },
  });
}

async function importReport(db: string, name: string, report: string): Promise<{ exitCode: number; stderr: string; ms: number }> {
  const file = join(temp.dir, name);
  writeFileSync(file, report);
  const started = performance.now();
  const { exitCode, stderr } = await runCli(['import', file, '--db', db], { cwd: temp.dir, env: ENV });
  return { exitCode, stderr, ms: performance.now() - started };
}

async function startServe(db: string): Promise<string> {
  let output = '';
  child = execa(process.execPath, [BIN, 'serve', '--port', '0', '--db', db], { cwd: temp.dir, env: ENV, extendEnv: false, reject: false, all: true });
  child.all!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!/serving .* at (http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return /serving .* at (http:\/\/\S+)/.exec(output)![1]!.replace(/\/$/, '');
}

async function signIn(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'max', password: PASSWORD }) });
  expect(res.status).toBe(200);
  const { token } = (await res.json()) as { token: string };
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))![1]!;
  return { authorization: `Bearer ${token}`, 'x-xsrf-token': decodeURIComponent(xsrf), 'content-type': 'application/json' };
}

describe('hostile report text through the built product', () => {
  it('/api/health keeps answering while a stored crafted message is analysed, and the analysis answers', async () => {
    const db = join(temp.dir, 'f.db');
    const imported = await importReport(db, 'crafted.json', reportWith('pays by card', CRAFTED_REDACTION_MESSAGE));
    expect(imported).toMatchObject({ exitCode: 0, stderr: '' });
    const added = await runCli(['user', 'add', 'max', '--role', 'member', '--password-stdin', '--db', db], { cwd: temp.dir, env: ENV, input: `${PASSWORD}\n` });
    expect(added.exitCode).toBe(0);
    const url = await startServe(db);
    const headers = await signIn(url);

    // What the detail dialog sends: the stored rows, each with the crafted message.
    const body = {
      testSummary: { testTitle: 'pays by card', browser: 'chromium', passRate: 0, totalRuns: 3, failedRuns: 3 },
      recentResults: Array.from({ length: 3 }, (_, i) => ({
        status: 'failed',
        duration: 1200,
        errorMessage: CRAFTED_REDACTION_MESSAGE,
        codeSnippet: CRAFTED_REDACTION_MESSAGE,
        testFile: 'shop.spec.ts',
        runDate: `2026-11-2${i}T10:00:00.000Z`,
      })),
    };
    let done = false;
    const analysis = fetch(`${url}/api/ai-analysis`, { method: 'POST', headers, body: JSON.stringify(body) }).finally(() => (done = true));
    analysis.catch(() => undefined); // awaited below; a failed poll must not leave it unhandled
    const healthMs: number[] = [];
    // Poll until the analysis has answered, and for at least two seconds.
    const until = Date.now() + 2000;
    while (!done || Date.now() < until) {
      const started = performance.now();
      const health = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(30_000) });
      expect(health.status).toBe(200);
      healthMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const answer = await analysis;
    expect(answer.status).toBe(200);
    const result = (await answer.json()) as { engine: string; patterns: string[]; rootCause: string };
    expect(result.engine).toBe('local');
    expect(result.patterns.length).toBeGreaterThan(0);
    expect(result.rootCause).not.toBe('');
    // Before the fix the first poll waited for the whole analysis: 10 s and more.
    expect(healthMs.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...healthMs)).toBeLessThan(1000);
  });

  it('import stores the 100,000-space message and the line of 50,000 \\\' promptly', async () => {
    const db = join(temp.dir, 'f.db');
    const spaces = await importReport(db, 'spaces.json', reportWith('survives blank errors', SPACES_100K));
    const quotes = await importReport(db, 'quotes.json', reportWith('survives escaped quotes', ESCAPED_QUOTES_50K));
    expect([spaces.exitCode, quotes.exitCode, spaces.stderr, quotes.stderr]).toEqual([0, 0, '', '']);
    // Each was 30 s and 8.6 s of regex before the fix; a process start and import take about 1 s.
    expect(spaces.ms).toBeLessThan(10_000);
    expect(quotes.ms).toBeLessThan(10_000);

    const sqlite = new Database(db, { readonly: true });
    try {
      const rows = sqlite.prepare('SELECT length(error_message) AS length, error_category AS category FROM results ORDER BY id').all() as Array<{ length: number; category: string }>;
      expect(rows).toEqual([
        { length: SPACES_100K.length, category: 'other' },
        { length: ESCAPED_QUOTES_50K.length, category: 'other' },
      ]);
    } finally {
      sqlite.close();
    }
  });
});
