import Database from 'better-sqlite3';
import { beforeAll, expect, it } from 'vitest';
import { describeEachEngine, freshDatabase } from '../../../fixtures/testing/engines.js';
import { RateLimiter } from '../../auth/rate-limit.js';
import type { AnyStore } from '../engine/types.js';
import { countHit, deleteEndedWindows } from './rate-limits.js';

const T0 = Date.UTC(2026, 10, 20, 10);

describeEachEngine('rate limits in the store', (engine) => {
  // Two servers on one database; busy_timeout 0 so SQLite's two connections on one thread wait asynchronously.
  const db = freshDatabase(engine, { connections: 2, open: { busyTimeoutMs: 0, max: 4 } });
  let store: AnyStore;
  let other: AnyStore;
  beforeAll(() => void ([store, other] = db.stores as [AnyStore, AnyStore]));

  it('counts hits of a key in its window, from either connection, and starts a new window when it ended', async () => {
    expect(await countHit(store, 'k', T0, 60_000)).toEqual({ hits: 1, windowEnd: T0 + 60_000 });
    expect(await countHit(other, 'k', T0 + 59_999, 60_000)).toEqual({ hits: 2, windowEnd: T0 + 60_000 });
    expect(await countHit(store, 'other-key', T0 + 1, 60_000)).toEqual({ hits: 1, windowEnd: T0 + 60_001 });
    expect(await countHit(other, 'k', T0 + 60_000, 60_000)).toEqual({ hits: 1, windowEnd: T0 + 120_000 });
  });

  it('hits sent at once through two connections are each counted once', async () => {
    const windows = await Promise.all(Array.from({ length: 40 }, (_, i) => countHit(i % 2 === 0 ? store : other, 'burst', T0, 60_000)));
    expect(windows.map((w) => w.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('deletes only the windows that ended', async () => {
    await countHit(store, 'old', T0 - 120_000, 60_000);
    await countHit(store, 'live', T0, 60_000);
    const before = Number(await store.sql.value('SELECT count(*) FROM rate_limits'));
    expect(await deleteEndedWindows(other, T0)).toBeGreaterThanOrEqual(1);
    const keys = (await store.sql.all<{ limit_key: string }>('SELECT limit_key FROM rate_limits ORDER BY limit_key')).map((r) => r.limit_key);
    expect(keys).not.toContain('old');
    expect(keys).toContain('live');
    expect(keys.length).toBeLessThan(before);
  });

  it('RateLimiter: two servers share one limit per key; the answer is the seconds left in the window', async () => {
    const a = new RateLimiter(store, 'login', 3, 60_000);
    const b = new RateLimiter(other, 'login', 3, 60_000);
    const waits = [await a.hit('10.1.1.1', T0), await b.hit('10.1.1.1', T0 + 1), await a.hit('10.1.1.1', T0 + 2), await b.hit('10.1.1.1', T0 + 30_000)];
    expect(waits).toEqual([0, 0, 0, 30]);
    // Another address, and another scope with the same key, are counted apart.
    expect(await a.hit('10.1.1.2', T0 + 30_000)).toBe(0);
    expect(await new RateLimiter(store, 'ai', 3, 60_000).hit('10.1.1.1', T0 + 30_000)).toBe(0);
    // The window ends: counting starts again.
    expect(await b.hit('10.1.1.1', T0 + 60_000)).toBe(0);
  });

  it('RateLimiter: a key over its limit is refused without asking the database until its window ends', async () => {
    const limiter = new RateLimiter(store, 'flood', 2, 60_000);
    const waits = [];
    for (let i = 0; i < 50; i++) waits.push(await limiter.hit('10.9.9.9', T0 + i));
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    expect(waits.slice(2).every((w) => w === 60 || w === 59)).toBe(true);
    // Counted in the database up to the first refusal only.
    expect(Number(await store.sql.value("SELECT hits FROM rate_limits WHERE limit_key = 'flood:10.9.9.9'"))).toBe(3);
    // Once the window ended the database is asked again, and a new window starts.
    expect(await limiter.hit('10.9.9.9', T0 + 60_000)).toBe(0);
    expect(Number(await store.sql.value("SELECT hits FROM rate_limits WHERE limit_key = 'flood:10.9.9.9'"))).toBe(1);
  });

  if (engine === 'sqlite') {
    it('RateLimiter: a refused key is answered at once while another writer holds the SQLite lock', async () => {
      const limiter = new RateLimiter(store, 'held', 1, 60_000);
      await limiter.hit('10.8.8.8', T0);
      expect(await limiter.hit('10.8.8.8', T0 + 1)).toBe(60);
      // Another process storing a big upload: it holds the write lock for as long as that takes.
      const writer = new Database(db.target.target);
      writer.exec('BEGIN IMMEDIATE');
      try {
        const started = performance.now();
        const answer = await Promise.race([limiter.hit('10.8.8.8', T0 + 2), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5000))]);
        // Without the memory of refused keys it waited for the lock (up to a minute).
        expect(answer).toBe(60);
        expect(performance.now() - started).toBeLessThan(1000);
      } finally {
        writer.exec('ROLLBACK');
        writer.close();
      }
    });
  }
});
