import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where the viewer is served: its service worker controls this path and nothing above it. */
export const TRACE_VIEWER_PATH = '/trace/';

export interface TraceViewer {
  dir: string;
  /** Where Playwright's LICENSE, NOTICE and ThirdPartyNotices.txt are (served with the viewer). */
  noticeDir: string;
  /** The Playwright release the viewer came from: a trace from a newer one may not open. */
  playwrightVersion: string;
}

/**
 * Playwright's trace viewer: in dist/trace-viewer beside the bundle (the build copies it there,
 * scripts/copy-trace-viewer.mjs), or, from a checkout, straight from playwright-core.
 */
export function defaultTraceViewer(): TraceViewer | null {
  for (const url of [new URL('./trace-viewer/', import.meta.url), new URL('../../dist/trace-viewer/', import.meta.url)]) {
    const dir = fileURLToPath(url);
    if (existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'viewer.json'))) {
      return { dir, noticeDir: dir, playwrightVersion: (JSON.parse(readFileSync(join(dir, 'viewer.json'), 'utf8')) as { playwrightVersion: string }).playwrightVersion };
    }
  }
  try {
    const core = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
    const dir = join(core, 'lib', 'vite', 'traceViewer');
    if (!existsSync(join(dir, 'index.html'))) return null;
    return { dir, noticeDir: core, playwrightVersion: (JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')) as { version: string }).version };
  } catch {
    return null;
  }
}

/**
 * The viewer's own Content-Security-Policy: it is Playwright's code and needs its service worker,
 * the snapshot frames it serves from this path, blobs and data: images. What the trace holds
 * stays sandboxed as the viewer does it: page snapshots come from the service worker with their
 * scripts and event handlers removed and a CSP of their own that runs no script but the
 * viewer's; attachments inside a trace are served as downloads.
 */
export function traceViewerCsp(inlineScriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self'${inlineScriptHashes.map((hash) => ` '${hash}'`).join('')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The SHA-256 hashes of the inline scripts of the viewer's pages (its file:// fallback notice). */
function inlineScriptHashes(dir: string): string[] {
  const hashes = new Set<string>();
  for (const page of ['index.html', 'snapshot.html']) {
    const path = join(dir, page);
    if (!existsSync(path)) continue;
    const html = readFileSync(path, 'utf8');
    // Linear: a fixed opening tag, then the shortest run up to the closing one.
    for (const match of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
      hashes.add(`sha256-${createHash('sha256').update(match[1]!).digest('base64')}`);
    }
  }
  return [...hashes];
}

const NOTICES = ['LICENSE', 'NOTICE', 'ThirdPartyNotices.txt'];

// The names Playwright's build gives its assets carry a content hash: cacheable for good.
const HASHED_ASSET = /\.[A-Za-z0-9_-]{8}\.(?:js|css|ttf)$|\/assets\//;

export async function registerTraceViewer(app: FastifyInstance, viewer: TraceViewer | null): Promise<void> {
  if (!viewer) {
    app.get(`${TRACE_VIEWER_PATH}*`, { config: { auth: { access: 'public' } } }, async (_request, reply) =>
      reply.code(404).type('text/plain').send("Playwright's trace viewer is not installed with this server: run `npm run build`, or download the trace and open it with `npx playwright show-trace`."),
    );
    return;
  }
  const csp = traceViewerCsp(inlineScriptHashes(viewer.dir));
  await app.register(async (scope) => {
    // Registered in its own scope, so this runs after the app's security headers and replaces
    // the two that would stop the viewer (its frames and its service worker).
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', csp);
      reply.header('x-frame-options', 'SAMEORIGIN');
      return payload;
    });
    // The folder itself opens the viewer (its service worker is registered relative to it).
    scope.get(TRACE_VIEWER_PATH.slice(0, -1), async (request, reply) => reply.redirect(`${TRACE_VIEWER_PATH}index.html${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`));
    // Apache-2.0 asks that the licence and NOTICE go with the code: served beside it.
    for (const name of NOTICES) {
      const path = join(viewer.noticeDir, name);
      if (!existsSync(path)) continue;
      const text = readFileSync(path, 'utf8');
      scope.get(`${TRACE_VIEWER_PATH}${name}`, async (_request, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(text));
    }
    await scope.register(fastifyStatic, {
      root: viewer.dir,
      prefix: TRACE_VIEWER_PATH,
      decorateReply: false,
      index: ['index.html'],
      dotfiles: 'deny',
      list: false,
      cacheControl: false,
      setHeaders(res, path) {
        // Pages, the service worker and the manifest are fetched fresh, so an upgrade of the
        // viewer takes effect; a service worker is never given a wider scope than its folder.
        res.setHeader('cache-control', HASHED_ASSET.test(path.replaceAll('\\', '/')) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  });
}
