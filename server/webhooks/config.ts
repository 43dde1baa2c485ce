import { randomBytes } from 'node:crypto';
import { maskWebhookUrl, WEBHOOK_DEFAULTS, type AddWebhookRequest, type WebhookEvent, type WebhookView } from '../../core/api/webhooks.js';
import { WEBHOOK_EVENTS, WEBHOOK_KINDS, type WebhookEventName } from '../../core/api/webhook-names.js';
import type { NewWebhook, StoredWebhook } from '../store/webhooks/hooks.js';
import { checkWebhookUrl } from './send.js';

export class WebhookInputError extends Error {}

const NAME_MAX = 100;
const URL_MAX = 2_000;
const SECRET_MIN = 16;

/** The CLI's `--events` arrive unchecked: the event names are checked here, for both callers. */
export type WebhookInput = Omit<AddWebhookRequest, 'events'> & { events?: readonly string[] };

/** A hook as an admin asked for it (API or CLI), checked: each problem is named, nothing is stored. */
export function checkedWebhook(input: WebhookInput, createdBy: string | null): { hook: NewWebhook; secret: string | null } {
  const name = input.name?.trim() ?? '';
  if (!name || name.length > NAME_MAX) throw new WebhookInputError(`A webhook needs a name of 1 to ${NAME_MAX} characters`);
  if (!(WEBHOOK_KINDS as readonly string[]).includes(input.kind)) throw new WebhookInputError(`Unknown webhook kind "${String(input.kind).slice(0, 50)}": use ${WEBHOOK_KINDS.join(', ')}`);
  const url = input.url?.trim() ?? '';
  if (url.length > URL_MAX) throw new WebhookInputError(`The webhook URL is longer than ${URL_MAX} characters`);
  const urlProblem = checkWebhookUrl(url);
  if (urlProblem) throw new WebhookInputError(urlProblem);
  const events = input.events && input.events.length > 0 ? [...new Set(input.events.map((e) => e.trim()))] : [...WEBHOOK_EVENTS];
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length > 0) throw new WebhookInputError(`Unknown event ${unknown.map((e) => `"${e.slice(0, 50)}"`).join(', ')}: use ${WEBHOOK_EVENTS.join(', ')}`);
  const threshold = input.passRateThreshold ?? WEBHOOK_DEFAULTS.passRateThreshold;
  if (!Number.isFinite(threshold) || threshold <= 0 || threshold > 100) throw new WebhookInputError('The pass-rate threshold is a percentage above 0 and at most 100');
  const expiryDays = input.expiryDays ?? WEBHOOK_DEFAULTS.expiryDays;
  if (!Number.isInteger(expiryDays) || expiryDays < 0 || expiryDays > 365) throw new WebhookInputError('The quarantine warning days are a whole number from 0 to 365');
  const baseBranch = input.baseBranch?.trim() || WEBHOOK_DEFAULTS.baseBranch;
  if (baseBranch.length > 200) throw new WebhookInputError('The base branch name is longer than 200 characters');
  let secret: string | null = null;
  if (input.kind === 'generic') {
    secret = input.secret?.trim() || randomBytes(32).toString('base64url');
    if (secret.length < SECRET_MIN) throw new WebhookInputError(`A signing secret needs at least ${SECRET_MIN} characters`);
  } else if (input.secret) {
    throw new WebhookInputError(`A ${input.kind} hook is not signed (its URL is its secret): give a secret to generic hooks only`);
  }
  return { hook: { name, kind: input.kind, url, secret, events: events as WebhookEventName[], baseBranch, passRateThreshold: threshold, expiryDays, createdBy }, secret };
}

/** What the API and `webhook list` show: never the secret; Slack and Teams URLs masked, a generic one without its query. */
export function webhookView(hook: StoredWebhook): WebhookView {
  return {
    id: hook.id,
    name: hook.name,
    kind: hook.kind,
    url: hook.kind === 'generic' ? withoutQuery(hook.url) : maskWebhookUrl(hook.url),
    hasSecret: hook.secret !== null,
    events: hook.events,
    baseBranch: hook.baseBranch,
    passRateThreshold: hook.passRateThreshold,
    expiryDays: hook.expiryDays,
    createdBy: hook.createdBy,
    createdAt: hook.createdAt,
  };
}

function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '…';
  }
}

/** The event `webhook test` sends: marked as a test, so a receiver can tell it from a real alert. */
export function testEvent(now = Date.now()): WebhookEvent {
  return { id: `test:${now}:${randomBytes(4).toString('hex')}`, event: 'test', at: new Date(now).toISOString(), summary: 'Test alert from flakeboard: this webhook works' };
}
