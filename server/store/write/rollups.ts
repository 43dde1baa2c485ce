import { sqliteDialect, type Dialect } from '../engine/dialect.js';
import type { SqliteDatabase } from '../engine/types.js';
import { DAY_MS } from '../engine/rollup-shape.js';
import { testTotalsWriter, moveTestTotalsByDays, runIsLatestForTotals, snapshotDays } from './test-totals.js';
import { perConnection } from '../engine/per-connection.js';
import { ValuesWriter, type RunRows } from './run-figures.js';
import { addToStored, columnList, DAY_ROLLUP, ERROR_ROLLUP } from './rollup-columns.js';

export const STATS_COLUMNS = columnList(DAY_ROLLUP);

/** The results of the touched keys' days, read key by key (dialect.ts keysFirstJoin): imports stay as fast as history grows. */
export const byKeys = (t: Dialect) => `
    SELECT r.id, r.test_id, r.browser, k.day, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM rollup_keys k
    ${t.keysFirstJoin} results r ON r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.day * ${DAY_MS} AND r.started_at < (k.day + 1) * ${DAY_MS}
    JOIN runs ON runs.id = r.run_id`;

/**
 * The rollup rows of the results `scoped` selects (a CTE body: byKeys, or branch-days.ts), in
 * the SQL of `t`'s engine (rollups-postgres.ts rebuilds with the same text on PostgreSQL). The
 * outcome of one attempt for flakiness: 1 passed (as expected), 0 failed; skipped and
 * interrupted attempts say nothing about the test and are left out.
 */
export const aggregate = (scoped: string, t: Dialect = sqliteDialect) => `
  WITH scoped AS (${scoped}),
  outcomes AS (
    SELECT s.test_id, s.browser, s.day, s.started_at, s.id, a.retry,
      CASE WHEN a.status IN ('skipped', 'interrupted') THEN NULL WHEN a.status = s.expected_status THEN 1 ELSE 0 END AS outcome
    FROM scoped s JOIN attempts a ON a.result_id = s.id
    WHERE s.outage = 0
  ),
  ordered AS (
    SELECT test_id, browser, day, outcome,
      LAG(outcome) OVER w AS previous,
      ROW_NUMBER() OVER w AS n
    FROM outcomes WHERE outcome IS NOT NULL
    -- Results that started at the same moment keep their stored order (id), and each one's
    -- retries stay together: the order is total, so appending a later run equals a rebuild.
    WINDOW w AS (PARTITION BY test_id, browser, day ORDER BY started_at, id, retry)
  ),
  flips AS (
    SELECT test_id, browser, day, count(*) AS attempts, sum(${t.boolInt('previous IS NOT NULL AND previous != outcome')}) AS changes,
      max(CASE WHEN n = 1 THEN outcome END) AS first_outcome,
      -- The last attempt's outcome (0 or 1) rides in the low bit of its number: one sort, not two.
      max(n * 2 + outcome) % 2 AS last_outcome
    FROM ordered GROUP BY test_id, browser, day
  )
  SELECT s.test_id, s.browser, s.day,
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
  LEFT JOIN flips f ON f.test_id = s.test_id AND f.browser = s.browser AND f.day = s.day
  WHERE true
  GROUP BY s.test_id, s.browser, s.day`;

const REBUILD = `INSERT INTO daily_test_stats (${STATS_COLUMNS}) ${aggregate(byKeys(sqliteDialect))}`;

// A run that comes after everything stored for its days adds to the rows: counts add up, and
// the change between the stored last attempt and the run's first one is counted once.
const ADD_TO_DAYS = addToStored(DAY_ROLLUP, sqliteDialect);
const ADD_TO_ERRORS = addToStored(ERROR_ROLLUP, sqliteDialect);

/** Out of order: some stored result of the same test, browser and day is not older than run @run. */
export const OVERLAPS_DAYS = `
  SELECT CASE WHEN EXISTS (
    SELECT 1 FROM (
      SELECT test_id, browser, started_at / ${DAY_MS} AS day, min(started_at) AS first
      FROM results WHERE run_id = @run GROUP BY test_id, browser, started_at / ${DAY_MS}
    ) n
    JOIN daily_test_stats d ON d.test_id = n.test_id AND d.browser = n.browser AND d.day = n.day
    WHERE d.last_run_at >= n.first
  ) THEN 1 ELSE 0 END`;

export const rebuildErrors = (t: Dialect) => `
  INSERT INTO daily_error_stats (${columnList(ERROR_ROLLUP)})
  SELECT r.test_id, r.browser, k.day, r.error_fingerprint, count(*)
  FROM rollup_keys k
  ${t.keysFirstJoin} results r ON r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.day * ${DAY_MS} AND r.started_at < (k.day + 1) * ${DAY_MS}
  WHERE r.error_fingerprint IS NOT NULL AND r.status IN ('failed', 'timedOut')
  GROUP BY r.test_id, r.browser, k.day, r.error_fingerprint`;

/**
 * The scratch table of the keys a change touches. Made when the store opens, outside any
 * transaction: made inside one that rolls back, it would vanish under the cached statements.
 */

/**
 * The statements about the touched keys that read the same on both engines (rollups-postgres.ts
 * runs them too); only how the keys are gathered differs (one run here, a list of runs there).
 * `rollup_keys` unqualified: the temporary table, found before any other of that name.
 */
export const CLEAR_KEYS = 'DELETE FROM rollup_keys';
export const DROP_STALE = 'DELETE FROM daily_test_stats WHERE (test_id, browser, day) IN (SELECT test_id, browser, day FROM rollup_keys)';
export const DROP_STALE_ERRORS = 'DELETE FROM daily_error_stats WHERE (test_id, browser, day) IN (SELECT test_id, browser, day FROM rollup_keys)';

function prepare(sqlite: SqliteDatabase) {
  return {
    clearKeys: sqlite.prepare(CLEAR_KEYS),
    keysOfRun: sqlite.prepare(`INSERT OR IGNORE INTO temp.rollup_keys SELECT DISTINCT test_id, browser, started_at / ${DAY_MS} FROM results WHERE run_id = ?`),
    dropStale: sqlite.prepare(DROP_STALE),
    dropStaleErrors: sqlite.prepare(DROP_STALE_ERRORS),
    rebuild: sqlite.prepare(REBUILD),
    rebuildErrors: sqlite.prepare(rebuildErrors(sqliteDialect)),
    overlaps: sqlite.prepare(OVERLAPS_DAYS).pluck(),
    dayRows: new Map<number, ReturnType<SqliteDatabase['prepare']>>(),
    errorRows: new Map<number, ReturnType<SqliteDatabase['prepare']>>(),
  };
}

const statementsFor = perConnection(prepare);

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
  // The touched days as they were: the totals move by the difference (test-totals.ts).
  snapshotDays(sqlite);
  s.dropStale.run();
  s.dropStaleErrors.run();
  s.rebuild.run();
  s.rebuildErrors.run();
  moveTestTotalsByDays(sqlite);
  s.clearKeys.run();
  return result;
}

/**
 * A newly stored run's rollups. Imports mostly arrive in time order, and then the run only adds
 * to its days (a rebuild would read every stored result of those days again, so imports would
 * slow down as history grows); a run older than something stored on one of its days falls back
 * to rebuilding those days. Must run inside the caller's transaction, after the results are in.
 */
export function addRunToRollups(sqlite: SqliteDatabase, runId: number, rows: RunRows): void {
  const s = statementsFor(sqlite);
  if (s.overlaps.get({ run: runId }) === 0) {
    // Later than what is stored on its days but older than a test's latest result (a report of
    // yesterday after today's): the days append, the totals move by the days' difference.
    const latest = runIsLatestForTotals(sqlite, runId);
    if (!latest) {
      s.clearKeys.run();
      s.keysOfRun.run(runId);
      snapshotDays(sqlite);
    }
    // The run's figures were gathered as it was written (run-figures.ts): its rows are not read again.
    const days = new ValuesWriter(sqlite, s.dayRows, `INSERT INTO daily_test_stats (${STATS_COLUMNS})`, ADD_TO_DAYS, DAY_ROLLUP.length);
    const errors = new ValuesWriter(sqlite, s.errorRows, `INSERT INTO daily_error_stats (${columnList(ERROR_ROLLUP)})`, ADD_TO_ERRORS, ERROR_ROLLUP.length);
    const totals = latest ? testTotalsWriter(sqlite) : null;
    rows({ day: (row) => days.add(row), error: (row) => errors.add(row), total: (row) => totals?.add(row) });
    days.finish();
    errors.finish();
    totals?.finish();
    if (!latest) {
      moveTestTotalsByDays(sqlite);
      s.clearKeys.run();
    }
    return;
  }
  withRollupRefresh(sqlite, [runId], () => undefined);
}
