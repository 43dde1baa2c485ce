import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { HttpError } from '../errors.js';

/** Where the test run's global setup put the worker entries bundled from source (fixtures/testing/worker-bundles.ts). */
export const WORKER_BUNDLES_ENV = 'FLAKEBOARD_TEST_WORKER_BUNDLES';
const SOURCE_ROOT = new URL('../../', import.meta.url);

/**
 * The code of a worker thread run from source (tests): the bundle of its TypeScript entry the
 * test run made from the checkout at its start, else the entry loaded through tsx (about a
 * second of CPU per thread). The specifier resolves from the working directory: sources only
 * run inside the checkout.
 */
export function sourceBootstrap(entry: URL): string {
  const bundles = process.env[WORKER_BUNDLES_ENV];
  if (bundles && entry.href.startsWith(SOURCE_ROOT.href)) {
    const bundle = pathToFileURL(join(bundles, fileURLToPath(entry).slice(fileURLToPath(SOURCE_ROOT).length).replace(/\.ts$/, '.mjs')));
    if (existsSync(bundle)) return `import(${JSON.stringify(bundle.href)});`;
  }
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

/** A worker's entry: `source` (a .ts file, run through tsx) when this module runs from source, else `bundled` (dist/). */
export function startWorker(entry: { source: URL; bundled: URL }, options: WorkerOptions = {}): Worker {
  return import.meta.url.endsWith('.ts') ? new Worker(sourceBootstrap(entry.source), { ...options, eval: true }) : new Worker(entry.bundled, options);
}

export interface JobWorkerOptions {
  entry: { source: URL; bundled: URL };
  workerData?: unknown;
  /** What the thread does, for its errors: "analysis", "comparison". */
  what: string;
}

type Waiters<Reply> = Map<number, { resolve(reply: Reply): void; reject(error: Error): void; timer: NodeJS.Timeout }>;

/**
 * One worker thread for jobs answered by id, started on first use and again after a crash or a
 * time limit: past its limit a job's worker is ended (the only way to stop a computation), and
 * the jobs it held with it. Kept unreferenced while idle, so it never holds the process open.
 */
export class JobWorker<Job extends { id: number }, Reply extends { id: number }> {
  private current: { worker: Worker; waiting: Waiters<Reply> } | null = null;
  private nextId = 1;

  constructor(private readonly options: JobWorkerOptions) {}

  get threads(): number {
    return this.current ? 1 : 0;
  }

  /** Sends `job` (its buffers in `transfer` moved, not copied) and waits for the reply with its id. */
  run(job: Omit<Job, 'id'>, limitMs: number, transfer: ArrayBuffer[] = []): Promise<Reply> {
    const { worker, waiting } = this.current ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Busy, the worker keeps the process alive until it answers; idle, it must not.
      if (waiting.size === 0) worker.ref();
      const timer = setTimeout(() => {
        const limit = limitMs >= 1000 ? `${Math.round(limitMs / 1000)} seconds` : `${limitMs} ms`;
        this.end(worker, new HttpError(503, `The ${this.options.what} took longer than ${limit} and was stopped; try again later`), id);
      }, limitMs);
      waiting.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...job }, transfer);
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

  private start(): { worker: Worker; waiting: Waiters<Reply> } {
    const worker = startWorker(this.options.entry, { workerData: this.options.workerData });
    worker.unref();
    // Each worker has its own waiters: a stopped worker's late exit must not fail the jobs of the one that replaced it.
    const waiting: Waiters<Reply> = new Map();
    worker.on('message', (reply: Reply) => {
      const waiter = waiting.get(reply.id);
      if (!waiter) return;
      waiting.delete(reply.id);
      clearTimeout(waiter.timer);
      if (waiting.size === 0) worker.unref();
      waiter.resolve(reply);
    });
    worker.on('error', (error) => this.end(worker, error));
    worker.on('exit', (code) => this.end(worker, new HttpError(503, `The ${this.options.what} stopped (its worker exited with code ${code}); try again in a few seconds`)));
    this.current = { worker, waiting };
    return this.current;
  }

  /**
   * Ends `worker` and fails what it was running: job `id` with `error`, any other with a 503
   * (it was stopped with it). The next job starts a new worker.
   */
  private end(worker: Worker, error: Error, id?: number): void {
    const current = this.current?.worker === worker ? this.current : null;
    if (current) this.current = null;
    const waiting = current?.waiting;
    if (waiting) {
      for (const [key, waiter] of waiting) {
        clearTimeout(waiter.timer);
        waiter.reject(id === undefined || key === id ? error : new HttpError(503, `The ${this.options.what} was stopped with another that ran past its time limit; try again`));
      }
      waiting.clear();
    }
    void worker.terminate();
  }
}

/** Only a view over its whole buffer is transferred: a small Buffer may be a slice of Node's shared pool, which must not be taken from this thread. */
export function wholeBuffer(view: Uint8Array): ArrayBuffer | null {
  return view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? view.buffer : null;
}
