import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { balancedShards, countedShards, parseShard, shardTime } from './shard-balance.js';

const timed = (...ms: number[]) => ms.map((durationMs, i) => ({ name: `t${i}`, durationMs }));

describe('balancedShards', () => {
  it('puts the long tests apart and keeps each list in the input order', () => {
    const shards = balancedShards(timed(60, 1, 1, 1, 60, 1, 1, 1), 2);
    expect(shards.map((s) => s.map((t) => t.name))).toEqual([
      ['t0', 't1', 't3', 't6'],
      ['t2', 't4', 't5', 't7'],
    ]);
    expect(shards.map(shardTime)).toEqual([63, 63]);
  });

  it('ends no later than the split by count, holds every test once, and ends within one test of the mean', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (ms, count) => {
        const tests = timed(...ms);
        const shards = balancedShards(tests, count);
        expect(shards).toHaveLength(count);
        expect(shards.flat().map((t) => t.name).sort()).toEqual(tests.map((t) => t.name).sort());
        const longest = Math.max(...shards.map(shardTime));
        expect(longest).toBeLessThanOrEqual(Math.max(...countedShards(tests, count).map(shardTime)));
        // Each test goes to the least loaded list, which is at most the mean when it is chosen.
        expect(longest).toBeLessThanOrEqual(shardTime(tests) / count + Math.max(0, ...ms) + 1e-9);
      }),
    );
  });
});

describe('countedShards', () => {
  it('cuts in order as Playwright does, the first shards one longer', () => {
    expect(countedShards([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([[1, 2, 3], [4, 5], [6, 7]]);
    expect(countedShards([1], 3)).toEqual([[1], [], []]);
  });
});

describe('parseShard', () => {
  it('reads K/N and refuses what Playwright would not run', () => {
    expect(parseShard('2/4')).toEqual({ current: 2, total: 4 });
    for (const bad of ['0/4', '5/4', '2', '2/0', '1/101', 'a/b', '-1/4']) expect(() => parseShard(bad)).toThrow(/--shard must be K\/N/);
  });
});
