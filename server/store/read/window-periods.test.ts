import fc from 'fast-check';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { generateHistory } from '../../demo/history.js';
import { ingestValue } from '../../ingest.js';
import { DAY_MS } from '../engine/rollup-shape.js';
import type { AnyStore } from '../engine/types.js';
import { browserTotals, slowestTests, slowTestsWithCounts, windowSummary } from './analytics.js';
import { onBranch } from './branch-days.js';
import { flakyGroupPage, type FlakyPageQuery } from './flaky-page.js';
import { FLAKY_PAIR, FLAKY_TESTS, totalsSql } from './pair-totals.js';
import { outcomeChanges, scanPeriod, scanPeriodSummary, scanTrend, scanWindow, summaryOfPairs, type PeriodSummary } from './window-scan.js';
import { splitWindow } from './window-split.js';

/**
 * A window holding whole months or weeks reads them from month_stats and week_stats and its edge
 * days from daily_test_stats (on one branch, from that branch's tables); its answer is the
 * day-only reading's, every figure: the changes as the callers count them (changes plus those
 * between days in the outcomes string, pair-figures.ts).
 */
const END = Date.parse('2026-11-20T18:00:00Z');
const LAST = Math.floor(END / DAY_MS);
const FIRST = LAST - 119;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/** Rows as callers read them: numbers (PostgreSQL's sums come as text), the changes counted, in key order. */
function asCounted(rows: readonly object[]): Array<Record<string, unknown>> {
  return rows
    .map((row) => {
      const copy: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(row)) copy[key] = key === 'browser' || key === 'outcomes' ? value : Number(value);
      if ('outcomes' in copy) {
        copy.changes = (copy.changes as number) + outcomeChanges(copy.outcomes as string | null);
        delete copy.outcomes;
      }
      return copy;
    })
    .sort((a, b) => (a.test_id as number) - (b.test_id as number) || String(a.browser).localeCompare(String(b.browser)));
}

it('splits a window into its whole months, the whole weeks beside them and the days around those', () => {
  // Tuesday 15 September to Friday 20 November 2026: October; the week of Monday 21 September
  // before it, those of 2 and 9 November after; the days between.
  expect(splitWindow([{ from: day('2026-09-15'), to: day('2026-11-20') }])).toEqual({
    month: [[day('2026-10-01'), day('2026-10-01')]],
    week: [
      [day('2026-09-21'), day('2026-09-21')],
      [day('2026-11-02'), day('2026-11-09')],
    ],
    day: [
      [day('2026-09-15'), day('2026-09-20')],
      [day('2026-09-28'), day('2026-09-30')],
      [day('2026-11-01'), day('2026-11-01')],
      [day('2026-11-16'), day('2026-11-20')],
    ],
  });
  // Thirty days from a Thursday: no whole month, three whole weeks.
  expect(splitWindow([{ from: day('2026-10-22'), to: day('2026-11-20') }])).toEqual({
    month: [],
    week: [[day('2026-10-26'), day('2026-11-09')]],
    day: [
      [day('2026-10-22'), day('2026-10-25')],
      [day('2026-11-16'), day('2026-11-20')],
    ],
  });
  // Whole months at both ends, a leap February among them; no weeks or days left over.
  expect(splitWindow([{ from: day('2028-01-01'), to: day('2028-03-31') }])).toEqual({ month: [[day('2028-01-01'), day('2028-03-01')]], week: [], day: [] });
  // Tuesday to Sunday: no whole week, days only.
  expect(splitWindow([{ from: day('2026-11-17'), to: day('2026-11-22') }])).toBeNull();
  // A trend's two periods: the days where they meet are one range.
  expect(splitWindow([{ from: day('2026-07-20'), to: day('2026-09-10') }, { from: day('2026-09-11'), to: day('2026-11-20') }])).toEqual({
    month: [
      [day('2026-08-01'), day('2026-08-01')],
      [day('2026-10-01'), day('2026-10-01')],
    ],
    week: [
      [day('2026-07-20'), day('2026-07-20')],
      [day('2026-09-14'), day('2026-09-21')],
      [day('2026-11-02'), day('2026-11-09')],
    ],
    day: [
      [day('2026-07-27'), day('2026-07-31')],
      [day('2026-09-01'), day('2026-09-13')],
      [day('2026-09-28'), day('2026-09-30')],
      [day('2026-11-01'), day('2026-11-01')],
      [day('2026-11-16'), day('2026-11-20')],
    ],
  });
});

describeEachEngine('a window read by months and weeks', (engine) => {
  let target: TestTarget;
  let store: AnyStore;

  beforeAll(async () => {
    target = await createTestTarget(engine);
    store = await target.open();
    // 120 days (late July to November), mostly in time order, a few late; an outage run.
    const history = [...generateHistory({ seed: 19, runs: 60, days: 120, tests: 10, browsers: ['chromium', 'firefox'], outageRuns: 1, endDate: END })];
    const late = history.filter((_, i) => i % 9 === 4);
    for (const run of [...history.filter((r) => !late.includes(r)), ...late]) await ingestValue(store, run.report, { fileName: run.fileName, approve: true });
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  /** The texts a scan ran, to see which reading it took. */
  async function textsOf<T>(scan: () => Promise<T>): Promise<{ rows: T; texts: string[] }> {
    const all = vi.spyOn(store.sql, 'all');
    const get = vi.spyOn(store.sql, 'get');
    try {
      const rows = await scan();
      return { rows, texts: [...all.mock.calls, ...get.mock.calls].map(([text]) => text) };
    } finally {
      all.mockRestore();
      get.mockRestore();
    }
  }

  it('answers a 30-day window by weeks as by days, and reads week_stats for it', async () => {
    const range = { from: LAST - 29, to: LAST };
    const { rows, texts } = await textsOf(() => scanWindow(store, range));
    expect(texts.some((t) => t.includes('FROM week_stats'))).toBe(true);
    const days = await scanWindow(store, range, null, { wholePeriods: false });
    expect(days.length).toBeGreaterThan(0);
    expect(asCounted(rows)).toEqual(asCounted(days));
    // Some pair changed between days within the window: the weeks' own changes carry some.
    expect(days.some((r) => outcomeChanges(r.outcomes) > 0)).toBe(true);
  });

  it('answers a 90-day window by months as by days, and reads month_stats for it', async () => {
    const range = { from: LAST - 89, to: LAST };
    const { rows, texts } = await textsOf(() => scanWindow(store, range));
    expect(texts.some((t) => t.includes('FROM month_stats'))).toBe(true);
    const days = await scanWindow(store, range, null, { wholePeriods: false });
    expect(days.length).toBeGreaterThan(0);
    expect(asCounted(rows)).toEqual(asCounted(days));
    // Some pair changed between days within a month: the month's own changes carry them.
    expect(days.some((r) => outcomeChanges(r.outcomes) > 0)).toBe(true);
  });

  it('answers any window, the period before it and its trend by months and weeks as by days', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: FIRST - 5, max: LAST }), fc.integer({ min: 1, max: 110 }), async (from, length) => {
        const range = { from, to: from + length - 1 };
        expect(asCounted(await scanWindow(store, range))).toEqual(asCounted(await scanWindow(store, range, null, { wholePeriods: false })));
        expect(asCounted(await scanPeriod(store, range))).toEqual(asCounted(await scanPeriod(store, range, null, { wholePeriods: false })));
        const previous = { from: range.from - length, to: range.from - 1 };
        expect(asCounted(await scanTrend(store, range, previous))).toEqual(asCounted(await scanTrend(store, range, previous, null, { wholePeriods: false })));
      }),
      { numRuns: engine === 'postgres' ? 25 : 60, seed: 19 },
    );
  }, 120_000);

  it('answers the summary, the browsers and the slow tests of any window by months and weeks as by days', async () => {
    // Numbers as numbers: PostgreSQL's sums come as text.
    const plain = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(plain) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    const days = { wholePeriods: false };
    const page = { limit: 1000, offset: 0 };
    let periodsRead = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: FIRST - 5, max: LAST }), fc.integer({ min: 1, max: 110 }), async (from, length) => {
        const range = { from, to: from + length - 1 };
        const { rows: summary, texts } = await textsOf(() => windowSummary(store, range));
        if (texts.some((t) => t.includes('FROM week_stats'))) periodsRead++;
        expect(plain(summary)).toEqual(plain(await windowSummary(store, range, days)));
        expect(plain(await browserTotals(store, range))).toEqual(plain(await browserTotals(store, range, days)));
        expect(plain(await slowestTests(store, range, page))).toEqual(plain(await slowestTests(store, range, page, days)));
        const counted = await slowTestsWithCounts(store, range, page);
        expect(plain(counted)).toEqual(plain(await slowTestsWithCounts(store, range, page, days)));
        // The page with its counts is the page alone, and past the last test the counts stay.
        expect(plain(counted.rows)).toEqual(plain(await slowestTests(store, range, page)));
        expect(plain((await slowTestsWithCounts(store, range, { limit: 10, offset: counted.rows.length })).counts)).toEqual(plain(counted.counts));
      }),
      { numRuns: engine === 'postgres' ? 25 : 60, seed: 20 },
    );
    // Most windows of a week or longer hold a whole week: the property compared the two readings, not one twice.
    expect(periodsRead).toBeGreaterThan(5);
    // And a window with figures: the comparison is of something.
    expect(Number((await windowSummary(store, { from: LAST - 29, to: LAST })).total_tests)).toBeGreaterThan(0);
  }, 120_000);

  it('gives the flaky list of a window by months and weeks as by days', async () => {
    const page = (range: { from: number; to: number }, wholePeriods: boolean): FlakyPageQuery => ({
      range, search: null, browser: null, severity: null, critical: false, trendKeys: null, sort: 'score', order: 'desc', limit: 50, offset: 0, wholePeriods,
    });
    for (const range of [{ from: LAST - 89, to: LAST }, { from: LAST - 29, to: LAST }, { from: FIRST + 3, to: LAST - 10 }, { from: day('2026-08-01'), to: day('2026-10-31') }]) {
      const byMonths = await flakyGroupPage(store, page(range, true));
      const byDays = await flakyGroupPage(store, page(range, false));
      expect(byDays.rows.length).toBeGreaterThan(0);
      expect(byMonths).toEqual(byDays);
    }
  });

  /** Every stored branch, the one with most runs first. */
  const branchesOf = async () =>
    (await store.sql.all<{ git_branch: string }>('SELECT git_branch FROM runs WHERE git_branch IS NOT NULL GROUP BY git_branch ORDER BY count(*) DESC, git_branch')).map(
      (r) => r.git_branch,
    );

  it('reads a branch window from the branch tables, never every branch\'s', async () => {
    const [branch] = await branchesOf();
    for (const [range, table] of [
      [{ from: LAST - 89, to: LAST }, 'FROM branch_month_stats'],
      [{ from: LAST - 29, to: LAST }, 'FROM branch_week_stats'],
    ] as const) {
      const { rows, texts } = await textsOf(() => scanWindow(store, range, branch!));
      expect(texts.some((t) => t.includes(table))).toBe(true);
      expect(texts.some((t) => /FROM (month_stats|week_stats|daily_test_stats)\b/.test(t))).toBe(false);
      expect(texts.some((t) => t.includes('branch_day_stats'))).toBe(true);
      expect(rows.length).toBeGreaterThan(0);
    }
  });

  it('answers a branch\'s window, the period before it and its trend by its months and weeks as by its days', async () => {
    const branches = await branchesOf();
    expect(branches.length).toBeGreaterThan(1);
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...branches), fc.integer({ min: FIRST - 5, max: LAST }), fc.integer({ min: 1, max: 110 }), async (branch, from, length) => {
        const range = { from, to: from + length - 1 };
        const days = { wholePeriods: false };
        const window = await scanWindow(store, range, branch, days);
        compared += window.length;
        expect(asCounted(await scanWindow(store, range, branch))).toEqual(asCounted(window));
        expect(asCounted(await scanPeriod(store, range, branch))).toEqual(asCounted(await scanPeriod(store, range, branch, days)));
        const previous = { from: range.from - length, to: range.from - 1 };
        expect(asCounted(await scanTrend(store, range, previous, branch))).toEqual(asCounted(await scanTrend(store, range, previous, branch, days)));
      }),
      { numRuns: engine === 'postgres' ? 25 : 60, seed: 21 },
    );
    // The windows held some branch's figures: the property compared something.
    expect(compared).toBeGreaterThan(100);
  }, 120_000);

  it('gives a branch\'s flaky list of a window by its months and weeks as by its days', async () => {
    const page = (branch: string, range: { from: number; to: number }, wholePeriods: boolean): FlakyPageQuery => ({
      range, branch, search: null, browser: null, severity: null, critical: false, trendKeys: null, sort: 'score', order: 'desc', limit: 50, offset: 0, wholePeriods,
    });
    let listed = 0;
    for (const branch of await branchesOf()) {
      for (const range of [{ from: LAST - 89, to: LAST }, { from: LAST - 29, to: LAST }, { from: FIRST + 3, to: LAST - 10 }, { from: day('2026-08-01'), to: day('2026-10-31') }]) {
        const byDays = await flakyGroupPage(store, page(branch, range, false));
        listed += byDays.rows.length;
        expect(await flakyGroupPage(store, page(branch, range, true))).toEqual(byDays);
      }
    }
    expect(listed).toBeGreaterThan(0);
  });

  it('gives a branch\'s all-time flaky list from its all-time totals as from its days, with its own latest failures', async () => {
    const page = (branch: string, range: { from: number; to: number } | null, sort: FlakyPageQuery['sort']): FlakyPageQuery => ({
      range, branch, search: null, browser: null, severity: null, critical: false, trendKeys: null, sort, order: 'desc', limit: 50, offset: 0, wholePeriods: false,
    });
    let listed = 0;
    for (const branch of await branchesOf()) {
      for (const sort of ['score', 'last_failure'] as const) {
        const byDays = await flakyGroupPage(store, page(branch, { from: FIRST - 1, to: LAST + 1 }, sort));
        listed += byDays.rows.length;
        const { rows: allTime, texts } = await textsOf(() => flakyGroupPage(store, page(branch, null, sort)));
        expect(texts.some((t) => t.includes('FROM branch_test_totals'))).toBe(true);
        expect(allTime).toEqual(byDays);
      }
    }
    expect(listed).toBeGreaterThan(0);
  });

  it('finds a window\'s flaky tests among those flaky over all history, on every branch and on one', async () => {
    // The flaky list sums only those tests (pair-totals.ts FLAKY_TESTS): the same list as summing every test.
    const flakyOf = (candidates: boolean, branch: boolean) => {
      const totals = totalsSql(store.dialect, { flakyCandidates: candidates });
      return `SELECT * FROM (${branch ? onBranch(totals, store.dialect) : totals}) pairs WHERE ${FLAKY_PAIR}`;
    };
    // Some tests were never flaky: the filter leaves something out.
    const all = await store.sql.get<{ n: number }>('SELECT count(DISTINCT test_id) AS n FROM test_totals');
    const candidates = await store.sql.get<{ n: number }>(`SELECT count(DISTINCT test_id) AS n FROM (${FLAKY_TESTS}) f`);
    expect(Number(candidates!.n)).toBeGreaterThan(0);
    expect(Number(candidates!.n)).toBeLessThan(Number(all!.n));
    const branches = [null, ...(await branchesOf())];
    let listed = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...branches), fc.integer({ min: FIRST - 5, max: LAST }), fc.integer({ min: 1, max: 110 }), async (branch, from, length) => {
        const params = { from, to: from + length - 1, ...(branch === null ? {} : { branch }) };
        const everyTest = await store.sql.all<object>(flakyOf(false, branch !== null), params);
        listed += everyTest.length;
        expect(asCounted(await store.sql.all<object>(flakyOf(true, branch !== null), params))).toEqual(asCounted(everyTest));
      }),
      { numRuns: engine === 'postgres' ? 25 : 60, seed: 22 },
    );
    expect(listed).toBeGreaterThan(20);
  }, 120_000);

  it('sums the period before a window and finds its flaky tests as reading every pair does, on every branch and on one', async () => {
    // The dashboard's "vs previous period" (scanPeriodSummary): sums without grouping, and only the
    // pairs of tests flaky over all history grouped.
    const flakyTests = (summary: PeriodSummary) =>
      new Set(
        summary.candidates
          .map((row) => asCounted([row])[0]!)
          .filter((r) => (r.scored_passed as number) + (r.scored_failed as number) > 0 && ((r.passed_on_retry as number) > 0 || (r.changes as number) >= 2))
          .map((r) => r.test_id as number),
      );
    const { texts } = await textsOf(() => scanPeriodSummary(store, { from: LAST - 59, to: LAST - 30 }));
    expect(texts.some((t) => t.includes('candidates'))).toBe(true);
    const branches = [null, ...(await branchesOf())];
    let flaky = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...branches), fc.integer({ min: FIRST - 5, max: LAST }), fc.integer({ min: 1, max: 110 }), async (branch, from, length) => {
        const range = { from, to: from + length - 1 };
        const light = await scanPeriodSummary(store, range, branch);
        const every = summaryOfPairs(await scanPeriod(store, range, branch, { wholePeriods: false }));
        expect([light.runs, light.passed, light.timed_runs].map(Number)).toEqual([every.runs, every.passed, every.timed_runs].map(Number));
        expect(Number(light.duration_sum)).toBeCloseTo(Number(every.duration_sum), 3);
        expect([...flakyTests(light)].sort((a, b) => a - b)).toEqual([...flakyTests(every)].sort((a, b) => a - b));
        flaky += flakyTests(every).size;
      }),
      { numRuns: engine === 'postgres' ? 25 : 60, seed: 23 },
    );
    expect(flaky).toBeGreaterThan(20);
  }, 120_000);
});
