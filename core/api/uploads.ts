/**
 * The upload and review calls of docs/api.md#uploads-and-review, fields named as the UI reads
 * them: the types inferred from the Zod schemas of schemas/uploads.ts (type-only imports: the UI
 * bundles no Zod). The report body is described here and checked by server/upload-body.ts.
 */
import type { z } from 'zod';
import type { EvidenceEntry } from './evidence.js';
import type * as s from './schemas/uploads.js';

export type ReviewStatus = z.infer<typeof s.reviewStatus>;

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

export type UploadResponse = z.infer<typeof s.uploadResponse>;

/** GET /api/uploads/pending */
export type PendingUpload = z.infer<typeof s.pendingUpload>;

export type PendingUploadsResponse = z.infer<typeof s.pendingUploadsResponse>;

/** PATCH /api/uploads/{id}/review */
export type ReviewRequest = z.infer<typeof s.reviewRequest>;

export type ReviewResponse = z.infer<typeof s.reviewResponse>;

/** POST /api/uploads/bulk-review: all or nothing. */
export type BulkReviewRequest = z.infer<typeof s.bulkReviewRequest>;

export type BulkReviewResponse = z.infer<typeof s.bulkReviewResponse>;

/** The answer of a call that removes one thing (a run, a quarantine entry, a webhook) or signs out. */
export type SuccessAnswer = z.infer<typeof s.successAnswer>;
/** DELETE /api/clear-all */
export type ClearAllAnswer = z.infer<typeof s.clearAllAnswer>;

/** GET /api/recent-uploads (a list of these). */
export type RecentUpload = z.infer<typeof s.recentUpload>;

/** One row of an upload detail's testResults. */
export type TestResultRow = z.infer<typeof s.testResultRow>;

/** GET /api/uploads/{id} */
export type UploadDetailResponse = z.infer<typeof s.uploadDetailResponse>;

export const RUN_FLAKY_SHOWN = 100;
/** Rows of the Test Results table per page, and of the detail's first page. */
export const RUN_RESULTS_PAGE_SIZE = 50;
/** Longer messages are cut in list rows (the table shows the first line); search reads them whole. */
export const RESULT_ROW_MESSAGE_CHARS = 4000;

export type RunResultStatus = (typeof s.RUN_RESULT_STATUSES)[number];
export type RunResultSort = (typeof s.RUN_RESULT_SORTS)[number];

/** GET /api/uploads/{id}/results: one page of the run's results, filtered and sorted by the server. */
export interface RunResultsQuery {
  page: number;
  pageSize: number;
  status?: RunResultStatus;
  search?: string;
  sort?: RunResultSort;
}
