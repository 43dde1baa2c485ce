import type { SqliteDatabase } from './types.js';
import type { Dialect } from './dialect.js';

/**
 * What the rollup tables are keyed and summed by, shared by the writers that keep them and the
 * readers that sum them: a day is a UTC day, `started_at / DAY_MS`.
 */
export const DAY_MS = 86_400_000;

/** The figures of daily_test_stats that add up across days (test_totals holds their sums). */
export const ADDITIVE = ['runs', 'passed', 'failed', 'skipped', 'passed_on_retry', 'scored_passed', 'scored_failed', 'attempts', 'changes', 'duration_sum', 'timed_runs'];

// The days a change touches, and what they held before it (test-totals.ts moves each total by the difference).
export const SNAPSHOT_TABLE = `CREATE TEMP TABLE IF NOT EXISTS rollup_old_days (
  test_id INTEGER NOT NULL, browser TEXT NOT NULL, day INTEGER NOT NULL, ${ADDITIVE.map((c) => `${c} NUMERIC NOT NULL`).join(', ')},
  duration_max REAL NOT NULL, first_outcome INTEGER, last_outcome INTEGER, last_run_at INTEGER NOT NULL, PRIMARY KEY (test_id, browser, day)) WITHOUT ROWID`;

/**
 * Each writing SQLite connection's scratch tables, made when it opens, outside any transaction:
 * a temp table made inside a transaction that rolls back would vanish under the cached statements.
 */
export function createRollupScratch(sqlite: SqliteDatabase): void {
  sqlite.exec('CREATE TEMP TABLE IF NOT EXISTS rollup_keys (test_id INTEGER NOT NULL, browser TEXT NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (test_id, browser, day)) WITHOUT ROWID');
  sqlite.exec(SNAPSHOT_TABLE);
  sqlite.exec(BRANCH_KEYS_TABLE);
  sqlite.exec(RUN_DAYS_TABLE);
  sqlite.exec(RUN_TOTALS_TABLE);
}

/**
 * A new run's daily_test_stats rows, bound once and then added from here to the day, branch and
 * period tables by INSERT … SELECT (rollups.ts addRunToRollups): binding each row once per table
 * cost more than the tables' own inserts. Its columns are daily_test_stats's, without keys or checks.
 */
const RUN_DAYS_TABLE = 'CREATE TEMP TABLE IF NOT EXISTS rollup_run_days AS SELECT * FROM daily_test_stats WHERE false';

/** A new run's test_totals rows, bound once and added from here to test_totals and its branch's branch_test_totals. */
const RUN_TOTALS_TABLE = 'CREATE TEMP TABLE IF NOT EXISTS rollup_run_totals AS SELECT * FROM test_totals WHERE false';

/** The branch rollup's touched keys (branch_day_stats's key): the branches of the changed runs, on the days they touch. */
const BRANCH_KEYS_TABLE = `CREATE TEMP TABLE IF NOT EXISTS rollup_branch_keys (branch_id INTEGER NOT NULL, test_id INTEGER NOT NULL, browser TEXT NOT NULL, day INTEGER NOT NULL,
  PRIMARY KEY (branch_id, test_id, browser, day)) WITHOUT ROWID`;

/** The keys of a daily rollup row: daily_test_stats's, and branch_day_stats's with the branch first. */
export const DAY_KEYS = ['test_id', 'browser', 'day'] as const;
export const BRANCH_DAY_KEYS = ['branch_id', ...DAY_KEYS] as const;

/**
 * The rollup rows of the results `scoped` selects (a CTE body: rollups.ts byKeys, or the
 * branch rollup's scopes, which also carry `branch_id`), in the SQL of `t`'s engine. `keys` is
 * what a row is per: DAY_KEYS for every branch, BRANCH_DAY_KEYS per branch; the figures are the
 * same. The outcome of one attempt for flakiness: 1 passed (as expected), 0 failed; skipped and
 * interrupted attempts say nothing about the test and are left out.
 */
export const aggregate = (scoped: string, t: Dialect, keys: readonly string[] = DAY_KEYS) => {
  const list = (prefix: string) => keys.map((k) => `${prefix}${k}`).join(', ');
  return `
  WITH scoped AS (${scoped}),
  outcomes AS (
    SELECT ${list('s.')}, s.started_at, s.id, a.retry,
      CASE WHEN a.status IN ('skipped', 'interrupted') THEN NULL WHEN a.status = s.expected_status THEN 1 ELSE 0 END AS outcome
    FROM scoped s JOIN attempts a ON a.result_id = s.id
    WHERE s.outage = 0
  ),
  ordered AS (
    SELECT ${list('')}, outcome,
      LAG(outcome) OVER w AS previous,
      ROW_NUMBER() OVER w AS n
    FROM outcomes WHERE outcome IS NOT NULL
    -- Results that started at the same moment keep their stored order (id), and each one's
    -- retries stay together: the order is total, so appending a later run equals a rebuild.
    WINDOW w AS (PARTITION BY ${list('')} ORDER BY started_at, id, retry)
  ),
  flips AS (
    SELECT ${list('')}, count(*) AS attempts, sum(${t.boolInt('previous IS NOT NULL AND previous != outcome')}) AS changes,
      max(CASE WHEN n = 1 THEN outcome END) AS first_outcome,
      -- The last attempt's outcome (0 or 1) rides in the low bit of its number: one sort, not two.
      max(n * 2 + outcome) % 2 AS last_outcome
    FROM ordered GROUP BY ${list('')}
  )
  SELECT ${list('s.')},
    count(*),
    sum(${t.boolInt("s.status = 'passed'")}),
    sum(${t.boolInt("s.status IN ('failed', 'timedOut')")}),
    sum(${t.boolInt("s.status = 'skipped'")}),
    sum(${t.boolInt('s.outage = 0 AND s.passed_on_retry != 0')}),
    coalesce(sum(CASE WHEN s.status != 'skipped' THEN s.duration_ms END), 0),
    coalesce(max(CASE WHEN s.status != 'skipped' THEN s.duration_ms END), 0),
    sum(${t.boolInt("s.status != 'skipped'")}),
    sum(${t.boolInt('s.outage = 0')}),
    sum(${t.boolInt("s.outage = 0 AND s.status = 'passed'")}),
    sum(${t.boolInt("s.outage = 0 AND s.status IN ('failed', 'timedOut')")}),
    coalesce(max(f.attempts), 0),
    coalesce(max(f.changes), 0),
    max(f.first_outcome),
    max(f.last_outcome),
    max(s.started_at)
  FROM scoped s
  LEFT JOIN flips f ON ${keys.map((k) => `f.${k} = s.${k}`).join(' AND ')}
  WHERE true
  GROUP BY ${list('s.')}`;
};

/**
 * The results of every run on a branch, for filling branch_day_stats from scratch (migration
 * 18, and the tests' rebuild): a run without a branch is on none, as the branch filter reads it.
 */
export const ALL_BRANCH_RESULTS = `
    SELECT b.id AS branch_id, r.id, r.test_id, r.browser, r.started_at / ${DAY_MS} AS day, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM branches b JOIN runs ON runs.git_branch = b.name JOIN results r ON r.run_id = runs.id`;

/**
 * A coarser rollup than the day (month_stats, week_stats): the same figures per test, browser and
 * period, the period keyed by the UTC day it starts on. Described once per grain; the writers
 * (rollups.ts) and the readers (read/window-split.ts) take the grain.
 */
export interface Grain {
  /** The table and its period column. */
  table: 'month_stats' | 'week_stats';
  /** The same figures per branch (branch_day_stats's periods), keyed (branch, period, test, browser). */
  branchTable: 'branch_month_stats' | 'branch_week_stats';
  key: 'month' | 'week';
  /** The most days a period spans: a period's days are read from its first day to this many after. */
  span: number;
  /** The UTC day that starts the period of UTC day `day`. */
  of(day: number): number;
  /** The UTC day that starts the period after the one starting on `start`. */
  after(start: number): number;
  /** `of` in the SQL of `t`'s engine. */
  sqlOf(t: Dialect, day: string): string;
}

/** Dialect.monthOf in JavaScript: the UTC day that starts the calendar month of UTC day `day`. */
export function monthOf(day: number): number {
  const date = new Date(day * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}

/** The UTC day that starts the month after the one starting on UTC day `month`. */
export function monthAfter(month: number): number {
  const date = new Date(month * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS;
}

/** Calendar months (Dialect.monthOf). */
export const MONTH: Grain = { table: 'month_stats', branchTable: 'branch_month_stats', key: 'month', span: 31, of: monthOf, after: monthAfter, sqlOf: (t, day) => t.monthOf(day) };

/**
 * Weeks starting on Monday: UTC day 0 (1 January 1970) was a Thursday, so a day's Monday is
 * (day + 3) % 7 days before it. Days are never negative, and the arithmetic is the same on both engines.
 */
export const WEEK: Grain = { table: 'week_stats', branchTable: 'branch_week_stats', key: 'week', span: 7, of: (day) => day - ((day + 3) % 7), after: (week) => week + 7, sqlOf: (_t, day) => `(${day}) - ((${day}) + 3) % 7` };

/** Every coarser rollup, coarsest first: a window reads whole months, then whole weeks, then days. */
export const GRAINS: readonly Grain[] = [MONTH, WEEK];

/**
 * A grain's rows (rollup-columns.ts periodRollup's order, or branchPeriodRollup's when `branch`)
 * from the day rows `days` selects (a CTE body of d.* and their period, named as the grain's
 * key: daily_test_stats's, or branch_day_stats's with their branch_id), in the SQL of `t`'s
 * engine. The sums add up; the period's first and last outcome are those of its first and last
 * day with attempts; its changes are its days' plus those between its consecutive days with
 * attempts (the same rule as test-totals.ts rebuildSelect), so periods compose as days do: a
 * window's changes are its periods' and days' plus those between them, counted from the first
 * and last outcomes in order.
 */
export const periodsOfDays = (days: string, t: Dialect, grain: Grain, branch = false) => {
  const keys = `${branch ? 'branch_id, ' : ''}test_id, browser, ${grain.key}`;
  return `
  WITH d AS (${days}),
  -- Days with attempts and days without are apart (the partition's last key): a change is
  -- between consecutive days with attempts. One pass, no join back: a planner that expects few
  -- day rows would otherwise read the edges again for each of them.
  edges AS (
    SELECT d.*, LAG(last_outcome) OVER (PARTITION BY ${keys}, attempts > 0 ORDER BY day) AS previous
    FROM d
  )
  -- The first and last day's outcome (0 or 1, set on a day with attempts) ride in the lowest bit
  -- of day * 2 + outcome, so the smallest and largest pick them with no second ordering of the
  -- rows: two row numbers, one in each direction, cost a sort each (a month of 50,000 tests'
  -- days: 4.1 s against 2.9 s).
  SELECT ${keys}, sum(runs), sum(passed), sum(failed), sum(skipped), sum(passed_on_retry), sum(duration_sum),
    max(duration_max), sum(timed_runs), sum(scored_runs), sum(scored_passed), sum(scored_failed), sum(attempts),
    sum(changes) + sum(${t.boolInt('attempts > 0 AND previous IS NOT NULL AND previous != first_outcome')}),
    min(CASE WHEN attempts > 0 THEN day * 2 + first_outcome END) % 2, max(CASE WHEN attempts > 0 THEN day * 2 + last_outcome END) % 2, max(last_run_at)
  FROM edges
  GROUP BY ${keys}`;
};

/** Every stored day with its period, for filling a grain's table from scratch (migrations 19 and 20, and the tests' rebuild). */
export const allDaysBy = (t: Dialect, grain: Grain) => `SELECT d.*, ${grain.sqlOf(t, 'd.day')} AS ${grain.key} FROM daily_test_stats d`;

/** Every branch's stored days with their period, for filling a grain's branch table from scratch (migration 21, and the tests' rebuild). */
export const allBranchDaysBy = (t: Dialect, grain: Grain) => `SELECT d.*, ${grain.sqlOf(t, 'd.day')} AS ${grain.key} FROM branch_day_stats d`;

/**
 * branch_test_totals' rows (rollup-columns.ts BRANCH_TOTAL_ROLLUP's order) from the month rows
 * `months` selects (a CTE body of branch_month_stats rows), in the SQL of `t`'s engine: the sums
 * of a branch's months plus the changes between its consecutive months with attempts, its first
 * and last outcome those of its first and last month with attempts (months compose as days do:
 * periodsOfDays), so a key rebuilt from its dozen months per year equals one summed from its
 * days. The latest failure is looked up in the results of the last month with one, on the
 * branch's runs: the 31 days from that month's first reach into the next month only where the
 * branch has no failure.
 */
export const branchTotalsOfMonths = (months: string, t: Dialect) => `
  WITH m AS (${months}),
  edges AS (
    SELECT m.*, LAG(last_outcome) OVER (PARTITION BY branch_id, test_id, browser, attempts > 0 ORDER BY month) AS previous
    FROM m
  ),
  k AS (
    SELECT branch_id, test_id, browser, sum(runs) AS runs, sum(passed) AS passed, sum(failed) AS failed, sum(skipped) AS skipped,
      sum(passed_on_retry) AS passed_on_retry, sum(scored_passed) AS scored_passed, sum(scored_failed) AS scored_failed, sum(attempts) AS attempts,
      sum(changes) + sum(${t.boolInt('attempts > 0 AND previous IS NOT NULL AND previous != first_outcome')}) AS changes,
      sum(duration_sum) AS duration_sum, max(duration_max) AS duration_max, sum(timed_runs) AS timed_runs,
      min(CASE WHEN attempts > 0 THEN month * 2 + first_outcome END) % 2 AS first_outcome,
      max(CASE WHEN attempts > 0 THEN month * 2 + last_outcome END) % 2 AS last_outcome,
      max(last_run_at) AS last_run_at, max(CASE WHEN failed > 0 THEN month END) AS last_failed_month
    FROM edges GROUP BY branch_id, test_id, browser
  )
  SELECT branch_id, test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes,
    duration_sum, duration_max, timed_runs, first_outcome, last_outcome, last_run_at,
    (SELECT max(r.started_at) FROM results r JOIN runs ON runs.id = r.run_id
      WHERE r.test_id = k.test_id AND r.browser = k.browser AND r.status IN ('failed', 'timedOut')
        AND r.started_at >= k.last_failed_month * ${DAY_MS} AND r.started_at < (k.last_failed_month + ${MONTH.span}) * ${DAY_MS}
        AND runs.git_branch = (SELECT b.name FROM branches b WHERE b.id = k.branch_id))
  FROM k`;
