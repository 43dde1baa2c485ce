/**
 * The rollups (daily_test_stats, month_stats, week_stats, their branch tables, daily_error_stats, test_totals and branch_test_totals) kept on PostgreSQL, by the same
 * rules as rollups.ts and test-totals.ts on SQLite: a run later than what is stored adds the
 * figures run-figures.ts computed in JavaScript (the same rows on both engines); anything else
 * (a run out of order, a review, a delete, a prune) rebuilds the touched days with the same
 * aggregate SQL (rollups.ts `aggregate`, test-totals.ts `rebuildSelect`) in PostgreSQL's words,
 * and adds with the upserts both engines make from rollup-columns.ts.
 * All of it runs in the caller's transaction, after POSTGRES_LOCK_ROLLUPS.
 */
import { POSTGRES_LOCK_ROLLUPS, postgresDialect } from '../engine/dialect.js';
import {
  BRANCH_OF_RUN,
  BRANCH_STATS_COLUMNS,
  branchKeysOf,
  byKeys,
  CLEAR_BRANCH_KEYS,
  CLEAR_KEYS,
  DROP_STALE,
  DROP_STALE_BRANCHES,
  DROP_STALE_ERRORS,
  dropStalePeriods,
  periodRowsOf,
  overlapsPeriods,
  ENSURE_BRANCHES,
  OVERLAPS_DAYS,
  rebuildBranches,
  rebuildErrors,
  rebuildPeriods,
  STATS_COLUMNS,
} from './rollups.js';
import { addToStored, BRANCH_DAY_ROLLUP, BRANCH_TOTAL_ROLLUP, branchPeriodRollup, columnList, columnTypes, DAY_ROLLUP, ERROR_ROLLUP, periodRollup, TOTAL_ROLLUP } from './rollup-columns.js';
import { aggregate, DAY_MS, GRAINS } from '../engine/rollup-shape.js';
import type { DayRow, ErrorRow, RowSink, RunRows, TotalRow } from './run-figures.js';
import type { Sql } from '../engine/sql.js';
import { OVERLAPS_TOTALS, rebuildSelect, TOTALS_COLUMNS } from './test-totals.js';
import { BRANCH_TOTALS_COLUMNS, DROP_TOUCHED_BRANCH_TOTALS, rebuildTouchedBranchTotals, STORED_DAYS, storedMonths } from './branch-totals.js';
import { UnnestWriter } from '../engine/unnest-writer.js';
import { FORGET_KEPT_TEXTS } from './kept-answers.js';

// The touched keys, per transaction: a temporary table lives on one connection, and a
// transaction is one connection; its rows go at commit, and the table itself with a rollback.
const KEYS_TABLE = `CREATE TEMP TABLE IF NOT EXISTS rollup_keys (test_id BIGINT NOT NULL, browser TEXT NOT NULL, day BIGINT NOT NULL,
  PRIMARY KEY (test_id, browser, day)) ON COMMIT DELETE ROWS`;
const KEYS_OF_RUNS = `INSERT INTO rollup_keys SELECT DISTINCT test_id, browser, started_at / ${DAY_MS} FROM results
  WHERE run_id = ANY(CAST(@runs AS BIGINT[])) ON CONFLICT DO NOTHING`;

const BRANCH_KEYS_TABLE = `CREATE TEMP TABLE IF NOT EXISTS rollup_branch_keys (branch_id BIGINT NOT NULL, test_id BIGINT NOT NULL, browser TEXT NOT NULL,
  day BIGINT NOT NULL, PRIMARY KEY (branch_id, test_id, browser, day)) ON COMMIT DELETE ROWS`;
const OF_RUNS = '= ANY(CAST(@runs AS BIGINT[]))';
const ENSURE_BRANCHES_OF_RUNS = ENSURE_BRANCHES(OF_RUNS);
const BRANCH_KEYS_OF_RUNS = `INSERT INTO rollup_branch_keys ${branchKeysOf(OF_RUNS)} ON CONFLICT DO NOTHING`;
const REBUILD_BRANCHES = rebuildBranches(postgresDialect);

const REBUILD = `INSERT INTO daily_test_stats (${STATS_COLUMNS}) ${aggregate(byKeys(postgresDialect), postgresDialect)}`;
const REBUILD_ERRORS = rebuildErrors(postgresDialect);
// Each grain's table (month_stats, week_stats), by rollups.ts's statements in PostgreSQL's words.
const PERIODS = GRAINS.map((grain) => ({
  grain,
  dropStale: dropStalePeriods(postgresDialect, grain),
  rebuild: rebuildPeriods(postgresDialect, grain),
  overlaps: overlapsPeriods(postgresDialect, grain),
  columns: columnList(periodRollup(grain)),
  types: columnTypes(periodRollup(grain)),
  addTo: addToStored(periodRollup(grain), postgresDialect, 'd'),
  dropStaleBranches: dropStalePeriods(postgresDialect, grain, true),
  rebuildBranches: rebuildPeriods(postgresDialect, grain, true),
  branchColumns: columnList(branchPeriodRollup(grain)),
  branchTypes: columnTypes(branchPeriodRollup(grain)),
  branchAddTo: addToStored(branchPeriodRollup(grain), postgresDialect, 'd'),
}));

// The totals of the touched tests summed again from all their days: SQLite moves them by the
// touched days' difference (test-totals.ts MOVE_BY_DAYS_SQL, a plan tuned to SQLite's); the
// rebuild gives the same rows and reads one row per day of each touched test.
const DROP_TOTALS = 'DELETE FROM test_totals WHERE (test_id, browser) IN (SELECT test_id, browser FROM rollup_keys)';
const REBUILD_TOTALS = `INSERT INTO test_totals (${TOTALS_COLUMNS}) ${rebuildSelect('(d.test_id, d.browser) IN (SELECT test_id, browser FROM rollup_keys)', postgresDialect)}`;

// The stored row is named `d` (rollup-columns.ts addToStored): PostgreSQL finds a bare column ambiguous beside excluded.
const ADD_TO_DAYS = addToStored(DAY_ROLLUP, postgresDialect, 'd');
const ADD_TO_ERRORS = addToStored(ERROR_ROLLUP, postgresDialect, 'd');
const ADD_TO_TOTALS = addToStored(TOTAL_ROLLUP, postgresDialect, 'd');
const ADD_TO_BRANCH_DAYS = addToStored(BRANCH_DAY_ROLLUP, postgresDialect, 'd');
const ADD_TO_BRANCH_TOTALS = addToStored(BRANCH_TOTAL_ROLLUP, postgresDialect, 'd');
const REBUILD_BRANCH_TOTALS = rebuildTouchedBranchTotals(postgresDialect);

/** branch-totals.ts rebuildBranchTotals: the keys in rollup_branch_keys from their months, once branch_month_stats holds them. */
async function rebuildBranchTotals(sql: Sql): Promise<void> {
  const days = await sql.get<{ first: number | string | null; last: number | string | null }>(STORED_DAYS);
  await sql.run(DROP_TOUCHED_BRANCH_TOTALS);
  await sql.run(REBUILD_BRANCH_TOTALS, { months: storedMonths(days?.first, days?.last) });
}

/** Serialises the rollup writers of the database until the transaction ends (dialect.ts). */
export async function lockRollups(sql: Sql): Promise<void> {
  await sql.value(POSTGRES_LOCK_ROLLUPS);
}

async function keysOf(sql: Sql, runIds: readonly number[]): Promise<void> {
  await sql.run(KEYS_OF_RUNS, { runs: runIds });
  await sql.run(BRANCH_KEYS_OF_RUNS, { runs: runIds });
}

/** Both scratch tables, empty, and the runs' branches named in branches (rollups.ts ENSURE_BRANCHES). */
async function startKeys(sql: Sql, runIds: readonly number[]): Promise<void> {
  await sql.run(KEYS_TABLE);
  await sql.run(BRANCH_KEYS_TABLE);
  await sql.run(CLEAR_KEYS);
  await sql.run(CLEAR_BRANCH_KEYS);
  await sql.run(ENSURE_BRANCHES_OF_RUNS, { runs: runIds });
}

/** Rebuilds the rollups of the keys in rollup_keys from the stored results, then empties it. */
async function rebuildKeys(sql: Sql): Promise<void> {
  await sql.run(DROP_STALE);
  await sql.run(DROP_STALE_ERRORS);
  await sql.run(REBUILD);
  for (const p of PERIODS) {
    await sql.run(p.dropStale);
    await sql.run(p.rebuild);
  }
  await sql.run(REBUILD_ERRORS);
  await sql.run(DROP_STALE_BRANCHES);
  await sql.run(REBUILD_BRANCHES);
  for (const p of PERIODS) {
    await sql.run(p.dropStaleBranches);
    await sql.run(p.rebuildBranches);
  }
  await sql.run(DROP_TOTALS);
  await sql.run(REBUILD_TOTALS);
  await rebuildBranchTotals(sql);
  await sql.run(CLEAR_KEYS);
  await sql.run(CLEAR_BRANCH_KEYS);
}

/**
 * rollups.ts withRollupRefresh on PostgreSQL: the keys the runs touch before and after `change`
 * are rebuilt from what is left. Inside the caller's transaction; takes the rollup lock.
 */
export async function withRollupRefreshPostgres<T>(sql: Sql, runIds: readonly number[], change: () => Promise<T>): Promise<T> {
  await lockRollups(sql);
  await startKeys(sql, runIds);
  await keysOf(sql, runIds);
  const result = await change();
  await sql.run(FORGET_KEPT_TEXTS);
  await keysOf(sql, runIds);
  await rebuildKeys(sql);
  return result;
}

/**
 * rollups.ts addRunToRollups on PostgreSQL: a run later than what is stored on its days adds
 * its rows in bulk; one older than a test's latest result then has those tests' totals summed
 * again; one older than something on its days has its days rebuilt. Takes the rollup lock,
 * then runs `underLock`.
 */
export async function addRunToRollupsPostgres(sql: Sql, runId: number, rows: RunRows, underLock?: () => Promise<void>): Promise<void> {
  await lockRollups(sql);
  // What other writers would also wait on (shared name rows) is written here, one writer at a time.
  await underLock?.();
  await startKeys(sql, [runId]);
  if (Number(await sql.value(OVERLAPS_DAYS, { run: runId })) !== 0) {
    await keysOf(sql, [runId]);
    await rebuildKeys(sql);
    return;
  }
  const latest = Number(await sql.value(OVERLAPS_TOTALS, { run: runId })) === 0;
  const days = new UnnestWriter(sql, 'daily_test_stats AS d', STATS_COLUMNS, columnTypes(DAY_ROLLUP), ADD_TO_DAYS);
  const errors = new UnnestWriter(sql, 'daily_error_stats AS d', columnList(ERROR_ROLLUP), columnTypes(ERROR_ROLLUP), ADD_TO_ERRORS);
  const totals = latest ? new UnnestWriter(sql, 'test_totals AS d', TOTALS_COLUMNS, columnTypes(TOTAL_ROLLUP), ADD_TO_TOTALS) : null;
  // The sink is synchronous (run-figures.ts): rows are gathered, written a batch at a time after.
  const gathered: { day: DayRow[]; error: ErrorRow[]; total: TotalRow[] } = { day: [], error: [], total: [] };
  const sink: RowSink = { day: (row) => gathered.day.push(row), error: (row) => gathered.error.push(row), total: (row) => latest && gathered.total.push(row) };
  rows(sink);
  await days.writeAll(gathered.day);
  // Per grain, the run's period rows when it is in order for them (null: its periods were rebuilt).
  const appended: Array<unknown[][] | null> = [];
  for (const p of PERIODS) {
    if (Number(await sql.value(p.overlaps, { run: runId })) === 0) {
      // Later than everything in its periods: its rows add to them (rollups.ts periodRowsOf).
      const periodRows = periodRowsOf(p.grain, gathered.day);
      appended.push(periodRows);
      await new UnnestWriter(sql, `${p.grain.table} AS d`, p.columns, p.types, p.addTo).writeAll(periodRows);
    } else {
      appended.push(null);
      // The run's periods from their days, now written (rollups.ts rebuildPeriods).
      await sql.run(KEYS_OF_RUNS, { runs: [runId] });
      await sql.run(p.dropStale);
      await sql.run(p.rebuild);
      await sql.run(CLEAR_KEYS);
    }
  }
  // Later than everything on its days, so later than everything of its branch there: its rows add to the branch's too.
  const branch = await sql.value<number | string | null>(BRANCH_OF_RUN, { run: runId });
  if (branch !== undefined && branch !== null) {
    const branchDays = new UnnestWriter(sql, 'branch_day_stats AS d', BRANCH_STATS_COLUMNS, columnTypes(BRANCH_DAY_ROLLUP), ADD_TO_BRANCH_DAYS);
    const id = Number(branch);
    await branchDays.writeAll(gathered.day.map((row) => [id, ...row]));
    // Its branch's periods as every branch's (rollups.ts addRunToRollups): added to in order, else rebuilt from the branch's days.
    for (const [i, p] of PERIODS.entries()) {
      const periodRows = appended[i];
      if (periodRows) {
        await new UnnestWriter(sql, `${p.grain.branchTable} AS d`, p.branchColumns, p.branchTypes, p.branchAddTo).writeAll(periodRows.map((row) => [id, ...row]));
      } else {
        await sql.run(BRANCH_KEYS_OF_RUNS, { runs: [runId] });
        await sql.run(p.dropStaleBranches);
        await sql.run(p.rebuildBranches);
        await sql.run(CLEAR_BRANCH_KEYS);
      }
    }
  }
  await errors.writeAll(gathered.error);
  const branchId = branch !== undefined && branch !== null ? Number(branch) : null;
  if (totals) {
    await totals.writeAll(gathered.total);
    // In order for every branch, so for its own: the same rows add to its branch's totals.
    if (branchId !== null) {
      await new UnnestWriter(sql, 'branch_test_totals AS d', BRANCH_TOTALS_COLUMNS, columnTypes(BRANCH_TOTAL_ROLLUP), ADD_TO_BRANCH_TOTALS).writeAll(
        gathered.total.map((row) => [branchId, ...row]),
      );
    }
  } else {
    await sql.run(CLEAR_KEYS);
    await sql.run(KEYS_OF_RUNS, { runs: [runId] });
    await sql.run(DROP_TOTALS);
    await sql.run(REBUILD_TOTALS);
    await sql.run(CLEAR_KEYS);
    if (branchId !== null) {
      await sql.run(BRANCH_KEYS_OF_RUNS, { runs: [runId] });
      await rebuildBranchTotals(sql);
      await sql.run(CLEAR_BRANCH_KEYS);
    }
  }
}
