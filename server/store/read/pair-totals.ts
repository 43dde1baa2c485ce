import type { TestBrowserTotals } from './analytics.js';
import type { DayRange } from './window-split.js';
import { onBranch } from './branch-days.js';
import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';
import { splitRows } from './window-split.js';

/** The flaky rule (docs/screens.md#flaky) over the totals' columns. */
export const FLAKY_PAIR = 'scored_passed + scored_failed > 0 AND (passed_on_retry > 0 OR changes >= 2)';

/**
 * The tests flaky over all history: the only ones any window can find flaky, on every branch or
 * one (docs/architecture.md, "Rollups": a window's attempts are a part of all of them, in the
 * same order). Read through test_totals' partial index of its flaky rows.
 */
export const FLAKY_TESTS = `SELECT test_id FROM test_totals WHERE ${FLAKY_PAIR}`;

/**
 * The tests with a failed run or a pass on a retry in all history (outage runs left out, as in
 * the trend's counts): the only ones a trend (pair-figures.ts trendFigures) can find troubled in
 * any two periods, on every branch or one, as for FLAKY_TESTS.
 */
export const TROUBLED_TESTS = 'SELECT test_id FROM test_totals WHERE scored_failed > 0 OR passed_on_retry > 0';

/** Which rows totalsSql sums. */
export interface TotalsShape {
  /** Only the tests of a JSON array parameter @ids (the trends of one page of the flaky list). */
  ofIds?: boolean;
  /** By periods (window-split.ts splitRows): whole months' and weeks' rows stand among the edge
   * days', and the changes between them are counted as between days (a period's own count those inside it). */
  byPeriods?: boolean;
  /** With byPeriods: one branch's rows (@branch, window-split.ts). */
  branch?: boolean;
  /** Only the tests flaky over all history (FLAKY_TESTS): for a list of the window's flaky tests. */
  flakyCandidates?: boolean;
}

/**
 * Per test and browser over a window of days, on either engine: sums of the daily rollup, plus
 * the pass/fail changes between consecutive days (the last attempt of one day against the first
 * of the next): what the flaky list (flaky-page.ts) and flaky.ts read.
 */
export function totalsSql(dialect: DialectName, shape: TotalsShape = {}): string {
  const t = dialectFor(dialect);
  const only = shape.ofIds ? ` AND ${t.inJsonNumbers('test_id', dialectFor(dialect).typed('@ids', 'TEXT'))}` : '';
  const rows = shape.byPeriods ? splitRows(t, shape.branch ?? false) : `SELECT * FROM daily_test_stats WHERE day BETWEEN @from AND @to${only}`;
  // Both engines push the filter into each part of the split's UNION ALL: the rows are read as
  // before, but only the candidates' are ordered for the changes and grouped. "+test_id" keeps
  // SQLite from seeking each candidate in every day of the day index (a skip-scan: 5 s instead
  // of 0.5 for 30 days at ten million results).
  const read = shape.flakyCandidates ? `SELECT * FROM (${rows}) candidates WHERE +test_id IN (${FLAKY_TESTS})` : rows;
  return `
  WITH w AS (${read}),
  boundaries AS (
    SELECT test_id, browser, sum(${t.boolInt('previous IS NOT NULL AND previous != first_outcome')}) AS changes
    FROM (SELECT test_id, browser, first_outcome, LAG(last_outcome) OVER (PARTITION BY test_id, browser ORDER BY day) AS previous FROM w WHERE attempts > 0) days
    GROUP BY test_id, browser
  ),
  totals AS (
    SELECT test_id, browser, sum(runs) AS runs, sum(passed) AS passed, sum(failed) AS failed, sum(skipped) AS skipped,
      sum(passed_on_retry) AS passed_on_retry, sum(scored_passed) AS scored_passed, sum(scored_failed) AS scored_failed,
      sum(attempts) AS attempts, sum(changes) AS changes, sum(duration_sum) AS duration_sum, sum(timed_runs) AS timed_runs,
      max(duration_max) AS duration_max
    FROM w GROUP BY test_id, browser
  )
  SELECT t.id AS test_id, t.title AS test_title, t.title_path, t.file AS test_file, totals.browser, totals.runs, totals.passed, totals.failed,
    totals.skipped, totals.passed_on_retry, totals.scored_passed, totals.scored_failed, totals.attempts,
    totals.changes + coalesce(b.changes, 0) AS changes, totals.duration_sum, totals.timed_runs, totals.duration_max
  FROM totals
  JOIN tests t ON t.id = totals.test_id
  LEFT JOIN boundaries b ON b.test_id = totals.test_id AND b.browser = totals.browser`;
}

// Lists are sorted in JS with ties left in the rows' order: one order on both engines.
const ordered = (dialect: DialectName, totals: string, where: string) =>
  `SELECT * FROM (${totals}) pairs${where} ORDER BY test_id, ${dialectFor(dialect).bytes('browser')}`;

// Built once per engine: SQLite's statement cache is keyed by the text (sql.ts).
function texts(dialect: DialectName) {
  return {
    totals: ordered(dialect, totalsSql(dialect), ''),
    flakyTotals: ordered(dialect, totalsSql(dialect, { flakyCandidates: true }), ` WHERE ${FLAKY_PAIR}`),
    totalsOf: ordered(dialect, totalsSql(dialect, { ofIds: true }), ''),
    // One branch (branch-days.ts).
    branchTotalsOf: ordered(dialect, onBranch(totalsSql(dialect, { ofIds: true }), dialect), ''),
  };
}
const TEXTS = { sqlite: texts('sqlite'), postgres: texts('postgres') } as const;

/** Each test on each browser over `range` (only the flaky ones if `onlyFlaky`), by test id and browser. */
export async function pairTotals(store: AnyStore, range: DayRange, onlyFlaky: boolean): Promise<TestBrowserTotals[]> {
  const s = TEXTS[store.dialect];
  return store.sql.all<TestBrowserTotals>(onlyFlaky ? s.flakyTotals : s.totals, { from: range.from, to: range.to });
}

/** The same for some tests; `branch`: one branch's figures only (branch-days.ts). */
export async function pairTotalsOf(store: AnyStore, range: DayRange, testIds: readonly number[], branch: string | null = null): Promise<TestBrowserTotals[]> {
  const s = TEXTS[store.dialect];
  const params = { from: range.from, to: range.to, ids: JSON.stringify(testIds) };
  return store.sql.all<TestBrowserTotals>(branch !== null ? s.branchTotalsOf : s.totalsOf, branch !== null ? { ...params, branch } : params);
}
