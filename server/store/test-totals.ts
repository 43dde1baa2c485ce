import type { SqliteDatabase } from './open.js';
import { perConnection } from './per-connection.js';


/**
 * test_totals: per test and browser over all history, what the flaky list and the all-time
 * slow list read. Derived from daily_test_stats (the sums of its days plus the pass/fail changes
 * between consecutive days with attempts) and from results (the latest failure), so a rebuild
 * of any key gives the same row as the incremental path below.
 */
// rollups.ts's day length; not imported from there, since rollups.ts imports this file.
const DAY_MS = 86_400_000;

const COLUMNS = `test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes,
  duration_sum, duration_max, timed_runs, first_outcome, last_outcome, last_run_at, last_failed_at`;

/** The rows of the keys `keyFilter` selects from daily_test_stats (a condition on d.test_id, d.browser). */
const rebuildSelect = (keyFilter: string) => `
  WITH d AS (SELECT * FROM daily_test_stats d WHERE ${keyFilter}),
  edges AS (
    SELECT test_id, browser, first_outcome, last_outcome,
      LAG(last_outcome) OVER (PARTITION BY test_id, browser ORDER BY day) AS previous,
      ROW_NUMBER() OVER (PARTITION BY test_id, browser ORDER BY day) AS n,
      ROW_NUMBER() OVER (PARTITION BY test_id, browser ORDER BY day DESC) AS from_end
    FROM d WHERE attempts > 0
  ),
  boundaries AS (
    SELECT test_id, browser, sum(previous IS NOT NULL AND previous != first_outcome) AS changes,
      max(CASE WHEN n = 1 THEN first_outcome END) AS first_outcome, max(CASE WHEN from_end = 1 THEN last_outcome END) AS last_outcome
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

const REBUILD_KEYS = `INSERT INTO test_totals (${COLUMNS}) ${rebuildSelect('(d.test_id, d.browser) IN (SELECT DISTINCT test_id, browser FROM temp.rollup_keys)')}`;
export const REBUILD_ALL_SQL = `INSERT INTO test_totals (${COLUMNS}) ${rebuildSelect('true')}`;

// One run's results per test and browser, in time order across its days (one result's retries
// together), with the same outcome rule as the daily rollup (rollups.ts).
const RUN_TOTALS = `
  WITH scoped AS (
    SELECT r.id, r.test_id, r.browser, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM results r JOIN runs ON runs.id = r.run_id WHERE r.run_id = @runId
  ),
  outcomes AS (
    SELECT s.test_id, s.browser, s.started_at, s.id, a.retry,
      CASE WHEN a.status IN ('skipped', 'interrupted') THEN NULL WHEN a.status = s.expected_status THEN 1 ELSE 0 END AS outcome
    FROM scoped s JOIN attempts a ON a.result_id = s.id WHERE s.outage = 0
  ),
  ordered AS (
    SELECT test_id, browser, outcome, LAG(outcome) OVER w AS previous, ROW_NUMBER() OVER w AS n,
      ROW_NUMBER() OVER (PARTITION BY test_id, browser ORDER BY started_at DESC, id DESC, retry DESC) AS from_end
    FROM outcomes WHERE outcome IS NOT NULL
    WINDOW w AS (PARTITION BY test_id, browser ORDER BY started_at, id, retry)
  ),
  flips AS (
    SELECT test_id, browser, count(*) AS attempts, sum(previous IS NOT NULL AND previous != outcome) AS changes,
      max(CASE WHEN n = 1 THEN outcome END) AS first_outcome, max(CASE WHEN from_end = 1 THEN outcome END) AS last_outcome
    FROM ordered GROUP BY test_id, browser
  )
  SELECT s.test_id, s.browser, count(*) AS runs, sum(s.status = 'passed') AS passed, sum(s.status IN ('failed', 'timedOut')) AS failed,
    sum(s.status = 'skipped') AS skipped, sum(s.outage = 0 AND s.passed_on_retry) AS passed_on_retry,
    sum(s.outage = 0 AND s.status = 'passed') AS scored_passed, sum(s.outage = 0 AND s.status IN ('failed', 'timedOut')) AS scored_failed,
    coalesce(max(f.attempts), 0) AS attempts, coalesce(max(f.changes), 0) AS changes, max(f.first_outcome) AS first_outcome,
    coalesce(sum(CASE WHEN s.status != 'skipped' THEN s.duration_ms END), 0) AS duration_sum,
    coalesce(max(CASE WHEN s.status != 'skipped' THEN s.duration_ms END), 0) AS duration_max,
    sum(s.status != 'skipped') AS timed_runs, max(f.last_outcome) AS last_outcome, max(s.started_at) AS last_run_at,
    max(CASE WHEN s.status IN ('failed', 'timedOut') THEN s.started_at END) AS last_failed_at
  FROM scoped s LEFT JOIN flips f ON f.test_id = s.test_id AND f.browser = s.browser
  WHERE true
  GROUP BY s.test_id, s.browser`;

// A run later than everything stored for each of its keys adds to the rows; the change between
// the stored last attempt and the run's first one is counted once.
const APPEND = `INSERT INTO test_totals (${COLUMNS})
  SELECT test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes,
    duration_sum, duration_max, timed_runs, first_outcome, last_outcome, last_run_at, last_failed_at
  FROM (${RUN_TOTALS}) WHERE true
  ON CONFLICT (test_id, browser) DO UPDATE SET
    runs = runs + excluded.runs,
    passed = passed + excluded.passed,
    failed = failed + excluded.failed,
    skipped = skipped + excluded.skipped,
    passed_on_retry = passed_on_retry + excluded.passed_on_retry,
    scored_passed = scored_passed + excluded.scored_passed,
    scored_failed = scored_failed + excluded.scored_failed,
    attempts = attempts + excluded.attempts,
    changes = changes + excluded.changes + coalesce(last_outcome != excluded.first_outcome, 0),
    first_outcome = coalesce(first_outcome, excluded.first_outcome),
    duration_sum = duration_sum + excluded.duration_sum,
    duration_max = max(duration_max, excluded.duration_max),
    timed_runs = timed_runs + excluded.timed_runs,
    last_outcome = coalesce(excluded.last_outcome, last_outcome),
    last_run_at = max(last_run_at, excluded.last_run_at),
    last_failed_at = coalesce(max(last_failed_at, excluded.last_failed_at), last_failed_at, excluded.last_failed_at)`;

// Out of order for the totals: some stored result of one of the run's keys is not older than it.
const OVERLAPS = `
  SELECT EXISTS (
    SELECT 1 FROM (SELECT test_id, browser, min(started_at) AS first FROM results WHERE run_id = ? GROUP BY test_id, browser) n
    JOIN test_totals t ON t.test_id = n.test_id AND t.browser = n.browser
    WHERE t.last_run_at >= n.first
  ) AS overlaps`;


function prepare(sqlite: SqliteDatabase) {
  return {
    dropKeys: sqlite.prepare('DELETE FROM test_totals WHERE (test_id, browser) IN (SELECT DISTINCT test_id, browser FROM temp.rollup_keys)'),
    rebuildKeys: sqlite.prepare(REBUILD_KEYS),
    overlaps: sqlite.prepare(OVERLAPS).pluck(),
    append: sqlite.prepare(APPEND),
  };
}

const statementsFor = perConnection(prepare);

/** Rebuilds the totals of the keys in temp.rollup_keys from the daily rollup (already rebuilt). */
export function refreshTestTotals(sqlite: SqliteDatabase): void {
  const s = statementsFor(sqlite);
  s.dropKeys.run();
  s.rebuildKeys.run();
}

/**
 * A stored run's totals, after its daily rollups. In time order (the usual case) it only adds;
 * otherwise `rebuildKeysOfRun` puts its keys in temp.rollup_keys and they are rebuilt.
 */
export function addRunToTestTotals(sqlite: SqliteDatabase, runId: number, rebuildKeysOfRun: () => void): void {
  const s = statementsFor(sqlite);
  if (s.overlaps.get(runId) === 0) {
    s.append.run({ runId });
    return;
  }
  rebuildKeysOfRun();
}

/** Every key from scratch: the migration that adds the table, and tests that compare. */
export function rebuildAllTestTotals(sqlite: SqliteDatabase): void {
  sqlite.exec('DELETE FROM test_totals');
  sqlite.prepare(REBUILD_ALL_SQL).run();
}
