import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { itFollowsReviewDeleteAndPrune, withoutBranch } from '../../../fixtures/testing/rollup-follows.js';
import { storedTable } from '../../../fixtures/testing/stored-rows.js';
import { generateHistory, type HistoryRun } from '../../demo/history.js';
import { ingestValue } from '../../ingest.js';
import { POSTGRES_VERSION_TABLE, postgresDialect, sqliteDialect } from '../engine/dialect.js';
import { aggregate, ALL_BRANCH_RESULTS, BRANCH_DAY_KEYS } from '../engine/rollup-shape.js';
import type { AnyStore } from '../engine/types.js';
import { BRANCH_STATS_COLUMNS } from './rollups.js';

/**
 * branch_day_stats is kept by every change that keeps daily_test_stats (import in and out of
 * order, review, delete, prune), on both engines: after each, its rows equal those the
 * migration's fill makes from scratch (every branch's results aggregated at once), and a run
 * without a branch adds none.
 */
const END = Date.parse('2026-11-20T18:00:00Z');
const runs = (): HistoryRun[] => [...generateHistory({ seed: 5, runs: 30, days: 8, tests: 16, browsers: ['chromium', 'webkit'], outageRuns: 1, endDate: END })];

/** The branch rows compared (by branch name and test identity), and the same made from scratch by migration 18's fill. */
async function keptAndFresh(store: AnyStore): Promise<{ kept: string[]; fresh: string[] }> {
  const kept = await storedTable(store, 'branch_day_stats');
  const fill = `INSERT INTO branch_day_stats (${BRANCH_STATS_COLUMNS}) ${aggregate(ALL_BRANCH_RESULTS, store.dialect === 'postgres' ? postgresDialect : sqliteDialect, BRANCH_DAY_KEYS)}`;
  await store.sql.run('DELETE FROM branch_day_stats');
  await store.sql.run(fill);
  return { kept, fresh: await storedTable(store, 'branch_day_stats') };
}

async function expectKept(store: AnyStore): Promise<void> {
  const { kept, fresh } = await keptAndFresh(store);
  expect(kept.length).toBeGreaterThan(0);
  expect(kept).toEqual(fresh);
}

describeEachEngine('the per-branch daily rollup', (engine) => {
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

  it('the history has several branches', () => {
    expect(new Set(history.map((r) => r.branch)).size).toBeGreaterThan(1);
  });

  it('follows imports in time order and late ones, and keeps a run without a branch out', async () => {
    // Mostly in time order (runs add to their days), some late (their days are rebuilt).
    // The last run is kept back for after the migration.
    const stored = history.slice(0, -1);
    const late = stored.filter((_, i) => i % 7 === 3);
    const order = [...stored.filter((_, i) => i % 7 !== 3), ...late];
    for (const [i, run] of order.entries()) {
      const report = i === 4 ? withoutBranch(run.report) : run.report;
      ids.push((await ingestValue(store, report, { fileName: run.fileName })).runId);
    }
    const unbranched = await store.sql.value<number>('SELECT count(*) FROM runs WHERE git_branch IS NULL');
    expect(Number(unbranched)).toBe(1);
    await expectKept(store);
    // Every branch's rows add up to the all-branch rollup, less the run on no branch.
    const all = Number(await store.sql.value('SELECT sum(runs) FROM daily_test_stats'));
    const branched = Number(await store.sql.value('SELECT sum(runs) FROM branch_day_stats'));
    const outside = Number(await store.sql.value('SELECT count(*) FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.git_branch IS NULL'));
    expect(outside).toBeGreaterThan(0);
    expect(branched).toBe(all - outside);
  }, 120_000);

  itFollowsReviewDeleteAndPrune('branch_day_stats', () => ({ store, ids }), expectKept, 3);

  it('is filled by migration 18 on a database upgraded from version 17', async () => {
    const expected = await storedTable(store, 'branch_day_stats');
    expect(expected.length).toBeGreaterThan(0);
    // As version 17 left it: neither table, nor migrations 19's, 20's, 21's and 24's (they run again on open).
    await store.sql.run('DROP TABLE branch_test_totals');
    await store.sql.run('DROP TABLE kept_answers');
    await store.sql.run('DROP TABLE branch_week_stats');
    await store.sql.run('DROP TABLE branch_month_stats');
    await store.sql.run('DROP TABLE week_stats');
    await store.sql.run('DROP TABLE month_stats');
    await store.sql.run('DROP TABLE branch_day_stats');
    await store.sql.run('DROP TABLE branches');
    if (store.dialect === 'postgres') await store.sql.run(`UPDATE ${POSTGRES_VERSION_TABLE} SET version = 17`);
    else store.sqlite.pragma('user_version = 17');
    await store.close();
    store = await target.open();
    expect(await storedTable(store, 'branch_day_stats')).toEqual(expected);
    // And kept from there on: one more report adds to its branch.
    const run = history.at(-1)!;
    const before = Number(await store.sql.value('SELECT sum(runs) FROM branch_day_stats'));
    expect((await ingestValue(store, run.report, { fileName: run.fileName })).duplicate).toBe(false);
    expect(Number(await store.sql.value('SELECT sum(runs) FROM branch_day_stats'))).toBeGreaterThan(before);
    await expectKept(store);
  }, 120_000);
});
