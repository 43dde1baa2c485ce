import type { AttemptPartner } from '../../../core/api/attempt-comparison.js';
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
  /** The run's commit, when the report said. */
  gitCommit: string | null;
  /** When the result started, in ms since the epoch. */
  startedAt: number;
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
  git_commit: string | null;
  started_at: number;
};

// The first stored trace of the attempt (an attempt keeps one, as a rule).
const SELECT = `SELECT a.result_id, r.run_id, a.retry, a.status, a.duration_ms, a.error_message, a.steps_json, u.git_commit, r.started_at,
    (SELECT t.sha256 FROM attachments t WHERE t.result_id = a.result_id AND t.retry = a.retry AND t.kind = 'trace' AND t.state = 'stored' ORDER BY t.ordinal LIMIT 1) AS trace_sha256,
    (SELECT t.size FROM attachments t WHERE t.result_id = a.result_id AND t.retry = a.retry AND t.kind = 'trace' AND t.state = 'stored' ORDER BY t.ordinal LIMIT 1) AS trace_size
  FROM attempts a JOIN results r ON r.id = a.result_id JOIN runs u ON u.id = r.run_id`;

const PASSING_SAME_TEST = `a.status = 'passed' AND r.test_id = @testId AND r.browser = @browser AND r.project_name = @project AND r.id <> @resultId`;

const TEXTS = {
  attempts: `${SELECT} WHERE a.result_id = @resultId ORDER BY a.retry`,
  // The passing attempts of the same test on the same browser and project nearest before and after
  // the failure: each walks results_test_browser from the failure's time, so neither sorts the history.
  before: `${SELECT} WHERE ${PASSING_SAME_TEST} AND r.started_at <= @startedAt ORDER BY r.started_at DESC, r.id DESC, a.retry DESC LIMIT 1`,
  after: `${SELECT} WHERE ${PASSING_SAME_TEST} AND r.started_at >= @startedAt ORDER BY r.started_at ASC, r.id DESC, a.retry DESC LIMIT 1`,
  beforeSameCommit: `${SELECT} WHERE ${PASSING_SAME_TEST} AND u.git_commit = @commit AND r.started_at <= @startedAt ORDER BY r.started_at DESC, r.id DESC, a.retry DESC LIMIT 1`,
  afterSameCommit: `${SELECT} WHERE ${PASSING_SAME_TEST} AND u.git_commit = @commit AND r.started_at >= @startedAt ORDER BY r.started_at ASC, r.id DESC, a.retry DESC LIMIT 1`,
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
    gitCommit: row.git_commit,
    startedAt: Number(row.started_at),
  };
}

/** The row nearer in time to `at` (the earlier one on a tie: it ran before the failure, as a rule on the same code). */
function nearer(at: number, before: AttemptRow | undefined, after: AttemptRow | undefined): AttemptRow | undefined {
  if (!before || !after) return before ?? after;
  return Math.abs(Number(after.started_at) - at) < Math.abs(at - Number(before.started_at)) ? after : before;
}

export type AttemptPair =
  | { found: 'no-result' }
  | { found: 'no-failed-attempt'; attempts: number }
  | { found: 'pair' | 'failing-only'; failing: AttemptForComparison; passing: AttemptForComparison | null; partner: AttemptPartner | null };

/**
 * A failed attempt of a result (the one asked for, else the first that failed) and its partner,
 * in this order: the passing retry of the same test in the same run; else a passing result of the
 * same test (same browser and project) in a run of the same commit; else the passing result of
 * that test nearest in time, before or after it. The nearest first within each, so a commit run
 * many times is compared with the run closest to the failure.
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
  const same = { testId: result.test_id, browser: result.browser, project: result.project_name, resultId, startedAt: failing.startedAt };
  if (failing.gitCommit) {
    const params = { ...same, commit: failing.gitCommit };
    const row = nearer(failing.startedAt, await store.sql.get<AttemptRow>(TEXTS.beforeSameCommit, params), await store.sql.get<AttemptRow>(TEXTS.afterSameCommit, params));
    if (row) return { found: 'pair', failing, passing: fromRow(row), partner: 'same-commit' };
  }
  const nearest = nearer(failing.startedAt, await store.sql.get<AttemptRow>(TEXTS.before, same), await store.sql.get<AttemptRow>(TEXTS.after, same));
  if (nearest) return { found: 'pair', failing, passing: fromRow(nearest), partner: 'nearest' };
  return { found: 'failing-only', failing, passing: null, partner: null };
}
