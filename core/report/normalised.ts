import type { AttachmentKind, AttachmentState } from '../api/attachments.js';
import type { ErrorCategory } from '../errors/categories.js';
import type { DetectedBrowsers } from '../browsers.js';
import type { TestStatus } from '../status.js';
import type { PwAnnotation, PwAttemptStatus, PwOutcome } from './playwright-types.js';

/** What flakeboard keeps of one Playwright report, independent of the version that wrote it. */
export interface NormalisedRun {
  playwrightVersion: string | null;
  /** Epoch ms; null when the report has no start time (callers fall back to the file's time). */
  startedAt: number | null;
  durationMs: number;
  detected: DetectedBrowsers;
  shard: { current: number; total: number } | null;
  git: GitInfo;
  /** config.metadata as written (CI links, user keys), for the run's detail. */
  metadata: Record<string, unknown>;
  /** Top-level errors: config or syntax errors, global setup failures. */
  errors: NormalisedError[];
  /** A report with no tests and an error never ran: it "failed to load". */
  loadFailed: boolean;
  tests: NormalisedTest[];
  counts: RunCounts;
}

export interface GitInfo {
  branch: string | null;
  commit: string | null;
}

export interface RunCounts {
  tests: number;
  passed: number;
  /** Includes timedOut: it counts as failed in totals (docs/screens.md#status-rules). */
  failed: number;
  skipped: number;
  /** Tests that passed only on a retry. */
  flaky: number;
}

export interface NormalisedTest {
  file: string;
  /** describe titles then the test title; the file is not part of it. */
  titlePath: string[];
  title: string;
  line: number;
  column: number;
  projectName: string;
  browser: string;
  /** 0 unless --repeat-each ran the same test more than once in one project. */
  repeatIndex: number;
  tags: string[];
  annotations: PwAnnotation[];
  expectedStatus: PwAttemptStatus;
  /** Playwright's own outcome of all attempts. */
  outcome: PwOutcome;
  /** The first attempt's status under the status rules (docs/screens.md#status-rules). */
  status: TestStatus;
  /** The last attempt's status under the same rules. */
  finalStatus: TestStatus;
  passedOnRetry: boolean;
  retries: number;
  /** All attempts together: what the test cost the run. */
  durationMs: number;
  startedAt: number | null;
  /** The first error of the earliest attempt that has one. */
  error: NormalisedError | null;
  attempts: NormalisedAttempt[];
}

export interface NormalisedAttempt {
  retry: number;
  status: PwAttemptStatus;
  durationMs: number;
  startedAt: number | null;
  error: NormalisedError | null;
  /** Secondary errors (e.g. the action a timeout cut off), stripped of colour codes. */
  otherErrors: string[];
  steps: NormalisedStep[];
  /**
   * The steps as stored (storedSteps), when serialised before the attempt crossed to the writing
   * thread (an import's reader thread: one string copies far cheaper than a tree of steps);
   * `steps` is then empty.
   */
  stepsJson?: string | null;
  stdout: string;
  stderr: string;
  attachments: Array<{ name: string; contentType: string; path?: string; size?: number; sha256?: string }>;
  /**
   * What was kept of each attachment (same order as `attachments`), set by the importer before
   * the test is stored; absent or null: no evidence row (not collected).
   */
  evidence?: Array<AttachmentEvidence | null>;
}

/** An attachment's evidence row: `stored` is checked against the stored blobs when it is written. */
export interface AttachmentEvidence {
  kind: AttachmentKind;
  sha256: string | null;
  size: number | null;
  state: AttachmentState;
}

export interface NormalisedStep {
  title: string;
  /** Playwright's JSON keeps only test.step() steps. */
  category: 'test.step';
  duration: number;
  error: string | null;
  steps?: NormalisedStep[];
}

export interface NormalisedError {
  /** As written, colour codes included (the UI strips them for display). */
  message: string;
  category: ErrorCategory;
  fingerprint: string;
  /** First line, colour codes stripped. */
  summary: string;
  /** "file:line:column" */
  location: string | null;
  snippet: string | null;
  stack: string | null;
}

/** An attempt's steps as stored (steps_json): JSON, or null for none. */
export function storedSteps(a: NormalisedAttempt): string | null {
  if (a.stepsJson !== undefined) return a.stepsJson;
  return a.steps.length > 0 ? JSON.stringify(a.steps) : null;
}

/** Serialises the attempts' steps as stored, before the test crosses to another thread (stepsJson). */
export function serialiseSteps(test: NormalisedTest): void {
  for (const a of test.attempts) {
    if (a.stepsJson !== undefined) continue;
    a.stepsJson = storedSteps(a);
    a.steps = [];
  }
}
