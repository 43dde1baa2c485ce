import { CRITICAL_PASS_RATE } from '../../core/analytics/formulas.js';
import { TOTALS_SQL, type DayRange } from './analytics.js';
import type { Store } from './open.js';
import { DAY_MS } from './rollups.js';
import { onBranch } from './branch-days.js';

/** Sort keys of the flaky list and the SQL they order by: an allow-list, never request text. */
export const FLAKY_SORTS = {
  score: { column: 'score', defaultOrder: 'desc' },
  pass_rate: { column: 'worst', defaultOrder: 'asc' },
  runs: { column: 'runs', defaultOrder: 'desc' },
  last_failure: { column: 'last_failed_at', defaultOrder: 'desc' },
} as const;
export type FlakySort = keyof typeof FLAKY_SORTS;
export type SortOrder = 'asc' | 'desc';
export type Severity = 'severe' | 'moderate' | 'minor';

export interface FlakyPageQuery {
  /** Null: all history (the test_totals rollup); else a window of days. */
  range: DayRange | null;
  /** One branch, whose days fillBranchDays has made for `range` (required then); null: every branch. */
  branch?: string | null;
  /** Lower-cased (ASCII, as SQLite's lower()) substring of the title or the file. */
  search: string | null;
  browser: string | null;
  severity: Severity | null;
  /** SPEC.md section 9: critical flaky is a worst pass rate of 0.5 or less. */
  critical: boolean;
  /** Keys (file NUL title NUL browser) whose trend was asked for; null: no trend filter. */
  trendKeys: string[] | null;
  sort: FlakySort;
  order: SortOrder;
  limit: number;
  offset: number;
}

export interface FlakyGroupRow {
  test_id: number;
  title: string;
  file: string;
  worst: number;
  runs: number;
  failed: number;
  score: number;
  last_failed_at: number | null;
}

export interface FlakyEntryRow {
  test_id: number;
  browser: string;
  runs: number;
  failed: number;
  skipped: number;
  passed_on_retry: number;
  scored_passed: number;
  scored_failed: number;
  attempts: number;
  changes: number;
}

export interface FlakyCounts {
  /** Every group matching search and browser (the stat cards' All Tests). */
  all: number;
  severe: number;
  moderate: number;
  minor: number;
  critical: number;
  /** What the severity, critical or trend filter leaves: the rows there are to page through. */
  total: number;
}

// The all-time rollup, or a window's totals of the flaky tests (the dashboard's per-window
// query), kept in a temporary table for the few statements of one answer: computing them is
// the costly part. The latest failure inside the window comes from the results index.
const ALL_TIME = 'SELECT * FROM test_totals';
const WINDOW_TABLE = `CREATE TEMP TABLE IF NOT EXISTS flaky_window (test_id INTEGER, browser TEXT, runs INTEGER, failed INTEGER, skipped INTEGER,
  passed_on_retry INTEGER, scored_passed INTEGER, scored_failed INTEGER, attempts INTEGER, changes INTEGER, last_failed_at INTEGER)`;
// On one branch (branch-days.ts filled for the window), the latest failure is that branch's.
const fillWindow = (onlyBranch: boolean) => `INSERT INTO temp.flaky_window
  SELECT w.test_id, w.browser, w.runs, w.failed, w.skipped, w.passed_on_retry, w.scored_passed, w.scored_failed, w.attempts, w.changes,
    (SELECT max(r.started_at) FROM results r WHERE r.test_id = w.test_id AND r.browser = w.browser
      AND r.status IN ('failed', 'timedOut') AND r.started_at >= @fromMs AND r.started_at < @toMs
      ${onlyBranch ? 'AND r.run_id IN (SELECT id FROM runs WHERE git_branch = @branch)' : ''})
  FROM (${onlyBranch ? onBranch(TOTALS_SQL) : TOTALS_SQL}) w WHERE w.scored_passed + w.scored_failed > 0 AND (w.passed_on_retry > 0 OR w.changes >= 2)`;
const WINDOWED = 'SELECT * FROM temp.flaky_window';

// DESIGN.md section 7's flaky rule (as flakyTests in analytics/flaky.ts), the same pass rate
// and score formulas as core/analytics/formulas.ts, then one group per test identity.
const groupsSql = (source: string) => `
  WITH src AS (${source}),
  flaky AS (
    SELECT f.test_id, f.browser, f.runs, f.failed, f.skipped, f.passed_on_retry, f.scored_passed, f.scored_failed, f.attempts, f.changes, f.last_failed_at,
      CAST(f.scored_passed AS REAL) / (f.scored_passed + f.scored_failed) AS pass_rate,
      CASE WHEN f.attempts > 1 THEN round(100.0 * f.changes / (f.attempts - 1)) ELSE 0 END AS score
    FROM src f WHERE f.scored_passed + f.scored_failed > 0 AND (f.passed_on_retry > 0 OR f.changes >= 2)
  ),
  groups AS (
    SELECT f.test_id, t.title, t.file, min(f.pass_rate) AS worst, sum(f.runs) AS runs, sum(f.failed) AS failed, max(f.score) AS score,
      max(f.last_failed_at) AS last_failed_at, sum(f.browser = @browser) AS on_browser,
      sum((t.file || char(0) || t.title || char(0) || f.browser) IN (SELECT value FROM json_each(@trendKeys))) AS trending
    FROM flaky f JOIN tests t ON t.id = f.test_id
    WHERE @search IS NULL OR instr(lower(t.title), @search) > 0 OR instr(lower(t.file), @search) > 0
    GROUP BY f.test_id
  ),
  matching AS (
    SELECT * FROM groups WHERE @browser IS NULL OR on_browser > 0
  )`;

// The screen's filter (a severity card or a trend direction) on top of search and browser.
// Severe is critical (core/analytics/formulas.ts: flakySeverity, isCriticalFlaky): 0.5 or less.
const SEVERE = `worst <= ${CRITICAL_PASS_RATE}`;
const MODERATE = `worst > ${CRITICAL_PASS_RATE} AND worst < 0.8`;
const FILTER = `(@severity IS NULL OR (@severity = 'severe' AND ${SEVERE}) OR (@severity = 'moderate' AND ${MODERATE})
  OR (@severity = 'minor' AND worst >= 0.8)) AND (@critical = 0 OR ${SEVERE}) AND (@trendKeys IS NULL OR trending > 0)`;

const countsSql = (source: string) => `${groupsSql(source)}
  SELECT count(*) AS "all", coalesce(sum(${SEVERE}), 0) AS severe, coalesce(sum(${MODERATE}), 0) AS moderate,
    coalesce(sum(worst >= 0.8), 0) AS minor, coalesce(sum(${SEVERE}), 0) AS critical, coalesce(sum(${FILTER}), 0) AS total
  FROM matching`;

/** The browsers among the searched groups, for the browser filter. */
const browsersSql = (source: string) => `${groupsSql(source)}
  SELECT f.browser, count(*) AS count FROM flaky f WHERE f.test_id IN (SELECT test_id FROM groups) GROUP BY f.browser ORDER BY f.browser`;

const pageSql = (source: string, sort: FlakySort, order: SortOrder) => {
  const { column } = FLAKY_SORTS[sort];
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  // A test that only ever passed on retry has no failed result: last in either order.
  const nullsLast = column === 'last_failed_at' ? 'last_failed_at IS NULL, ' : '';
  return `${groupsSql(source)}
    SELECT test_id, title, file, worst, runs, failed, score, last_failed_at FROM matching WHERE ${FILTER}
    ORDER BY ${nullsLast}${column} ${direction}, worst ASC, score DESC, title, file, test_id
    LIMIT @limit OFFSET @offset`;
};

const entriesSql = (source: string) => `
  WITH src AS (${source})
  SELECT test_id, browser, runs, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes FROM src
  WHERE test_id IN (SELECT value FROM json_each(@ids)) AND scored_passed + scored_failed > 0 AND (passed_on_retry > 0 OR changes >= 2)
  ORDER BY test_id, browser`;

type Statements = Map<string, ReturnType<Store['sqlite']['prepare']>>;
const cache = new WeakMap<Store['sqlite'], Statements>();

function statement(store: Store, sql: string) {
  let statements = cache.get(store.sqlite);
  if (!statements) {
    statements = new Map();
    cache.set(store.sqlite, statements);
  }
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = store.sqlite.prepare(sql);
    statements.set(sql, prepared);
  }
  return prepared;
}

function parameters(q: Pick<FlakyPageQuery, 'search' | 'browser' | 'severity' | 'critical' | 'trendKeys'>) {
  return {
    search: q.search,
    browser: q.browser,
    severity: q.severity,
    critical: q.critical ? 1 : 0,
    trendKeys: q.trendKeys ? JSON.stringify(q.trendKeys) : null,
  };
}

/**
 * One page of flaky groups with the counts the screen shows, sorted, searched and filtered in
 * SQL: the cost follows the flaky tests and the page, never a sum over every stored day.
 */
export function flakyGroupPage(store: Store, q: FlakyPageQuery) {
  const source = q.range ? WINDOWED : ALL_TIME;
  if (q.range) {
    store.sqlite.exec(WINDOW_TABLE);
    store.sqlite.exec('DELETE FROM temp.flaky_window');
    const branch = q.branch ?? null;
    const bounds = { from: q.range.from, to: q.range.to, fromMs: q.range.from * DAY_MS, toMs: (q.range.to + 1) * DAY_MS };
    statement(store, fillWindow(branch !== null)).run(branch !== null ? { ...bounds, branch } : bounds);
  }
  // SQLite rejects named parameters a statement does not use.
  const pick = (sql: string, values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([key]) => sql.includes(`@${key}`)));
  const run = <T>(sql: string, values: Record<string, unknown>, all: boolean): T => {
    const s = statement(store, sql);
    return (all ? s.all(pick(sql, values)) : s.get(pick(sql, values))) as T;
  };
  const base = parameters(q);
  const counts = run<FlakyCounts>(countsSql(source), base, false);
  const rows = run<FlakyGroupRow[]>(pageSql(source, q.sort, q.order), { ...base, limit: q.limit, offset: q.offset }, true);
  const browsers = run<Array<{ browser: string; count: number }>>(browsersSql(source), base, true);
  const entries =
    rows.length === 0 ? [] : run<FlakyEntryRow[]>(entriesSql(source), { ...base, ids: JSON.stringify(rows.map((r) => r.test_id)) }, true);
  return { counts, rows, browsers, entries };
}

export interface PeriodTotals {
  test_id: number;
  test_title: string;
  test_file: string;
  browser: string;
  period: 'current' | 'previous';
  scored_passed: number;
  scored_failed: number;
  passed_on_retry: number;
}

// The two periods' sums of every all-time flaky test on a browser: no changes between days
// (a trend does not use them), so one pass over the days of the two periods.
const PERIOD_TOTALS = `
  SELECT d.test_id, t.title AS test_title, t.file AS test_file, d.browser, CASE WHEN d.day >= @currentFrom THEN 'current' ELSE 'previous' END AS period,
    sum(d.scored_passed) AS scored_passed, sum(d.scored_failed) AS scored_failed, sum(d.passed_on_retry) AS passed_on_retry
  FROM test_totals x
  JOIN daily_test_stats d ON d.test_id = x.test_id AND d.browser = x.browser AND d.day BETWEEN @previousFrom AND @to
  JOIN tests t ON t.id = x.test_id
  WHERE x.scored_passed + x.scored_failed > 0 AND (x.passed_on_retry > 0 OR x.changes >= 2)
  GROUP BY d.test_id, d.browser, period`;

/**
 * Both trend periods of the flaky tests, for the trend filter. A test flaky within a window is
 * flaky over all history too (its attempts are a part of all of them), so this covers windows.
 */
export function flakyPeriodTotals(store: Store, periods: { current: DayRange; previous: DayRange }, branch: string | null = null): PeriodTotals[] {
  return statement(store, branch !== null ? onBranch(PERIOD_TOTALS) : PERIOD_TOTALS).all({ currentFrom: periods.current.from, previousFrom: periods.previous.from, to: periods.current.to }) as PeriodTotals[];
}
