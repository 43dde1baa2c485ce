import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateHistory } from '../demo/history.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/engine/open.js';
import { answerJson } from './queries.js';
import { forgetTrendRows } from './trend-rows.js';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const temp = makeTempDir('flakeboard-trend-rows-');
afterAll(() => temp.cleanup());

describe('the trend counts a 7-day dashboard keeps', () => {
  it('are not kept for a data version written after its windows were read', async () => {
    const store = openStore(join(temp.dir, 'race.db'));
    try {
      for (const run of generateHistory({ seed: 4, runs: 14, days: 14, tests: 120, endDate: NOW - 86_400_000 })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      // Reports of today, stored by another process while the dashboard computes: after its two
      // window reads, before it keeps the trend counts made from them.
      const late = [...generateHistory({ seed: 99, runs: 3, days: 1, tests: 120, endDate: NOW - 3_600_000 })];
      // The dashboard reads the data version once, before its windows; the write lands after
      // them, while it looks up the names of the rows it lists.
      const value = store.sql.value.bind(store.sql);
      const all = store.sql.all.bind(store.sql);
      let signatureReads = 0;
      let written = false;
      store.sql.value = (async (text: string, params?: Record<string, unknown>) => {
        if (text.includes('AS signature FROM runs')) signatureReads++;
        return value(text, params);
      }) as typeof store.sql.value;
      store.sql.all = (async (text: string, params?: Record<string, unknown>) => {
        if (!written && text.startsWith('SELECT id, title, file, title_path FROM tests')) {
          written = true;
          for (const run of late) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
        }
        return all(text, params);
      }) as typeof store.sql.all;
      forgetTrendRows();
      await answerJson(store, 'dashboard', { days: 7, now: NOW, branch: null });
      expect(written).toBe(true);
      expect(signatureReads).toBe(1);

      const trends = { period: 7, now: NOW, page: 1, pageSize: 500, direction: null, file: null, test: null, branch: null };
      const served = JSON.parse(await answerJson(store, 'flakyTrends', trends));
      forgetTrendRows();
      const fresh = JSON.parse(await answerJson(store, 'flakyTrends', trends));
      expect(fresh.total).toBeGreaterThan(0);
      expect(served).toEqual(fresh);
    } finally {
      await store.close();
    }
  });
});
