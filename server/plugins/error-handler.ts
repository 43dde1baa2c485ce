import type { FastifyError, FastifyInstance } from 'fastify';
import { InvalidReportError } from '../../core/report/parse.js';
import { HttpError } from '../errors.js';
import { databaseTrouble } from '../store/engine/dialect.js';
import { StoreError } from '../store/engine/types.js';

/**
 * One place that turns errors into answers: 4xx with a clear `error` text; 5xx logs the cause
 * and answers without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ error: error.message, ...error.extra });
    if (error instanceof InvalidReportError) return reply.code(400).send({ error: error.message });
    const trouble = databaseTrouble(error);
    if (trouble === 'full') {
      request.log.error({ err: error }, 'the disk is full');
      return reply.code(507).send({ error: 'The server cannot store data: its disk is full. Nothing was stored.' });
    }
    if (trouble === 'unavailable' || error instanceof StoreError) {
      request.log.error({ err: error }, 'the database cannot be written');
      return reply.code(503).send({ error: 'The database cannot be written right now. Nothing was stored; try again later.' });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        // Each route has its own limit (uploads --body-limit, the rest SMALL_BODY_LIMIT).
        return reply.code(413).send({ error: `The request body is larger than the limit of ${formatBytes(request.routeOptions.bodyLimit)}` });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send({ error: `Unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}: send application/json` });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send({ error: 'The request body is empty: send a JSON object' });
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(400).send({ error: 'The Content-Length header does not match the body' });
    }
    if (error.validation) return reply.code(400).send({ error: `Invalid request: ${error.message}` });
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return reply.code(error.statusCode).send({ error: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` }));
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
