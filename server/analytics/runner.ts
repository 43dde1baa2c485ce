import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { AnyStore } from '../store/engine/types.js';
import { AnalyticsCache } from './cache.js';
import { ANSWERS_AT_ONCE } from './answers-at-once.js';
import { FairQueue } from './fair-queue.js';
import { answerJson, type QueryArgs, type QueryName } from './queries.js';
import { queryErrorOf } from './query-failure.js';
import type { AnalyticsWorkerData, WorkerReply, WorkerRequest } from './worker.js';
import { sourceBootstrap } from '../workers/job-worker.js';

export interface AnalyticsRunner {
  /**
   * The answer of query `name` as JSON text, from the cache, else computed once however many
   * ask. Text, because a cached answer is then sent as it is: serialising a large dashboard on
   * every request would cost the server's thread more than reading the cache.
   */
  json<N extends QueryName>(today: number, name: N, args: QueryArgs<N>, caller?: string): Promise<string>;
  /**
   * Starts the worker now and waits until its store is open (at once without a worker): a
   * server that does this before it listens does not spend the first cold answer on it.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The cache key: the query and its arguments, without the clock (windows end on `today`, which
 * the cache version carries). Not the URL: extra query parameters must not buy a caller a fresh
 * cold computation each.
 */
export function queryKey(name: QueryName, args: unknown): string {
  const key = `${name}${JSON.stringify(args, (key, value: unknown) => (key === 'now' ? undefined : value))}`;
  // A CI gate's arguments are the failing tests of a whole run: a digest keeps the cache's
  // memory independent of what callers send.
  return key.length > 512 ? `${name}#${createHash('sha256').update(key).digest('hex')}` : key;
}

/**
 * Cold answers are computed in a worker thread when the store is a file; an in-memory store
 * (no file to share) computes on this thread. Concurrent requests for the same key share one
 * computation, and answers are cached until the data changes (AnalyticsCache). Cold answers
 * wait for the worker in turn per caller (FairQueue), and each caller has a share of the cache.
 */
export function createAnalyticsRunner(store: AnyStore, options: { worker?: boolean } = {}): AnalyticsRunner {
  const cache = new AnalyticsCache(store);
  const useWorker = (options.worker ?? true) && store.location !== ':memory:' && store.location !== '';
  // The worker's own pool times its statements out as the server's does.
  const worker = useWorker ? new QueryWorker(store.location, store.dialect === 'postgres' ? store.poolSettings.statementTimeoutMs : 0) : null;

  // Two in flight: the worker is never idle between answers (on PostgreSQL it computes both at
  // once, worker.ts), and a caller waits behind at most two.
  const queue = new FairQueue(ANSWERS_AT_ONCE);

  return {
    json(today, name, args, caller = 'server') {
      const compute = () => queue.run(caller, () => (worker ? worker.run(name, args) : Promise.resolve().then(() => answerJson(store, name, args))));
      return cache.answer(today, queryKey(name, args), compute, caller);
    },
    async ready() {
      await worker?.ready();
    },
    async close() {
      await worker?.close();
    },
  };
}

/**
 * A small young generation for the worker: each cold answer allocates tens of MB that live
 * briefly (the rows of a window scan), and V8 let the default one grow with every answer. Measured
 * on the 50,000-test history, every GET once and then 10 callers each (bench/large-suite): serve's
 * peak resident 307 → 236 MB; the cold answers cost 0–15 % more CPU (8 MB and up kept ~290 MB).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 6 };

type Waiters = Map<number, { resolve(value: string): void; reject(error: Error): void }>;

/** One worker thread, started on first use and again after a crash. */
class QueryWorker {
  private current: { worker: Worker; waiting: Waiters; opened: Promise<void> } | null = null;
  private nextId = 1;

  constructor(
    private readonly path: string,
    private readonly statementTimeoutMs: number,
  ) {}

  run(name: QueryName, args: unknown): Promise<string> {
    const { worker, waiting } = this.current ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Busy, the worker keeps the process alive until it answers; idle, it must not.
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, name, args } satisfies WorkerRequest);
    });
  }

  /**
   * Resolves when the worker has opened its store, or has stopped trying (a worker that cannot
   * open it stops, and the next run() starts another).
   */
  async ready(): Promise<void> {
    const { worker, waiting, opened } = this.current ?? this.start();
    // Held while waiting: nothing else may keep the process alive yet.
    worker.ref();
    await opened;
    if (waiting.size === 0) worker.unref();
  }

  async close(): Promise<void> {
    const current = this.current;
    this.current = null;
    if (current) await current.worker.terminate();
  }

  private start(): { worker: Worker; waiting: Waiters; opened: Promise<void> } {
    // From the bundle the worker is dist/analytics-worker.js beside this chunk; from source
    // (tests) it is worker.ts, loaded through tsx.
    const workerData: AnalyticsWorkerData = { path: this.path, statementTimeoutMs: this.statementTimeoutMs };
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(sourceBootstrap(new URL('./worker.ts', import.meta.url)), { eval: true, workerData, resourceLimits: WORKER_LIMITS })
      : new Worker(new URL('./analytics-worker.js', import.meta.url), { workerData, resourceLimits: WORKER_LIMITS });
    worker.unref();
    // Each worker has its own waiters: a crashed worker's late exit must not fail the requests
    // of the one that replaced it.
    const waiting: Waiters = new Map();
    // Settled by the worker's first word, or by its end: however often ready() asks.
    const opened = new Promise<void>((resolve) => {
      worker.on('message', (reply: WorkerReply) => ('ready' in reply || 'openFailed' in reply) && resolve());
      worker.once('exit', () => resolve());
    });
    const settle = (id: number) => {
      const waiter = waiting.get(id);
      waiting.delete(id);
      if (waiting.size === 0) worker.unref();
      return waiter;
    };
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) return;
      if ('openFailed' in reply) {
        // Its queries fail with the reason (a database that cannot be reached is a 503); the next starts a new worker.
        fail(queryErrorOf(reply.openFailed));
        void worker.terminate();
        return;
      }
      const waiter = settle(reply.id);
      if (!waiter) return;
      if ('failure' in reply) waiter.reject(queryErrorOf(reply.failure));
      else waiter.resolve(reply.json);
    });
    const fail = (error: Error) => {
      if (this.current?.worker === worker) this.current = null;
      for (const id of [...waiting.keys()]) settle(id)?.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the analytics worker stopped (exit code ${code})`)));
    this.current = { worker, waiting, opened };
    return this.current;
  }
}
