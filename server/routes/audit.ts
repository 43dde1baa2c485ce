import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditPage, auditQuery } from '../../core/api/schemas/audit.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import { HttpError } from '../errors.js';
import { listAudit, type AuditFilter } from '../store/accounts/audit.js';
import type { AnyStore } from '../store/engine/types.js';
import { pageOf } from './paging.js';

/** A date (YYYY-MM-DD, UTC midnight) or an ISO 8601 moment, as UTC ms. */
function moment(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new HttpError(400, `${name} must be a date (YYYY-MM-DD) or an ISO 8601 time, not ${JSON.stringify(value)}`);
  return ms;
}

/**
 * The audit trail, for admins only (a session: API tokens cannot call admin routes). Read only:
 * no route changes or removes an entry; prune removes them with the runs.
 */
export function registerAuditRoutes(fastify: FastifyInstance, options: { store: AnyStore }): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const schema = { summary: 'The audit trail, newest first', tags: ['Admin'], querystring: auditQuery, response: { 200: auditPage, 400: errorAnswer } };
  app.get('/api/audit', { schema, config: { auth: { access: 'admin' } } }, async (request) => {
    const q = request.query;
    const filter: AuditFilter = {
      ...(q.actor ? { actor: q.actor.trim() } : {}),
      ...(q.action ? { action: q.action.trim() } : {}),
      ...(q.target ? { target: q.target.trim() } : {}),
    };
    const since = moment(q.since, 'since');
    const until = moment(q.until, 'until');
    if (since !== undefined) filter.since = since;
    if (until !== undefined) filter.until = until;
    const { page, pageSize } = pageOf(q);
    const { items, total } = await listAudit(options.store, filter, { limit: pageSize, offset: (page - 1) * pageSize });
    return { items, total, page, pageSize };
  });
}
