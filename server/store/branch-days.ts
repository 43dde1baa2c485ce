import type { DayRange } from './analytics.js';
import type { SqliteDatabase, Store } from './open.js';
import { perConnection } from './per-connection.js';
import { aggregate, DAY_MS, STATS_COLUMNS } from './rollups.js';

/**
 * The daily rollup of one branch. daily_test_stats sums every branch; a branch's figures are
 * made when asked, by the rollup's own aggregation over that branch's runs in the window
 * (runs_branch_started finds them, results_run their results), into a temporary table with
 * the same columns. The queries that read daily_test_stats then read it instead (onBranch),
 * so a branch's figures follow the same rules as everyone's. Cost: the branch's results in the
 * window, on the analytics worker's connection; answers are cached like any other.
 */
const TABLE = 'branch_days';

const CREATE = `CREATE TEMP TABLE IF NOT EXISTS ${TABLE} (
  test_id INTEGER NOT NULL, browser TEXT NOT NULL, day INTEGER NOT NULL, runs INTEGER NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL,
  skipped INTEGER NOT NULL, passed_on_retry INTEGER NOT NULL, duration_sum REAL NOT NULL, duration_max REAL NOT NULL, timed_runs INTEGER NOT NULL,
  scored_runs INTEGER NOT NULL, scored_passed INTEGER NOT NULL, scored_failed INTEGER NOT NULL, attempts INTEGER NOT NULL, changes INTEGER NOT NULL,
  first_outcome INTEGER, last_outcome INTEGER, last_run_at INTEGER NOT NULL,
  PRIMARY KEY (test_id, browser, day)) WITHOUT ROWID`;

// A run may start before midnight and its results after: runs are found from a day earlier,
// results kept by their own start, as the rollup buckets them.
const BY_BRANCH = `
    SELECT r.id, r.test_id, r.browser, r.started_at / ${DAY_MS} AS day, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM runs JOIN results r ON r.run_id = runs.id
    WHERE runs.git_branch = @branch AND runs.started_at >= @fromMs - ${DAY_MS} AND runs.started_at < @toMs
      AND r.started_at >= @fromMs AND r.started_at < @toMs`;

const statementsFor = perConnection((sqlite: SqliteDatabase) => {
  ensureBranchDays(sqlite);
  return {
    clear: sqlite.prepare(`DELETE FROM temp.${TABLE}`),
    fill: sqlite.prepare(`INSERT INTO temp.${TABLE} (${STATS_COLUMNS}) ${aggregate(BY_BRANCH)}`),
  };
});

/** Makes the temporary table exist on this connection (before statements that read it are prepared). */
export function ensureBranchDays(sqlite: SqliteDatabase): void {
  sqlite.exec(CREATE);
}

/** Fills the branch's daily rows for the days of `range`; the previous fill is dropped. */
export function fillBranchDays(store: Store, branch: string, range: DayRange): void {
  const s = statementsFor(store.sqlite);
  s.clear.run();
  s.fill.run({ branch, fromMs: range.from * DAY_MS, toMs: (range.to + 1) * DAY_MS });
}

/** The same query over the filled branch's rows instead of every branch's. */
export const onBranch = (sql: string): string => sql.replace(/\bdaily_test_stats\b/g, `temp.${TABLE}`);

/** The days a branch answer reads: its window and the trend periods before today. */
export const spanOf = (...ranges: DayRange[]): DayRange => ({ from: Math.min(...ranges.map((r) => r.from)), to: Math.max(...ranges.map((r) => r.to)) });
