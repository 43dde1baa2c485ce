import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/open.js';

export function registerHealthRoutes(app: FastifyInstance, options: { store: Store; bodyLimit: number }): void {
  // Prepared once: health is asked every few seconds by balancers and `upload`'s retries.
  const probe = options.store.sqlite.prepare('SELECT 1');
  // For load balancers and `upload`'s retries: answers without signing in, says nothing private.
  app.get('/api/health', { config: { auth: { access: 'public' } } }, async () => {
    probe.get();
    // The body limit lets `upload` refuse a too-big report before sending it.
    return { status: 'ok', maxUploadBytes: options.bodyLimit };
  });
}
