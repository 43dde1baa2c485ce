import { describe, expect, it } from 'vitest';
import { smallReport } from '../../../fixtures/testing/app.js';
import { ingestValue } from '../../ingest.js';
import { freshStoreEachTest } from '../../../fixtures/testing/store.js';
import type { AnyStore } from '../engine/types.js';
import { reviewUploads } from '../write/uploads.js';
import { createUser } from '../accounts/users.js';
import { lastTitlePart, loadTestHistory } from './test-history.js';

// On the run's engine (FLAKEBOARD_TEST_ENGINE): a fresh database per test.
let store: AnyStore;
freshStoreEachTest((fresh) => (store = fresh));

/** smallReport in another file, started on another day (so each is its own content). */
function report(options: { file?: string; day: number; status?: 'passed' | 'failed'; title?: string }) {
  const r = smallReport(options.title ?? 'checkout works', options.status ?? 'passed');
  const startTime = `2026-11-${String(options.day).padStart(2, '0')}T10:00:00.000Z`;
  const file = options.file ?? 'shop.spec.ts';
  r.suites[0]!.file = file;
  r.suites[0]!.title = file;
  const spec = r.suites[0]!.specs[0]!;
  spec.file = file;
  for (const test of spec.tests) test.results[0]!.startTime = startTime;
  r.stats.startTime = startTime;
  return r;
}

const ingest = async (value: unknown, approve = true) => ingestValue(store, value, { fileName: 'r.json', approve, gitCommit: 'abc1234', gitBranch: 'main' });

describe('loadTestHistory', () => {
  it('reads every browser of the test, oldest first, with the run commit and error', async () => {
    await ingest(report({ day: 2, status: 'failed' }));
    await ingest(report({ day: 1 }));
    const history = await loadTestHistory(store, { title: 'checkout works' });
    expect(history.tests).toEqual([{ id: 1, file: 'shop.spec.ts' }]);
    expect(history.entries.map((e) => [e.browser, e.status])).toEqual([
      ['chromium', 'passed'],
      ['firefox', 'passed'],
      ['chromium', 'failed'],
      ['firefox', 'failed'],
    ]);
    expect(history.entries[2]).toMatchObject({
      gitCommit: 'abc1234',
      gitBranch: 'main',
      errorCategory: 'Element Wait Timeout',
      errorHead: 'Error: locator.click: Timeout 5000ms exceeded.',
      firstAttemptMs: 1200,
      outageRun: false,
    });
  });

  it('narrows a shared title by the file the UI sends, even as an absolute path', async () => {
    await ingest(report({ day: 1, file: 'shop.spec.ts' }));
    await ingest(report({ day: 2, file: 'cart/cart.spec.ts' }));
    expect((await loadTestHistory(store, { title: 'checkout works' })).tests).toHaveLength(2);
    const narrowed = await loadTestHistory(store, { title: 'checkout works', file: '/home/ci/app/tests/cart/cart.spec.ts' });
    expect(narrowed.tests).toEqual([{ id: 2, file: 'cart/cart.spec.ts' }]);
    expect(narrowed.entries.every((e) => e.file === 'cart/cart.spec.ts')).toBe(true);
    // A title joined from its describe path falls back to its last part.
    expect((await loadTestHistory(store, { title: 'Shop › checkout works', file: 'shop.spec.ts' })).tests).toEqual([{ id: 1, file: 'shop.spec.ts' }]);
  });

  it('is bounded, keeping the newest results', async () => {
    for (let day = 1; day <= 3; day++) await ingest(report({ day }));
    const history = await loadTestHistory(store, { title: 'checkout works', limit: 3 });
    expect(history.truncated).toBe(true);
    expect(history.entries.map((e) => new Date(e.startedAt).getUTCDate())).toEqual([2, 3, 3]);
  });

  it('leaves out rejected runs and duplicates', async () => {
    const reviewer = await createUser(store, { username: 'rita', passwordHash: 'x', role: 'reviewer' });
    await ingest(report({ day: 1 }));
    const duplicate = await ingest(report({ day: 1 }), false);
    expect(duplicate.duplicate).toBe(true);
    const rejected = await ingest(report({ day: 2, status: 'failed' }), false);
    await reviewUploads(store, [{ id: rejected.runId, action: 'reject' }], { id: reviewer.id, notes: null });
    const history = await loadTestHistory(store, { title: 'checkout works' });
    expect(history.entries.map((e) => [e.runId, e.status])).toEqual([
      [1, 'passed'],
      [1, 'passed'],
    ]);
  });

  it('finds nothing for an unknown title', async () => {
    expect(await loadTestHistory(store, { title: 'nope' })).toEqual({ entries: [], tests: [], truncated: false });
  });
});

describe('lastTitlePart', () => {
  it('takes what follows the last separator of a joined title path', () => {
    expect(lastTitlePart('Cart › adds an item')).toBe('adds an item');
    expect(lastTitlePart('Shop > Cart › adds')).toBe('adds');
    expect(lastTitlePart('a>b stays whole')).toBe('a>b stays whole');
    expect(lastTitlePart('plain title')).toBe('plain title');
  });

  it('is linear on a title of blanks (the split regex took 40 s on 100,000 spaces)', () => {
    const started = performance.now();
    expect(lastTitlePart(`x${' '.repeat(100_000)}y`)).toBe(`x${' '.repeat(100_000)}y`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
