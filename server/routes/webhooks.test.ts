import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddWebhookResponse, DeliveryListResponse, WebhookEvent, WebhookListResponse } from '../../core/api/webhooks.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { gateReport } from '../../fixtures/testing/gate-reports.js';
import { startReceiver, verifySignature, type Receiver } from '../../fixtures/testing/webhook-receiver.js';

let t: TestApp;
let admin: Signed;
let rita: Signed;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await buildTestApp({ webhookDrain: { intervalMs: 20 } });
  await t.app.ready();
  admin = await signIn(t.app, 'admin');
  rita = await signIn(t.app, 'rita');
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const add = (who: Signed, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/webhooks', headers: who.headers, payload });
const count = async () => Number(await t.store.sql.value<number>('SELECT count(*) AS n FROM webhooks'));

describe('/api/webhooks', () => {
  it('is for admins only, checked by the server', async () => {
    for (const [method, url] of [['GET', '/api/webhooks'], ['POST', '/api/webhooks'], ['GET', '/api/webhooks/deliveries'], ['DELETE', '/api/webhooks/1'], ['POST', '/api/webhooks/1/test']] as const) {
      const res = await t.app.inject({ method, url, headers: rita.headers, ...(method === 'POST' && url === '/api/webhooks' ? { payload: { name: 'x', kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' } } : {}) });
      expect([url, res.statusCode]).toEqual([url, 403]);
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });

  it('refuses a URL that is not http(s), naming the problem, and stores nothing', async () => {
    for (const url of ['ftp://example.com/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'https://user:pw@example.com/hook']) {
      const res = await add(admin, { name: 'bad', kind: 'generic', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/http:\/\/ or https:\/\/|not a URL|user name or password/);
    }
    // The metadata address inside IPv6 too: IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::/96), which a NAT64 network routes to it.
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://0.0.0.0:8080/api/clear-all', 'http://[::169.254.169.254]/', 'http://[64:ff9b::a9fe:a9fe]/']) {
      const res = await add(admin, { name: 'bad', kind: 'generic', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/link-local|unspecified/);
    }
    expect((await add(admin, { name: 'bad', kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X', secret: 'abcdefghijklmnopqrstuvwxyz' })).json().error).toMatch(/give a secret to generic hooks only/);
    expect((await add(admin, { name: 'bad', kind: 'generic', url: 'https://example.com', events: ['everything'] })).statusCode).toBe(400);
    expect(await count()).toBe(0);
  });

  it('returns a generic hook’s secret once, never again, and masks a Slack URL', async () => {
    const res = await add(admin, { name: 'receiver', kind: 'generic', url: receiver.url, events: ['new-flaky', 'upload-pending'] });
    expect(res.statusCode).toBe(201);
    const created = res.json() as AddWebhookResponse;
    expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.webhook).toMatchObject({ name: 'receiver', kind: 'generic', hasSecret: true, createdBy: 'admin', events: ['new-flaky', 'upload-pending'] });
    expect((await add(admin, { name: 'receiver', kind: 'generic', url: receiver.url })).statusCode).toBe(409);
    // On loopback: nothing leaves the machine, even if the drain tried it.
    const slack = await add(admin, { name: 'slack', kind: 'slack', url: 'http://127.0.0.1:9/services/T000/B000/XXXXSECRETXXXX', events: ['pass-rate'] });
    expect(slack.json().secret).toBeNull();
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: admin.headers });
    expect(list.body).not.toContain(created.secret!);
    expect(list.body).not.toContain('XXXXSECRETXXXX');
    expect((list.json() as WebhookListResponse).webhooks.find((h) => h.name === 'slack')!.url).toBe('http://127.0.0.1:9/service…');
    receiverSecret = created.secret!;
    receiverId = created.webhook.id;
  });

  it('sends a test alert at once and answers the receiver’s status', async () => {
    receiver.script = [202];
    const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/${receiverId}/test`, headers: admin.headers });
    expect(res.json()).toEqual({ ok: true, status: 202, error: null });
    const got = receiver.received.at(-1)!;
    expect(verifySignature(receiverSecret, got.headers, got.body)).toBe('ok');
    expect(JSON.parse(got.body)).toMatchObject({ event: 'test' });
    // A request the server makes on an admin's word, to an address the admin chose: recorded.
    const audit = await t.store.sql.get<{ action: string; actor_name: string; target_id: string; detail_json: string }>("SELECT action, actor_name, target_id, detail_json FROM audit_log WHERE action = 'webhook.test' ORDER BY id DESC LIMIT 1");
    expect(audit && { ...audit, detail_json: JSON.parse(audit.detail_json) }).toEqual({ action: 'webhook.test', actor_name: 'admin', target_id: String(receiverId), detail_json: { ok: true, status: 202 } });
  });

  it('alerts on an upload waiting for review and, once approved, on its new flaky test, sent by the server’s drain', async () => {
    const before = receiver.received.length;
    const first = await t.app.inject({ method: 'POST', url: '/api/upload', headers: admin.headers, payload: { testResults: gateReport({ a: 'passed' }, '2026-11-01T10:00:00.000Z'), metadata: { fileName: 'one.json', gitBranch: 'main' } } });
    const second = await t.app.inject({ method: 'POST', url: '/api/upload', headers: admin.headers, payload: { testResults: gateReport({ a: 'flaky' }, '2026-11-02T10:00:00.000Z'), metadata: { fileName: 'two.json', gitBranch: 'main' } } });
    const ids = [first.json().runId as number, second.json().runId as number];
    const review = await t.app.inject({ method: 'POST', url: '/api/uploads/bulk-review', headers: admin.headers, payload: { uploads: ids.map((id) => ({ id, action: 'approve' })) } });
    expect(review.statusCode, review.body).toBeLessThan(300);
    await receiver.waitFor(before + 1);
    const sent = receiver.received.slice(before).map((r) => JSON.parse(r.body) as WebhookEvent);
    expect(sent.map((e) => e.event)).toEqual(['new-flaky']);
    expect(sent[0]!.tests).toEqual([{ title: 'a', file: 'checkout.spec.ts', project: 'chromium', owners: [] }]);
    // The upload-pending alerts were due after the reviews: skipped, not sent.
    await expect
      .poll(async () => ((await t.app.inject({ method: 'GET', url: '/api/webhooks/deliveries', headers: admin.headers })).json() as DeliveryListResponse).deliveries.filter((d) => d.event === 'upload-pending').map((d) => d.state), { timeout: 15_000 })
      .toEqual(['skipped', 'skipped']);
  });

  it('removes a hook and its deliveries', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${receiverId}`, headers: admin.headers })).json()).toEqual({ success: true });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${receiverId}`, headers: admin.headers })).statusCode).toBe(404);
    expect(Number(await t.store.sql.value<number>(`SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ${receiverId}`))).toBe(0);
    // Who added, tried and removed it is in the audit trail.
    const audit = await t.store.sql.all<{ action: string; actor_name: string }>(`SELECT action, actor_name FROM audit_log WHERE target_type = 'webhook' AND target_id = '${receiverId}' ORDER BY id`);
    expect(audit).toEqual([
      { action: 'webhook.create', actor_name: 'admin' },
      { action: 'webhook.test', actor_name: 'admin' },
      { action: 'webhook.remove', actor_name: 'admin' },
    ]);
  });
});

let receiverSecret = '';
let receiverId = 0;
