import { describe, expect, it } from 'vitest';
import { errorPatternOf, errorPatternOfHead, firstErrorLine, topPatterns } from './first-line.js';

describe('firstErrorLine', () => {
  it('strips colour codes and takes the first non-blank line', () => {
    expect(firstErrorLine('\n  \u001b[31mError: expect(received)\u001b[39m  \nmore')).toBe('Error: expect(received)');
    expect(firstErrorLine(null)).toBe('');
    expect(firstErrorLine(' \n\t\n')).toBe('');
  });
});

describe('topPatterns of errorPatternOf', () => {
  it('groups by first line cut to 100 characters, most frequent first, 5 at most', () => {
    const long = 'x'.repeat(150);
    const messages = [`${long}a\nstack`, `${long}b\nother stack`, `${long}c`, ...['A', 'B', 'C', 'D', 'E'].map((l) => `Error ${l}`), 'Error E\nsecond', null];
    const top = topPatterns(messages.map((m) => errorPatternOf(m)));
    expect(top).toHaveLength(5);
    expect(top[0]).toEqual({ pattern: `${'x'.repeat(100)}...`, count: 3 });
    expect(top[1]).toEqual({ pattern: 'Error E', count: 2 });
    expect(top.slice(2).map((p) => p.pattern)).toEqual(['Error A', 'Error B', 'Error C']);
  });
});

describe('errorPatternOfHead', () => {
  it('agrees with the whole message whenever the head can tell, and says null when it cannot', () => {
    const cases = ['short\nrest', `${'y'.repeat(300)}\nrest`, `\n\n  ${'z'.repeat(50)}`, `${'\n'.repeat(20)}late line`, 'a'.repeat(99), `\u001b[31m${'w'.repeat(120)}`];
    for (const message of cases) {
      for (const size of [5, 20, 60, 101, 150, 400]) {
        const head = message.slice(0, size);
        const answer = errorPatternOfHead(head, head.length === message.length);
        if (answer !== null) expect(answer, `${JSON.stringify(message.slice(0, 30))} at ${size}`).toBe(errorPatternOf(message));
      }
    }
    expect(errorPatternOfHead('\n\n\n', false)).toBeNull();
    expect(errorPatternOfHead('Error: line that may go on', false)).toBeNull();
    expect(errorPatternOfHead(`${'q'.repeat(101)}`, false)).toBe(`${'q'.repeat(100)}...`);
  });
});
