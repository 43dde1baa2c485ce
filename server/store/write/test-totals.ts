import { sqliteDialect, type Dialect } from '../engine/dialect.js';
import { ADDITIVE, DAY_MS } from '../engine/rollup-shape.js';
import type { SqliteDatabase } from '../engine/types.js';
import { perConnection } from '../engine/per-connection.js';
import { columnList, TOTAL_ROLLUP } from './rollup-columns.js';

/**
 * test_totals: per test and browser over all history, what the flaky list and the all-time
 * slow list read. Derived from daily_test_stats (the sums of its days plus the pass/fail changes
 * between consecutive days with attempts) and from results (the latest failure), so a rebuild
 * of any key gives the same row as the incremental path below.
 */

export const TOTALS_COLUMNS = columnList(TOTAL_ROLLUP);

/** The rows of the keys `keyFilter` selects from daily_test_stats (a condition on d.test_id, d.browser). */
export const rebuildSelect = (keyFilter: string, t: Dialect = sqliteDialect) => `
  WITH d AS (SELECT * FROM daily_test_stats d WHERE ${keyFilter}),
  edges AS (
    SELECT test_id, browser, day, first_outcome, last_outcome,
      LAG(last_outcome) OVER (PARTITION BY test_id, browser ORDER BY day) AS previous
    FROM d WHERE attempts > 0
  ),
  -- The first and last day's outcome (0 or 1) in the lowest bit of day * 2 + outcome: no second
  -- ordering of the days (rollup-shape.ts periodsOfDays picks a period's the same way).
  boundaries AS (
    SELECT test_id, browser, sum(${t.boolInt('previous IS NOT NULL AND previous != first_outcome')}) AS changes,
      min(day * 2 + first_outcome) % 2 AS first_outcome, max(day * 2 + last_outcome) % 2 AS last_outcome
    FROM edges GROUP BY test_id, browser
  )
  SELECT test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes, duration_sum, duration_max,
    timed_runs, first_outcome, last_outcome, last_run_at,
    -- Only the results of the last day with a failure are read for its time.
    (SELECT max(r.started_at) FROM results r WHERE r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.last_failed_day * ${DAY_MS}
      AND r.started_at < (k.last_failed_day + 1) * ${DAY_MS} AND r.status IN ('failed', 'timedOut'))
  FROM (
    SELECT d.test_id, d.browser, sum(d.runs) AS runs, sum(d.passed) AS passed, sum(d.failed) AS failed, sum(d.skipped) AS skipped,
      sum(d.passed_on_retry) AS passed_on_retry, sum(d.scored_passed) AS scored_passed, sum(d.scored_failed) AS scored_failed, sum(d.attempts) AS attempts,
      sum(d.changes) + coalesce(max(b.changes), 0) AS changes, sum(d.duration_sum) AS duration_sum, max(d.duration_max) AS duration_max,
      sum(d.timed_runs) AS timed_runs, max(b.first_outcome) AS first_outcome, max(b.last_outcome) AS last_outcome, max(d.last_run_at) AS last_run_at,
      max(CASE WHEN d.failed > 0 THEN d.day END) AS last_failed_day
    FROM d LEFT JOIN boundaries b ON b.test_id = d.test_id AND b.browser = d.browser
    GROUP BY d.test_id, d.browser
  ) k`;

export const REBUILD_ALL_SQL = `INSERT INTO test_totals (${TOTALS_COLUMNS}) ${rebuildSelect('true')}`;

/** Out of order for the totals: some stored result of one of run @run's keys is not older than it. */
export const OVERLAPS_TOTALS = `
  SELECT CASE WHEN EXISTS (
    SELECT 1 FROM (SELECT test_id, browser, min(started_at) AS first FROM results WHERE run_id = @run GROUP BY test_id, browser) n
    JOIN test_totals t ON t.test_id = n.test_id AND t.browser = n.browser
    WHERE t.last_run_at >= n.first
  ) THEN 1 ELSE 0 END`;

// CROSS JOIN keeps the touched keys as the outer loop (as in rollups.ts): the temp tables have
// no statistics, and SQLite would otherwise scan all of daily_test_stats once.
// Changing days (a run rejected, deleted or pruned, or one imported out of order) moves each
// total by what its touched days held before and hold now: temp.rollup_old_days keeps those
// days as they were (snapshotDays), daily_test_stats has them rebuilt. Re-summing every day of
// every touched test instead took 19 s for one 50,000-result run at 1,000,000 results.
const DAY_SUMS = `${ADDITIVE.map((c) => `sum(d.${c}) AS ${c}`).join(', ')}, max(d.duration_max) AS duration_max, max(d.last_run_at) AS last_run_at,
  max(CASE WHEN d.failed > 0 THEN d.day END) AS failed_day`;
const SNAPSHOT_COLUMNS = `test_id, browser, day, ${ADDITIVE.join(', ')}, duration_max, first_outcome, last_outcome, last_run_at`;

const SNAPSHOT = `INSERT INTO temp.rollup_old_days (${SNAPSHOT_COLUMNS})
  SELECT ${SNAPSHOT_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')}
  FROM temp.rollup_keys k CROSS JOIN daily_test_stats d ON d.test_id = k.test_id AND d.browser = k.browser AND d.day = k.day`;

const KEY = (alias: string) => `${alias}.test_id = t.test_id AND ${alias}.browser = t.browser`;
const FAILED_ON = (day: string) => `(SELECT max(r.started_at) FROM results r WHERE ${KEY('r')} AND r.status IN ('failed', 'timedOut')
  AND r.started_at >= (${day}) * ${DAY_MS} AND r.started_at < ((${day}) + 1) * ${DAY_MS})`;
const LAST_FAILED_IN_TOUCHED = `(t.last_failed_at IS NOT NULL AND EXISTS (SELECT 1 FROM temp.rollup_keys k WHERE ${KEY('k')} AND k.day = t.last_failed_at / ${DAY_MS}))`;

export const MOVE_BY_DAYS_SQL = `
  WITH keys AS (SELECT test_id, browser, min(day) AS first_day, max(day) AS last_day FROM temp.rollup_keys GROUP BY test_id, browser),
  old AS (SELECT d.test_id, d.browser, ${DAY_SUMS}
    FROM temp.rollup_old_days d GROUP BY d.test_id, d.browser),
  new AS (SELECT d.test_id, d.browser, ${DAY_SUMS}
    FROM temp.rollup_keys k CROSS JOIN daily_test_stats d ON d.test_id = k.test_id AND d.browser = k.browser AND d.day = k.day GROUP BY d.test_id, d.browser),
  -- The changes between days: only pairs of consecutive days with attempts that span a touched
  -- day can differ, and they all lie between the last day with attempts before the first touched
  -- day and the first one after the last (the days outside are the same before and after).
  span AS MATERIALIZED (
    SELECT k.test_id, k.browser,
      coalesce((SELECT d.day FROM daily_test_stats d WHERE d.test_id = k.test_id AND d.browser = k.browser AND d.day < k.first_day AND d.attempts > 0 ORDER BY d.day DESC LIMIT 1), k.first_day) AS lo,
      coalesce((SELECT d.day FROM daily_test_stats d WHERE d.test_id = k.test_id AND d.browser = k.browser AND d.day > k.last_day AND d.attempts > 0 ORDER BY d.day LIMIT 1), k.last_day) AS hi
    FROM keys k
  ),
  now_days AS MATERIALIZED (
    SELECT d.test_id, d.browser, d.day, d.first_outcome, d.last_outcome
    FROM span s CROSS JOIN daily_test_stats d ON d.test_id = s.test_id AND d.browser = s.browser AND d.day BETWEEN s.lo AND s.hi WHERE d.attempts > 0
  ),
  then_days AS (
    SELECT test_id, browser, day, first_outcome, last_outcome FROM now_days n
    WHERE NOT EXISTS (SELECT 1 FROM temp.rollup_keys k WHERE k.test_id = n.test_id AND k.browser = n.browser AND k.day = n.day)
    UNION ALL
    SELECT test_id, browser, day, first_outcome, last_outcome FROM temp.rollup_old_days WHERE attempts > 0
  ),
  -- Each sequence on its own window: no sort of the two together.
  flips_now AS (
    SELECT test_id, browser, sum(previous IS NOT NULL AND previous != first_outcome) AS n
    FROM (SELECT *, LAG(last_outcome) OVER (PARTITION BY test_id, browser ORDER BY day) AS previous FROM now_days) GROUP BY test_id, browser
  ),
  flips_then AS (
    SELECT test_id, browser, sum(previous IS NOT NULL AND previous != first_outcome) AS n
    FROM (SELECT *, LAG(last_outcome) OVER (PARTITION BY test_id, browser ORDER BY day) AS previous FROM then_days) GROUP BY test_id, browser
  ),
  c AS (
    SELECT k.test_id, k.browser, ${ADDITIVE.map((col) => `coalesce(n.${col}, 0) - coalesce(o.${col}, 0) AS d_${col}`).join(', ')},
      o.duration_max AS old_max, n.duration_max AS new_max, o.last_run_at AS old_last, n.last_run_at AS new_last, n.failed_day AS new_failed_day,
      coalesce(fn.n, 0) - coalesce(ft.n, 0) AS flips
    FROM keys k LEFT JOIN old o ON o.test_id = k.test_id AND o.browser = k.browser LEFT JOIN new n ON n.test_id = k.test_id AND n.browser = k.browser
      LEFT JOIN flips_now fn ON fn.test_id = k.test_id AND fn.browser = k.browser
      LEFT JOIN flips_then ft ON ft.test_id = k.test_id AND ft.browser = k.browser
  )
  UPDATE test_totals AS t SET
    ${ADDITIVE.map((col) => `${col} = t.${col} + c.d_${col}${col === 'changes' ? ' + c.flips' : ''}`).join(',\n    ')},
    -- A maximum that was on a touched day is looked for again; otherwise it stands or a touched day beats it.
    duration_max = CASE WHEN coalesce(c.old_max, -1) < t.duration_max THEN max(t.duration_max, coalesce(c.new_max, 0))
      ELSE coalesce((SELECT max(d.duration_max) FROM daily_test_stats d WHERE ${KEY('d')}), 0) END,
    last_run_at = CASE WHEN coalesce(c.old_last, -1) < t.last_run_at THEN max(t.last_run_at, coalesce(c.new_last, 0))
      ELSE coalesce((SELECT d.last_run_at FROM daily_test_stats d WHERE ${KEY('d')} ORDER BY d.day DESC LIMIT 1), 0) END,
    first_outcome = (SELECT d.first_outcome FROM daily_test_stats d WHERE ${KEY('d')} AND d.attempts > 0 ORDER BY d.day LIMIT 1),
    last_outcome = (SELECT d.last_outcome FROM daily_test_stats d WHERE ${KEY('d')} AND d.attempts > 0 ORDER BY d.day DESC LIMIT 1),
    last_failed_at = CASE
      WHEN NOT ${LAST_FAILED_IN_TOUCHED} AND (c.new_failed_day IS NULL OR c.new_failed_day < t.last_failed_at / ${DAY_MS}) THEN t.last_failed_at
      WHEN NOT ${LAST_FAILED_IN_TOUCHED} THEN ${FAILED_ON('c.new_failed_day')}
      ELSE ${FAILED_ON(`SELECT d.day FROM daily_test_stats d WHERE ${KEY('d')} AND d.failed > 0 ORDER BY d.day DESC LIMIT 1`)} END
  FROM c WHERE t.test_id = c.test_id AND t.browser = c.browser`;

// A test whose touched days held all its results has no total left; one seen first on them gets one.
const DROP_EMPTY = 'DELETE FROM test_totals WHERE runs <= 0 AND (test_id, browser) IN (SELECT test_id, browser FROM temp.rollup_keys)';
const ADD_NEW_KEYS = `INSERT INTO test_totals (${TOTALS_COLUMNS}) ${rebuildSelect(
  '(d.test_id, d.browser) IN (SELECT k.test_id, k.browser FROM temp.rollup_keys k WHERE NOT EXISTS (SELECT 1 FROM test_totals t WHERE t.test_id = k.test_id AND t.browser = k.browser))',
)}`;

function prepare(sqlite: SqliteDatabase) {
  return {
    overlaps: sqlite.prepare(OVERLAPS_TOTALS).pluck(),
    clearSnapshot: sqlite.prepare('DELETE FROM temp.rollup_old_days'),
    snapshot: sqlite.prepare(SNAPSHOT),
    moveByDays: sqlite.prepare(MOVE_BY_DAYS_SQL),
    dropEmpty: sqlite.prepare(DROP_EMPTY),
    addNewKeys: sqlite.prepare(ADD_NEW_KEYS),
  };
}

const statementsFor = perConnection(prepare);

/** In time order for every key of the run (the usual case): the run only adds to the totals (rollups.ts addRunToRollups). */
export function runIsLatestForTotals(sqlite: SqliteDatabase, runId: number): boolean {
  return statementsFor(sqlite).overlaps.get({ run: runId }) === 0;
}

/** Keeps the touched days (temp.rollup_keys) as they are now: call before they are rebuilt. */
export function snapshotDays(sqlite: SqliteDatabase): void {
  const s = statementsFor(sqlite);
  s.clearSnapshot.run();
  s.snapshot.run();
}

/** The totals of the keys in temp.rollup_keys, moved by what their days held (snapshotDays) and hold now. */
export function moveTestTotalsByDays(sqlite: SqliteDatabase): void {
  const s = statementsFor(sqlite);
  s.moveByDays.run();
  s.dropEmpty.run();
  s.addNewKeys.run();
  s.clearSnapshot.run();
}

/** Every key from scratch: the migration that adds the table, and tests that compare. */
export function rebuildAllTestTotals(sqlite: SqliteDatabase): void {
  sqlite.exec('DELETE FROM test_totals');
  sqlite.prepare(REBUILD_ALL_SQL).run();
}
