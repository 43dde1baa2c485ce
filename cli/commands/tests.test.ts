import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../fixtures/testing/engines.js';
import { gateReport, type Outcome } from '../../fixtures/testing/gate-reports.js';
import { makePlaywrightProject, ROOT } from '../../fixtures/testing/playwright-project.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
let db: string;
const targets: TestTarget[] = [];
const DAY = 86_400_000;
const env = () => cleanEnv();
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A gate report of one project, optionally one shard of a build. */
function report(name: string, outcomes: Record<string, Outcome>, startTime: string, project: string, shard?: { current: number; total: number }): string {
  const r = gateReport(outcomes, startTime);
  const path = join(temp.dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      ...r,
      config: { ...r.config, projects: [{ name: project }], ...(shard ? { shard } : {}) },
      suites: r.suites.map((s) => ({ ...s, specs: s.specs.map((spec) => ({ ...spec, tests: spec.tests.map((t) => ({ ...t, projectName: project })) })) })),
    }),
  );
  return path;
}

async function importRun(file: string, args: string[], into = db): Promise<void> {
  const imported = await runCli(['import', file, '--db', into, ...args], { env: env() });
  expect(imported.exitCode, imported.stderr).toBe(0);
}

// (runCli's output loses its final newline; the files written keep theirs.)
const tests = (args: string[], into = db) => runCli(['tests', '--db', into, ...args], { env: env() });

beforeAll(() => {
  temp = makeTempDir('flakeboard-tests-');
});
afterAll(() => temp.cleanup());

describeEachEngine('flakeboard tests', (engine) => {
  const fresh = async () => {
    const target = await createTestTarget(engine);
    targets.push(target);
    return target.target;
  };
  beforeAll(async () => {
    db = await fresh();
    // main, two days ago: everything passed, on chromium only.
    await importRun(report('main.json', { total: 'passed', coupon: 'passed', payment: 'passed' }, ago(2 * DAY), 'chromium'), ['--branch', 'main', '--commit', 'aaa1']);
    // A feature branch's CI build in two shards, one per project: run 2 (chromium) and run 3 (firefox).
    // One import of both files, stored in the order given.
    const shard1 = report('shard-1.json', { total: 'passed', coupon: 'failed', payment: 'flaky', login: 'passed' }, ago(60_000), 'chromium', { current: 1, total: 2 });
    const shard2 = report('shard-2.json', { address: 'failed', receipt: 'passed' }, ago(30_000), 'firefox', { current: 2, total: 2 });
    await importRun(shard1, [shard2, '--branch', 'feature', '--commit', 'bbb2', '--build-id', 'B1']);
  }, 120_000);
  afterAll(async () => {
    for (const target of targets.splice(0)) await target.remove();
  });

  it('lists what failed in every shard of a build, with the project, and leaves out the flaky test', async () => {
    const expected = '[firefox] › checkout.spec.ts › address\n[chromium] › checkout.spec.ts › coupon';
    const byBuild = await tests(['--failed', '--build', 'B1']);
    expect(byBuild).toMatchObject({ exitCode: 0, stdout: expected });
    expect(byBuild.stderr).toBe('flakeboard tests: 2 failed test(s) in build "B1" (2 reports)');
    // The newest run is a shard: its whole build is "the last run".
    expect((await tests(['--failed'])).stdout).toBe(expected);
    // One report alone, all of it in the default project (what a config without projects is
    // stored as): the line names no project, so it cannot name one the config lacks.
    expect((await tests(['--failed', '--run', '2'])).stdout).toBe('checkout.spec.ts › coupon');
    expect((await tests(['--failed', '--run', '3'])).stdout).toBe('[firefox] › checkout.spec.ts › address');
  });

  it('prints JSON with the project, file and title path', async () => {
    const { exitCode, stdout } = await tests(['--failed', '--json']);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { project: 'firefox', file: 'checkout.spec.ts', title: 'address', titlePath: ['address'] },
      { project: 'chromium', file: 'checkout.spec.ts', title: 'coupon', titlePath: ['coupon'] },
    ]);
  });

  it('writes an empty file and says so when nothing failed', async () => {
    const out = join(temp.dir, 'none.txt');
    const { exitCode, stdout, stderr } = await tests(['--failed', '--branch', 'main', '--output', out]);
    expect(exitCode).toBe(0);
    expect(stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(stderr).toBe('flakeboard tests: nothing failed in run 1: the list is empty');
  });

  it('lists the tests the base branch has not run in that project for a burn-in job', async () => {
    const { exitCode, stdout, stderr } = await tests(['--new', '--base', 'main']);
    expect(exitCode).toBe(0);
    // login is new everywhere; main never ran anything on firefox.
    expect(stdout).toBe('[firefox] › checkout.spec.ts › address\n[chromium] › checkout.spec.ts › login\n[firefox] › checkout.spec.ts › receipt');
    expect(stderr).toContain('3 test(s) in run 2 (2 reports) new to main in 30 days');
    // Out of the window, main ran nothing: every test is new, and the note says why.
    const thin = await tests(['--new', '--base', 'main', '--days', '1']);
    expect(thin.stdout.trim().split('\n')).toHaveLength(6);
    expect(thin.stderr).toContain('main has no runs in 1 days, so every test counts as new');
  });

  it('refuses a run, build or branch the database does not hold, and an empty database, with a message that names it, exit 1', async () => {
    const cases: Array<[string[], string]> = [
      [['--failed', '--run', '99'], 'no run 99'],
      [['--failed', '--build', 'nope'], 'no run of build "nope"'],
      [['--failed', '--branch', 'release'], 'no runs of branch "release"'],
    ];
    const empty = await fresh();
    const [emptyAnswer, ...answers] = await Promise.all([tests(['--failed'], empty), ...cases.map(([args]) => tests(args))]);
    cases.forEach(([args, message], i) => {
      const { exitCode, stdout, stderr } = answers[i]!;
      expect({ args, exitCode, stdout }).toEqual({ args, exitCode: 1, stdout: '' });
      expect(stderr).toContain(message);
    });
    expect(emptyAnswer).toMatchObject({ exitCode: 1, stdout: '' });
    expect(emptyAnswer.stderr).toContain('no runs stored yet');
  });

  it('splits the suite into shards that end together by the stored durations, and says what it saves', async () => {
    const other = await fresh();
    // In file order the two long tests fall in the first half: Playwright's split by count
    // gives one shard 2m1s and the other 3s; balanced, each long test has a shard of its own.
    const ms: Record<string, number> = { a: 60_000, b: 60_000, c: 1000, d: 1000, e: 1000, f: 1000 };
    const base = JSON.parse(readFileSync(report('timed.json', Object.fromEntries(Object.keys(ms).map((t) => [t, 'passed'])), ago(0), 'chromium'), 'utf8'));
    for (const spec of base.suites[0].specs) spec.tests[0].results[0].duration = ms[spec.title];
    const timed = join(temp.dir, 'timed.json');
    writeFileSync(timed, JSON.stringify(base));
    await importRun(timed, [], other);

    const lists = [await tests(['--shard', '1/2'], other), await tests(['--shard', '2/2'], other)];
    for (const list of lists) expect(list.exitCode, list.stderr).toBe(0);
    expect(lists.map((l) => l.stdout.split('\n'))).toEqual([
      ['checkout.spec.ts › a', 'checkout.spec.ts › c', 'checkout.spec.ts › e'],
      ['checkout.spec.ts › b', 'checkout.spec.ts › d', 'checkout.spec.ts › f'],
    ]);
    expect(lists[0]!.stderr).toBe(
      "flakeboard tests: shard 1/2: 3 of 6 test(s) in run 1, 1.0m by their durations; the longest shard takes 1.0m, 59.0s less than Playwright's --shard 2 split by count (2.0m)",
    );
    const json = JSON.parse((await tests(['--shard', '2/2', '--json'], other)).stdout) as Array<{ title: string; durationMs: number }>;
    expect(json.map((t) => [t.title, t.durationMs])).toEqual([['b', 60_000], ['d', 1000], ['f', 1000]]);
  });

  it('leaves out a test whose title cannot be one line of the list, and names it inertly', async () => {
    const other = await fresh();
    await importRun(report('titles.json', { 'two\nlines': 'failed', 'a › b': 'failed', ' padded': 'failed', 'red \u001b[31m alert': 'failed', plain: 'failed' }, ago(0), 'chromium'), [], other);
    const { exitCode, stdout, stderr } = await tests(['--failed'], other);
    expect(exitCode).toBe(0);
    // One project, the default one: the lines name none, which matches a config without projects too.
    expect(stdout).toBe('checkout.spec.ts › plain\ncheckout.spec.ts › red \u001b[31m alert');
    expect(stderr).toContain('left out "two\\nlines" in checkout.spec.ts (chromium): its name has a line break');
    expect(stderr).toContain('left out "a › b"');
    expect(stderr).toContain('left out " padded"');
    expect(stderr).not.toContain('\u001b');
  });
});

// Refused before the database is opened, so once for both engines; all at once, each its own process.
describe('flakeboard tests: unclear or bad options', () => {
  it('refuses them with a message that names them, exit 1', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'say which list: --failed, --new or --shard K/N'],
      [['--failed', '--new'], 'say which list: --failed, --new or --shard K/N'],
      [['--shard', '3/2'], '--shard must be K/N with N from 1 to 100 and K from 1 to N'],
      [['--shard', '1/2', '--failed'], 'say which list'],
      [['--shard', '1/2', '--base', 'main'], '--base goes with --new, not --shard'],
      [['--failed', '--run', 'abc'], '--run must be a run id'],
      [['--failed', '--run', '2', '--build', 'B1'], 'give --run or --build, not both'],
      [['--new', '--days', '0'], '--days must be a whole number from 1 to 365'],
      [['--failed', '--base', 'main'], '--base goes with --new, not --failed'],
    ];
    const db = join(temp.dir, 'options.db');
    const answers = await Promise.all(cases.map(([args]) => tests(args, db)));
    cases.forEach(([args, message], i) => {
      const { exitCode, stdout, stderr } = answers[i]!;
      expect({ args, exitCode, stdout }).toEqual({ args, exitCode: 1, stdout: '' });
      expect(stderr).toContain(message);
    });
  });
});

/**
 * The proof: a real Playwright project (two projects, one test failing in one of them, one
 * flaky), its JSON report imported, the list written, and Playwright running that list.
 */
const PLAYWRIGHT_CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const CONFIG = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './list-tests',
  outputDir: process.env.OUT_DIR,
  retries: 1,
  workers: 1,
  reporter: [['json', { outputFile: process.env.JSON_REPORT }]],
  projects: [{ name: 'desktop' }, { name: 'mobile' }],
});
`;
const SPEC = `import { expect, test } from '@playwright/test';
test.describe('cart', () => {
  test('shows the total', () => expect(42).toBe(42));
  test('applies a coupon', ({}, testInfo) => expect(testInfo.project.name).toBe('desktop'));
  test('loads the widget', ({}, testInfo) => expect(testInfo.retry).toBe(1));
});
`;

describe('flakeboard tests with Playwright', () => {
  it('writes a list that `playwright test --test-list` runs exactly: the one failed test', async () => {
    const project = makePlaywrightProject(join(temp.dir, 'project'));
    writeFileSync(join(project, 'list.config.ts'), CONFIG);
    mkdirSync(join(project, 'list-tests'));
    writeFileSync(join(project, 'list-tests', 'cart.spec.ts'), SPEC);
    const playwright = async (args: string[], json: string) => {
      const result = await execa(process.execPath, [PLAYWRIGHT_CLI, 'test', '-c', 'list.config.ts', ...args], {
        cwd: project,
        reject: false,
        env: cleanEnv({ JSON_REPORT: json, OUT_DIR: join(temp.dir, 'pw-out') }),
        extendEnv: false,
      });
      return result.exitCode;
    };

    const first = join(temp.dir, 'first.json');
    expect(await playwright([], first)).toBe(1);
    const pwDb = join(temp.dir, 'pw.db');
    await importRun(first, [], pwDb);
    const list = join(project, 'list.txt');
    const written = await tests(['--failed', '--output', list], pwDb);
    expect(written.exitCode, written.stderr).toBe(0);
    expect(readFileSync(list, 'utf8')).toBe('[mobile] › cart.spec.ts › cart › applies a coupon\n');

    const second = join(temp.dir, 'second.json');
    expect(await playwright(['--test-list', 'list.txt'], second)).toBe(1);
    type Spec = { title: string; tests: Array<{ projectName: string; results: unknown[] }> };
    type Suite = { title: string; specs?: Spec[]; suites?: Suite[] };
    const ran: string[] = [];
    const walk = (suite: Suite, path: string[]) => {
      for (const spec of suite.specs ?? []) for (const t of spec.tests) if (t.results.length > 0) ran.push(`${t.projectName}: ${[...path, spec.title].join(' › ')}`);
      for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
    };
    const rerun = JSON.parse(readFileSync(second, 'utf8')) as { suites: Suite[]; stats: { expected: number; unexpected: number; flaky: number } };
    for (const suite of rerun.suites) walk(suite, [suite.title]);
    expect(ran).toEqual(['mobile: cart.spec.ts › cart › applies a coupon']);
    expect(rerun.stats).toMatchObject({ expected: 0, unexpected: 1, flaky: 0 });
  }, 180_000);
});
