import { FIXED_AFTER_RUNS, finalPassRateFraction, isBroken, isCriticalFlaky, medianTimeToFix, type FlakeEpisode } from '../../core/analytics/formulas.js';
import type { TimeToFixSummary, BrokenTestSummary, BrowserComparison, DashboardResponse, FlakyTestSummary, PreviousPeriod, SlowTest, TrendCounts, TrendRecord } from '../../core/api/analytics.js';
import { recentRuns, storedRunSpan, windowRunCount, type DayRange } from '../store/read/analytics.js';
import type { AnyStore } from '../store/engine/types.js';
import { ownerFilterOf } from '../store/read/owners.js';
import { browserProjects, dataSignature, scanPeriod, scanPeriodSummary, scanWindow, summaryOfPairs, testNamesOf, type PeriodSummary, type PairTrendCounts, type PairWindow } from '../store/read/window-scan.js';
import { byRisk, flakyChanges, flakyFigures, pairKey, smallest, trendFigures, type PairFlaky, type PairTrend } from './pair-figures.js';
import { trendCountsOf, trendRows as keptTrendRows } from './trend-rows.js';
import { allFlakeEpisodes } from './flake-episodes.js';
import { isoDate, isoTime, lastDays, today } from './windows.js';

export const FLAKY_TREND_PERIOD = 7;
/** docs/screens.md#dashboard: the Most Critical table shows 5 rows. */
export const DASHBOARD_FLAKY_LIMIT = 5;

/**
 * The dashboard: totals over the window and the few rows its screen shows. Every per-test
 * figure comes from one scan of the daily rollup (window-scan.ts); names are read only for the
 * rows sent.
 */
export async function dashboard(
  store: AnyStore,
  days: number,
  now: number,
  limit = DASHBOARD_FLAKY_LIMIT,
  branch: string | null = null,
  owner: string | null = null,
): Promise<DashboardResponse> {
  return answer(store, days, now, limit, branch, owner);
}

async function answer(store: AnyStore, days: number, now: number, limit: number, branch: string | null, owner: string | null): Promise<DashboardResponse> {
  const window = lastDays(days, now);
  const to = today(now);
  const current = { from: to - FLAKY_TREND_PERIOD + 1, to };
  const previous = { from: to - 2 * FLAKY_TREND_PERIOD + 1, to: to - FLAKY_TREND_PERIOD };
  // The window before, for the period change (none for all history).
  const before = days > 0 ? { from: window.from - days, to: window.from - 1 } : null;
  // For 7 days the two windows are the trend's periods, and their sums are the trend counts: no
  // third pass over the rollup.
  const samePeriods = before !== null && window.from === current.from && before.from === previous.from && before.to === previous.to;
  // The window before needs every pair for those trend counts, or to keep one owner's tests;
  // otherwise its sums and its flaky tests (scanPeriodSummary).
  const beforePairs = samePeriods || owner !== null;
  // The data version the windows are read at: trend counts made from them are kept for it alone.
  const signature = await dataSignature(store);
  // The time to fix's episodes, asked for first: on SQLite a cold read of them runs in a thread
  // of its own (episode-thread.ts) while the windows are scanned here. Awaited below; until then
  // a failure is held, not reported as unhandled.
  const episodes = allFlakeEpisodes(store, signature, branch);
  episodes.catch(() => undefined);
  // One owner's tests (or the unowned ones): every per-test figure, list and count is of them.
  // The statements that do not wait for another's answer are sent together: on PostgreSQL each
  // is a round trip whose wait for the database's process grows with the load, and one after
  // the other a cold dashboard was fourteen of them (docs/benchmarks.md#outages).
  const [scope, windowRows, beforeRuns, beforeScan] = await Promise.all([
    owner === null ? null : ownerFilterOf(store, owner),
    scanWindow(store, window, branch),
    // The window before, read when it holds runs.
    before ? windowRunCount(store, before, branch) : 0,
    before ? (beforePairs ? scanPeriod(store, before, branch) : scanPeriodSummary(store, before, branch)) : null,
  ]);
  const inScope = <T extends { test_id: number }>(list: T[]): T[] => (scope === null ? list : list.filter((r) => scope.keep(r.test_id)));
  const rows = inScope(windowRows);
  const beforeRows = beforeRuns > 0 && Array.isArray(beforeScan) ? inScope(beforeScan) : null;
  const beforeSummary = beforeRuns === 0 || beforeScan === null ? null : beforeRows ? summaryOfPairs(beforeRows) : (beforeScan as PeriodSummary);
  // Only with both read: a window before without runs may still hold a late result of a run that started earlier.
  // Kept trend counts are every test's: not made from one owner's rows.
  const known = samePeriods && beforeRows && scope === null ? { signature, rows: trendCountsOf(rows, beforeRows) } : { signature };

  const flaky: PairFlaky[] = [];
  const broken: PairWindow[] = [];
  for (const row of rows) {
    if (isBroken(row.runs - row.skipped, row.failed, row.passed_on_retry)) broken.push(row);
    const figures = flakyFigures(row);
    if (figures) flaky.push(figures);
  }
  const critical = flaky.filter((f) => isCriticalFlaky(f.pass_rate));
  const mostCritical = smallest(flaky, limit, byRisk);
  const worstCritical = smallest(critical, limit, (a, b) => a.pass_rate - b.pass_rate || b.row.failed - a.row.failed || byRisk(a, b));
  const listed = new Map([...mostCritical, ...worstCritical].map((f) => [f.row, f]));
  const worstBroken = smallest(broken, limit, byFailures);
  const slowRows = slowestRows(rows, 10);
  // Names only for the rows sent; everything else the answer reads, sent together.
  const [trendList, names, runCount, recent, projects, stored, timeToFix] = await Promise.all([
    keptTrendRows(store, current, previous, branch, known),
    testNamesOf(store, [...listed.keys(), ...worstBroken, ...slowRows].map((r) => r.test_id)),
    windowRunCount(store, window, branch),
    recentRuns(store, window, 10, branch),
    browserProjects(store),
    storedRuns(store, branch),
    timeToFixSummary(episodes, days > 0 ? window : null, to, scope),
  ]);
  const trendRows = new Map<string, PairTrendCounts>(trendList.map((r) => [pairKey(r), r]));
  const trendOf = (row: PairWindow) => {
    const counts = trendRows.get(pairKey(row));
    return counts ? trendFigures(counts) : null;
  };
  const trendCounts: Record<keyof TrendCounts, Set<number>> = { declining: new Set(), improving: new Set(), stable: new Set(), new: new Set() };
  for (const f of flaky) {
    const trend = trendOf(f.row);
    if (trend) trendCounts[trend.direction].add(f.row.test_id);
  }
  const listedTrends = [...listed.keys()].map(trendOf).filter((t): t is PairTrend => t !== null);
  const name = (id: number) => names.get(id)!;
  const summary = (f: PairFlaky): FlakyTestSummary => ({
    test_title: name(f.row.test_id).title,
    test_file: name(f.row.test_id).file,
    browser: f.row.browser,
    pass_rate: f.pass_rate,
    final_pass_rate: finalPassRateFraction(f.row.scored_passed, f.row.passed_on_retry, f.row.scored_passed + f.row.scored_failed),
    passed_on_retry: f.row.passed_on_retry,
    failed_runs: f.row.failed,
    total_runs: f.row.runs,
    flaky_score: f.flaky_score,
  });

  const brokenSummary = (r: PairWindow): BrokenTestSummary => ({
    test_title: name(r.test_id).title,
    test_file: name(r.test_id).file,
    browser: r.browser,
    failed_runs: r.failed,
    skipped_runs: r.skipped,
  });

  const trends = listedTrends.map((t) => trendRecord(t, name(t.row.test_id), current));

  const totals = windowTotals(rows);
  return {
    days,
    summary: [{ total_runs: runCount, ...totals.summary }],
    browserComparison: totals.browsers,
    flakyTests: mostCritical.map(summary),
    recentRuns: recent.map(({ started_at, ...run }) => ({ ...run, execution_time: isoTime(started_at) })),
    slowTests: slowest(slowRows, name, projects),
    flakyTrends: trends.sort((a, b) => a.trend_percentage - b.trend_percentage || a.test_title.localeCompare(b.test_title)),
    flakyCount: distinctTests(flaky),
    criticalFlakyCount: distinctTests(critical),
    criticalFlakyTests: worstCritical.map(summary),
    brokenCount: new Set(broken.map((r) => r.test_id)).size,
    brokenTests: worstBroken.map(brokenSummary),
    flakyTrendCounts: { declining: trendCounts.declining.size, improving: trendCounts.improving.size, stable: trendCounts.stable.size, new: trendCounts.new.size },
    previous: before && beforeSummary ? previousPeriod(before, beforeRuns, beforeSummary) : null,
    stored,
    timeToFix,
  };
}

/** The median time to fix over the episodes fixed in the window (all history: `window` null), and the open ones now (the branch's episodes when one is chosen). */
async function timeToFixSummary(
  episodesOf: Promise<Map<number, FlakeEpisode[]>>,
  window: DayRange | null,
  to: number,
  scope: { keep: (id: number) => boolean } | null,
): Promise<TimeToFixSummary> {
  const all = [...(await episodesOf)].filter(([id]) => scope === null || scope.keep(id));
  const episodes = all.flatMap(([, list]) => list);
  const from = window?.from ?? Number.MIN_SAFE_INTEGER;
  return {
    median_days: medianTimeToFix(episodes, from, to),
    fixed: episodes.filter((e) => e.fixedDay !== null && e.fixedDay >= from && e.fixedDay <= to).length,
    open: all.filter(([, list]) => list.at(-1)?.fixedDay === null).length,
    fixed_after_runs: FIXED_AFTER_RUNS,
  };
}

/** The worst broken first: the most failed runs, then by test and browser (key order). */
const byFailures = (a: PairWindow, b: PairWindow): number =>
  b.failed - a.failed || a.test_id - b.test_id || (a.browser < b.browser ? -1 : a.browser > b.browser ? 1 : 0);

/** A flaky test counts once whatever its browsers, as the Flaky Tests screen groups them. */
const distinctTests = (pairs: readonly PairFlaky[]): number => new Set(pairs.map((f) => f.row.test_id)).size;

/** The window before, of the same length, from the same rollup and by the same rules (read only when it holds runs). */
function previousPeriod(range: DayRange, runs: number, summary: PeriodSummary): PreviousPeriod {
  const flaky = new Set<number>();
  for (const r of summary.candidates) if (flakyChanges(r) !== null) flaky.add(r.test_id);
  return {
    from: isoDate(range.from),
    to: isoDate(range.to),
    total_runs: runs,
    total_tests: summary.runs,
    total_passed: summary.passed,
    avg_duration: summary.timed_runs > 0 ? summary.duration_sum / summary.timed_runs : 0,
    // Counted per test, as the window's flaky count.
    flaky_count: flaky.size,
  };
}

async function storedRuns(store: AnyStore, branch: string | null) {
  const span = await storedRunSpan(store, branch);
  return { runs: span.runs, newest: span.newest === null ? null : isoTime(span.newest), oldest: span.oldest === null ? null : isoTime(span.oldest) };
}

export function trendRecord(t: PairTrend, name: { title: string; file: string }, current: { from: number; to: number }): TrendRecord {
  return {
    test_file: name.file,
    test_title: name.title,
    browser: t.row.browser,
    trend_direction: t.direction,
    trend_percentage: t.percentage,
    pass_rate: t.pass_rate,
    previous_pass_rate: t.previous_pass_rate,
    period_start: isoDate(current.from),
    period_end: isoDate(current.to),
  };
}

/** The summary and the per-browser figures: sums of the pairs' window sums. */
function windowTotals(rows: readonly PairWindow[]) {
  const summary = { total_tests: 0, total_passed: 0, total_failed: 0, total_skipped: 0, avg_duration: 0, total_passed_on_retry: 0 };
  let durationSum = 0;
  let timed = 0;
  const browsers = new Map<string, BrowserComparison & { duration_sum: number; timed_runs: number }>();
  for (const r of rows) {
    if (r.runs === 0) continue;
    summary.total_tests += r.runs;
    summary.total_passed += r.passed;
    summary.total_failed += r.failed;
    summary.total_skipped += r.skipped;
    summary.total_passed_on_retry += r.passed_on_retry;
    durationSum += r.duration_sum;
    timed += r.timed_runs;
    let b = browsers.get(r.browser);
    if (!b) browsers.set(r.browser, (b = { browser: r.browser, passed: 0, failed: 0, skipped: 0, total: 0, avg_duration: 0, duration_sum: 0, timed_runs: 0 }));
    b.passed += r.passed;
    b.failed += r.failed;
    b.skipped += r.skipped;
    b.total += r.runs;
    b.duration_sum += r.duration_sum;
    b.timed_runs += r.timed_runs;
  }
  summary.avg_duration = timed > 0 ? durationSum / timed : 0;
  const list = [...browsers.values()]
    .sort((a, b) => (a.browser < b.browser ? -1 : a.browser > b.browser ? 1 : 0))
    .map(({ duration_sum, timed_runs, ...b }) => ({ ...b, avg_duration: timed_runs > 0 ? duration_sum / timed_runs : 0 }));
  return { summary, browsers: list };
}

/** The slowest tests on average over the window (the report's quick stats); ties in key order, as the scan lists them. */
function slowestRows(rows: readonly PairWindow[], limit: number): PairWindow[] {
  const timed = rows.filter((r) => r.timed_runs > 0);
  return smallest(timed, limit, (a, b) => b.duration_sum / b.timed_runs - a.duration_sum / a.timed_runs);
}

function slowest(top: readonly PairWindow[], nameOf: (id: number) => { title: string; file: string; title_path: string }, projects: Map<string, string>): SlowTest[] {
  return top.map((r) => {
    const name = nameOf(r.test_id);
    return {
      test_title: name.title,
      test_full_title: (JSON.parse(name.title_path) as string[]).join(' › '),
      test_file: name.file,
      browser: r.browser,
      project: projects.get(r.browser) ?? r.browser,
      avg_duration: r.duration_sum / r.timed_runs,
      max_duration: r.duration_max,
      total_runs: r.runs,
    };
  });
}
