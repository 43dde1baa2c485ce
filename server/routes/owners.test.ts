import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse, FlakyTestGroup, FlakyTestsPage, OwnersResponse } from '../../core/api/analytics.js';
import { parseCodeowners } from '../../core/owners/codeowners.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { ownersForReport } from '../../cli/owners.js';
import { ingestValue } from '../ingest.js';
import { addQuarantine } from '../store/read/quarantine.js';

// Ten days of five runs a day; each test's outcome per run from a seeded generator, so the
// flaky tests, their owners and their flake episodes are known from the raw data alone.
const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-11-20T18:00:00Z');
const TODAY = Math.floor(NOW / DAY_MS);
const DAYS = 10;
const RUNS_PER_DAY = 5;
const FIX_RUNS = 20;

type Outcome = 'pass' | 'retry' | 'fail';
interface Planned {
  file: string;
  title: string;
  tags: string[];
  outcome: (day: number, run: number) => Outcome;
}

function random(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

// Flakes on some days only, at a rate of its own: episodes open, close and open again.
function pattern(seed: number): (day: number, run: number) => Outcome {
  const r = random(seed);
  const flakyDays = new Set(Array.from({ length: DAYS }, (_, d) => d).filter(() => r() < 0.3));
  const table = Array.from({ length: DAYS }, (_, d) => Array.from({ length: RUNS_PER_DAY }, () => (flakyDays.has(d) && r() < 0.5 ? (r() < 0.7 ? 'retry' : 'fail') : 'pass') as Outcome));
  return (day, run) => table[day]![run]!;
}

const PLAN: Planned[] = [
  ...Array.from({ length: 14 }, (_, i) => ({ file: 'a/many.spec.ts', title: `a test ${String(i).padStart(2, '0')}`, tags: [], outcome: pattern(100 + i) })),
  ...Array.from({ length: 3 }, (_, i) => ({ file: 'a/many.spec.ts', title: `carol's ${i}`, tags: ['@owner:carol'], outcome: pattern(200 + i) })),
  ...Array.from({ length: 5 }, (_, i) => ({ file: 'b/x.spec.ts', title: `b test ${i}`, tags: [], outcome: pattern(300 + i) })),
  ...Array.from({ length: 6 }, (_, i) => ({ file: 'c/z.spec.ts', title: `c test ${i}`, tags: [], outcome: pattern(400 + i) })),
  // Fixed on a known day: flakes on days 0 and 2, then passes: 20 runs after day 2 end on day 6.
  { file: 'b/x.spec.ts', title: 'fixed one', tags: [], outcome: (day, run) => ((day === 0 || day === 2) && run === 0 ? 'retry' : 'pass') },
];
const CODEOWNERS = '* @everyone\n/e2e/a/ @team-a\n/e2e/b/x.spec.ts @team-b\n/e2e/c/\n';
const ownerOf = (p: Planned) => (p.tags.length > 0 ? '@carol' : p.file.startsWith('a/') ? '@team-a' : p.file.startsWith('b/') ? '@team-b' : null);

function report(day: number, run: number) {
  const startTime = new Date((TODAY - DAYS + 1 + day) * DAY_MS + run * 3_600_000).toISOString();
  const files = [...new Set(PLAN.map((p) => p.file))];
  return {
    config: { rootDir: '/home/runner/work/shop/shop/e2e', projects: [{ name: 'chromium' }], version: '1.50.0' },
    suites: files.map((file) => ({
      title: file,
      file,
      specs: PLAN.filter((p) => p.file === file).map((p, line) => {
        const outcome = p.outcome(day, run);
        const results =
          outcome === 'pass'
            ? [{ status: 'passed', retry: 0, duration: 5 }]
            : [{ status: 'failed', retry: 0, duration: 5 }, { status: outcome === 'retry' ? 'passed' : 'failed', retry: 1, duration: 5 }];
        return { title: p.title, file, line: line + 1, column: 1, tags: p.tags, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results }] };
      }),
    })),
    errors: [],
    stats: { startTime, duration: 1000 },
  };
}

// The oracle: from the planned outcomes alone. A test is flaky (docs/screens.md#flaky) when a
// retry rescued it or its attempts changed outcome twice; a flake is a failed or rescued run.
function oracle(p: Planned) {
  const attempts: boolean[] = [];
  let rescued = 0;
  const flakeDays: number[] = [];
  for (let day = 0; day < DAYS; day++) {
    for (let run = 0; run < RUNS_PER_DAY; run++) {
      const o = p.outcome(day, run);
      attempts.push(...(o === 'pass' ? [true] : o === 'retry' ? [false, true] : [false, false]));
      if (o === 'retry') rescued++;
      if (o !== 'pass' && flakeDays.at(-1) !== day) flakeDays.push(day);
    }
  }
  let changes = 0;
  for (let i = 1; i < attempts.length; i++) if (attempts[i] !== attempts[i - 1]) changes++;
  const flaky = rescued > 0 || changes >= 2;
  // Episodes: split where at least FIX_RUNS runs passed between two flake days; the last one is
  // fixed on the day the runs after its last flake reach FIX_RUNS.
  const starts = flakeDays.filter((d, i) => i === 0 || (d - flakeDays[i - 1]! - 1) * RUNS_PER_DAY >= FIX_RUNS);
  const last = flakeDays.at(-1);
  const fixedAfter = last === undefined ? null : last + Math.ceil(FIX_RUNS / RUNS_PER_DAY);
  const fixedDay = fixedAfter !== null && fixedAfter < DAYS ? fixedAfter : null;
  const abs = (d: number) => new Date((TODAY - DAYS + 1 + d) * DAY_MS).toISOString().slice(0, 10);
  const openStart = starts.at(-1);
  // Every episode: from a start to the flake day before the next start, fixed four days (20 runs) after it.
  const episodes = starts.map((start, i) => {
    const end = flakeDays.filter((d) => d >= start && (i + 1 === starts.length || d < starts[i + 1]!)).at(-1)!;
    const fixed = end + Math.ceil(FIX_RUNS / RUNS_PER_DAY);
    return { start, fixed: fixed < DAYS ? fixed : null };
  });
  return {
    flaky,
    episodes,
    timeToFix:
      last === undefined
        ? null
        : {
            first_flaked: abs(flakeDays[0]!),
            last_flaked: abs(last),
            open_since: fixedDay === null ? abs(openStart!) : null,
            open_days: fixedDay === null ? DAYS - 1 - openStart! : null,
            fixed: fixedDay === null ? null : abs(fixedDay),
            days_to_fix: fixedDay === null ? null : fixedDay - openStart!,
          },
  };
}

let t: TestApp;
let who: Signed;
let repo: ReturnType<typeof makeTempDir>;

beforeAll(async () => {
  t = await buildTestApp({ now: () => NOW });
  who = await signIn(t.app, 'max');
  // The checkout the CLI would read: a report made on CI (its rootDir under /home/runner) maps to e2e/.
  repo = makeTempDir('flakeboard-repo-');
  mkdirSync(join(repo.dir, 'e2e'));
  const ownersFor = ownersForReport({ root: repo.dir, file: 'CODEOWNERS', codeowners: parseCodeowners(CODEOWNERS) });
  for (let day = 0; day < DAYS; day++) {
    for (let run = 0; run < RUNS_PER_DAY; run++) await ingestValue(t.store, report(day, run), { fileName: `run-${day}-${run}.json`, approve: true, ownersFor });
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

async function get<T>(url: string, status = 200): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  expect([url, res.statusCode]).toEqual([url, status]);
  return res.json() as T;
}

async function everyPage(url: string, pageSize: number): Promise<{ items: FlakyTestGroup[]; page: FlakyTestsPage }> {
  const items: FlakyTestGroup[] = [];
  for (let n = 1; ; n++) {
    const page = await get<FlakyTestsPage>(`${url}&page=${n}&pageSize=${pageSize}`);
    items.push(...page.items);
    if (page.items.length < pageSize) return { items, page };
  }
}

const flakyPlan = PLAN.filter((p) => oracle(p).flaky);

describe('owners on the flaky list', () => {
  it('the planned data has flaky tests of every owner and unowned ones', () => {
    expect(new Set(flakyPlan.map(ownerOf))).toEqual(new Set(['@team-a', '@carol', '@team-b', null]));
  });

  for (const owner of ['@team-a', '@team-b', '@carol', 'unowned']) {
    it(`owner=${owner} pages through exactly that owner's flaky tests`, async () => {
      const expected = flakyPlan.filter((p) => (ownerOf(p) ?? 'unowned') === owner).map((p) => p.title);
      const { items, page } = await everyPage(`/api/flaky-tests?owner=${encodeURIComponent(owner)}`, 4);
      expect(items.map((g) => g.test_title).sort()).toEqual(expected.sort());
      expect(page.total).toBe(expected.length);
      expect(page.counts.unowned).toBe(owner === 'unowned' ? expected.length : 0);
      for (const g of items) expect(g.owners!.map((o) => o.owner)).toEqual(owner === 'unowned' ? [] : [owner]);
    });
  }

  it('every row names its owners and where they came from; the unowned count is of all flaky tests', async () => {
    const { items, page } = await everyPage('/api/flaky-tests?sort=score', 7);
    expect(items).toHaveLength(flakyPlan.length);
    expect(page.counts.unowned).toBe(flakyPlan.filter((p) => ownerOf(p) === null).length);
    for (const g of items) {
      const plan = PLAN.find((p) => p.title === g.test_title)!;
      expect(g.owners, g.test_title).toEqual(ownerOf(plan) === null ? [] : [{ owner: ownerOf(plan), source: plan.tags.length > 0 ? 'tag' : 'codeowners' }]);
    }
  });

  it('lists the known owners and refuses an owner that cannot be one', async () => {
    const { owners } = await get<OwnersResponse>('/api/owners');
    expect(owners.map((o) => o.owner)).toEqual(['@carol', '@team-a', '@team-b']);
    expect(owners.find((o) => o.owner === '@team-a')!.tests).toBe(14);
    const refused = await get<{ error: string }>('/api/flaky-tests?owner=team%20a', 400);
    expect(refused.error).toMatch(/owner must be/);
    await get('/api/dashboard?owner=nobody', 400);
  });

  it('the dashboard counts one owner\'s flaky tests', async () => {
    const all = await get<DashboardResponse>('/api/dashboard?days=30');
    const mine = await get<DashboardResponse>('/api/dashboard?days=30&owner=%40team-b');
    const none = await get<DashboardResponse>('/api/dashboard?days=30&owner=unowned');
    expect(all.flakyCount).toBe(flakyPlan.length);
    expect(mine.flakyCount).toBe(flakyPlan.filter((p) => ownerOf(p) === '@team-b').length);
    expect(none.flakyCount).toBe(flakyPlan.filter((p) => ownerOf(p) === null).length);
    expect(mine.flakyTests.every((f) => f.test_file === 'b/x.spec.ts')).toBe(true);
  });
});

describe('time to fix', () => {
  it('each flaky test\'s first and last flake, fix or open age match the raw data', async () => {
    const { items } = await everyPage('/api/flaky-tests?sort=score', 10);
    const fixedOne = items.find((g) => g.test_title === 'fixed one')!;
    expect(fixedOne.time_to_fix).toMatchObject({ open_since: null, fixed: oracle(PLAN.at(-1)!).timeToFix!.fixed, days_to_fix: 6 });
    for (const g of items) {
      const expected = oracle(PLAN.find((p) => p.title === g.test_title)!).timeToFix;
      expect(g.time_to_fix, g.test_title).toEqual(expected === null ? null : { ...expected, quarantined: null });
    }
  });

  it('oldest open first: open episodes by age, fixed ones after', async () => {
    const { items } = await everyPage('/api/flaky-tests?sort=open_age', 6);
    const open = items.filter((g) => g.time_to_fix?.open_since);
    expect(open.length).toBeGreaterThan(2);
    expect(items.slice(0, open.length)).toEqual(open);
    for (let i = 1; i < open.length; i++) expect(open[i]!.time_to_fix!.open_days!).toBeLessThanOrEqual(open[i - 1]!.time_to_fix!.open_days!);
  });

  it('the dashboard\'s median time to fix is over the episodes fixed in its window', async () => {
    const fixedDays = flakyPlan.flatMap((p) => oracle(p).episodes.flatMap((e) => (e.fixed === null ? [] : [e.fixed - e.start]))).sort((a, b) => a - b);
    expect(fixedDays.length).toBeGreaterThan(flakyPlan.filter((p) => oracle(p).timeToFix?.fixed).length);
    const median = fixedDays.length % 2 ? fixedDays[(fixedDays.length - 1) / 2] : (fixedDays[fixedDays.length / 2 - 1]! + fixedDays[fixedDays.length / 2]!) / 2;
    const { timeToFix } = await get<DashboardResponse>('/api/dashboard?days=30');
    expect(timeToFix).toEqual({ median_days: median, fixed: fixedDays.length, open: flakyPlan.filter((p) => oracle(p).timeToFix?.open_since).length, fixed_after_runs: FIX_RUNS });
  });

  it('names when a test was put in quarantine', async () => {
    await addQuarantine(t.store, { title: 'fixed one', file: null, project: null, reason: 'known flaky', owner: null, expiresAt: null, createdBy: null }, NOW);
    const { items } = await everyPage('/api/flaky-tests?sort=score&search=fixed', 10);
    expect(items[0]!.time_to_fix!.quarantined).not.toBeNull();
  });
});

describe('quarantine takes its owner from the test', () => {
  it('defaults the owner to the test\'s owners when none is given; an owner given, even empty, is kept', async () => {
    const rita = await signIn(t.app, 'rita');
    const add = async (payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/quarantine', headers: rita.headers, payload: { reason: 'flaky', ...payload } });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { entry: { owner: string | null } }).entry.owner;
    };
    expect(await add({ title: 'b test 1' })).toBe('@team-b');
    expect(await add({ title: "carol's 0", file: 'a/many.spec.ts' })).toBe('@carol');
    expect(await add({ title: "carol's 0", file: 'b/x.spec.ts' })).toBeNull();
    expect(await add({ title: 'c test 0' })).toBeNull();
    expect(await add({ title: 'b test 2', owner: '@someone' })).toBe('@someone');
    expect(await add({ title: 'b test 3', owner: '' })).toBeNull();
  });
});
