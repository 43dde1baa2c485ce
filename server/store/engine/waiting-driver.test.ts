import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { openStore } from './open.js';
import type { Store } from './types.js';

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let holder: Database.Database;
beforeEach(async () => {
  temp = makeTempDir('flakeboard-waiting-');
  const path = join(temp.dir, 'f.db');
  // As `serve` opens it: SQLite itself never sleeps on a held lock.
  store = openStore(path, { busyTimeoutMs: 0, lockWaitMs: 10_000 });
  await store.db.insertInto('settings').values({ key: 'k', value: 'v0' }).execute();
  holder = new Database(path);
});
afterEach(async () => {
  if (holder.inTransaction) holder.exec('ROLLBACK');
  holder.close();
  await store.close();
  temp.cleanup();
});

/** Ticks every 10 ms; the largest gap says how long the event loop was held. */
function loopWatch(): { stop(): number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return worst;
    },
  };
}

const hold = (ms: number) => {
  holder.exec('BEGIN IMMEDIATE');
  return new Promise<void>((resolve) =>
    setTimeout(() => {
      holder.exec('COMMIT');
      resolve();
    }, ms),
  );
};

describe('writes on the server thread wait for the lock without blocking it', () => {
  it('a Kysely write waits for another connection, while reads and timers go on', async () => {
    const watch = loopWatch();
    const released = hold(1500);
    const started = performance.now();
    const write = store.db.updateTable('settings').set({ value: 'v1' }).where('key', '=', 'k').execute();
    // Reads through the same Kysely connection are not queued behind the waiting write.
    const readStarted = performance.now();
    const read = await store.db.selectFrom('settings').select('value').where('key', '=', 'k').executeTakeFirst();
    const readMs = performance.now() - readStarted;
    await write;
    const writeMs = performance.now() - started;
    await released;
    const worstGap = watch.stop();
    expect(read).toEqual({ value: 'v0' });
    expect(readMs).toBeLessThan(500);
    expect(writeMs).toBeGreaterThanOrEqual(1400);
    // With busy_timeout the loop stood still for the whole 1.5 s.
    expect(worstGap).toBeLessThan(700);
    expect(await store.db.selectFrom('settings').select('value').where('key', '=', 'k').executeTakeFirst()).toEqual({ value: 'v1' });
  });

  it('a Kysely transaction begins IMMEDIATE, waiting the same way, and commits whole', async () => {
    const released = hold(800);
    const started = performance.now();
    await store.db.transaction().execute(async (trx) => {
      await trx.updateTable('settings').set({ value: 'v2' }).where('key', '=', 'k').execute();
      await trx.insertInto('settings').values({ key: 'k2', value: 'x' }).execute();
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(700);
    await released;
    expect(await store.db.selectFrom('settings').select(['key', 'value']).where('key', 'in', ['k', 'k2']).orderBy('key').execute()).toEqual([
      { key: 'k', value: 'v2' },
      { key: 'k2', value: 'x' },
    ]);
  });

  it('store.write runs a synchronous transaction once the lock is free', async () => {
    const watch = loopWatch();
    const released = hold(1000);
    const changed = await store.write(() => store.sqlite.prepare("UPDATE settings SET value = 'v3' WHERE key = 'k'").run().changes);
    await released;
    expect(changed).toBe(1);
    expect(watch.stop()).toBeLessThan(700);
  });

  it('gives up with SQLITE_BUSY after lockWaitMs', async () => {
    const short = openStore(join(temp.dir, 'f.db'), { busyTimeoutMs: 0, lockWaitMs: 300 });
    holder.exec('BEGIN IMMEDIATE');
    try {
      await expect(short.db.updateTable('settings').set({ value: 'x' }).execute()).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      holder.exec('ROLLBACK');
      await short.close();
    }
  });
});
