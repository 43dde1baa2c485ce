/** The webhook calls (docs/webhooks.md) as Zod schemas; core/api/webhooks.ts infers its types from them. */
import { z } from 'zod';
import { WEBHOOK_EVENTS, WEBHOOK_KINDS } from '../webhook-names.js';
import { queryWhole } from './paging.js';

const ms = z.number().describe('Milliseconds since 1970, UTC');

export const webhookIdParams = z.object({ id: queryWhole(1, Number.MAX_SAFE_INTEGER) });

export const addWebhookRequest = z.object({
  name: z.string().min(1).max(100),
  kind: z.enum(WEBHOOK_KINDS),
  url: z.string().min(1).max(2_000).describe('http(s); Slack and Teams hooks take their incoming-webhook URL'),
  secret: z.string().max(500).optional().describe('Generic hooks only; made for you when left out, and shown once in the answer'),
  events: z.array(z.enum(WEBHOOK_EVENTS)).max(20).optional().describe('Every event when left out or empty'),
  baseBranch: z.string().max(200).optional(),
  passRateThreshold: z.number().optional().describe('Percent, 1-100'),
  expiryDays: z.number().int().optional().describe('Days before a quarantine expires that it is announced'),
});

export const webhookView = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(WEBHOOK_KINDS),
  url: z.string().describe('Never the whole secret: a Slack or Teams URL is masked, a generic one loses its query'),
  hasSecret: z.boolean(),
  events: z.array(z.enum([...WEBHOOK_EVENTS, 'test'])),
  baseBranch: z.string(),
  passRateThreshold: z.number(),
  expiryDays: z.number(),
  createdBy: z.string().nullable(),
  createdAt: ms,
});

export const addWebhookResponse = z.object({
  webhook: webhookView,
  secret: z.string().nullable().describe("A generic hook's signing secret, shown this one time"),
});

export const webhookListResponse = z.object({ webhooks: z.array(webhookView) });

export const deliveriesQuery = z.object({
  limit: queryWhole(1, 500).optional().describe('Newest first; 50 when left out'),
  webhook: queryWhole(1, Number.MAX_SAFE_INTEGER).optional().describe("One hook's deliveries"),
});

export const deliveryView = z.object({
  id: z.number(),
  webhookId: z.number(),
  webhookName: z.string(),
  event: z.string(),
  eventId: z.string(),
  summary: z.string(),
  state: z.enum(['pending', 'sent', 'failed', 'skipped']),
  attempts: z.number(),
  nextAttemptAt: ms.nullable().describe('Set while pending'),
  lastStatus: z.number().nullable().describe("The receiver's last HTTP status"),
  lastError: z.string().nullable(),
  createdAt: ms,
  sentAt: ms.nullable(),
});

export const deliveryListResponse = z.object({ deliveries: z.array(deliveryView) });

export const webhookTestResponse = z.object({
  ok: z.boolean(),
  status: z.number().nullable().describe("The receiver's HTTP status, null when it did not answer"),
  error: z.string().nullable(),
});
