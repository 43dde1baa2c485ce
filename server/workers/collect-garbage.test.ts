import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { collectAfterGrowth } from './collect-garbage.js';

const MB = 2 ** 20;
const used = () => getHeapStatistics().used_heap_size;

describe('collectAfterGrowth', () => {
  it('collects the garbage of a large piece of work once the heap grew past the bound, and not again until it grows', () => {
    const check = collectAfterGrowth(32 * MB);
    expect(check()).toBe(false);
    // A cold answer's rows: a million objects, kept long enough to reach the old generation,
    // garbage once it returns.
    const answer = () => Array.from({ length: 1_000_000 }, (_, i) => ({ id: i, day: i % 365, title: `test ${i}` })).length;
    expect(answer()).toBe(1_000_000);
    const before = used();
    expect(before).toBeGreaterThan(32 * MB);
    expect(check()).toBe(true);
    expect(before - used()).toBeGreaterThan(32 * MB);
    // Small work after: no collection.
    const small = Array.from({ length: 1000 }, (_, i) => ({ i }));
    expect(small).toHaveLength(1000);
    expect(check()).toBe(false);
  });

  it('leaves no `gc` for other code to find', () => {
    collectAfterGrowth(MB);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('gets its collection in every thread while others start beside it', async () => {
    // Threads starting together all set and reset the process's flag: each must still get `gc`
    // (two servers' analytics workers restarting together after an outage once got none, and
    // failed every answer with "gc is not defined").
    const code = `const { parentPort } = require('node:worker_threads');
      import('tsx/esm/api')
        .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./collect-garbage.ts', import.meta.url).href)}); })
        .then(({ fullCollection }) => {
          let missed = 0;
          for (let i = 0; i < 400; i++) {
            try { if (typeof fullCollection() !== 'function') missed++; } catch { missed++; }
          }
          parentPort.postMessage(missed);
        });`;
    const missed = await Promise.all(
      Array.from({ length: 4 }, () => {
        const worker = new Worker(code, { eval: true });
        return new Promise<number>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }).finally(() => worker.terminate());
      }),
    );
    expect(missed).toEqual([0, 0, 0, 0]);
  }, 60_000);
});
