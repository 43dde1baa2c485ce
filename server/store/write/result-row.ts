import { storedSteps, type NormalisedAttempt, type NormalisedTest } from '../../../core/report/normalised.js';

/**
 * The rows an import writes per test, described once: each table's columns in the order both
 * writers send them (SQLite's multi-row VALUES in write-results.ts, PostgreSQL's unnest arrays
 * in write-run-postgres.ts), each column's PostgreSQL array type, and how a test's values fill
 * them. The two writers differ in how they send rows, not in what a row holds.
 */
type ColumnType = 'bigint' | 'text' | 'float8';

export interface RowShape {
  /** The column list of an INSERT. */
  readonly columns: string;
  /** Each column's type, for PostgreSQL's arrays (UnnestWriter). */
  readonly types: readonly ColumnType[];
}

const shape = (columns: ReadonlyArray<readonly [string, ColumnType]>): RowShape => ({ columns: columns.map(([name]) => name).join(', '), types: columns.map(([, type]) => type) });

/** A result, without its id: SQLite assigns it, PostgreSQL's writer takes ids from the sequence first. */
export const RESULT_ROW = shape([
  ['run_id', 'bigint'],
  ['test_id', 'bigint'],
  ['browser', 'text'],
  ['project_name', 'text'],
  ['repeat_index', 'bigint'],
  ['line', 'bigint'],
  ['col', 'bigint'],
  ['started_at', 'bigint'],
  ['status', 'text'],
  ['final_status', 'text'],
  ['outcome', 'text'],
  ['expected_status', 'text'],
  ['passed_on_retry', 'bigint'],
  ['retries', 'bigint'],
  ['duration_ms', 'float8'],
  ['error_message', 'text'],
  ['error_category', 'text'],
  ['error_fingerprint', 'text'],
  ['error_summary', 'text'],
  ['error_location', 'text'],
  ['error_snippet', 'text'],
  ['error_stack', 'text'],
  ['tags_json', 'text'],
  ['annotations_json', 'text'],
]);

/** Appends a result's values to `out` in RESULT_ROW's order (a flat list of many rows, or one row). */
export function pushResult(out: unknown[], runId: number, testId: number, test: NormalisedTest, startedAt: number): void {
  const error = test.error;
  out.push(
    runId,
    testId,
    test.browser,
    test.projectName,
    test.repeatIndex,
    test.line,
    test.column,
    startedAt,
    test.status,
    test.finalStatus,
    test.outcome,
    test.expectedStatus,
    test.passedOnRetry ? 1 : 0,
    test.retries,
    test.durationMs,
    error?.message ?? null,
    error?.category ?? null,
    error?.fingerprint ?? null,
    error?.summary ?? null,
    error?.location ?? null,
    error?.snippet ?? null,
    error?.stack ?? null,
    test.tags.length > 0 ? JSON.stringify(test.tags) : null,
    test.annotations.length > 0 ? JSON.stringify(test.annotations) : null,
  );
}

/** One attempt of a result, numbered by its place (retry). */
export const ATTEMPT_ROW = shape([
  ['result_id', 'bigint'],
  ['retry', 'bigint'],
  ['status', 'text'],
  ['duration_ms', 'float8'],
  ['started_at', 'bigint'],
  ['error_message', 'text'],
  ['other_errors_json', 'text'],
  ['steps_json', 'text'],
  ['stdout', 'text'],
  ['stderr', 'text'],
  ['attachments_json', 'text'],
]);

/** Appends an attempt's values to `out` in ATTEMPT_ROW's order. */
export function pushAttempt(out: unknown[], resultId: number, retry: number, a: NormalisedAttempt): void {
  out.push(
    resultId,
    retry,
    a.status,
    a.durationMs,
    a.startedAt,
    a.error?.message ?? null,
    a.otherErrors.length > 0 ? JSON.stringify(a.otherErrors) : null,
    storedSteps(a),
    a.stdout || null,
    a.stderr || null,
    a.attachments.length > 0 ? JSON.stringify(a.attachments) : null,
  );
}

/** An error's sample, kept once per fingerprint (the first run that met it). */
export const ERROR_SAMPLE_ROW = shape([
  ['fingerprint', 'text'],
  ['category', 'text'],
  ['summary', 'text'],
  ['message', 'text'],
]);

/** A browser key's project name, kept once. */
export const PROJECT_ROW = shape([
  ['browser', 'text'],
  ['project_name', 'text'],
]);

/**
 * The run's own row, written at the start (results refer to it) and finished once the report
 * is read (FINISH_RUN_SQL). RETURNING gives its id on both engines.
 */
export const INSERT_PENDING_RUN = `INSERT INTO runs (
    status, is_duplicate, content_hash, file_name, file_size, browser, started_at, duration_ms, uploaded_at, uploaded_by, uploaded_via,
    total_tests, passed_tests, failed_tests, skipped_tests, flaky_tests, load_failed, outage
  ) VALUES ('pending', 0, '', @file_name, @file_size, '', 0, 0, @uploaded_at, @uploaded_by, @uploaded_via, 0, 0, 0, 0, 0, 0, 0) RETURNING id`;

/** The stored original of a report's content (@hash): a run of the same content is its duplicate. */
export const FIND_ORIGINAL = `SELECT id FROM runs WHERE content_hash = @hash AND status != 'rejected' AND is_duplicate = 0 ORDER BY id LIMIT 1`;

/** Results of run @run stored with the placeholder start @none take the run's start @start (write-results.ts NO_START). */
export const FIX_STARTS = 'UPDATE results SET started_at = @start WHERE run_id = @run AND started_at = @none';
