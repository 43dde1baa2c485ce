import { sqliteDialect, type Dialect } from '../engine/dialect.js';
import type { SqliteDatabase } from '../engine/types.js';
import { aggregate, BRANCH_DAY_KEYS, DAY_MS, GRAINS, periodsOfDays, type Grain } from '../engine/rollup-shape.js';
import { moveTestTotalsByDays, runIsLatestForTotals, snapshotDays, TOTALS_COLUMNS } from './test-totals.js';
import { BRANCH_TOTALS_COLUMNS, rebuildBranchTotals } from './branch-totals.js';
import { perConnection } from '../engine/per-connection.js';
import { ValuesWriter, type DayRow, type RunRows } from './run-figures.js';
import { addToStored, BRANCH_DAY_ROLLUP, BRANCH_TOTAL_ROLLUP, branchPeriodRollup, columnList, DAY_ROLLUP, ERROR_ROLLUP, mergeRows, periodRollup, TOTAL_ROLLUP } from './rollup-columns.js';
import { FORGET_KEPT_TEXTS } from './kept-answers.js';

export const STATS_COLUMNS = columnList(DAY_ROLLUP);
export const BRANCH_STATS_COLUMNS = columnList(BRANCH_DAY_ROLLUP);

/** The results of the touched keys' days, read key by key (dialect.ts keysFirstJoin): imports stay as fast as history grows. */
export const byKeys = (t: Dialect) => `
    SELECT r.id, r.test_id, r.browser, k.day, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM rollup_keys k
    ${t.keysFirstJoin} results r ON r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.day * ${DAY_MS} AND r.started_at < (k.day + 1) * ${DAY_MS}
    JOIN runs ON runs.id = r.run_id`;

const REBUILD = `INSERT INTO daily_test_stats (${STATS_COLUMNS}) ${aggregate(byKeys(sqliteDialect), sqliteDialect)}`;

/**
 * branch_day_stats is kept beside daily_test_stats by the same rules, its keys one level finer:
 * the branches of the changed runs, with the same tests, browsers and days (rollup_branch_keys).
 * A run without a branch is on no branch (the branch filter never matches it), so it has no rows.
 */
export const ENSURE_BRANCHES = (runs: string) =>
  `INSERT INTO branches (name) SELECT DISTINCT git_branch FROM runs WHERE id ${runs} AND git_branch IS NOT NULL ON CONFLICT (name) DO NOTHING`;
export const BRANCH_OF_RUN = 'SELECT b.id FROM runs JOIN branches b ON b.name = runs.git_branch WHERE runs.id = @run';
export const branchKeysOf = (runs: string) => `SELECT DISTINCT b.id, r.test_id, r.browser, r.started_at / ${DAY_MS}
  FROM results r JOIN runs ON runs.id = r.run_id JOIN branches b ON b.name = runs.git_branch WHERE r.run_id ${runs}`;
/** The results of the touched branch keys' days, on that branch's runs only. */
const byBranchKeys = (t: Dialect) => `
    SELECT k.branch_id, r.id, r.test_id, r.browser, k.day, r.status, r.passed_on_retry, r.duration_ms, r.started_at, r.expected_status, runs.outage
    FROM rollup_branch_keys k
    ${t.keysFirstJoin} results r ON r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.day * ${DAY_MS} AND r.started_at < (k.day + 1) * ${DAY_MS}
    JOIN runs ON runs.id = r.run_id
    JOIN branches b ON b.id = k.branch_id
    WHERE runs.git_branch = b.name`;
export const rebuildBranches = (t: Dialect) => `INSERT INTO branch_day_stats (${BRANCH_STATS_COLUMNS}) ${aggregate(byBranchKeys(t), t, BRANCH_DAY_KEYS)}`;
export const CLEAR_BRANCH_KEYS = 'DELETE FROM rollup_branch_keys';
export const DROP_STALE_BRANCHES =
  'DELETE FROM branch_day_stats WHERE (branch_id, test_id, browser, day) IN (SELECT branch_id, test_id, browser, day FROM rollup_branch_keys)';
const ADD_TO_BRANCH_DAYS = addToStored(BRANCH_DAY_ROLLUP, sqliteDialect);

/**
 * Each grain's table (month_stats, week_stats) is rebuilt from daily_test_stats for the periods
 * of the touched keys, after their days are: a period's changes between its days and its first
 * and last outcome depend on every day of it, so a run that adds to its day may still fall
 * before a later day of its period. Reads at most a period of day rows per touched test and browser.
 * Its branch table (branch_month_stats, branch_week_stats) is rebuilt the same way, one level
 * finer: from branch_day_stats, for the periods of the touched branch keys (rollup_branch_keys).
 */
const periodsOf = (g: Grain, branch: boolean) =>
  branch
    ? { table: g.branchTable, days: 'branch_day_stats', keys: 'rollup_branch_keys', by: 'branch_id, test_id, browser', same: 'd.branch_id = k.branch_id AND ', columns: branchPeriodRollup(g) }
    : { table: g.table, days: 'daily_test_stats', keys: 'rollup_keys', by: 'test_id, browser', same: '', columns: periodRollup(g) };
const touchedPeriods = (t: Dialect, g: Grain, branch: boolean) => `SELECT DISTINCT ${periodsOf(g, branch).by}, ${g.sqlOf(t, 'day')} AS ${g.key} FROM ${periodsOf(g, branch).keys}`;
export const dropStalePeriods = (t: Dialect, g: Grain, branch = false) =>
  `DELETE FROM ${periodsOf(g, branch).table} WHERE (${periodsOf(g, branch).by}, ${g.key}) IN (${touchedPeriods(t, g, branch)})`;
// A period is at most its span of days from its first: the range reads the key's days, the test keeps that period's.
const daysOfTouchedPeriods = (t: Dialect, g: Grain, branch: boolean) => `
    SELECT d.*, k.${g.key} FROM (${touchedPeriods(t, g, branch)}) k
    ${t.keysFirstJoin} ${periodsOf(g, branch).days} d ON ${periodsOf(g, branch).same}d.test_id = k.test_id AND d.browser = k.browser AND d.day >= k.${g.key} AND d.day < k.${g.key} + ${g.span}
    WHERE ${g.sqlOf(t, 'd.day')} = k.${g.key}`;
export const rebuildPeriods = (t: Dialect, g: Grain, branch = false) =>
  `INSERT INTO ${periodsOf(g, branch).table} (${columnList(periodsOf(g, branch).columns)}) ${periodsOfDays(daysOfTouchedPeriods(t, g, branch), t, g, branch)}`;

/**
 * Out of order for a grain: some stored result of one of run @run's periods is not older than it
 * (then they are rebuilt). A branch's period rows hold some of those results, so a run in order
 * for every branch's periods is in order for its branch's too: one check decides both.
 */
export const overlapsPeriods = (t: Dialect, g: Grain) => `
  SELECT CASE WHEN EXISTS (
    SELECT 1 FROM (
      SELECT test_id, browser, ${g.sqlOf(t, `started_at / ${DAY_MS}`)} AS ${g.key}, min(started_at) AS first
      FROM results WHERE run_id = @run GROUP BY test_id, browser, ${g.sqlOf(t, `started_at / ${DAY_MS}`)}
    ) n
    JOIN ${g.table} m ON m.${g.key} = n.${g.key} AND m.test_id = n.test_id AND m.browser = n.browser
    WHERE m.last_run_at >= n.first
  ) THEN 1 ELSE 0 END`;

/**
 * A run later than everything stored in its periods adds to them as to its days: its day rows,
 * in day order, become period rows (those of one period added together first: one upsert may
 * not touch a row twice), added to the stored ones by the grain's upsert rules (rollup-columns.ts).
 */
export function periodRowsOf(grain: Grain, days: readonly DayRow[]): unknown[][] {
  const columns = periodRollup(grain);
  const sorted = [...days].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || a[2] - b[2]);
  const rows: unknown[][] = [];
  for (const day of sorted) {
    const row: unknown[] = [...day];
    row[2] = grain.of(day[2]);
    const last = rows.at(-1);
    if (last && last[0] === row[0] && last[1] === row[1] && last[2] === row[2]) rows[rows.length - 1] = mergeRows(columns, last, row);
    else rows.push(row);
  }
  return rows;
}

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

const CLEAR_RUN_DAYS = 'DELETE FROM temp.rollup_run_days';
const CLEAR_RUN_TOTALS = 'DELETE FROM temp.rollup_run_totals';

// A run later than everything stored for each of its keys adds its totals rows (bound once, into
// temp.rollup_run_totals) to test_totals and to its branch's rows; the change between the stored
// last attempt and the run's first one is counted once.
const ADD_RUN_TOTALS = `INSERT INTO test_totals (${TOTALS_COLUMNS}) SELECT ${TOTALS_COLUMNS} FROM temp.rollup_run_totals WHERE true ORDER BY rowid
  ${addToStored(TOTAL_ROLLUP, sqliteDialect)}`;
const ADD_RUN_BRANCH_TOTALS = `INSERT INTO branch_test_totals (${BRANCH_TOTALS_COLUMNS}) SELECT @branch, ${TOTALS_COLUMNS} FROM temp.rollup_run_totals WHERE true ORDER BY rowid
  ${addToStored(BRANCH_TOTAL_ROLLUP, sqliteDialect)}`;

/**
 * Adds the run's day rows (temp.rollup_run_days) to `table`, whose columns are `columns`: the
 * branch first (@branch) when the table has one, the day's period when `grain` is given, by the
 * table's upsert rules. Days of one period (a run across midnight) add one after another, in day
 * order, to the row the first made or added to: SQLite lets one upsert touch a row twice, and
 * adding them so equals adding them merged (periodRowsOf, which PostgreSQL needs).
 */
function fromRunDays(table: string, columns: typeof DAY_ROLLUP, addTo: string, grain?: Grain): string {
  const values = columns.map((c) => (c.name === 'branch_id' ? '@branch' : grain && c.name === grain.key ? grain.sqlOf(sqliteDialect, 'day') : c.name));
  // WHERE true: an upsert's ON after a FROM would be read as a join's.
  return `INSERT INTO ${table} (${columnList(columns)}) SELECT ${values.join(', ')} FROM temp.rollup_run_days WHERE true ORDER BY rowid ${addTo}`;
}

function prepare(sqlite: SqliteDatabase) {
  return {
    clearKeys: sqlite.prepare(CLEAR_KEYS),
    forgetKept: sqlite.prepare(FORGET_KEPT_TEXTS),
    keysOfRun: sqlite.prepare(`INSERT OR IGNORE INTO temp.rollup_keys SELECT DISTINCT test_id, browser, started_at / ${DAY_MS} FROM results WHERE run_id = ?`),
    dropStale: sqlite.prepare(DROP_STALE),
    dropStaleErrors: sqlite.prepare(DROP_STALE_ERRORS),
    rebuild: sqlite.prepare(REBUILD),
    rebuildErrors: sqlite.prepare(rebuildErrors(sqliteDialect)),
    overlaps: sqlite.prepare(OVERLAPS_DAYS).pluck(),
    ensureBranch: sqlite.prepare(ENSURE_BRANCHES('= ?')),
    branchOf: sqlite.prepare(BRANCH_OF_RUN).pluck(),
    clearBranchKeys: sqlite.prepare(CLEAR_BRANCH_KEYS),
    branchKeysOfRun: sqlite.prepare(`INSERT OR IGNORE INTO temp.rollup_branch_keys ${branchKeysOf('= ?')}`),
    dropStaleBranches: sqlite.prepare(DROP_STALE_BRANCHES),
    rebuildBranches: sqlite.prepare(rebuildBranches(sqliteDialect)),
    clearRunDays: sqlite.prepare(CLEAR_RUN_DAYS),
    clearRunTotals: sqlite.prepare(CLEAR_RUN_TOTALS),
    addRunTotals: sqlite.prepare(ADD_RUN_TOTALS),
    addRunBranchTotals: sqlite.prepare(ADD_RUN_BRANCH_TOTALS),
    addRunDays: sqlite.prepare(fromRunDays('daily_test_stats', DAY_ROLLUP, ADD_TO_DAYS)),
    addRunBranchDays: sqlite.prepare(fromRunDays('branch_day_stats', BRANCH_DAY_ROLLUP, ADD_TO_BRANCH_DAYS)),
    grains: GRAINS.map((grain) => ({
      grain,
      addRunDays: sqlite.prepare(fromRunDays(grain.table, periodRollup(grain), addToStored(periodRollup(grain), sqliteDialect), grain)),
      addRunBranchDays: sqlite.prepare(fromRunDays(grain.branchTable, branchPeriodRollup(grain), addToStored(branchPeriodRollup(grain), sqliteDialect), grain)),
      dropStale: sqlite.prepare(dropStalePeriods(sqliteDialect, grain)),
      rebuild: sqlite.prepare(rebuildPeriods(sqliteDialect, grain)),
      overlaps: sqlite.prepare(overlapsPeriods(sqliteDialect, grain)).pluck(),
      dropStaleBranches: sqlite.prepare(dropStalePeriods(sqliteDialect, grain, true)),
      rebuildBranches: sqlite.prepare(rebuildPeriods(sqliteDialect, grain, true)),
    })),
    runDayRows: new Map<number, ReturnType<SqliteDatabase['prepare']>>(),
    runTotalRows: new Map<number, ReturnType<SqliteDatabase['prepare']>>(),
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
  s.clearBranchKeys.run();
  for (const id of runIds) {
    s.ensureBranch.run(id);
    s.keysOfRun.run(id);
    s.branchKeysOfRun.run(id);
  }
  const result = change();
  s.forgetKept.run();
  for (const id of runIds) {
    s.keysOfRun.run(id);
    s.branchKeysOfRun.run(id);
  }
  // The touched days as they were: the totals move by the difference (test-totals.ts).
  snapshotDays(sqlite);
  s.dropStale.run();
  s.dropStaleErrors.run();
  s.rebuild.run();
  for (const g of s.grains) {
    g.dropStale.run();
    g.rebuild.run();
  }
  s.rebuildErrors.run();
  s.dropStaleBranches.run();
  s.rebuildBranches.run();
  for (const g of s.grains) {
    g.dropStaleBranches.run();
    g.rebuildBranches.run();
  }
  moveTestTotalsByDays(sqlite);
  rebuildBranchTotals(sqlite);
  s.clearKeys.run();
  s.clearBranchKeys.run();
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
    // The run's figures were gathered as it was written (run-figures.ts): its rows are not read
    // again. Its day rows are bound once, into temp.rollup_run_days, and added from there.
    const days = new ValuesWriter(sqlite, s.runDayRows, `INSERT INTO temp.rollup_run_days (${STATS_COLUMNS})`, '', DAY_ROLLUP.length);
    const errors = new ValuesWriter(sqlite, s.errorRows, `INSERT INTO daily_error_stats (${columnList(ERROR_ROLLUP)})`, ADD_TO_ERRORS, ERROR_ROLLUP.length);
    const totals = latest ? new ValuesWriter(sqlite, s.runTotalRows, `INSERT INTO temp.rollup_run_totals (${TOTALS_COLUMNS})`, '', TOTAL_ROLLUP.length) : null;
    // Later than everything on its days, so later than everything of its branch there: its rows add to the branch's too.
    s.ensureBranch.run(runId);
    const branch = s.branchOf.get({ run: runId }) as number | undefined;
    const appends = s.grains.map((g) => g.overlaps.get({ run: runId }) === 0);
    rows({ day: (row) => days.add(row), error: (row) => errors.add(row), total: (row) => totals?.add(row) });
    days.finish();
    errors.finish();
    s.addRunDays.run();
    if (branch !== undefined) s.addRunBranchDays.run({ branch });
    if (totals) {
      totals.finish();
      s.addRunTotals.run();
      if (branch !== undefined) s.addRunBranchTotals.run({ branch });
      s.clearRunTotals.run();
    }
    // The run's keys are in rollup_keys already when it is older than a test's latest result (above).
    let keysLoaded = !latest;
    let branchKeysLoaded = false;
    s.grains.forEach((g, i) => {
      if (appends[i]) {
        g.addRunDays.run();
        // In order for every branch's periods, so for its branch's (overlapsPeriods): the same rows add there.
        if (branch !== undefined) g.addRunBranchDays.run({ branch });
        return;
      }
      // Before something stored in one of its periods: the run's periods from their days, now written.
      if (!keysLoaded) {
        s.clearKeys.run();
        s.keysOfRun.run(runId);
        keysLoaded = true;
      }
      if (!branchKeysLoaded) {
        s.clearBranchKeys.run();
        s.branchKeysOfRun.run(runId);
        branchKeysLoaded = true;
      }
      g.dropStale.run();
      g.rebuild.run();
      g.dropStaleBranches.run();
      g.rebuildBranches.run();
    });
    s.clearRunDays.run();
    if (!latest) {
      moveTestTotalsByDays(sqlite);
      // Its branch's totals from their months, which hold the run now.
      if (branch !== undefined) {
        if (!branchKeysLoaded) {
          s.clearBranchKeys.run();
          s.branchKeysOfRun.run(runId);
        }
        rebuildBranchTotals(sqlite);
      }
    }
    s.clearKeys.run();
    s.clearBranchKeys.run();
    return;
  }
  withRollupRefresh(sqlite, [runId], () => undefined);
}
