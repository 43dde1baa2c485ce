/**
 * Hostile text: every text function of import (classification, fingerprint, summary, code
 * frame, colour codes) runs in linear time on hostile report text, and still gives the answers
 * the regexes it replaced gave.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DANGEROUS_PIECES, REPORTED_TEXTS, oneMegabyteLine } from '../../fixtures/testing/hostile-text.js';
import { nonLinearShapes, timed } from '../../fixtures/testing/linear-time.js';
import { stripAnsi } from '../ansi.js';
import { extractSnippet, normaliseError } from '../report/errors.js';
import { ERROR_CATEGORIES } from './categories.js';
import { classifyError } from './classify.js';
import { errorSummary, fingerprintError, normaliseErrorText } from './fingerprint.js';

const FUNCTIONS: Array<[string, (text: string) => unknown]> = [
  ['stripAnsi', stripAnsi],
  ['classifyError', classifyError],
  ['errorSummary', errorSummary],
  ['normaliseErrorText', normaliseErrorText],
  ['fingerprintError', (text) => fingerprintError('other', text)],
  ['extractSnippet', extractSnippet],
  // What import runs on each error: all of the above, the formatted text read for a code frame.
  ['normaliseError', (text) => normaliseError({ message: text, stack: text }, undefined, text)],
];

describe('text functions of import on hostile text', () => {
  it.each(FUNCTIONS)('%s grows linearly on every hostile shape (n and 4n)', (_name, fn) => {
    expect(nonLinearShapes(fn)).toEqual([]);
  });

  it.each(FUNCTIONS)("%s answers promptly on the reported slow strings and a 1 MB line", (_name, fn) => {
    const slow = [...REPORTED_TEXTS, ['1 MB line', oneMegabyteLine()] as const]
      .map(([name, text]) => ({ name, ms: timed(() => fn(text)) }))
      .filter((t) => t.ms > 2000);
    expect(slow).toEqual([]);
  });
});

const text = (maxLength: number) => fc.array(fc.constantFrom(...DANGEROUS_PIECES), { maxLength }).map((p) => p.join(''));

describe('text functions of import on random dangerous text', () => {
  it('return, and their results keep their shape', () => {
    fc.assert(
      fc.property(text(200), (raw) => {
        const stripped = stripAnsi(raw);
        expect(stripped.length).toBeLessThanOrEqual(raw.length);
        expect(ERROR_CATEGORIES).toContain(classifyError(stripped));
        const summary = errorSummary(stripped);
        expect(summary.length).toBeLessThanOrEqual(300);
        expect(summary).not.toMatch(/\n/);
        const normalised = normaliseErrorText(stripped);
        expect(normalised).not.toMatch(/[0-9\n]|\s\s|^\s|\s$/);
        expect(fingerprintError('other', stripped)).toMatch(/^[0-9a-f]{14}$/);
        const frame = extractSnippet(raw);
        if (frame !== null) for (const line of frame.split('\n')) expect(stripAnsi(line)).toMatch(/^\s*(?:>\s*)?(?:\d+\s*)?\|/);
      }),
      { numRuns: 3000 },
    );
  });

  // The regexes these functions replaced, as they were: run on short text only (they backtrack).
  const REFERENCE = {
    quoted: /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g,
    frame: /^\s*(>\s*)?\d*\s*\|/,
    rules: [
      ['Test Timeout', /\b(Test|Hook|Fixture) timeout of \d+ms exceeded|\btimeout of \d+ms exceeded while (running|setting up|tearing down)/i],
      ['Assertion Error', /\bexpect(\.soft|\.poll)?\(|AssertionError|\bexpected\b.*\breceived\b|\bto(Have|Be|Equal|Contain|Match|Throw|StrictEqual)\w*\(/is],
      ['Page Load Timeout', /\b(page|frame)\.(goto|reload|goBack|goForward|waitForURL|waitForLoadState|waitForNavigation|waitForEvent): Timeout \d+ms exceeded|navigation timeout|Timeout \d+ms exceeded[.\s\S]*?\bnavigating to\b/i],
      ['Navigation Error', /net::ERR_|NS_ERROR_|NS_BINDING_ABORTED|Could not connect to (the )?server|Navigation (failed|to .* (is|was) interrupted)|\bnavigation (to .* )?interrupted|frame was detached|page\.goto: /i],
      ['Browser Protocol Error', /Protocol error|Target (page, context or browser )?(has been |was )?closed|Target crashed|Page crashed|Browser (has been )?closed|browser has disconnected|Connection closed|WebSocket error/i],
      ['Element Wait Timeout', /\b(locator|page|frame|elementHandle|element)\.\w+: Timeout \d+ms exceeded|waitForSelector|waiting for (locator|selector|getBy)|Timeout \d+ms exceeded/i],
    ] as Array<[string, RegExp]>,
  };

  it('classify as the old rules did', () => {
    const words = text(24).map((t) => t.replace(/\u001b/g, ''));
    fc.assert(
      fc.property(words, (message) => {
        expect(classifyError(message)).toBe(REFERENCE.rules.find(([, rule]) => rule.test(message))?.[0] ?? 'other');
      }),
      { numRuns: 20000 },
    );
  });

  it('replace quoted values and find code frames as the old regexes did', () => {
    const quoting = fc.array(fc.constantFrom("'", '"', '`', '\\', 'a', ' ', '\n', '\r', '\u2028', '1'), { maxLength: 24 }).map((p) => p.join(''));
    fc.assert(
      fc.property(quoting, (line) => {
        // One line: normaliseErrorText keeps the first line (and the first call-log entry).
        const single = line.split('\n')[0]!;
        if (single.trim() === '') return;
        const expected = single
          .replace(REFERENCE.quoted, '<str>')
          .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
          .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, '<id>')
          .replace(/\d+(\.\d+)?/g, '<n>')
          .replace(/\s+/g, ' ')
          .trim();
        expect(normaliseErrorText(single)).toBe(expected);
      }),
      { numRuns: 20000 },
    );
    const gutters = fc.array(fc.constantFrom(' ', '>', '1', '12', '|', '^', '\n', 'x', '\t'), { maxLength: 24 }).map((p) => p.join(''));
    fc.assert(
      fc.property(gutters, (formatted) => {
        const lines = formatted.split('\n');
        const start = lines.findIndex((l) => REFERENCE.frame.test(l));
        let end = start;
        while (start !== -1 && end < lines.length && REFERENCE.frame.test(lines[end]!)) end++;
        expect(extractSnippet(formatted)).toBe(start === -1 ? null : lines.slice(start, end).join('\n'));
      }),
      { numRuns: 20000 },
    );
  });
});
