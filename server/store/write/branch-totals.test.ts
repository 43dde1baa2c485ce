import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { itFollowsReviewDeleteAndPrune, withoutBranch } from '../../../fixtures/testing/rollup-follows.js';
import { comparable, storedTable } from '../../../fixtures/testing/stored-rows.js';
import { generateHistory, type HistoryRun } from '../../demo/history.js';
import { ingestValue } from '../../ingest.js';
import { POSTGRES_VERSION_TABLE } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

/**
 * branch_test_totals is kept by every change that keeps test_totals (import in and out of order,
 * review, delete, prune), on both engines: after each, its rows are what every result and
 * attempt of each branch's runs say, counted in time order here in JavaScript (the flaky rule's
 * figures, docs/screens.md#flaky), and a run without a branch adds none.
 */
const END = Date.parse('2026-11-20T18:00:00Z');
// Over two calendar months, so keys have several months to be rebuilt from.
const runs = (): HistoryRun[] => [...generateHistory({ seed: 7, runs: 30, days: 40, tests: 14, browsers: ['chromium', 'webkit'], outageRuns: 1, endDate: END })];

type Result = { id: number; branch: string; test: string; browser: string; started_at: number; status: string; passed_on_retry: number; duration_ms: number; expected_status: string; outage: number };

/** Each branch's totals from its runs' results and attempts, in storedTable's form. */
async function fromRawRows(store: AnyStore): Promise<string[]> {
  const results = await store.sql.all<Result>(
    `SELECT r.id, runs.git_branch AS branch, t.file || ' › ' || t.title_path AS test, r.browser, r.started_at, r.status, r.passed_on_retry, r.duration_ms,
       r.expected_status, runs.outage
     FROM results r JOIN runs ON runs.id = r.run_id JOIN tests t ON t.id = r.test_id WHERE runs.git_branch IS NOT NULL ORDER BY r.started_at, r.id`,
  );
  const attempts = await store.sql.all<{ result_id: number; status: string }>('SELECT result_id, status FROM attempts ORDER BY result_id, retry');
  const byResult = new Map<number, string[]>();
  for (const a of attempts) byResult.set(Number(a.result_id), [...(byResult.get(Number(a.result_id)) ?? []), a.status]);
  const keys = new Map<string, Result[]>();
  for (const r of results) {
    const key = JSON.stringify([r.branch, r.test, r.browser]);
    keys.set(key, [...(keys.get(key) ?? []), r]);
  }
  const failed = (s: string) => s === 'failed' || s === 'timedOut';
  const rows = [...keys].map(([key, rs]) => {
    const timed = rs.filter((r) => r.status !== 'skipped');
    const scored = rs.filter((r) => Number(r.outage) === 0);
    const outcomes = scored
      .flatMap((r) => (byResult.get(Number(r.id)) ?? []).map((s) => (s === 'skipped' || s === 'interrupted' ? null : s === r.expected_status ? 1 : 0)))
      .filter((o): o is 0 | 1 => o !== null);
    const failures = rs.filter((r) => failed(r.status));
    const row = [
      ...(JSON.parse(key) as string[]),
      rs.length,
      rs.filter((r) => r.status === 'passed').length,
      failures.length,
      rs.length - timed.length,
      scored.filter((r) => Number(r.passed_on_retry) !== 0).length,
      scored.filter((r) => r.status === 'passed').length,
      scored.filter((r) => failed(r.status)).length,
      outcomes.length,
      outcomes.filter((o, i) => i > 0 && o !== outcomes[i - 1]).length,
      timed.reduce((n, r) => n + Number(r.duration_ms), 0),
      timed.reduce((n, r) => Math.max(n, Number(r.duration_ms)), 0),
      timed.length,
      outcomes[0] ?? null,
      outcomes.at(-1) ?? null,
      Math.max(...rs.map((r) => Number(r.started_at))),
      failures.length > 0 ? Math.max(...failures.map((r) => Number(r.started_at))) : null,
    ];
    return JSON.stringify(row.map(comparable));
  });
  return rows.sort();
}

async function expectKept(store: AnyStore): Promise<void> {
  const kept = await storedTable(store, 'branch_test_totals');
  expect(kept.length).toBeGreaterThan(0);
  expect(kept).toEqual(await fromRawRows(store));
}

describeEachEngine('the per-branch all-time totals', (engine) => {
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

  it('the history has several branches over several months, with flaky and failing tests', () => {
    expect(new Set(history.map((r) => r.branch)).size).toBeGreaterThan(1);
    const months = new Set(history.map((r) => new Date(r.startedAt).getUTCMonth()));
    expect(months.size).toBeGreaterThan(1);
  });

  it('follows imports in time order and late ones, and keeps a run without a branch out', async () => {
    // Mostly in time order (runs add to their branch's totals), some late (their keys are rebuilt from months).
    const stored = history.slice(0, -1);
    const late = stored.filter((_, i) => i % 6 === 2);
    const order = [...stored.filter((_, i) => i % 6 !== 2), ...late];
    for (const [i, run] of order.entries()) {
      const report = i === 3 ? withoutBranch(run.report) : run.report;
      ids.push((await ingestValue(store, report, { fileName: run.fileName })).runId);
    }
    expect(Number(await store.sql.value('SELECT count(*) FROM runs WHERE git_branch IS NULL'))).toBe(1);
    await expectKept(store);
    // The flaky rule finds something to say on some branch.
    expect(Number(await store.sql.value('SELECT count(*) FROM branch_test_totals WHERE passed_on_retry > 0 OR changes >= 2'))).toBeGreaterThan(0);
    // Every branch's runs add up to every run's, less the run on no branch.
    const all = Number(await store.sql.value('SELECT sum(runs) FROM test_totals'));
    const branched = Number(await store.sql.value('SELECT sum(runs) FROM branch_test_totals'));
    const outside = Number(await store.sql.value('SELECT count(*) FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.git_branch IS NULL'));
    expect(outside).toBeGreaterThan(0);
    expect(branched).toBe(all - outside);
  }, 120_000);

  itFollowsReviewDeleteAndPrune('branch_test_totals', () => ({ store, ids }), expectKept, 20);

  it('is filled by its migration on a database upgraded from the version before', async () => {
    const expected = await storedTable(store, 'branch_test_totals');
    expect(expected.length).toBeGreaterThan(0);
    await store.sql.run('DROP TABLE branch_test_totals');
    if (store.dialect === 'postgres') await store.sql.run(`UPDATE ${POSTGRES_VERSION_TABLE} SET version = 23`);
    else store.sqlite.pragma('user_version = 23');
    await store.close();
    store = await target.open();
    expect(await storedTable(store, 'branch_test_totals')).toEqual(expected);
    // And kept from there on: the last report adds to its branch.
    const run = history.at(-1)!;
    expect((await ingestValue(store, run.report, { fileName: run.fileName })).duplicate).toBe(false);
    await expectKept(store);
  }, 120_000);
});
