import type { ReviewStatus } from '../../../../core/api/uploads.js';

/** Step 3 of the upload flow (docs/screens.md#upload): what happened to one file. */
export type UploadOutcome =
  | { key: string; fileName: string; ok: true; runId: number; testsProcessed: number; duplicate: boolean; status: ReviewStatus }
  | { key: string; fileName: string; ok: false; error: string };

export interface UploadSummary {
  successful: number;
  failed: number;
  /** Tests the server stored, summed over the successful files. */
  testsImported: number;
}

export function summariseOutcomes(outcomes: readonly UploadOutcome[]): UploadSummary {
  const summary: UploadSummary = { successful: 0, failed: 0, testsImported: 0 };
  for (const outcome of outcomes) {
    if (outcome.ok) {
      summary.successful++;
      summary.testsImported += outcome.testsProcessed;
    } else {
      summary.failed++;
    }
  }
  return summary;
}
