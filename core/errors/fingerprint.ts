import type { ErrorCategory } from './categories.js';

/** The line that says what went wrong: the first non-empty one, without "Error: ". */
export function errorSummary(strippedMessage: string): string {
  const line = nonBlankLines(strippedMessage).next().value ?? '';
  const summary = line.trim().replace(/^Error:\s*/, '');
  return summary.length > 300 ? `${summary.slice(0, 297)}...` : summary;
}

/**
 * The lines with text, one at a time: a message of 100,000 line breaks is read up to the lines
 * needed, not split into 100,000 strings first.
 */
function* nonBlankLines(text: string): Generator<string, undefined> {
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    if (line.trim() !== '') yield line;
    if (newline === -1) return undefined;
    start = newline + 1;
  }
  return undefined;
}

/**
 * Normalises the parts of an error that vary between occurrences of one root cause:
 * quoted values, numbers (durations, ports, line numbers), hex and UUID ids.
 */
export function normaliseErrorText(strippedMessage: string): string {
  // The first line plus, for Playwright actions, the first call-log entry ("waiting for …",
  // "navigating to …"): together they name the action and its target.
  let first: string | undefined;
  let callLog: string | undefined;
  for (const line of nonBlankLines(strippedMessage)) {
    first ??= line;
    if (callLog === undefined && /^\s*-\s/.test(line)) callLog = line;
    if (callLog !== undefined) break;
  }
  const head = [first ?? '', callLog ?? ''].join('\n');
  return replaceQuoted(head)
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, '<id>')
    .replace(/\d+(\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Quoted values ('…', "…", `…` with backslash escapes) become <str>. A regex restarted at every
 * quote of an unclosed run and read to its end each time (a line of 50,000 \' took 8.6 s):
 * this reads each run once.
 */
function replaceQuoted(text: string): string {
  let out = '';
  let last = 0;
  // Where a scan from a quote of this kind ran out unclosed. Every quote of that kind before it
  // was read as escaped, so a scan from one of them runs out at the same place.
  const unclosedUntil: Record<string, number> = { "'": -1, '"': -1, '`': -1 };
  let i = 0;
  while (i < text.length) {
    const quote = text[i]!;
    if (!(quote in unclosedUntil) || i < unclosedUntil[quote]!) {
      i++;
      continue;
    }
    const { at, closed } = scanQuoted(text, i);
    if (!closed) {
      unclosedUntil[quote] = at;
      i++;
      continue;
    }
    out += `${text.slice(last, i)}<str>`;
    last = i = at + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * From the quote at `open`: the closing quote, or where the run ends unclosed. A backslash
 * escapes any character but a line break (as `\\.` does); before a line break or at the end it
 * ends the run.
 */
function scanQuoted(text: string, open: number): { at: number; closed: boolean } {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === quote) return { at: i, closed: true };
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined || next === '\n' || next === '\r' || next === '\u2028' || next === '\u2029') return { at: i, closed: false };
      i++;
    }
  }
  return { at: text.length, closed: false };
}

/** Groups messages that differ only in numbers, ids and quoted values: one cause, one pattern. */
export function fingerprintError(category: ErrorCategory, strippedMessage: string): string {
  return hashText(`${category}\n${normaliseErrorText(strippedMessage)}`);
}

/** cyrb53: a fast 53-bit string hash (core/ runs in the browser too, so no node:crypto). */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
