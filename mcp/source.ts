import type { AiAnalysisRequest, AiAnalysisResult } from '../core/api/ai.js';
import type { FlakyTestsPage, Paged, TestResultDetail } from '../core/api/analytics.js';
import type { QuarantineView } from '../core/api/quarantine.js';
import type { RecentUpload, TestResultRow, UploadDetailResponse } from '../core/api/uploads.js';

/**
 * Where the MCP tools read the history: a database file (local-source.ts) or a flakeboard
 * server through its API with a token (http-source.ts). Every call is a read; the answers are
 * the API's own shapes, so both implementations return the same thing for the same data.
 */
export interface HistorySource {
  /** The database file or the server's address, for messages. */
  readonly where: string;
  /** GET /api/flaky-tests?page=…: flaky groups, most flaky first. `days` 0 is all history. */
  flakyTests(query: { days: number; search: string | null; browser: string | null; page: number; pageSize: number }): Promise<FlakyTestsPage>;
  /** GET /api/quarantine: every entry, lifted and expired ones included. */
  quarantine(): Promise<QuarantineView[]>;
  /** GET /api/test-details/{title}/{browser}?page=…: one test's results on one project, newest first. */
  testResults(query: { title: string; file: string | null; browser: string; page: number; pageSize: number }): Promise<Paged<TestResultDetail>>;
  /** GET /api/recent-uploads?page=…: runs, newest upload first. */
  recentRuns(query: { page: number; pageSize: number }): Promise<Paged<RecentUpload>>;
  /**
   * GET /api/uploads/{id} and GET /api/uploads/{id}/results?status=failed: one run, the first
   * `limit` of its failed results and its tests with retries (the server bounds both: a run
   * may hold 50,000 results); null when there is no such run.
   */
  run(id: number, limit: number): Promise<RunFailures | null>;
  /**
   * GET /api/evidence/{sha256}: a stored blob's bytes (a screenshot, a trace), null when the
   * store does not have it; refused past `maxBytes` before more is read.
   */
  evidence(sha256: string, maxBytes: number): Promise<Uint8Array | null>;
  /** POST /api/ai-analysis: the diagnosis, passed through whole (its fields may grow). */
  analyse(request: AiAnalysisRequest): Promise<AiAnalysisResult>;
  close(): Promise<void>;
}

export interface RunFailures {
  upload: UploadDetailResponse['upload'];
  /** Failed or timed-out results, failures first, at most `limit`. */
  failed: Paged<TestResultRow>;
  /** The first flaky tests (passed on a retry); flakyTestsTotal counts all. */
  retried: Pick<UploadDetailResponse, 'flakyTests' | 'flakyTestsTotal'>;
}

/** A problem the caller can fix (an unknown test, a run that is not there): a tool error. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}
