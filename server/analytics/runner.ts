import { Worker } from 'node:worker_threads';
import type { Store } from '../store/open.js';
import { AnalyticsCache } from './cache.js';
import { answerJson, type QueryArgs, type QueryName } from './queries.js';
import type { WorkerReply, WorkerRequest } from './worker.js';

export interface AnalyticsRunner {
  /**
   * The answer for `key` (the request URL) as JSON text, from the cache, else computed once
   * however many ask. Text, because a cached answer is then sent as it is: serialising a large
   * dashboard on every request would cost the server's thread more than reading the cache.
   */
  json<N extends QueryName>(key: string, today: number, name: N, args: QueryArgs<N>): Promise<string>;
  close(): Promise<void>;
}


/**
 * Cold answers are computed in a worker thread when the store is a file; an in-memory store
 * (no file to share) computes on this thread. Concurrent requests for the same key share one
 * computation, and answers are cached until the data changes (AnalyticsCache).
 */
export function createAnalyticsRunner(store: Store, options: { worker?: boolean } = {}): AnalyticsRunner {
  const cache = new AnalyticsCache(store);
  const inFlight = new Map<string, Promise<unknown>>();
  const useWorker = (options.worker ?? true) && store.path !== ':memory:' && store.path !== '';
  const worker = useWorker ? new QueryWorker(store.path) : null;

  return {
    async json(key, today, name, args) {
      const version = cache.versionFor(today);
      const cached = cache.lookup(version, key);
      if (cached.hit) return cached.value as string;
      const flightKey = `${version}\n${key}`;
      let pending = inFlight.get(flightKey);
      if (!pending) {
        pending = (worker ? worker.run(name, args) : Promise.resolve().then(() => answerJson(store, name, args)))
          .then((value) => {
            cache.keep(version, key, value);
            return value;
          })
          .finally(() => inFlight.delete(flightKey));
        inFlight.set(flightKey, pending);
      }
      return pending as Promise<string>;
    },
    async close() {
      await worker?.close();
    },
  };
}

/** One worker thread, started on first use and again after a crash. */
class QueryWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(value: string): void; reject(error: Error): void }>();

  constructor(private readonly path: string) {}

  run(name: QueryName, args: unknown): Promise<string> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, name, args } satisfies WorkerRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    // From the bundle the worker is dist/analytics-worker.js beside this chunk; from source
    // (tests) it is worker.ts, loaded through tsx.
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(sourceBootstrap(new URL('./worker.ts', import.meta.url)), { eval: true, workerData: { path: this.path } })
      : new Worker(new URL('./analytics-worker.js', import.meta.url), { workerData: { path: this.path } });
    // Idle, the worker must not keep the process alive (a CLI command that built an app exits).
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if ('error' in reply) waiter.reject(new Error(`analytics query failed: ${reply.error}`));
      else waiter.resolve(reply.json);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the analytics worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** Running from TypeScript sources (tests): register tsx in the worker, then load the entry. */
// The specifier resolves from the working directory: sources only run inside the checkout.
function sourceBootstrap(entry: URL): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}
