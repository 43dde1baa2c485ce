import { sqliteDialect, type Dialect } from '../engine/dialect.js';
import { branchTotalsOfMonths, MONTH } from '../engine/rollup-shape.js';
import type { SqliteDatabase } from '../engine/types.js';
import { perConnection } from '../engine/per-connection.js';
import { BRANCH_TOTAL_ROLLUP, columnList } from './rollup-columns.js';

/**
 * branch_test_totals: per branch, test and browser over all history, what one branch's all-time
 * answers read (test_totals's figures per branch). A run in time order adds its totals rows to
 * its branch's (rollups.ts addRunToRollups, with test_totals's); any other change rebuilds the
 * touched keys (rollup_branch_keys) from their months, once branch_month_stats holds them.
 * Rebuilding from the days instead would read up to a year of day rows per key, and moving the
 * rows by the touched days' difference (test-totals.ts) would be written a second time one level
 * finer; a key's months are a dozen rows a year.
 */

export const BRANCH_TOTALS_COLUMNS = columnList(BRANCH_TOTAL_ROLLUP);

/** The first and last stored day, each its own subquery: both read from an index end. */
export const STORED_DAYS = 'SELECT (SELECT min(day) FROM daily_test_stats) AS first, (SELECT max(day) FROM daily_test_stats) AS last';

/** Every month from the first stored day's to the last's, as the JSON array @months takes. */
export function storedMonths(first: number | string | null | undefined, last: number | string | null | undefined): string {
  const months: number[] = [];
  if (first !== null && first !== undefined && last !== null && last !== undefined) {
    for (let month = MONTH.of(Number(first)); month <= Number(last); month = MONTH.after(month)) months.push(month);
  }
  return JSON.stringify(months);
}

export const DROP_TOUCHED_BRANCH_TOTALS = 'DELETE FROM branch_test_totals WHERE (branch_id, test_id, browser) IN (SELECT branch_id, test_id, browser FROM rollup_branch_keys)';

const monthList = (t: Dialect) =>
  t.name === 'postgres' ? '(SELECT CAST(value AS BIGINT) AS month FROM json_array_elements_text(CAST(@months AS json)))' : '(SELECT CAST(value AS INTEGER) AS month FROM json_each(@months))';

/**
 * The touched keys' rows from their months: each key is looked up in each stored month (@months),
 * the whole key of branch_month_stats (branch, month, test, browser), since its months are not
 * next to each other there.
 */
export const rebuildTouchedBranchTotals = (t: Dialect) => `INSERT INTO branch_test_totals (${BRANCH_TOTALS_COLUMNS}) ${branchTotalsOfMonths(
  `SELECT d.* FROM (SELECT DISTINCT branch_id, test_id, browser FROM rollup_branch_keys) k
    CROSS JOIN ${monthList(t)} months
    ${t.keysFirstJoin} branch_month_stats d ON d.branch_id = k.branch_id AND d.month = months.month AND d.test_id = k.test_id AND d.browser = k.browser`,
  t,
)}`;

const statementsFor = perConnection((sqlite: SqliteDatabase) => ({
  storedDays: sqlite.prepare(STORED_DAYS),
  drop: sqlite.prepare(DROP_TOUCHED_BRANCH_TOTALS),
  rebuild: sqlite.prepare(rebuildTouchedBranchTotals(sqliteDialect)),
}));

/** The totals of the branch keys in temp.rollup_branch_keys, from their months: call after branch_month_stats is brought up to date. */
export function rebuildBranchTotals(sqlite: SqliteDatabase): void {
  const s = statementsFor(sqlite);
  const { first, last } = s.storedDays.get() as { first: number | null; last: number | null };
  s.drop.run();
  s.rebuild.run({ months: storedMonths(first, last) });
}
