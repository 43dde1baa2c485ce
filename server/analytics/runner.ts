import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { AnyStore } from '../store/engine/types.js';
import { forgetQuery, forgetStaleTexts, KEPT_ASK_COUNTED_EVERY_MS, KEPT_MAX_ANSWERS, keepAnswer, keptAnswer, noteAsked as markAsked, staleQueries } from '../store/write/kept-answers.js';
import { AnalyticsCache } from './cache.js';
import { ANSWERS_AT_ONCE } from './answers-at-once.js';
import { FairQueue } from './fair-queue.js';
import { today } from './windows.js';
import { answerJson, type QueryArgs, type QueryName } from './queries.js';
import { queryErrorOf } from './query-failure.js';
import type { AnalyticsWorkerData, WorkerReply, WorkerRequest } from './worker.js';
import { sourceBootstrap } from '../workers/job-worker.js';
import { ANALYTICS_THREAD_LIMITS } from './thread-limits.js';

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
  /**
   * Computes again the kept answers people asked for lately whose data has changed since
   * (write/kept-answers.ts), one at a time, as their own caller: how many it computed.
   */
  computeAhead(): Promise<number>;
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The cache key: the query and its arguments, without the clock (windows end on `today`, which
 * the cache version carries). Not the URL: extra query parameters must not buy a caller a fresh
 * cold computation each.
 */
export function queryKey(name: QueryName, args: unknown): string {
  const key = `${name}${JSON.stringify(args, withoutClock)}`;
  // A CI gate's arguments are the failing tests of a whole run: a digest keeps the cache's
  // memory independent of what callers send.
  return key.length > 512 ? `${name}#${createHash('sha256').update(key).digest('hex')}` : key;
}

/** Answers kept in the database across restarts (write/kept-answers.ts): the screens' costly ones. */
const KEPT_QUERIES: ReadonlySet<QueryName> = new Set(['dashboard', 'owners', 'flakyTrends', 'flakyTestsPage', 'slowTests', 'trendDays', 'errorPatterns']);
/** The caller the answers computed ahead wait as: they take turns with real callers' answers. */
const AHEAD = 'computing ahead';

export interface RunnerOptions {
  worker?: boolean;
  /** Keep answers in the database across restarts (default: for a database file or server, not in memory). */
  keep?: boolean;
  /** What computed the answers: a kept answer of other code is not served (default: the built worker's digest). */
  codeVersion?: string;
  /** The clock (the app's): when an answer was asked for, and the day the answers computed ahead end on. */
  now?: () => number;
  /** Where a kept answer that could not be read or written is said (serve's log), and what else the worker warns of: the answer itself is still given. */
  log?: KeptAnswerLog;
  /** SQLite: from how many results of flaky tests the worker reads their days in a thread of its own (episode-thread.ts). */
  episodeThreadFromResults?: number;
}

export interface KeptAnswerLog {
  warn(fields: object, message: string): void;
}

/** One line per kind of failure in this long: a database away for an hour says so a few times, not at every answer. */
export const KEPT_FAILURE_LOG_EVERY_MS = 10 * 60 * 1000;

/**
 * A warning for a kept answer that could not be read, written or noted, at most once per
 * `what` every KEPT_FAILURE_LOG_EVERY_MS: the answer is computed again instead, so the cost of
 * such a failure is speed, which a log is the only way to see.
 */
export function keptFailureLog(log: KeptAnswerLog | undefined, clock: () => number): (what: string, error: unknown) => void {
  const last = new Map<string, number>();
  return (what, error) => {
    if (!log) return;
    const now = clock();
    if (now - (last.get(what) ?? -Infinity) < KEPT_FAILURE_LOG_EVERY_MS) return;
    last.set(what, now);
    log.warn({ error: error instanceof Error ? error.message : String(error) }, `kept answers: ${what}`);
  };
}

/**
 * Cold answers are computed in a worker thread when the store is a file; an in-memory store
 * (no file to share) computes on this thread. Concurrent requests for the same key share one
 * computation, and answers are cached until the data changes (AnalyticsCache). Cold answers
 * wait for the worker in turn per caller (FairQueue), and each caller has a share of the cache.
 * An answer not in memory is looked for in the database before it is computed, and a computed
 * one is kept there (write/kept-answers.ts), under the data's version and the code's.
 */
export function createAnalyticsRunner(store: AnyStore, options: RunnerOptions = {}): AnalyticsRunner {
  const cache = new AnalyticsCache(store);
  const inMemory = store.location === ':memory:' || store.location === '';
  const useWorker = (options.worker ?? true) && !inMemory;
  const keep = options.keep ?? !inMemory;
  // The worker's own pool times its statements out as the server's does.
  const worker = useWorker ? new QueryWorker(store.location, { statementTimeoutMs: store.dialect === 'postgres' ? store.poolSettings.statementTimeoutMs : 0, episodeThreadFromResults: options.episodeThreadFromResults }, options.log) : null;

  // Two in flight: the worker is never idle between answers (on PostgreSQL it computes both at
  // once, worker.ts), and a caller waits behind at most two.
  const queue = new FairQueue(ANSWERS_AT_ONCE);
  const askedNoted = new Map<string, number>();
  const clock = options.now ?? Date.now;
  const failed = keptFailureLog(options.log, clock);
  let aheadOf = '';
  let closed = false;
  /** Keeps under way, by key: computing ahead waits for each before the next. */
  const keeping = new Map<string, Promise<void>>();
  const keptVersion = (dataVersion: string) => `${options.codeVersion ?? builtCodeVersion()}:${dataVersion}`;

  const json: AnalyticsRunner['json'] = (today, name, args, caller = 'server') => {
    const key = queryKey(name, args);
    const kept = keep && KEPT_QUERIES.has(name);
    const query = { key, name, args: JSON.stringify(args, withoutClock) };
    if (kept && caller !== AHEAD) noteAsked(key);
    const computeNow = () => queue.run(caller, () => (worker ? worker.run(name, args) : Promise.resolve().then(() => answerJson(store, name, args))));
    const compute = async (dataVersion: string) => {
      if (!kept) return computeNow();
      const version = keptVersion(dataVersion);
      const found = await keptAnswer(store, key, version).catch((error: unknown) => failed('could not read one; computing it', error));
      if (found !== undefined) return found;
      const answer = await computeNow();
      // Best effort, and never waited for by a caller (one asking while it is computed ahead
      // joins this computation): a store that cannot take it now (a long import holding
      // SQLite's write lock, a read-only file) only means it is computed again next time.
      const current = { sql: cache.signatureSql, signature: dataVersion.slice(dataVersion.indexOf(':') + 1) };
      const written = keepAnswer(store, query, version, answer, caller === AHEAD ? null : clock(), current)
        .catch((error: unknown) => failed('could not keep one; it is computed again when asked', error))
        .finally(() => keeping.get(key) === written && keeping.delete(key));
      keeping.set(key, written);
      return answer;
    };
    return cache.answer(today, key, compute, caller);
  };

  function noteAsked(key: string): void {
    const now = clock();
    if (now - (askedNoted.get(key) ?? 0) < KEPT_ASK_COUNTED_EVERY_MS) return;
    if (askedNoted.size >= KEPT_MAX_ANSWERS * 4) askedNoted.clear();
    askedNoted.set(key, now);
    void markAsked(store, key, now).catch((error: unknown) => failed('could not note an answer as asked for', error));
  }

  return {
    json,
    async computeAhead() {
      if (!keep) return 0;
      const now = clock();
      const day = today(now);
      const version = keptVersion(await cache.versionFor(day));
      await forgetStaleTexts(store, version);
      // Only after a change: looking for stale answers writes, and SQLite's writes take turns.
      if (version === aheadOf) return 0;
      let computed = 0;
      // One at a time: the worker stays free for a real caller's answer beside it.
      for (const query of await staleQueries(store, version, now)) {
        if (closed) return computed;
        const args = argsOf(query.name, query.args, now);
        if (!args) {
          // Kept by another version of the code: not tried again after every change.
          await forgetQuery(store, query.key).catch((error: unknown) => failed('could not forget an answer no build reads', error));
          continue;
        }
        // One that fails for a passing reason (the database away) is computed when asked.
        await json(day, query.name as QueryName, args, AHEAD).then(
          () => computed++,
          // Not said when the server is stopping: the worker's closing fails the answer in flight.
          (error: unknown) => closed || failed('could not compute one ahead; it is computed when asked', error),
        );
        await keeping.get(query.key);
      }
      aheadOf = version;
      return computed;
    },
    async ready() {
      await worker?.ready();
    },
    async close() {
      closed = true;
      await worker?.close();
    },
  };
}

/** A kept query's arguments, with the clock; null for one this code does not keep or cannot read. */
function argsOf(name: string, text: string, now: number): QueryArgs<QueryName> | null {
  if (!(KEPT_QUERIES as ReadonlySet<string>).has(name)) return null;
  try {
    const args: unknown = JSON.parse(text);
    return typeof args === 'object' && args !== null && !Array.isArray(args) ? ({ ...args, now } as QueryArgs<QueryName>) : null;
  } catch {
    return null;
  }
}

/** The clock is not part of a query: windows end on the day the version carries. */
const withoutClock = (key: string, value: unknown) => (key === 'now' ? undefined : value);

/**
 * The code that computes the answers, as a digest of the built analytics worker (its chunks'
 * names are digests of their content, so any change to a query changes it): an upgrade never
 * serves an answer the code before it computed. From source (tests) each process is its own.
 */
let codeVersion: string | undefined;
function builtCodeVersion(): string {
  if (codeVersion === undefined) {
    codeVersion = import.meta.url.endsWith('.ts')
      ? `source-${randomUUID()}`
      : createHash('sha256').update(readFileSync(new URL('./analytics-worker.js', import.meta.url))).digest('hex').slice(0, 16);
  }
  return codeVersion;
}

type Waiters = Map<number, { resolve(value: string): void; reject(error: Error): void }>;

/** One worker thread, started on first use and again after a crash. */
class QueryWorker {
  private current: { worker: Worker; waiting: Waiters; opened: Promise<void> } | null = null;
  private nextId = 1;

  constructor(
    private readonly path: string,
    private readonly settings: Omit<AnalyticsWorkerData, 'path'>,
    private readonly log?: KeptAnswerLog,
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
    const workerData: AnalyticsWorkerData = { path: this.path, ...this.settings };
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(sourceBootstrap(new URL('./worker.ts', import.meta.url)), { eval: true, workerData, resourceLimits: ANALYTICS_THREAD_LIMITS })
      : new Worker(new URL('./analytics-worker.js', import.meta.url), { workerData, resourceLimits: ANALYTICS_THREAD_LIMITS });
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
      if ('warning' in reply) {
        this.log?.warn({}, `analytics: ${reply.warning}`);
        return;
      }
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
