import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/open.js';

export function registerHealthRoutes(app: FastifyInstance, options: { store: Store; bodyLimit: number }): void {
  // For load balancers and `upload`'s retries: answers without signing in, says nothing private.
  app.get('/api/health', { config: { auth: { access: 'public' } } }, async () => {
    options.store.sqlite.prepare('SELECT 1').get();
    // The body limit lets `upload` refuse a too-big report before sending it.
    return { status: 'ok', maxUploadBytes: options.bodyLimit };
  });
}
