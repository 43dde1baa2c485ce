import { Worker } from 'node:worker_threads';
import { HttpError } from '../errors.js';
import type { IngestResult } from '../ingest.js';
import type { AnyStore } from '../store/engine/types.js';
import type { bodyCharset } from '../upload-body.js';
import { errorOf, failureOf, runJob, WriterStopped, type JobValues, type WriteJob } from './jobs.js';
import type { WriterData, WriterReply, WriterRequest } from './worker.js';
import { sourceBootstrap } from '../workers/job-worker.js';

/**
 * Who writes what, and why nothing waits on the server's thread:
 * - Uploads, reviews, deletes and clearing go to one writer worker thread with its own
 *   connection: their cost grows with the data (a 95 MB report is seconds of parsing and
 *   storing), and they may have to wait for a CLI import's write lock. A worker also serialises
 *   them, as SQLite would.
 * - The small bookkeeping writes through Kysely (session touches, sign-in counts, logout) stay
 *   on the server's thread, on a connection with busy_timeout 0: a held lock fails them at once
 *   and they wait asynchronously (store/engine/waiting-driver.ts), so reads and /api/health go on.
 * - Stopping sets a shared flag that the worker checks between batches of rows: the job in
 *   progress throws inside its transaction (rolled back), queued jobs are refused, then the
 *   worker is terminated if it has not finished within a few seconds.
 */
export interface Writer {
  /** `uploadedVia`: the API token's 'token NAME' when one was used, else null (a browser session). */
  upload(bytes: Uint8Array, charset: ReturnType<typeof bodyCharset>, uploadedBy: number, uploadedVia?: string | null): Promise<IngestResult>;
  /** `secondPerson`: refuse to approve an upload of the reviewer's own (the admin setting). */
  review(reviews: Array<{ id: number; action: 'approve' | 'reject' }>, reviewerId: number, notes: string | null, secondPerson?: boolean): Promise<void>;
  deleteRun(id: number): Promise<boolean>;
  clearAll(): Promise<number>;
  /** Refuses new work, rolls back the job in progress, and ends the worker. */
  stop(): Promise<void>;
}

/** How long a write waits for another process's lock before answering 503. */
export const LOCK_WAIT_MS = 120_000;
/** After a stop, how long the worker may take to roll back before it is terminated. */
const STOP_GRACE_MS = 3_000;

/**
 * Uploads waiting for the writer, and their bytes, at most: each waits in memory until its turn,
 * so beyond this the server answers 503 (which `flakeboard upload` retries) instead of growing
 * without bound while one big upload is stored.
 */
export const MAX_QUEUED_UPLOADS = 64;
export const MAX_QUEUED_UPLOAD_BYTES = 768 * 1024 * 1024;
/** The server's default upload limit (app.ts DEFAULT_BODY_LIMIT), when none is given. */
const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/**
 * The writer's heap, from the largest upload: a real report is stored within a few times its
 * size (a 25 MB one within 80 MB), so this leaves room for ten times. JSON made to be costly
 * (a 20 MB body of "{}," needs over 800 MB) is refused before it is parsed, when its parsed
 * form would take more than half of this (parse-cost.ts): JSON.parse cannot be stopped, and a
 * worker out of memory inside it ends the whole process. The limit itself is the backstop for
 * the rest: V8 ends the worker alone, its job is answered 413, the next starts a new worker.
 */
export function writerHeapMb(maxUploadBytes: number): number {
  return 128 + Math.ceil((10 * maxUploadBytes) / (1024 * 1024));
}

export function createWriter(
  store: AnyStore,
  options: { worker?: boolean; lockWaitMs?: number; maxQueuedUploads?: number; maxQueuedBytes?: number; maxUploadBytes?: number } = {},
): Writer {
  const lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const maxUploads = options.maxQueuedUploads ?? MAX_QUEUED_UPLOADS;
  const maxBytes = options.maxQueuedBytes ?? MAX_QUEUED_UPLOAD_BYTES;
  const queued = { uploads: 0, bytes: 0 };
  const useWorker = (options.worker ?? true) && (store.dialect === 'postgres' || (store.path !== ':memory:' && store.path !== ''));
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const stopping = () => Atomics.load(flag, 0) === 1;
  const uploadLimits = { maxUploadBytes, parseBudgetBytes: (writerHeapMb(maxUploadBytes) / 2) * 1024 * 1024 };
  // The writer's own pool is opened as the server's.
  const pool = store.dialect === 'postgres' ? store.poolSettings : undefined;
  const worker = useWorker ? new WriterThread({ location: store.location, stop: flag.buffer as SharedArrayBuffer, lockWaitMs, uploadLimits, ...(pool ? { pool } : {}) }, maxUploadBytes) : null;
  // Without a file to share (an in-memory store), the jobs run here, one at a time.
  let inline: Promise<unknown> = Promise.resolve();
  const run = <K extends WriteJob['kind']>(job: Extract<WriteJob, { kind: K }>, transfer: ArrayBuffer[] = []): Promise<JobValues[K]> => {
    if (stopping()) return Promise.reject(new WriterStopped());
    if (worker) return worker.run(job, transfer) as Promise<JobValues[K]>;
    const next = inline.then(() => runJob(store, job, { stopping, lockWaitMs, uploadLimits }).catch((error: unknown) => Promise.reject(errorOf(failureOf(error)))));
    inline = next.catch(() => {});
    return next as Promise<JobValues[K]>;
  };
  return {
    upload(bytes, charset, uploadedBy, uploadedVia = null) {
      const size = bytes.byteLength;
      if (queued.uploads >= maxUploads || queued.bytes + size > maxBytes) {
        return Promise.reject(new HttpError(503, `The server is busy storing ${queued.uploads} other upload(s); nothing was stored, try again in a minute`));
      }
      queued.uploads += 1;
      queued.bytes += size;
      // Handed over, not copied, when the bytes own their buffer (a big body always does).
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
      return run({ kind: 'upload', bytes: own, charset, uploadedBy, uploadedVia }, [own.buffer as ArrayBuffer]).finally(() => {
        queued.uploads -= 1;
        queued.bytes -= size;
      });
    },
    review: async (reviews, reviewerId, notes, secondPerson = false) => void (await run({ kind: 'review', reviews, reviewerId, notes, secondPerson })),
    deleteRun: (id) => run({ kind: 'delete', id }),
    clearAll: () => run({ kind: 'clear' }),
    async stop() {
      Atomics.store(flag, 0, 1);
      await worker?.stop();
    },
  };
}

type Waiters = Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;

/** One worker thread, started on first use and again after a crash. */
class WriterThread {
  private current: { worker: Worker; waiting: Waiters } | null = null;
  private nextId = 1;

  constructor(
    private readonly data: WriterData,
    private readonly maxUploadBytes: number,
  ) {}

  run(job: WriteJob, transfer: ArrayBuffer[]): Promise<unknown> {
    const { worker, waiting } = this.current ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Busy, the worker keeps the process alive until it answers; idle, it must not.
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, job } satisfies WriterRequest, transfer);
    });
  }

  async stop(): Promise<void> {
    const current = this.current;
    if (!current) return;
    if (current.waiting.size > 0) {
      // The flag is set: the job in progress rolls back at its next batch of rows, queued ones are refused.
      const drained = new Promise<void>((resolve) => current.worker.on('message', () => current.waiting.size === 0 && resolve()));
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    }
    this.current = null;
    // Terminating mid-transaction loses nothing either: SQLite rolls back a transaction whose connection goes.
    await current.worker.terminate();
  }

  private start(): { worker: Worker; waiting: Waiters } {
    // From the bundle the worker is dist/writer-worker.js beside this chunk; from source
    // (tests) it is worker.ts, loaded through tsx.
    const heapMb = writerHeapMb(this.maxUploadBytes);
    const settings = { workerData: this.data, resourceLimits: { maxOldGenerationSizeMb: heapMb } };
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(sourceBootstrap(new URL('./worker.ts', import.meta.url)), { eval: true, ...settings })
      : new Worker(new URL('./writer-worker.js', import.meta.url), settings);
    worker.unref();
    const waiting: Waiters = new Map();
    const settle = (id: number) => {
      const waiter = waiting.get(id);
      waiting.delete(id);
      if (waiting.size === 0) worker.unref();
      return waiter;
    };
    worker.on('message', (reply: WriterReply) => {
      const waiter = settle(reply.id);
      if (!waiter) return;
      if ('failure' in reply) waiter.reject(errorOf(reply.failure));
      else waiter.resolve(reply.value);
    });
    const fail = (error: Error, queued: Error = error) => {
      if (this.current?.worker === worker) this.current = null;
      // One job at a time, in order: the first waiting is the one the worker was doing.
      [...waiting.keys()].forEach((id, i) => settle(id)?.reject(i === 0 ? error : queued));
    };
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY') return fail(error);
      const mb = Math.round(this.maxUploadBytes / (1024 * 1024));
      fail(
        new HttpError(413, `Storing this upload needed more memory than the writer may use (${heapMb} MB for uploads up to ${mb} MB): nothing was stored. A real report takes a few times its size; JSON this costly to read (millions of tiny objects) is refused. If it is a real report, raise --body-limit.`),
        new HttpError(503, 'The server restarted its writer while this upload waited: nothing was stored, send it again'),
      );
    });
    const stopFlag = new Int32Array(this.data.stop);
    worker.on('exit', (code) => fail(Atomics.load(stopFlag, 0) === 1 ? new WriterStopped() : new Error(`the writer worker stopped (exit code ${code})`)));
    this.current = { worker, waiting };
    return this.current;
  }
}
