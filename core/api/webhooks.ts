/** GET/POST/DELETE /api/webhooks: where flakeboard sends its alerts, and what it sent. */

export const WEBHOOK_KINDS = ['slack', 'teams', 'generic'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** What a hook can be told about (docs/webhooks.md#events); `test` is sent only on request. */
export const WEBHOOK_EVENTS = ['new-flaky', 'broken-on-base', 'pass-rate', 'quarantine-expiring', 'quarantine-expired', 'upload-pending'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number] | 'test';

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
export interface WebhookView {
  id: number;
  name: string;
  kind: WebhookKind;
  url: string;
  hasSecret: boolean;
  events: WebhookEventName[];
  baseBranch: string;
  passRateThreshold: number;
  expiryDays: number;
  createdBy: string | null;
  createdAt: number;
}

export interface AddWebhookRequest {
  name: string;
  kind: WebhookKind;
  url: string;
  /** Generic hooks only; made for you when left out, and shown once in the answer. */
  secret?: string;
  events?: string[];
  baseBranch?: string;
  passRateThreshold?: number;
  expiryDays?: number;
}

/** POST /api/webhooks: the hook, and for a generic one its signing secret this one time. */
export interface AddWebhookResponse {
  webhook: WebhookView;
  secret: string | null;
}

export interface WebhookListResponse {
  webhooks: WebhookView[];
}

export interface DeliveryView {
  id: number;
  webhookId: number;
  webhookName: string;
  event: string;
  eventId: string;
  summary: string;
  state: 'pending' | 'sent' | 'failed' | 'skipped';
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}

export interface DeliveryListResponse {
  deliveries: DeliveryView[];
}

export interface WebhookTestResponse {
  ok: boolean;
  status: number | null;
  error: string | null;
}

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
