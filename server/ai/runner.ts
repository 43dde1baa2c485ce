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
import { JobWorker, wholeBuffer } from '../workers/job-worker.js';

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
  const workerData: AnalysisWorkerData = { location: store.location, statementTimeoutMs: store.dialect === 'postgres' ? store.poolSettings.statementTimeoutMs : 0, evidence: evidence?.reopen ?? null };
  // From the bundle the worker is dist/analysis-worker.js beside this chunk; from source (tests) worker.ts.
  const entry = { source: new URL('./worker.ts', import.meta.url), bundled: new URL('./analysis-worker.js', import.meta.url) };
  const worker = useWorker ? new JobWorker<AnalysisJob, AnalysisReply>({ entry, workerData, what: 'analysis' }) : null;
  const queue = new FairQueue<AiAnalysisResult>(AI_IN_FLIGHT, options.maxWaitingPerCaller, (waiting) => `You have ${waiting} analyses waiting, as many as one caller may; try again when one has answered`);
  const baseLimit = options.timeLimitMs ?? AI_TIME_LIMIT_MS;
  return {
    analyse(caller, input, settings, log, signal) {
      const limitMs = baseLimit + (settings.env ? (modelConfigFrom(settings.env)?.timeoutMs ?? 0) : 0);
      return queue.run(caller, async () => {
        // Its client went away while it waited: nobody would read the answer.
        if (signal?.aborted) throw new HttpError(503, 'The analysis was not run: its client went away');
        const job = { input, settings };
        const reply = worker ? await worker.run(job, limitMs, transferablesOf(job)) : await runAnalysisJob(store, { id: 0, ...job }, evidence);
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

/**
 * The buffers to transfer rather than copy: the body's chunks, and any Uint8Array among the
 * settings (two levels down: traces), each only when it is a view over its whole buffer.
 */
function transferablesOf(job: Omit<AnalysisJob, 'id'>): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const visit = (value: unknown, depth: number) => {
    if (value instanceof Uint8Array) {
      const whole = wholeBuffer(value);
      if (whole) found.add(whole);
    } else if (value && typeof value === 'object' && depth > 0) {
      for (const child of Object.values(value)) visit(child, depth - 1);
    }
  };
  visit(job.input, 2);
  visit(job.settings, 2);
  return [...found];
}
