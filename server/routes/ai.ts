import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AI_REQUEST_LIMITS as LIMITS } from '../../core/api/ai-limits.js';
import { aiAnalysisRequest, aiAnalysisResult } from '../../core/api/schemas/ai.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import { AI_PER_CALLER, aiAdmission } from '../ai/admission.js';
import { modelConfigFrom } from '../ai/model-engine.js';
import { createAiRunner, type AiRunner } from '../ai/runner.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { HttpError } from '../errors.js';
import { callerKey, callerOf } from '../plugins/authenticate.js';
import { registerChunkedJsonBody, type JsonChunks } from '../plugins/chunked-json-body.js';
import type { AnyStore } from '../store/engine/types.js';

export interface AiRouteOptions {
  store: AnyStore;
  /** Where FLAKEBOARD_AI_* are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /**
   * Where analyses run (default: a worker thread of their own, ai/runner.ts); closed with the
   * app.
   */
  runner?: AiRunner;
  /**
   * Per user (default 20 a minute), only while a model is configured: it guards the paid remote
   * call. The local engine reads a bounded history (HISTORY_LIMIT rows) and is not limited.
   */
  rateLimit?: { max: number; windowMs: number };
}

/** Only the AI settings cross to the worker: the rest of the environment is none of its business. */
function aiEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('FLAKEBOARD_AI_')));
}

export function registerAiRoutes(app: FastifyInstance, options: AiRouteOptions): void {
  const now = options.now ?? Date.now;
  const env = options.env ?? process.env;
  const rateLimit = options.rateLimit ?? { max: 20, windowMs: 60_000 };
  const limiter = new RateLimiter(options.store, 'ai', rateLimit.max, rateLimit.windowMs);
  const admit = aiAdmission();
  // Waiting as many as admitted: an analysis whose client went away leaves admission at once
  // but its turn only when it comes, and must not let its caller queue more meanwhile.
  const runner = options.runner ?? createAiRunner(options.store, { maxWaitingPerCaller: AI_PER_CALLER });
  app.addHook('onClose', () => runner.close());

  // Its own scope: its JSON parser keeps the body's chunks for the worker (chunked-json-body.ts).
  void app.register(async (scope) => {
    registerChunkedJsonBody(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/ai-analysis',
      {
        bodyLimit: LIMITS.bodyBytes,
        // The schema describes the body; the worker checks it (request-body.ts) after parsing it
        // there: the bytes are not parsed on this thread, so there is nothing to validate here.
        schema: {
          summary: 'Why a test fails, and what to do: the local rules, or the configured model',
          tags: ['AI analysis'],
          body: aiAnalysisRequest,
          response: {
            200: aiAnalysisResult,
            400: errorAnswer,
            413: errorAnswer.describe(`The body is over ${LIMITS.bodyBytes / 1024 / 1024} MB`),
            429: errorAnswer.describe('Too many analyses of this caller, running or a minute; Retry-After says when to ask again'),
            503: errorAnswer.describe('The server holds as many analyses as it can; Retry-After says when to ask again'),
          },
        },
        validatorCompiler: () => () => true,
        // An API token may ask too (flakeboard mcp --server): it reads, and the same per-user limit applies.
        config: { auth: { access: 'member', apiToken: 'read' } },
        // Before the body is read: a caller's bodies held, waiting for the worker, are bounded.
        preParsing: async (request, reply) => admit(request, reply),
      },
      async (request, reply) => {
        const caller = callerOf(request);
        // The chunked parser's chunks (the schema names what they hold, for the document).
        const body = request.body as unknown as JsonChunks | undefined;
        if (!body) throw new HttpError(400, 'The request body is empty: send a JSON object');
        const wait = modelConfigFrom(env) ? await limiter.hit(`user:${caller.user.id}`, now()) : 0;
        if (wait > 0) {
          reply.header('retry-after', String(wait));
          throw new HttpError(429, `Too many analysis requests. Try again in ${wait} seconds.`);
        }
        const { chunks, charset } = body;
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        const result = await runner.analyse(callerKey(request), { chunks, charset }, { env: aiEnv(env) }, request.log, gone.signal);
        request.log.info({ engine: result.engine, ms: result.generatedInMs, by: caller.user.username }, 'AI analysis');
        return result;
      },
    );
  });
}
