import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The built UI sits beside the bundle (dist/ui next to dist/cli.js); from source, in dist/ui
 * of the checkout. Both are found relative to this module, never the working directory.
 */
export function defaultUiDir(): string | null {
  const candidates = [new URL('./ui/', import.meta.url), new URL('../../dist/ui/', import.meta.url)];
  for (const url of candidates) {
    const dir = fileURLToPath(url);
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return null;
}

export async function registerStaticUi(app: FastifyInstance, uiDir: string | null): Promise<void> {
  if (!uiDir) {
    app.get('/', { config: { auth: { access: 'public' } } }, async (_request, reply) =>
      reply.type('text/plain').send('The UI is not built: run `npm run build`. The API is served under /api.'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: uiDir,
    prefix: '/',
    index: ['index.html'],
    // @fastify/send refuses paths outside root and dotfiles; no directory listings.
    dotfiles: 'deny',
    list: false,
    cacheControl: false,
    wildcard: true,
    setHeaders(res, path) {
      // Hashed asset names never change; index.html must be fetched fresh after an upgrade.
      res.setHeader('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
}
