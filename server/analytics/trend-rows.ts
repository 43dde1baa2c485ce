import type { Store } from '../store/open.js';
import { dataSignature, scanTrend, type PairTrendCounts } from '../store/window-scan.js';
import type { DayRange } from '../store/analytics.js';

/**
 * The two periods' counts of every test on a browser, kept for the data version that made
 * them: the four dashboards and every page of the trend list read the same scan, so it runs
 * once per version and period instead of once per answer. One entry per period asked for, a
 * few at most (the API asks for 7 days; any other period is an explicit query).
 */
const kept = new Map<string, PairTrendCounts[]>();
const KEEP = 4;

/** Empties what is kept: benchmarks measuring cold computations. */
export function forgetTrendRows(): void {
  kept.clear();
}

/** `branch`: one branch, whose days fillBranchDays has made for both periods; null: every branch. */
export function trendRows(store: Store, current: DayRange, previous: DayRange, branch: string | null = null): PairTrendCounts[] {
  const key = `${store.path}\u0000${dataSignature(store)}\u0000${current.from}:${current.to}:${previous.from}\u0000${branch ?? ''}`;
  let rows = kept.get(key);
  if (!rows) {
    rows = scanTrend(store, current, previous, branch);
    if (kept.size >= KEEP) kept.delete(kept.keys().next().value!);
    kept.set(key, rows);
  }
  return rows;
}
