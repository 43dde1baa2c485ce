import { afterEach, expect, it, vi } from 'vitest';
import { computeAheadEvery } from './compute-ahead.js';
import { KEPT_FAILURE_LOG_EVERY_MS, type AnalyticsRunner } from './runner.js';

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

  const warnings: Array<[object, string]> = [];
  const ahead = computeAheadEvery(runner, { everyMs: 1_000, log: { warn: (fields, message) => warnings.push([fields, message]) }, now: () => Date.now() });
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
  // The failure is said, with its cause.
  expect(warnings).toEqual([[{ error: 'the database is away' }, 'kept answers: could not look for answers to compute ahead; looking again in a while']]);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(looks).toBe(3);
  finish!();
  ahead.stop();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(looks).toBe(3);
});

it('says a failing look at most once every ten minutes, however often it fails', async () => {
  vi.useFakeTimers();
  let looks = 0;
  const runner = {
    computeAhead: () => {
      looks++;
      return Promise.reject(new Error(`away ${looks}`));
    },
  } as unknown as AnalyticsRunner;
  const warnings: string[] = [];
  const ahead = computeAheadEvery(runner, { everyMs: 1_000, log: { warn: (fields) => warnings.push((fields as { error: string }).error) }, now: () => Date.now() });
  await vi.advanceTimersByTimeAsync(KEPT_FAILURE_LOG_EVERY_MS - 1);
  expect(looks).toBeGreaterThan(500);
  expect(warnings).toEqual(['away 1']);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(warnings).toHaveLength(2);
  ahead.stop();
});
