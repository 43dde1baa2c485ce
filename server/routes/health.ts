import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponse, healthUnavailable, type HealthResponse } from '../../core/api/schemas/health.js';
import type { DatabaseHealth } from '../database-health.js';
import type { EvidenceHealth } from '../evidence-health.js';
import type { OutageLog } from '../outage-log.js';
import { RETRY_AFTER_SECONDS } from '../plugins/error-handler.js';

export function registerHealthRoutes(fastify: FastifyInstance, options: { health: DatabaseHealth; evidence: EvidenceHealth; outages: OutageLog; bodyLimit: number }): void {
  // For load balancers and `upload`'s retries: answers without signing in, says nothing private.
  // A database that cannot be reached (a PostgreSQL restart) is a 503 that names it, so a
  // balancer sends the next requests to another server. The state comes from a probe that never
  // queues behind the requests' pool (database-health.ts): the answer is quick under load.
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const schema = { summary: 'Whether the server, its database and its evidence store answer', tags: ['Health'], response: { 200: healthResponse, 503: healthUnavailable } };
  app.get('/api/health', { schema, config: { auth: { access: 'public' } } }, async (_request, reply) => {
    const [database, evidence] = await Promise.all([options.health.state(), options.evidence.state()]);
    // The body limit lets `upload` refuse a too-big report before sending it. An evidence store
    // that is down makes the server degraded, not unavailable: runs are still stored and read.
    const status: HealthResponse['status'] = !database.ok ? 'unavailable' : evidence.ok ? 'ok' : 'degraded';
    const body = { status, maxUploadBytes: options.bodyLimit, database, evidence };
    if (database.ok) return body;
    options.outages.failed(new Error(database.error ?? 'the database does not answer'));
    return reply
      .code(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send({ ...body, error: 'The database cannot be reached right now; try again in a few seconds.' });
  });
}
