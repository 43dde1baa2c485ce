import type { AnyStore } from '../engine/types.js';

/** One attempt of a result, with what a comparison of attempts reads of it. */
export interface AttemptForComparison {
  resultId: number;
  runId: number;
  retry: number;
  status: string;
  durationMs: number;
  errorMessage: string | null;
  stepsJson: string | null;
  /** The stored trace of the attempt, when it kept one. */
  traceSha256: string | null;
  traceSize: number | null;
}

type AttemptRow = {
  result_id: number;
  run_id: number;
  retry: number;
  status: string;
  duration_ms: number;
  error_message: string | null;
  steps_json: string | null;
  trace_sha256: string | null;
  trace_size: number | null;
};

// The first stored trace of the attempt (an attempt keeps one, as a rule).
const SELECT = `SELECT a.result_id, r.run_id, a.retry, a.status, a.duration_ms, a.error_message, a.steps_json,
    (SELECT t.sha256 FROM attachments t WHERE t.result_id = a.result_id AND t.retry = a.retry AND t.kind = 'trace' AND t.state = 'stored' ORDER BY t.ordinal LIMIT 1) AS trace_sha256,
    (SELECT t.size FROM attachments t WHERE t.result_id = a.result_id AND t.retry = a.retry AND t.kind = 'trace' AND t.state = 'stored' ORDER BY t.ordinal LIMIT 1) AS trace_size
  FROM attempts a JOIN results r ON r.id = a.result_id`;

const TEXTS = {
  attempts: `${SELECT} WHERE a.result_id = @resultId ORDER BY a.retry`,
  // The newest earlier passing attempt of the same test on the same browser and project.
  earlierPass: `${SELECT} WHERE a.status = 'passed' AND r.test_id = @testId AND r.browser = @browser AND r.project_name = @project AND r.id <> @resultId
    ORDER BY r.started_at DESC, r.id DESC, a.retry DESC LIMIT 1`,
  result: 'SELECT test_id, browser, project_name FROM results WHERE id = @resultId',
};

const FAILED = new Set(['failed', 'timedOut', 'interrupted']);

function fromRow(row: AttemptRow): AttemptForComparison {
  return {
    resultId: Number(row.result_id),
    runId: Number(row.run_id),
    retry: Number(row.retry),
    status: row.status,
    durationMs: Number(row.duration_ms),
    errorMessage: row.error_message,
    stepsJson: row.steps_json,
    traceSha256: row.trace_sha256,
    traceSize: row.trace_size === null ? null : Number(row.trace_size),
  };
}

export type AttemptPair =
  | { found: 'no-result' }
  | { found: 'no-failed-attempt'; attempts: number }
  | { found: 'pair' | 'failing-only'; failing: AttemptForComparison; passing: AttemptForComparison | null; partner: 'retry' | 'earlier-pass' | null };

/**
 * A failed attempt of a result (the one asked for, else the first that failed) and its partner:
 * the passing retry of the same test in the same run, else the newest passing attempt of the
 * same test on the same browser and project before or after it.
 */
export async function attemptPair(store: AnyStore, resultId: number, retry: number | null): Promise<AttemptPair> {
  const attempts = (await store.sql.all<AttemptRow>(TEXTS.attempts, { resultId })).map(fromRow);
  if (attempts.length === 0) {
    const result = await store.sql.get<{ test_id: number }>(TEXTS.result, { resultId });
    return result ? { found: 'no-failed-attempt', attempts: 0 } : { found: 'no-result' };
  }
  const failing = attempts.find((a) => (retry === null ? FAILED.has(a.status) : a.retry === retry && FAILED.has(a.status)));
  if (!failing) return { found: 'no-failed-attempt', attempts: attempts.length };
  const retryPass = attempts.find((a) => a.status === 'passed' && a.retry > failing.retry);
  if (retryPass) return { found: 'pair', failing, passing: retryPass, partner: 'retry' };
  const result = (await store.sql.get<{ test_id: number; browser: string; project_name: string }>(TEXTS.result, { resultId }))!;
  const earlier = await store.sql.get<AttemptRow>(TEXTS.earlierPass, { testId: result.test_id, browser: result.browser, project: result.project_name, resultId });
  if (earlier) return { found: 'pair', failing, passing: fromRow(earlier), partner: 'earlier-pass' };
  return { found: 'failing-only', failing, passing: null, partner: null };
}
