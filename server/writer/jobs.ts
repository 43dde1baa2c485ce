import { InvalidReportError } from '../../core/report/parse.js';
import { HttpError } from '../errors.js';
import { ingestValue, type IngestResult } from '../ingest.js';
import { databaseTrouble, isReadOnlyTrouble } from '../store/engine/dialect.js';
import { StoreError, type AnyStore } from '../store/engine/types.js';
import { clearAllData, deleteRun, ReviewError, reviewUploads } from '../store/write/uploads.js';
import { whenWritable } from '../store/engine/waiting-driver.js';
import { parseUploadBody, uploadedOwners, type bodyCharset } from '../upload-body.js';
import { resolverOfEntries } from '../evidence/entries.js';
import { checkParseCost } from './parse-cost.js';
import { enqueueAfterCommit } from '../webhooks/enqueue.js';

const warnAlerts = (message: string) => process.stderr.write(`flakeboard: ${message}\n`);

/** The writes the server makes whose cost grows with the data: done by the writer (runner.ts). */
export type WriteJob =
  | { kind: 'upload'; bytes: Uint8Array; charset: ReturnType<typeof bodyCharset>; uploadedBy: number; uploadedVia: string | null }
  | { kind: 'review'; reviews: Array<{ id: number; action: 'approve' | 'reject' }>; reviewerId: number; notes: string | null; secondPerson: boolean }
  | { kind: 'delete'; id: number }
  | { kind: 'clear' };

export interface JobValues {
  upload: IngestResult;
  review: null;
  delete: boolean;
  clear: number;
}

/** A failed job as it crosses the thread boundary: an HTTP status, or the database's code for the error handler. */
export interface JobFailure {
  status: number | null;
  code: string | null;
  /**
   * The database cannot be reached or written (dialect.ts databaseTrouble), said here because
   * not every such error has a code to carry: pg's "Connection terminated unexpectedly" is a
   * message only, and a store that failed to open is a StoreError, whose class does not cross.
   */
  unavailable?: boolean;
  message: string;
}

/** The server is stopping: the job was not done, or was rolled back. A 503: `upload` retries it. */
export class WriterStopped extends HttpError {
  constructor() {
    super(503, 'The server is shutting down: nothing was stored. Send it again once it is back.');
    this.name = 'WriterStopped';
  }
}

export interface JobContext {
  /** True once the server is stopping; checked between batches of rows, so a big write rolls back within a second or so. */
  stopping(): boolean;
  /** How long a job waits for another writer's lock (a CLI import) before it fails as busy. */
  lockWaitMs: number;
  /** The server's upload limit and the memory an upload's parsed JSON may take (runner.ts). */
  uploadLimits?: UploadLimits;
}

export interface UploadLimits {
  maxUploadBytes: number;
  parseBudgetBytes: number;
}

export async function runJob(store: AnyStore, job: WriteJob, context: JobContext): Promise<JobValues[WriteJob['kind']]> {
  const checkStop = () => {
    if (context.stopping()) throw new WriterStopped();
  };
  checkStop();
  // On SQLite each write is one IMMEDIATE transaction: waiting for the lock happens before any
  // change, between attempts, with a look at the stop flag. On PostgreSQL there is no lock to
  // wait for: each write is its own transaction (store.transaction) and runs at once.
  const write = <T>(work: () => T | Promise<T>): Promise<T> =>
    store.dialect === 'sqlite' ? whenWritable(work as () => T, context.lockWaitMs, { pause() {}, resume: async () => checkStop() }) : Promise.resolve().then(work);
  switch (job.kind) {
    case 'upload': {
      const limits = context.uploadLimits;
      const body = parseUploadBody(job.bytes, job.charset, limits && ((text) => checkParseCost(text, limits.parseBudgetBytes, limits.maxUploadBytes)));
      checkStop();
      const { metadata } = body;
      // Normalised and stored a file suite at a time inside one transaction (ingestValue):
      // throwing at a stop rolls it back, nothing half-written.
      const result = await write(() =>
        ingestValue(store, body.report, {
          fileName: body.fileName,
          fileSize: metadata.fileSize ?? null,
          project: metadata.project ?? null,
          gitBranch: metadata.gitBranch ?? null,
          gitCommit: metadata.gitCommit ?? null,
          buildId: metadata.buildId || null,
          buildUrl: metadata.buildUrl || null,
          uploadedBy: job.uploadedBy,
          uploadedVia: job.uploadedVia,
          // Resolved by the client in its checkout: the server reads no file an upload names.
          ownersFor: uploadedOwners(metadata.codeowners),
          onProgress: checkStop,
          ...(metadata.evidence ? { evidence: resolverOfEntries(metadata.evidence) } : {}),
        }),
      );
      // After the commit: the upload's answer waits for a few small queries, never for a receiver.
      if (!result.duplicate) await enqueueAfterCommit(store, result.runId, warnAlerts);
      return result;
    }
    case 'review':
      await write(() => reviewUploads(store, job.reviews, { id: job.reviewerId, notes: job.notes, secondPerson: job.secondPerson }));
      for (const review of job.reviews) if (review.action === 'approve') await enqueueAfterCommit(store, review.id, warnAlerts);
      return null;
    case 'delete':
      return write(() => deleteRun(store, job.id));
    case 'clear':
      return write(() => clearAllData(store));
  }
}

export function failureOf(error: unknown): JobFailure {
  if (error instanceof HttpError) return { status: error.statusCode, code: null, message: error.message };
  if (error instanceof InvalidReportError) return { status: 400, code: null, message: error.message };
  if (error instanceof ReviewError) return { status: error.statusCode, code: null, message: error.message };
  const code = (error as { code?: unknown }).code;
  const failure: JobFailure = { status: null, code: typeof code === 'string' ? code : null, message: (error as Error).stack ?? String(error) };
  if (error instanceof StoreError || databaseTrouble(error) === 'unavailable') {
    failure.unavailable = true;
    // An outage is logged in a line, without a stack (outage-log.ts).
    failure.message = error instanceof Error ? error.message : String(error);
  }
  return failure;
}

/** The error the route throws for a failure: the error handler maps it (400, 409, 503, 507...). */
export function errorOf(failure: JobFailure): Error {
  if (failure.status !== null) return new HttpError(failure.status, failure.message);
  // The error handler answers a StoreError 503 (the outage log shows its first line). A
  // StoreError's own code crosses as the failure's code.
  // A statement timeout keeps its code: the database answers, so it is no outage.
  if (failure.unavailable && failure.code !== '57014') {
    const readOnly = failure.code === 'read-only' || isReadOnlyTrouble({ code: failure.code });
    return new StoreError(failure.message, readOnly ? 'read-only' : 'unavailable');
  }
  const error = new Error(failure.message);
  return failure.code ? Object.assign(error, { code: failure.code }) : error;
}
