import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { itFollowsReviewDeleteAndPrune } from '../../../fixtures/testing/rollup-follows.js';
import { storedRows } from '../../../fixtures/testing/stored-rows.js';
import { generateHistory, type HistoryRun } from '../../demo/history.js';
import { ingestValue } from '../../ingest.js';
import { dialectFor, POSTGRES_VERSION_TABLE } from '../engine/dialect.js';
import { aggregate, ALL_DAYS_BY_MONTH, DAY_MS, monthsOfDays } from '../engine/rollup-shape.js';
import type { AnyStore } from '../engine/types.js';
import { MONTH_STATS_COLUMNS } from './rollups.js';

/**
 * month_stats is kept by every change that keeps daily_test_stats (import in and out of order,
 * review, delete, prune), on both engines: after each, its rows equal those aggregated from the
 * results at once per month (every attempt in time order, no day in between), and those the
 * migration's fill makes from the days.
 */
const END = Date.parse('2026-11-20T18:00:00Z');
// Seventy days: parts of September, October and November.
const runs = (): HistoryRun[] => [...generateHistory({ seed: 7, runs: 80, days: 70, tests: 10, browsers: ['chromium', 'webkit'], outageRuns: 1, endDate: END })];

/** The months from scratch: straight from the results, and from the days as migration 19 fills them. */
async function expectKept(store: AnyStore): Promise<void> {
  const t = dialectFor(store.dialect);
  const kept = (await storedRows(store)).month_stats;
  expect(kept.length).toBeGreaterThan(0);
  const fromResults = `SELECT r.id, r.test_id, r.browser, ${t.monthOf(`r.started_at / ${DAY_MS}`)} AS month, r.status, r.passed_on_retry, r.duration_ms,
    r.started_at, r.expected_status, runs.outage FROM results r JOIN runs ON runs.id = r.run_id`;
  await store.sql.run('DELETE FROM month_stats');
  await store.sql.run(`INSERT INTO month_stats (${MONTH_STATS_COLUMNS}) ${aggregate(fromResults, t, ['test_id', 'browser', 'month'])}`);
  expect((await storedRows(store)).month_stats).toEqual(kept);
  await store.sql.run('DELETE FROM month_stats');
  await store.sql.run(`INSERT INTO month_stats (${MONTH_STATS_COLUMNS}) ${monthsOfDays(ALL_DAYS_BY_MONTH(t), t)}`);
  expect((await storedRows(store)).month_stats).toEqual(kept);
}

describeEachEngine('the monthly rollup', (engine) => {
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

  it('follows imports in time order and late ones, across months', async () => {
    // Mostly in time order (runs add to their days), some late (their days are rebuilt).
    // The last run is kept back for after the migration.
    const stored = history.slice(0, -1);
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
    // Some month holds changes between its days, not only within them.
    const between = Number(await store.sql.value(`SELECT count(*) FROM month_stats m WHERE m.changes >
      (SELECT sum(d.changes) FROM daily_test_stats d WHERE d.test_id = m.test_id AND d.browser = m.browser AND d.day >= m.month AND d.day < m.month + 31
        AND ${dialectFor(store.dialect).monthOf('d.day')} = m.month)`));
    expect(between).toBeGreaterThan(0);
    expect(Number(await store.sql.value('SELECT sum(runs) FROM month_stats'))).toBe(Number(await store.sql.value('SELECT sum(runs) FROM daily_test_stats')));
    await expectKept(store);
  }, 120_000);

  itFollowsReviewDeleteAndPrune('month_stats', () => ({ store, ids }), expectKept, 5);

  it('is filled by migration 19 on a database upgraded from version 18', async () => {
    const expected = (await storedRows(store)).month_stats;
    expect(expected.length).toBeGreaterThan(0);
    // As version 18 left it: no month table.
    await store.sql.run('DROP TABLE month_stats');
    if (store.dialect === 'postgres') await store.sql.run(`UPDATE ${POSTGRES_VERSION_TABLE} SET version = 18`);
    else store.sqlite.pragma('user_version = 18');
    await store.close();
    store = await target.open();
    expect((await storedRows(store)).month_stats).toEqual(expected);
    // And kept from there on: one more report adds to its month.
    const run = history.at(-1)!;
    const before = Number(await store.sql.value('SELECT sum(runs) FROM month_stats'));
    expect((await ingestValue(store, run.report, { fileName: run.fileName })).duplicate).toBe(false);
    expect(Number(await store.sql.value('SELECT sum(runs) FROM month_stats'))).toBeGreaterThan(before);
    await expectKept(store);
  }, 120_000);
});
