import type { FastifyBaseLogger } from 'fastify';
import type { AiAnalysisRequest, AiAnalysisResult } from '../../core/api/ai.js';
import type { AnyStore } from '../store/engine/types.js';
import { gatherEvidence } from './evidence.js';
import { loadTestHistory } from '../store/read/test-history.js';
import { analyseLocally } from './local-engine.js';
import { askModel, modelConfigFrom } from './model-engine.js';
import { readSignals } from './signals.js';
import type { AnalysisTraces } from './trace-reading.js';

export interface AnalyseOptions {
  store: AnyStore;
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /**
   * The latest failing attempt's trace (and its passing retry's), as bytes the caller loaded
   * under a cap: plain data, read inside the analysis, so the call can cross a thread boundary.
   */
  traces?: AnalysisTraces;
}

/**
 * What a caller says of one analysis: the options without what the running thread supplies (its
 * store, fetch, clock and log). Plain data only, no functions: it crosses to the analysis worker
 * by structured clone, whole (Uint8Arrays in it are transferred).
 */
export type AnalysisSettings = Omit<AnalyseOptions, 'store' | 'fetch' | 'now' | 'log'>;

/**
 * One analysis: the stored history plus what the UI sent, read by the local rules; then, when
 * a model is configured, the model with those findings as evidence, the local answer standing
 * in whenever the model fails.
 */
export async function analyseTest(request: AiAnalysisRequest, options: AnalyseOptions): Promise<AiAnalysisResult> {
  const started = options.now();
  const file = request.recentResults.find((r) => r.testFile)?.testFile ?? null;
  const history = await loadTestHistory(options.store, { title: request.testSummary.testTitle, file });
  const evidence = gatherEvidence(request, history, options.traces);
  const signals = readSignals(evidence);
  const local = analyseLocally(evidence, signals);
  const config = modelConfigFrom(options.env);
  const fromModel = config ? await askModel({ config, fetch: options.fetch, log: options.log, request, evidence, signals, local }) : null;
  const finished = options.now();
  const stamp = { timestamp: new Date(finished).toISOString(), generatedInMs: Math.max(0, finished - started) };
  // The cause class and its evidence are the local diagnosis's: the model words the answer, the rules decide the class.
  const diagnosis = { causeClass: local.causeClass, evidence: local.evidence, stability: local.stability, stabilityText: local.stabilityText };
  return fromModel && config ? { ...fromModel, ...diagnosis, ...stamp, engine: 'model', model: config.model } : { ...local, ...stamp, engine: 'local' };
}
