import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';

/**
 * Upload bodies are read whole into memory before the writer's queue (writer/runner.ts) sees
 * them, so bodies still arriving need their own bound: a member opening fifty uploads that each
 * declare 100 MB and send a byte a minute held up to 5 GB until the 5-minute request timeout.
 * Bodies are admitted while the bytes they declare (the limit, when they do not say) fit in
 * `maxBytes`; beyond, a 503 that `flakeboard upload` retries. Checked before a byte is read.
 */
export function registerUploadAdmission(app: FastifyInstance, options: { bodyLimit: number; maxBytes: number }): void {
  let receiving = 0;
  const admitted = new WeakMap<FastifyRequest, number>();
  const release = (request: FastifyRequest) => {
    const bytes = admitted.get(request);
    if (bytes === undefined) return;
    admitted.delete(request);
    receiving -= bytes;
  };
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'POST' || !/^\/api\/upload\/?(?:\?|$)/.test(request.url)) return;
    const declared = Number(request.headers['content-length']);
    const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, options.bodyLimit) : options.bodyLimit;
    if (receiving > 0 && receiving + bytes > options.maxBytes) {
      throw new HttpError(503, `The server is receiving ${Math.round(receiving / (1024 * 1024))} MB of other uploads; nothing was stored, try again in a minute`);
    }
    receiving += bytes;
    admitted.set(request, bytes);
    // A client that goes away mid-body frees its share too.
    request.raw.once('close', () => release(request));
  });
  app.addHook('onResponse', async (request) => release(request));
}
