import { normaliseBrowserName } from '../../core/browsers.js';
import { loadTraces, type TraceBlobs } from '../ai/load-traces.js';
import type { FastifyInstance } from 'fastify';
import { AI_REQUEST_LIMITS as LIMITS, type AiAnalysisRequest, type AiAnalysisResult } from '../../core/api/ai.js';
import { aiAdmission } from '../ai/admission.js';
import { analyseTest } from '../ai/analyse.js';
import { modelConfigFrom } from '../ai/model-engine.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { HttpError } from '../errors.js';
import { callerOf } from '../plugins/authenticate.js';
import type { AnyStore } from '../store/engine/types.js';

const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;

// Exactly the fields of docs/api.md#ai-analysis at every level: anything else could reach the
// remote model, so it is refused by name (refuseUnknownProperties) and, were
// that ever bypassed, stripped by the validator (additionalProperties: false).
const analysisBody = {
  type: 'object',
  required: ['testSummary', 'recentResults'],
  additionalProperties: false,
  properties: {
    testSummary: {
      type: 'object',
      required: ['testTitle', 'browser'],
      additionalProperties: false,
      properties: {
        testTitle: { type: 'string', minLength: 1, maxLength: LIMITS.title },
        browser: { type: 'string', minLength: 1, maxLength: LIMITS.browser },
        passRate: { type: 'number', minimum: 0, maximum: 100, default: 0 },
        totalRuns: { type: 'integer', minimum: 0, maximum: 1e9, default: 0 },
        failedRuns: { type: 'integer', minimum: 0, maximum: 1e9, default: 0 },
      },
    },
    recentResults: {
      type: 'array',
      maxItems: LIMITS.recentResults,
      items: {
        type: 'object',
        required: ['status'],
        additionalProperties: false,
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

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, unknown>;
  items?: unknown;
}

/**
 * The first property of `value` that `schema` does not declare, with its path (such as
 * `recentResults[3].prompt`) and what is allowed there; null when there is none. Fastify's
 * validator would drop it silently; the caller is told instead. One pass over the body.
 */
export function unknownProperty(schema: ObjectSchema, value: unknown, path = ''): { path: string; allowed: string[] } | null {
  if (Array.isArray(value)) {
    if (!schema.items) return null;
    for (let i = 0; i < value.length; i++) {
      const found = unknownProperty(schema.items as ObjectSchema, value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object' || !schema.properties) return null;
  for (const [key, child] of Object.entries(value)) {
    // A hostile key may be megabytes long: the answer names its start.
    const shown = key.length > 100 ? `${key.slice(0, 100)}…` : key;
    const name = path ? `${path}.${shown}` : shown;
    if (!Object.hasOwn(schema.properties, key)) return { path: name, allowed: Object.keys(schema.properties) };
    const found = unknownProperty(schema.properties[key] as ObjectSchema, child, name);
    if (found) return found;
  }
  return null;
}

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
    causeClass: { type: 'string' },
    evidence: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          claim: { type: 'string' },
          runs: { type: 'array', items: { type: 'object', properties: { runId: { type: ['integer', 'null'] }, date: { type: ['string', 'null'] }, commit: { type: ['string', 'null'] } } } },
          lines: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
} as const;

export interface AiRouteOptions {
  store: AnyStore;
  /** Where FLAKEBOARD_AI_* are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  now?: () => number;
  /**
   * Per user (default 20 a minute), only while a model is configured: it guards the paid remote
   * call. The local engine reads a bounded history (HISTORY_LIMIT rows) and is not limited.
   */
  rateLimit?: { max: number; windowMs: number };
  /** The evidence store: the failing attempt's trace is read from it (none: no traces). */
  evidence?: TraceBlobs;
}

export function registerAiRoutes(app: FastifyInstance, options: AiRouteOptions): void {
  const now = options.now ?? Date.now;
  const env = options.env ?? process.env;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const rateLimit = options.rateLimit ?? { max: 20, windowMs: 60_000 };
  const limiter = new RateLimiter(options.store, 'ai', rateLimit.max, rateLimit.windowMs);
  const admit = aiAdmission();

  app.post<{ Body: AiAnalysisRequest }>(
    '/api/ai-analysis',
    {
      bodyLimit: LIMITS.bodyBytes,
      schema: { body: analysisBody, response: { 200: analysisResponse } },
      // An API token may ask too (flakeboard mcp --server): it reads, and the same per-user limit applies.
      config: { auth: { access: 'member', apiToken: 'read' } },
      // Before the body is read: parsing 10 MB is part of the work bounded.
      preParsing: async (request, reply) => admit(request, reply),
      // Before validation, while the body is still as sent.
      preValidation: async (request) => {
        const unknown = unknownProperty(analysisBody, request.body);
        if (unknown) throw new HttpError(400, `Invalid request: unknown property "${unknown.path}"; allowed there: ${unknown.allowed.join(', ')}`);
      },
    },
    async (request, reply): Promise<AiAnalysisResult> => {
      const caller = callerOf(request);
      const wait = modelConfigFrom(env) ? await limiter.hit(`user:${caller.user.id}`, now()) : 0;
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new HttpError(429, `Too many analysis requests. Try again in ${wait} seconds.`);
      }
      const { testSummary, recentResults } = request.body;
      const file = recentResults.find((r) => r.testFile)?.testFile ?? null;
      const traces = options.evidence ? await loadTraces(options.store, options.evidence, { title: testSummary.testTitle, file, browser: normaliseBrowserName(testSummary.browser) }) : undefined;
      const result = await analyseTest(request.body, { store: options.store, env, fetch: fetchImpl, now, log: request.log, traces });
      request.log.info({ test: request.body.testSummary.testTitle.slice(0, 200), engine: result.engine, ms: result.generatedInMs, by: caller.user.username }, 'AI analysis');
      return result;
    },
  );
}
