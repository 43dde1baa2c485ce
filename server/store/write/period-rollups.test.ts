import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { itFollowsReviewDeleteAndPrune } from '../../../fixtures/testing/rollup-follows.js';
import { storedTable } from '../../../fixtures/testing/stored-rows.js';
import { generateHistory, type HistoryRun } from '../../demo/history.js';
import { ingestValue } from '../../ingest.js';
import { dialectFor, POSTGRES_VERSION_TABLE } from '../engine/dialect.js';
import { aggregate, allBranchDaysBy, allDaysBy, DAY_MS, GRAINS, MONTH, periodsOfDays, WEEK, type Grain } from '../engine/rollup-shape.js';
import type { AnyStore } from '../engine/types.js';
import { branchPeriodRollup, columnList, periodRollup } from './rollup-columns.js';

/**
 * month_stats and week_stats, and their branch tables (branch_month_stats, branch_week_stats),
 * are kept by every change that keeps daily_test_stats (import in and out of order, review,
 * delete, prune), on both engines: after each, each table's rows equal those aggregated from the
 * results at once per period (every attempt in time order, no day in between; per branch, that
 * branch's runs'), and those the migrations' fill makes from the days.
 */
const END = Date.parse('2026-11-20T18:00:00Z');
// Seventy days: parts of September, October and November, eleven weeks.
const runs = (): HistoryRun[] => [...generateHistory({ seed: 7, runs: 80, days: 70, tests: 10, browsers: ['chromium', 'webkit'], outageRuns: 1, endDate: END })];

const rowsOf = (store: AnyStore, grain: Grain) => storedTable(store, grain.table);
const branchRowsOf = (store: AnyStore, grain: Grain) => storedTable(store, grain.branchTable);

/** One grain's table from scratch: straight from the results, and from the days as its migration fills it. */
async function expectGrainKept(store: AnyStore, grain: Grain): Promise<void> {
  const t = dialectFor(store.dialect);
  const kept = await rowsOf(store, grain);
  expect(kept.length).toBeGreaterThan(0);
  const columns = columnList(periodRollup(grain));
  const fromResults = `SELECT r.id, r.test_id, r.browser, ${grain.sqlOf(t, `r.started_at / ${DAY_MS}`)} AS ${grain.key}, r.status, r.passed_on_retry, r.duration_ms,
    r.started_at, r.expected_status, runs.outage FROM results r JOIN runs ON runs.id = r.run_id`;
  await store.sql.run(`DELETE FROM ${grain.table}`);
  await store.sql.run(`INSERT INTO ${grain.table} (${columns}) ${aggregate(fromResults, t, ['test_id', 'browser', grain.key])}`);
  expect(await rowsOf(store, grain), grain.table).toEqual(kept);
  await store.sql.run(`DELETE FROM ${grain.table}`);
  await store.sql.run(`INSERT INTO ${grain.table} (${columns}) ${periodsOfDays(allDaysBy(t, grain), t, grain)}`);
  expect(await rowsOf(store, grain), grain.table).toEqual(kept);
}

/** One grain's branch table from scratch: each branch's results, and its days as migration 21 fills it. */
async function expectBranchGrainKept(store: AnyStore, grain: Grain): Promise<void> {
  const t = dialectFor(store.dialect);
  const kept = await branchRowsOf(store, grain);
  expect(new Set(kept.map((row) => JSON.parse(row)[0])).size, grain.branchTable).toBeGreaterThan(1);
  const columns = columnList(branchPeriodRollup(grain));
  const fromResults = `SELECT b.id AS branch_id, r.id, r.test_id, r.browser, ${grain.sqlOf(t, `r.started_at / ${DAY_MS}`)} AS ${grain.key}, r.status, r.passed_on_retry,
    r.duration_ms, r.started_at, r.expected_status, runs.outage FROM branches b JOIN runs ON runs.git_branch = b.name JOIN results r ON r.run_id = runs.id`;
  await store.sql.run(`DELETE FROM ${grain.branchTable}`);
  await store.sql.run(`INSERT INTO ${grain.branchTable} (${columns}) ${aggregate(fromResults, t, ['branch_id', 'test_id', 'browser', grain.key])}`);
  expect(await branchRowsOf(store, grain), grain.branchTable).toEqual(kept);
  await store.sql.run(`DELETE FROM ${grain.branchTable}`);
  await store.sql.run(`INSERT INTO ${grain.branchTable} (${columns}) ${periodsOfDays(allBranchDaysBy(t, grain), t, grain, true)}`);
  expect(await branchRowsOf(store, grain), grain.branchTable).toEqual(kept);
}

async function expectKept(store: AnyStore): Promise<void> {
  for (const grain of GRAINS) {
    await expectGrainKept(store, grain);
    await expectBranchGrainKept(store, grain);
  }
}

/** What migrations 21, 22 and 24 add, undone: a store as version 20 left it. */
const AFTER_20 = ['DROP TABLE branch_test_totals', 'DROP TABLE branch_month_stats', 'DROP TABLE branch_week_stats', 'DROP INDEX branch_day_stats_by_day', 'DROP TABLE kept_answers'];

describeEachEngine('the monthly and weekly rollups', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  const ids: number[] = [];
  let history: HistoryRun[];

  beforeAll(async () => {
    target = await createTestTarget(engine);
    store = await target.open();
    history = runs();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  it('follow imports in time order and late ones, across months and weeks', async () => {
    // Mostly in time order (runs add to their days), some late (their days are rebuilt).
    // The last three runs are kept back for after the migrations.
    const stored = history.slice(0, -3);
    // Late: a run with a later one on its day (its days are rebuilt), and others (a later day of its month is stored).
    const day = (run: HistoryRun) => Math.floor(run.startedAt / DAY_MS);
    const rebuilt = stored.filter((run, i) => i + 1 < stored.length && day(stored[i + 1]!) === day(run));
    expect(rebuilt.length).toBeGreaterThan(0);
    // The rebuilt ones last: a later import would rebuild their months again.
    const late = new Set([...stored.filter((_, i) => i % 6 === 2), ...rebuilt]);
    const order = [...stored.filter((run) => !late.has(run)), ...late];
    for (const run of order) ids.push((await ingestValue(store, run.report, { fileName: run.fileName })).runId);
    const months = Number(await store.sql.value('SELECT count(DISTINCT month) FROM month_stats'));
    expect(months).toBe(3);
    expect(Number(await store.sql.value('SELECT count(DISTINCT week) FROM week_stats'))).toBeGreaterThanOrEqual(10);
    for (const grain of GRAINS) {
      // Some period holds changes between its days, not only within them.
      const between = Number(await store.sql.value(`SELECT count(*) FROM ${grain.table} m WHERE m.changes >
        (SELECT sum(d.changes) FROM daily_test_stats d WHERE d.test_id = m.test_id AND d.browser = m.browser AND d.day >= m.${grain.key} AND d.day < m.${grain.key} + ${grain.span}
          AND ${grain.sqlOf(dialectFor(store.dialect), 'd.day')} = m.${grain.key})`));
      expect(between, grain.table).toBeGreaterThan(0);
      expect(Number(await store.sql.value(`SELECT sum(runs) FROM ${grain.table}`))).toBe(Number(await store.sql.value('SELECT sum(runs) FROM daily_test_stats')));
    }
    await expectKept(store);
  }, 120_000);

  // expectKept compares both tables after each step; the prune's cut falls inside a week and a month.
  itFollowsReviewDeleteAndPrune('week_stats', () => ({ store, ids }), expectKept, 5);

  /** The store as version `version` left it, `dropped` missing, then opened (and migrated) again. */
  async function reopenAt(version: number, dropped: readonly string[]): Promise<void> {
    for (const statement of AFTER_20) await store.sql.run(statement);
    for (const table of dropped) await store.sql.run(`DROP TABLE ${table}`);
    if (store.dialect === 'postgres') await store.sql.run(`UPDATE ${POSTGRES_VERSION_TABLE} SET version = ${version}`);
    else store.sqlite.pragma(`user_version = ${version}`);
    await store.close();
    store = await target.open();
  }

  it('the branch tables are filled by migration 21 on a database upgraded from version 20', async () => {
    const expected = await Promise.all(GRAINS.map((grain) => branchRowsOf(store, grain)));
    expect(expected.every((rows) => rows.length > 0)).toBe(true);
    await reopenAt(20, []);
    expect(await Promise.all(GRAINS.map((grain) => branchRowsOf(store, grain)))).toEqual(expected);
    // And kept from there on: one more report adds to its branch's week and month.
    const run = history.at(-3)!;
    const before = Number(await store.sql.value('SELECT sum(runs) FROM branch_week_stats'));
    expect((await ingestValue(store, run.report, { fileName: run.fileName })).duplicate).toBe(false);
    expect(Number(await store.sql.value('SELECT sum(runs) FROM branch_week_stats'))).toBeGreaterThan(before);
    await expectKept(store);
  }, 120_000);

  it('week_stats is filled by migration 20 on a database upgraded from version 19', async () => {
    const expected = await rowsOf(store, WEEK);
    const months = await rowsOf(store, MONTH);
    expect(expected.length).toBeGreaterThan(0);
    await reopenAt(19, ['week_stats']);
    expect(await rowsOf(store, WEEK)).toEqual(expected);
    expect(await rowsOf(store, MONTH)).toEqual(months);
    // And kept from there on: one more report adds to its week.
    const run = history.at(-2)!;
    const before = Number(await store.sql.value('SELECT sum(runs) FROM week_stats'));
    expect((await ingestValue(store, run.report, { fileName: run.fileName })).duplicate).toBe(false);
    expect(Number(await store.sql.value('SELECT sum(runs) FROM week_stats'))).toBeGreaterThan(before);
    await expectKept(store);
  }, 120_000);

  it('month_stats is filled by migration 19 on a database upgraded from version 18', async () => {
    const expected = await rowsOf(store, MONTH);
    expect(expected.length).toBeGreaterThan(0);
    // As version 18 left it: neither table (migration 20 runs again on open).
    await reopenAt(18, ['week_stats', 'month_stats']);
    expect(await rowsOf(store, MONTH)).toEqual(expected);
    // And kept from there on: one more report adds to its month.
    const run = history.at(-1)!;
    const before = Number(await store.sql.value('SELECT sum(runs) FROM month_stats'));
    expect((await ingestValue(store, run.report, { fileName: run.fileName })).duplicate).toBe(false);
    expect(Number(await store.sql.value('SELECT sum(runs) FROM month_stats'))).toBeGreaterThan(before);
    await expectKept(store);
  }, 120_000);
});
