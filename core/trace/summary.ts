import { stripAnsi } from '../ansi.js';
import { readZipEntries, type ZipCaps } from './capped-zip.js';

/** What a Playwright trace says about one attempt, in a few lines a person or an agent can read. */
export interface TraceSummary {
  /** The newest Playwright that wrote part of the trace, e.g. "1.65.1" (null when none says). */
  playwrightVersion: string | null;
  /** The trace format version (the viewer refuses formats newer than its own). */
  formatVersion: number | null;
  /** The action that failed last: the one that ended the test, as a rule. */
  failingAction: TraceAction | null;
  /** The test's actions in the order they started (fixtures' own set-up left out). */
  actions: TraceAction[];
  consoleErrors: TraceConsoleError[];
  pageErrors: string[];
  failedRequests: TraceFailedRequest[];
  /** Every request the page made, answered or not, with how long it took: what a comparison of attempts reads. */
  requests: TraceRequest[];
  /** How many actions, console errors, page errors or failed requests were left out over the limits. */
  omitted: number;
}

export interface TraceAction {
  title: string;
  /** The locator the action used, as written in the test (or the selector for a library trace). */
  locator: string | null;
  durationMs: number | null;
  /** When the action started, in ms after the first action of the trace (null when the trace does not say). */
  startMs: number | null;
  error: string | null;
}

export interface TraceConsoleError {
  text: string;
  /** Where the message came from: a URL with its line, when the browser said. */
  location: string | null;
}

export interface TraceFailedRequest {
  method: string;
  url: string;
  /** The HTTP status, or null when the request never got an answer. */
  status: number | null;
  /** Why it failed without an answer, e.g. "net::ERR_CONNECTION_REFUSED". */
  failure: string | null;
  /** When it was sent, in ms after the first action (the actions' clock); absent when the trace does not say. */
  startMs?: number | null;
}

export interface TraceRequest extends TraceFailedRequest {
  /** From the request to the end of its answer, when the trace says. */
  durationMs: number | null;
}

/** A trace of a long test is large, but its text is a fraction: 64 MB of it is a real bound. */
export const TRACE_CAPS: ZipCaps = { maxExpandedBytes: 64 * 1024 * 1024, maxEntries: 50_000 };

const LIMITS = { actions: 200, consoleErrors: 50, pageErrors: 50, failedRequests: 50, requests: 500 };
// Long texts (a page's HTML set as content, a stack) are cut: the summary points, the trace shows.
const MAX_TEXT = 2000;

type TraceEvent = Record<string, unknown>;

/** A screencast frame of the trace: a JPEG entry of the zip and when the page showed it. */
export interface TraceFrame {
  /** The zip entry holding the image (`screencast/….jpeg`, or `resources/{sha1}` in older traces). */
  name: string;
  /** When the page showed it, in ms after the first action of the trace (as an action's `startMs`, not rounded). */
  atMs: number;
}

/**
 * Summarises a trace zip as Playwright writes it (`trace: 'on'` in the test runner, or
 * `context.tracing` in a library script). Only the event files are expanded, under `caps`; a
 * zip that would expand beyond them is refused (ZipRefused).
 */
export function summariseTrace(zip: Uint8Array, caps: ZipCaps = TRACE_CAPS): TraceSummary {
  return readTrace(zip, caps).summary;
}

/** The summary and the screencast frames the trace lists (their images are not expanded), timed alike. */
export function readTrace(zip: Uint8Array, caps: ZipCaps = TRACE_CAPS): { summary: TraceSummary; frames: TraceFrame[] } {
  const files = readZipEntries(zip, (name) => /^[^/]*\.(?:trace|network)$/.test(name), caps);
  const runnerEvents: TraceEvent[] = [];
  const libraryEvents: TraceEvent[] = [];
  const networkEvents: TraceEvent[] = [];
  const decoder = new TextDecoder();
  for (const [name, bytes] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const events = name.endsWith('.network') ? networkEvents : name === 'test.trace' ? runnerEvents : libraryEvents;
    for (const line of decoder.decode(bytes).split('\n')) {
      if (line.trim() === '') continue;
      try {
        const event: unknown = JSON.parse(line);
        if (event && typeof event === 'object' && !Array.isArray(event)) events.push(event as TraceEvent);
      } catch {
        // A trace cut short by a crash ends in half a line: the rest still says what happened.
      }
    }
  }
  const summary: TraceSummary = { playwrightVersion: null, formatVersion: null, failingAction: null, actions: [], consoleErrors: [], pageErrors: [], failedRequests: [], requests: [], omitted: 0 };
  for (const event of [...runnerEvents, ...libraryEvents]) {
    if (event.type !== 'context-options') continue;
    if (typeof event.version === 'number') summary.formatVersion = Math.max(summary.formatVersion ?? 0, event.version);
    if (typeof event.playwrightVersion === 'string' && (summary.playwrightVersion === null || compareVersions(event.playwrightVersion, summary.playwrightVersion) > 0)) {
      summary.playwrightVersion = event.playwrightVersion;
    }
  }
  const actions = runnerEvents.length > 0 ? runnerActions(runnerEvents) : libraryActions(libraryEvents);
  const failing = [...actions].reverse().find((action) => action.error !== null && !action.container) ?? [...actions].reverse().find((action) => action.error !== null);
  const start = actions.find((action) => action.startTime > 0)?.startTime ?? null;
  summary.failingAction = failing ? withoutContainer(failing, start) : null;
  summary.actions = keep(actions.map((action) => withoutContainer(action, start)), LIMITS.actions, summary);
  summary.consoleErrors = keep(consoleErrors(libraryEvents), LIMITS.consoleErrors, summary);
  summary.pageErrors = keep(pageErrors(libraryEvents), LIMITS.pageErrors, summary);
  const requests = allRequests(networkEvents, start);
  summary.failedRequests = keep(requests.filter(isFailed).map(({ method, url, status, failure, startMs }) => ({ method, url, status, failure, startMs })), LIMITS.failedRequests, summary);
  summary.requests = keep(requests, LIMITS.requests, summary);
  return { summary, frames: screencastFrames(libraryEvents, start ?? 0) };
}

// Entry names a frame may have: nothing outside these two folders, nothing climbing out of them.
const FRAME_NAME = /^(?:screencast\/[\w@.-]{1,200}\.jpe?g|resources\/[0-9a-f]{40}(?:\.jpe?g)?)$/;

/** Whether `name` is a name a screencast frame can have in a trace zip (and nothing else in it). */
export function isFrameName(name: string): boolean {
  return FRAME_NAME.test(name) && !name.includes('..');
}

function screencastFrames(events: TraceEvent[], start: number): TraceFrame[] {
  const frames: TraceFrame[] = [];
  for (const event of events) {
    if (event.type !== 'screencast-frame') continue;
    const time = num(event.timestamp);
    // Playwright names the image by its file (newer traces) or by its SHA-1 among the resources.
    const name = typeof event.file === 'string' ? event.file : typeof event.sha1 === 'string' ? `resources/${event.sha1}` : null;
    if (time === null || name === null || !isFrameName(name)) continue;
    frames.push({ name, atMs: time - start });
  }
  return frames.sort((a, b) => a.atMs - b.atMs);
}

/** Compares "1.65.1"-style versions by their numbers; a pre-release suffix is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split(/[.-]/, 3).map((part) => Number.parseInt(part, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

interface FoundAction extends Omit<TraceAction, 'startMs'> {
  startTime: number;
  /** A step or hook that fails because an action inside it did: not the failing action itself. */
  container: boolean;
}

function withoutContainer({ title, locator, durationMs, error, startTime }: FoundAction, start: number | null): TraceAction {
  return { title, locator, durationMs, startMs: start === null || startTime <= 0 ? null : Math.max(0, Math.round(startTime - start)), error };
}

function keep<T>(items: T[], limit: number, summary: TraceSummary): T[] {
  if (items.length > limit) summary.omitted += items.length - limit;
  return items.slice(0, limit);
}

const RUNNER_ACTIONS = new Set(['pw:api', 'expect', 'test.step']);

/** The test runner's own record: titles and locators as the test wrote them. */
function runnerActions(events: TraceEvent[]): FoundAction[] {
  const befores = new Map<string, TraceEvent>();
  const afters = new Map<string, TraceEvent>();
  for (const event of events) {
    if (typeof event.callId !== 'string') continue;
    if (event.type === 'before') befores.set(event.callId, event);
    else if (event.type === 'after') afters.set(event.callId, event);
  }
  // Launching the browser and creating the page belong to fixtures, not to what the test did.
  const insideFixture = (event: TraceEvent): boolean => {
    for (let parent = befores.get(String(event.parentId)), depth = 0; parent && depth < 100; parent = befores.get(String(parent.parentId)), depth++) {
      if (parent.method === 'fixture') return true;
    }
    return false;
  };
  const actions: FoundAction[] = [];
  for (const [callId, before] of befores) {
    if (!RUNNER_ACTIONS.has(String(before.method)) || insideFixture(before)) continue;
    const after = afters.get(callId);
    const params = record(before.params);
    const locator = text(params.locator) ?? text(before.subtitle);
    actions.push({
      title: text(before.title) ?? String(before.method),
      locator,
      startTime: num(before.startTime) ?? 0,
      durationMs: duration(before.startTime, after?.endTime),
      error: errorText(after?.error),
      container: before.method === 'test.step',
    });
  }
  return actions.sort((a, b) => a.startTime - b.startTime);
}

/** A trace from `context.tracing` has no runner record: the library's calls are the actions. */
function libraryActions(events: TraceEvent[]): FoundAction[] {
  const afters = new Map<string, TraceEvent>();
  for (const event of events) if (event.type === 'after' && typeof event.callId === 'string') afters.set(event.callId, event);
  const actions: FoundAction[] = [];
  for (const event of events) {
    if (event.type !== 'before' || typeof event.callId !== 'string') continue;
    const after = afters.get(event.callId);
    const params = record(event.params);
    actions.push({
      title: text(event.title) ?? text(event.apiName) ?? `${String(event.class)}.${String(event.method)}`,
      locator: text(params.selector),
      startTime: num(event.startTime) ?? 0,
      durationMs: duration(event.startTime, after?.endTime),
      error: errorText(after?.error),
      container: false,
    });
  }
  return actions.sort((a, b) => a.startTime - b.startTime);
}

function consoleErrors(events: TraceEvent[]): TraceConsoleError[] {
  const found: TraceConsoleError[] = [];
  for (const event of events) {
    if (event.type !== 'console' || event.messageType !== 'error') continue;
    const location = record(event.location);
    const url = text(location.url);
    found.push({ text: text(event.text) ?? '', location: url ? withLine(url, num(location.lineNumber)) : null });
  }
  return found;
}

function withLine(url: string, line: number | null): string {
  // Console lines count from 0; a resource's own message has no line worth showing.
  return line ? `${url}:${line + 1}` : url;
}

function pageErrors(events: TraceEvent[]): string[] {
  const found: string[] = [];
  for (const event of events) {
    if (event.type !== 'event' || event.method !== 'pageError') continue;
    const error = record(record(record(event.params).error).error);
    found.push(text(error.message) ?? text(error.value) ?? 'an error without a message');
  }
  return found;
}

/** A network event's monotonic time shares the test runner's clock; one outside the attempt is from another clock and says nothing. */
function requestStart(snapshot: Record<string, unknown>, start: number | null): number | null {
  const at = num(snapshot._monotonicTime);
  if (start === null || at === null || at < start) return null;
  return Math.round(at - start);
}

function allRequests(events: TraceEvent[], start: number | null): TraceRequest[] {
  const found: TraceRequest[] = [];
  for (const event of events) {
    if (event.type !== 'resource-snapshot') continue;
    const snapshot = record(event.snapshot);
    const request = record(snapshot.request);
    const response = record(snapshot.response);
    const status = num(response.status) ?? -1;
    const failure = text(response._failureText) ?? text(snapshot._failureText);
    const time = num(snapshot.time);
    found.push({
      method: text(request.method) ?? 'GET',
      url: text(request.url) ?? '',
      status: status > 0 ? status : null,
      failure,
      durationMs: time === null || time < 0 ? null : Math.round(time),
      startMs: requestStart(snapshot, start),
    });
  }
  return found;
}

export function isFailed(request: TraceFailedRequest): boolean {
  return request.failure !== null || request.status === null || request.status >= 400;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const plain = stripAnsi(value);
  return plain.length > MAX_TEXT ? `${plain.slice(0, MAX_TEXT)}…` : plain;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function duration(start: unknown, end: unknown): number | null {
  const [s, e] = [num(start), num(end)];
  return s === null || e === null ? null : Math.max(0, Math.round(e - s));
}

function errorText(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  const fields = record(error);
  return text(fields.message) ?? text(record(fields.error).message) ?? 'failed';
}
