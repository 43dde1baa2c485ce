import { createHash } from 'node:crypto';
import { normaliseReport } from '../core/report/normalise.js';
import { checkReport, parseReportBytes } from '../core/report/parse.js';
import type { PwReport } from '../core/report/playwright-types.js';
import { emitCanonicalContent } from '../core/report/canonical.js';
import type { NormalisedRun, RunCounts } from '../core/report/normalised.js';
import type { Store } from './store/open.js';
import { writeRun, type RunToStore } from './store/write-run.js';

/** What the importer needs besides the report: the same for the CLI and POST /api/upload. */
export interface IngestOptions {
  fileName: string;
  fileSize?: number | null;
  /** Flags or form fields; a report's own metadata fills what they leave out. */
  project?: string | null;
  gitBranch?: string | null;
  gitCommit?: string | null;
  /** Used when neither the flags nor the report name a branch or commit (CI env, git). */
  fallbackGit?: () => { branch: string | null; commit: string | null };
  fallbackStartedAt?: number;
  approve?: boolean;
  uploadedBy?: number | null;
  onProgress?: (stored: number, total: number) => void;
}

export interface IngestResult extends RunCounts {
  runId: number;
  duplicate: boolean;
  duplicateOf: number | null;
  browser: string;
  project: string | null;
  loadFailed: boolean;
  loadError: string | null;
}

/** Imports report bytes as read from a file (any encoding decodeReportBytes knows). */
export function ingestBytes(store: Store, bytes: Uint8Array, options: IngestOptions): IngestResult {
  const report = parseReportBytes(bytes, options.fileName, decodeUtf8);
  return ingestReport(store, report, { ...options, fileSize: options.fileSize ?? bytes.length });
}

const decodeUtf8 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** Imports an already-parsed value (an upload body's testResults), checked first. */
export function ingestValue(store: Store, value: unknown, options: IngestOptions): IngestResult {
  return ingestReport(store, checkReport(value, options.fileName), options);
}

function ingestReport(store: Store, report: PwReport, options: IngestOptions): IngestResult {
  return storePrepared(store, prepareIngest(report, options));
}

/** A report made ready to store: everything but the write, so a write can wait and be retried. */
export interface PreparedIngest {
  input: RunToStore;
  summary: Omit<IngestResult, 'runId' | 'duplicate' | 'duplicateOf'>;
}

export function prepareIngest(report: PwReport, options: IngestOptions): PreparedIngest {
  const run = normaliseReport(report);
  let gitBranch = options.gitBranch || run.git.branch;
  let gitCommit = options.gitCommit || run.git.commit;
  if ((!gitBranch || !gitCommit) && options.fallbackGit) {
    const fallback = options.fallbackGit();
    gitBranch ||= fallback.branch;
    gitCommit ||= fallback.commit;
  }
  const project = options.project || run.detected.project;
  return {
    input: {
      run,
      fileName: options.fileName,
      fileSize: options.fileSize ?? null,
      contentHash: hashRun(run),
      fallbackStartedAt: options.fallbackStartedAt ?? Date.now(),
      project,
      gitBranch: gitBranch ?? null,
      gitCommit: gitCommit ?? null,
      approve: options.approve ?? false,
      uploadedBy: options.uploadedBy ?? null,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
    summary: {
      ...run.counts,
      browser: run.detected.browser,
      project,
      loadFailed: run.loadFailed,
      loadError: run.loadFailed ? (run.errors[0]?.summary ?? null) : null,
    },
  };
}

/** One transaction (writeRun): stored whole or not at all. */
export function storePrepared(store: Store, prepared: PreparedIngest): IngestResult {
  const stored = writeRun(store, prepared.input);
  return { ...prepared.summary, runId: stored.runId, duplicate: stored.duplicate, duplicateOf: stored.duplicateOf };
}

/** SHA-256 of the report's canonical content (core/report/canonical.ts): duplicates. */
export function hashRun(run: NormalisedRun): string {
  const hash = createHash('sha256');
  emitCanonicalContent(run, (text) => hash.update(text));
  return hash.digest('hex');
}
