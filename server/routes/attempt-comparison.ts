import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as s from '../../core/api/schemas/attempt-comparison.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import type { AttemptComparisonResponse } from '../../core/api/attempt-comparison.js';
import { attemptComparison } from '../evidence/compare-attempts.js';
import { HttpError } from '../errors.js';
import type { AnyStore } from '../store/engine/types.js';
import type { EvidenceStore } from '../store/evidence/evidence-store.js';

const WHOLE = /^\d{1,15}$/;

/**
 * GET /api/evidence/compare?result={id}[&retry={n}]: a failed attempt laid beside the passing
 * retry of the same run (else the newest passing result of the test on that browser), from their
 * traces when both kept one, else from the report's steps.
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
      const { result, retry } = request.query;
      if (result === undefined || !WHOLE.test(result) || Number(result) < 1) throw new HttpError(400, 'result must be the id of a test result (a whole number from 1)');
      if (retry !== undefined && !WHOLE.test(retry)) throw new HttpError(400, 'retry must be a whole number from 0 (the first attempt)');
      return attemptComparison(options.store, options.evidence, Number(result), retry === undefined ? null : Number(retry));
    },
  );
}
