import { afterAll, describe, expect, it } from 'vitest';
import { bigTrace } from '../../fixtures/testing/big-trace.js';
import { runCompareJob } from './compare-job.js';
import { CompareWorker, COMPARE_WAITING_PER_CALLER, compareWorker } from './compare-runner.js';
import { zipSync } from 'fflate';

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
    const reads = await compareWorker.read('test', [failing, passing], CAPS);
    expect('summary' in reads[0] && reads[0].summary.failingAction?.error).toBe('expect(locator).toBeVisible() failed');
    expect('summary' in reads[1] && reads[1].summary.failingAction).toBe(null);
    const [bad] = await compareWorker.read('test', [new Uint8Array([1, 2, 3]), bigTrace({ actions: 2, requests: 1, consoleLines: 1, frames: 0, frameBytes: 0, failing: false })], CAPS);
    expect('refused' in bad && bad.refused).toMatch(/zip/i);
  });

  it('keeps the event loop free while big traces are read: far shorter stalls than reading them on this thread, in the same run', async () => {
    await compareWorker.read('test', traces(), CAPS); // the worker started and warmed, as on a server that has compared before
    // Built before timing: making the zips is this test's work, not the comparison's.
    const [first, second] = [traces(), traces()];
    const onThread = await longestStall(async () => runCompareJob({ id: 0, kind: 'read', traces: first, caps: CAPS }));
    const inWorker = await longestStall(() => compareWorker.read('test', second, CAPS));
    expect(inWorker).toBeLessThan(onThread / 3);
    expect(compareWorker.threads).toBe(1);
  });

  it('takes callers in turn: one caller’s many comparisons delay another’s by one of its own, and past its share that caller gets a 429', async () => {
    const worker = new CompareWorker();
    try {
      const small = (): [Uint8Array, Uint8Array] => [
        bigTrace({ actions: 300, requests: 300, consoleLines: 300, frames: 5, frameBytes: 1000, failing: true }),
        bigTrace({ actions: 300, requests: 300, consoleLines: 300, frames: 5, frameBytes: 1000, failing: false }),
      ];
      const order: string[] = [];
      const flood = Array.from({ length: 6 }, (_, i) => worker.read('flooder', small(), CAPS).then(() => order.push(`flooder ${i}`)));
      const other = worker.read('other', small(), CAPS).then(() => order.push('other'));
      await Promise.all([...flood, other]);
      // The flooder's first was running and its second had the next turn; then the other caller's.
      expect(order.indexOf('other')).toBe(2);
      const full = Array.from({ length: COMPARE_WAITING_PER_CALLER + 2 }, () => worker.read('flooder', small(), CAPS).then(() => 'read', (error: Error & { statusCode?: number }) => `${error.statusCode}: ${error.message}`));
      const answers = await Promise.all(full);
      expect(answers.filter((a) => a === 'read')).toHaveLength(COMPARE_WAITING_PER_CALLER + 1);
      expect(answers.at(-1)).toBe(`429: You have ${COMPARE_WAITING_PER_CALLER} comparisons waiting, as many as one caller may; try again when one has answered`);
    } finally {
      await worker.close();
    }
  });

  it('expands one named entry of a zip off this thread, and says when there is none or the zip is past its cap', async () => {
    const zip = () => zipSync({ 'resources/a.jpeg': new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]), 'resources/b.jpeg': new Uint8Array(4096) });
    expect(await compareWorker.entry('test', zip(), 'resources/a.jpeg', CAPS)).toEqual({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]) });
    expect(await compareWorker.entry('test', zip(), 'resources/c.jpeg', CAPS)).toEqual({ bytes: null });
    const refused = await compareWorker.entry('test', zip(), 'resources/b.jpeg', { maxExpandedBytes: 1024, maxEntries: 10 });
    expect('refused' in refused && refused.refused).toMatch(/./);
  });
});

