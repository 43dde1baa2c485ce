/**
 * The diagnosis: which cause class the whole history of a test points to, how sure
 * that is, and the claims it rests on. Each failure is read on its own (failure-reading.ts);
 * the history then decides what one failure cannot: the same error every time or not, rescued
 * by a retry or never, failing in one project only, since when.
 *
 * Signals per class (never the test's title or file):
 * - strict-mode, snapshot-mismatch, protocol-error, closed-page, network-refused, http-status,
 *   slow-response, test-timeout, thrown-error: what the error text says, agreeing across runs;
 * - unexpected-pass: a failure without an error of a test expected to fail (test.fail());
 * - assertion-mismatch: an expect that received the same wrong value in every failing run and
 *   that no retry rescued (rescued or varying values: not sure);
 * - locator-missing vs locator-late: a locator wait that never resolved in any failure and no
 *   retry rescued, vs one that resolved (found but not ready) or passed on retry;
 * - project-only: unrescued failures in this project while every other project ran it without one;
 * - not-sure: no failure left to read, different errors from run to run, a value or a wait that
 *   went right on retry once, or an element that was found and ready when the action timed out.
 */
import type { AiEvidenceItem, AiEvidenceRun, AiTraceMoment } from '../../core/api/ai.js';
import type { CauseClass } from '../../core/api/cause-classes.js';
import { mostCommon, seconds, shortCommit, day } from './error-text.js';
import type { BrowserTally, Evidence, Observation } from './evidence.js';
import { readFailure, type FailureKind, type FailureReading } from './failure-reading.js';
import { settingsThatDiffer, type SettingDifference } from './project-settings.js';
import type { Signals } from './signals.js';
import { pathOf, type TraceFindings } from './trace-reading.js';

export interface Diagnosis {
  causeClass: CauseClass;
  /** The reading that stands for the failures (the latest of the dominant kind). */
  reading: FailureReading | null;
  /** Why the class is 'not-sure', in words; null otherwise. */
  doubt: string | null;
  /** The failing project and what differs, for project-only. */
  project: { failing: BrowserTally; passing: BrowserTally[]; settings: SettingDifference[] } | null;
  /** The step the failures happened in (innermost failing step, or where a timeout stopped it). */
  step: string | null;
  failures: Observation[];
  rescued: number;
  /** Commits on which the test both passed and failed: the code alone does not decide it. */
  mixedCommits: number;
  /** Same kind of failure in this share of the failures. */
  agreement: number;
  confidence: number;
  evidence: AiEvidenceItem[];
  /** The class was decided by the failing attempt's trace, not by the error text. */
  fromTrace: boolean;
  /**
   * The trace shows the cause itself, not a sign of it: a request that answered an error status or
   * was refused, only in the failing attempt, sent before the failing action ended (it waited on it).
   */
  directTrace: boolean;
}

const MAX_RUNS_PER_CLAIM = 10;

export function diagnose(evidence: Evidence, signals: Signals): Diagnosis {
  const failures = evidence.runs.filter((r) => r.failed);
  const readings = failures.map((r) => readFailure(r.message, r.expectedFailure));
  const dominant = mostCommon(readings.map((r) => r.kind));
  const agreement = dominant && failures.length > 0 ? dominant.count / failures.length : 0;
  const ofKind = dominant ? readings.filter((r) => r.kind === dominant.value) : [];
  let reading = ofKind[ofKind.length - 1] ?? null;
  const rescued = failures.filter((r) => r.passedOnRetry).length;
  const firstFailure = evidence.runs.findIndex((r) => r.failed);
  const passedSince = firstFailure !== -1 && evidence.runs.slice(firstFailure).some((r) => !r.failed);
  const project = projectOnly(evidence);
  const step = stepOf(failures, dominant?.value ?? null);

  let causeClass: CauseClass;
  let doubt: string | null = null;
  if (failures.length === 0) {
    causeClass = 'not-sure';
    doubt = evidence.runs.length === 0 ? 'there are no results of this test here to read' : `it did not fail on ${evidence.browser} in the runs that count (${evidence.outageFailures > 0 ? 'its failures were in outage runs, where most tests failed' : 'no failure to explain'})`;
  } else if (dominant?.value === 'unexpected-pass') {
    causeClass = 'unexpected-pass';
  } else if (project) {
    causeClass = 'project-only';
  } else if (failures.length >= 2 && agreement < 0.6) {
    causeClass = 'not-sure';
    doubt = `the failures differ from run to run (${kindsText(readings)}): no single cause explains them`;
  } else {
    ({ causeClass, doubt } = classOfKind(dominant!.value, ofKind, { rescued, passedSince, failures: failures.length }));
  }

  // What the error text left open, the failing attempt's trace may decide: the answer was in the network log or the console.
  // A wrong value or a test out of time says what the page showed, not why: an error status, a
  // thrown error or a slow request in the same attempt is the why.
  const traced = TRACE_DECIDES.has(causeClass) ? traceCause(evidence.trace, reading, causeClass === 'test-timeout') : null;
  if (traced) ({ causeClass, reading, doubt } = { ...traced, doubt: null });
  // What the assertion or action was about: the trace names its locator when the message does not.
  const traceLocator = evidence.trace?.failingAction?.locator ?? null;
  if (reading && !reading.locator && traceLocator) reading = { ...reading, locator: traceLocator };

  const directTrace = traced !== null && traced.request !== null && isDirect(evidence.trace!, traced.request, failures);
  const confidence = confidenceOf({ causeClass, evidence, failures: failures.length, agreement: traced ? 1 : agreement, project, reading, rescued, directTrace });
  const diagnosis: Diagnosis = { causeClass, reading, doubt, project, step, failures, rescued, mixedCommits: signals.mixedCommits.length, agreement, confidence, evidence: [], fromTrace: traced !== null, directTrace };
  diagnosis.evidence = claimsOf(diagnosis, evidence, signals, readings);
  return diagnosis;
}

function classOfKind(kind: FailureKind, readings: readonly FailureReading[], h: { rescued: number; passedSince: boolean; failures: number }): { causeClass: CauseClass; doubt: string | null } {
  const sure = (causeClass: CauseClass) => ({ causeClass, doubt: null });
  switch (kind) {
    case 'strict-mode':
    case 'snapshot-mismatch':
    case 'protocol-error':
    case 'closed-page':
    case 'network-refused':
    case 'http-status':
    case 'slow-response':
    case 'test-timeout':
    case 'thrown-error':
    case 'unexpected-pass':
      return sure(kind);
    case 'locator-wait': {
      if (readings.every((r) => r.ready)) {
        return { causeClass: 'not-sure', doubt: 'the element was found, visible, enabled and stable, yet the action ran out of time: a slow or overloaded machine rather than the page' };
      }
      const found = readings.some((r) => r.found);
      return sure(!found && h.rescued === 0 && !h.passedSince ? 'locator-missing' : 'locator-late');
    }
    case 'assertion-mismatch': {
      const received = new Set(readings.map((r) => r.received ?? ''));
      if (h.rescued > 0) {
        return {
          causeClass: 'not-sure',
          doubt: `the value was wrong on the first attempt and right on retry in ${h.rescued} of ${h.failures} failing ${h.failures === 1 ? 'run' : 'runs'}: a value that arrives late or data that differs between runs (a race), not a changed app; the error alone does not say which`,
        };
      }
      if (received.size > 1) return { causeClass: 'not-sure', doubt: 'the assertion received different values in different runs' };
      return sure('assertion-mismatch');
    }
    case 'wait-timeout':
      return { causeClass: 'not-sure', doubt: 'a wait ran out of time without saying what it waited for' };
    default:
      return { causeClass: 'not-sure', doubt: 'the failures carry no error message to read' };
  }
}

/**
 * The class the trace names when the error text does not: a request that answered an error
 * status, one that got no answer (refused), a slow call that took most of the test's time,
 * an error the page threw or logged. The reading is rebuilt from the trace, so the cause text
 * names the status, URL or message.
 */
/** The request the trace's answer rests on, when it is a request that failed. */
type TraceFailedRequest = TraceFindings['failedRequests'][number];

/**
 * Direct: the request failed only in the failing attempt (the passing retry's trace was compared,
 * or, without it, the latest failure passed on retry: the same code then got its answer) and it
 * was sent before the failing action ended, so that action waited on what it answered. A request
 * sent after the failure, or with no time in the trace, is a lead, not the cause shown.
 */
export function isDirect(trace: TraceFindings, request: TraceFailedRequest, failures: ReadonlyArray<Pick<Observation, 'passedOnRetry'>>): boolean {
  const onlyFailing = trace.comparedWithPassing !== null || failures[failures.length - 1]?.passedOnRetry === true;
  const action = trace.failingAction;
  if (!onlyFailing || !action || action.startMs === null || request.startMs === null || request.startMs === undefined) return false;
  return request.startMs <= action.startMs + (action.durationMs ?? 0);
}

/** The classes that name a symptom, not its cause, so the failing attempt's trace may decide. */
const TRACE_DECIDES: ReadonlySet<CauseClass> = new Set(['not-sure', 'locator-late', 'assertion-mismatch', 'test-timeout']);

function traceCause(trace: TraceFindings | null, reading: FailureReading | null, outOfTime: boolean): { causeClass: CauseClass; reading: FailureReading; request: TraceFailedRequest | null } | null {
  if (!trace || trace.unreadable) return null;
  const base: FailureReading = reading ?? { kind: 'none', timeout: null, locator: null, matched: null, found: false, ready: false, notReady: null, port: null, status: null, method: null, url: null, expected: null, received: null, thrown: null, reason: null, lines: [] };
  const answered = trace.failedRequests.find((r) => r.status !== null);
  if (answered) return { causeClass: 'http-status', request: answered, reading: { ...base, kind: 'http-status', status: answered.status, method: answered.method, url: answered.url, lines: [`${answered.method} ${answered.url} → ${answered.status}`] } };
  const refused = trace.failedRequests.find((r) => r.failure !== null && /REFUSED/i.test(r.failure));
  if (refused) {
    const port = portOf(refused.url);
    return { causeClass: 'network-refused', request: refused, reading: { ...base, kind: 'network-refused', port, url: refused.url, lines: [`${refused.method} ${refused.url}: ${refused.failure}`] } };
  }
  // Still waiting for its answer when a test that ran out of time ended (no status, no failure):
  // the slow call it waited on. In a test that failed otherwise, a pending call is a bystander.
  const unanswered = outOfTime ? trace.failedRequests.find((r) => r.status === null && r.failure === null) : undefined;
  if (unanswered) return { causeClass: 'slow-response', request: null, reading: { ...base, kind: 'slow-response', timeout: null, url: unanswered.url, method: unanswered.method, lines: [`${unanswered.method} ${unanswered.url} had no answer when the attempt ended`] } };
  const slower = trace.comparedWithPassing?.slowerRequests[0];
  if (slower) return { causeClass: 'slow-response', request: null, reading: { ...base, kind: 'slow-response', timeout: null, url: slower.url, method: slower.method, lines: [`${slower.method} ${slower.url} took ${slower.failingMs ?? '?'} ms`] } };
  const slow = trace.slowest;
  if (slow && /^(?:Navigate|GET|POST|PUT|PATCH|DELETE|HEAD|Fetch|Wait for (?:response|load|event))/i.test(slow.title)) {
    return { causeClass: 'slow-response', request: null, reading: { ...base, kind: 'slow-response', timeout: null, url: slow.locator ?? base.url, lines: [`${slow.title} took ${seconds(slow.durationMs)}`] } };
  }
  const thrown = trace.pageErrors[0] ?? trace.consoleErrors[0];
  if (thrown) return { causeClass: 'thrown-error', request: null, reading: { ...base, kind: 'thrown-error', thrown, lines: [thrown] } };
  return null;
}

function portOf(url: string): number | null {
  try {
    const port = new URL(url).port;
    return port ? Number(port) : null;
  } catch {
    return null;
  }
}

function kindsText(readings: readonly FailureReading[]): string {
  const counts = new Map<string, number>();
  for (const r of readings) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}×`).join(', ');
}

/**
 * Fails in this project, rescued by no retry, in most of its runs, while every other project
 * that ran the test had no such failure: the project's settings are the cause.
 */
function projectOnly(evidence: Evidence): Diagnosis['project'] {
  const self = evidence.browsers.find((t) => t.browser === evidence.browser);
  if (!self || self.failedEveryAttempt === 0 || self.failedEveryAttempt < 0.7 * self.runs) return null;
  const others = evidence.browsers.filter((t) => t !== self && t.runs > 0);
  const otherRuns = others.reduce((n, t) => n + t.runs, 0);
  if (others.length === 0 || otherRuns < 2 || others.some((t) => t.failedEveryAttempt > 0)) return null;
  return { failing: self, passing: others, settings: settingsThatDiffer(self, others) };
}

/** The most common step of the failures; for a test timeout, where it stopped. */
function stepOf(failures: readonly Observation[], kind: FailureKind | null): string | null {
  const steps = failures.map((f) => (kind === 'test-timeout' ? f.lastStep : f.step)).filter((s): s is string => s !== null);
  return mostCommon(steps)?.value ?? null;
}

/** How decisive each class's signal is on its own: a named error beats an inference. */
const DECISIVE: Record<CauseClass, number> = {
  'strict-mode': 0.92,
  'snapshot-mismatch': 0.92,
  'network-refused': 0.92,
  'unexpected-pass': 0.9,
  'protocol-error': 0.88,
  'closed-page': 0.88,
  'http-status': 0.88,
  'test-timeout': 0.85,
  'slow-response': 0.82,
  'assertion-mismatch': 0.82,
  'locator-missing': 0.78,
  'locator-late': 0.72,
  'thrown-error': 0.72,
  'project-only': 0.6,
  'not-sure': 0.3,
};

/** Classes inferred from the history (steadiness, retries, other projects) rather than named by the error. */
const INFERRED: ReadonlySet<CauseClass> = new Set(['assertion-mismatch', 'locator-missing', 'locator-late', 'project-only']);

/**
 * decisiveness × (0.55 + 0.3 × history + 0.15 × agreement): history is the number of failures
 * read (full at 4), agreement the share of failures of the dominant kind. Decisiveness rises for
 * a project-only answer that names the setting (+0.2) and for a late element a retry rescued
 * (+0.1; -0.1 when none did). One failure alone counts 0.75 of that, 0.6 for a class
 * inferred from the history, unless the trace shows the cause directly (isDirect); results only
 * from the request (no stored runs) lose 0.1. At most 0.95.
 */
function confidenceOf(x: { causeClass: CauseClass; evidence: Evidence; failures: number; agreement: number; project: Diagnosis['project']; reading: FailureReading | null; rescued: number; directTrace: boolean }): number {
  let decisive = DECISIVE[x.causeClass];
  if (x.causeClass === 'project-only' && x.project && x.project.settings.length > 0) decisive += 0.2;
  // Late is shown by a retry that passed; found but never ready with no rescue is a guess.
  if (x.causeClass === 'locator-late') decisive += x.rescued > 0 ? 0.1 : -0.1;
  const history = Math.min(1, x.failures / 4);
  let c = decisive * (0.55 + 0.3 * history + 0.15 * x.agreement);
  // One failure is thin for an inference from the history, not for a cause the trace shows: the failed request is observed, not inferred.
  if (x.failures === 1 && !x.directTrace) c *= INFERRED.has(x.causeClass) ? 0.6 : 0.75;
  if (!x.evidence.fromHistory) c -= 0.1;
  return Math.round(Math.max(0.05, Math.min(0.95, c)) * 100) / 100;
}

const runRef = (o: Observation): AiEvidenceRun => ({ runId: o.runId, date: o.at !== null ? new Date(o.at).toISOString() : null, commit: o.commit });
const refs = (os: readonly Observation[]): AiEvidenceRun[] => os.slice(-MAX_RUNS_PER_CLAIM).map(runRef);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The claims behind the answer, each with the runs and error lines it reads. */
function claimsOf(d: Diagnosis, evidence: Evidence, signals: Signals, readings: readonly FailureReading[]): AiEvidenceItem[] {
  const out: AiEvidenceItem[] = [];
  const { failures } = d;
  const b = evidence.browser;
  if (evidence.runs.length > 0) {
    out.push({ claim: `Failed ${failures.length} of ${plural(evidence.runs.length, 'run')} on ${b}${evidence.fromHistory ? '' : ' (results sent by the page; no stored history)'}`, runs: refs(failures), lines: [] });
  }
  if (failures.length === 0) return out;
  const sameError = readings.length >= 2 && d.agreement === 1;
  if (d.reading) {
    const claim = sameError ? `The same kind of error in all ${readings.length} failures` : readings.length === 1 ? 'The error of the one failure' : `This error in ${Math.round(d.agreement * readings.length)} of ${readings.length} failures`;
    out.push({ claim, runs: refs(failures.filter((_, i) => readings[i]!.kind === d.reading!.kind)), lines: d.reading.lines.slice(0, 4) });
  }
  const r = d.reading;
  if (r?.received !== null && r?.received !== undefined && d.causeClass === 'assertion-mismatch') {
    const values = new Set(readings.filter((x) => x.kind === 'assertion-mismatch').map((x) => x.received));
    out.push({ claim: values.size === 1 ? `Received ${r.received} in every failing run` : `Received values differ: ${[...values].slice(0, 4).join(', ')}`, runs: refs(failures), lines: [] });
  }
  const retried = failures.filter((f) => f.retries !== null && f.retries > 0);
  if (d.rescued > 0) out.push({ claim: `Passed on retry in ${d.rescued} of ${plural(failures.length, 'failing run')}`, runs: refs(failures.filter((f) => f.passedOnRetry)), lines: [] });
  else if (retried.length > 0) out.push({ claim: `Failed every retry in ${plural(retried.length, 'run')}: retries never rescue it`, runs: refs(retried), lines: [] });
  if (d.step) out.push({ claim: `${d.causeClass === 'test-timeout' ? 'Stopped' : 'Failed'} in step "${d.step}"`, runs: refs(failures.filter((f) => (d.causeClass === 'test-timeout' ? f.lastStep : f.step) === d.step)), lines: [] });
  if (d.project) {
    const others = d.project.passing.map((t) => `${t.browser} ${t.failedEveryAttempt}/${t.runs}`).join(', ');
    out.push({ claim: `Fails in every retry on ${d.project.failing.browser} in ${d.project.failing.failedEveryAttempt} of ${d.project.failing.runs} runs; unrescued failures elsewhere: ${others}`, runs: refs(failures), lines: [] });
  }
  if (!d.project && evidence.browsers.length > 1) {
    const tallies = evidence.browsers.map((t) => `${t.browser} ${t.failures}/${t.runs}${t.passedOnRetry > 0 ? ` (${t.passedOnRetry} passed on retry)` : ''}`);
    out.push({ claim: `Failures per project: ${tallies.join(', ')}`, runs: [], lines: [] });
  }
  const start = signals.start;
  if (start) {
    const since = evidence.runs.filter((o) => o.failed && o.at !== null && start.at !== null && o.at >= start.at).slice(0, 1);
    const at = `${start.at !== null ? ` ${day(start.at)}` : ''}${start.commit ? ` at commit ${shortCommit(start.commit)}` : ''}`;
    out.push({
      claim: start.kind === 'broken-since' ? `Failing in every run since${at}, after ${plural(start.passesBefore, 'passing run')}` : `First failure${at}, after ${plural(start.passesBefore, 'passing run')}`,
      runs: refs(since),
      lines: [],
    });
  }
  out.push(...traceClaims(d, evidence.trace, failures));
  const { limitMs, failuresNearLimit, failuresTimed, failMedianMs } = signals.timing;
  const limit = d.reading?.timeout?.ms ?? limitMs;
  if (limit && failMedianMs !== null && failuresNearLimit > 0 && failuresNearLimit * 2 >= failuresTimed) {
    out.push({ claim: `Failing attempts last about as long as the ${seconds(limit)} limit (median ${seconds(failMedianMs)})`, runs: refs(failures), lines: [] });
  }
  return out;
}

/** The slowest action is often the one that failed (it waited until its timeout): the viewer opens on that one. */
const isFailingAction = (a: TraceFindings['failingAction'], slow: NonNullable<TraceFindings['slowest']>): boolean =>
  a !== null && a.startMs !== null && a.startMs === slow.startMs && a.title === slow.title && a.locator === slow.locator;

/** What the failing attempt's trace showed, each a claim on the latest failure and, when the trace is stored, its moment in it. */
function traceClaims(d: Diagnosis, trace: TraceFindings | null, failures: readonly Observation[]): AiEvidenceItem[] {
  if (!trace) return [];
  const latest = refs(failures.slice(-1));
  if (trace.unreadable) return [{ claim: `The failing attempt's trace could not be read (${trace.unreadable})`, runs: latest, lines: [] }];
  const out: AiEvidenceItem[] = [];
  const at = (moment: Omit<AiTraceMoment, 'sha256'>): { trace?: AiTraceMoment } => (trace.sha256 ? { trace: { sha256: trace.sha256, ...moment } } : {});
  const lead = d.fromTrace ? 'Decided by the trace of the failing attempt: ' : 'In the trace of the failing attempt: ';
  const a = trace.failingAction;
  const actionText = a ? `${a.title}${a.locator ? ` on ${a.locator}` : ''}` : null;
  if (a) out.push({ claim: `${lead}the action that failed was ${actionText}${a.durationMs !== null ? ` after ${seconds(a.durationMs)}` : ''}`, runs: latest, lines: [], ...at({ atMs: a.startMs, action: actionText, failedAction: true, shownIn: 'actions' }) });
  for (const r of trace.failedRequests.slice(0, 3)) {
    const waited = a && a.startMs !== null && r.startMs !== null && r.startMs !== undefined && r.startMs <= a.startMs + (a.durationMs ?? 0);
    out.push({
      claim: `${lead}${r.method} ${pathOf(r.url)} ${r.status !== null ? `answered HTTP ${r.status}` : `got no answer (${r.failure ?? 'failed'})`}${waited ? ', sent before the failing action ended' : ''}`,
      runs: latest,
      lines: [`${r.method} ${r.url}`],
      ...at({ atMs: r.startMs ?? null, action: `${r.method} ${pathOf(r.url)}`, failedAction: false, shownIn: 'network' }),
    });
  }
  for (const e of trace.pageErrors.slice(0, 2)) out.push({ claim: `${lead}the page threw an error`, runs: latest, lines: [e], ...at({ atMs: null, action: null, failedAction: false, shownIn: 'console' }) });
  for (const e of trace.consoleErrors.slice(0, 2)) out.push({ claim: `${lead}a console error`, runs: latest, lines: [e], ...at({ atMs: null, action: null, failedAction: false, shownIn: 'console' }) });
  const compared = trace.comparedWithPassing;
  if (compared?.partedAt) out.push({ claim: `Beside the passing retry's trace, the failing attempt parted at ${compared.partedAt}`, runs: latest, lines: [] });
  for (const r of compared?.slowerRequests.slice(0, 2) ?? []) {
    out.push({
      claim: `${lead}${r.method} ${pathOf(r.url)} took ${r.failingMs !== null ? seconds(r.failingMs) : 'longer'} against ${r.passingMs !== null ? seconds(r.passingMs) : 'less'} in the passing retry`,
      runs: latest,
      lines: [],
      ...at({ atMs: null, action: `${r.method} ${pathOf(r.url)}`, failedAction: false, shownIn: 'network' }),
    });
  }
  const slow = trace.slowest;
  if (slow) {
    const slowText = `${slow.title}${slow.locator ? ` (${slow.locator})` : ''}`;
    out.push({ claim: `${lead}${slowText} took ${seconds(slow.durationMs)}, most of the attempt's time`, runs: latest, lines: [], ...at({ atMs: slow.startMs, action: slowText, failedAction: isFailingAction(a, slow), shownIn: 'actions' }) });
  }
  return out;
}
