/** A test with the time it is expected to take. */
export interface Timed {
  durationMs: number;
}

/**
 * Splits the tests into `count` lists whose expected times are as even as it can make them:
 * the longest test first, each to the list with the least time so far (longest processing time
 * first, within 4/3 of the best split), unless Playwright's own split by count happens to end
 * sooner. Each list keeps the input's order.
 */
export function balancedShards<T extends Timed>(tests: readonly T[], count: number): T[][] {
  const greedy = longestFirst(tests, count);
  const counted = countedShards(tests, count);
  return longestShard(counted) < longestShard(greedy) ? counted : greedy;
}

const longestShard = (shards: readonly (readonly Timed[])[]): number => Math.max(0, ...shards.map(shardTime));

function longestFirst<T extends Timed>(tests: readonly T[], count: number): T[][] {
  const byLength = tests.map((test, index) => ({ test, index })).sort((a, b) => b.test.durationMs - a.test.durationMs || a.index - b.index);
  const totals = new Array<number>(count).fill(0);
  const picked: { test: T; index: number }[][] = Array.from({ length: count }, () => []);
  for (const entry of byLength) {
    let least = 0;
    for (let i = 1; i < count; i++) if (totals[i]! < totals[least]!) least = i;
    totals[least]! += entry.test.durationMs;
    picked[least]!.push(entry);
  }
  return picked.map((shard) => shard.sort((a, b) => a.index - b.index).map((entry) => entry.test));
}

/**
 * Playwright's own `--shard`: the tests in order, cut into `count` runs of equal count (the first
 * ones one longer when it does not divide), whatever each takes.
 */
export function countedShards<T>(tests: readonly T[], count: number): T[][] {
  const size = Math.floor(tests.length / count);
  const longer = tests.length - size * count;
  const shards: T[][] = [];
  let from = 0;
  for (let i = 0; i < count; i++) {
    const length = size + (i < longer ? 1 : 0);
    shards.push(tests.slice(from, from + length));
    from += length;
  }
  return shards;
}

export const shardTime = (shard: readonly Timed[]): number => shard.reduce((sum, test) => sum + test.durationMs, 0);

/** `K/N` of `--shard`, N from 1 to 100, K from 1 to N. */
export function parseShard(text: string): { current: number; total: number } {
  const match = /^(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  const current = match ? Number(match[1]) : NaN;
  const total = match ? Number(match[2]) : NaN;
  if (!match || total < 1 || total > 100 || current < 1 || current > total) {
    throw new Error(`--shard must be K/N with N from 1 to 100 and K from 1 to N (as Playwright's --shard), not ${JSON.stringify(text)}`);
  }
  return { current, total };
}
