import type { FastifyInstance } from 'fastify';
import type { BranchesResponse } from '../../core/api/analytics.js';
import { foldAscii } from '../analytics/flaky-page.js';
import { listBranches } from '../store/branches.js';
import type { Store } from '../store/open.js';

/** GET /api/branches: the branch filter's choices, most recently run first, bounded. */
export function registerBranchRoutes(app: FastifyInstance, options: { store: Store }): void {
  const querystring = {
    type: 'object',
    properties: { search: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
  } as const;
  app.get<{ Querystring: { search?: string; limit: number } }>(
    '/api/branches',
    { schema: { querystring }, config: { auth: { access: 'member' as const, apiToken: true } } },
    async (request): Promise<BranchesResponse> => {
      const search = foldAscii(request.query.search?.trim() ?? '');
      const rows = listBranches(options.store, { search: search === '' ? null : search, limit: request.query.limit });
      return { branches: rows.map((r) => ({ name: r.name, last_run: new Date(r.last_run_at).toISOString() })) };
    },
  );
}
