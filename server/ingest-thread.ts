import type { Worker } from 'node:worker_threads';
import type { RunSummary } from '../core/report/normalise.js';
import type { NormalisedTest } from '../core/report/normalised.js';
import type { PwConfig } from '../core/report/playwright-types.js';
import type { AttachmentsMode, FoundFiles, SourceResults } from './evidence/attachment-lookups.js';
import { InvalidReportError } from '../core/report/parse.js';
import { startWorker } from './workers/job-worker.js';

/**
 * Reports at least this large are read in a thread of its own while this one writes. Starting
 * the thread (its bundle loaded, a second heap) and reading a 114 KB report in it took 70 to
 * 95 ms of CPU where reading it inline took 4 to 14 ms (load average 10); the reading it
 * overlaps costs about 20 ms of CPU per MB (the reader thread on the benchmark's reports), so
 * the two break even near 4 MB, and below twice that the gain is too small to be worth a heap.
 */
export const READER_THREAD_MIN_BYTES = 8 * 1024 * 1024;

/** Tests per message: large enough that a message's own cost is small, small enough to keep both threads busy. */
export const READER_BATCH_TESTS = 250;
/**
 * Messages the reader may have sent and the writer not yet taken: the back-pressure that keeps
 * a fast reader from holding the whole report in the writer's heap (a batch of tests with
 * steps is a few hundred KB).
 */
export const READER_MAX_IN_FLIGHT = 16;

/**
 * A test whose attachments are kept, by its place in the batch: its attempts' attachments (what
 * evidence collection reads of the report) and what the reader thread found of their files.
 */
export type SourceAttachments = [index: number, results: SourceResults, found: FoundFiles];

export type ReaderMessage =
  | { kind: 'config'; config: PwConfig }
  | { kind: 'tests'; tests: NormalisedTest[]; sources: SourceAttachments[]; bytesRead: number }
  | { kind: 'end'; run: RunSummary; contentHash: string }
  | { kind: 'error'; error: CarriedError };

/** An error of the reader thread, as it crosses to the writer (an Error's class does not). */
export interface CarriedError {
  name: string;
  message: string;
  code?: string;
  /** InvalidReportError's parts. */
  fileName?: string;
  problem?: string;
}

export interface ReaderData {
  path: string;
  fileName: string;
  /** Look for the files of the attachments kept (evidence collection) and send them with their tests; null: none are. */
  attachments: { reportPath: string; mode: AttachmentsMode } | null;
  /** Int32Array over it: [IN_FLIGHT] messages not yet taken, [STOP] 1 once the writer gives up. */
  control: SharedArrayBuffer;
}

export const IN_FLIGHT = 0;
export const STOP = 1;

let liveThreads = 0;

/** Reader threads started and not yet exited (tests: none is left after an import). */
export function readerThreads(): number {
  return liveThreads;
}

/**
 * The reader thread's side of an import, as the writer takes it: messages in order, one at a
 * time; the first error (the report's, the file's, or the thread's own) is thrown from next().
 * close() ends the thread on every path.
 */
export class ReaderThread {
  private readonly worker: Worker;
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private readonly queue: ReaderMessage[] = [];
  private waiter: { resolve(message: ReaderMessage): void; reject(error: Error): void } | null = null;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(path: string, fileName: string, attachments: ReaderData['attachments']) {
    const data: ReaderData = { path, fileName, attachments, control: this.control.buffer as SharedArrayBuffer };
    // The reader is this import's own work, not a server's background: it keeps its priority.
    this.worker = startWorker({ source: new URL('./workers/import-reader.ts', import.meta.url), bundled: new URL('./import-reader-worker.js', import.meta.url) }, { workerData: data });
    liveThreads++;
    this.exited = new Promise((resolve) => this.worker.once('exit', () => {
      liveThreads--;
      resolve();
    }));
    this.worker.on('message', (message: ReaderMessage) => {
      if (message.kind === 'error') this.fail(carriedError(message.error));
      else if (this.waiter) this.hand(message);
      else this.queue.push(message);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the report's reader thread stopped (exit code ${code}) before the end of ${fileName}`)));
  }

  /** The next message; the reader may send another in its place. */
  next(): Promise<ReaderMessage> {
    const message = this.queue.shift();
    if (message) {
      this.taken();
      return Promise.resolve(message);
    }
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** Ends the thread (done, failed or abandoned) and waits until it is gone. */
  async close(): Promise<void> {
    Atomics.store(this.control, STOP, 1);
    Atomics.notify(this.control, IN_FLIGHT);
    await this.worker.terminate();
    await this.exited;
  }

  private hand(message: ReaderMessage): void {
    const waiter = this.waiter!;
    this.waiter = null;
    this.taken();
    waiter.resolve(message);
  }

  private taken(): void {
    Atomics.sub(this.control, IN_FLIGHT, 1);
    Atomics.notify(this.control, IN_FLIGHT);
  }

  private fail(error: Error): void {
    // The end was handed over already: the exit that follows is the thread's normal end.
    if (this.failure) return;
    this.failure = error;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(error);
  }
}

/** What crosses for an error thrown in the reader thread. */
export function carryError(error: unknown): CarriedError {
  if (error instanceof InvalidReportError) return { name: error.name, message: error.message, fileName: error.fileName, problem: error.problem };
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as NodeJS.ErrnoException).code;
  return { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) };
}

/** The error again on the writer's side, of the class and code the import's messages go by. */
function carriedError(carried: CarriedError): Error {
  if (carried.name === 'InvalidReportError') return new InvalidReportError(carried.fileName!, carried.problem!);
  const error = new Error(carried.message);
  if (carried.code !== undefined) Object.assign(error, { code: carried.code });
  return error;
}
