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
  ruleSet ??= Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]).then(([core, preset]) => ({
    lintSource: core.lintSource,
    config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] },
  }));
  return ruleSet;
}

/** Where the chunks of a text start and end: at a line's end when one is in reach, else at CHUNK_CHARS. */
export function chunkBounds(text: string): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) {
      const lineEnd = text.lastIndexOf('\n', end);
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

/** The part of text from offset `at` with the ranges (offsets into a longer text) replaced; overlapping ranges become one. */
function applyRanges(text: string, at: number, ranges: ReadonlyArray<[number, number]>): string {
  let out = '';
  let last = 0;
  for (const [absFrom, absTo] of ranges) {
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
  const redacted = strings.map((s) => {
    const out = redactSecrets(applyRanges(s, at, ranges));
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
