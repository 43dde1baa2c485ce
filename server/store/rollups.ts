import type { SqliteDatabase } from './open.js';

export const DAY_MS = 86_400_000;

// CROSS JOIN keeps the keys as the outer loop: on tables without statistics SQLite would
// otherwise scan every result for each import, and imports would slow down as history grows.
// The outcome of one attempt for flakiness: 1 passed (as expected), 0 failed; skipped and
// interrupted attempts say nothing about the test and are left out.
const REBUILD = `
  INSERT INTO daily_test_stats (
    test_id, browser, day, runs, passed, failed, skipped, passed_on_retry, duration_sum, duration_max, timed_runs,
    scored_runs, scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, last_run_at
  )
  WITH scoped AS (
    SELECT r.id, r.test_id, r.browser, k.day, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM rollup_keys k
    CROSS JOIN results r ON r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.day * ${DAY_MS} AND r.started_at < (k.day + 1) * ${DAY_MS}
    JOIN runs ON runs.id = r.run_id
  ),
  outcomes AS (
    SELECT s.test_id, s.browser, s.day, s.started_at, a.retry,
      CASE WHEN a.status IN ('skipped', 'interrupted') THEN NULL WHEN a.status = s.expected_status THEN 1 ELSE 0 END AS outcome
    FROM scoped s JOIN attempts a ON a.result_id = s.id
    WHERE s.outage = 0
  ),
  ordered AS (
    SELECT test_id, browser, day, outcome,
      LAG(outcome) OVER w AS previous,
      ROW_NUMBER() OVER w AS n,
      ROW_NUMBER() OVER (PARTITION BY test_id, browser, day ORDER BY started_at DESC, retry DESC) AS from_end
    FROM outcomes WHERE outcome IS NOT NULL
    WINDOW w AS (PARTITION BY test_id, browser, day ORDER BY started_at, retry)
  ),
  flips AS (
    SELECT test_id, browser, day, count(*) AS attempts, sum(previous IS NOT NULL AND previous != outcome) AS changes,
      max(CASE WHEN n = 1 THEN outcome END) AS first_outcome, max(CASE WHEN from_end = 1 THEN outcome END) AS last_outcome
    FROM ordered GROUP BY test_id, browser, day
  )
  SELECT s.test_id, s.browser, s.day,
    count(*),
    sum(s.status = 'passed'),
    sum(s.status IN ('failed', 'timedOut')),
    sum(s.status = 'skipped'),
    sum(s.outage = 0 AND s.passed_on_retry),
    coalesce(sum(CASE WHEN s.status != 'skipped' THEN s.duration_ms END), 0),
    coalesce(max(CASE WHEN s.status != 'skipped' THEN s.duration_ms END), 0),
    sum(s.status != 'skipped'),
    sum(s.outage = 0),
    sum(s.outage = 0 AND s.status = 'passed'),
    sum(s.outage = 0 AND s.status IN ('failed', 'timedOut')),
    coalesce(max(f.attempts), 0),
    coalesce(max(f.changes), 0),
    max(f.first_outcome),
    max(f.last_outcome),
    max(s.started_at)
  FROM scoped s
  LEFT JOIN flips f ON f.test_id = s.test_id AND f.browser = s.browser AND f.day = s.day
  GROUP BY s.test_id, s.browser, s.day`;

const REBUILD_ERRORS = `
  INSERT INTO daily_error_stats (test_id, browser, day, fingerprint, occurrences)
  SELECT r.test_id, r.browser, k.day, r.error_fingerprint, count(*)
  FROM rollup_keys k
  CROSS JOIN results r ON r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.day * ${DAY_MS} AND r.started_at < (k.day + 1) * ${DAY_MS}
  WHERE r.error_fingerprint IS NOT NULL AND r.status IN ('failed', 'timedOut')
  GROUP BY r.test_id, r.browser, k.day, r.error_fingerprint`;

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<SqliteDatabase, Statements>();

/**
 * The scratch table of the keys a change touches. Made when the store opens, outside any
 * transaction: made inside one that rolls back, it would vanish under the cached statements.
 */
export function createRollupScratch(sqlite: SqliteDatabase): void {
  sqlite.exec('CREATE TEMP TABLE IF NOT EXISTS rollup_keys (test_id INTEGER NOT NULL, browser TEXT NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (test_id, browser, day)) WITHOUT ROWID');
}

function prepare(sqlite: SqliteDatabase) {
  return {
    clearKeys: sqlite.prepare('DELETE FROM temp.rollup_keys'),
    keysOfRun: sqlite.prepare(`INSERT OR IGNORE INTO temp.rollup_keys SELECT DISTINCT test_id, browser, started_at / ${DAY_MS} FROM results WHERE run_id = ?`),
    dropStale: sqlite.prepare('DELETE FROM daily_test_stats WHERE (test_id, browser, day) IN (SELECT test_id, browser, day FROM temp.rollup_keys)'),
    dropStaleErrors: sqlite.prepare('DELETE FROM daily_error_stats WHERE (test_id, browser, day) IN (SELECT test_id, browser, day FROM temp.rollup_keys)'),
    rebuild: sqlite.prepare(REBUILD),
    rebuildErrors: sqlite.prepare(REBUILD_ERRORS),
  };
}

function statementsFor(sqlite: SqliteDatabase): Statements {
  let statements = cache.get(sqlite);
  if (!statements) {
    statements = prepare(sqlite);
    cache.set(sqlite, statements);
  }
  return statements;
}

/**
 * Changes to a run's results (store, reject, delete) change the days they fall on: collect
 * those keys first, apply `change`, then rebuild exactly those rollup rows from what is left.
 * Must run inside the caller's transaction. Rebuilding a whole day per key, rather than adding
 * to it, keeps the rollup exact when reports arrive out of order.
 */
export function withRollupRefresh<T>(sqlite: SqliteDatabase, runIds: readonly number[], change: () => T): T {
  const s = statementsFor(sqlite);
  s.clearKeys.run();
  for (const id of runIds) s.keysOfRun.run(id);
  const result = change();
  for (const id of runIds) s.keysOfRun.run(id);
  s.dropStale.run();
  s.dropStaleErrors.run();
  s.rebuild.run();
  s.rebuildErrors.run();
  s.clearKeys.run();
  return result;
}

export function clearRollups(sqlite: SqliteDatabase): void {
  sqlite.exec('DELETE FROM daily_test_stats; DELETE FROM daily_error_stats; DELETE FROM error_samples; DELETE FROM browser_projects;');
}
