import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { generateHistory } from '../demo/history.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/engine/open.js';
import { flakeEpisodesOf } from '../store/read/time-to-fix.js';
import { dataSignature } from '../store/read/window-scan.js';
import { answerJson } from './queries.js';
import { BRANCHES_KEPT, allFlakeEpisodes, forgetFlakeEpisodes } from './flake-episodes.js';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const DAY = 86_400_000;
const temp = makeTempDir('flakeboard-flake-episodes-');
afterAll(() => temp.cleanup());

describe('every flaky test episodes, kept per data version', () => {
  it('are read once for every dashboard window of one version, and again after a write; each answer equals a cold one', async () => {
    const store = openStore(join(temp.dir, 'kept.db'));
    try {
      for (const run of generateHistory({ seed: 7, runs: 12, days: 40, tests: 60, endDate: NOW - 2 * DAY })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      const all = store.sql.all.bind(store.sql);
      let episodeReads = 0;
      store.sql.all = (async (text: string, params?: Record<string, unknown>) => {
        if (text.includes('FROM daily_test_stats d WHERE d.test_id IN (SELECT test_id FROM test_totals')) episodeReads++;
        return all(text, params);
      }) as typeof store.sql.all;

      const answers = [];
      for (const days of [7, 30, 90, 0]) answers.push(JSON.parse(await answerJson(store, 'dashboard', { days, now: NOW, branch: null })));
      expect(episodeReads).toBe(1);
      expect(answers.some((a) => a.timeToFix.fixed > 0 || a.timeToFix.open > 0)).toBe(true);

      // A report stored after: the next answer reads the episodes of the new version.
      for (const run of generateHistory({ seed: 8, runs: 2, days: 1, tests: 60, endDate: NOW - 3_600_000 })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      const after = JSON.parse(await answerJson(store, 'dashboard', { days: 30, now: NOW, branch: null }));
      expect(episodeReads).toBe(2);
      forgetFlakeEpisodes(store);
      const cold = JSON.parse(await answerJson(store, 'dashboard', { days: 30, now: NOW, branch: null }));
      expect(episodeReads).toBe(3);
      expect(after.timeToFix).toEqual(cold.timeToFix);
    } finally {
      await store.close();
    }
  });

  it('callers of one version at the same time share one read; another version reads again', async () => {
    const store = openStore(join(temp.dir, 'shared.db'));
    try {
      for (const run of generateHistory({ seed: 9, runs: 8, days: 30, tests: 40, endDate: NOW - DAY })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      const signature = await dataSignature(store);
      const [a, b] = await Promise.all([allFlakeEpisodes(store, signature), allFlakeEpisodes(store, signature)]);
      expect(a).toBe(b);
      expect(a).toEqual(await flakeEpisodesOf(store, null));
      // Another version asks again: the kept map is of the version it was read for.
      const other = await allFlakeEpisodes(store, `${signature}+`);
      expect(other).not.toBe(a);
      expect(other).toEqual(a);
    } finally {
      await store.close();
    }
  });

  it('are kept per branch, each read from that branch’s days alone, the least recently asked branch dropped first', async () => {
    const store = openStore(join(temp.dir, 'branches.db'));
    try {
      const history = [...generateHistory({ seed: 11, runs: 30, days: 20, tests: 30, endDate: NOW - DAY })];
      for (const run of history) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      const signature = await dataSignature(store);
      const main = await allFlakeEpisodes(store, signature, 'main');
      expect(main).toBe(await allFlakeEpisodes(store, signature, 'main'));
      expect(main).toEqual(await flakeEpisodesOf(store, null, 'main'));
      expect(main).not.toEqual(await allFlakeEpisodes(store, signature));
      for (let i = 0; i < BRANCHES_KEPT; i++) await allFlakeEpisodes(store, signature, `other-${i}`);
      // main was asked least recently of the nine single branches: read again; every branch's stays.
      expect(await allFlakeEpisodes(store, signature, 'main')).not.toBe(main);
      expect(await allFlakeEpisodes(store, signature, `other-${BRANCHES_KEPT - 1}`)).toBe(await allFlakeEpisodes(store, signature, `other-${BRANCHES_KEPT - 1}`));
    } finally {
      await store.close();
    }
  });
});
