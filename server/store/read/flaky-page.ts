import { CRITICAL_PASS_RATE } from '../../../core/analytics/formulas.js';
import { UNOWNED } from '../../../core/owners/test-owners.js';
import type { DayRange } from './window-split.js';
import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';
import { DAY_MS } from '../engine/rollup-shape.js';
import { branchIdOf, onBranch } from './branch-days.js';
import { onOneConnection } from '../engine/one-connection.js';
import { totalsSql } from './pair-totals.js';
import { periodParams } from './window-scan.js';

/** Sort keys of the flaky list and the SQL they order by: an allow-list, never request text. */
export const FLAKY_SORTS = {
  score: { column: 'score', defaultOrder: 'desc' },
  pass_rate: { column: 'worst', defaultOrder: 'asc' },
  runs: { column: 'runs', defaultOrder: 'desc' },
  last_failure: { column: 'last_failed_at', defaultOrder: 'desc' },
  // Open flake episodes, the oldest first (time-to-fix.ts orders them: @openOrder).
  open_age: { column: 'open_rank', defaultOrder: 'asc' },
} as const;
export type FlakySort = keyof typeof FLAKY_SORTS;
export type SortOrder = 'asc' | 'desc';
export type Severity = 'severe' | 'moderate' | 'minor';

export interface FlakyPageQuery {
  /** Null: all history (the test_totals rollup, or branch_test_totals on one branch); else a window of days. */
  range: DayRange | null;
  /** One branch (branch-days.ts); null: every branch. */
  branch?: string | null;
  /** Lower-cased (ASCII, as SQLite's lower()) substring of the title or the file. */
  search: string | null;
  browser: string | null;
  severity: Severity | null;
  /** docs/screens.md#critical: critical flaky is a worst pass rate of 0.5 or less. */
  critical: boolean;
  /** Keys (test id, ':' and browser) whose trend was asked for; null: no trend filter. */
  trendKeys: string[] | null;
  /** One owner's tests ('@team'), the tests no one owns (UNOWNED), or null: everyone's. */
  owner?: string | null;
  /** The open_age sort: the ids of tests with an open flake episode, the oldest first. */
  openOrder?: number[] | null;
  /** false: a window of days is summed from its days alone, never whole weeks or months (what the reading by periods is checked against). */
  wholePeriods?: boolean;
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
  /** 1 when no one owns the test. */
  unowned: number;
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
  /** Groups no one owns (owners.ts). */
  unowned: number;
  /** What the severity, critical or trend filter leaves: the rows there are to page through. */
  total: number;
}

// The all-time rollup, or a window's totals of the flaky tests (the dashboard's per-window
// query), kept in a temporary table for the few statements of one answer: computing them is
// the costly part. The latest failure inside the window comes from the results index.
// Temporary tables live on one connection: flakyGroupPage runs on one (one-connection.ts).
const ALL_TIME = 'SELECT * FROM test_totals';
const branchAllTime = (dialect: DialectName) => `SELECT * FROM branch_test_totals WHERE branch_id = ${branchIdOf(dialect)}`;
const tempName = (dialect: DialectName) => (dialect === 'postgres' ? 'pg_temp' : 'temp');
const windowTable = (dialect: DialectName) => {
  const [int, end] = dialect === 'postgres' ? ['BIGINT', dialectFor(dialect).tempTableEnd] : ['INTEGER', ''];
  return `CREATE TEMP TABLE IF NOT EXISTS flaky_window (test_id ${int}, browser TEXT, runs ${int}, failed ${int}, skipped ${int},
  passed_on_retry ${int}, scored_passed ${int}, scored_failed ${int}, attempts ${int}, changes ${int}, last_failed_at ${int})${end}`;
};
// On one branch (branch-days.ts), the latest failure is that branch's.
// A window that holds a whole week or month reads it from week_stats and month_stats, or from
// the branch's (window-scan.ts periodParams), and only its edge days by day.
const fillWindow = (dialect: DialectName, onlyBranch: boolean, byPeriods = false) => `INSERT INTO ${tempName(dialect)}.flaky_window
  SELECT w.test_id, w.browser, w.runs, w.failed, w.skipped, w.passed_on_retry, w.scored_passed, w.scored_failed, w.attempts, w.changes,
    (SELECT max(r.started_at) FROM results r WHERE r.test_id = w.test_id AND r.browser = w.browser
      AND r.status IN ('failed', 'timedOut') AND r.started_at >= @fromMs AND r.started_at < @toMs
      ${onlyBranch ? `AND ${dialectFor(dialect).inListReadOnce('r.run_id', 'SELECT id FROM runs WHERE git_branch = @branch')}` : ''})
  FROM (${onlyBranch && !byPeriods ? onBranch(totalsSql(dialect, { flakyCandidates: true }), dialect) : totalsSql(dialect, { byPeriods, branch: onlyBranch, flakyCandidates: true })}) w WHERE w.scored_passed + w.scored_failed > 0 AND (w.passed_on_retry > 0 OR w.changes >= 2)`;

// A test someone owns; the owner filter is a lookup in test_owners' index on (owner, test_id).
const OWNED = 'SELECT 1 FROM test_owners o WHERE o.test_id = t.id';

// The flaky rule (docs/screens.md#flaky) (as flakyTests in analytics/flaky.ts), the same pass rate
// and score formulas as core/analytics/formulas.ts, then one group per test identity. A trend
// key is a test id and a browser (analytics/flaky-page.ts trendKeysOf).
const groupsSql = (dialect: DialectName, source: string) => {
  const t = dialectFor(dialect);
  const r = dialectFor(dialect);
  const text = (param: string) => r.typed(param, 'TEXT');
  const search = (column: string) => r.contains(r.asciiLower(column), text('@search'));
  return `
  WITH src AS (${source}),
  flaky AS (
    SELECT f.test_id, f.browser, f.runs, f.failed, f.skipped, f.passed_on_retry, f.scored_passed, f.scored_failed, f.attempts, f.changes, f.last_failed_at,
      CAST(f.scored_passed AS DOUBLE PRECISION) / (f.scored_passed + f.scored_failed) AS pass_rate,
      CASE WHEN f.attempts > 1 THEN round(100.0 * f.changes / (f.attempts - 1)) ELSE 0 END AS score
    FROM src f WHERE f.scored_passed + f.scored_failed > 0 AND (f.passed_on_retry > 0 OR f.changes >= 2)
  ),
  groups AS (
    SELECT t.id AS test_id, t.title, t.file, min(f.pass_rate) AS worst, sum(f.runs) AS runs, sum(f.failed) AS failed, max(f.score) AS score,
      max(f.last_failed_at) AS last_failed_at, sum(${t.boolInt(`f.browser = ${text('@browser')}`)}) AS on_browser,
      sum(${t.boolInt(r.inJsonTexts("(CAST(f.test_id AS TEXT) || ':' || f.browser)", text('@trendKeys')))}) AS trending,
      ${t.boolInt(`NOT EXISTS (${OWNED})`)} AS unowned
    FROM flaky f JOIN tests t ON t.id = f.test_id
    WHERE (${text('@search')} IS NULL OR ${search('t.title')} OR ${search('t.file')})
      AND (${text('@owner')} IS NULL OR (${text('@owner')} = '${UNOWNED}' AND NOT EXISTS (${OWNED}))
        OR t.id IN (SELECT o.test_id FROM test_owners o WHERE o.owner = ${text('@owner')}))
    GROUP BY t.id
  ),
  matching AS (
    SELECT * FROM groups WHERE ${text('@browser')} IS NULL OR on_browser > 0
  )`;
};

// The screen's filter (a severity card or a trend direction) on top of search and browser.
// Severe is critical (core/analytics/formulas.ts: flakySeverity, isCriticalFlaky): 0.5 or less.
const SEVERE = `worst <= ${CRITICAL_PASS_RATE}`;
const MODERATE = `worst > ${CRITICAL_PASS_RATE} AND worst < 0.8`;
const MINOR = 'worst >= 0.8';
const filter = (dialect: DialectName) => {
  const r = dialectFor(dialect);
  const severity = r.typed('@severity', 'TEXT');
  return `(${severity} IS NULL OR (${severity} = 'severe' AND ${SEVERE}) OR (${severity} = 'moderate' AND ${MODERATE})
  OR (${severity} = 'minor' AND ${MINOR})) AND (${r.typed('@critical', 'BIGINT')} = 0 OR ${SEVERE}) AND (${r.typed('@trendKeys', 'TEXT')} IS NULL OR trending > 0)`;
};

const countsSql = (dialect: DialectName, source: string) => {
  const count = (condition: string) => `coalesce(sum(${dialectFor(dialect).boolInt(condition)}), 0)`;
  return `${groupsSql(dialect, source)}
  SELECT count(*) AS "all", ${count(SEVERE)} AS severe, ${count(MODERATE)} AS moderate,
    ${count(MINOR)} AS minor, ${count(SEVERE)} AS critical, ${count('unowned = 1')} AS unowned, ${count(filter(dialect))} AS total
  FROM matching`;
};

/** The browsers among the searched groups, for the browser filter. */
const browsersSql = (dialect: DialectName, source: string) => `${groupsSql(dialect, source)}
  SELECT f.browser, count(*) AS count FROM flaky f WHERE f.test_id IN (SELECT test_id FROM groups) GROUP BY f.browser ORDER BY ${dialectFor(dialect).bytes('f.browser')}`;

const pageSql = (dialect: DialectName, source: string, sort: FlakySort, order: SortOrder) => {
  const { column } = FLAKY_SORTS[sort];
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const r = dialectFor(dialect);
  // A test that only ever passed on retry has no failed result, one fixed no open episode: last in either order.
  const nullsLast = column === 'last_failed_at' || column === 'open_rank' ? `${column} IS NULL, ` : '';
  // The open order as a table of its own, made once: joined as a subquery of json_each, SQLite
  // walked the whole list for every group (2.3 s of CPU for 5,000 open tests at ten million results).
  const ranks =
    sort !== 'open_age'
      ? ''
      : dialect === 'postgres'
        ? `,
  open_ranks AS MATERIALIZED (SELECT CAST(value AS BIGINT) AS open_id, ordinality AS open_rank FROM json_array_elements_text(CAST(@openOrder AS json)) WITH ORDINALITY)`
        : `,
  open_ranks AS MATERIALIZED (SELECT CAST(value AS INTEGER) AS open_id, CAST(key AS INTEGER) AS open_rank FROM json_each(@openOrder))`;
  const open = sort !== 'open_age' ? '' : ' LEFT JOIN open_ranks o ON o.open_id = test_id';
  return `${groupsSql(dialect, source)}${ranks}
    SELECT test_id, title, file, worst, runs, failed, score, last_failed_at, unowned FROM matching${open} WHERE ${filter(dialect)}
    ORDER BY ${nullsLast}${column} ${direction}, worst ASC, score DESC, ${r.bytes('title')}, ${r.bytes('file')}, test_id
    LIMIT @limit OFFSET @offset`;
};

const entriesSql = (dialect: DialectName, source: string) => `
  WITH src AS (${source})
  SELECT test_id, browser, runs, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes FROM src
  WHERE ${dialectFor(dialect).inJsonNumbers('test_id', dialectFor(dialect).typed('@ids', 'TEXT'))} AND scored_passed + scored_failed > 0 AND (passed_on_retry > 0 OR changes >= 2)
  ORDER BY test_id, ${dialectFor(dialect).bytes('browser')}`;

// Every text made once per engine and shape: SQLite's statement cache is keyed by the text (sql.ts).
const texts = new Map<string, string>();
function text(key: string, make: () => string): string {
  let made = texts.get(key);
  if (made === undefined) texts.set(key, (made = make()));
  return made;
}

// SQLite rejects named parameters a statement does not use.
const pick = (sql: string, values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([key]) => sql.includes(`@${key}`)));

function parameters(q: Pick<FlakyPageQuery, 'search' | 'browser' | 'severity' | 'critical' | 'trendKeys' | 'owner' | 'branch'>) {
  return {
    // Read only by the all-time rows of one branch (branchAllTime): pick leaves it out elsewhere.
    branch: q.branch ?? null,
    owner: q.owner ?? null,
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
 * A window of days (`range`) is summed into a temporary table: run on one connection (a view
 * of onOneConnection; this makes one when given the store).
 */
export async function flakyGroupPage(store: AnyStore, q: FlakyPageQuery) {
  if (!q.range) return groupPage(store, q, (q.branch ?? null) !== null ? text(`${store.dialect} branch all time`, () => branchAllTime(store.dialect)) : ALL_TIME);
  const range = q.range;
  return onOneConnection(store, async (pinned) => {
    const dialect = pinned.dialect;
    const branch = q.branch ?? null;
    await pinned.sql.run(text(`${dialect} create`, () => windowTable(dialect)));
    await pinned.sql.run(text(`${dialect} clear`, () => `DELETE FROM ${tempName(dialect)}.flaky_window`));
    const bounds = { from: range.from, to: range.to, fromMs: range.from * DAY_MS, toMs: (range.to + 1) * DAY_MS };
    const byPeriods = await periodParams(pinned, [range], q.wholePeriods ?? true, branch !== null);
    const onBranch = branch !== null ? { branch } : {};
    if (byPeriods) {
      await pinned.sql.run(text(`${dialect} fill by periods ${branch !== null}`, () => fillWindow(dialect, branch !== null, true)), { ...byPeriods, fromMs: bounds.fromMs, toMs: bounds.toMs, ...onBranch });
    } else await pinned.sql.run(text(`${dialect} fill ${branch !== null}`, () => fillWindow(dialect, branch !== null)), branch !== null ? { ...bounds, branch } : bounds);
    return groupPage(pinned, q, `SELECT * FROM ${tempName(dialect)}.flaky_window`);
  });
}

async function groupPage(store: AnyStore, q: FlakyPageQuery, source: string) {
  const dialect = store.dialect;
  const kind = `${dialect} ${source}`;
  const base = parameters(q);
  const all = <T>(sql: string, values: Record<string, unknown>) => store.sql.all<T>(sql, pick(sql, values));
  const countsText = text(`${kind} counts`, () => countsSql(dialect, source));
  const counts = (await store.sql.get<FlakyCounts>(countsText, pick(countsText, base)))!;
  const rows = await all<FlakyGroupRow>(text(`${kind} page ${q.sort} ${q.order}`, () => pageSql(dialect, source, q.sort, q.order)), { ...base, limit: q.limit, offset: q.offset, openOrder: JSON.stringify(q.openOrder ?? []) });
  const browsers = await all<{ browser: string; count: number }>(text(`${kind} browsers`, () => browsersSql(dialect, source)), base);
  const entries =
    rows.length === 0 ? [] : await all<FlakyEntryRow>(text(`${kind} entries`, () => entriesSql(dialect, source)), { ...base, ids: JSON.stringify(rows.map((r) => r.test_id)) });
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
// (a trend does not use them), so one pass over the days of the two periods. Names are joined
// to the sums (a grouped column of one table cannot name another's in PostgreSQL).
const PERIOD_TOTALS = `
  SELECT p.test_id, t.title AS test_title, t.file AS test_file, p.browser, p.period, p.scored_passed, p.scored_failed, p.passed_on_retry
  FROM (
    SELECT d.test_id, d.browser, CASE WHEN d.day >= @currentFrom THEN 'current' ELSE 'previous' END AS period,
      sum(d.scored_passed) AS scored_passed, sum(d.scored_failed) AS scored_failed, sum(d.passed_on_retry) AS passed_on_retry
    FROM test_totals x
    JOIN daily_test_stats d ON d.test_id = x.test_id AND d.browser = x.browser AND d.day BETWEEN @previousFrom AND @to
    WHERE x.scored_passed + x.scored_failed > 0 AND (x.passed_on_retry > 0 OR x.changes >= 2)
    GROUP BY d.test_id, d.browser, period
  ) p
  JOIN tests t ON t.id = p.test_id`;

/**
 * Both trend periods of the flaky tests, for the trend filter. A test flaky within a window is
 * flaky over all history too (its attempts are a part of all of them), so this covers windows.
 * `branch`: one branch's figures only (branch-days.ts).
 */
export async function flakyPeriodTotals(store: AnyStore, periods: { current: DayRange; previous: DayRange }, branch: string | null = null): Promise<PeriodTotals[]> {
  const dialect = store.dialect;
  const sql = branch !== null ? text(`${dialect} branch periods`, () => onBranch(PERIOD_TOTALS, dialect)) : PERIOD_TOTALS;
  const params = { currentFrom: periods.current.from, previousFrom: periods.previous.from, to: periods.current.to };
  return store.sql.all<PeriodTotals>(sql, branch !== null ? { ...params, branch } : params);
}
