import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateHistory } from '../../demo/history.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestValue } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import { errorPatternRows } from './analytics.js';

// SQLite only: the plan is SQLite's (PostgreSQL's planner chooses on its statistics).
const NOW = Date.parse('2026-11-20T18:00:00Z');
const TODAY = Math.floor(NOW / 86_400_000);
const temp = makeTempDir('flakeboard-error-patterns-');
let store: Store;

beforeAll(() => {
  store = openStore(join(temp.dir, 'history.db'));
  for (const run of generateHistory({ seed: 5, runs: 10, days: 10, tests: 60, endDate: NOW })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
}, 120_000);
afterAll(async () => {
  await store.close();
  temp.cleanup();
});

describe('the error patterns of a window', () => {
  it('read the error rows of its days from the covering index alone, never a lookup of each row in the table', async () => {
    const range = { from: TODAY - 29, to: TODAY };
    const calls: Array<[string, unknown]> = [];
    const all = vi.spyOn(store.sql, 'all');
    const get = vi.spyOn(store.sql, 'get');
    try {
      const { rows, counts } = await errorPatternRows(store, range, { limit: 20, offset: 0 });
      expect(rows.length).toBeGreaterThan(0);
      expect(counts.failures).toBeGreaterThan(0);
      calls.push(...(all.mock.calls as Array<[string, unknown]>), ...(get.mock.calls as Array<[string, unknown]>));
    } finally {
      all.mockRestore();
      get.mockRestore();
    }
    expect(calls).toHaveLength(2);
    for (const [text, params] of calls) {
      const plan = (store.sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(params ?? {}) as Array<{ detail: string }>).map((r) => r.detail);
      const errorRows = plan.filter((step) => /^(SEARCH|SCAN) [ex] /.test(step));
      expect(errorRows.length).toBeGreaterThan(0);
      for (const step of errorRows) expect(step).toContain('USING COVERING INDEX daily_error_stats_by_day');
    }
  });
});
