/**
 * Hostile text: the flaky dialog's and the error screens' readers of report text (error message
 * display, code context, export file names, comma lists) run in linear time on hostile text,
 * and show what the regexes they replaced showed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../../../../core/ansi.js';
import { DANGEROUS_PIECES, REPORTED_TEXTS, oneMegabyteLine } from '../../../../fixtures/testing/hostile-text.js';
import { nonLinearShapes, timed } from '../../../../fixtures/testing/linear-time.js';
import { splitList } from '../errors/pattern-groups.js';
import { ERROR_TRUNCATION, formatErrorMessage, parseCodeContext } from './error-display.js';
import { safeFileNamePart } from './trend-export-names.js';

const FUNCTIONS: Array<[string, (text: string) => unknown]> = [
  ['formatErrorMessage', formatErrorMessage],
  ['formatErrorMessage of a locator timeout', (text) => formatErrorMessage(`locator.click: Timeout 10ms exceeded.\n${text}`)],
  ['parseCodeContext', (text) => parseCodeContext(text, `a.spec.ts:${text}`)],
  ['safeFileNamePart', safeFileNamePart],
  ['splitList', splitList],
];

describe('UI readers of report text on hostile text', () => {
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

// The regexes these functions replaced, as they were (short text only: they backtrack).
const OLD = {
  waitingFor: /^\s*-\s*waiting for ((?:locator|getBy\w*|frameLocator|selector|internal:)\b.*?)\s*$/m,
  snippetLine: /^\s*(>)?\s*(\d+)?\s*\|(?: (.*)|)$/,
  edges: /^[._]+|[._]+$/g,
};

describe('UI readers of report text on random dangerous text', () => {
  const dangerous = fc.array(fc.constantFrom(...DANGEROUS_PIECES), { maxLength: 150 }).map((p) => p.join(''));

  it('return, and their results keep their shape', () => {
    fc.assert(
      fc.property(dangerous, (text) => {
        // Cut to 200 characters, or a locator and an action taken from the text (they may overlap).
        const shown = formatErrorMessage(text);
        expect(shown.length).toBeLessThanOrEqual(Math.max(ERROR_TRUNCATION + 3, 40 + text.length * 2));
        // One entry per line of the colour-free snippet; a caret line has no number.
        const lines = parseCodeContext(text);
        const clean = stripAnsi(text).trimEnd();
        if (clean.trim() === '') expect(lines).toBeNull();
        else expect(lines!.length).toBe(clean.split('\n').length);
        for (const line of lines ?? []) if (line.caret) expect(line.number).toBeNull();
        const part = safeFileNamePart(text);
        expect(part).toMatch(/^[^._/\\][^/\\]{0,99}$/);
        expect(part).not.toMatch(/[._]$/);
      }),
      { numRuns: 3000 },
    );
  });

  it('find the call-log locator and code-frame lines as the old regexes did', () => {
    const pieces = [' ', '\n', '\r', '-', '- ', 'waiting for ', 'locator', "locator('a')", 'getByRole', 'internal:', 'x', ' to be visible', '\t', '>', '1', '12', '|', '| ', '^'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 20 }).map((p) => p.join('')), (text) => {
        const old = OLD.waitingFor.exec(text);
        const shown = formatErrorMessage(`locator.click: Timeout 5ms exceeded.\n${text}`);
        if (old) expect(shown).toBe(`Element timeout: waiting for '${old[1]!.replace(/ to be (?:visible|hidden|attached|detached|enabled|editable|stable)$/, '')}' - locator.click: Timeout 5ms exceeded.`);
        else expect(shown.startsWith('Element timeout')).toBe(false);
        const lines = parseCodeContext(text);
        if (lines) {
          const raw = text.trimEnd().split('\n');
          lines.forEach((line, i) => {
            const match = OLD.snippetLine.exec(raw[i]!);
            expect(line.number).toBe(match?.[2] === undefined ? null : Number(match[2]));
            expect(line.text).toBe(match ? (match[3] ?? '') : raw[i]);
          });
        }
        expect(safeFileNamePart(text.replace(/[^._a]/g, '_'))).toBe(text.replace(/[^._a]/g, '_').replace(/_+/g, '_').replace(OLD.edges, '').slice(0, 100).replace(OLD.edges, '') || 'test');
      }),
      { numRuns: 20000 },
    );
  });
});
