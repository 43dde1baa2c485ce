import { flakyScore, passRateFraction, riskScore, trendDirection, type TrendDirection } from '../../core/analytics/formulas.js';
import { outcomeChanges, type PairTrendCounts, type PairWindow } from '../store/read/window-scan.js';

/**
 * The figures of one test on one browser from its window scan, by the same rules as flaky.ts
 * (flakyTests, flakyTrends): flaky when it passed only on a retry or changed between pass and
 * fail at least twice, outage runs left out; a trend when it failed or passed on a retry in
 * either period and ran in the current one.
 */
export interface PairFlaky {
  row: PairWindow;
  pass_rate: number;
  flaky_score: number;
  risk: number;
}

export interface PairTrend {
  row: PairTrendCounts;
  direction: TrendDirection;
  percentage: number;
  pass_rate: number;
  previous_pass_rate: number | null;
}

export function flakyFigures(row: PairWindow): PairFlaky | null {
  const changes = flakyChanges(row);
  if (changes === null) return null;
  const passRate = passRateFraction(row.scored_passed, row.scored_passed + row.scored_failed, 0);
  return { row, pass_rate: passRate, flaky_score: flakyScore(changes, row.attempts), risk: riskScore(passRate, row.runs) };
}

/** The pass/fail changes of a flaky pair's window (within and between its days); null when it was not flaky. */
export function flakyChanges(row: Pick<PairWindow, 'scored_passed' | 'scored_failed' | 'passed_on_retry' | 'changes' | 'outcomes'>): number | null {
  if (row.scored_passed + row.scored_failed === 0) return null;
  const changes = row.changes + outcomeChanges(row.outcomes);
  return row.passed_on_retry === 0 && changes < 2 ? null : changes;
}

export function trendFigures(row: PairTrendCounts): PairTrend | null {
  const troubledNow = row.cur_failed > 0 || row.cur_retry > 0;
  const troubledBefore = row.prev_failed > 0 || row.prev_retry > 0;
  if (!troubledNow && !troubledBefore) return null;
  if (row.cur_passed + row.cur_failed === 0) return null;
  const passRate = passRateFraction(row.cur_passed, row.cur_passed + row.cur_failed, 0);
  const previous = row.prev_passed + row.prev_failed > 0 ? passRateFraction(row.prev_passed, row.prev_passed + row.prev_failed, 0) : null;
  const trend = trendDirection(passRate, previous);
  return { row, direction: trend.direction, percentage: trend.percentage, pass_rate: passRate, previous_pass_rate: previous };
}

export const pairKey = (row: { test_id: number; browser: string }): string => `${row.test_id}\u0000${row.browser}`;

/** The most critical first (the risk score of docs/screens.md#risk-score, then the lower pass rate), as flaky.ts orders its list; ids break ties. */
export function byRisk(a: PairFlaky, b: PairFlaky): number {
  return b.risk - a.risk || a.pass_rate - b.pass_rate || a.row.test_id - b.row.test_id || (a.row.browser < b.row.browser ? -1 : a.row.browser > b.row.browser ? 1 : 0);
}

/** The `limit` smallest of `items` by `compare`, without sorting them all (a list may hold tens of thousands). */
export function smallest<T>(items: Iterable<T>, limit: number, compare: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  for (const item of items) {
    if (kept.length === limit && compare(item, kept[kept.length - 1]!) >= 0) continue;
    let i = kept.length;
    while (i > 0 && compare(item, kept[i - 1]!) < 0) i--;
    kept.splice(i, 0, item);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
