import { sql } from 'kysely';
import type { TestStatus } from '../../../core/status.js';
import type { AnyStore } from '../engine/types.js';

/** One stored result of the analysed test, on any browser (browser differences need them all). */
export interface HistoryEntry {
  runId: number;
  testId: number;
  file: string;
  browser: string;
  /** The Playwright project's name (the browser key may be its browser name instead). */
  projectName: string;
  /** 'failed' for a test.fail() test: a stored "failed" with no error is then a pass. */
  expectedStatus: string;
  /** First attempt (docs/screens.md#status-rules). */
  status: TestStatus;
  finalStatus: string;
  outcome: string;
  passedOnRetry: boolean;
  retries: number;
  /** All attempts together. */
  durationMs: number;
  /** The first attempt alone: what a timeout limit compares with. */
  firstAttemptMs: number | null;
  startedAt: number;
  gitCommit: string | null;
  gitBranch: string | null;
  /** Most tests of the run failed: an outage, not this test (docs/screens.md#outages). */
  outageRun: boolean;
  errorCategory: string | null;
  errorSummary: string | null;
  errorLocation: string | null;
  errorSnippet: string | null;
  /** The head of the message: enough for the locator, URL and call log, never the whole text. */
  errorHead: string | null;
}

export interface TestHistory {
  /** Oldest first. */
  entries: HistoryEntry[];
  /** Stored tests that matched; more than one when the title is shared and no file narrowed it. */
  tests: Array<{ id: number; file: string }>;
  /** The limit cut older results off. */
  truncated: boolean;
}

export const HISTORY_LIMIT = 500;
const MAX_CANDIDATE_TESTS = 50;
const MESSAGE_HEAD_CHARS = 2000;

/**
 * The test's stored results, newest `limit` of them, from runs that count in analytics: rejected
 * runs have no results left and duplicates never had any, but both are excluded explicitly.
 */
export async function loadTestHistory(store: AnyStore, query: { title: string; file?: string | null; limit?: number }): Promise<TestHistory> {
  const limit = query.limit ?? HISTORY_LIMIT;
  const tests = await matchingTests(store, query.title, query.file ?? null);
  if (tests.length === 0) return { entries: [], tests, truncated: false };
  const rows = await store.db
    .selectFrom('results')
    .innerJoin('runs', 'runs.id', 'results.run_id')
    .innerJoin('tests', 'tests.id', 'results.test_id')
    .leftJoin('attempts as first', (join) => join.onRef('first.result_id', '=', 'results.id').on('first.retry', '=', 0))
    .select([
      'results.run_id',
      'results.test_id',
      'tests.file',
      'results.browser',
      'results.project_name',
      'results.expected_status',
      'results.status',
      'results.final_status',
      'results.outcome',
      'results.passed_on_retry',
      'results.retries',
      'results.duration_ms',
      'first.duration_ms as first_attempt_ms',
      'results.started_at',
      'runs.git_commit',
      'runs.git_branch',
      'runs.outage',
      'results.error_category',
      'results.error_summary',
      'results.error_location',
      'results.error_snippet',
      sql<string | null>`substr(results.error_message, 1, ${MESSAGE_HEAD_CHARS})`.as('error_head'),
    ])
    // The newest ids first, sorted as small tuples; only those rows' wide columns are read.
    .where('results.id', 'in', (eb) =>
      eb
        .selectFrom('results as newest')
        .innerJoin('runs as r', 'r.id', 'newest.run_id')
        .select('newest.id')
        .where('newest.test_id', 'in', tests.map((t) => t.id))
        .where('r.status', '!=', 'rejected')
        .where('r.is_duplicate', '=', 0)
        .orderBy('newest.started_at', 'desc')
        .orderBy('newest.id', 'desc')
        .limit(limit + 1),
    )
    .orderBy('results.started_at', 'desc')
    .orderBy('results.id', 'desc')
    .limit(limit + 1)
    .execute();
  const truncated = rows.length > limit;
  const entries = rows
    .slice(0, limit)
    .reverse()
    .map((row): HistoryEntry => ({
      runId: row.run_id,
      testId: row.test_id,
      file: row.file,
      browser: row.browser,
      projectName: row.project_name,
      expectedStatus: row.expected_status,
      status: row.status,
      finalStatus: row.final_status,
      outcome: row.outcome,
      passedOnRetry: row.passed_on_retry === 1,
      retries: row.retries,
      durationMs: row.duration_ms,
      firstAttemptMs: row.first_attempt_ms,
      startedAt: row.started_at,
      gitCommit: row.git_commit,
      gitBranch: row.git_branch,
      // Flagged at import (write-run.ts), the same rule the analytics use.
      outageRun: row.outage === 1,
      errorCategory: row.error_category,
      errorSummary: row.error_summary,
      errorLocation: row.error_location,
      errorSnippet: row.error_snippet,
      errorHead: row.error_head,
    }));
  return { entries, tests, truncated };
}


/**
 * What follows the last " › " (or " > ") of a joined title path, by one scan from the end: a
 * split regex with \s+ on both sides backtracked quadratically over a run of blanks.
 */
export function lastTitlePart(title: string): string {
  const blank = (c: string | undefined) => c !== undefined && c.trim() === '';
  for (let i = title.length - 2; i > 0; i--) {
    const c = title[i];
    if ((c === '›' || c === '>') && blank(title[i - 1]) && blank(title[i + 1])) return title.slice(i + 1).trim();
  }
  return title;
}

/**
 * The UI names a test by its title (and its results by file). A file narrows a shared title;
 * it may be the stored relative path or an absolute one ending in it. A title the UI joined
 * from its describe path ("Cart › adds") falls back to its last part.
 */
async function matchingTests(store: AnyStore, title: string, file: string | null): Promise<Array<{ id: number; file: string }>> {
  const byTitle = (wanted: string) =>
    store.db.selectFrom('tests').select(['id', 'file']).where('title', '=', wanted).orderBy('id').limit(MAX_CANDIDATE_TESTS).execute();
  let candidates = await byTitle(title);
  if (candidates.length === 0) {
    const last = lastTitlePart(title);
    if (last && last !== title) candidates = await byTitle(last);
  }
  if (!file || candidates.length <= 1) return candidates;
  const wanted = file.replace(/\\/g, '/');
  const sameFile = candidates.filter((c) => c.file === wanted || wanted.endsWith(`/${c.file}`) || c.file.endsWith(`/${wanted}`));
  return sameFile.length > 0 ? sameFile : candidates;
}
