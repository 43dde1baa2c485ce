/**
 * One analysis as the analysis worker runs it (worker.ts), or the server's thread when there is
 * no worker (an in-memory store): the body's bytes decoded, parsed and checked, then
 * analyseTest with the thread's own store, fetch and clock. Also how its failure crosses the
 * thread boundary keeping its status code (an Error's class does not cross).
 */
import type { AiAnalysisRequest, AiAnalysisResult } from '../../core/api/ai.js';
import { HttpError } from '../errors.js';
import { queryErrorOf, queryFailureOf, type QueryFailure } from '../analytics/query-failure.js';
import type { AnyStore } from '../store/engine/types.js';
import { normaliseBrowserName } from '../../core/browsers.js';
import { analyseTest, type AnalysisSettings } from './analyse.js';
import { loadTraces, type TraceBlobs } from './load-traces.js';
import { parseAnalysisRequest, type BodyCharset } from './request-body.js';

/** The body as it came, in its chunks (joined and parsed where the analysis runs), or a request built by the caller (MCP). */
export type AnalysisInput = { chunks: Uint8Array[]; charset: BodyCharset } | { request: AiAnalysisRequest };

export interface AnalysisJob {
  id: number;
  input: AnalysisInput;
  settings: AnalysisSettings;
}

/** What the engine logged (a model that failed), passed to the request's log by the server. */
export type Warning = [object: unknown, message: string | undefined];

export interface AnalysisFailure extends QueryFailure {
  /** An HttpError's status (a bad body is 400); null for anything else. */
  status: number | null;
}

export type AnalysisReply = { id: number; result: AiAnalysisResult; warnings: Warning[] } | { id: number; failure: AnalysisFailure; warnings: Warning[] };

/**
 * `evidence`: where the failing attempt's trace is read from (load-traces.ts), in this thread;
 * none: the analysis reads no trace.
 */
export async function runAnalysisJob(store: AnyStore, job: AnalysisJob, evidence: TraceBlobs | null = null): Promise<AnalysisReply> {
  const warnings: Warning[] = [];
  const log = { warn: (object: unknown, message?: string) => void warnings.push([object, message]) } as Parameters<typeof analyseTest>[1]['log'];
  try {
    const request = 'chunks' in job.input ? parseAnalysisRequest(Buffer.concat(job.input.chunks), job.input.charset) : job.input.request;
    const file = request.recentResults.find((r) => r.testFile)?.testFile ?? null;
    const traces = evidence ? await loadTraces(store, evidence, { title: request.testSummary.testTitle, file, browser: normaliseBrowserName(request.testSummary.browser) }) : undefined;
    const result = await analyseTest(request, { ...job.settings, store, fetch: globalThis.fetch, now: Date.now, log, traces });
    return { id: job.id, result, warnings };
  } catch (error) {
    return { id: job.id, failure: analysisFailureOf(error), warnings };
  }
}

export function analysisFailureOf(error: unknown): AnalysisFailure {
  if (error instanceof HttpError) return { status: error.statusCode, message: error.message, code: null, unavailable: false };
  return { status: null, ...queryFailureOf(error) };
}

/** The error the route throws for a failure: the error handler maps it (400, 503 for a database that cannot be reached...). */
export function analysisErrorOf(failure: AnalysisFailure): Error {
  if (failure.status !== null) return new HttpError(failure.status, failure.message);
  const error = queryErrorOf(failure);
  if (!failure.unavailable) error.message = `analysis failed: ${failure.message}`;
  return error;
}
