import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import { successAnswer } from '../../core/api/schemas/uploads.js';
import * as s from '../../core/api/schemas/webhooks.js';
import type { AddWebhookResponse } from '../../core/api/webhooks.js';
import { HttpError, notFound } from '../errors.js';
import { auditRequest } from '../audit.js';
import { callerOf } from '../plugins/authenticate.js';
import type { AnyStore } from '../store/engine/types.js';
import { createWebhook, DuplicateWebhookError, findWebhook, listWebhooks, removeWebhook } from '../store/webhooks/hooks.js';
import { listDeliveries, recordDelivery } from '../store/webhooks/outbox.js';
import { checkedWebhook, testEvent, WebhookInputError, webhookView } from '../webhooks/config.js';
import { sendEvent } from '../webhooks/send.js';

const tags = ['Webhooks'];
// Admin only, from a session with its XSRF token: API tokens cannot reach these.
const admin = { auth: { access: 'admin' as const } };

/** Alert receivers and their delivery log: admins only, checked here by the authenticate hook. */
export function registerWebhookRoutes(fastify: FastifyInstance, options: { store: AnyStore; now: () => number }): void {
  const { store, now } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/webhooks',
    { schema: { summary: 'The alert receivers', tags, response: { 200: s.webhookListResponse } }, config: admin },
    async () => ({ webhooks: (await listWebhooks(store)).map(webhookView) }),
  );

  app.post(
    '/api/webhooks',
    { schema: { summary: 'Add an alert receiver', tags, body: s.addWebhookRequest, response: { 201: s.addWebhookResponse, 400: errorAnswer, 409: errorAnswer } }, config: admin },
    async (request, reply) => {
      try {
        const { hook, secret } = checkedWebhook(request.body, callerOf(request).user.username);
        const stored = await createWebhook(store, hook, now());
        request.log.info({ webhook: stored.name, kind: stored.kind }, 'webhook added');
        await auditRequest(store, request, { action: 'webhook.create', target: { type: 'webhook', id: stored.id, label: stored.name }, detail: { kind: stored.kind, events: stored.events } });
        return reply.code(201).send({ webhook: webhookView(stored), secret } satisfies AddWebhookResponse);
      } catch (error) {
        if (error instanceof WebhookInputError) throw new HttpError(400, error.message);
        if (error instanceof DuplicateWebhookError) throw new HttpError(409, error.message);
        throw error;
      }
    },
  );

  app.delete(
    '/api/webhooks/:id',
    { schema: { summary: 'Remove an alert receiver', tags, params: s.webhookIdParams, response: { 200: successAnswer, 400: errorAnswer, 404: errorAnswer } }, config: admin },
    async (request) => {
      const hook = (await listWebhooks(store)).find((h) => h.id === request.params.id);
      if (!hook || !(await removeWebhook(store, request.params.id))) throw notFound(`Webhook ${request.params.id}`);
      request.log.info({ webhook: request.params.id }, 'webhook removed');
      await auditRequest(store, request, { action: 'webhook.remove', target: { type: 'webhook', id: hook.id, label: hook.name } });
      return { success: true as const };
    },
  );

  // An admin's explicit ask that waits for the receiver (at most the send timeout); alerts never do.
  app.post(
    '/api/webhooks/:id/test',
    { schema: { summary: 'Send a test event and wait for the answer', tags, params: s.webhookIdParams, response: { 200: s.webhookTestResponse, 400: errorAnswer, 404: errorAnswer } }, config: admin },
    async (request) => {
      const hook = await findWebhook(store, request.params.id);
      if (!hook) throw notFound(`Webhook ${request.params.id}`);
      const event = testEvent(now());
      const result = await sendEvent(hook, event);
      await recordDelivery(store, hook.id, event, result, now());
      await auditRequest(store, request, { action: 'webhook.test', target: { type: 'webhook', id: hook.id, label: hook.name }, detail: { ok: result.ok, status: result.status } });
      return { ok: result.ok, status: result.status, error: result.error };
    },
  );

  app.get(
    '/api/webhooks/deliveries',
    { schema: { summary: 'What was sent to the receivers, newest first', tags, querystring: s.deliveriesQuery, response: { 200: s.deliveryListResponse, 400: errorAnswer } }, config: admin },
    async (request) => ({
      deliveries: await listDeliveries(store, { limit: request.query.limit ?? 50, ...(request.query.webhook ? { webhookId: request.query.webhook } : {}) }),
    }),
  );
}
