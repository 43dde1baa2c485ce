import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../core/api/webhooks.js';
import { detailLines, requestFor, signature, slackMessage, slackText, teamsMessage, teamsText } from './formats.js';

const hostile = 'checkout <!channel> @here & <https://evil.example|click> *bold* [x](https://evil.example)';
const event: WebhookEvent = {
  id: 'new-flaky:run:7',
  event: 'new-flaky',
  at: '2026-11-26T10:00:00.000Z',
  summary: `1 test flaky for the first time in ${hostile}`,
  run: { id: 7, name: hostile, branch: 'main', commit: '0123456789abcdef', project: null, url: 'https://flakeboard.example/upload/7' },
  tests: [{ title: hostile, file: 'checkout.spec.ts', project: 'chromium', owners: ['@shop/checkout', '@here'] }],
  moreTests: 0,
};

describe('every format', () => {
  it('names each test’s owners, their text made harmless like the rest', () => {
    expect(detailLines(event)).toContain(`• ${hostile} (checkout.spec.ts, chromium) owner @shop/checkout @here`);
    expect(detailLines({ ...event, tests: [{ title: 'pay', file: 'pay.spec.ts', project: '', owners: [] }] })).toContain('• pay (pay.spec.ts) no owner');
    expect(JSON.stringify(slackMessage(event))).toContain('owner @shop/checkout @\u200bhere');
  });
});

describe('Slack messages', () => {
  it('escape &, < and > and neutralise @channel, @here and @everyone', () => {
    expect(slackText('a & b <!channel> <@U123> @here @Everyone')).toBe('a &amp; b &lt;!channel&gt; &lt;@U123&gt; @\u200bhere @\u200bEveryone');
    const message = slackMessage(event);
    const text = JSON.stringify(message);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<https://evil');
    expect(text).not.toMatch(/@here/);
    expect(message.text).toContain('&lt;!channel&gt;');
    expect(message.blocks).toContainEqual({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in flakeboard' }, url: 'https://flakeboard.example/upload/7' }] });
  });
});

describe('Teams messages', () => {
  it('are an Adaptive Card whose text cannot format, link or mention', () => {
    expect(teamsText('*b* [x](y) <at>a</at> @channel')).toBe('\\*b\\* \\[x\\]\\(y\\) &lt;at\\>a&lt;/at\\> @\u200bchannel');
    const message = teamsMessage(event) as { type: string; attachments: Array<{ contentType: string; content: { type: string; version: string; body: Array<{ text: string }>; actions: unknown[] } }> };
    expect(message.type).toBe('message');
    expect(message.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = message.attachments[0]!.content;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4', actions: [{ type: 'Action.OpenUrl', url: 'https://flakeboard.example/upload/7' }] });
    for (const block of card.body) expect(block.text).not.toMatch(/(^|[^\\])[[*]/);
  });
});

describe('generic requests', () => {
  it('carry the event as JSON, signed over timestamp.body when the hook has a secret', () => {
    const now = Date.parse('2026-11-26T10:00:05Z');
    const request = requestFor({ kind: 'generic', secret: 's3cret-s3cret-s3cret' }, event, now);
    expect(JSON.parse(request.body)).toEqual(event);
    expect(request.headers['X-Flakeboard-Timestamp']).toBe(String(now / 1000));
    expect(request.headers['X-Flakeboard-Signature']).toBe(signature('s3cret-s3cret-s3cret', String(now / 1000), request.body));
    expect(request.headers['X-Flakeboard-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(request.headers['X-Flakeboard-Event']).toBe('new-flaky');
    expect(request.headers['X-Flakeboard-Delivery']).toBe('new-flaky:run:7');
    expect(requestFor({ kind: 'slack', secret: null }, event, now).headers['X-Flakeboard-Signature']).toBeUndefined();
  });
});
