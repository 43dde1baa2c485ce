import { getHeapStatistics } from 'node:v8';
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
});
