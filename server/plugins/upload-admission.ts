import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { MAX_QUEUED_UPLOADS } from '../writer/runner.js';

/** How fast a body must arrive once admitted; slower ones are cut so they stop holding the budget. */
export interface UploadPace {
  /** Below this average, counted from the start of the body, after graceMs, the upload is cut. */
  minBytesPerSecond: number;
  graceMs: number;
  /** A body from which no byte arrives for this long is cut, however fast it was before. */
  idleMs: number;
}

export const DEFAULT_UPLOAD_PACE: UploadPace = { minBytesPerSecond: 16 * 1024, graceMs: 10_000, idleMs: 15_000 };

/** Accounts it takes to hold every byte of the budget: two or three slow senders cannot. */
const ACCOUNTS_TO_FILL = 5;

/**
 * Upload bodies are read whole into memory before the writer's queue (writer/runner.ts) sees
 * them, so bodies still arriving need their own bound: a member opening fifty uploads that each
 * declare 100 MB and send a byte a minute held up to 5 GB until the 5-minute request timeout.
 * Bodies are admitted, until they are answered, while the bytes they declare (the limit, when
 * they do not say) fit in `maxBytes`; beyond, a 503 that `flakeboard upload` retries. Checked
 * before a byte is read.
 * One account holds at most a fifth of it, and half of the uploads the writer queues (each is
 * admitted until it is answered, stored or not), so a few members (or leaked tokens) cannot
 * shut everyone else out; and a body that arrives slower than `pace` says is cut (408), so
 * stalled senders give their share back in seconds, not at the 5-minute request timeout.
 */
export function registerUploadAdmission(app: FastifyInstance, options: { bodyLimit: number; maxBytes: number; pace?: UploadPace }): void {
  const pace = options.pace ?? DEFAULT_UPLOAD_PACE;
  const perUser = Math.max(options.bodyLimit, Math.floor(options.maxBytes / ACCOUNTS_TO_FILL));
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
    watchPace(request, reply, pace);
  });
}

const kb = (bytes: number): number => Math.round(bytes / 1024);

/**
 * Watches the bytes the connection reads while the body arrives (the socket's count: reading
 * the body stream itself would take it from the body parser) and cuts a body that is too slow
 * or stopped, with an answer that says why.
 */
function watchPace(request: FastifyRequest, reply: FastifyReply, pace: UploadPace): void {
  const socket = request.raw.socket as Socket | undefined;
  // Injected requests (tests) have no real socket to count.
  if (!socket || typeof socket.bytesRead !== 'number') return;
  const startBytes = socket.bytesRead;
  const startedAt = Date.now();
  let lastBytes = startBytes;
  let lastProgressAt = startedAt;
  const tick = Math.max(50, Math.min(1000, pace.graceMs / 4, pace.idleMs / 4));
  const timer = setInterval(() => {
    const now = Date.now();
    const bytes = socket.bytesRead;
    if (bytes !== lastBytes) {
      lastBytes = bytes;
      lastProgressAt = now;
    }
    const received = bytes - startBytes;
    if (now - lastProgressAt >= pace.idleMs) {
      cut(`No byte of the upload arrived for ${Math.round(pace.idleMs / 1000)} s; nothing was stored. Send it again.`);
    } else if (now - startedAt >= pace.graceMs && received / ((now - startedAt) / 1000) < pace.minBytesPerSecond) {
      const rate = kb(received / ((now - startedAt) / 1000));
      cut(`The upload arrived at ${rate} KB/s, slower than the ${kb(pace.minBytesPerSecond)} KB/s the server waits for; nothing was stored. Send it again over a faster connection.`);
    }
  }, tick);
  timer.unref();
  const stop = () => clearInterval(timer);
  request.raw.once('end', stop);
  reply.raw.once('close', stop);

  function cut(message: string): void {
    stop();
    // An answer already on its way means the body was read: nothing to cut.
    if (reply.raw.headersSent) return;
    request.log.warn({ receivedBytes: socket!.bytesRead - startBytes }, 'upload cut: the body arrived too slowly');
    const body = JSON.stringify({ error: message });
    reply.raw.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', connection: 'close' });
    reply.raw.end(body);
    // The rest of the body is not read: the connection ends once the answer is out.
    reply.raw.once('finish', () => socket!.destroy());
  }
}
