/** Hostile text: stripAnsi is idempotent and linear on hostile text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonLinearShapes } from '../fixtures/testing/linear-time.js';
import { stripAnsi } from './ansi.js';

const PIECES = ['\u001b', '\u001b[', '\u009b', '[', ']', '31', '0', ';', '?', 'm', 'K', 'a', ' ', '\n', '\u0007', '\\', '\u001b]8;;', 'http://x'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''));

describe('stripAnsi', () => {
  it.each([
    ['\u001b[31mred\u001b[39m and \u001b[1;2mbold\u001b[0m', 'red and bold'],
    ['progress\u001b[2K\u001b[1G done', 'progress done'],
    ['\u001b]8;;https://example.test\u0007link\u001b]8;;\u0007', 'link'],
    ['\u001b\u001b[0m[31mnot red', '[31mnot red'],
    ['a\u009b31mb', 'ab'],
    ['plain [31m text', 'plain [31m text'],
  ])('%j', (input, output) => expect(stripAnsi(input)).toBe(output));

  it('is idempotent: a removed sequence never joins its neighbours into another', () => {
    fc.assert(
      fc.property(text, (t) => {
        const once = stripAnsi(t);
        expect(stripAnsi(once)).toBe(once);
      }),
      { numRuns: 20000 },
    );
  });

  it('leaves no escape character behind', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(stripAnsi(t)).not.toMatch(/[\u001b\u009b]/);
      }),
      { numRuns: 5000 },
    );
  });

  it('grows linearly on every hostile shape (n and 4n)', () => {
    expect(nonLinearShapes(stripAnsi)).toEqual([]);
    const unclosed = (n: number) => '\u001b]'.repeat(n);
    const small = performance.now();
    stripAnsi(unclosed(100_000));
    expect(performance.now() - small).toBeLessThan(1000);
  });
});
