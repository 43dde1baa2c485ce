import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateHistory } from '../../demo/history.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestValue } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import { slowTestsWithCounts } from './analytics.js';
import { scanPeriod, scanTrend, scanWindow, type PairWindow } from './window-scan.js';

// SQLite only: the plan and the schema versions are SQLite's (PostgreSQL's planner chooses on its statistics).
const NOW = Date.parse('2026-11-20T18:00:00Z');
const TODAY = Math.floor(NOW / 86_400_000);
const temp = makeTempDir('flakeboard-window-scan-');
const path = join(temp.dir, 'history.db');
let store: Store;

beforeAll(() => {
  store = openStore(path);
  for (const run of generateHistory({ seed: 8, runs: 12, days: 12, tests: 60, endDate: NOW })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
}, 120_000);
afterAll(async () => {
  await store.close();
  temp.cleanup();
});

/** The plan of each query of the rollup a scan ran. */
async function plansOf(scan: (s: Store) => Promise<unknown>, on: Store = store): Promise<string[]> {
  const all = vi.spyOn(on.sql, 'all');
  try {
    await scan(on);
    return all.mock.calls
      .filter(([text]) => text.includes('FROM daily_test_stats'))
      .map(([text, params]) => (on.sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(params ?? {}) as Array<{ detail: string }>).map((r) => r.detail).join(' | '));
  } finally {
    all.mockRestore();
  }
}

describe('a window of the daily rollup', () => {
  it('short (2 of 12 days) reads its own days from the covering day index; long (7 of 12) passes over the rollup in key order', async () => {
    const short = { from: TODAY - 1, to: TODAY };
    expect(await plansOf((s) => scanWindow(s, short))).toEqual([expect.stringContaining('COVERING INDEX daily_test_stats_by_day')]);
    expect(await plansOf((s) => scanTrend(s, { from: TODAY, to: TODAY }, { from: TODAY - 1, to: TODAY - 1 }))).toEqual([expect.stringContaining('COVERING INDEX daily_test_stats_by_day')]);
    // In key order through the table itself, no sorter: the day outcomes are joined as the rows
    // arrive (concatInOrder 'inOrder'), which holds only while nothing sorts them.
    const long = { from: TODAY - 6, to: TODAY };
    for (const plan of [...(await plansOf((s) => scanWindow(s, long))), ...(await plansOf((s) => scanPeriod(s, long)))]) {
      expect(plan).toMatch(/^SCAN daily_test_stats($| \|)/);
      expect(plan).not.toContain('TEMP B-TREE FOR GROUP BY');
    }
  });

  it('gives the same rows by either reading, and on a read-only file from before the covering index', async () => {
    const short = { from: TODAY - 1, to: TODAY };
    const rows = await scanWindow(store, short);
    expect(rows.length).toBeGreaterThan(100);
    // The same days read in key order (a sum over the same rows, in the same key order).
    const byKey = store.sqlite.prepare(`SELECT test_id, browser, total(runs) AS runs, total(scored_failed) AS scored_failed FROM daily_test_stats WHERE +day BETWEEN ? AND ? GROUP BY test_id, browser`).all(short.from, short.to);
    expect(rows.map(({ test_id, browser, runs, scored_failed }) => ({ test_id, browser, runs, scored_failed }))).toEqual(byKey);

    // As flakeboard 9 left the file: the index on day alone; opened read-only, it is not migrated.
    const old = join(temp.dir, 'old.db');
    store.sqlite.prepare('VACUUM INTO ?').run(old);
    const writable = openStore(old);
    writable.sqlite.exec(
      'DROP INDEX daily_test_stats_by_day; CREATE INDEX daily_test_stats_day ON daily_test_stats(day); CREATE INDEX daily_test_stats_day_totals ON daily_test_stats(day, runs, passed, failed, skipped, duration_sum, timed_runs); PRAGMA user_version = 9;',
    );
    writable.sqlite.close();
    const readOnly = openStore(old, { readonly: true });
    try {
      expect(await plansOf((s) => scanWindow(s, short), readOnly)).toEqual([expect.stringContaining('INDEX daily_test_stats_day ')]);
      expect(await scanWindow(readOnly, short)).toEqual(rows satisfies PairWindow[]);
    } finally {
      await readOnly.close();
    }
  });
});

describe('the first and last stored day', () => {
  it('are read from the day index, never by a pass over the rollup (min and max in one SELECT scan it)', async () => {
    const all = vi.spyOn(store.sql, 'get');
    try {
      await slowTestsWithCounts(store, { from: TODAY - 29, to: TODAY }, { limit: 0, offset: 0 });
      await scanWindow(store, { from: TODAY - 6, to: TODAY });
      const bounds = all.mock.calls.map(([text]) => text).filter((text) => /\b(min|max)\(day\)/.test(text));
      expect(bounds.length).toBeGreaterThanOrEqual(2);
      for (const text of bounds) {
        const plan = (store.sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all() as Array<{ detail: string }>).map((r) => r.detail);
        expect(plan.length).toBeGreaterThan(0);
        for (const step of plan) expect(step).not.toMatch(/^SCAN daily_test_stats/);
      }
    } finally {
      all.mockRestore();
    }
  });
});
