import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { generateHistory } from '../demo/history.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/engine/open.js';
import type { Store } from '../store/engine/types.js';
import { episodeStateInThread, episodeWorkerBeside, readEpisodeStateInThread } from './episode-thread.js';
import { readEpisodeState } from './flake-episodes.js';
import { flakyTestResults } from '../store/read/time-to-fix.js';
import { answerJson } from './queries.js';
import { createAnalyticsRunner } from './runner.js';
import { today } from './windows.js';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const DAY = 86_400_000;
const ENTRY = new URL('./episode-worker.ts', import.meta.url);
const temp = makeTempDir('flakeboard-episode-thread-');
let store: Store;
let path: string;

beforeAll(() => {
  path = join(temp.dir, 'history.db');
  store = openStore(path);
  // Flaky tests on several branches, some of their episodes fixed and some open.
  for (const run of generateHistory({ seed: 13, runs: 40, days: 30, tests: 40, endDate: NOW - DAY })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
});
afterAll(async () => {
  await store?.close();
  temp.cleanup();
});

describe('the episode reader thread', () => {
  it('reads every flaky test’s days and episodes as the caller’s own thread does, for every branch and for one', async () => {
    for (const branch of [null, 'main']) {
      const here = await readEpisodeState(store, branch);
      expect(here.episodes.size, `flaky tests on ${branch ?? 'every branch'}`).toBeGreaterThan(0);
      const there = await readEpisodeStateInThread(ENTRY, { path, branch });
      expect(there.flaky).toEqual(here.flaky);
      expect(there.days).toEqual(here.days);
      expect(there.episodes).toEqual(here.episodes);
    }
  });

  it('says why it could not read, and the caller then reads in its own thread', async () => {
    const missing = join(temp.dir, 'missing', 'none.db');
    await expect(readEpisodeStateInThread(ENTRY, { path: missing, branch: null })).rejects.toThrow(/cannot open the database/);
    const gaveWay: Error[] = [];
    const state = await episodeStateInThread(ENTRY, missing, { gaveWay: (error) => gaveWay.push(error), fromResults: 0 })(store, null);
    expect(gaveWay.map((e) => e.message)).toEqual([expect.stringMatching(/cannot open the database/)]);
    expect(state.episodes).toEqual((await readEpisodeState(store, null)).episodes);
  });

  it('is not started for a history whose flaky tests have fewer results than it costs to start', async () => {
    const results = await flakyTestResults(store);
    expect(results).toBeGreaterThan(0);
    const missing = join(temp.dir, 'missing', 'none.db');
    const started: Error[] = [];
    // Told of a file it cannot open: a started thread would give way and say so.
    const below = await episodeStateInThread(ENTRY, missing, { gaveWay: (error) => started.push(error), fromResults: results + 1 })(store, null);
    expect(started).toEqual([]);
    expect(below.episodes).toEqual((await readEpisodeState(store, null)).episodes);
    await episodeStateInThread(ENTRY, missing, { gaveWay: (error) => started.push(error), fromResults: results })(store, null);
    expect(started).toHaveLength(1);
    // The bound: every flaky test's results, at least the day rows their read returns.
    const days = await store.sql.get<{ n: number }>('SELECT count(*) AS n FROM daily_test_stats WHERE test_id IN (SELECT test_id FROM test_totals WHERE scored_passed + scored_failed > 0 AND (passed_on_retry > 0 OR changes >= 2))');
    expect(results).toBeGreaterThanOrEqual(days!.n);
  });

  it('is found beside the analytics worker, built, bundled for a test run or from source', () => {
    expect(episodeWorkerBeside('file:///app/dist/analytics-worker.js').href).toBe('file:///app/dist/episode-worker.js');
    expect(episodeWorkerBeside('file:///tmp/bundles/server/analytics/worker.mjs').href).toBe('file:///tmp/bundles/server/analytics/episode-worker.mjs');
    const source = episodeWorkerBeside(new URL('./worker.ts', import.meta.url).href);
    expect(source.href).toBe(ENTRY.href);
    expect(existsSync(fileURLToPath(source))).toBe(true);
  });

  it('answers the analytics worker’s dashboards, which then equal those computed in this thread, with nothing said in the log', async () => {
    const warnings: string[] = [];
    const runner = createAnalyticsRunner(store, { keep: false, episodeThreadFromResults: 0, log: { warn: (_fields, message) => warnings.push(message) } });
    try {
      for (const branch of [null, 'main']) {
        const args = { days: 30, now: NOW, branch };
        const answer = JSON.parse(await runner.json(today(NOW), 'dashboard', args));
        expect(answer.timeToFix).toEqual(JSON.parse(await answerJson(store, 'dashboard', args)).timeToFix);
      }
      expect(warnings).toEqual([]);
    } finally {
      await runner.close();
    }
  });
});
