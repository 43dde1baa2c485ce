import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { compareAttempts } from './compare.js';
import { frameAtEnd, partingFrame } from './frames.js';
import { isFrameName, readTrace, type TraceAction } from './summary.js';

// Real traces recorded by Playwright in Chromium (fixtures/evidence-suite), with screencast frames.
const OUTPUT = new URL('../../fixtures/reports/evidence/output/', import.meta.url);
const trace = (folder: string) => readFileSync(new URL(`${folder}/trace.zip`, OUTPUT));
const FAILING = 'checkout-keeps-the-total-without-a-code';
const PASSING = 'checkout-keeps-the-total-without-a-code-retry1';

describe('the frames where two real attempts parted', () => {
  it('lists the screencast frames of a trace in order, timed like its actions', () => {
    const { summary, frames } = readTrace(trace(FAILING));
    expect(frames.map((f) => f.name)).toEqual([
      'screencast/page@246692ad75420053afd7875a0a70cdba-1795717949391.jpeg',
      'screencast/page@246692ad75420053afd7875a0a70cdba-1795717949464.jpeg',
      'screencast/page@246692ad75420053afd7875a0a70cdba-1795717949534.jpeg',
      'screencast/page@246692ad75420053afd7875a0a70cdba-1795717950516.jpeg',
    ]);
    // The first frame comes just after "Set content" started (30 ms after the first action).
    expect(summary.actions[2]).toMatchObject({ title: 'Set content', startMs: 30 });
    expect(frames[0]!.atMs).toBeCloseTo(34.291, 2);
    // Each name is an entry of the zip: a JPEG.
    const files = unzipSync(trace(FAILING));
    for (const frame of frames) expect([...files[frame.name]!.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('the failing side shows the last frame before its click timed out; the passing side the end of the last action it did before', () => {
    const failing = readTrace(trace(FAILING));
    const passing = readTrace(trace(PASSING));
    const comparison = compareAttempts(failing.summary, passing.summary);
    expect(comparison.partedAt).toMatchObject({ reason: 'only-failing', failing: { title: 'Click', startMs: 103, durationMs: 1019 } });
    // The click ran from 103 to 1122 ms: the frame at 177 ms is the last one before its end (the next is at 1160 ms).
    const f = partingFrame(comparison, 'failing', failing.frames)!;
    expect(f.action.title).toBe('Click');
    expect(f.frame.name).toBe('screencast/page@246692ad75420053afd7875a0a70cdba-1795717949534.jpeg');
    // The retry never made that click: it is shown where "Set content" ended (47 + 72 ms), at its frame of 116 ms, not the one of 246 ms.
    const p = partingFrame(comparison, 'passing', passing.frames)!;
    expect(p.action).toMatchObject({ title: 'Set content', startMs: 47, durationMs: 72 });
    expect(p.frame.name).toBe('screencast/page@65c11473d933652374f8fa4ea01c41bb-1795717952303.jpeg');
  });

  it('an action that never ended is shown by the last frame; one that ended before any frame has none', () => {
    const { frames } = readTrace(trace(FAILING));
    const action = (startMs: number | null, durationMs: number | null): TraceAction => ({ title: 'Click', locator: null, startMs, durationMs, error: null });
    expect(frameAtEnd(frames, action(103, null))).toEqual(frames.at(-1));
    expect(frameAtEnd(frames, action(0, 20))).toBeNull();
    // A frame exactly at the end counts (the rounding of start and duration is allowed for).
    expect(frameAtEnd(frames, action(100, Math.floor(frames[1]!.atMs) - 100))).toEqual(frames[1]);
  });

  it('a trace recorded without screenshots has no frames, and the comparison none to show', () => {
    const files = unzipSync(trace(FAILING));
    for (const name of Object.keys(files)) {
      if (name.startsWith('screencast/')) delete files[name];
      else if (name.endsWith('.trace')) files[name] = strToU8(strFromU8(files[name]!).split('\n').filter((line) => !line.includes('"screencast-frame"')).join('\n'));
    }
    const failing = readTrace(zipSync(files));
    expect(failing.frames).toEqual([]);
    const comparison = compareAttempts(failing.summary, readTrace(trace(PASSING)).summary);
    expect(partingFrame(comparison, 'failing', failing.frames)).toBeNull();
  });

  it('only image entries of the two frame folders are frame names', () => {
    expect(isFrameName('screencast/page@246692ad75420053afd7875a0a70cdba-1795717949534.jpeg')).toBe(true);
    expect(isFrameName(`resources/${'a'.repeat(40)}`)).toBe(true);
    for (const bad of ['test.trace', 'resources/ec11b9a7c6744f395232b2eb0c11d6f7ffbacba2.dat', 'screencast/../test.trace', 'screencast/a/../../x.jpeg', '/etc/passwd', 'screencast/..jpeg']) expect(isFrameName(bad)).toBe(false);
  });
});
