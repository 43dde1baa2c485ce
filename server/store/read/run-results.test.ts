/**
 * Third attacker review: a search of a run's results reads every error message of the run (a
 * body of up to the upload limit, 80 MB of messages took 2–2.5 s to search on this machine),
 * and it read them twice, once for the page and once for the total. Counted here through
 * stripAnsi, which the search calls once per error message it reads.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestStore, type TestStore } from '../../../fixtures/testing/store.js';
import { ingestValue } from '../../ingest.js';
import type { AnyStore } from '../engine/types.js';
import { runResultsPage } from './run-results.js';

const strips = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../../core/ansi.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../core/ansi.js')>();
  return {
    ...original,
    stripAnsi: (text: string) => {
      strips.calls++;
      return original.stripAnsi(text);
    },
  };
});

const COUNT = 40;
let database: TestStore;
let store: AnyStore;
let runId: number;

beforeAll(async () => {
  database = await openTestStore();
  store = database.store;
  const specs = Array.from({ length: COUNT }, (_, i) => ({
    title: `case ${i}`,
    file: 'a.spec.ts',
    line: 1,
    column: 1,
    tests: [
      {
        projectName: 'chromium',
        expectedStatus: 'passed',
        status: 'unexpected',
        results: [{ status: 'failed', retry: 0, duration: 1, startTime: '2026-11-20T10:00:00.000Z', error: { message: `\u001b[31mError: broken ${i % 4 === 0 ? 'needle' : 'hay'}\u001b[39m` } }],
      },
    ],
  }));
  runId = (await ingestValue(store, { config: { version: '1.50.0', projects: [{ name: 'chromium' }] }, suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs }] }, { fileName: 'a.json', approve: true })).runId;
});

afterAll(() => database.remove());

describe("a search of a run's results", () => {
  it('reads each error message once for the page and the total together', async () => {
    strips.calls = 0;
    const page = await runResultsPage(store, runId, { page: 2, pageSize: 4, status: 'all', sort: 'name', search: 'NEEDLE' });
    // Before: 2 × 40 (the page's scan and the count's scan).
    expect(strips.calls).toBe(COUNT);
    expect(page.total).toBe(COUNT / 4);
    expect(page.items.map((r) => r.test_title)).toEqual(['case 24', 'case 28', 'case 32', 'case 36']);
  });

  it('answers an empty page past the end, and no rows for a search nothing matches, with their totals', async () => {
    expect(await runResultsPage(store, runId, { page: 9, pageSize: 4, status: 'failed', sort: 'status', search: 'needle' })).toEqual({ items: [], total: 10, page: 9, pageSize: 4 });
    expect(await runResultsPage(store, runId, { page: 1, pageSize: 4, status: 'all', sort: 'duration', search: 'absent' })).toEqual({ items: [], total: 0, page: 1, pageSize: 4 });
  });
});
