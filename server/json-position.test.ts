import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, lineAndColumn } from './json-position.js';

describe('jsonErrorOffset', () => {
  it('finds where invalid JSON breaks', () => {
    const cases: Array<[string, number]> = [
      ['{"a": }', 6],
      ['{"a": 1,}', 8],
      ['[1, 2', 5],
      ['{"a" 1}', 5],
      ['{"a": tru}', 9],
      ['{"a": "x\u0001"}', 8],
      ['{"a": "\\q"}', 8],
      ['[01]', 2],
      ['{"a": 1} x', 9],
      ['', 0],
      ['{a: 1}', 1],
      ['[1.]', 3],
    ];
    for (const [text, offset] of cases) expect([text, jsonErrorOffset(text)]).toEqual([text, offset]);
  });

  it('agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonErrorOffset(text)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(jsonErrorOffset(text) === null).toBe(valid);
      }),
    );
  });

  it('takes linear time on long text and stops at a depth past any real report', () => {
    const wide = `[${'1,'.repeat(1_000_000)}}`;
    const started = performance.now();
    expect(jsonErrorOffset(wide)).toBe(wide.length - 1);
    // A quadratic scan of two million characters would take minutes.
    expect(performance.now() - started).toBeLessThan(5000);
    // A hostile "[[[[…" body gets a position where it went too deep, not a stack per bracket.
    expect(jsonErrorOffset('['.repeat(1_000_000))).toBe(10_001);
    expect(jsonErrorOffset(`${'['.repeat(9_999)}1${']'.repeat(9_999)}`)).toBeNull();
  });

  it('counts lines and columns from 1', () => {
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});
