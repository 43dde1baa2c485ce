import type { AnyStore } from '../store/engine/types.js';
import { baseStore } from '../store/engine/one-connection.js';
import { dataSignature, scanTrend, type PairTrendCounts, type PairWindow } from '../store/read/window-scan.js';
import { pairKey } from './pair-figures.js';
import type { DayRange } from '../store/read/analytics.js';

/**
 * The two periods' counts of every test on a browser, kept for the data version that made
 * them: the four dashboards and every page of the trend list read the same scan, so it runs
 * once per version and period instead of once per answer. One entry per period asked for, a
 * few at most (the API asks for 7 days; any other period is an explicit query). Kept per store
 * (two stores may hold different data of the same signature).
 */
const kept = new Map<string, PairTrendCounts[]>();
const KEEP = 4;

// A number per store: a view of onOneConnection counts as its store.
const storeIds = new WeakMap<AnyStore, number>();
let nextStoreId = 0;
function storeId(store: AnyStore): number {
  const base = baseStore(store);
  let id = storeIds.get(base);
  if (id === undefined) storeIds.set(base, (id = ++nextStoreId));
  return id;
}

/** Empties what is kept: benchmarks measuring cold computations. */
export function forgetTrendRows(): void {
  kept.clear();
}

/**
 * `branch`: one branch's figures (branch-days.ts); null: every branch. `known`: the data version
 * the caller read before its own windows, and the rows when it has read them already
 * (trendCountsOf): rows are kept under the version read before them, so counts read before an
 * import are not kept as the counts after it.
 */
export async function trendRows(
  store: AnyStore,
  current: DayRange,
  previous: DayRange,
  branch: string | null = null,
  known?: { signature: string; rows?: PairTrendCounts[] },
): Promise<PairTrendCounts[]> {
  // A caller that read the data version before its own windows gives it: one round trip fewer.
  const signature = known?.signature ?? (await dataSignature(store));
  const key = `${storeId(store)}\u0000${signature}\u0000${current.from}:${current.to}:${previous.from}\u0000${branch ?? ''}`;
  let rows = kept.get(key);
  if (!rows) {
    rows = known?.rows ?? (await scanTrend(store, current, previous, branch));
    if (kept.size >= KEEP) kept.delete(kept.keys().next().value!);
    kept.set(key, rows);
  }
  return rows;
}

type PeriodSums = Pick<PairWindow, 'test_id' | 'browser' | 'scored_passed' | 'scored_failed' | 'passed_on_retry'>;

/**
 * The trend counts of two periods from their window scans (each pair's sums over each period's
 * days): what scanTrend reads, for a caller that has both windows already (the 7-day dashboard's
 * window and the one before are the trend's periods). Order is not kept: readers sort.
 */
export function trendCountsOf(current: readonly PeriodSums[], previous: readonly PeriodSums[]): PairTrendCounts[] {
  const rows = new Map<string, PairTrendCounts>();
  const rowOf = (w: PeriodSums) => {
    const key = pairKey(w);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { test_id: w.test_id, browser: w.browser, cur_passed: 0, cur_failed: 0, cur_retry: 0, prev_passed: 0, prev_failed: 0, prev_retry: 0 }));
    return row;
  };
  for (const w of current) Object.assign(rowOf(w), { cur_passed: w.scored_passed, cur_failed: w.scored_failed, cur_retry: w.passed_on_retry });
  for (const w of previous) Object.assign(rowOf(w), { prev_passed: w.scored_passed, prev_failed: w.scored_failed, prev_retry: w.passed_on_retry });
  return [...rows.values()];
}
