import type { FastifyInstance } from 'fastify';
import type { AnyStore } from '../store/engine/types.js';

// One text for both engines: on SQLite the connection's statement cache prepares it once
// (health is asked every few seconds by balancers and `upload`'s retries).
const PROBE = 'SELECT 1 AS ok';

export function registerHealthRoutes(app: FastifyInstance, options: { store: AnyStore; bodyLimit: number }): void {
  // For load balancers and `upload`'s retries: answers without signing in, says nothing private.
  // A database that cannot be reached (a PostgreSQL restart) fails the probe: a 503 from the
  // error handler, so a balancer sends the next requests to another server.
  app.get('/api/health', { config: { auth: { access: 'public' } } }, async () => {
    await options.store.sql.value(PROBE);
    // The body limit lets `upload` refuse a too-big report before sending it.
    return { status: 'ok', maxUploadBytes: options.bodyLimit };
  });
}
