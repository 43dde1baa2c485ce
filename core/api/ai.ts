/** POST /api/ai-analysis: docs/api.md#ai-analysis. */
import type { CauseClass } from './cause-classes.js';

/** The detail dialog's summary figures of one test on one browser. */
export interface AiTestSummary {
  testTitle: string;
  browser: string;
  /** The UI's figure: a 0-1 fraction (a value above 1 is read as a percent). */
  passRate: number;
  totalRuns: number;
  failedRuns: number;
}

/** One row of the dialog's Test History, as the UI sends it. */
export interface AiRecentResult {
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /** Milliseconds (a numeric string is accepted too). */
  duration?: number | string | null;
  errorMessage?: string | null;
  errorLocation?: string | null;
  errorStack?: string | null;
  codeSnippet?: string | null;
  /** JSON text of the steps (title, category, duration, error, steps), or null. */
  testSteps?: string | null;
  testFile?: string | null;
  /** ISO 8601. */
  runDate?: string | null;
}

export interface AiAnalysisRequest {
  testSummary: AiTestSummary;
  recentResults: AiRecentResult[];
}

export interface AiRecommendationDetail {
  title: string;
  description: string;
  codeExample?: string;
}

/** Each recommended fix is plain text or an object with title, description and optional codeExample. */
export type AiRecommendation = string | AiRecommendationDetail;

export interface AiAnalysisResult {
  patterns: string[];
  rootCause: string;
  recommendations: AiRecommendation[];
  /** Exactly NO_BROWSER_PATTERNS when nothing browser-specific was found (the UI hides it). */
  browserNotes: string;
  /** 0-1; grows with the evidence, never 1. */
  confidence: number;
  /** ISO 8601. */
  timestamp: string;
  /** Which engine answered: the rules that run locally, or the configured model. */
  engine: 'local' | 'model';
  model?: string;
  generatedInMs: number;
  /** The cause class the evidence points to (core/api/cause-classes.ts); 'not-sure' when it does not decide. */
  causeClass: CauseClass;
  /** The claims behind the answer, each with the runs and error lines it rests on. */
  evidence: AiEvidenceItem[];
  /**
   * flaky: it failed and passed on retry, or failed and passed on one commit; steady: every
   * failure stayed a failure. Decided by the rules from the history, like causeClass.
   */
  stability: 'flaky' | 'steady';
  /**
   * The same in plain words, from the data that decided it, e.g. "Flaky: failed, then passed on
   * retry of the same code (1 of 2 failing runs)" or "Fails every time: not flaky (5 of 5 runs
   * failed, no retry passed)". Shown first by the UI.
   */
  stabilityText: string;
}

/** One run a claim rests on: a stored run (its id links to it) or a result the UI sent. */
export interface AiEvidenceRun {
  runId: number | null;
  /** ISO 8601. */
  date: string | null;
  commit: string | null;
}

/**
 * Where in the failing attempt's trace a claim's moment is. Playwright's trace viewer reads only
 * the trace from its URL (it opens at the failed action), so the moment is named beside the link.
 */
export interface AiTraceMoment {
  /** The stored trace (opened through POST /api/evidence/{sha256}/trace-link). */
  sha256: string;
  /** Milliseconds after the trace's first action; null when the trace does not say. */
  atMs: number | null;
  /** The action at that moment, e.g. `Expect "toHaveText" on getByTestId('stock')`; null when none. */
  action: string | null;
  /** The viewer selects the failed action when it opens: true when the moment is that action. */
  failedAction: boolean;
  /** Where the viewer lists it: the action list, the Network tab or the Console tab. */
  shownIn: 'actions' | 'network' | 'console';
}

export interface AiEvidenceItem {
  claim: string;
  runs: AiEvidenceRun[];
  /** Lines of the error text (excerpts) the claim reads. */
  lines: string[];
  /** The moment in the failing attempt's trace the claim describes, when it comes from the trace. */
  trace?: AiTraceMoment;
}

/** Below this, an answer says in words that its confidence is low. */
export const LOW_CONFIDENCE = 0.45;

export const NO_BROWSER_PATTERNS = 'No browser-specific patterns detected';

/** Request bounds, shared by the route's schema and the UI (which trims before sending). */
export const AI_REQUEST_LIMITS = {
  recentResults: 200,
  title: 2000,
  browser: 200,
  errorMessage: 50_000,
  errorStack: 50_000,
  codeSnippet: 20_000,
  testSteps: 200_000,
  shortText: 2000,
  /** The whole body: the per-field caps alone would allow far more. */
  bodyBytes: 10 * 1024 * 1024,
} as const;
