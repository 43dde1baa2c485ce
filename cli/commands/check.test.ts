import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateAnswer } from '../../core/gate/types.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { gateReport, writeGateHistory, writeGateReport, type Outcome } from '../../fixtures/testing/gate-reports.js';
import { startServe } from '../../fixtures/testing/live-serve.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
let db: string;
const DAY = 86_400_000;
const env = () => cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' });
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString();

/**
 * main's last five runs: "total" always passes, "coupon" fails on the last two (broken on
 * main), "payment" passed on a retry once (flaky), "address" failed once a week ago and passed
 * since, "receipt" is quarantined. The pull request's run fails all of them plus "total".
 */
const MAIN: Array<Record<string, Outcome>> = [
  { total: 'passed', coupon: 'passed', payment: 'passed', address: 'passed', receipt: 'passed' },
  { total: 'passed', coupon: 'passed', payment: 'flaky', address: 'failed', receipt: 'failed' },
  { total: 'passed', coupon: 'passed', payment: 'passed', address: 'passed', receipt: 'passed' },
  { total: 'passed', coupon: 'failed', payment: 'passed', address: 'passed', receipt: 'passed' },
  { total: 'passed', coupon: 'failed', payment: 'passed', address: 'passed', receipt: 'passed' },
];
const PR: Record<string, Outcome> = { total: 'failed', coupon: 'failed', payment: 'failed', address: 'failed', receipt: 'failed', login: 'passed' };

beforeAll(async () => {
  temp = makeTempDir('flakeboard-check-');
  db = join(temp.dir, 'f.db');
  // One import of the five, oldest first: each report names its commit as Playwright writes it (config.metadata.gitCommit).
  const files = writeGateHistory(temp.dir, MAIN, (i) => day(10 - i * 2));
  const imported = await runCli(['import', ...files, '--db', db, '--branch', 'main'], { env: env() });
  expect(imported.exitCode, imported.stderr).toBe(0);
  const q = await runCli(['quarantine', 'add', 'receipt', '--reason', 'the mail stub drops messages', '--owner', 'rita', '--expires', '14d', '--db', db], { env: env() });
  expect(q.exitCode, q.stderr).toBe(0);
}, 120_000);
afterAll(() => temp.cleanup());

describe('flakeboard check', () => {
  it('tells new failures from broken-on-main, flaky and quarantined ones, with evidence, and fails on the new one', async () => {
    const pr = writeGateReport(temp.dir, 'pr.json', PR, day(0));
    const { exitCode, stdout } = await runCli(['check', pr, '--db', db, '--json'], { env: env() });
    expect(exitCode).toBe(1);
    const answer = JSON.parse(stdout) as GateAnswer;
    expect(answer).toMatchObject({ verdict: 'fail', base: 'main', baseRuns: 5, littleHistory: false, runLooksBroken: false });
    const classOf = Object.fromEntries(answer.failures.map((f) => [f.title, f.class]));
    expect(classOf).toEqual({ total: 'new', coupon: 'broken-on-base', payment: 'flaky', address: 'flaky', receipt: 'quarantined' });
    const coupon = answer.failures.find((f) => f.title === 'coupon')!;
    expect(coupon).toMatchObject({ file: 'checkout.spec.ts', project: 'chromium' });
    expect(coupon.evidence.map((e) => e.commit)).toEqual(['c0ffee4', 'c0ffee3']);
    expect(answer.failures.find((f) => f.title === 'receipt')!.reason).toContain('owner rita');
  });

  it('passes a run whose only failures are known, and writes a job summary that says why', async () => {
    const pr = writeGateReport(temp.dir, 'pr-known.json', { ...PR, total: 'passed' }, day(0));
    const summary = join(temp.dir, 'summary.md');
    const { exitCode, stdout } = await runCli(['check', pr, '--db', db, '--markdown', summary, '--dashboard', 'https://flakeboard.example.com'], { env: env() });
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/verdict: pass — 1 broken-on-base, 2 flaky, 1 quarantined: nothing new fails/);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toContain('### flakeboard check: ✅ pass');
    expect(markdown).toContain('https://flakeboard.example.com/#/flaky-tests?test=coupon&file=checkout.spec.ts&browser=chromium');
    expect(markdown).toContain('#### ◦ Quarantined (1)');
  });

  it('says when the base history is too thin, and when the run itself looks broken', async () => {
    const outage = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`step ${i}`, 'failed' as Outcome]));
    const pr = writeGateReport(temp.dir, 'pr-outage.json', outage, day(0));
    const { stdout } = await runCli(['check', pr, '--db', db, '--base', 'release'], { env: env() });
    expect(stdout).toContain('note: the run itself looks broken: 12 of 12 tests failed');
    expect(stdout).toContain('note: too little history on release (0 run(s) in 30 days)');
  });

  it('answers the same through a server with a token, and refuses bad input with exit 2', async () => {
    const admin = await runCli(['user', 'add', 'max', '--role', 'admin', '--password-stdin', '--db', db], { env: env(), input: 'max-password-1\n' });
    expect(admin.exitCode, admin.stderr).toBe(0);
    const token = (await runCli(['token', 'create', 'ci', '--scope', 'upload,read', '--db', db], { env: env() })).stdout.match(/\b[\w-]{40,}\b/)![0];
    const server = await startServe(db);
    try {
      const pr = writeGateReport(temp.dir, 'pr-remote.json', PR, day(0));
      const local = JSON.parse((await runCli(['check', pr, '--db', db, '--json'], { env: env() })).stdout) as GateAnswer;
      const remote = await runCli(['check', pr, '--server', server.url, '--json'], { env: { ...env(), FLAKEBOARD_TOKEN: token } });
      expect(remote.exitCode).toBe(1);
      expect(JSON.parse(remote.stdout)).toEqual(local);
      const noToken = await runCli(['check', pr, '--server', server.url], { env: env() });
      expect(noToken).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/no API token/) });
    } finally {
      await server.stop();
    }
    expect(await runCli(['check', join(temp.dir, 'missing.json'), '--db', db], { env: env() })).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/cannot read the file/) });
    expect(await runCli(['check', join(temp.dir, 'pr.json'), '--db', join(temp.dir, 'none.db')], { env: env() })).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/no database at/) });
  }, 120_000);
});

describe('flakeboard quarantine', () => {
  it('lists, exports for --grep-invert and as JSON, and removes entries', async () => {
    const list = await runCli(['quarantine', 'list', '--db', db], { env: env() });
    expect(list.stdout).toMatch(/1\s+active\s+receipt\s+\*\s+\*\s+rita/);
    const grep = await runCli(['quarantine', 'export', '--format', 'grep', '--db', db], { env: env() });
    expect(grep.stdout.trim()).toBe('(?:^| )receipt$');
    const added = await runCli(['quarantine', 'add', 'pay (EUR) *', '--reason', 'x', '--db', db], { env: env() });
    expect(added.stdout).toMatch(/quarantined entry 2: "pay \(EUR\) \*"/);
    const pattern = new RegExp((await runCli(['quarantine', 'export', '--format', 'grep', '--db', db], { env: env() })).stdout.trim());
    // As Playwright matches it: project, file and titles joined by spaces, the test's title last.
    expect(pattern.test('chromium checkout.spec.ts pay (EUR) with a saved card')).toBe(true);
    expect(pattern.test('chromium checkout.spec.ts receipt')).toBe(true);
    expect(pattern.test('chromium checkout.spec.ts receipt is mailed')).toBe(false);
    expect(pattern.test('chromium account.spec.ts repay (EUR) now')).toBe(false);
    const scoped = await runCli(['quarantine', 'add', 'refund', '--project', 'webkit', '--reason', 'x', '--db', db], { env: env() });
    expect(scoped.exitCode).toBe(0);
    const warned = await runCli(['quarantine', 'export', '--format', 'grep', '--db', db], { env: env() });
    expect(warned.stderr).toContain('entries 3 are limited to a file or project');
    expect((await runCli(['quarantine', 'remove', '3', '--db', db], { env: env() })).exitCode).toBe(0);
    const json = JSON.parse((await runCli(['quarantine', 'export', '--db', db], { env: env() })).stdout) as { tests: Array<{ title: string }> };
    expect(json.tests.map((t) => t.title)).toEqual(['pay (EUR) *', 'receipt']);
    expect((await runCli(['quarantine', 'remove', '2', '--db', db], { env: env() })).stdout).toContain('removed quarantine entry 2');
    expect(await runCli(['quarantine', 'remove', '2', '--db', db], { env: env() })).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/no quarantine entry 2 in force/) });
    expect(await runCli(['quarantine', 'add', 'x', '--reason', 'y', '--expires', 'tomorrow', '--db', db], { env: env() })).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/"tomorrow"/) });
  });
});

describe('one date for a quarantine entry', () => {
  it('quarantine list, check (its lines and its JSON) and the export print the same last day, never the day after', async () => {
    // "receipt" was added with --expires 14d: it applies through the 13th UTC day after today.
    const startOfToday = Math.floor(Date.now() / DAY) * DAY;
    const through = new Date(startOfToday + 13 * DAY).toISOString().slice(0, 10);
    const dayAfter = new Date(startOfToday + 14 * DAY).toISOString().slice(0, 10);
    const list = await runCli(['quarantine', 'list', '--db', db], { env: env() });
    expect(list.stdout).toMatch(/\bTHROUGH\b/);
    expect(list.stdout).toMatch(new RegExp(`receipt\\s+\\*\\s+\\*\\s+rita\\s+${through}\\s`));
    const listJson = JSON.parse((await runCli(['quarantine', 'list', '--json', '--db', db], { env: env() })).stdout) as Array<{ title: string; through: string | null }>;
    expect(listJson.find((q) => q.title === 'receipt')!.through).toBe(through);

    const pr = writeGateReport(temp.dir, 'pr-dates.json', PR, day(0));
    const text = (await runCli(['check', pr, '--db', db], { env: env() })).stdout;
    expect(text.split('\n').find((l) => l.includes('receipt'))).toContain(`through ${through}`);
    const answer = JSON.parse((await runCli(['check', pr, '--db', db, '--json'], { env: env() })).stdout) as GateAnswer;
    expect(answer.failures.find((f) => f.title === 'receipt')!.quarantine).toMatchObject({ through });

    const exported = (await runCli(['quarantine', 'export', '--db', db], { env: env() })).stdout;
    expect((JSON.parse(exported) as { tests: Array<{ title: string; through: string | null }> }).tests.find((q) => q.title === 'receipt')!.through).toBe(through);
    for (const output of [list.stdout, text, exported]) expect(output).not.toContain(dayAfter);
  });
});

describe('a config without projects', () => {
  it('is checked as chromium, Playwright\'s default: no "unknown", no empty [] in the lines or the summary', async () => {
    const report = gateReport({ total: 'failed', login: 'passed' }, day(0));
    report.config.projects = [{ name: '' }];
    for (const spec of report.suites[0]!.specs) for (const t of spec.tests) t.projectName = '';
    const file = join(temp.dir, 'no-projects.json');
    writeFileSync(file, JSON.stringify(report));
    const summary = join(temp.dir, 'no-projects.md');
    const { stdout } = await runCli(['check', file, '--db', db, '--markdown', summary], { env: env() });
    expect(stdout).toContain('checkout.spec.ts › total [chromium]:');
    expect(stdout).not.toMatch(/\[\]|unknown/);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toMatch(/\| chromium \| /);
    expect(markdown).not.toMatch(/\| *\| |unknown/);
  });
});
