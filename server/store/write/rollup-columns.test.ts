import { describe, expect, it } from 'vitest';
import { postgresDialect, sqliteDialect } from '../engine/dialect.js';
import { openStore } from '../engine/open.js';
import { addToStored, DAY_ROLLUP, ERROR_ROLLUP, MONTH_ROLLUP, TOTAL_ROLLUP } from './rollup-columns.js';

describe('rollup columns', () => {
  it('name every column of the rollup tables the migrations make, and no other', async () => {
    const store = openStore(':memory:');
    try {
      const columns = (table: string) => (store.sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).sort();
      expect(DAY_ROLLUP.map((c) => c.name).sort()).toEqual(columns('daily_test_stats'));
      expect(MONTH_ROLLUP.map((c) => c.name).sort()).toEqual(columns('month_stats'));
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
});
