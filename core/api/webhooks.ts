/**
 * GET/POST/DELETE /api/webhooks: where flakeboard sends its alerts, and what it sent. The API's
 * types are inferred from the Zod schemas of schemas/webhooks.ts (type-only: the UI bundles no Zod).
 */
import type { z } from 'zod';
import type * as s from './schemas/webhooks.js';
import type { WebhookEventName } from './webhook-names.js';

export const WEBHOOK_DEFAULTS = { baseBranch: 'main', passRateThreshold: 90, expiryDays: 3 } as const;

export interface WebhookTest {
  title: string;
  file: string;
  project: string;
  /** Its owners (CODEOWNERS, owner annotations, @owner: tags); empty when no one owns it. */
  owners: string[];
}

/** An event as stored in the outbox and sent as the generic hook's body (formats.ts renders Slack and Teams). */
export interface WebhookEvent {
  /** Unique per event: the receiver can drop a repeat (a retry after a lost answer). */
  id: string;
  event: WebhookEventName;
  /** ISO 8601: when the event was found. */
  at: string;
  /** One line, plain text: what happened. */
  summary: string;
  run?: { id: number; name: string; branch: string | null; commit: string | null; project: string | null; url: string | null };
  /** The tests concerned, at most MAX_EVENT_TESTS; `moreTests` counts the rest. */
  tests?: WebhookTest[];
  moreTests?: number;
  passRate?: { percent: number; threshold: number; previousPercent: number | null };
  quarantine?: { id: number; title: string; file: string | null; project: string | null; reason: string; owner: string | null; expiresAt: string | null };
}

export const MAX_EVENT_TESTS = 20;

/** A hook as the API shows it: never its secret, and a Slack or Teams URL masked (the URL is the secret there). */
export type WebhookView = z.infer<typeof s.webhookView>;
/** POST /api/webhooks: a generic hook's secret is made for you when left out, and shown once in the answer. */
export type AddWebhookRequest = z.input<typeof s.addWebhookRequest>;
/** POST /api/webhooks: the hook, and for a generic one its signing secret this one time. */
export type AddWebhookResponse = z.infer<typeof s.addWebhookResponse>;
export type WebhookListResponse = z.infer<typeof s.webhookListResponse>;
export type DeliveryView = z.infer<typeof s.deliveryView>;
export type DeliveryListResponse = z.infer<typeof s.deliveryListResponse>;
export type WebhookTestResponse = z.infer<typeof s.webhookTestResponse>;

/** Slack and Teams URLs carry the secret in their path: show the host and the path's start only. */
export function maskWebhookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.length > 8 ? `${parsed.pathname.slice(0, 8)}…` : parsed.pathname;
    return `${parsed.protocol}//${parsed.host}${path}`;
  } catch {
    return '…';
  }
}
