import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { branchesQuery, branchesResponse } from '../../core/api/schemas/analytics.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { foldAscii } from '../analytics/flaky-page.js';
import { today } from '../analytics/windows.js';
import { callerKey } from '../plugins/authenticate.js';

/**
 * GET /api/branches: the branch filter's choices, most recently run first, bounded. A pass over
 * the runs table (one row per report, so it grows with the history): computed in the analytics
 * worker and cached until the runs change, not on this thread for every keystroke of the picker.
 */
// The worker answers JSON text already made: sent as it is, not serialised again.
const sendMadeJson = (reply: FastifyReply, json: string) => reply.type('application/json; charset=utf-8').send(json);

export function registerBranchRoutes(fastify: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/branches',
    {
      schema: { summary: 'Branches runs were stored on, most recently run first', tags: ['Analytics'], querystring: branchesQuery, response: { 200: branchesResponse, 400: errorAnswer } },
      config: { auth: { access: 'member' as const, apiToken: 'read' as const } },
    },
    async (request, reply) => {
      const search = foldAscii(request.query.search?.trim() ?? '');
      const json = await options.analytics.json(today(options.now()), 'branches', { search: search === '' ? null : search, limit: request.query.limit }, callerKey(request));
      return sendMadeJson(reply, json);
    },
  );
}
