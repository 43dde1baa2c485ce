import type { FastifyError, FastifyInstance } from 'fastify';
import { InvalidReportError } from '../../core/report/parse.js';
import { HttpError } from '../errors.js';
import { OutageLog } from '../outage-log.js';
import { databaseTrouble, isReadOnlyTrouble } from '../store/engine/dialect.js';
import { StoreError } from '../store/engine/types.js';
import { EvidenceIntegrityError, EvidenceUnavailableError } from '../store/evidence/evidence-store.js';

/** Seconds a client should wait before sending again a request answered 503 (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The 503 texts for a database that cannot serve: a read says it cannot be reached; a write
 * that nothing was stored; a read-only database (a standby, a read-only file) that it cannot be
 * written. `/api/health` says which dependency is down in its own body (routes/health.ts).
 */
export const DATABASE_MESSAGES = {
  read: 'The database cannot be reached right now; try again in a few seconds.',
  write: 'The database cannot be reached right now: nothing was stored; try again in a few seconds.',
  readOnly: 'The database cannot be written right now (it is read-only): nothing was stored; try again later.',
  /** PostgreSQL cancelled a statement that ran past the server's --pg-statement-timeout (57014). */
  tooSlow: 'The database took too long to answer (the statement timeout): nothing was stored; try again later.',
} as const;

/** Which DATABASE_MESSAGES text answers a request that met an unavailable database. */
export function unavailableMessage(method: string, error: unknown): string {
  if (isReadOnlyTrouble(error) || (error instanceof StoreError && error.code === 'read-only')) return DATABASE_MESSAGES.readOnly;
  return method === 'GET' || method === 'HEAD' ? DATABASE_MESSAGES.read : DATABASE_MESSAGES.write;
}

/**
 * One place that turns errors into answers: 4xx with a clear `error` text; 5xx logs the cause
 * and answers without internals. A database that cannot serve is an outage, not a bug: 503 with
 * Retry-After (which `upload` and the reporter retry), logged by the outage log in a few lines
 * whatever the number of requests, never a stack per request.
 */
export function registerErrorHandler(app: FastifyInstance, options: { outages?: OutageLog } = {}): void {
  const outages = options.outages ?? new OutageLog(app.log, null);
  app.addHook('onClose', () => outages.close());
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      // A 429 that did not say how long (a full queue) waits as long as a 503.
      if (error.statusCode === 503 || (error.statusCode === 429 && !reply.hasHeader('retry-after'))) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.code(error.statusCode).send({ error: error.message, ...error.extra });
    }
    if (error instanceof InvalidReportError) return reply.code(400).send({ error: error.message });
    if (error instanceof EvidenceIntegrityError) return reply.code(400).send({ error: `The evidence was refused, nothing was stored: ${error.message}` });
    if (error instanceof EvidenceUnavailableError) {
      outages.failed(error);
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ error: 'The evidence store cannot be reached right now: nothing was stored; try again in a few seconds.' });
    }
    const trouble = databaseTrouble(error);
    if (trouble === 'full') {
      request.log.error(`the disk is full: ${error.message}`);
      return reply.code(507).send({ error: 'The server cannot store data: its disk is full. Nothing was stored.' });
    }
    if ((error as { code?: unknown }).code === '57014') {
      // Not an outage (the database answers): one line per request, without a stack.
      request.log.warn(`a statement ran past the statement timeout: ${error.message}`);
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ error: DATABASE_MESSAGES.tooSlow });
    }
    if (trouble === 'unavailable' || error instanceof StoreError) {
      outages.failed(error);
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ error: unavailableMessage(request.method, error) });
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
