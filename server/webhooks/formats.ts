import { createHmac } from 'node:crypto';
import type { WebhookEvent, WebhookTest } from '../../core/api/webhooks.js';
import type { WebhookKind } from '../../core/api/webhook-names.js';

/** A request ready to send: the body as sent (the signature covers these exact bytes) and its headers. */
export interface OutgoingRequest {
  body: string;
  headers: Record<string, string>;
}

export const SIGNATURE_HEADER = 'X-Flakeboard-Signature';
export const TIMESTAMP_HEADER = 'X-Flakeboard-Timestamp';
export const EVENT_HEADER = 'X-Flakeboard-Event';
export const DELIVERY_HEADER = 'X-Flakeboard-Delivery';

/** `sha256=` and the hex HMAC-SHA256 of `timestamp.body` under the hook's secret. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The request for one event and hook; `now` gives the signed timestamp (Unix seconds). */
export function requestFor(hook: { kind: WebhookKind; secret: string | null }, event: WebhookEvent, now = Date.now()): OutgoingRequest {
  const base = { 'content-type': 'application/json', 'user-agent': 'flakeboard-webhook' };
  if (hook.kind === 'slack') return { body: JSON.stringify(slackMessage(event)), headers: base };
  if (hook.kind === 'teams') return { body: JSON.stringify(teamsMessage(event)), headers: base };
  const body = JSON.stringify(event);
  const timestamp = String(Math.floor(now / 1000));
  const headers: Record<string, string> = { ...base, [TIMESTAMP_HEADER]: timestamp, [EVENT_HEADER]: event.event, [DELIVERY_HEADER]: event.id };
  if (hook.secret) headers[SIGNATURE_HEADER] = signature(hook.secret, timestamp, body);
  return { body, headers };
}

// Text from reports (titles, file names, branches, reasons) is shown as text in every format.

/** Slack mrkdwn: &, < and > are its only control characters; @channel, @here and @everyone get a zero-width space so they notify no one. */
export function slackText(text: string): string {
  return neutraliseMentions(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/** Adaptive Card markdown: its marks are escaped with a backslash; Teams mentions need an entity, so text cannot make one. */
export function teamsText(text: string): string {
  return neutraliseMentions(text.replace(/[\\*_~`[\]()#>-]/g, (c) => `\\${c}`).replace(/</g, '&lt;'));
}

const neutraliseMentions = (text: string) => text.replace(/@(channel|here|everyone)\b/gi, '@\u200b$1');

const testLine = (t: WebhookTest) =>
  `${t.title} (${t.file}${t.project ? `, ${t.project}` : ''})${t.owners === undefined ? '' : t.owners.length > 0 ? ` owner ${t.owners.join(' ')}` : ' no owner'}`;

/** The lines of an event after its summary: the same facts in every format. */
export function detailLines(event: WebhookEvent): string[] {
  const lines: string[] = [];
  if (event.run) {
    const where = [event.run.branch && `branch ${event.run.branch}`, event.run.commit && `commit ${event.run.commit.slice(0, 12)}`, event.run.project && `project ${event.run.project}`].filter(Boolean).join(', ');
    lines.push(`Run ${event.run.id}: ${event.run.name}${where ? ` (${where})` : ''}`);
  }
  for (const test of event.tests ?? []) lines.push(`• ${testLine(test)}`);
  if (event.moreTests) lines.push(`…and ${event.moreTests} more`);
  if (event.passRate) lines.push(`Pass rate ${event.passRate.percent}%, threshold ${event.passRate.threshold}%${event.passRate.previousPercent === null ? '' : `, previous run ${event.passRate.previousPercent}%`}`);
  if (event.quarantine) {
    const q = event.quarantine;
    lines.push(`Entry ${q.id}: ${q.title}${q.file ? ` in ${q.file}` : ''}; reason: ${q.reason}${q.owner ? `; owner: ${q.owner}` : ''}${q.expiresAt ? `; expires ${q.expiresAt}` : ''}`);
  }
  return lines;
}

export function slackMessage(event: WebhookEvent): { text: string; blocks: unknown[] } {
  const summary = slackText(event.summary);
  const details = detailLines(event).map(slackText);
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${summary}*` } }];
  // A section's text is limited to 3000 characters.
  if (details.length > 0) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: details.join('\n').slice(0, 2900) } });
  if (event.run?.url) blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in flakeboard' }, url: event.run.url }] });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: slackText(`flakeboard · ${event.event} · ${event.at}`) }] });
  return { text: summary, blocks };
}

export function teamsMessage(event: WebhookEvent): unknown {
  const body: unknown[] = [
    { type: 'TextBlock', text: teamsText(event.summary), weight: 'Bolder', size: 'Medium', wrap: true },
    ...detailLines(event).map((line) => ({ type: 'TextBlock', text: teamsText(line), wrap: true, spacing: 'Small' })),
    { type: 'TextBlock', text: teamsText(`flakeboard · ${event.event} · ${event.at}`), isSubtle: true, size: 'Small', wrap: true },
  ];
  const actions = event.run?.url ? [{ type: 'Action.OpenUrl', title: 'Open in flakeboard', url: event.run.url }] : [];
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body, ...(actions.length ? { actions } : {}) },
      },
    ],
  };
}
