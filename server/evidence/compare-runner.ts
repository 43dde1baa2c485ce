import { Worker } from 'node:worker_threads';
import type { ZipCaps } from '../../core/trace/capped-zip.js';
import { sourceBootstrap } from '../ai/runner.js';
import { HttpError } from '../errors.js';
import type { CompareJob, CompareReply, TraceRead } from './compare-job.js';

/** The time reading two traces may take in the worker; past it the worker is ended and started again. */
export const COMPARE_TIME_LIMIT_MS = 20_000;

type Waiters = Map<number, { resolve(reads: [TraceRead, TraceRead]): void; reject(error: Error): void; timer: NodeJS.Timeout }>;

/**
 * One worker thread for the comparisons of the whole process, started on first use (and again
 * after a crash or a time limit), kept unreferenced while idle so it never holds the process.
 * The zips' bytes are transferred, not copied.
 */
class CompareWorker {
  private current: { worker: Worker; waiting: Waiters } | null = null;
  private nextId = 1;

  get threads(): number {
    return this.current ? 1 : 0;
  }

  read(traces: [Uint8Array, Uint8Array], caps: ZipCaps, limitMs = COMPARE_TIME_LIMIT_MS): Promise<[TraceRead, TraceRead]> {
    const { worker, waiting } = this.current ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      const timer = setTimeout(() => this.end(worker, new HttpError(503, `Reading the two traces took longer than ${Math.round(limitMs / 1000)} seconds and was stopped; try again later`)), limitMs);
      waiting.set(id, { resolve, reject, timer });
      worker.postMessage({ id, traces, caps } satisfies CompareJob, transferables(traces));
    });
  }

  async close(): Promise<void> {
    const current = this.current;
    this.current = null;
    if (current) {
      for (const waiter of current.waiting.values()) clearTimeout(waiter.timer);
      await current.worker.terminate();
    }
  }

  private start(): { worker: Worker; waiting: Waiters } {
    // From the bundle the worker is dist/compare-worker.js beside this chunk; from source (tests) compare-worker.ts through tsx.
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(sourceBootstrap(new URL('./compare-worker.ts', import.meta.url)), { eval: true })
      : new Worker(new URL('./compare-worker.js', import.meta.url));
    worker.unref();
    const waiting: Waiters = new Map();
    worker.on('message', (reply: CompareReply) => {
      const waiter = waiting.get(reply.id);
      if (!waiter) return;
      waiting.delete(reply.id);
      clearTimeout(waiter.timer);
      if (waiting.size === 0) worker.unref();
      if ('failure' in reply) waiter.reject(new Error(`The traces could not be read: ${reply.failure}`));
      else waiter.resolve(reply.reads);
    });
    worker.on('error', (error) => this.end(worker, error));
    worker.on('exit', (code) => this.end(worker, new HttpError(503, `The comparison stopped (its worker exited with code ${code}); try again in a few seconds`)));
    this.current = { worker, waiting };
    return this.current;
  }

  /** Ends `worker` and fails everything it was reading; the next comparison starts a new one. */
  private end(worker: Worker, error: Error): void {
    const current = this.current?.worker === worker ? this.current : null;
    if (current) {
      this.current = null;
      for (const waiter of current.waiting.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(error);
      }
      current.waiting.clear();
    }
    void worker.terminate();
  }
}

/** Only a view over its whole buffer is transferred: a small Buffer may share Node's pool with others. */
function transferables(traces: Uint8Array[]): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  for (const t of traces) if (t.buffer instanceof ArrayBuffer && t.byteOffset === 0 && t.byteLength === t.buffer.byteLength) found.add(t.buffer);
  return [...found];
}

export const compareWorker = new CompareWorker();
