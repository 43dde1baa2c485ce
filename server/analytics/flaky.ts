import { finalPassRateFraction, flakyScore, passRateFraction, riskScore, trendDirection } from '../../core/analytics/formulas.js';
import type { FlakyTestGroup, FlakyTestSummary, TrendRecord } from '../../core/api/analytics.js';
import type { DayRange, TestBrowserTotals } from '../store/read/analytics.js';
import type { AnyStore } from '../store/engine/types.js';
import { pairTotals } from '../store/read/pair-totals.js';
import { isoDate } from './windows.js';

/**
 * docs/screens.md#flaky: flaky is a test on a browser that passed only on a retry, or whose
 * outcome changed back and forth (at least two pass/fail changes among its attempts). A test
 * that broke once and stays broken has one change: it is broken, not flaky. Outage runs are
 * left out (the rollup's scored figures).
 */
export async function flakyTests(store: AnyStore, range: DayRange): Promise<FlakyTestSummary[]> {
  return (await pairTotals(store, range, true))
    .map((t) => ({
      test_title: t.test_title,
      test_file: t.test_file,
      browser: t.browser,
      pass_rate: scoredPassRate(t),
      final_pass_rate: finalPassRateFraction(t.scored_passed, t.passed_on_retry, t.scored_passed + t.scored_failed),
      passed_on_retry: t.passed_on_retry,
      failed_runs: t.failed,
      total_runs: t.runs,
      flaky_score: flakyScore(t.changes, t.attempts),
    }))
    .sort(byRisk);
}

/** The most critical first: the risk score (docs/screens.md#risk-score), then the lower pass rate. */
function byRisk(a: FlakyTestSummary, b: FlakyTestSummary): number {
  return riskScore(b.pass_rate, b.total_runs) - riskScore(a.pass_rate, a.total_runs) || a.pass_rate - b.pass_rate || a.test_title.localeCompare(b.test_title);
}

function scoredPassRate(t: Pick<TestBrowserTotals, 'scored_passed' | 'scored_failed'>): number {
  return passRateFraction(t.scored_passed, t.scored_passed + t.scored_failed, 0);
}

/** Flaky tests grouped by test (title and file), one entry per flaky browser. */
export async function flakyGroups(store: AnyStore, range: DayRange): Promise<FlakyTestGroup[]> {
  const groups = new Map<number, FlakyTestGroup>();
  for (const t of await pairTotals(store, range, true)) {
    // One group per test identity: two describe blocks may hold tests of the same title.
    const key = t.test_id;
    let group = groups.get(key);
    if (!group) {
      group = { test_title: t.test_title, test_file: t.test_file, browsers: [], worst_pass_rate: 1, total_runs_all_browsers: 0, total_failed_all_browsers: 0, highest_flaky_score: 0 };
      groups.set(key, group);
    }
    const entry = {
      browser: t.browser,
      pass_rate: scoredPassRate(t),
      final_pass_rate: finalPassRateFraction(t.scored_passed, t.passed_on_retry, t.scored_passed + t.scored_failed),
      total_runs: t.runs,
      failed_runs: t.failed,
      skipped_runs: t.skipped,
      flaky_score: flakyScore(t.changes, t.attempts),
      attempts: t.attempts,
      changes: t.changes,
      passed_on_retry: t.passed_on_retry,
    };
    group.browsers.push(entry);
    group.worst_pass_rate = Math.min(group.worst_pass_rate, entry.pass_rate);
    group.total_runs_all_browsers += entry.total_runs;
    group.total_failed_all_browsers += entry.failed_runs;
    group.highest_flaky_score = Math.max(group.highest_flaky_score, entry.flaky_score);
  }
  return [...groups.values()].sort((a, b) => a.worst_pass_rate - b.worst_pass_rate || b.highest_flaky_score - a.highest_flaky_score || a.test_title.localeCompare(b.test_title));
}

/**
 * Trend records: the last `period` days against the `period` days before, for every test on a
 * browser that failed or passed on a retry in either period (steady passes have no trend worth
 * showing). New when it did not run in the previous period.
 */
export async function flakyTrends(store: AnyStore, period: number, toDay: number): Promise<TrendRecord[]> {
  const { current, previous } = trendWindows(period, toDay);
  const before = new Map((await pairTotals(store, previous, false)).map((t) => [`${t.test_id}\u0000${t.browser}`, t]));
  const records: TrendRecord[] = [];
  for (const now of await pairTotals(store, current, false)) {
    const record = trendRecord(now, before.get(`${now.test_id}\u0000${now.browser}`), current);
    if (record) records.push(record);
  }
  return records.sort((a, b) => a.trend_percentage - b.trend_percentage || a.test_title.localeCompare(b.test_title));
}

/** What a trend is computed from: a test on a browser over one period. */
export type TrendTotals = Pick<TestBrowserTotals, 'test_file' | 'test_title' | 'browser' | 'scored_passed' | 'scored_failed' | 'passed_on_retry'>;

/** One test on one browser's trend record, or null when it has none worth showing (see flakyTrends). */
export function trendRecord(now: TrendTotals, then: TrendTotals | undefined, current: DayRange): TrendRecord | null {
  const troubled = (t: TrendTotals | undefined) => t !== undefined && (t.scored_failed > 0 || t.passed_on_retry > 0);
  if (!troubled(now) && !troubled(then)) return null;
  if (now.scored_passed + now.scored_failed === 0) return null;
  const ranBefore = then !== undefined && then.scored_passed + then.scored_failed > 0;
  const passRate = scoredPassRate(now);
  const previousPassRate = ranBefore ? scoredPassRate(then) : null;
  const trend = trendDirection(passRate, previousPassRate);
  return {
    test_file: now.test_file,
    test_title: now.test_title,
    browser: now.browser,
    trend_direction: trend.direction,
    trend_percentage: trend.percentage,
    pass_rate: passRate,
    previous_pass_rate: previousPassRate,
    period_start: isoDate(current.from),
    period_end: isoDate(current.to),
  };
}

/** The windows flakyTrends compares: the last `period` days and the `period` days before. */
export function trendWindows(period: number, toDay: number): { current: DayRange; previous: DayRange } {
  return { current: { from: toDay - period + 1, to: toDay }, previous: { from: toDay - 2 * period + 1, to: toDay - period } };
}
