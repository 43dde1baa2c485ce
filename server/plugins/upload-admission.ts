import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';

/**
 * Upload bodies are read whole into memory before the writer's queue (writer/runner.ts) sees
 * them, so bodies still arriving need their own bound: a member opening fifty uploads that each
 * declare 100 MB and send a byte a minute held up to 5 GB until the 5-minute request timeout.
 * Bodies are admitted while the bytes they declare (the limit, when they do not say) fit in
 * `maxBytes`; beyond, a 503 that `flakeboard upload` retries. Checked before a byte is read.
 * One account holds at most half of it, so a single member (or a leaked token) stalling its
 * uploads cannot shut everyone else out.
 */
export function registerUploadAdmission(app: FastifyInstance, options: { bodyLimit: number; maxBytes: number }): void {
  const perUser = Math.max(options.bodyLimit, Math.floor(options.maxBytes / 2));
  let receiving = 0;
  const byUser = new Map<number, number>();
  const admitted = new WeakMap<FastifyRequest, { bytes: number; user: number }>();
  const release = (request: FastifyRequest) => {
    const share = admitted.get(request);
    if (share === undefined) return;
    admitted.delete(request);
    receiving -= share.bytes;
    const left = (byUser.get(share.user) ?? 0) - share.bytes;
    if (left > 0) byUser.set(share.user, left);
    else byUser.delete(share.user);
  };
  const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
  app.addHook('onRequest', async (request) => {
    // The route the router chose, not the raw URL: /api/%75pload reaches the same handler.
    if (request.method !== 'POST' || request.routeOptions.url !== '/api/upload') return;
    const declared = Number(request.headers['content-length']);
    const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, options.bodyLimit) : options.bodyLimit;
    // Authentication ran first (app.ts registers it before this): the route needs a caller.
    const user = request.caller?.user.id ?? 0;
    const mine = byUser.get(user) ?? 0;
    if (mine > 0 && mine + bytes > perUser) {
      throw new HttpError(503, `Your other uploads still arriving hold ${mb(mine)} MB, as much as one account may; nothing was stored, try again in a minute`);
    }
    if (receiving > 0 && receiving + bytes > options.maxBytes) {
      throw new HttpError(503, `The server is receiving ${mb(receiving)} MB of other uploads; nothing was stored, try again in a minute`);
    }
    receiving += bytes;
    byUser.set(user, mine + bytes);
    admitted.set(request, { bytes, user });
    // A client that goes away mid-body frees its share too.
    request.raw.once('close', () => release(request));
  });
  app.addHook('onResponse', async (request) => release(request));
}
