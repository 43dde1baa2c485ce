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
  /** The run's commit, when the report said. */
  gitCommit: string | null;
  /** When the result started (ISO 8601). */
  startedAt: string;
}

/** `retry`: the passing retry in the same run; `same-commit`: a passing run on the same commit; `nearest`: the passing run nearest in time. */
export type AttemptPartner = 'retry' | 'same-commit' | 'nearest';

/** The screencast frame one attempt showed where the two parted. */
export interface ComparedFrame {
  /** GET it for the image (image/jpeg), with the comparison's own authorisation. */
  url: string;
  /** The action whose end it shows: the parting one, or on a side that did not do it the last one before. */
  action: string;
  /** When the page showed it, in ms after the attempt's first action. */
  atMs: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "3 Nov 2026" (UTC): a date a person reads in a sentence. */
function dayOf(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Which passing attempt a comparison used, in plain words. */
export function partnerWords(partner: AttemptPartner, passing: Pick<ComparedAttempt, 'runId' | 'gitCommit' | 'startedAt'>): string {
  if (partner === 'retry') return 'Compared with the passing retry in the same run';
  const run = `run #${passing.runId} on ${dayOf(passing.startedAt)}`;
  if (partner === 'same-commit') return `Compared with a passing run on the same commit ${(passing.gitCommit ?? '').slice(0, 7)}: ${run}`;
  return `Compared with the nearest passing run in time, ${run}`;
}

/** GET /api/evidence/compare?result={id}[&retry={n}] */
export interface AttemptComparisonResponse {
  failing: ComparedAttempt;
  /** The passing attempt laid beside it; null when the test never passed on that browser. */
  passing: ComparedAttempt | null;
  /**
   * The partner, chosen in this order: the passing retry in the same run; else a passing result of
   * the test (same browser and project) in a run of the same commit; else the passing one nearest in time.
   */
  partner: AttemptPartner | null;
  /** The partner in plain words, e.g. "Compared with the passing retry in the same run". */
  partnerText: string | null;
  /** True when either attempt kept no readable trace: the comparison is of the report's steps and errors only. */
  tracesMissing: boolean;
  /** Why a trace was not read (too large, not kept, refused), when one was not. */
  note: string | null;
  /** Null when there is no passing attempt to compare with. */
  comparison: AttemptComparison | null;
  /** Each attempt's screencast frame where they parted; null when the traces were not read or did not part. */
  frames: { failing: ComparedFrame | null; passing: ComparedFrame | null } | null;
  /** Why there are no frames to show though both traces were read (recorded without screenshots). */
  framesNote: string | null;
}
