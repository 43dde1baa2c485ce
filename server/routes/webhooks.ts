import type { FastifyInstance } from 'fastify';
import { WEBHOOK_EVENTS, WEBHOOK_KINDS, type AddWebhookRequest, type AddWebhookResponse, type DeliveryListResponse, type WebhookListResponse, type WebhookTestResponse } from '../../core/api/webhooks.js';
import { HttpError, notFound } from '../errors.js';
import { auditRequest } from '../audit.js';
import { callerOf } from '../plugins/authenticate.js';
import type { AnyStore } from '../store/engine/types.js';
import { createWebhook, DuplicateWebhookError, findWebhook, listWebhooks, removeWebhook } from '../store/webhooks/hooks.js';
import { listDeliveries, recordDelivery } from '../store/webhooks/outbox.js';
import { checkedWebhook, testEvent, WebhookInputError, webhookView } from '../webhooks/config.js';
import { sendEvent } from '../webhooks/send.js';

const addBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'url'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    kind: { enum: [...WEBHOOK_KINDS] },
    url: { type: 'string', minLength: 1, maxLength: 2_000 },
    secret: { type: 'string', maxLength: 500 },
    events: { type: 'array', maxItems: 20, items: { enum: [...WEBHOOK_EVENTS] } },
    baseBranch: { type: 'string', maxLength: 200 },
    passRateThreshold: { type: 'number' },
    expiryDays: { type: 'integer' },
  },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
// Admin only, from a session with its XSRF token: API tokens cannot reach these.
const admin = { auth: { access: 'admin' as const } };

/** Alert receivers and their delivery log: admins only, checked here by the authenticate hook. */
export function registerWebhookRoutes(app: FastifyInstance, options: { store: AnyStore; now: () => number }): void {
  const { store, now } = options;

  app.get('/api/webhooks', { config: admin }, async (): Promise<WebhookListResponse> => ({ webhooks: (await listWebhooks(store)).map(webhookView) }));

  app.post<{ Body: AddWebhookRequest }>('/api/webhooks', { schema: { body: addBody }, config: admin }, async (request, reply) => {
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
  });

  app.delete<{ Params: { id: number } }>('/api/webhooks/:id', { schema: { params: idParams }, config: admin }, async (request) => {
    const hook = (await listWebhooks(store)).find((h) => h.id === request.params.id);
    if (!hook || !(await removeWebhook(store, request.params.id))) throw notFound(`Webhook ${request.params.id}`);
    request.log.info({ webhook: request.params.id }, 'webhook removed');
    await auditRequest(store, request, { action: 'webhook.remove', target: { type: 'webhook', id: hook.id, label: hook.name } });
    return { success: true };
  });

  // An admin's explicit ask that waits for the receiver (at most the send timeout); alerts never do.
  app.post<{ Params: { id: number } }>('/api/webhooks/:id/test', { schema: { params: idParams }, config: admin }, async (request): Promise<WebhookTestResponse> => {
    const hook = await findWebhook(store, request.params.id);
    if (!hook) throw notFound(`Webhook ${request.params.id}`);
    const event = testEvent(now());
    const result = await sendEvent(hook, event);
    await recordDelivery(store, hook.id, event, result, now());
    await auditRequest(store, request, { action: 'webhook.test', target: { type: 'webhook', id: hook.id, label: hook.name }, detail: { ok: result.ok, status: result.status } });
    return { ok: result.ok, status: result.status, error: result.error };
  });

  app.get<{ Querystring: { limit?: number; webhook?: number } }>(
    '/api/webhooks/deliveries',
    { schema: { querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 500 }, webhook: { type: 'integer', minimum: 1 } } } }, config: admin },
    async (request): Promise<DeliveryListResponse> => ({
      deliveries: await listDeliveries(store, { limit: request.query.limit ?? 50, ...(request.query.webhook ? { webhookId: request.query.webhook } : {}) }),
    }),
  );
}
