import { afterEach, expect, it, vi } from 'vitest';
import { computeAheadEvery } from './compute-ahead.js';
import type { AnalyticsRunner } from './runner.js';

afterEach(() => {
  vi.useRealTimers();
});

it('looks at once, then every interval after the last look has finished, until stopped; a failing look waits for the next', async () => {
  vi.useFakeTimers();
  let looks = 0;
  let finish: (() => void) | null = null;
  const runner = {
    computeAhead: () => {
      looks++;
      // The second look fails (the database away): the looks go on.
      if (looks === 2) return Promise.reject(new Error('the database is away'));
      return new Promise<number>((resolve) => (finish = () => resolve(1)));
    },
  } as unknown as AnalyticsRunner;

  const ahead = computeAheadEvery(runner, 1_000);
  await vi.advanceTimersByTimeAsync(0);
  expect(looks).toBe(1);
  // A long look: no second one beside it, however long it takes.
  await vi.advanceTimersByTimeAsync(5_000);
  expect(looks).toBe(1);
  finish!();
  await vi.advanceTimersByTimeAsync(999);
  expect(looks).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(looks).toBe(2);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(looks).toBe(3);
  finish!();
  ahead.stop();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(looks).toBe(3);
});
