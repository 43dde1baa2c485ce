/**
 * Text that leaves for an agent or a model goes through two sets of rules: secretlint's
 * recommended preset (maintained upstream: cloud keys, chat webhooks, package registry tokens,
 * private keys, connection strings…) and then the hand-kept rules in redact.ts (the forms test
 * output really holds: headers, key=value, JSON in a logged string, this product's own tokens).
 *
 * secretlint's rules are backtracking regexes written for source files, so each call reads at
 * most CHUNK_CHARS characters: the text is cut at line ends into chunks of that size (a longer
 * line is cut inside), which bounds what any one rule can rescan to one chunk, whatever the
 * input. The hand-kept rules then run over the whole text in linear time.
 */
import type { SecretLintCoreConfig } from '@secretlint/types';
import { redactSecrets } from './redact.js';

/** Per call to the rule set: large enough for any one secret with its line, small enough to bound a rescan. */
export const CHUNK_CHARS = 4_096;
const REDACTED = '[REDACTED]';

/**
 * secretlint and its preset, loaded on the first text to redact: a server imports this module
 * at start (its AI routes do) but most never redact anything, and loading them costs about
 * 70 ms of CPU.
 */
let ruleSet: Promise<{ lintSource: typeof import('@secretlint/core').lintSource; config: SecretLintCoreConfig }> | null = null;
function loadRuleSet(): NonNullable<typeof ruleSet> {
  ruleSet ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend'), import('@secretlint/profiler')]).then(([core, preset, profiler]) => {
    // secretlint's core marks every rule of every call on a process-wide profiler that keeps
    // each mark for good and searches all it kept at each new one: a server's redactions grew
    // its memory without end and each call cost more than the last (2 MB of text took 807 ms,
    // four times 1 MB's 206). Nothing here reads that profile, so nothing is marked.
    profiler.secretLintProfiler.mark = () => {};
    return {
      lintSource: core.lintSource,
      config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] },
    };
  });
  return ruleSet;
}

/** Where the chunks of a text start and end: at a line's end when one is in reach, else at CHUNK_CHARS. */
export function chunkBounds(text: string): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) {
      // Looked for inside this chunk only: lastIndexOf would read back to the text's start on
      // every chunk of a text without line ends, quadratic in its length (2 MB: 350 ms).
      let lineEnd = end - 1;
      while (lineEnd > start && text.charCodeAt(lineEnd) !== 10) lineEnd--;
      if (lineEnd > start) end = lineEnd + 1;
    }
    bounds.push([start, end]);
    start = end;
  }
  return bounds;
}

/** The ranges secretlint's recommended rules find in one chunk. */
async function rangesIn(chunk: string): Promise<Array<[number, number]>> {
  const { lintSource, config } = await loadRuleSet();
  const result = await lintSource({ source: { filePath: '/report-text.txt', content: chunk, contentType: 'text' }, options: { config, noPhysicFilePath: true } });
  return result.messages.map((m) => [m.range[0], m.range[1]] as [number, number]);
}

/** Every range the rule set finds in the text, chunk by chunk, as offsets into the whole text, in order. */
async function rangesOf(text: string): Promise<Array<[number, number]>> {
  const ranges: Array<[number, number]> = [];
  for (const [start, end] of chunkBounds(text)) {
    for (const [from, to] of await rangesIn(text.slice(start, end))) ranges.push([start + from, start + to]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/**
 * The part of text from offset `at` with the ranges (offsets into a longer text, in order of
 * their start, read from index `first`) replaced; overlapping ranges become one.
 */
function applyRanges(text: string, at: number, ranges: ReadonlyArray<[number, number]>, first = 0): string {
  let out = '';
  let last = 0;
  for (let i = first; i < ranges.length; i++) {
    const [absFrom, absTo] = ranges[i]!;
    // Sorted by start: no later range reaches into this text.
    if (absFrom >= at + text.length) break;
    const from = Math.max(0, absFrom - at);
    const to = Math.min(text.length, absTo - at);
    if (to <= from || to <= last) continue;
    out += text.slice(last, Math.max(from, last)) + (from >= last ? REDACTED : '');
    last = to;
  }
  return out + text.slice(last);
}

/** The text with every secret either rule set finds replaced by "[REDACTED]". */
export async function redactWithRuleSet(text: string): Promise<string> {
  return redactSecrets(applyRanges(text, 0, await rangesOf(text)));
}

/**
 * Every string inside a JSON-like value (objects, arrays) redacted by both rule sets, its shape
 * kept. The strings are read by the rule set as one text, one per line, so a value of a hundred
 * short strings costs a few calls, not a hundred.
 */
export async function redactDeepWithRuleSet<T>(value: T): Promise<T> {
  const strings: string[] = [];
  collectStrings(value, strings);
  const joined = strings.join('\n');
  const ranges = await rangesOf(joined);
  let at = 0;
  // The ranges are in order of their start, as the strings are: each string looks from the first
  // range that can still reach it, not from the first of all (strings × ranges on a big value).
  let first = 0;
  const redacted = strings.map((s) => {
    while (first < ranges.length && ranges[first]![1] <= at) first++;
    const out = redactSecrets(applyRanges(s, at, ranges, first));
    at += s.length + 1;
    return out;
  });
  let next = 0;
  return replaceStrings(value, () => redacted[next++]!);
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value as Record<string, unknown>)) collectStrings(v, into);
}

/** The value with its strings replaced, in the order collectStrings read them. */
function replaceStrings<T>(value: T, next: () => string): T {
  if (typeof value === 'string') return next() as T;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceStrings(item, next)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, replaceStrings(v, next)])) as T;
  }
  return value;
}
