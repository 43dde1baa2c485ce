import type { TrendDirection } from '../../core/analytics/formulas.js';
import type { TrendCounts, TrendListPage } from '../../core/api/analytics.js';
import type { AnyStore } from '../store/engine/types.js';
import { testIds, testNames } from '../store/read/window-scan.js';
import { trendRecord } from './dashboard.js';
import { trendFigures, type PairTrend } from './pair-figures.js';
import { trendRows } from './trend-rows.js';
import { isoDate, today } from './windows.js';

export interface TrendListArgs {
  period: number;
  now: number;
  page: number;
  pageSize: number;
  direction: TrendDirection | null;
  /** One test's records (every browser): both or neither. */
  file: string | null;
  test: string | null;
  /** One branch's records; null: every branch. */
  branch?: string | null;
}

/**
 * GET /api/flaky-trends: trend records (flaky.ts's flakyTrends rules, one scan of the two
 * periods), worst change first, a page at a time, with the counts per direction over every
 * record (a test counts once per direction any of its browsers has).
 */
export async function trendList(store: AnyStore, a: TrendListArgs): Promise<TrendListPage> {
  const branch = a.branch ?? null;
  const to = today(a.now);
  const current = { from: to - a.period + 1, to };
  const previous = { from: to - 2 * a.period + 1, to: to - a.period };
  let trends = (await trendRows(store, current, previous, branch))
    .map(trendFigures)
    .filter((t): t is PairTrend => t !== null);
  if (a.file !== null && a.test !== null) {
    const ids = new Set(await testIds(store, a.file, a.test));
    trends = trends.filter((t) => ids.has(t.row.test_id));
  }
  const seen: Record<TrendDirection, Set<number>> = { declining: new Set(), improving: new Set(), stable: new Set(), new: new Set() };
  for (const t of trends) seen[t.direction].add(t.row.test_id);
  const counts: TrendCounts = { declining: seen.declining.size, improving: seen.improving.size, stable: seen.stable.size, new: seen.new.size };
  if (a.direction !== null) trends = trends.filter((t) => t.direction === a.direction);

  // Ties (most records share a change of 0) are ordered by title as flakyTrends orders them.
  const names = await testNames(store);
  const title = (t: PairTrend) => names.get(t.row.test_id)!.title;
  trends.sort((x, y) => x.percentage - y.percentage || title(x).localeCompare(title(y)) || x.row.test_id - y.row.test_id || (x.row.browser < y.row.browser ? -1 : 1));
  const start = (a.page - 1) * a.pageSize;
  return {
    items: trends.slice(start, start + a.pageSize).map((t) => trendRecord(t, names.get(t.row.test_id)!, current)),
    total: trends.length,
    page: a.page,
    pageSize: a.pageSize,
    counts,
    period_start: isoDate(current.from),
    period_end: isoDate(current.to),
  };
}
