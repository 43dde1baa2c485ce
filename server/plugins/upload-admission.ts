import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { MAX_QUEUED_UPLOADS } from '../writer/runner.js';

/**
 * Upload bodies are read whole into memory before the writer's queue (writer/runner.ts) sees
 * them, so bodies still arriving need their own bound: a member opening fifty uploads that each
 * declare 100 MB and send a byte a minute held up to 5 GB until the 5-minute request timeout.
 * Bodies are admitted, until they are answered, while the bytes they declare (the limit, when
 * they do not say) fit in `maxBytes`; beyond, a 503 that `flakeboard upload` retries. Checked
 * before a byte is read.
 * One account holds at most half of it, and half of the uploads the writer queues (each is
 * admitted until it is answered, stored or not), so a single member (or a leaked token) cannot
 * shut everyone else out.
 */
export function registerUploadAdmission(app: FastifyInstance, options: { bodyLimit: number; maxBytes: number }): void {
  const perUser = Math.max(options.bodyLimit, Math.floor(options.maxBytes / 2));
  let receiving = 0;
  const maxUploadsPerUser = Math.floor(MAX_QUEUED_UPLOADS / 2);
  const byUser = new Map<number, { bytes: number; uploads: number }>();
  const admitted = new WeakMap<FastifyRequest, { bytes: number; user: number }>();
  const release = (request: FastifyRequest) => {
    const share = admitted.get(request);
    if (share === undefined) return;
    admitted.delete(request);
    receiving -= share.bytes;
    const mine = byUser.get(share.user);
    if (!mine) return;
    mine.bytes -= share.bytes;
    mine.uploads -= 1;
    if (mine.uploads === 0) byUser.delete(share.user);
  };
  const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
  app.addHook('onRequest', async (request, reply) => {
    // The route the router chose, not the raw URL: /api/%75pload reaches the same handler.
    if (request.method !== 'POST' || request.routeOptions.url !== '/api/upload') return;
    const declared = Number(request.headers['content-length']);
    const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, options.bodyLimit) : options.bodyLimit;
    // Authentication ran first (app.ts registers it before this): the route needs a caller.
    const user = request.caller?.user.id ?? 0;
    const mine = byUser.get(user) ?? { bytes: 0, uploads: 0 };
    if (mine.uploads >= maxUploadsPerUser || (mine.bytes > 0 && mine.bytes + bytes > perUser)) {
      throw new HttpError(503, `Your ${mine.uploads} other uploads not yet answered hold ${mb(mine.bytes)} MB, as much as one account may; nothing was stored, try again in a minute`);
    }
    if (receiving > 0 && receiving + bytes > options.maxBytes) {
      throw new HttpError(503, `The server is receiving ${mb(receiving)} MB of other uploads; nothing was stored, try again in a minute`);
    }
    receiving += bytes;
    byUser.set(user, { bytes: mine.bytes + bytes, uploads: mine.uploads + 1 });
    admitted.set(request, { bytes, user });
    // Held until the answer is sent or the client goes away (the response's close is both): the
    // request's own close comes as soon as the body is read, while the body still waits for the
    // writer in memory.
    reply.raw.once('close', () => release(request));
  });
}
