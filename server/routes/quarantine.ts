import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { quarantineView, type QuarantineListResponse, type QuarantineView } from '../../core/api/quarantine.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import * as s from '../../core/api/schemas/quarantine.js';
import { successAnswer } from '../../core/api/schemas/uploads.js';
import { DEFAULT_QUARANTINE_EXPIRY, parseExpiry } from '../../core/gate/expiry.js';
import { auditRequest } from '../audit.js';
import { HttpError, notFound } from '../errors.js';
import { callerOf } from '../plugins/authenticate.js';
import type { AnyStore } from '../store/engine/types.js';
import { addQuarantine, listQuarantine, removeQuarantine } from '../store/read/quarantine.js';
import { defaultOwner } from '../store/read/owners.js';

const tags = ['CI gate and quarantine'];

/**
 * The quarantine list: everyone signed in reads it (the flaky screen shows badges); reviewers
 * and admins add and lift entries, which change what the CI gate lets through.
 */
export function registerQuarantineRoutes(fastify: FastifyInstance, options: { store: AnyStore; now: () => number }): void {
  const { store, now } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/quarantine', {
    schema: { summary: 'The quarantine list', tags, response: { 200: s.quarantineListResponse } },
    config: { auth: { access: 'member', apiToken: 'read' } },
  }, async (): Promise<QuarantineListResponse> => {
    const t = now();
    const entries: QuarantineView[] = (await listQuarantine(store)).map((q) => quarantineView(q, t));
    return { entries, count: entries.length };
  });

  app.post('/api/quarantine', {
    schema: { summary: 'Quarantine a test (or a pattern)', tags, body: s.addQuarantineRequest, response: { 201: s.addQuarantineResponse, 400: errorAnswer } },
    config: { auth: { access: 'reviewer' } },
  }, async (request, reply) => {
    const t = now();
    let expiresAt: number | null;
    try {
      expiresAt = parseExpiry(request.body.expires ?? DEFAULT_QUARANTINE_EXPIRY, t);
    } catch (error) {
      throw new HttpError(400, `expires: ${(error as Error).message}`);
    }
    const title = request.body.title.trim();
    const file = request.body.file?.trim() || null;
    // Not given: the test's owners (its annotations, tags or CODEOWNERS), when it has some.
    const owner = request.body.owner === undefined ? await defaultOwner(store, title, file) : request.body.owner?.trim() || null;
    const id = await addQuarantine(
      store,
      {
        title,
        file,
        project: request.body.project?.trim() || null,
        reason: request.body.reason.trim(),
        owner,
        expiresAt,
        createdBy: callerOf(request).user.id,
      },
      t,
    );
    const entry = (await listQuarantine(store)).find((q) => q.id === id)!;
    await auditRequest(store, request, {
      action: 'quarantine.add',
      target: { type: 'quarantine', id, label: entry.title },
      detail: { file: entry.file, project: entry.project, reason: entry.reason, owner: entry.owner, expiresAt: entry.expiresAt === null ? null : new Date(entry.expiresAt).toISOString() },
      at: t,
    });
    return reply.code(201).send({ entry: quarantineView(entry, t) });
  });

  app.delete(
    '/api/quarantine/:id',
    {
      schema: { summary: 'Lift a quarantine entry', tags, params: s.quarantineIdParams, response: { 200: successAnswer, 404: errorAnswer } },
      config: { auth: { access: 'reviewer' } },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await removeQuarantine(store, id, callerOf(request).user.id, now()))) throw notFound(`No quarantine entry ${id}`);
      const entry = (await listQuarantine(store, { includeRemoved: true })).find((q) => q.id === id);
      await auditRequest(store, request, { action: 'quarantine.remove', target: { type: 'quarantine', id, label: entry?.title ?? null }, detail: entry ? { file: entry.file, project: entry.project } : null });
      return { success: true as const };
    },
  );
}
