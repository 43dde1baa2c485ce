/**
 * Reading Playwright error text for the analysis. Report text is data: whatever is quoted back
 * is a short, single-line, colour-free, redacted excerpt, never the message itself.
 */
import { stripAnsi } from '../../core/ansi.js';
import { redactSecrets } from './redact.js';

/** Redaction reads this much of a line: enough for any secret that starts where an excerpt can show it. */
const EXCERPT_SCAN = 8192;

/** The first meaningful line, shortened: all a finding ever quotes of a message. */
export function excerpt(text: string | null | undefined, max = 120): string {
  if (!text) return '';
  const line = firstNonBlankLine(text).replace(/\s+/g, ' ').trim().slice(0, EXCERPT_SCAN);
  const safe = redactSecrets(line);
  return safe.length > max ? `${safe.slice(0, max - 1).trimEnd()}…` : safe;
}

/** Stops at the first line with text, colour codes stripped (a long call log is not split whole). */
function firstNonBlankLine(text: string): string {
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = stripAnsi(text.slice(start, end));
    if (line.trim() !== '') return line;
    start = end + 1;
  }
  return '';
}

/** A quoted excerpt for use inside a sentence. */
export const quoted = (text: string): string => `"${text.replace(/"/g, "'")}"`;

const LOCATOR_START = /(?:locator|getBy(?:Role|Text|Label|Placeholder|AltText|Title|TestId))\(/;
const MAX_LOCATOR = 100;

/**
 * The locator an error waited for: "waiting for getByRole('button', { name: 'Save' })" in a
 * call log, "Locator: …" of a failed expect, or "waiting for selector "…"".
 */
export function locatorIn(message: string): string | null {
  const text = stripAnsi(message);
  for (const line of text.split('\n')) {
    const waiting = waitingFor(line) ?? /^\s*Locator:\s*(.+)$/.exec(line)?.[1];
    if (waiting === undefined) continue;
    let found = waiting.trim().replace(/ to be (visible|hidden|attached|detached|enabled|stable)$/, '');
    const selector = /^selector "(.+)"$/.exec(found);
    if (selector) found = selector[1]!;
    else if (!LOCATOR_START.test(found)) continue;
    return found.length > MAX_LOCATOR ? null : redactSecrets(found);
  }
  return null;
}

const WAITING_FOR = 'waiting for ';

/**
 * What /waiting for (.+)$/ captured, found with indexOf: the regex restarted at every "waiting
 * for " of a line and ran to its end each time. `.` stops at \r, \u2028 and \u2029, so the
 * phrase must come after the last of them.
 */
function waitingFor(line: string): string | undefined {
  let lastBreak = -1;
  for (const stop of ['\r', '\u2028', '\u2029']) lastBreak = Math.max(lastBreak, line.lastIndexOf(stop));
  const at = line.indexOf(WAITING_FOR, lastBreak + 1);
  const rest = at === -1 ? '' : line.slice(at + WAITING_FOR.length);
  return rest === '' ? undefined : rest;
}

/** The URL a navigation went to: call-log "navigating to "…"", or "net::ERR_… at URL". */
export function urlIn(message: string): string | null {
  const text = stripAnsi(message);
  const match = /navigating to "([^"\s]+)"/.exec(text) ?? /net::ERR_\w+ at (\S+)/.exec(text);
  if (!match) return null;
  const url = redactSecrets(match[1]!);
  return url.length > 200 ? `${url.slice(0, 199)}…` : url;
}

/** "locator.click", "page.goto": which API call failed, from the first line. */
export function failedCallIn(message: string): string | null {
  const match = /\b((?:locator|page|frame|elementHandle)\.\w+): /.exec(excerpt(message, 400));
  return match ? match[1]! : null;
}

/** Why Playwright could not act on an element, from the call log. */
export function actionabilityIn(message: string): string | null {
  const text = stripAnsi(message);
  if (/element is not enabled/.test(text)) return 'the element was found but stayed disabled';
  if (/element is not visible/.test(text)) return 'the element was found but stayed hidden';
  if (/element is not stable/.test(text)) return 'the element kept moving (an animation)';
  if (/intercepts pointer events/.test(text)) return 'another element covered it and took the click';
  if (/element is outside of the viewport/.test(text)) return 'the element stayed outside the viewport';
  // Only a wait that timed out says the element never came; a crash also leaves "waiting for" behind.
  if (/timeout \d+ms exceeded/i.test(text) && /element\(s\) not found|waiting for (locator|getBy)/.test(text) && !/locator resolved to/.test(text)) {
    return 'the element never appeared';
  }
  return null;
}

/** The limit a timeout hit, in ms: "Timeout 10000ms exceeded", "Test timeout of 30000ms exceeded". */
export function timeoutLimitIn(message: string): number | null {
  const match = /\btimeout (?:of )?(\d{2,7})ms exceeded/i.exec(stripAnsi(message));
  return match ? Number(match[1]) : null;
}

/** Expected vs received of a failed expect, each clipped: enough to see what differed. */
export function expectedReceivedIn(message: string): { expected: string; received: string } | null {
  const text = stripAnsi(message);
  // Leading blanks within the line only: a \s* there crossed newlines, so every line start of a
  // run of blank lines rescanned the rest of the run.
  const expected = /^[^\S\n\r\u2028\u2029]*Expected(?: string| pattern| value)?:\s*(.+)$/m.exec(text);
  const received = /^[^\S\n\r\u2028\u2029]*Received(?: string| value)?:\s*(.+)$/m.exec(text);
  if (!expected || !received) return null;
  return { expected: excerpt(expected[1], 60), received: excerpt(received[1], 60) };
}

interface Step {
  title?: unknown;
  error?: unknown;
  steps?: unknown;
}

/**
 * The innermost step with an error in the steps JSON the UI sends (title › child › …): the
 * step that actually failed, not the outer ones its error bubbled through.
 */
export function failingStepIn(stepsJson: string | null | undefined): string | null {
  if (!stepsJson) return null;
  let steps: unknown;
  try {
    steps = JSON.parse(stepsJson);
  } catch {
    return null;
  }
  const path = deepestFailing(Array.isArray(steps) ? steps : [], 0);
  return path && path.length > 0 ? path.map((t) => excerpt(t, 60)).join(' › ') : null;
}

/**
 * The step it was in when it ended: the innermost failing step, else the last step and its last
 * child (a test timeout often leaves the running step without an error of its own).
 */
export function lastStepIn(stepsJson: string | null | undefined): string | null {
  const failing = failingStepIn(stepsJson);
  if (failing || !stepsJson) return failing;
  let steps: unknown;
  try {
    steps = JSON.parse(stepsJson);
  } catch {
    return null;
  }
  const path: string[] = [];
  let level: unknown = steps;
  while (Array.isArray(level) && level.length > 0 && path.length < 20) {
    const last = level[level.length - 1] as Step | null;
    if (!last || typeof last !== 'object' || typeof last.title !== 'string') break;
    path.push(excerpt(last.title, 60));
    level = last.steps;
  }
  return path.length > 0 ? path.join(' › ') : null;
}

function deepestFailing(steps: unknown[], depth: number): string[] | null {
  if (depth > 20) return null;
  let best: string[] | null = null;
  for (const raw of steps) {
    if (!raw || typeof raw !== 'object') continue;
    const step = raw as Step;
    const title = typeof step.title === 'string' ? step.title : '';
    const inner = Array.isArray(step.steps) ? deepestFailing(step.steps, depth + 1) : null;
    const candidate = inner ? [title, ...inner] : step.error ? [title] : null;
    if (candidate && (!best || candidate.length > best.length)) best = candidate;
  }
  return best;
}

/** The most frequent value and its count. */
export function mostCommon<T>(values: readonly T[]): { value: T; count: number } | null {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: { value: T; count: number } | null = null;
  for (const [value, count] of counts) if (!best || count > best.count) best = { value, count };
  return best;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
}

export const shortCommit = (commit: string): string => (/^[0-9a-f]{7,64}$/i.test(commit) ? commit.slice(0, 7) : excerpt(commit, 20));

export const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
