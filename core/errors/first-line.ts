import { stripAnsi } from '../ansi.js';

/** The first non-blank line of an error, colour codes stripped; '' for none. Read a line at a time. */
export function firstErrorLine(message: string | null | undefined): string {
  if (!message) return '';
  const text = stripAnsi(message);
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const trimmed = text.slice(start, end).trim();
    if (trimmed !== '') return trimmed;
    if (newline === -1) break;
    start = newline + 1;
  }
  return '';
}

/** docs/screens.md#run-details: a run's error patterns are first lines cut to 100 characters. */
export const RUN_ERROR_PATTERN_LENGTH = 100;

export function errorPatternOf(message: string | null | undefined, maxLength = RUN_ERROR_PATTERN_LENGTH): string {
  const line = firstErrorLine(message);
  return line.length > maxLength ? `${line.slice(0, maxLength)}...` : line;
}

export interface ErrorPatternCount {
  pattern: string;
  count: number;
}

/** The most frequent patterns first (ties by text), `limit` at most. */
export function topPatterns(patterns: Iterable<string>, limit = 5): ErrorPatternCount[] {
  const counts = new Map<string, number>();
  for (const pattern of patterns) if (pattern !== '') counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  return [...counts]
    .map(([pattern, count]) => ({ pattern, count }))
    .sort((a, b) => b.count - a.count || a.pattern.localeCompare(b.pattern))
    .slice(0, limit);
}

/**
 * The pattern of a message from its first characters only (`whole` false: the message goes on),
 * or null when they cannot tell: the first line runs past them while still under the cut.
 */
export function errorPatternOfHead(head: string, whole: boolean, maxLength = RUN_ERROR_PATTERN_LENGTH): string | null {
  if (whole) return errorPatternOf(head, maxLength);
  const text = stripAnsi(head);
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const trimmed = text.slice(start, newline === -1 ? text.length : newline).trim();
    if (trimmed !== '') {
      if (trimmed.length > maxLength) return `${trimmed.slice(0, maxLength)}...`;
      return newline === -1 ? null : trimmed;
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return null;
}
