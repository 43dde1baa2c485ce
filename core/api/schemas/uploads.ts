/**
 * The upload and review calls of docs/api.md#uploads-and-review as Zod schemas; core/api/uploads.ts
 * infers its types from them (the report body itself is checked by server/upload-body.ts).
 */
import { z } from 'zod';
import { attemptEvidence } from './evidence.js';
import { pageNumber, pageSize, queryWhole } from './paging.js';

/** A run's Test Results table: its status filter and sort keys (core/api/uploads.ts). */
export const RUN_RESULT_STATUSES = ['all', 'passed', 'failed', 'skipped'] as const;
export const RUN_RESULT_SORTS = ['status', 'duration', 'name'] as const;

export const reviewStatus = z.enum(['pending', 'approved', 'rejected']);
const isoTime = z.string().describe('ISO 8601, UTC');
const zeroOrOne = z.union([z.literal(0), z.literal(1)]);
const action = z.enum(['approve', 'reject']);

export const idParams = z.object({ id: queryWhole(1, Number.MAX_SAFE_INTEGER) });

export const uploadResponse = z.object({
  success: z.literal(true),
  runId: z.number(),
  testsProcessed: z.number(),
  duplicate: z.boolean(),
  status: reviewStatus.describe("'approved' when an API token with the approve scope kept it at once"),
});

export const pendingUpload = z.object({
  id: z.number(),
  file_path: z.string(),
  browser: z.string(),
  project: z.string().nullable(),
  timestamp: isoTime,
  uploaded_by_username: z.string().nullable(),
  uploaded_via: z.string().nullable().describe("How it arrived when no one signed in uploaded it: 'token NAME', 'reporter on HOST', 'import on HOST'"),
  git_branch: z.string().nullable(),
  build_id: z.string().nullable(),
  total_tests: z.number(),
  passed_tests: z.number(),
  failed_tests: z.number(),
  is_duplicate: zeroOrOne.describe('1 means duplicate'),
});

export const pendingUploadsResponse = z.object({ uploads: z.array(pendingUpload), count: z.number() });

export const reviewRequest = z.object({ action, notes: z.string().max(10_000).optional() });
export const bulkReviewRequest = z.object({
  uploads: z.array(z.object({ id: z.number().int().min(1), action })).min(1).max(10_000).describe('All or nothing'),
});
export const bulkReviewResponse = z.object({ success: z.literal(true), reviewed: z.number() });

export const recentUpload = z.object({
  id: z.number(),
  status: reviewStatus,
  timestamp: isoTime.describe('When it was uploaded'),
  execution_time: isoTime.describe('When the tests ran'),
  file_path: z.string(),
  project: z.string().nullable(),
  browser: z.string(),
  total_tests: z.number(),
  passed_tests: z.number(),
  failed_tests: z.number(),
  skipped_tests: z.number(),
  flaky_tests: z.number(),
  git_branch: z.string().nullable(),
  git_commit: z.string().nullable(),
  build_id: z.string().nullable(),
  build_url: z.string().nullable(),
  shard_current: z.number().nullable().describe('Shard k of n, when the report is one shard of a sharded run'),
  shard_total: z.number().nullable(),
  uploaded_by_username: z.string().nullable(),
  uploaded_via: z.string().nullable(),
  reviewed_by_username: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  review_notes: z.string().nullable(),
  is_duplicate: zeroOrOne,
  duration_ms: z.number(),
});

export const reviewResponse = z.object({
  success: z.literal(true),
  upload: recentUpload.pick({ id: true, status: true, reviewed_by_username: true, reviewed_at: true }),
});

export const recentUploadsQuery = z.object({
  status: reviewStatus.optional(),
  limit: queryWhole(1, 1000).optional().describe('The bare list only: how many'),
  page: pageNumber,
  pageSize,
});

const resultStatus = z.enum(['passed', 'failed', 'timedOut', 'skipped']);

export const testResultRow = z.object({
  id: z.number(),
  test_title: z.string(),
  test_full_title: z.string(),
  test_file: z.string(),
  browser: z.string(),
  project_name: z.string(),
  status: resultStatus,
  outcome: z.enum(['expected', 'unexpected', 'flaky', 'skipped']),
  duration_ms: z.number(),
  error_message: z.string().nullable().describe('At most 4,000 characters in list rows'),
  error_category: z.string().nullable(),
  retry_count: z.number(),
  attempts: z.array(attemptEvidence),
});

export const uploadDetailResponse = z.object({
  upload: recentUpload.extend({
    duplicate_of: z.number().nullable(),
    playwright_version: z.string().nullable(),
    load_failed: zeroOrOne,
    load_errors: z.array(z.object({ message: z.string(), location: z.string().nullable() })).describe('Top-level report errors'),
  }),
  testResults: z.array(testResultRow).describe('The first page of the Test Results table; the rest through GET /api/uploads/{id}/results'),
  testResultsTotal: z.number(),
  testsByStatus: z.object({ passed: z.number(), failed: z.number(), timedOut: z.number(), skipped: z.number() }),
  errorPatterns: z.array(z.object({ category: z.string(), count: z.number() })),
  flakyTests: z.array(testResultRow).describe('The first 100 results that passed on a retry'),
  flakyTestsTotal: z.number(),
  failedAfterRetriesTotal: z.number().describe('Results retried that failed every retry: failures, not flaky'),
  slowestTests: z.array(testResultRow),
  topErrors: z.array(z.object({ pattern: z.string(), count: z.number() })),
  browserCount: z.number(),
  stats: z.object({ total: z.number(), passed: z.number(), failed: z.number(), skipped: z.number(), flaky: z.number(), pass_rate: z.number().describe('A percentage'), duration_ms: z.number() }),
});

export const runResultsQuery = z.object({
  page: pageNumber,
  pageSize,
  status: z.enum(RUN_RESULT_STATUSES).optional(),
  search: z.string().max(200).optional().describe('Title, full title, file or error message; case-insensitive'),
  sort: z.enum(RUN_RESULT_SORTS).optional(),
});

export const successAnswer = z.object({ success: z.literal(true) });
export const clearAllAnswer = z.object({ success: z.literal(true), deletedRuns: z.number() });
