import type { ErrorCategory } from './categories.js';

/** The line that says what went wrong: the first non-empty one, without "Error: ". */
export function errorSummary(strippedMessage: string): string {
  const line = strippedMessage.split('\n').find((l) => l.trim() !== '') ?? '';
  const summary = line.trim().replace(/^Error:\s*/, '');
  return summary.length > 300 ? `${summary.slice(0, 297)}...` : summary;
}

/**
 * Normalises the parts of an error that vary between occurrences of one root cause:
 * quoted values, numbers (durations, ports, line numbers), hex and UUID ids.
 */
export function normaliseErrorText(strippedMessage: string): string {
  const lines = strippedMessage.split('\n').filter((l) => l.trim() !== '');
  // The first line plus, for Playwright actions, the first call-log entry ("waiting for …",
  // "navigating to …"): together they name the action and its target.
  const head = [lines[0] ?? '', lines.find((l) => /^\s*-\s/.test(l)) ?? ''].join('\n');
  return head
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '<str>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, '<id>')
    .replace(/\d+(\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
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
