/**
 * The evidence an analysis works from, gathered once for both engines: the analysed browser's
 * runs in time order, every browser's tallies, and the text (messages, code, steps) to read.
 * Stored history is preferred for figures (it knows commits and retries); the request's rows
 * stand in when the store has nothing, and always contribute their text.
 */
import type { AiAnalysisRequest, AiRecentResult } from '../../core/api/ai.js';
import { stripAnsi } from '../../core/ansi.js';
import { ERROR_CATEGORIES, type ErrorCategory } from '../../core/errors/categories.js';
import { classifyError } from '../../core/errors/classify.js';
import { normaliseBrowserName } from '../../core/browsers.js';
import type { TestStatus } from '../../core/status.js';
import { failingStepIn, lastStepIn, mostCommon } from './error-text.js';
import type { HistoryEntry, TestHistory } from '../store/read/test-history.js';
import { readTraceFindings, type AnalysisTraces, type TraceFindings } from './trace-reading.js';

export interface Observation {
  status: TestStatus;
  failed: boolean;
  /** null when unknown (the request's rows do not say how retries ended). */
  finalPassed: boolean | null;
  passedOnRetry: boolean;
  retries: number | null;
  /** The first attempt's duration when known, else the result's. */
  durationMs: number | null;
  /** A timeout limit is compared with one attempt, not with all retries together. */
  singleAttempt: boolean;
  at: number | null;
  commit: string | null;
  branch: string | null;
  category: ErrorCategory | null;
  /** The stored run, when the observation comes from the store (the AI tab links to it). */
  runId: number | null;
  /** The failure's message head, colour codes stripped; null when it has none. */
  message: string | null;
  /** A test.fail() test: Playwright expected it to fail. */
  expectedFailure: boolean;
  /** The innermost failing step (title › child), from the steps the UI sent for this run. */
  step: string | null;
  /** The last step it was in when it ended, failing or not: where a test timeout stopped it. */
  lastStep: string | null;
}

export interface BrowserTally {
  browser: string;
  runs: number;
  failures: number;
  passedOnRetry: number;
  /** Failures that no retry rescued. */
  failedEveryAttempt: number;
  /** The most frequent error category of its failures. */
  topCategory: string | null;
  /** The Playwright project names behind this browser key (settings are read from them). */
  projects: string[];
}

export interface CommitTally {
  passes: number;
  failures: number;
  rescued: number;
}

export interface Evidence {
  title: string;
  browser: string;
  fromHistory: boolean;
  /** The analysed browser, oldest first, skipped runs and outage runs left out. */
  runs: Observation[];
  skipped: number;
  /** Failures left out because most of their run failed (an outage). */
  outageFailures: number;
  /** Stripped failure messages (heads) of the analysed browser. */
  messages: string[];
  /** Code frames from the request and the store, colour codes stripped, each once. */
  snippets: string[];
  /** The failing step of each failure that had steps. */
  failingSteps: string[];
  /** Every browser in the store except outage runs; empty without history. */
  browsers: BrowserTally[];
  /** Per commit, per browser: first-attempt passes and failures, and failures a retry rescued. */
  commits: Map<string, Map<string, CommitTally>>;
  sharedTitle: number;
  truncated: boolean;
  /** The UI's own figures, used only when there are no rows at all. */
  summary: AiAnalysisRequest['testSummary'];
  /** What the latest failing attempt's trace says, when one was stored. */
  trace: TraceFindings | null;
}

/**
 * Every reader of messages and code frames works on a bounded head: the store keeps 2000
 * characters of a message (MESSAGE_HEAD_CHARS), a request's message is cut a little longer, and
 * a code frame is a dozen lines. So one hostile 50,000-character message costs what a short one does.
 */
const MESSAGE_HEAD = 4096;
const SNIPPET_HEAD = 4096;
const head = (text: string, max: number): string => stripAnsi(text.length > max ? text.slice(0, max) : text);

const isFailureStatus = (status: string): boolean => status === 'failed' || status === 'timedOut' || status === 'interrupted';

export function gatherEvidence(request: AiAnalysisRequest, history: TestHistory, traces?: AnalysisTraces): Evidence {
  const browser = normaliseBrowserName(request.testSummary.browser);
  const counted = history.entries.filter((e) => !e.outageRun);
  const stored = counted.filter((e) => e.browser === browser && e.status !== 'skipped');
  const fromHistory = stored.length > 0;
  const requestRows = request.recentResults.filter((r) => r.status !== 'skipped');
  // The UI's rows carry the steps; the store's carry the run. They meet on the result's start time.
  const stepsAt = new Map<string, string>();
  for (const r of request.recentResults) if (r.runDate && r.testSteps && isFailureStatus(r.status)) stepsAt.set(r.runDate, r.testSteps);
  const runs = fromHistory ? stored.map((e) => fromEntry(e, stepsAt.get(isoOf(e.startedAt)) ?? null)) : inTimeOrder(requestRows.map(fromRequest));

  const requestMessages = request.recentResults.filter((r) => isFailureStatus(r.status) && r.errorMessage).map((r) => head(r.errorMessage!, MESSAGE_HEAD));
  const storedMessages = stored.filter((e) => e.errorHead && isFailureStatus(e.status)).map((e) => head(e.errorHead!, MESSAGE_HEAD));
  const snippets = new Set<string>();
  for (const text of [...request.recentResults.map((r) => r.codeSnippet), ...history.entries.map((e) => e.errorSnippet)]) {
    if (text) snippets.add(head(text, SNIPPET_HEAD));
  }

  return {
    title: request.testSummary.testTitle,
    browser,
    fromHistory,
    runs,
    skipped: (fromHistory ? counted.filter((e) => e.browser === browser && e.status === 'skipped').length : request.recentResults.length - requestRows.length),
    outageFailures: history.entries.filter((e) => e.outageRun && e.browser === browser && isFailureStatus(e.status)).length,
    messages: requestMessages.length > 0 ? requestMessages : storedMessages,
    snippets: [...snippets].slice(0, 50),
    failingSteps: request.recentResults.filter((r) => isFailureStatus(r.status)).map((r) => failingStepIn(r.testSteps)).filter((s): s is string => s !== null),
    browsers: tallies(counted),
    commits: commitOutcomes(counted),
    sharedTitle: history.tests.length,
    truncated: history.truncated,
    summary: request.testSummary,
    trace: readTraceFindings(traces),
  };
}

const isoOf = (ms: number): string => {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
};

function fromEntry(e: HistoryEntry, steps: string | null): Observation {
  const failed = isFailureStatus(e.status);
  const category = (ERROR_CATEGORIES as readonly string[]).includes(e.errorCategory ?? '') ? (e.errorCategory as ErrorCategory) : null;
  return {
    status: e.status,
    failed,
    finalPassed: !isFailureStatus(e.finalStatus),
    passedOnRetry: e.passedOnRetry,
    retries: e.retries,
    durationMs: e.firstAttemptMs ?? e.durationMs,
    singleAttempt: e.firstAttemptMs !== null || e.retries === 0,
    at: e.startedAt,
    commit: e.gitCommit,
    branch: e.gitBranch,
    category: failed ? (category ?? (e.errorHead ? classifyError(head(e.errorHead, MESSAGE_HEAD)) : null)) : null,
    runId: e.runId,
    message: failed && e.errorHead ? head(e.errorHead, MESSAGE_HEAD) : null,
    expectedFailure: e.expectedStatus === 'failed',
    step: failed ? failingStepIn(steps) : null,
    lastStep: failed ? lastStepIn(steps) : null,
  };
}

function fromRequest(r: AiRecentResult): Observation {
  const failed = isFailureStatus(r.status);
  const duration = typeof r.duration === 'string' ? Number(r.duration) : r.duration;
  const at = r.runDate ? Date.parse(r.runDate) : NaN;
  return {
    status: r.status === 'interrupted' ? 'failed' : r.status,
    failed,
    finalPassed: null,
    passedOnRetry: false,
    retries: null,
    durationMs: typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? duration : null,
    singleAttempt: false,
    at: Number.isFinite(at) ? at : null,
    commit: null,
    branch: null,
    category: failed && r.errorMessage ? classifyError(head(r.errorMessage, MESSAGE_HEAD)) : null,
    runId: null,
    message: failed && r.errorMessage ? head(r.errorMessage, MESSAGE_HEAD) : null,
    // The UI's rows do not say what was expected.
    expectedFailure: false,
    step: failed ? failingStepIn(r.testSteps) : null,
    lastStep: failed ? lastStepIn(r.testSteps) : null,
  };
}

/** The UI lists newest first; order by run date when every row has one, else keep the UI's order reversed. */
function inTimeOrder(rows: Observation[]): Observation[] {
  if (rows.every((r) => r.at !== null)) return [...rows].sort((a, b) => a.at! - b.at!);
  return [...rows].reverse();
}

function tallies(entries: readonly HistoryEntry[]): BrowserTally[] {
  const byBrowser = new Map<string, BrowserTally & { categories: string[]; names: Set<string> }>();
  for (const e of entries) {
    if (e.status === 'skipped') continue;
    let t = byBrowser.get(e.browser);
    if (!t) byBrowser.set(e.browser, (t = { browser: e.browser, runs: 0, failures: 0, passedOnRetry: 0, failedEveryAttempt: 0, topCategory: null, categories: [], projects: [], names: new Set() }));
    if (t.names.size < 10 && e.projectName) t.names.add(e.projectName);
    t.runs++;
    if (isFailureStatus(e.status)) {
      t.failures++;
      if (e.passedOnRetry) t.passedOnRetry++;
      else if (isFailureStatus(e.finalStatus)) t.failedEveryAttempt++;
      if (e.errorCategory) t.categories.push(e.errorCategory);
    }
  }
  return [...byBrowser.values()]
    .map(({ categories, names, ...t }) => ({ ...t, projects: [...names], topCategory: mostCommon(categories)?.value ?? null }))
    .sort((a, b) => a.browser.localeCompare(b.browser));
}

function commitOutcomes(entries: readonly HistoryEntry[]): Evidence['commits'] {
  const commits: Evidence['commits'] = new Map();
  for (const e of entries) {
    if (!e.gitCommit || e.status === 'skipped') continue;
    let perBrowser = commits.get(e.gitCommit);
    if (!perBrowser) commits.set(e.gitCommit, (perBrowser = new Map()));
    const tally = perBrowser.get(e.browser) ?? { passes: 0, failures: 0, rescued: 0 };
    if (!isFailureStatus(e.status)) tally.passes++;
    else {
      tally.failures++;
      if (e.passedOnRetry) tally.rescued++;
    }
    perBrowser.set(e.browser, tally);
  }
  return commits;
}
