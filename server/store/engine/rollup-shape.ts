import type { SqliteDatabase } from './types.js';

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
}
