import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateHistory } from '../../demo/history.js';
import { smallReport } from '../../../fixtures/testing/app.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestValue } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import { fileSpace } from '../engine/maintenance.js';
import { fullVacuum, incrementalVacuum, planPrune, preparePrune, pruneBatch } from './prune.js';

let temp: ReturnType<typeof makeTempDir>;
let stores: Store[] = [];
beforeEach(() => {
  temp = makeTempDir('flakeboard-prune-');
});
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
  temp.cleanup();
});

function newStore(name: string): Store {
  const store = openStore(join(temp.dir, `${name}.db`));
  stores.push(store);
  return store;
}

type Row = Record<string, number | string | null>;
// Test ids differ between stores: rows are compared by test identity.
const keyed = (store: Store, table: 'daily_test_stats' | 'daily_error_stats'): Row[] =>
  (store.sqlite.prepare(`SELECT t.file, t.title_path, d.* FROM ${table} d JOIN tests t ON t.id = d.test_id ORDER BY t.file, t.title_path, d.browser, d.day${table === 'daily_error_stats' ? ', d.fingerprint' : ''}`).all() as Row[]).map(
    ({ test_id: _, ...rest }) => rest,
  );
const count = (store: Store, sql: string): number => store.sqlite.prepare(sql).pluck().get() as number;

// 4 runs a day over 6 days: a cut between two runs of one day leaves that day half pruned.
const history = () => [...generateHistory({ seed: 5, runs: 24, days: 6, tests: 20, browsers: ['chromium', 'webkit'], outageRuns: 1, endDate: '2026-11-20T00:00:00.000Z' })];

/** A one-test report of its own, started at `startTime`: its test exists nowhere else. */
function loneReport(startTime: string) {
  const report = smallReport('only in an old run', 'failed');
  report.stats.startTime = startTime;
  for (const test of report.suites[0]!.specs[0]!.tests) test.results[0]!.startTime = startTime;
  return report;
}

describe('prune', () => {
  // 100 results a batch, stretched to the end of a day: one batch per day (4 runs of 40, the
  // first day 5). At 30 a day is more than a batch may stretch to (2 × 30), so some batches end
  // inside a day.
  it.each([
    [100, (n: number) => n === 3],
    [30, (n: number) => n > 3],
  ])('removes old runs whole, in batches of %i results, and leaves the rollups exactly as if they had never been stored', (budget, expectedBatches) => {
    const runs = history();
    const cut = runs[10]!.startedAt;
    const kept = runs.filter((r) => r.startedAt >= cut);
    expect(new Date(runs[9]!.startedAt).toISOString().slice(0, 10)).toBe(new Date(cut).toISOString().slice(0, 10));

    const pruned = newStore('pruned');
    for (const run of runs) ingestValue(pruned, run.report, { fileName: run.fileName });
    ingestValue(pruned, runs[2]!.report, { fileName: 'again.json' }); // a duplicate of an old run
    ingestValue(pruned, loneReport(new Date(runs[0]!.startedAt).toISOString()), { fileName: 'lone.json' });
    const fresh = newStore('fresh');
    for (const run of kept) ingestValue(fresh, run.report, { fileName: run.fileName });

    const plan = planPrune(pruned, cut);
    expect(plan).toMatchObject({ runs: 12, oldest: runs[0]!.startedAt, newest: runs[9]!.startedAt });
    expect(plan.results).toBe(count(pruned, 'SELECT count(*) FROM results') - count(fresh, 'SELECT count(*) FROM results'));
    expect(plan.bytesEstimate).toBeGreaterThan(0);

    const resultsPerRun = () => pruned.sqlite.prepare('SELECT run_id, count(*) AS n FROM results GROUP BY run_id ORDER BY run_id').all();
    const before = new Map((resultsPerRun() as Array<{ run_id: number; n: number }>).map((r) => [r.run_id, r.n]));
    preparePrune(pruned);
    let batches = 0;
    let removed = { runs: 0, results: 0, attempts: 0, tests: 0 };
    for (let batch = pruneBatch(pruned, cut, budget); batch; batch = pruneBatch(pruned, cut, budget)) {
      batches++;
      removed = { runs: removed.runs + batch.runs, results: removed.results + batch.results, attempts: removed.attempts + batch.attempts, tests: removed.tests + batch.tests };
      // Between batches every run left has all of its results: runs go whole.
      for (const { run_id, n } of resultsPerRun() as Array<{ run_id: number; n: number }>) expect(n).toBe(before.get(run_id));
    }
    expect(expectedBatches(batches)).toBe(true);
    expect(removed).toEqual({ runs: plan.runs, results: plan.results, attempts: plan.attempts, tests: 1 });

    expect(count(pruned, 'SELECT count(*) FROM runs')).toBe(kept.length);
    expect(count(pruned, 'SELECT min(started_at) FROM runs')).toBe(cut);
    for (const table of ['results', 'attempts', 'tests']) expect(count(pruned, `SELECT count(*) FROM ${table}`)).toBe(count(fresh, `SELECT count(*) FROM ${table}`));
    expect(keyed(pruned, 'daily_test_stats').length).toBeGreaterThan(100);
    expect(keyed(pruned, 'daily_test_stats')).toEqual(keyed(fresh, 'daily_test_stats'));
    expect(keyed(pruned, 'daily_error_stats')).toEqual(keyed(fresh, 'daily_error_stats'));
    expect(pruneBatch(pruned, cut, 100)).toBeNull();
  });

  it('gives the freed pages back: incrementally once the file allows it, after one VACUUM', () => {
    const store = newStore('space');
    const runs = history();
    for (const run of runs) ingestValue(store, run.report, { fileName: run.fileName });
    preparePrune(store);
    while (pruneBatch(store, runs[8]!.startedAt, 1000));
    const afterDelete = fileSpace(store.sqlite);
    expect(afterDelete.autoVacuum).toBe('none');
    expect(afterDelete.freePages).toBeGreaterThan(10);
    expect(incrementalVacuum(store)).toBe(0);

    expect(fullVacuum(store)).toBeGreaterThanOrEqual(afterDelete.free);
    expect(fileSpace(store.sqlite)).toMatchObject({ autoVacuum: 'incremental', freePages: 0 });

    while (pruneBatch(store, runs[16]!.startedAt, 1000));
    const freed = fileSpace(store.sqlite);
    expect(freed.freePages).toBeGreaterThan(10);
    expect(incrementalVacuum(store, 7)).toBe(freed.free);
    expect(fileSpace(store.sqlite).freePages).toBe(0);
    expect(fileSpace(store.sqlite).pages).toBe(freed.pages - freed.freePages);
  });
});
