import { describe, expect, it } from 'vitest';
import { inertLine, inertLines, regexInert, terminalJson } from './terminal-text.js';

const CLIPBOARD = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const RLO = '\u202e';

describe('terminal text', () => {
  it('turns every control character into a space and drops bidirectional controls', () => {
    expect(inertLine(`a${CLIPBOARD}b${CLEAR}c`)).toBe('a ]52;c;ZWNobyBwd25lZA== b [2J [Hc');
    expect(inertLine(`pay\r::error::forged\u2028x\u0085y`)).toBe('pay ::error::forged x y');
    expect(inertLine(`admin${RLO}gpj.exe\u2066\u2069\u200f`)).toBe('admingpj.exe');
    expect(inertLine('plain text, “quotes” and 漢字 stay')).toBe('plain text, “quotes” and 漢字 stay');
  });

  it('keeps the line breaks of several lines, and nothing else that acts', () => {
    expect(inertLines(`one\u001b[31m\ntwo\r\nthree\rfour`)).toBe('one [31m\ntwo\nthree four');
  });

  it('escapes in JSON what JSON.stringify leaves raw, and the value reads back the same', () => {
    const value = { title: `t${RLO}\u0085\u2028${CLEAR}`, n: 1 };
    const text = terminalJson(value, 2);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('writes a regular expression that matches the same text without holding it raw', () => {
    const source = regexInert(`(?:^| )pay${RLO}\u001b\\[2J$`);
    expect(source).not.toMatch(/[\u001b\u202e]/);
    expect(new RegExp(source).test(`checkout pay${RLO}\u001b[2J`)).toBe(true);
    expect(new RegExp(source).test('checkout pay')).toBe(false);
  });

  it('is linear on long hostile input', () => {
    const long = `${CLEAR}${RLO}`.repeat(200_000);
    const started = performance.now();
    inertLine(long);
    terminalJson(long);
    regexInert(long);
    // Far above a linear pass over 1.4 MB; a backtracking pattern would take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
