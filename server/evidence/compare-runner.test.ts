import { afterAll, describe, expect, it } from 'vitest';
import { bigTrace } from '../../fixtures/testing/big-trace.js';
import { runCompareJob } from './compare-job.js';
import { compareWorker } from './compare-runner.js';

const CAPS = { maxExpandedBytes: 48 * 1024 * 1024, maxEntries: 20_000 };
const traces = (): [Uint8Array, Uint8Array] => [
  bigTrace({ actions: 3000, requests: 8000, consoleLines: 8000, frames: 100, frameBytes: 20_000, failing: true, seed: 'a' }),
  bigTrace({ actions: 3000, requests: 8000, consoleLines: 8000, frames: 100, frameBytes: 20_000, failing: false, seed: 'b' }),
];

/** The longest the event loop went without running a 2 ms timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 2);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    clearInterval(timer);
  }
  return longest;
}

afterAll(() => compareWorker.close());

describe('the comparison worker', () => {
  it('reads both traces off this thread: the failing one’s error and requests come back, and a zip that is not one is refused by name', async () => {
    const [failing, passing] = traces();
    const reads = await compareWorker.read([failing, passing], CAPS);
    expect('summary' in reads[0] && reads[0].summary.failingAction?.error).toBe('expect(locator).toBeVisible() failed');
    expect('summary' in reads[1] && reads[1].summary.failingAction).toBe(null);
    const [bad] = await compareWorker.read([new Uint8Array([1, 2, 3]), bigTrace({ actions: 2, requests: 1, consoleLines: 1, frames: 0, frameBytes: 0, failing: false })], CAPS);
    expect('refused' in bad && bad.refused).toMatch(/zip/i);
  });

  it('keeps the event loop free while big traces are read: far shorter stalls than reading them on this thread, in the same run', async () => {
    await compareWorker.read(traces(), CAPS); // the worker started and warmed, as on a server that has compared before
    // Built before timing: making the zips is this test's work, not the comparison's.
    const [first, second] = [traces(), traces()];
    const onThread = await longestStall(async () => runCompareJob({ id: 0, traces: first, caps: CAPS }));
    const inWorker = await longestStall(() => compareWorker.read(second, CAPS));
    expect(inWorker).toBeLessThan(onThread / 3);
    expect(compareWorker.threads).toBe(1);
  });
});
