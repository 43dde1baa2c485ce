/**
 * What `flakeboard prune --json` prints, and how a prune that `serve --prune-older-than` started
 * is told apart: shared by the command (cli/commands/prune.ts) and the schedule that runs it as
 * a child process and logs its answer (cli/prune-schedule.ts).
 */

/** Set for the prunes serve starts: their audit entry's actor is the server (kind system). */
export const SCHEDULED_ENV = 'FLAKEBOARD_PRUNE_SCHEDULED';

export interface PruneSummary {
  before: string;
  dryRun: boolean;
  runs: number;
  results: number;
  attempts: number;
  tests: number;
  days: number;
  /** Audit trail entries older than the cut: kept as long as the runs. */
  auditEntries: number;
  bytesEstimate: number;
  /** Bytes given back to the disk (incremental_vacuum or VACUUM). */
  reclaimedBytes: number;
  /** Bytes still free inside the file afterwards. */
  freeBytes: number;
  vacuum: 'incremental' | 'full' | 'none';
  /** Evidence blobs no run names any more, removed with their runs. */
  evidenceRemoved: { blobs: number; bytes: number };
  /** Evidence dropped to keep within --evidence-max-size. */
  evidenceDropped: { blobs: number; bytes: number };
}
