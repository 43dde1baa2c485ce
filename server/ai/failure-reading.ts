/**
 * What one failure's error text says happened: the kind of failure and the facts
 * that decide it (a timeout and its kind, a locator, a port, a status, expected vs received),
 * each with the line it was read from. One failure only: diagnose.ts weighs the history.
 *
 * Report text is hostile input: every reader here scans lines with indexOf or with regexes
 * anchored on a literal and without nested or adjacent quantifiers, so each runs in linear time
 * (server/ai/linear-time.test.ts). The text is a bounded head (evidence.ts).
 */
import { stripAnsi } from '../../core/ansi.js';
import { excerpt } from './error-text.js';
import { redactSecrets } from './redact.js';
import { apiCall, httpStatusPair, isErrorAfterSuccess, leadingNumber, numberAfter, portIn, protocolMethod, protocolReason, quotedAfter, requestLine, statusIn, strictParts, thrownStatus, urlOnLine } from './error-parts.js';

export type FailureKind =
  | 'strict-mode'
  | 'snapshot-mismatch'
  | 'protocol-error'
  | 'closed-page'
  | 'network-refused'
  | 'http-status'
  | 'slow-response'
  | 'test-timeout'
  | 'locator-wait'
  | 'wait-timeout'
  | 'assertion-mismatch'
  | 'thrown-error'
  | 'unexpected-pass'
  | 'none';

export type TimeoutKind = 'expect' | 'action' | 'navigation' | 'request' | 'test';

export interface FailureReading {
  kind: FailureKind;
  timeout: { kind: TimeoutKind; ms: number } | null;
  locator: string | null;
  /** Strict mode: how many elements the locator matched. */
  matched: number | null;
  /** A locator wait: the element was found (resolved) at some point. */
  found: boolean;
  /** A locator wait: found, visible, enabled and stable, yet the action ran out of time. */
  ready: boolean;
  /** Why a found element could not be used: disabled, hidden, covered, moving. */
  notReady: string | null;
  port: number | null;
  status: number | null;
  method: string | null;
  url: string | null;
  expected: string | null;
  received: string | null;
  /** A thrown error's own message (API prefix and "Error: " removed); a protocol call's method. */
  thrown: string | null;
  /** The browser's own reason for refusing a protocol call ("Could not find node with given id"). */
  reason: string | null;
  /** The lines this reading rests on, as short excerpts. */
  lines: string[];
}

const EMPTY: Omit<FailureReading, 'kind'> = {
  timeout: null,
  locator: null,
  matched: null,
  found: false,
  ready: false,
  notReady: null,
  port: null,
  status: null,
  method: null,
  url: null,
  expected: null,
  received: null,
  thrown: null,
  reason: null,
  lines: [],
};

const MAX_LINES = 80;
const MAX_VALUE = 80;

/** Reads one failure. `message` is null for a result without an error (e.g. a test.fail() that passed). */
export function readFailure(message: string | null, expectedFailure: boolean): FailureReading {
  if (!message || message.trim() === '') {
    return expectedFailure
      ? { ...EMPTY, kind: 'unexpected-pass', lines: [] }
      : { ...EMPTY, kind: 'none' };
  }
  const lines = linesOf(message);
  const first = lines.find((l) => l.trim() !== '') ?? '';
  const has = (needle: string) => lines.some((l) => l.includes(needle));
  const lineWith = (needle: string) => lines.find((l) => l.includes(needle)) ?? null;
  const show = (...picked: Array<string | null>) => picked.filter((l): l is string => l !== null && l.trim() !== '').map((l) => excerpt(l, 160));

  const strict = lineWith('strict mode violation');
  if (strict) {
    const { locator, count } = strictParts(strict);
    return { ...EMPTY, kind: 'strict-mode', locator, matched: count, lines: show(strict) };
  }
  if (has('toMatchSnapshot') || has('toMatchAriaSnapshot') || has('toHaveScreenshot') || has('Screenshot comparison failed') || lines.some((l) => l.trimStart().startsWith('Snapshot:'))) {
    const name = lines.find((l) => l.trimStart().startsWith('Snapshot:'));
    return { ...EMPTY, kind: 'snapshot-mismatch', thrown: name ? clip(afterColon(name)) : null, lines: show(first, name ?? null, ...diffLines(lines).slice(0, 2)) };
  }
  const protocol = lineWith('Protocol error') ?? lineWith('Frame was detached') ?? lineWith('frame was detached') ?? lineWith('Target crashed');
  if (protocol) {
    return { ...EMPTY, kind: 'protocol-error', thrown: protocolMethod(protocol), reason: protocolReason(protocol), lines: show(protocol) };
  }
  // A test timeout closes the page under the call in flight, which then says "has been closed":
  // when the message starts with the timeout, the timeout is the cause.
  const closed = first.startsWith('Test timeout of ') ? null : lineWith('has been closed') ?? lineWith('Target closed');
  if (closed) return { ...EMPTY, kind: 'closed-page', thrown: apiCall(first), lines: show(closed) };

  const refused = lineWith('ERR_CONNECTION_REFUSED') ?? lineWith('ECONNREFUSED');
  if (refused) {
    const url = urlOnLine(refused) ?? urlOnLine(lineWith('→ ') ?? '') ?? urlOnLine(lineWith('navigating to') ?? '');
    return { ...EMPTY, kind: 'network-refused', port: portIn(refused, url), url, lines: show(refused) };
  }

  const testTimeout = numberAfter(lines.find((l) => l.includes('Test timeout of ')) ?? '', 'Test timeout of ', 'ms exceeded');
  if (testTimeout !== null) {
    return { ...EMPTY, kind: 'test-timeout', timeout: { kind: 'test', ms: testTimeout }, locator: waitedLocator(lines), lines: show(lineWith('Test timeout of')) };
  }

  const timeoutLine = lines.find((l) => /\bTimeout \d{1,7}ms exceeded/.test(l)) ?? null;
  // An expect that failed says so on its first line; a timeout in its call log (expect.poll's
  // "Timeout 1000ms exceeded while waiting on the predicate") is the expect's own limit.
  const expectFailed = /^(?:Error: )?expect[.(]/.test(first.trim());
  if (timeoutLine && !expectFailed) {
    const ms = numberAfter(timeoutLine, 'Timeout ', 'ms exceeded')!;
    const call = apiCall(first) ?? '';
    if (/^(?:page|frame)\.(?:goto|reload|goBack|goForward|waitForURL|waitForNavigation)$/.test(call) || has('navigating to "')) {
      const url = quotedAfter(lineWith('navigating to "') ?? '', 'navigating to "');
      return { ...EMPTY, kind: 'slow-response', timeout: { kind: 'navigation', ms }, url, lines: show(timeoutLine, lineWith('navigating to "')) };
    }
    if (call.startsWith('apiRequestContext.') || call.startsWith('request.')) {
      const sent = lineWith('→ ');
      return { ...EMPTY, kind: 'slow-response', timeout: { kind: 'request', ms }, ...requestLine(sent), lines: show(timeoutLine, sent) };
    }
    if (/^(?:page|frame|context)\.waitFor(?:Response|Request|Event)$/.test(call)) {
      const waiting = lineWith('waiting for response "') ?? lineWith('waiting for request "');
      const url = waiting ? quotedAfter(waiting, waiting.includes('response "') ? 'waiting for response "' : 'waiting for request "') : null;
      return { ...EMPTY, kind: 'slow-response', timeout: { kind: 'action', ms }, url, lines: show(timeoutLine, waiting) };
    }
    const locator = waitedLocator(lines);
    if (locator) return { ...EMPTY, ...elementState(lines), kind: 'locator-wait', timeout: { kind: 'action', ms }, locator, lines: show(timeoutLine, lineWith('waiting for '), stateLine(lines)) };
    return { ...EMPTY, kind: 'wait-timeout', timeout: { kind: 'action', ms }, thrown: call || null, lines: show(timeoutLine) };
  }

  const isExpect = first.includes('expect(') || has('Expected:') || lines.some((l) => l.trimStart().startsWith('- Expected'));
  if (isExpect) {
    if (first.includes('toBeOK()')) {
      const sent = lineWith('→ ');
      const answer = lines.find((l) => l.trimStart().startsWith('← ')) ?? null;
      return { ...EMPTY, kind: 'http-status', ...requestLine(sent), status: answer ? statusIn(answer.trimStart().slice(2)) : null, lines: show(first, sent, answer) };
    }
    // toContainText says "Expected substring:"; toHaveText with a list "Expected: [..]".
    const expectedLine = lines.find((l) => /^\s{0,8}Expected(?: string| substring| pattern| value)?:/.test(l)) ?? null;
    const receivedLine = lines.find((l) => /^\s{0,8}Received(?: string| value)?:/.test(l)) ?? null;
    const expected = expectedLine ? clip(afterColon(expectedLine)) : null;
    const received = receivedLine ? clip(afterColon(receivedLine)) : null;
    const limitLine = lines.find((l) => /^\s{0,8}Timeout:/.test(l)) ?? null;
    const limit = limitLine ? leadingNumber(afterColon(limitLine)) : timeoutLine ? numberAfter(timeoutLine, 'Timeout ', 'ms exceeded') : null;
    const timeout = limit !== null ? { kind: 'expect' as const, ms: limit } : null;
    const locatorLine = lines.find((l) => /^\s{0,8}Locator:/.test(l)) ?? null;
    const locator = locatorLine ? clip(afterColon(locatorLine)) : null;
    const status = expected !== null && received !== null ? httpStatusPair(expected, received) : null;
    const url = status !== null ? urlOnLine(first) ?? urlOnLine(lines.find((l) => l.includes('://')) ?? '') : null;
    // A success expected and an error status received is an HTTP status, with or without a URL.
    if (status !== null && (url || isErrorAfterSuccess(expected!, status))) return { ...EMPTY, kind: 'http-status', status, url, expected, received, lines: show(first, expectedLine, receivedLine) };
    // Playwright prints "Received: undefined" with neither a limit nor a call log when the page
    // never answered the expect (its protocol call failed without details, as on a closed page
    // or context), not when the element had a wrong value.
    if (locator && received === 'undefined' && limitLine === null && !has('Call log:')) {
      return { ...EMPTY, kind: 'closed-page', locator, thrown: `the expect on ${locator} got no answer from the page`, lines: show(first, locatorLine, receivedLine) };
    }
    const notFound = has('element(s) not found');
    const stateMatcher = /\.(?:toBeVisible|toBeAttached|toBeEnabled|toBeEditable|toBeInViewport|toBeChecked|toBeFocused)\(/.test(first);
    if (locator && (notFound || (stateMatcher && (received === 'hidden' || received === 'disabled' || received === null)))) {
      return { ...EMPTY, kind: 'locator-wait', timeout, locator, found: !notFound, notReady: notFound ? null : received, expected, received, lines: show(first, locatorLine, lineWith('element(s) not found') ?? receivedLine, limitLine) };
    }
    const diff = received === null ? diffLines(lines) : [];
    const shownReceived = received ?? (diff.find((l) => l.trimStart().startsWith('+')) ?? null);
    return {
      ...EMPTY,
      kind: 'assertion-mismatch',
      timeout,
      locator,
      expected: expected ?? clip(stripSign(diff.find((l) => l.trimStart().startsWith('-')) ?? '')),
      received: shownReceived === null ? null : clip(stripSign(shownReceived)),
      lines: show(first, expectedLine, receivedLine, ...diff.slice(0, 2)),
    };
  }
  // A thrown message that names an error status ("GET /x answered 404", axios's "Request failed
  // with status code 503") reports an HTTP answer, not a bug in the test's code.
  const http = thrownStatus(first);
  if (http) return { ...EMPTY, kind: 'http-status', ...http, thrown: thrownMessage(first), lines: show(first) };
  return { ...EMPTY, kind: 'thrown-error', thrown: thrownMessage(first), lines: show(first) };
}

/** At most MAX_LINES lines of 1000 characters are read, whatever the message's size. */
function linesOf(message: string): string[] {
  const out: string[] = [];
  const text = stripAnsi(message.length > MAX_LINES * 1000 ? message.slice(0, MAX_LINES * 1000) : message);
  for (let start = 0; start < text.length && out.length < MAX_LINES; ) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    out.push(text.slice(start, Math.min(end, start + 1000)).replace(/\r$/, ''));
    start = end + 1;
  }
  return out;
}

const clip = (value: string): string => {
  const v = redactSecrets(value.trim());
  return v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE - 1)}…` : v;
};

const afterColon = (line: string): string => line.slice(line.indexOf(':') + 1).trim();

/** "+   "plan": "Basic"," → ""plan": "Basic","; a diff line without its sign. */
const stripSign = (line: string): string => line.trimStart().replace(/^[-+]/, '').trim().replace(/,$/, '');

/** The body of a "- Expected / + Received" diff: the changed lines, headers left out. */
function diffLines(lines: readonly string[]): string[] {
  return lines.filter((l) => {
    const t = l.trimStart();
    return (t.startsWith('-') || t.startsWith('+')) && !/^[-+] ?(?:Expected|Received|Snapshot)\b/.test(t) && !t.startsWith('---') && !t.startsWith('+++') && t.length > 1;
  });
}

/** The locator a call log waited for ("waiting for getByRole(…)", "waiting for locator(…)"). */
function waitedLocator(lines: readonly string[]): string | null {
  for (const line of lines) {
    const at = line.indexOf('waiting for ');
    if (at === -1) continue;
    const rest = line.slice(at + 'waiting for '.length).trim();
    if (/^(?:locator|getBy(?:Role|Text|Label|Placeholder|AltText|Title|TestId))\(/.test(rest) && rest.length <= 120) return redactSecrets(rest);
  }
  return null;
}

/** Whether the element was found, and what kept it from being used, from a call log. */
function elementState(lines: readonly string[]): Pick<FailureReading, 'found' | 'ready' | 'notReady'> {
  const found = lines.some((l) => l.includes('locator resolved to'));
  const notReady =
    lines.some((l) => l.includes('element is not enabled')) ? 'disabled'
    : lines.some((l) => l.includes('element is not visible')) ? 'hidden'
    : lines.some((l) => l.includes('intercepts pointer events')) ? 'covered by another element'
    : lines.some((l) => l.includes('element is not stable')) ? 'still moving'
    : lines.some((l) => l.includes('outside of the viewport')) ? 'outside the viewport'
    : null;
  const ready = found && notReady === null && lines.some((l) => l.includes('element is visible, enabled and stable'));
  return { found, ready, notReady };
}

function stateLine(lines: readonly string[]): string | null {
  return lines.find((l) => /element is not (?:enabled|visible|stable)|intercepts pointer events|outside of the viewport|element is visible, enabled and stable/.test(l)) ?? lines.find((l) => l.includes('locator resolved to')) ?? null;
}

/** A thrown error's own words: "Error: page.evaluate: Error: Widget failed" → "Widget failed". */
function thrownMessage(first: string): string {
  let text = first.trim();
  for (let i = 0; i < 4; i++) {
    const before = text;
    text = text.replace(/^(?:Error|Uncaught|TimeoutError): /, '').replace(/^(?:page|frame|locator|elementHandle|worker|jsHandle)\.\w{1,40}: /, '');
    if (text === before) break;
  }
  return excerpt(text, 160);
}
