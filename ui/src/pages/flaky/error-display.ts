/** Display rules (docs/screens.md#display-rules) for a run in the flaky detail dialog's Test History. */
import { stripAnsi } from '../../../../core/ansi.js';
import type { TestResultDetail } from '../../../../core/api/analytics.js';
import { truncate } from '../../lib/format.js';

export const ERROR_TRUNCATION = 200;
export const NO_ERROR_DETAILS = 'No error details available';
export const NO_CODE_CONTEXT = 'No code context available';

// An action on an element that ran out of time: 'locator.click: Timeout 10000ms exceeded.'
// (page./frame. actions with a selector wait for an element the same way).
const ACTION_TIMEOUT = /\b(?:locator|page|frame|elementHandle)\.\w+: Timeout \d+ms exceeded\.?/;
// The call log names what it waited for; navigation and load-state waits are not elements.
// Linear: the leading blanks stay on their line and the locator runs to the line's end (trimmed
// after); /^\s*-…(.*?)\s*$/m rescanned blank runs from every line start inside them.
const WAITING_FOR = /^[^\S\n\r\u2028\u2029]*-\s*waiting for ((?:locator|getBy\w*|frameLocator|selector|internal:)\b[^\n\r\u2028\u2029]*)/m;
const ELEMENT_STATE = / to be (?:visible|hidden|attached|detached|enabled|editable|stable)$/;
const TEST_TIMEOUT = /\bTest timeout of (\d+)ms exceeded/i;

/**
 * docs/screens.md#display-rules: colour codes stripped; a locator timeout as "Element timeout: waiting for
 * '{locator}' - {detail}"; a test timeout as 'Test timeout: exceeded {n}s limit'; anything
 * else cut to 200 characters plus '...'; nothing as 'No error details available'.
 */
export function formatErrorMessage(message: string | null | undefined): string {
  const clean = stripAnsi(message ?? '').trim();
  if (clean === '') return NO_ERROR_DETAILS;

  const testTimeout = TEST_TIMEOUT.exec(clean);
  if (testTimeout) return `Test timeout: exceeded ${Number(testTimeout[1]) / 1000}s limit`;

  const firstLine = clean.split('\n', 1)[0]!;
  const action = ACTION_TIMEOUT.exec(firstLine);
  const waiting = action ? WAITING_FOR.exec(clean) : null;
  if (action && waiting) {
    const locator = waiting[1]!.trimEnd().replace(ELEMENT_STATE, '');
    return `Element timeout: waiting for '${locator}' - ${action[0]}`;
  }
  return truncate(clean, ERROR_TRUNCATION);
}

/** A timedOut result is labelled TIMEOUT; the others by their status in capitals. */
export function statusLabel(status: string): string {
  return status === 'timedOut' ? 'TIMEOUT' : status.toUpperCase();
}

export function statusColor(status: string): string {
  switch (status) {
    case 'passed':
      return 'green';
    case 'timedOut':
      return 'orange';
    case 'skipped':
      return 'gray';
    default:
      return 'red';
  }
}

export interface CodeLine {
  /** The source line number, when the snippet gives one. */
  number: number | null;
  text: string;
  failing: boolean;
  /** The caret line under the failing one ('    |     ^'). */
  caret: boolean;
}

// Playwright's snippet lines: '> 37 |   code', '  36 |   code', '     |   ^'. One blank run per
// \s* (/^\s*(>)?\s*(\d+)?\s*\|/ split a long blank line between three of them every way).
const SNIPPET_LINE = /^\s*(?:(>)\s*)?(?:(\d+)\s*)?\|(?: (.*)|)$/;

/**
 * The error snippet as numbered lines with the failing one marked. Playwright marks it with
 * '>'; without a mark the line of the error location ('file.ts:37:20') is the failing one.
 * Null when there is no snippet.
 */
export function parseCodeContext(snippet: string | null | undefined, location?: string | null): CodeLine[] | null {
  const clean = stripAnsi(snippet ?? '').trimEnd();
  if (clean.trim() === '') return null;
  const lines: CodeLine[] = clean.split('\n').map((raw) => {
    const match = SNIPPET_LINE.exec(raw);
    if (!match) return { number: null, text: raw, failing: false, caret: false };
    const number = match[2] === undefined ? null : Number(match[2]);
    const text = match[3] ?? '';
    return { number, text, failing: match[1] === '>', caret: number === null && /^\s*\^+\s*$/.test(text) };
  });
  if (!lines.some((l) => l.failing)) {
    const locationLine = /:(\d+)(?::\d+)?\s*$/.exec(location ?? '');
    const target = locationLine ? Number(locationLine[1]) : null;
    for (const line of lines) if (target !== null && line.number === target) line.failing = true;
  }
  return lines;
}

export interface TestStep {
  title: string;
  category: string | null;
  duration: number | null;
  error: string | null;
  steps: TestStep[];
}

export type ParsedSteps = { kind: 'steps'; steps: TestStep[] } | { kind: 'raw'; text: string } | { kind: 'none' };

/** docs/screens.md#display-rules: steps are JSON text; text that does not parse as a step list is shown raw. */
export function parseTestSteps(text: string | null | undefined): ParsedSteps {
  if (text === null || text === undefined || text.trim() === '') return { kind: 'none' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'raw', text };
  }
  if (!Array.isArray(parsed)) return { kind: 'raw', text };
  const steps = toSteps(parsed);
  return steps === null ? { kind: 'raw', text } : steps.length === 0 ? { kind: 'none' } : { kind: 'steps', steps };
}

function toSteps(list: unknown[]): TestStep[] | null {
  const steps: TestStep[] = [];
  for (const item of list) {
    if (item === null || typeof item !== 'object') return null;
    const step = item as Record<string, unknown>;
    const children = Array.isArray(step.steps) ? toSteps(step.steps) : [];
    if (children === null) return null;
    steps.push({
      title: typeof step.title === 'string' ? step.title : String(step.title ?? ''),
      category: typeof step.category === 'string' ? step.category : null,
      duration: typeof step.duration === 'number' && Number.isFinite(step.duration) ? step.duration : null,
      error: typeof step.error === 'string' && step.error !== '' ? stripAnsi(step.error) : null,
      steps: children,
    });
  }
  return steps;
}

/** A skipped test with no failures gets a note that it was skipped rather than failed. */
export function skippedWithoutFailures(history: readonly Pick<TestResultDetail, 'status'>[]): boolean {
  return history.some((r) => r.status === 'skipped') && !history.some((r) => r.status === 'failed' || r.status === 'timedOut');
}
