import type { AnyStore } from '../store/open.js';
import { baseStore } from '../store/one-connection.js';
import { dataSignature, scanTrend, type PairTrendCounts } from '../store/window-scan.js';
import type { DayRange } from '../store/analytics.js';

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

/** `branch`: one branch, whose days fillBranchDays has made for both periods on this store's connection; null: every branch. */
export async function trendRows(store: AnyStore, current: DayRange, previous: DayRange, branch: string | null = null): Promise<PairTrendCounts[]> {
  const key = `${storeId(store)}\u0000${await dataSignature(store)}\u0000${current.from}:${current.to}:${previous.from}\u0000${branch ?? ''}`;
  let rows = kept.get(key);
  if (!rows) {
    rows = await scanTrend(store, current, previous, branch);
    if (kept.size >= KEEP) kept.delete(kept.keys().next().value!);
    kept.set(key, rows);
  }
  return rows;
}
