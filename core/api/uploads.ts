import type { AttemptEvidence, EvidenceEntry } from './evidence.js';
/** The upload and review calls of docs/api.md#uploads-and-review, fields named as the UI reads them. */

export type ReviewStatus = 'pending' | 'approved' | 'rejected';

/** POST /api/upload */
export interface UploadRequest {
  /** The parsed Playwright JSON report. */
  testResults: unknown;
  metadata?: UploadMetadata;
}

export interface UploadMetadata {
  /** The evidence of the report's attachments, whose blobs were sent first (core/api/evidence.ts). */
  evidence?: EvidenceEntry[];
  project?: string | null;
  gitCommit?: string | null;
  gitBranch?: string | null;
  /** The CI build (workflow run, pipeline): shards of one build share it. At most 200 characters. */
  buildId?: string | null;
  /** Its page: an http(s) URL of at most 1000 characters. */
  buildUrl?: string | null;
  browser?: string | null;
  fileName?: string | null;
  /** What the run is called in the review list and recent uploads instead of the file's name (kept whole). */
  runName?: string | null;
  fileSize?: number | null;
  uploadTime?: string | null;
  /**
   * The CODEOWNERS owners of the report's test files (as the report names them), resolved by the
   * client in the checkout; absent: no CODEOWNERS was read (the owners stored before stay).
   */
  codeowners?: Record<string, string[]> | null;
}

export interface UploadResponse {
  success: true;
  runId: number;
  testsProcessed: number;
  duplicate: boolean;
  status: ReviewStatus;
}

/** GET /api/uploads/pending */
export interface PendingUpload {
  id: number;
  file_path: string;
  browser: string;
  project: string | null;
  /** ISO 8601, UTC. */
  timestamp: string;
  uploaded_by_username: string | null;
  /** How it arrived when no one signed in uploaded it: 'token NAME', 'reporter on HOST', 'import on HOST'. */
  uploaded_via: string | null;
  git_branch: string | null;
  build_id: string | null;
  total_tests: number;
  passed_tests: number;
  failed_tests: number;
  /** 1 means duplicate. */
  is_duplicate: 0 | 1;
}

export interface PendingUploadsResponse {
  uploads: PendingUpload[];
  count: number;
}

/** PATCH /api/uploads/{id}/review */
export interface ReviewRequest {
  action: 'approve' | 'reject';
  notes?: string;
}

export interface ReviewResponse {
  success: true;
  upload: Pick<RecentUpload, 'id' | 'status' | 'reviewed_by_username' | 'reviewed_at'>;
}

/** POST /api/uploads/bulk-review: all or nothing. */
export interface BulkReviewRequest {
  uploads: Array<{ id: number; action: 'approve' | 'reject' }>;
}

export interface BulkReviewResponse {
  success: true;
  reviewed: number;
}

/** GET /api/recent-uploads (a list of these). */
export interface RecentUpload {
  id: number;
  status: ReviewStatus;
  /** When it was uploaded (ISO 8601, UTC). */
  timestamp: string;
  /** When the tests ran (ISO 8601, UTC). */
  execution_time: string;
  file_path: string;
  project: string | null;
  browser: string;
  total_tests: number;
  passed_tests: number;
  failed_tests: number;
  skipped_tests: number;
  flaky_tests: number;
  git_branch: string | null;
  git_commit: string | null;
  build_id: string | null;
  build_url: string | null;
  /** Shard k of n, when the report is one shard of a sharded run. */
  shard_current: number | null;
  shard_total: number | null;
  uploaded_by_username: string | null;
  uploaded_via: string | null;
  reviewed_by_username: string | null;
  reviewed_at: string | null;
  review_notes: string | null;
  is_duplicate: 0 | 1;
  duration_ms: number;
}

/** One row of an upload detail's testResults. */
export interface TestResultRow {
  id: number;
  test_title: string;
  test_full_title: string;
  test_file: string;
  browser: string;
  project_name: string;
  status: 'passed' | 'failed' | 'timedOut' | 'skipped';
  outcome: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  duration_ms: number;
  error_message: string | null;
  error_category: string | null;
  retry_count: number;
  /** Every attempt, first to last, with its evidence. */
  attempts: AttemptEvidence[];
}

/** GET /api/uploads/{id} */
export interface UploadDetailResponse {
  upload: RecentUpload & {
    duplicate_of: number | null;
    playwright_version: string | null;
    load_failed: 0 | 1;
    /** Top-level report errors (a run that failed to load shows its load error). */
    load_errors: Array<{ message: string; location: string | null }>;
  };
  /** The first page of the Test Results table (default sort); the rest through GET /api/uploads/{id}/results. */
  testResults: TestResultRow[];
  /** How many results the run holds in all. */
  testResultsTotal: number;
  testsByStatus: Record<'passed' | 'failed' | 'timedOut' | 'skipped', number>;
  errorPatterns: Array<{ category: string; count: number }>;
  /** The first RUN_FLAKY_SHOWN flaky tests (passed on a retry), in report order; flakyTestsTotal counts them all. */
  flakyTests: TestResultRow[];
  flakyTestsTotal: number;
  /** Results that were retried and failed every retry: failures, not flaky. */
  failedAfterRetriesTotal: number;
  /** The ten slowest results, longest first (the bar chart). */
  slowestTests: TestResultRow[];
  /** The five most frequent error first lines, cut to 100 characters (the 'Error Patterns' card). */
  topErrors: Array<{ pattern: string; count: number }>;
  /** Distinct browsers of the run's results: the chart names the browser when there are several. */
  browserCount: number;
  stats: { total: number; passed: number; failed: number; skipped: number; flaky: number; pass_rate: number; duration_ms: number };
}

export const RUN_FLAKY_SHOWN = 100;
/** Rows of the Test Results table per page, and of the detail's first page. */
export const RUN_RESULTS_PAGE_SIZE = 50;
/** Longer messages are cut in list rows (the table shows the first line); search reads them whole. */
export const RESULT_ROW_MESSAGE_CHARS = 4000;

export const RUN_RESULT_STATUSES = ['all', 'passed', 'failed', 'skipped'] as const;
export type RunResultStatus = (typeof RUN_RESULT_STATUSES)[number];
export const RUN_RESULT_SORTS = ['status', 'duration', 'name'] as const;
export type RunResultSort = (typeof RUN_RESULT_SORTS)[number];

/** GET /api/uploads/{id}/results: one page of the run's results, filtered and sorted by the server. */
export interface RunResultsQuery {
  page: number;
  pageSize: number;
  status?: RunResultStatus;
  search?: string;
  sort?: RunResultSort;
}
