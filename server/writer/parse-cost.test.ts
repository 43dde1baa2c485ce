/** The cost read before parsing an upload bounds what JSON.parse really takes, in linear time. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bigReportText } from '../../fixtures/testing/big-report.js';
import { nonLinearShapes } from '../../fixtures/testing/linear-time.js';
import { checkParseCost, parseCost } from './parse-cost.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap bytes the parsed value holds, with the text itself (as the writer holds both). */
function heldByParse(text: string): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const value: unknown = JSON.parse(text);
  gc();
  const held = process.memoryUsage().heapUsed - before;
  expect(value).toBeDefined();
  return held;
}

const list = (item: string, n = 300_000) => `[${`${item},`.repeat(n)}${item}]`;

describe('parseCost', () => {
  it.each([
    ['empty objects', list('{}')],
    ['empty arrays', list('[]')],
    ['nested arrays', list('[[[]]]')],
    ['small objects', list('{"a":1}')],
    ['integers', list('1')],
    ['fractions', list('1.5')],
    ['short strings', list('"ab"')],
    ['one object of distinct keys', `{${Array.from({ length: 300_000 }, (_, i) => `"k${i}":1`).join(',')}}`],
    ['a generated report', bigReportText(5, 9)],
  ])('is at least what JSON.parse holds: %s', (_name, text) => {
    expect(parseCost(text).bytes).toBeGreaterThanOrEqual(heldByParse(text));
  });

  it('counts no structure inside strings', () => {
    expect(parseCost('{"a":"{[,:]}\\"{,"}')).toEqual({ containers: 1, items: 1, bytes: 70 + 40 + 2 * 18 });
  });

  it('puts a real report at a few times its size, and "{}," at over twenty', () => {
    const real = bigReportText(5, 9);
    expect(parseCost(real).bytes / real.length).toBeLessThan(5);
    const costly = list('{}');
    expect(parseCost(costly).bytes / costly.length).toBeGreaterThan(20);
  });

  it('refuses past the budget with a 413 that names the figures', () => {
    expect(() => checkParseCost(list('{}', 10), 10_000, 1024 * 1024)).not.toThrow();
    expect(() => checkParseCost(list('{}', 100_000), 4 * 1024 * 1024, 1024 * 1024)).toThrow(
      expect.objectContaining({
        statusCode: 413,
        message: "This upload's JSON would take about 12 MB of memory to read (100002 objects and arrays, 100000 keys and items in 1 MB of text), more than the 4 MB the server allows for uploads up to 1 MB: nothing was stored. A real report takes a few times its size; if this is one, raise --body-limit.",
      }),
    );
  });

  it('grows linearly on every hostile shape', () => {
    expect(nonLinearShapes(parseCost)).toEqual([]);
  });
});
