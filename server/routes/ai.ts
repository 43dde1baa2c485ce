import type { FastifyInstance } from 'fastify';
import { AI_REQUEST_LIMITS as LIMITS, type AiAnalysisRequest, type AiAnalysisResult } from '../../core/api/ai.js';
import { analyseTest } from '../ai/analyse.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { HttpError } from '../errors.js';
import { callerOf } from '../plugins/authenticate.js';
import type { Store } from '../store/open.js';

const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;

const analysisBody = {
  type: 'object',
  required: ['testSummary', 'recentResults'],
  properties: {
    testSummary: {
      type: 'object',
      required: ['testTitle', 'browser'],
      properties: {
        testTitle: { type: 'string', minLength: 1, maxLength: LIMITS.title },
        browser: { type: 'string', minLength: 1, maxLength: LIMITS.browser },
        passRate: { type: 'number', minimum: 0, maximum: 100, default: 0 },
        totalRuns: { type: 'integer', minimum: 0, default: 0 },
        failedRuns: { type: 'integer', minimum: 0, default: 0 },
      },
    },
    recentResults: {
      type: 'array',
      maxItems: LIMITS.recentResults,
      items: {
        type: 'object',
        required: ['status'],
        properties: {
          status: { enum: ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'] },
          duration: { anyOf: [{ type: 'number' }, { type: 'string', maxLength: 30 }, { type: 'null' }] },
          errorMessage: optionalText(LIMITS.errorMessage),
          errorLocation: optionalText(LIMITS.shortText),
          errorStack: optionalText(LIMITS.errorStack),
          codeSnippet: optionalText(LIMITS.codeSnippet),
          testSteps: optionalText(LIMITS.testSteps),
          testFile: optionalText(LIMITS.shortText),
          runDate: optionalText(100),
        },
      },
    },
  },
} as const;

const recommendationSchema = {
  anyOf: [
    { type: 'string' },
    { type: 'object', required: ['title', 'description'], properties: { title: { type: 'string' }, description: { type: 'string' }, codeExample: { type: 'string' } } },
  ],
} as const;

const analysisResponse = {
  type: 'object',
  properties: {
    patterns: { type: 'array', items: { type: 'string' } },
    rootCause: { type: 'string' },
    recommendations: { type: 'array', items: recommendationSchema },
    browserNotes: { type: 'string' },
    confidence: { type: 'number' },
    timestamp: { type: 'string' },
    engine: { type: 'string' },
    model: { type: 'string' },
    generatedInMs: { type: 'number' },
  },
} as const;

export interface AiRouteOptions {
  store: Store;
  /** Where FLAKEBOARD_AI_* are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  now?: () => number;
  /** Per user (default 20 a minute): each analysis reads history and may call a paid model. */
  rateLimit?: { max: number; windowMs: number };
}

export function registerAiRoutes(app: FastifyInstance, options: AiRouteOptions): void {
  const now = options.now ?? Date.now;
  const env = options.env ?? process.env;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const rateLimit = options.rateLimit ?? { max: 20, windowMs: 60_000 };
  const limiter = new RateLimiter(rateLimit.max, rateLimit.windowMs);

  app.post<{ Body: AiAnalysisRequest }>(
    '/api/ai-analysis',
    { bodyLimit: LIMITS.bodyBytes, schema: { body: analysisBody, response: { 200: analysisResponse } }, config: { auth: { access: 'member' } } },
    async (request, reply): Promise<AiAnalysisResult> => {
      const caller = callerOf(request);
      const wait = limiter.hit(`user:${caller.user.id}`, now());
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new HttpError(429, `Too many analysis requests. Try again in ${wait} seconds.`);
      }
      const result = await analyseTest(request.body, { store: options.store, env, fetch: fetchImpl, now, log: request.log });
      request.log.info({ test: request.body.testSummary.testTitle.slice(0, 200), engine: result.engine, ms: result.generatedInMs, by: caller.user.username }, 'AI analysis');
      return result;
    },
  );
}
