import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { generateHistory } from '../../demo/history.js';
import { ingestValue } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import type { FlakeDay } from '../../../core/analytics/formulas.js';
import { flakeDaysOf } from './time-to-fix.js';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const temp = makeTempDir('flakeboard-time-to-fix-');
afterAll(() => temp.cleanup());

// SQLite's statistics of the ten-million-result history (100,000 tests, a year of days; bench
// large-10m.db after ANALYZE): the planner chooses as it would there, on a file of a few runs.
const YEAR_STATISTICS: Array<[string, string, string]> = [
  ['test_totals', 'test_totals_flaky', '20000 4'],
  ['test_totals', 'test_totals', '100000 4 1'],
  ['daily_test_stats', 'daily_test_stats_by_day', '10000000 43291 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1'],
  ['daily_test_stats', 'daily_test_stats', '10000000 400 100 1'],
  ['branch_day_stats', 'branch_day_stats_by_day', '10000000 1666667 43291 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1'],
  ['branch_day_stats', 'branch_day_stats', '10000000 1666667 67 17 1'],
  ['branches', 'sqlite_autoindex_branches_1', '6 1'],
];

/** The plan of each statement flakeDaysOf sends, as SQLite would run it on a year's history. */
async function plansOf(store: Store, read: () => Promise<unknown>): Promise<string[]> {
  const all = store.sql.all.bind(store.sql);
  const plans: string[] = [];
  store.sql.all = (async (text: string, params?: Record<string, unknown>) => {
    if (/GROUP BY \+?d\.test_id/.test(text)) {
      const steps = store.sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(params ?? {}) as Array<{ detail: string }>;
      plans.push(steps.map((s) => s.detail).join('; '));
    }
    return all(text, params);
  }) as typeof store.sql.all;
  try {
    await read();
  } finally {
    store.sql.all = all;
  }
  return plans;
}

describe("the flaky tests' days on a year's history (SQLite)", () => {
  it("sums each day's browsers, and reads the days an upload added from the by-day index's range of them, not every day of each flaky test", async () => {
    const path = join(temp.dir, 'year.db');
    const writer = openStore(path);
    for (const run of generateHistory({ seed: 3, runs: 6, days: 20, tests: 30, endDate: NOW })) ingestValue(writer, run.report, { fileName: run.fileName, approve: true });
    writer.sqlite.exec('ANALYZE');
    const put = writer.sqlite.prepare('INSERT OR REPLACE INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
    for (const row of YEAR_STATISTICS) put.run(...row);
    await writer.close();
    // A new connection plans with the statistics it loads when it opens.
    const store = openStore(path);
    try {
      const lastDay = Math.floor(NOW / 86_400_000);
      const tail = await plansOf(store, () => flakeDaysOf(store, null, null, lastDay));
      expect(tail).toHaveLength(1);
      expect(tail[0]).toContain('USING COVERING INDEX daily_test_stats_by_day (day>?)');
      const branchTail = await plansOf(store, () => flakeDaysOf(store, null, 'main', lastDay));
      expect(branchTail[0]).toContain('USING COVERING INDEX branch_day_stats_by_day (branch_id=? AND day>?)');
      // Every day of each: the primary key, one test after another.
      const whole = await plansOf(store, () => flakeDaysOf(store, null, null));
      expect(whole[0]).toContain('SEARCH d USING PRIMARY KEY (test_id=?)');

      // Each day's browsers summed, as grouping the rows by test and day gives them.
      const grouped = store.sqlite
        .prepare(
          `SELECT test_id, day, sum(scored_passed + scored_failed) AS runs, sum(scored_failed) AS failed, sum(passed_on_retry) AS retried FROM daily_test_stats
           WHERE test_id IN (SELECT test_id FROM test_totals WHERE scored_passed + scored_failed > 0 AND (passed_on_retry > 0 OR changes >= 2))
           GROUP BY test_id, day ORDER BY test_id, day`,
        )
        .all() as Array<{ test_id: number; day: number; runs: number; failed: number; retried: number }>;
      const expected = new Map<number, FlakeDay[]>();
      for (const r of grouped) {
        if (!expected.has(r.test_id)) expected.set(r.test_id, []);
        expected.get(r.test_id)!.push({ day: r.day, runs: r.runs, flaked: r.failed > 0 || r.retried > 0 });
      }
      expect(expected.size).toBeGreaterThan(0);
      expect([...expected.values()].some((days) => days.some((d) => d.flaked) && days.some((d) => !d.flaked))).toBe(true);
      expect(await flakeDaysOf(store, null)).toEqual(expected);

      // The same days either way: the tail read is the whole read's last days.
      const all = await flakeDaysOf(store, null);
      const from = Math.max(...[...all.values()].flat().map((d) => d.day)) - 5;
      const last = await flakeDaysOf(store, null, null, from);
      expect(last.size).toBeGreaterThan(0);
      for (const [id, days] of all) expect(last.get(id) ?? []).toEqual(days.filter((d) => d.day >= from));
    } finally {
      await store.close();
    }
  });
});
