import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.js';
import { bodyCharset } from '../upload-body.js';

/** A JSON body as the chunks it arrived in, for a worker thread to join and parse. */
export interface JsonChunks {
  chunks: Uint8Array[];
  length: number;
  charset: ReturnType<typeof bodyCharset>;
}

// Coded as Fastify's own, so the error handler answers them as it does for every other route.
const fastifyError = (code: string, statusCode: number, message: string) => Object.assign(new Error(message), { code, statusCode });

/**
 * For the routes of `scope` (an encapsulated plugin): a JSON body is kept as the chunks that
 * arrived, not joined into one buffer. Joining 10 MB is one copy of all of it in a single turn
 * of the event loop; the chunks each own their memory and are moved to the worker as they are
 * (transferred, not copied). The route's bodyLimit, Content-Length and charset are checked here.
 */
export function registerChunkedJsonBody(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', (request, payload, done) => {
    let charset: JsonChunks['charset'];
    try {
      charset = bodyCharset(request.headers['content-type']);
    } catch (error) {
      return done(error as Error, undefined);
    }
    const limit = request.routeOptions.bodyLimit;
    const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
    const tooLarge = () => fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413, 'Request body is too large');
    if (declared !== null && declared > limit) return done(tooLarge(), undefined);
    const chunks: Uint8Array[] = [];
    let length = 0;
    let settled = false;
    const settle = (error: Error | null, body?: JsonChunks) => {
      if (settled) return;
      settled = true;
      payload.removeListener('data', onData);
      done(error, body);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) settle(tooLarge());
      else chunks.push(chunk);
    };
    payload.on('data', onData);
    payload.on('error', (error) => settle(error));
    payload.on('end', () => {
      if (length === 0) return settle(new HttpError(400, 'The request body is empty: send a JSON object'));
      if (declared !== null && declared !== length) return settle(fastifyError('FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400, 'Request body size did not match Content-Length'));
      settle(null, { chunks, length, charset });
    });
  });
}
