import { stripAnsi } from '../ansi.js';
import { classifyError } from '../errors/classify.js';
import { errorSummary, fingerprintError } from '../errors/fingerprint.js';
import type { NormalisedError } from './normalised.js';
import type { PwError, PwLocation, PwResult } from './playwright-types.js';

export function normaliseError(error: PwError, fallbackLocation?: Partial<PwLocation>, formatted?: string): NormalisedError {
  const message = error.message ?? error.value ?? '';
  const { category, fingerprint, summary } = readMessage(message);
  const location = error.location ?? fallbackLocation;
  return {
    message,
    category,
    fingerprint,
    summary,
    location: location?.file !== undefined ? `${location.file}:${location.line ?? 0}:${location.column ?? 0}` : null,
    snippet: error.snippet ?? (formatted ? extractSnippet(formatted) : null),
    stack: error.stack ?? null,
  };
}

type MessageParts = Pick<NormalisedError, 'category' | 'fingerprint' | 'summary'>;

/**
 * What follows from a message alone, for messages seen lately: a report repeats its failures
 * (each retry, each browser), and classifying, fingerprinting and summarising take several
 * passes over the text. Short messages only and a bounded count, so memory stays small.
 */
const recentMessages = new Map<string, MessageParts>();
const RECENT_LENGTH = 4096;
const RECENT_COUNT = 2000;

function readMessage(message: string): MessageParts {
  const short = message.length <= RECENT_LENGTH;
  const known = short ? recentMessages.get(message) : undefined;
  if (known !== undefined) return known;
  const stripped = stripAnsi(message);
  const category = classifyError(stripped);
  const parts = { category, fingerprint: fingerprintError(category, stripped), summary: errorSummary(stripped) };
  if (short) {
    if (recentMessages.size >= RECENT_COUNT) recentMessages.clear();
    recentMessages.set(message, parts);
  }
  return parts;
}

/** The first error of one attempt: the raw `error`, else the pre-formatted `errors[0]`. */
export function attemptError(result: PwResult): NormalisedError | null {
  const formatted = result.errors?.[0];
  if (result.error) return normaliseError(result.error, formatted?.location ?? result.errorLocation, formatted?.message);
  if (formatted) return normaliseError({ message: formatted.message, location: formatted.location }, result.errorLocation, formatted.message);
  return null;
}

/**
 * Before 1.33 the code frame exists only inside the formatted `errors[].message`:
 * the run of lines shaped like "  12 | code", "> 13 | code" and "     |   ^".
 */
export function extractSnippet(formatted: string): string | null {
  const lines = formatted.split('\n');
  // Each blank run is one \s*: /^\s*(>\s*)?\d*\s*\|/ split a blank line between two of them
  // every way (a line of 100,000 spaces took seconds). Same lines match.
  const frame = /^\s*(?:>\s*)?(?:\d+\s*)?\|/;
  const start = lines.findIndex((l) => frame.test(stripAnsi(l)));
  if (start === -1) return null;
  let end = start;
  while (end < lines.length && frame.test(stripAnsi(lines[end]!))) end++;
  return lines.slice(start, end).join('\n');
}
