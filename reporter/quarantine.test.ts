import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExpiry, quarantineLastDay } from '../core/gate/expiry.js';
import { cleanEnv, runCli } from '../fixtures/testing/cli.js';
import { startServe } from '../fixtures/testing/live-serve.js';
import { flakeboardLines, makePlaywrightProject, ROOT, runPlaywright } from '../fixtures/testing/playwright-project.js';
import { makeTempDir } from '../fixtures/testing/temp.js';

/**
 * Quarantine inside the run, with real Playwright runs of the reporter suite: "applies a coupon"
 * fails on every attempt, "account page greets the user" fails when REPORTER_SUITE_BREAK is set,
 * and the checkout block's beforeAll fails when REPORTER_SUITE_BREAK_SETUP is set.
 */
let temp: ReturnType<typeof makeTempDir>;
let project: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'reporter.js'))) throw new Error('dist/reporter.js is missing: run `npm run build` before these tests');
  temp = makeTempDir('flakeboard-reporter-quarantine-');
  project = makePlaywrightProject(join(temp.dir, 'project'));
});
afterAll(() => temp?.cleanup());

const playwright = (args: string[], options: Parameters<typeof runPlaywright>[3] = {}) => runPlaywright(project, join(temp.dir, 'out'), args, options);
const COUPON = ['test', '--grep', 'applies a coupon'];
const REASON = 'coupon service sandbox times out, JIRA-9';
const through = quarantineLastDay(parseExpiry('14d', Date.now())!);
const forgivenLine = `flakeboard: forgiven, quarantined: "applies a coupon" (owner rita, through ${through}: ${REASON})`;

async function quarantine(db: string, title: string, extra: string[] = []): Promise<void> {
  const added = await runCli(['quarantine', 'add', title, '--reason', REASON, '--owner', 'rita', '--expires', '14d', '--db', db, ...extra], { env: cleanEnv() });
  expect(added.exitCode, added.stderr).toBe(0);
}

function storedResults(db: string) {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite
      .prepare('SELECT r.run_id, t.title, r.status, r.outcome, runs.failed_tests FROM results r JOIN tests t ON t.id = r.test_id JOIN runs ON runs.id = r.run_id ORDER BY r.run_id, t.title')
      .all() as Array<Record<string, number | string>>;
  } finally {
    sqlite.close();
  }
}

describe('flakeboard/reporter: quarantine inside the run', () => {
  it('a run whose only failure is quarantined passes and says why; stored as it was; not without the entry, with quarantine: false, beside another failure, after a beforeAll failure or at --max-failures', async () => {
    const db = join(temp.dir, 'local.db');
    await quarantine(db, 'applies a *', ['--file', 'checkout*', '--project', 'Chromium']);

    const forgiven = await playwright(COUPON, { reporter: { db } });
    expect(forgiven.exitCode, forgiven.stdout).toBe(0);
    expect(flakeboardLines(forgiven.stdout)).toEqual([forgivenLine, `flakeboard: stored run 1 "project" (1 test, 1 failed, 0 flaky; approved) in ${db}`]);
    // The run is stored with its failure as it was: quarantine changes the exit code, not the record.
    expect(storedResults(db)).toEqual([{ run_id: 1, title: 'applies a coupon', status: 'failed', outcome: 'unexpected', failed_tests: 1 }]);

    const off = await playwright(COUPON, { reporter: { db, quarantine: false } });
    expect(off.exitCode).toBe(1);
    expect(flakeboardLines(off.stdout)).toEqual([`flakeboard: stored run 2 "project" (1 test, 1 failed, 0 flaky; approved) in ${db}`]);

    // A failure nothing covers: the quarantined one is not forgiven either, and neither is said to be.
    const another = await playwright(['test', '--grep', 'applies a coupon|greets'], { reporter: { db }, env: { REPORTER_SUITE_BREAK: '1' } });
    expect(another.exitCode).toBe(1);
    expect(flakeboardLines(another.stdout)).toEqual([`flakeboard: stored run 3 "project" (2 tests, 2 failed, 0 flaky; approved) in ${db}`]);

    // The checkout block's beforeAll fails: a failure outside the test's own body is never forgiven.
    const setup = await playwright(COUPON, { reporter: { db }, env: { REPORTER_SUITE_BREAK_SETUP: '1' } });
    expect(setup.exitCode).toBe(1);
    expect(setup.stdout).toContain('the checkout fixture data could not be loaded');
    expect(flakeboardLines(setup.stdout)).toEqual([`flakeboard: stored run 4 "project" (1 test, 1 failed, 0 flaky; approved) in ${db}`]);

    // Stopped at --max-failures (Playwright says so as an error outside any test): what it never ran could have failed too.
    const stopped = await playwright([...COUPON, '--retries=0', '--max-failures=1'], { reporter: { db } });
    expect(stopped.exitCode).toBe(1);
    expect(flakeboardLines(stopped.stdout)).toEqual([`flakeboard: stored run 5 "project" (1 test, 1 failed, 0 flaky; approved) in ${db}`]);

    const removed = await runCli(['quarantine', 'remove', '1', '--db', db], { env: cleanEnv() });
    expect(removed.exitCode).toBe(0);
    const lifted = await playwright(COUPON, { reporter: { db } });
    expect(lifted.exitCode).toBe(1);
    expect(flakeboardLines(lifted.stdout)).toEqual([`flakeboard: stored run 6 "project" (1 test, 1 failed, 0 flaky; approved) in ${db}`]);
  }, 300_000);

  it('reads the list from the server the run is sent to, and forgives nothing when the server cannot be reached', async () => {
    const db = join(temp.dir, 'server.db');
    await quarantine(db, 'applies a coupon');
    await runCli(['user', 'add', 'rita', '--role', 'admin', '--password-stdin', '--db', db], { env: cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' }), input: 'rita-password-1\n' });
    const created = await runCli(['token', 'create', 'ci', '--scope', 'upload,read', '--db', db], { env: cleanEnv() });
    const token = created.stdout.match(/\b[\w-]{40,}\b/)?.[0];
    expect(token).toBeTruthy();
    const server = await startServe(db);
    try {
      const sent = await playwright(COUPON, { reporter: { server: server.url, token } });
      expect(sent.exitCode, sent.stdout).toBe(0);
      expect(flakeboardLines(sent.stdout)).toEqual([forgivenLine, `flakeboard: sent run 1 "project" (1 test, 1 failed, 0 flaky; pending review) to ${server.url}`]);
    } finally {
      await server.stop();
    }

    const port = await freePort();
    const down = `http://127.0.0.1:${port}`;
    const unreachable = await playwright(COUPON, { reporter: { server: down, token, timeout: 3_000 } });
    expect(unreachable.exitCode).toBe(1);
    const lines = flakeboardLines(unreachable.stdout);
    expect(lines[0]).toBe(`flakeboard: could not read the quarantine list from ${down}: ECONNREFUSED; no failure is forgiven`);
    expect(lines[1]).toMatch(/^flakeboard: could not send the run "project" to /);
  }, 300_000);
});

/** A loopback port nothing listens on: taken and let go at once. */
function freePort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) => probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  }));
}
