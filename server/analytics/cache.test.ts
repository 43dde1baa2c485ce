import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../core/api/analytics.js';
import { buildSqliteTestApp, signIn, smallReport, type SqliteTestApp } from '../../fixtures/testing/app.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/engine/open.js';
import { AnalyticsCache, sharedRead } from './cache.js';

let t: SqliteTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('cached analytics answers', () => {
  it('change as soon as runs are written, by the server or by another process on the same file', async () => {
    const app = await buildSqliteTestApp({ now: () => Date.parse('2026-11-20T12:00:00Z') });
    t = app;
    const max = await signIn(app.app, 'max');
    const runs = async () => ((await app.app.inject({ method: 'GET', url: '/api/dashboard?days=7', headers: max.headers })).json() as DashboardResponse).summary[0].total_runs;
    expect(await runs()).toBe(0);
    expect(await runs()).toBe(0);

    await app.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: smallReport('one') } });
    expect(await runs()).toBe(1);

    // `flakeboard import` into the same database while the server runs.
    const other = openStore(app.target);
    ingestValue(other, smallReport('two'), { fileName: 'two.json' });
    await other.close();
    expect(await runs()).toBe(2);

    const rita = await signIn(app.app, 'rita');
    await app.app.inject({ method: 'DELETE', url: '/api/test-run/1', headers: rita.headers });
    expect(await runs()).toBe(1);

    // A rejection removes the run's results from the figures.
    const review = await app.app.inject({ method: 'PATCH', url: '/api/uploads/2/review', headers: rita.headers, payload: { action: 'reject' } });
    expect(review.statusCode).toBe(200);
    expect(await runs()).toBe(0);
  });
});

describe('trend counts kept between answers', () => {
  it('follow the data: a failing run written by another process shows in the next answers', async () => {
    const app = await buildSqliteTestApp({ now: () => Date.parse('2026-11-20T12:00:00Z') });
    t = app;
    const max = await signIn(app.app, 'max');
    const get = async (url: string) => (await app.app.inject({ method: 'GET', url, headers: max.headers })).json() as { total: number; counts: Record<string, number> };
    ingestValue(app.store, smallReport('one'), { fileName: 'one.json' });
    expect((await get('/api/flaky-trends?counts=true')).total).toBe(0);
    expect((await get('/api/dashboard?days=7')) as unknown as DashboardResponse).toMatchObject({ flakyCount: 0 });

    const other = openStore(app.target);
    ingestValue(other, smallReport('two', 'failed'), { fileName: 'two.json' });
    await other.close();
    // The report's test failed today on both its browsers for the first time: two new records, one test.
    const after = await get('/api/flaky-trends?counts=true');
    expect(after.total).toBe(2);
    expect(after.counts.new).toBe(1);
  });
});

describe('AnalyticsCache memory', () => {
  it('holds at most its character budget: the oldest answers go first, one bigger than the budget is not kept', async () => {
    const store = openStore(':memory:');
    try {
      const cache = new AnalyticsCache(store, 500, 100);
      const version = await cache.versionFor(1);
      expect(cache.lookup(version, 'a').hit).toBe(false);
      for (const key of ['a', 'b', 'c']) cache.keep(version, key, key.repeat(40));
      expect(cache.heldChars).toBe(80);
      expect([cache.lookup(version, 'a').hit, cache.lookup(version, 'b').hit, cache.lookup(version, 'c').hit]).toEqual([false, true, true]);
      // The same key again replaces its text, it is not counted twice.
      cache.keep(version, 'c', 'c'.repeat(50));
      expect(cache.heldChars).toBe(90);
      cache.keep(version, 'huge', 'x'.repeat(101));
      expect(cache.lookup(version, 'huge').hit).toBe(false);
      expect(cache.heldChars).toBe(90);
      // A new data version empties it.
      expect(cache.lookup(`${version}x`, 'b').hit).toBe(false);
      expect(cache.heldChars).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('the shared data-version read', () => {
  it('serves everyone who asked before it was sent, and never a read sent before the caller asked', async () => {
    const sent: Array<{ resolve: (value: string) => void }> = [];
    const read = sharedRead({}, 'version', () => new Promise<string>((resolve) => sent.push({ resolve })));
    const first = read();
    expect(sent).toHaveLength(1);
    // Asked while the first is on its way: both wait for one second read, sent when the first ends.
    const second = read();
    const third = read();
    expect(sent).toHaveLength(1);
    sent[0]!.resolve('v1');
    expect(await first).toBe('v1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
    sent[1]!.resolve('v2');
    expect(await second).toBe('v2');
    expect(await third).toBe('v2');
    // Nothing on its way: a new read at once.
    const fourth = read();
    expect(sent).toHaveLength(3);
    sent[2]!.resolve('v3');
    expect(await fourth).toBe('v3');
  });

  it('sends the next read after a failed one', async () => {
    let n = 0;
    const read = sharedRead({}, 'version', async () => {
      n++;
      if (n === 1) throw new Error('connection lost');
      return `v${n}`;
    });
    const first = read();
    const second = read();
    await expect(first).rejects.toThrow('connection lost');
    expect(await second).toBe('v2');
  });
});
