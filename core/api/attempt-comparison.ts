import type { AttemptComparison } from '../trace/compare.js';

export type { AttemptComparison } from '../trace/compare.js';

/** One side of a comparison: which attempt it is. */
export interface ComparedAttempt {
  resultId: number;
  runId: number;
  /** 0 for the first attempt, 1 for the first retry… */
  retry: number;
  status: string;
  durationMs: number;
  /** The stored trace read for the comparison, when there was one. */
  traceSha256: string | null;
}

/** GET /api/evidence/compare?result={id}[&retry={n}] */
export interface AttemptComparisonResponse {
  failing: ComparedAttempt;
  /** The passing attempt laid beside it; null when the test never passed on that browser. */
  passing: ComparedAttempt | null;
  /** `retry`: the passing retry in the same run; `earlier-pass`: the newest passing result of the test on the same browser and project. */
  partner: 'retry' | 'earlier-pass' | null;
  /** True when either attempt kept no readable trace: the comparison is of the report's steps and errors only. */
  tracesMissing: boolean;
  /** Why a trace was not read (too large, not kept, refused), when one was not. */
  note: string | null;
  /** Null when there is no passing attempt to compare with. */
  comparison: AttemptComparison | null;
}
