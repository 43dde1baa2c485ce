import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateHistory } from '../../demo/history.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestValue } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import { withRollupRefresh } from './rollups.js';
import { rebuildAllTestTotals } from './test-totals.js';

let temp: ReturnType<typeof makeTempDir>;
let stores: Store[] = [];
beforeEach(() => {
  temp = makeTempDir('flakeboard-run-figures-');
});
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
  temp.cleanup();
});

type Row = Record<string, unknown>;

const TABLES = {
  daily_test_stats: 'test_id, browser, day',
  daily_error_stats: 'test_id, browser, day, fingerprint',
  test_totals: 'test_id, browser',
  branch_day_stats: 'branch_id, test_id, browser, day',
  week_stats: 'test_id, browser, week',
  month_stats: 'test_id, browser, month',
  branch_week_stats: 'branch_id, test_id, browser, week',
  branch_month_stats: 'branch_id, test_id, browser, month',
} as const;

const snapshot = (store: Store) =>
  Object.fromEntries(Object.entries(TABLES).map(([table, order]) => [table, store.sqlite.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all() as Row[]]));

/** Every rollup row again from the stored results alone, by the SQL rebuild paths (out-of-order imports, rejections). */
function rebuiltFromScratch(store: Store) {
  const runIds = (store.sqlite.prepare('SELECT id FROM runs').pluck().all() as number[]);
  store.sqlite.transaction(() => {
    for (const table of Object.keys(TABLES)) store.sqlite.exec(`DELETE FROM ${table}`);
    withRollupRefresh(store.sqlite, runIds, () => undefined);
    rebuildAllTestTotals(store.sqlite);
  })();
  return snapshot(store);
}

type Status = 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';

/** A report of one file; each test's results given as [status, duration, startTime or null]. */
function report(startTime: string | null, tests: Array<{ title: string; results: Array<[Status, number, string | null]>; error?: string }>) {
  return {
    config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
    suites: [
      {
        title: 'edge.spec.ts',
        file: 'edge.spec.ts',
        specs: tests.map((t, i) => ({
          title: t.title,
          file: 'edge.spec.ts',
          line: i + 1,
          column: 1,
          tests: [
            {
              projectName: 'chromium',
              expectedStatus: 'passed',
              status: t.results.some(([s]) => s === 'passed') ? (t.results.length > 1 ? 'flaky' : 'expected') : t.results[0]![0] === 'skipped' ? 'skipped' : 'unexpected',
              results: t.results.map(([status, duration, start], retry) => ({
                status,
                retry,
                duration,
                ...(start ? { startTime: start } : {}),
                ...(status === 'failed' || status === 'timedOut' ? { error: { message: t.error ?? 'Error: boom' } } : {}),
              })),
            },
          ],
        })),
      },
    ],
    errors: [],
    ...(startTime ? { stats: { startTime, duration: 1000, expected: 0, unexpected: 0, flaky: 0, skipped: 0 } } : {}),
  };
}

describe('a run\'s rollup figures computed while it is written', () => {
  it('equal a from-scratch rebuild over the stored results, for a generated history imported in time order', () => {
    const store = openStore(join(temp.dir, 'history.db'));
    stores.push(store);
    for (const run of generateHistory({ seed: 11, runs: 16, days: 5, tests: 20, browsers: ['chromium', 'firefox'], outageRuns: 1 })) {
      ingestValue(store, run.report, { fileName: run.fileName, approve: true });
    }
    const appended = snapshot(store);
    expect(appended.daily_test_stats!.length).toBeGreaterThan(100);
    expect(appended.daily_error_stats!.length).toBeGreaterThan(5);
    expect(appended.test_totals!.length).toBe(40);
    expect(rebuiltFromScratch(store)).toEqual(appended);
  });

  it('equal it for tests that never started, retries across midnight, skipped and interrupted attempts, repeated errors', () => {
    const store = openStore(join(temp.dir, 'edges.db'));
    stores.push(store);
    const day1 = '2026-11-20T23:59:59.000Z';
    ingestValue(
      store,
      report(day1, [
        { title: 'no start', results: [['skipped', 0, null]] },
        { title: 'across midnight', results: [['failed', 900, day1], ['timedOut', 30000, '2026-11-21T00:00:01.000Z'], ['passed', 50, '2026-11-21T00:00:40.000Z']] },
        { title: 'interrupted', results: [['interrupted', 5, day1]] },
        { title: 'same error', results: [['failed', 7, day1], ['failed', 8, day1]], error: 'Error: same' },
        { title: 'negative', results: [['passed', -1, day1]] },
      ]),
      { fileName: 'one.json', approve: true },
    );
    // No stats at all: the run's start is the earliest test start; the unstarted test takes it.
    ingestValue(
      store,
      report(null, [
        { title: 'no start', results: [['skipped', 0, null]] },
        { title: 'across midnight', results: [['passed', 40, '2026-11-21T10:00:00.000Z']] },
        { title: 'same error', results: [['failed', 9, '2026-11-21T10:00:01.000Z']], error: 'Error: same' },
      ]),
      { fileName: 'two.json', approve: true },
    );
    const appended = snapshot(store);
    expect(appended.daily_test_stats!.length).toBeGreaterThan(6);
    expect(appended.daily_error_stats!.length).toBeGreaterThanOrEqual(3);
    expect(appended.daily_test_stats!.some((r) => Number(r.duration_max) < 0)).toBe(true);
    expect(rebuiltFromScratch(store)).toEqual(appended);
  });

  it('equal it when one run has a test on two days of one week and month (added in time order), on a branch', () => {
    const store = openStore(join(temp.dir, 'repeats.db'));
    stores.push(store);
    // Friday 20 and Saturday 21 November 2026: one week (from Monday 16), one month.
    const friday = '2026-11-20T23:59:00.000Z';
    const saturday = '2026-11-21T00:01:00.000Z';
    const repeated = (starts: Array<[Status, string]>) => ({
      config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
      suites: [
        {
          title: 'repeat.spec.ts',
          file: 'repeat.spec.ts',
          specs: [
            {
              title: 'repeated',
              file: 'repeat.spec.ts',
              line: 1,
              column: 1,
              // --repeat-each: one test per repetition, of one project.
              tests: starts.map(([status, start]) => ({
                projectName: 'chromium',
                expectedStatus: 'passed',
                status: status === 'passed' ? 'expected' : 'unexpected',
                results: [{ status, retry: 0, duration: 10, startTime: start, ...(status === 'failed' ? { error: { message: 'Error: boom' } } : {}) }],
              })),
            },
          ],
        },
      ],
      errors: [],
      stats: { startTime: starts[0]![1], duration: 1000, expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
    });
    ingestValue(store, repeated([['passed', '2026-11-17T10:00:00.000Z']]), { fileName: 'tuesday.json', approve: true, gitBranch: 'main' });
    ingestValue(store, repeated([['failed', friday], ['passed', saturday], ['passed', '2026-11-21T00:02:00.000Z']]), { fileName: 'weekend.json', approve: true, gitBranch: 'main' });
    const appended = snapshot(store);
    // The second run's two days are one row of the week and of the month, on every branch and on
    // main: pass, fail, pass, pass in time order (added in another order, the changes and the last outcome differ).
    expect(appended.daily_test_stats!.length).toBe(3);
    for (const table of ['week_stats', 'month_stats', 'branch_week_stats', 'branch_month_stats'] as const) {
      expect(appended[table]!.map((row) => [row.runs, row.changes, row.last_outcome]), table).toEqual([[4, 2, 1]]);
    }
    expect(rebuiltFromScratch(store)).toEqual(appended);
  });
});
