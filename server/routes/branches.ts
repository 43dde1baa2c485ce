import type { FastifyInstance } from 'fastify';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { foldAscii } from '../analytics/flaky-page.js';
import { today } from '../analytics/windows.js';
import { callerKey } from '../plugins/authenticate.js';

/**
 * GET /api/branches: the branch filter's choices, most recently run first, bounded. A pass over
 * the runs table (one row per report, so it grows with the history): computed in the analytics
 * worker and cached until the runs change, not on this thread for every keystroke of the picker.
 */
export function registerBranchRoutes(app: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  const querystring = {
    type: 'object',
    properties: { search: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
  } as const;
  app.get<{ Querystring: { search?: string; limit: number } }>(
    '/api/branches',
    { schema: { querystring }, config: { auth: { access: 'member' as const, apiToken: 'read' as const } } },
    async (request, reply) => {
      const search = foldAscii(request.query.search?.trim() ?? '');
      const json = await options.analytics.json(today(options.now()), 'branches', { search: search === '' ? null : search, limit: request.query.limit }, callerKey(request));
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}
