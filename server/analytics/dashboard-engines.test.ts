import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DashboardResponse, FlakyTestsPage, TrendListPage } from '../../core/api/analytics.js';
import { describeEachEngine, sameDataOn } from '../../fixtures/testing/engines.js';
import { generateHistory } from '../demo/history.js';
import { publicReports } from '../../fixtures/testing/public-reports.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { ingestFile, ingestValue } from '../ingest.js';
import { onBranch } from '../store/read/branch-days.js';
import { openStore } from '../store/engine/open.js';
import type { AnyStore, Store } from '../store/engine/types.js';
import type { FlakyListArgs } from './flaky-page.js';
import { QUERIES } from './queries.js';
import { pairKey, trendFigures } from './pair-figures.js';
import { forgetTrendRows, trendCountsOf } from './trend-rows.js';
import { scanTrend, scanWindow, type PairTrendCounts } from '../store/read/window-scan.js';
import { lastDays } from './windows.js';

/**
 * The dashboard, flaky and trend reads give the same answers on PostgreSQL as on SQLite
 * too: one seeded history imported into SQLite, copied to PostgreSQL (sameDataOn), every
 * answer compared whole, and checked to hold what the history has (flaky tests, counts that
 * add up), so two equally empty answers cannot pass.
 */
const NOW = Date.parse('2026-11-20T18:00:00Z');
const HISTORY = { seed: 11, runs: 36, days: 20, tests: 48, outageRuns: 1, endDate: NOW };
const FLAKY: Omit<FlakyListArgs, 'days'> = { now: NOW, page: 1, pageSize: 4, search: null, browser: null, severity: null, critical: false, trend: null, sort: 'score', order: 'desc' };
const TRENDS = { period: 7, now: NOW, page: 1, pageSize: 10, direction: null, file: null, test: null } as const;

let sqliteStore: Promise<{ store: Store; cleanup(): void; branches: string[] }> | undefined;
/** One SQLite history for both engines' blocks. */
function history() {
  sqliteStore ??= (async () => {
    const temp = makeTempDir('flakeboard-reads-');
    const store = openStore(`${temp.dir}/history.db`);
    const runs = [...generateHistory(HISTORY)];
    for (const run of runs) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
    const branches = [...new Set(runs.map((r) => r.branch))].sort();
    return { store, branches, cleanup: temp.cleanup };
  })();
  return sqliteStore;
}

/** The oracle: tests whose every result that ran in the window failed, no retry passing, read from the results. */
async function brokenInResults(store: Store, range: { from: number; to: number }): Promise<number> {
  const day = 86_400_000;
  return (await store.sql.value<number>(
    `SELECT count(DISTINCT test_id) FROM (
       SELECT r.test_id FROM results r JOIN runs ON runs.id = r.run_id
       WHERE r.started_at >= @from AND r.started_at < @to AND runs.status != 'rejected' AND runs.is_duplicate = 0
       GROUP BY r.test_id, r.browser
       HAVING sum(r.status != 'skipped') > 0 AND sum(r.status IN ('failed', 'timedOut')) = sum(r.status != 'skipped') AND sum(r.passed_on_retry != 0) = 0)`,
    { from: range.from * day, to: (range.to + 1) * day },
  ))!;
}

describeEachEngine('dashboard, flaky and trend reads', (engine) => {
  let sqlite: Store;
  let store: AnyStore;
  let feature: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    const built = await history();
    sqlite = built.store;
    feature = built.branches.find((b) => b !== 'main')!;
    ({ store, remove } = await sameDataOn(engine, sqlite));
  }, 120_000);
  afterAll(async () => {
    await remove?.();
  });

  /** The answer on this engine, deep-equal to SQLite's (each computed cold). */
  async function same<T>(ask: (s: AnyStore) => Promise<T>): Promise<T> {
    forgetTrendRows();
    const expected = await ask(sqlite);
    forgetTrendRows();
    const answer = await ask(store);
    expect(answer).toEqual(expected);
    return answer;
  }

  it('the history has main and feature branches', () => {
    expect(feature).toBeDefined();
  });

  it('reads a branch’s daily rollup as SQLite does', async () => {
    const rowsOf = (s: AnyStore, branch: string) =>
      s.sql.all<Record<string, unknown>>(onBranch('SELECT * FROM daily_test_stats ORDER BY test_id, browser, day', s.dialect), { branch });
    for (const branch of ['main', feature]) {
      const expected = await rowsOf(sqlite, branch);
      expect(expected.length).toBeGreaterThan(0);
      expect(await rowsOf(store, branch)).toEqual(expected);
    }
    // Every branch's days add up to the rollup of all of them.
    const all = await sqlite.sql.value<number>('SELECT sum(runs) FROM daily_test_stats');
    let sum = 0;
    for (const branch of (await history()).branches) sum += (await rowsOf(store, branch)).reduce((n, r) => n + Number(r.runs), 0);
    expect(sum).toBe(all);
  });

  for (const days of [7, 30, 0]) {
    it(`dashboard?days=${days}, for every branch and for one`, async () => {
      const d = await same((s) => QUERIES.dashboard(s, { days, now: NOW }));
      const range = lastDays(days, NOW);
      const groups = await QUERIES.flakyGroups(store, { days, now: NOW });
      expect(d.flakyCount).toBeGreaterThan(0);
      expect(d.flakyCount).toBe(groups.length);
      expect(d.flakyTests).toHaveLength(5);
      expect(d.summary[0]!.total_tests).toBe(await sqlite.sql.value<number>('SELECT sum(runs) FROM daily_test_stats WHERE day BETWEEN @from AND @to', { from: range.from, to: range.to }));
      expect(d.slowTests.length).toBeGreaterThan(0);
      expect(d.recentRuns.length).toBeGreaterThan(0);
      // Broken tests (failed every run they ran) from the window's sums, as the raw results count them.
      expect(d.brokenCount).toBeGreaterThan(0);
      expect(d.brokenCount).toBe(await brokenInResults(sqlite, range));
      expect(d.brokenTests.length).toBeLessThanOrEqual(5);
      expect(d.brokenTests.every((b, i) => i === 0 || b.failed_runs <= d.brokenTests[i - 1]!.failed_runs)).toBe(true);

      const main = await same((s) => QUERIES.dashboard(s, { days, now: NOW, branch: 'main' }));
      expect(main.summary[0]!.total_runs).toBeGreaterThan(0);
      expect(main.summary[0]!.total_runs).toBeLessThan(d.summary[0]!.total_runs);
      expect(main.flakyCount).toBeGreaterThan(0);
      const one: DashboardResponse = await same((s) => QUERIES.dashboard(s, { days, now: NOW, branch: feature }));
      expect(one.stored.runs).toBeGreaterThan(0);
    }, 60_000);
  }

  it('flaky tests: every sort and order, paging, all time and a window', async () => {
    for (const days of [0, 7]) {
      for (const sort of ['score', 'pass_rate', 'runs', 'last_failure'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const first: FlakyTestsPage = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days, sort, order }));
          expect(first.total).toBeGreaterThan(FLAKY.pageSize);
          expect(first.items).toHaveLength(FLAKY.pageSize);
          const second = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days, sort, order, page: 2 }));
          expect(second.items.length).toBe(Math.min(FLAKY.pageSize, first.total - FLAKY.pageSize));
          expect(second.items.map((g) => g.test_id)).not.toContain(first.items[0]!.test_id);
        }
      }
      const all = await QUERIES.flakyTestsPage(store, { ...FLAKY, days });
      expect(all.total).toBe((await QUERIES.flakyGroups(store, { days, now: NOW })).length);
      expect(all.counts.severe + all.counts.moderate + all.counts.minor).toBe(all.counts.all);
    }
  }, 120_000);

  it('flaky tests: search, browser, severity, critical and trend filters, and one branch', async () => {
    const everything = await QUERIES.flakyTestsPage(store, { ...FLAKY, days: 0 });
    const word = everything.items[0]!.test_title.split(/\s+/)[0]!.toUpperCase();
    const found = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 0, search: word, pageSize: 50 }));
    expect(found.total).toBeGreaterThan(0);
    for (const g of found.items) expect(`${g.test_title}\n${g.test_file}`.toLowerCase()).toContain(word.toLowerCase());

    const browser = everything.browsers[0]!.browser;
    const onBrowser = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 0, browser, pageSize: 50 }));
    expect(onBrowser.total).toBeGreaterThan(0);
    for (const g of onBrowser.items) expect(g.browsers.map((b) => b.browser)).toContain(browser);

    let bySeverity = 0;
    for (const severity of ['severe', 'moderate', 'minor'] as const) {
      const page = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 0, severity }));
      expect(page.total).toBe(everything.counts[severity]);
      bySeverity += page.total;
    }
    expect(bySeverity).toBe(everything.total);
    const critical = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 7, critical: true, pageSize: 50 }));
    for (const g of critical.items) expect(g.worst_pass_rate).toBeLessThanOrEqual(0.5);

    let trending = 0;
    for (const trend of ['declining', 'improving', 'stable', 'new'] as const) {
      const page = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 30, trend, pageSize: 50 }));
      for (const g of page.items) expect(g.browsers.map((b) => b.trend_direction)).toContain(trend);
      trending += page.total;
    }
    expect(trending).toBeGreaterThan(0);

    for (const branch of ['main', feature]) {
      const page = await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 0, branch }));
      if (branch === 'main') expect(page.total).toBeGreaterThan(0);
      await same((s) => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 7, branch, trend: 'stable', sort: 'last_failure', order: 'asc' }));
    }
  }, 120_000);

  it('flaky trends: periods, directions, paging, one test and one branch', async () => {
    for (const period of [7, 14]) {
      const list: TrendListPage = await same((s) => QUERIES.flakyTrends(s, { ...TRENDS, period }));
      expect(list.total).toBeGreaterThan(TRENDS.pageSize);
      expect(list.items).toHaveLength(TRENDS.pageSize);
      const page2 = await same((s) => QUERIES.flakyTrends(s, { ...TRENDS, period, page: 2 }));
      expect(page2.items.length).toBe(Math.min(TRENDS.pageSize, list.total - TRENDS.pageSize));
      let listed = 0;
      for (const direction of ['declining', 'improving', 'stable', 'new'] as const) {
        const one = await same((s) => QUERIES.flakyTrends(s, { ...TRENDS, period, direction, pageSize: 500 }));
        for (const r of one.items) expect(r.trend_direction).toBe(direction);
        listed += one.total;
      }
      expect(listed).toBe(list.total);
    }
    const first = (await QUERIES.flakyTrends(store, TRENDS)).items[0]!;
    const test = await same((s) => QUERIES.flakyTrends(s, { ...TRENDS, file: first.test_file, test: first.test_title }));
    expect(test.items.map((r) => [r.test_file, r.test_title])).toContainEqual([first.test_file, first.test_title]);
    for (const branch of ['main', feature]) {
      const list = await same((s) => QUERIES.flakyTrends(s, { ...TRENDS, branch }));
      if (branch === 'main') expect(list.total).toBeGreaterThan(0);
    }
  }, 60_000);

  it('answers of different branches asked at once each read their own branch (its days are per connection)', async () => {
    const asks = (s: AnyStore) => [
      () => QUERIES.dashboard(s, { days: 30, now: NOW, branch: 'main' }),
      () => QUERIES.dashboard(s, { days: 30, now: NOW, branch: feature }),
      () => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 7, branch: 'main' }),
      () => QUERIES.flakyTestsPage(s, { ...FLAKY, days: 7, branch: feature }),
      () => QUERIES.flakyTrends(s, { ...TRENDS, branch: 'main' }),
      () => QUERIES.flakyTrends(s, { ...TRENDS, branch: feature }),
    ];
    const oneByOne: unknown[] = [];
    for (const ask of asks(store)) {
      forgetTrendRows();
      oneByOne.push(await ask());
    }
    forgetTrendRows();
    const atOnce = await Promise.all(asks(store).map((ask) => ask()));
    expect(atOnce).toEqual(oneByOne);
    expect(oneByOne[0]).not.toEqual(oneByOne[1]);
    expect(oneByOne[2]).not.toEqual(oneByOne[3]);
  }, 60_000);

  it('a trend finds its troubled tests among those ever troubled: the figures of every pair\'s two windows, on every branch and on one', async () => {
    // scanTrend reads only those tests' rows (pair-totals.ts TROUBLED_TESTS).
    const today = Math.floor(NOW / 86_400_000);
    const troubled = (rows: PairTrendCounts[]) =>
      rows
        .map(trendFigures)
        .filter((f) => f !== null)
        .map((f) => ({ key: pairKey(f.row), ...f, row: undefined }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let found = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(null, 'main', feature), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 8 }), async (branch, period, back) => {
        const current = { from: today - back - period + 1, to: today - back };
        const previous = { from: current.from - period, to: current.from - 1 };
        const everyPair = trendCountsOf(await scanWindow(store, current, branch), await scanWindow(store, previous, branch));
        const expected = troubled(everyPair);
        found += expected.length;
        expect(troubled(await scanTrend(store, current, previous, branch))).toEqual(expected);
      }),
      { numRuns: engine === 'postgres' ? 15 : 40, seed: 31 },
    );
    expect(found).toBeGreaterThan(50);
  }, 60_000);

  it('flaky groups of a window and of all time', async () => {
    for (const days of [0, 7, 30]) {
      const groups = await same((s) => QUERIES.flakyGroups(s, { days, now: NOW }));
        expect(groups.length).toBeGreaterThan(0);
      expect(groups.every((g) => g.browsers.length > 0)).toBe(true);
    }
  });
});

// Real reports of public projects (../shared): their own dates, so all of their history.
const reports = publicReports();
describeEachEngine('dashboard and flaky reads over the public reports', (engine) => {
  let sqlite: Store;
  let store: AnyStore;
  let remove: () => Promise<void>;
  let cleanup: () => void;
  beforeAll(async () => {
    const temp = makeTempDir('flakeboard-public-');
    cleanup = temp.cleanup;
    sqlite = openStore(`${temp.dir}/public.db`);
    for (const file of reports) {
      try {
        ingestFile(sqlite, file, { fileName: file, approve: true, fallbackGit: () => ({ branch: null, commit: null }) });
      } catch {
        // A report the import refuses (the syntax-error sample) stores nothing.
      }
    }
    ({ store, remove } = await sameDataOn(engine, sqlite));
  }, 120_000);
  afterAll(async () => {
    await remove?.();
    await sqlite?.close();
    cleanup?.();
  });

  it.skipIf(reports.length === 0)('answers the same on both engines, with the flaky tests the reports hold', async () => {
    const now = (await sqlite.sql.value<number>('SELECT max(started_at) FROM runs'))!;
    const d = await QUERIES.dashboard(sqlite, { days: 0, now });
    expect(d.flakyCount).toBeGreaterThan(0);
    expect(await QUERIES.dashboard(store, { days: 0, now })).toEqual(d);
    const page = await QUERIES.flakyTestsPage(sqlite, { ...FLAKY, now, days: 0, pageSize: 50 });
    expect(page.total).toBe(d.flakyCount);
    expect(await QUERIES.flakyTestsPage(store, { ...FLAKY, now, days: 0, pageSize: 50 })).toEqual(page);
    expect(await QUERIES.flakyGroups(store, { days: 0, now })).toEqual(await QUERIES.flakyGroups(sqlite, { days: 0, now }));
  }, 60_000);
});

afterAll(async () => {
  if (!sqliteStore) return;
  const built = await sqliteStore;
  await built.store.close();
  built.cleanup();
});
