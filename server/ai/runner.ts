import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { AiAnalysisResult } from '../../core/api/ai.js';
import { FairQueue } from '../analytics/fair-queue.js';
import { HttpError } from '../errors.js';
import type { AnyStore } from '../store/engine/types.js';
import type { AnalysisSettings } from './analyse.js';
import { analysisErrorOf, runAnalysisJob, type AnalysisInput, type AnalysisJob, type AnalysisReply } from './analysis-job.js';
import { modelConfigFrom } from './model-engine.js';
import type { EvidenceReopen } from '../store/evidence/evidence-store.js';
import type { TraceBlobs } from './load-traces.js';
import type { AnalysisWorkerData } from './worker.js';

/** Analyses sent to the worker at once: while one waits for a model's answer, the next runs. */
export const AI_IN_FLIGHT = 2;
/** The time one analysis may take in the worker, a model's own time limit added when one is configured. */
export const AI_TIME_LIMIT_MS = 30_000;

export interface AiRunner {
  /**
   * One analysis for `caller` (callerKey), waiting its turn among the callers (FairQueue):
   * a caller with many waiting delays another's by at most one of its own per analysis running.
   */
  analyse(caller: string, input: AnalysisInput, settings: AnalysisSettings, log?: Pick<FastifyBaseLogger, 'warn'>, signal?: AbortSignal): Promise<AiAnalysisResult>;
  /** Analyses waiting their turn, all callers together (tests, diagnostics). */
  readonly waiting: number;
  /** Worker threads running now (0 or 1): tests check that close() leaves none. */
  readonly threads: number;
  close(): Promise<void>;
}

export interface AiRunnerOptions {
  /** Run in a worker thread (default: whenever the store is a file or a PostgreSQL database). */
  worker?: boolean;
  timeLimitMs?: number;
  /** Waiting analyses one caller may have (beyond: 429); the route's admission bounds it first. */
  maxWaitingPerCaller?: number;
  /** Where traces are read from: the worker opens the same store (`reopen`); none: no traces. */
  evidence?: TraceBlobs & { reopen?: EvidenceReopen };
}

/**
 * Analyses run in one worker thread (a 2-core machine: one core stays for the server's thread);
 * the body's chunks are handed over as they came, and joined and parsed there. An in-memory store (no file to
 * share) analyses on this thread. Each analysis has a time limit: past it, the worker is ended
 * (the only way to stop a computation) and started again for the next.
 */
export function createAiRunner(store: AnyStore, options: AiRunnerOptions = {}): AiRunner {
  const useWorker = (options.worker ?? true) && store.location !== ':memory:' && store.location !== '';
  const evidence = options.evidence ?? null;
  const worker = useWorker ? new AnalysisWorker({ location: store.location, statementTimeoutMs: store.dialect === 'postgres' ? store.poolSettings.statementTimeoutMs : 0, evidence: evidence?.reopen ?? null }) : null;
  const queue = new FairQueue<AiAnalysisResult>(AI_IN_FLIGHT, options.maxWaitingPerCaller, (waiting) => `You have ${waiting} analyses waiting, as many as one caller may; try again when one has answered`);
  const baseLimit = options.timeLimitMs ?? AI_TIME_LIMIT_MS;
  return {
    analyse(caller, input, settings, log, signal) {
      const limitMs = baseLimit + (settings.env ? (modelConfigFrom(settings.env)?.timeoutMs ?? 0) : 0);
      return queue.run(caller, async () => {
        // Its client went away while it waited: nobody would read the answer.
        if (signal?.aborted) throw new HttpError(503, 'The analysis was not run: its client went away');
        const job = { input, settings };
        const reply = worker ? await worker.run(job, limitMs) : await runAnalysisJob(store, { id: 0, ...job }, evidence);
        for (const [object, message] of reply.warnings) log?.warn(object, message);
        if ('failure' in reply) throw analysisErrorOf(reply.failure);
        return reply.result;
      });
    },
    get waiting() {
      return queue.waiting;
    },
    get threads() {
      return worker?.threads ?? 0;
    },
    async close() {
      await worker?.close();
    },
  };
}

type Waiters = Map<number, { resolve(reply: AnalysisReply): void; reject(error: Error): void; timer: NodeJS.Timeout }>;

/** One worker thread, started on first use and again after a crash or a time limit. */
class AnalysisWorker {
  private current: { worker: Worker; waiting: Waiters } | null = null;
  private nextId = 1;

  constructor(private readonly data: AnalysisWorkerData) {}

  get threads(): number {
    return this.current ? 1 : 0;
  }

  run(job: Omit<AnalysisJob, 'id'>, limitMs: number): Promise<AnalysisReply> {
    const { worker, waiting } = this.current ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Busy, the worker keeps the process alive until it answers; idle, it must not.
      if (waiting.size === 0) worker.ref();
      const timer = setTimeout(() => {
        const limit = limitMs >= 1000 ? `${Math.round(limitMs / 1000)} seconds` : `${limitMs} ms`;
        this.end(worker, new HttpError(503, `The analysis took longer than ${limit} and was stopped; try again later`), id);
      }, limitMs);
      waiting.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...job } satisfies AnalysisJob, transferablesOf(job));
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
    // From the bundle the worker is dist/analysis-worker.js beside this chunk; from source
    // (tests) it is worker.ts, loaded through tsx.
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(sourceBootstrap(new URL('./worker.ts', import.meta.url)), { eval: true, workerData: this.data })
      : new Worker(new URL('./analysis-worker.js', import.meta.url), { workerData: this.data });
    worker.unref();
    // Each worker has its own waiters: a stopped worker's late exit must not fail the analyses of the one that replaced it.
    const waiting: Waiters = new Map();
    worker.on('message', (reply: AnalysisReply) => {
      const waiter = waiting.get(reply.id);
      if (!waiter) return;
      waiting.delete(reply.id);
      clearTimeout(waiter.timer);
      if (waiting.size === 0) worker.unref();
      waiter.resolve(reply);
    });
    worker.on('error', (error) => this.end(worker, error));
    worker.on('exit', (code) => this.end(worker, new HttpError(503, `The analysis stopped (its worker exited with code ${code}); try again in a few seconds`)));
    this.current = { worker, waiting };
    return this.current;
  }

  /**
   * Ends `worker` and fails what it was running: analysis `id` with `error`, any other with a
   * 503 (it was stopped with it). The next analysis starts a new worker.
   */
  private end(worker: Worker, error: Error, id?: number): void {
    const current = this.current?.worker === worker ? this.current : null;
    if (current) this.current = null;
    const waiting = current?.waiting;
    if (waiting) {
      for (const [key, waiter] of waiting) {
        clearTimeout(waiter.timer);
        waiter.reject(id === undefined || key === id ? error : new HttpError(503, 'The analysis was stopped with another that ran past its time limit; try again'));
      }
      waiting.clear();
    }
    void worker.terminate();
  }
}

/**
 * The buffers to transfer rather than copy: the body's chunks, and any Uint8Array among the
 * settings (two levels down: traces). Only a view over its whole buffer is transferred: a small
 * Buffer may be a slice of Node's shared pool, which must not be taken away from this thread.
 */
function transferablesOf(job: Omit<AnalysisJob, 'id'>): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const visit = (value: unknown, depth: number) => {
    if (value instanceof Uint8Array) {
      if (value.buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) found.add(value.buffer);
    } else if (value && typeof value === 'object' && depth > 0) {
      for (const child of Object.values(value)) visit(child, depth - 1);
    }
  };
  visit(job.input, 2);
  visit(job.settings, 2);
  return [...found];
}

// The specifier resolves from the working directory: sources only run inside the checkout.
export function sourceBootstrap(entry: URL): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}
