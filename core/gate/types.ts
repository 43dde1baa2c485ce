/** The CI gate's contract: `flakeboard check` (local or through POST /api/check) and its --json. */

export type GateClass = 'new' | 'flaky' | 'broken-on-base' | 'quarantined';

/** A failed or flaky test of the report being checked. */
export interface GateTest {
  title: string;
  /** The title path inside the file (describe blocks, then the test), as stored. */
  titlePath: string[];
  file: string;
  /** The Playwright project name; `browser` is flakeboard's key for it. */
  project: string;
  browser: string;
  /** Failed on its first attempt and passed on a retry. */
  passedOnRetry: boolean;
}

/** One result of the same test on the same browser on the base branch. */
export interface BaseResult {
  runId: number;
  startedAt: number;
  commit: string | null;
  /** The first attempt decides (docs/screens.md#status-rules). */
  status: 'passed' | 'failed' | 'skipped';
  passedOnRetry: boolean;
  /** The run was an outage (over 80 % failed): no evidence about one test. */
  outageRun: boolean;
}

export interface QuarantineEntry {
  id: number;
  /** Exact title, or a pattern with `*` wildcards. */
  title: string;
  /** Exact file, a pattern with `*`, or null for any file. */
  file: string | null;
  project: string | null;
  reason: string;
  owner: string | null;
  createdBy: string | null;
  createdAt: number;
  expiresAt: number | null;
}

export interface Evidence {
  runId: number;
  date: string;
  commit: string | null;
  status: 'passed' | 'failed' | 'skipped';
  passedOnRetry: boolean;
}

export interface GateFailure {
  title: string;
  file: string;
  project: string;
  /** flakeboard's key for the project (the flaky screen's `browser`). */
  browser: string;
  class: GateClass;
  reason: string;
  evidence: Evidence[];
  /**
   * The test on the base branch in the window (outage runs and skips left out): how many runs,
   * how many failed their first attempt (the failure rate the dashboard shows), how many of
   * those passed on a retry. Absent from servers older than this field.
   */
  onBase?: { runs: number; failed: number; passedOnRetry: number };
  /** Who owns the test (CODEOWNERS, owner annotations, @owner: tags); empty: no one. Absent from older servers. */
  owners?: string[];
  /** `expiresAt`: the moment it stops applying (ISO 8601); `through`: the last UTC day it applies, the date printed. */
  quarantine?: { id: number; reason: string; owner: string | null; expiresAt: string | null; through: string | null };
}

export interface GateAnswer {
  verdict: 'pass' | 'fail';
  base: string;
  windowDays: number;
  /** Base-branch runs in the window: with fewer than MIN_BASE_RUNS, "new" is a weak claim. */
  baseRuns: number;
  littleHistory: boolean;
  /** Over 80 % of the checked run failed: the run itself looks broken. */
  runLooksBroken: boolean;
  counts: { tests: number; failed: number; flaky: number };
  failures: GateFailure[];
}
