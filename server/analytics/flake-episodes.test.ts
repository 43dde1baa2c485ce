import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { generateHistory } from '../demo/history.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/engine/open.js';
import { flakeEpisodesOf, flakyTestIds } from '../store/read/time-to-fix.js';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../fixtures/testing/engines.js';
import type { AnyStore } from '../store/engine/types.js';
import { deleteRun } from '../store/write/uploads.js';
import { dataSignature } from '../store/read/window-scan.js';
import { answerJson } from './queries.js';
import { BRANCHES_KEPT, allFlakeEpisodes, forgetFlakeEpisodes } from './flake-episodes.js';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const DAY = 86_400_000;
const temp = makeTempDir('flakeboard-flake-episodes-');
afterAll(() => temp.cleanup());

describe('every flaky test episodes, kept per data version', () => {
  it('are read once for every dashboard window of one version, then only the new days after an upload; each answer equals a cold one', async () => {
    const store = openStore(join(temp.dir, 'kept.db'));
    try {
      for (const run of generateHistory({ seed: 7, runs: 12, days: 40, tests: 60, endDate: NOW - 2 * DAY })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      const all = store.sql.all.bind(store.sql);
      let episodeReads = 0;
      store.sql.all = (async (text: string, params?: Record<string, unknown>) => {
        if (text.includes('FROM daily_test_stats d WHERE d.test_id IN (SELECT test_id FROM test_totals') && !text.includes('@fromDay')) episodeReads++;
        return all(text, params);
      }) as typeof store.sql.all;

      const answers = [];
      for (const days of [7, 30, 90, 0]) answers.push(JSON.parse(await answerJson(store, 'dashboard', { days, now: NOW, branch: null })));
      expect(episodeReads).toBe(1);
      expect(answers.some((a) => a.timeToFix.fixed > 0 || a.timeToFix.open > 0)).toBe(true);

      // A report stored after: the next answer reads only the days it touched.
      for (const run of generateHistory({ seed: 8, runs: 2, days: 1, tests: 60, endDate: NOW - 3_600_000 })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      const after = JSON.parse(await answerJson(store, 'dashboard', { days: 30, now: NOW, branch: null }));
      expect(episodeReads).toBe(1);
      forgetFlakeEpisodes(store);
      const cold = JSON.parse(await answerJson(store, 'dashboard', { days: 30, now: NOW, branch: null }));
      expect(episodeReads).toBe(2);
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

describeEachEngine('flake episodes after a change', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  beforeAll(async () => {
    target = await createTestTarget(engine);
    store = await target.open();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  it('equal a whole read after every upload (in order, late, on any branch) reading only their days, and after a delete reading everything', async () => {
    const history = [...generateHistory({ seed: 5, runs: 70, days: 40, tests: 30, endDate: NOW - DAY })];
    // A short start: some tests first flake after it.
    const half = 8;
    for (const run of history.slice(0, half)) await ingestValue(store, run.report, { fileName: run.fileName, approve: true });
    const all = store.sql.all.bind(store.sql);
    let whole = 0;
    let tails = 0;
    store.sql.all = (async (text: string, params?: Record<string, unknown>) => {
      if (/GROUP BY \+?d\.test_id/.test(text)) {
        if (text.includes('@fromDay')) tails++;
        else if (!text.includes('@ids')) whole++;
      }
      return all(text, params);
    }) as typeof store.sql.all;
    const check = async () => {
      const signature = await dataSignature(store);
      for (const branch of [null, 'main']) {
        const kept = await allFlakeEpisodes(store, signature, branch);
        store.sql.all = all;
        expect(kept, `branch ${branch}`).toEqual(await flakeEpisodesOf(store, null, branch));
        store.sql.all = counting;
      }
    };
    const counting = store.sql.all;
    await check();
    expect(whole).toBe(2);
    const flakyBefore = await flakyTestIds(store);
    // The rest in order but every fifth one late (after the one that followed it).
    const rest = history.slice(half);
    const order = rest.map((_, i) => (i % 5 === 0 && i + 1 < rest.length ? rest[i + 1]! : i % 5 === 1 ? rest[i - 1]! : rest[i]!));
    for (const run of order) {
      await ingestValue(store, run.report, { fileName: run.fileName, approve: true });
      await check();
    }
    expect(whole).toBe(2);
    expect(tails).toBe(2 * order.length);
    // Some test became flaky only in the second half: its whole history was read.
    expect([...(await flakyTestIds(store))].some((id) => !flakyBefore.has(id))).toBe(true);
    const newest = Number(await store.sql.value('SELECT max(id) FROM runs'));
    await deleteRun(store, newest - 3);
    await check();
    expect(whole).toBe(4);
  }, 120_000);
});

