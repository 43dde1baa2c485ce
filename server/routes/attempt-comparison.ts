import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as s from '../../core/api/schemas/attempt-comparison.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import type { AttemptComparisonResponse } from '../../core/api/attempt-comparison.js';
import { attemptComparison } from '../evidence/compare-attempts.js';
import { comparisonFrame } from '../evidence/comparison-frame.js';
import { HttpError } from '../errors.js';
import { callerKey } from '../plugins/authenticate.js';
import type { AnyStore } from '../store/engine/types.js';
import type { EvidenceStore } from '../store/evidence/evidence-store.js';

const WHOLE = /^\d{1,15}$/;

function parsed(query: { result?: string; retry?: string }): { resultId: number; retry: number | null } {
  const { result, retry } = query;
  if (result === undefined || !WHOLE.test(result) || Number(result) < 1) throw new HttpError(400, 'result must be the id of a test result (a whole number from 1)');
  if (retry !== undefined && !WHOLE.test(retry)) throw new HttpError(400, 'retry must be a whole number from 0 (the first attempt)');
  return { resultId: Number(result), retry: retry === undefined ? null : Number(retry) };
}

/**
 * GET /api/evidence/compare?result={id}[&retry={n}]: a failed attempt laid beside its passing
 * partner (attempt-partner.ts), from their traces when both kept one, else from the report's
 * steps; GET /api/evidence/compare/frame: the frame of each where they parted.
 */
export function registerAttemptComparisonRoutes(fastify: FastifyInstance, options: { store: AnyStore; evidence: EvidenceStore }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/evidence/compare',
    {
      schema: { summary: 'A failed attempt beside a passing one', tags: ['Failure evidence'], querystring: s.attemptComparisonQuery, response: { 200: s.attemptComparisonResponse, 400: errorAnswer, 404: errorAnswer } },
      config: { auth: { access: 'member', apiToken: 'read' } },
    },
    async (request): Promise<AttemptComparisonResponse> => {
      const { resultId, retry } = parsed(request.query);
      return attemptComparison(options.store, options.evidence, resultId, retry, callerKey(request));
    },
  );
  // The frame a comparison names (its `frames`): a JPEG from the trace of one side, under the same authorisation.
  app.get(
    '/api/evidence/compare/frame',
    {
      schema: { summary: 'A frame of a compared attempt where the two parted (image/jpeg)', tags: ['Failure evidence'], querystring: s.comparisonFrameQuery, response: { 400: errorAnswer, 404: errorAnswer, 422: errorAnswer } },
      config: { auth: { access: 'member', apiToken: 'read' } },
    },
    async (request, reply): Promise<void> => {
      const { resultId, retry } = parsed(request.query);
      const { side, name } = request.query;
      if (side !== 'failing' && side !== 'passing') throw new HttpError(400, 'side must be failing or passing');
      if (!name) throw new HttpError(400, 'name must be a screencast frame of the trace, as the comparison gave it');
      const image = await comparisonFrame(options.store, options.evidence, { resultId, retry, side, name }, callerKey(request));
      // The answer is the image's bytes, not JSON: sent past the schema's serializer.
      await (reply as unknown as FastifyReply)
        .headers({ 'content-type': 'image/jpeg', 'x-content-type-options': 'nosniff', 'content-security-policy': "sandbox; default-src 'none'", 'cache-control': 'private, no-cache', 'content-length': String(image.length) })
        .send(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    },
  );
}
