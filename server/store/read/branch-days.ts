import type { DayRange } from './analytics.js';
import { dialectFor, postgresDialect, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';
import { aggregate, STATS_COLUMNS } from '../write/rollups.js';
import { DAY_MS } from '../engine/rollup-shape.js';

/**
 * The daily rollup of one branch. daily_test_stats sums every branch; a branch's figures are
 * made when asked, by the rollup's own aggregation over that branch's runs in the window
 * (runs_branch_started finds them, results_run their results), into a temporary table with
 * the same columns. The queries that read daily_test_stats then read it instead (onBranch),
 * so a branch's figures follow the same rules as everyone's. Cost: the branch's results in the
 * window, on the analytics worker's connection; answers are cached like any other.
 * The table lives on one connection: fill and read it inside onOneConnection (one-connection.ts).
 */
const TABLE = 'branch_days';

const createSql = (dialect: DialectName) => {
  const [int, real, end] = dialect === 'postgres' ? ['BIGINT', 'DOUBLE PRECISION', dialectFor(dialect).tempTableEnd] : ['INTEGER', 'REAL', ' WITHOUT ROWID'];
  return `CREATE TEMP TABLE IF NOT EXISTS ${TABLE} (
  test_id ${int} NOT NULL, browser TEXT NOT NULL, day ${int} NOT NULL, runs ${int} NOT NULL, passed ${int} NOT NULL, failed ${int} NOT NULL,
  skipped ${int} NOT NULL, passed_on_retry ${int} NOT NULL, duration_sum ${real} NOT NULL, duration_max ${real} NOT NULL, timed_runs ${int} NOT NULL,
  scored_runs ${int} NOT NULL, scored_passed ${int} NOT NULL, scored_failed ${int} NOT NULL, attempts ${int} NOT NULL, changes ${int} NOT NULL,
  first_outcome ${int}, last_outcome ${int}, last_run_at ${int} NOT NULL,
  PRIMARY KEY (test_id, browser, day))${end}`;
};

// A run may start before midnight and its results after: runs are found from a day earlier,
// results kept by their own start, as the rollup buckets them. PostgreSQL would type a
// parameter in arithmetic as 32-bit: it gets that bound computed (@runsFromMs). SQLite keeps
// its text (a bare parameter there measured 5 % slower on main's whole history, a cast one 20 times).
const byBranch = (runsFrom: string) => `
    SELECT r.id, r.test_id, r.browser, r.started_at / ${DAY_MS} AS day, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM runs JOIN results r ON r.run_id = runs.id
    WHERE runs.git_branch = @branch AND runs.started_at >= ${runsFrom} AND runs.started_at < @toMs
      AND r.started_at >= @fromMs AND r.started_at < @toMs`;

// Built once per engine: SQLite's statement cache is keyed by the text (sql.ts).
const TEXTS = {
  sqlite: {
    create: createSql('sqlite'),
    clear: `DELETE FROM temp.${TABLE}`,
    fill: `INSERT INTO temp.${TABLE} (${STATS_COLUMNS}) ${aggregate(byBranch(`@fromMs - ${DAY_MS}`))}`,
  },
  postgres: {
    create: createSql('postgres'),
    clear: `DELETE FROM pg_temp.${TABLE}`,
    fill: `INSERT INTO pg_temp.${TABLE} (${STATS_COLUMNS}) ${aggregate(byBranch('@runsFromMs'), postgresDialect)}`,
  },
} as const;

/**
 * Fills the branch's daily rows for the days of `range`; the previous fill is dropped. `store`
 * must be a view of onOneConnection, and the reads of these rows go through the same view.
 */
export async function fillBranchDays(store: AnyStore, branch: string, range: DayRange): Promise<void> {
  const texts = TEXTS[store.dialect];
  await store.sql.run(texts.create);
  await store.sql.run(texts.clear);
  const bounds = { branch, fromMs: range.from * DAY_MS, toMs: (range.to + 1) * DAY_MS };
  await store.sql.run(texts.fill, store.dialect === 'postgres' ? { ...bounds, runsFromMs: bounds.fromMs - DAY_MS } : bounds);
}

/** The same query over the filled branch's rows instead of every branch's. */
export const onBranch = (sql: string, dialect: DialectName = 'sqlite'): string =>
  sql.replace(/\bdaily_test_stats\b/g, `${dialect === 'postgres' ? 'pg_temp' : 'temp'}.${TABLE}`);

/** The days a branch answer reads: its window and the trend periods before today. */
export const spanOf = (...ranges: DayRange[]): DayRange => ({ from: Math.min(...ranges.map((r) => r.from)), to: Math.max(...ranges.map((r) => r.to)) });
