import { describe, expect, it } from 'vitest';
import { postgresDialect, sqliteDialect } from '../engine/dialect.js';
import { openStore } from '../engine/open.js';
import { MONTH, WEEK } from '../engine/rollup-shape.js';
import { addToStored, DAY_ROLLUP, ERROR_ROLLUP, MONTH_ROLLUP, TOTAL_ROLLUP, WEEK_ROLLUP } from './rollup-columns.js';
import { periodRowsOf } from './rollups.js';
import type { DayRow } from './run-figures.js';

describe('rollup columns', () => {
  it('name every column of the rollup tables the migrations make, and no other', async () => {
    const store = openStore(':memory:');
    try {
      const columns = (table: string) => (store.sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).sort();
      expect(DAY_ROLLUP.map((c) => c.name).sort()).toEqual(columns('daily_test_stats'));
      expect(MONTH_ROLLUP.map((c) => c.name).sort()).toEqual(columns('month_stats'));
      expect(WEEK_ROLLUP.map((c) => c.name).sort()).toEqual(columns('week_stats'));
      expect(TOTAL_ROLLUP.map((c) => c.name).sort()).toEqual(columns('test_totals'));
      expect(ERROR_ROLLUP.map((c) => c.name).sort()).toEqual(columns('daily_error_stats'));
    } finally {
      await store.close();
    }
  });

  it('make one rule in each engine’s words: bare names and max() on SQLite, the stored row named and greatest() on PostgreSQL', () => {
    const sqlite = addToStored(TOTAL_ROLLUP, sqliteDialect);
    const postgres = addToStored(TOTAL_ROLLUP, postgresDialect, 'd');
    expect(sqlite).toMatch(/^ON CONFLICT \(test_id, browser\) DO UPDATE SET/);
    expect(sqlite).toContain('runs = runs + excluded.runs');
    expect(sqlite).toContain('changes = changes + excluded.changes + coalesce(last_outcome != excluded.first_outcome, 0)');
    expect(sqlite).toContain('first_outcome = coalesce(first_outcome, excluded.first_outcome)');
    expect(sqlite).toContain('last_outcome = coalesce(excluded.last_outcome, last_outcome)');
    expect(postgres).toContain('runs = d.runs + excluded.runs');
    expect(postgres).toContain('changes = d.changes + excluded.changes + coalesce((d.last_outcome != excluded.first_outcome)::int, 0)');
    expect(postgres).toContain('last_failed_at = greatest(d.last_failed_at, excluded.last_failed_at)');
    // Keys are never updated.
    expect(sqlite).not.toMatch(/\b(test_id|browser) =/);
  });

  it('add a run’s days of one month together by the upsert’s rules, in day order, before the month row takes them', () => {
    // test 1 on chromium: 31 January (fail … pass) and 1 and 2 February (pass … fail, then fail … fail); test 2 once.
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
    const row = (test: number, on: string, runs: number, changes: number, first: number | null, last: number | null, at: number): DayRow =>
      [test, 'chromium', day(on), runs, runs, 0, 0, 0, 10 * runs, 7, runs, runs, runs, 0, runs, changes, first, last, at];
    const days = [row(1, '2027-02-02', 1, 0, 0, 0, 30), row(2, '2027-02-01', 1, 0, 1, 1, 5), row(1, '2027-01-31', 2, 1, 0, 1, 10), row(1, '2027-02-01', 2, 1, 1, 0, 20)];
    const rows = periodRowsOf(MONTH, days);
    expect(rows).toEqual([
      [1, 'chromium', day('2027-01-01'), 2, 2, 0, 0, 0, 20, 7, 2, 2, 2, 0, 2, 1, 0, 1, 10],
      // 1 February then 2 February: changes 1 + 0, and none between (0 then 0); first and last of the month's days.
      [1, 'chromium', day('2027-02-01'), 3, 3, 0, 0, 0, 30, 7, 3, 3, 3, 0, 3, 1, 1, 0, 30],
      [2, 'chromium', day('2027-02-01'), 1, 1, 0, 0, 0, 10, 7, 1, 1, 1, 0, 1, 0, 1, 1, 5],
    ]);
    // A change between the days is counted once: a failing last day after a passing first.
    const between = periodRowsOf(MONTH, [row(3, '2027-03-02', 1, 0, 0, 0, 2), row(3, '2027-03-01', 1, 0, 1, 1, 1)]);
    expect(between[0]![15]).toBe(1);
    // A day without attempts leaves the outcomes as they were.
    const silent = periodRowsOf(MONTH, [row(4, '2027-03-01', 1, 0, 1, 1, 1), row(4, '2027-03-02', 1, 0, null, null, 2)]);
    expect([silent[0]![15], silent[0]![16], silent[0]![17]]).toEqual([0, 1, 1]);
    // Weeks start on Monday: Sunday 31 January is in the week of Monday 25 January, 1 and 2 February (a Monday and Tuesday) in theirs.
    expect(periodRowsOf(WEEK, days).map((r) => r.slice(0, 3))).toEqual([
      [1, 'chromium', day('2027-01-25')],
      [1, 'chromium', day('2027-02-01')],
      [2, 'chromium', day('2027-02-01')],
    ]);
    // A week across two months is one row: Wednesday 31 March and Thursday 1 April 2027, a change between them.
    const across = periodRowsOf(WEEK, [row(5, '2027-04-01', 1, 0, 0, 0, 2), row(5, '2027-03-31', 1, 0, 1, 1, 1)]);
    expect(across).toHaveLength(1);
    expect([across[0]![2], across[0]![3], across[0]![15]]).toEqual([day('2027-03-29'), 2, 1]);
  });

});
