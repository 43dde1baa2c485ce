/**
 * The kinds of hook flakeboard sends to and the names of the events it sends: shared by the
 * schemas of /api/webhooks, the server, the CLI and the UI's form, so free of Zod.
 */
export const WEBHOOK_KINDS = ['slack', 'teams', 'generic'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** What a hook can be told about (docs/webhooks.md#events); `test` is sent only on request. */
export const WEBHOOK_EVENTS = ['new-flaky', 'broken-on-base', 'pass-rate', 'quarantine-expiring', 'quarantine-expired', 'upload-pending'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number] | 'test';
