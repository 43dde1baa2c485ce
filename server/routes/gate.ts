import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import { checkRequest, gateAnswer } from '../../core/api/schemas/gate.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';
import { callerKey } from '../plugins/authenticate.js';

const sendText = (reply: FastifyReply, json: string) => reply.type('application/json; charset=utf-8').send(json);

/** POST /api/check: the CI gate, a read call open to API tokens; computed in the analytics worker. */
export function registerGateRoutes(fastify: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  fastify.withTypeProvider<ZodTypeProvider>().post(
    '/api/check',
    {
      // The answer goes out as the worker's JSON text, unserialised: its schema is for the document.
      schema: { summary: 'The CI gate: class the failing tests of a report against the base branch', tags: ['CI gate and quarantine'], body: checkRequest, response: { 200: gateAnswer, 400: errorAnswer } },
      config: { auth: { access: 'member', apiToken: 'read' } },
    },
    async (request, reply) => {
      const t = options.now();
      const answer = await options.analytics.json(today(t), 'gate', { ...request.body, base: request.body.base ?? null, now: t }, callerKey(request));
      return sendText(reply, answer);
    },
  );
}
