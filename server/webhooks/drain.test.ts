import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../core/api/webhooks.js';
import { writeGateReport, type Outcome } from '../../fixtures/testing/gate-reports.js';
import { openTestStore, type TestStore } from '../../fixtures/testing/store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { startReceiver, verifySignature, type Receiver } from '../../fixtures/testing/webhook-receiver.js';
import { ingestFile } from '../ingest.js';
import { addQuarantine } from '../store/read/quarantine.js';
import { enqueueQuarantineEvents, enqueueRunEvents } from '../store/webhooks/events.js';
import { createWebhook, type NewWebhook } from '../store/webhooks/hooks.js';
import { claimDue, enqueueDeliveries, listDeliveries } from '../store/webhooks/outbox.js';
import { backoffMs, createDrain } from './drain.js';

const SECRET = 'a-secret-of-enough-length-0123456789';
let db: TestStore;
let temp: ReturnType<typeof makeTempDir>;
let receiver: Receiver;

beforeEach(async () => {
  db = await openTestStore();
  temp = makeTempDir('flakeboard-webhooks-');
});
afterEach(async () => {
  await receiver?.close();
  await db.remove();
  temp.cleanup();
});

const hook = (over: Partial<NewWebhook> = {}): NewWebhook => ({
  name: 'alerts',
  kind: 'generic',
  url: receiver.url,
  secret: SECRET,
  events: ['new-flaky', 'broken-on-base', 'pass-rate', 'quarantine-expiring', 'quarantine-expired', 'upload-pending'],
  baseBranch: 'main',
  passRateThreshold: 90,
  expiryDays: 3,
  createdBy: 'admin',
  ...over,
});

let runs = 0;
async function importRun(outcomes: Record<string, Outcome>, day: string, branch = 'main', approve = true): Promise<number> {
  const file = writeGateReport(temp.dir, `run-${++runs}.json`, outcomes, `${day}T10:00:00.000Z`);
  const result = await ingestFile(db.store, file, { fileName: `run-${runs}.json`, gitBranch: branch, gitCommit: `c${runs}`, approve });
  return result.runId;
}

const events = async () => (await db.store.db.selectFrom('webhook_deliveries').select(['event', 'payload']).orderBy('id').execute()).map((r) => JSON.parse(r.payload) as WebhookEvent);

describe('the events of a run', () => {
  it('finds a new flaky test, a test broken on the base branch and a falling pass rate once, and an upload waiting for review', async () => {
    receiver = await startReceiver();
    await createWebhook(db.store, hook());
    expect(await enqueueRunEvents(db.store, await importRun({ a: 'passed', b: 'passed', c: 'passed' }, '2026-11-01'))).toBe(0);
    // Test a's file has an owner in CODEOWNERS (kept by a run stored without one): alerts name them.
    const a = await db.store.db.selectFrom('tests').select('id').where('title', '=', 'a').executeTakeFirstOrThrow();
    await db.store.db.insertInto('test_owners').values({ test_id: a.id, owner: '@shop', source: 'codeowners' }).execute();
    const second = await importRun({ a: 'failed', b: 'flaky', c: 'passed' }, '2026-11-02');
    expect(await enqueueRunEvents(db.store, second)).toBe(3);
    const found = await events();
    expect(found.map((e) => e.event).sort()).toEqual(['broken-on-base', 'new-flaky', 'pass-rate']);
    expect(found.find((e) => e.event === 'new-flaky')).toMatchObject({ id: `new-flaky:run:${second}`, tests: [{ title: 'b', file: 'checkout.spec.ts', project: 'chromium', owners: [] }], run: { id: second, branch: 'main', commit: 'c2' } });
    expect(found.find((e) => e.event === 'broken-on-base')!.tests).toEqual([{ title: 'a', file: 'checkout.spec.ts', project: 'chromium', owners: ['@shop'] }]);
    expect(found.find((e) => e.event === 'pass-rate')!.passRate).toEqual({ percent: 33.3, threshold: 90, previousPercent: 100 });
    // The same again: a was already failing, b already flaky, the pass rate already below.
    expect(await enqueueRunEvents(db.store, await importRun({ a: 'failed', b: 'flaky', c: 'passed' }, '2026-11-03'))).toBe(0);
    // Enqueuing a run twice keeps one delivery per event.
    expect(await enqueueRunEvents(db.store, second)).toBe(0);
    const pending = await importRun({ a: 'passed', b: 'passed', c: 'passed' }, '2026-11-04', 'feature', false);
    expect(await enqueueRunEvents(db.store, pending)).toBe(1);
    expect((await events()).at(-1)).toMatchObject({ event: 'upload-pending', run: { id: pending, branch: 'feature' } });
  });

  it('sends only the events a hook asked for, on its own base branch and threshold', async () => {
    receiver = await startReceiver();
    await createWebhook(db.store, hook({ name: 'flaky only', events: ['new-flaky'] }));
    await createWebhook(db.store, hook({ name: 'strict', events: ['pass-rate'], passRateThreshold: 99 }));
    await createWebhook(db.store, hook({ name: 'other base', events: ['broken-on-base', 'pass-rate'], baseBranch: 'develop' }));
    await importRun({ a: 'passed', b: 'passed', c: 'passed' }, '2026-11-01');
    await enqueueRunEvents(db.store, await importRun({ a: 'failed', b: 'flaky', c: 'passed' }, '2026-11-02'));
    const rows = await db.store.db.selectFrom('webhook_deliveries as d').innerJoin('webhooks as w', 'w.id', 'd.webhook_id').select(['w.name', 'd.event']).orderBy('d.id').execute();
    expect(rows.map((r) => `${r.name}: ${r.event}`).sort()).toEqual(['flaky only: new-flaky', 'strict: pass-rate']);
  });

  it('costs no delivery when no hook exists', async () => {
    expect(await enqueueRunEvents(db.store, await importRun({ a: 'failed' }, '2026-11-01'))).toBe(0);
    expect(await events()).toEqual([]);
  });

  it('announces a quarantine entry expiring within the hook’s days and one expired, each once however often it is scanned', async () => {
    receiver = await startReceiver();
    await createWebhook(db.store, hook());
    const now = Date.parse('2026-11-20T12:00:00Z');
    const entry = (title: string, expiresAt: number | null) => addQuarantine(db.store, { title, file: null, project: null, reason: 'flaky <b>', owner: 'qa', expiresAt, createdBy: null }, now - 86_400_000);
    await entry('soon', now + 2 * 86_400_000);
    await entry('later', now + 10 * 86_400_000);
    await entry('gone', now - 3_600_000);
    await entry('never', null);
    expect(await enqueueQuarantineEvents(db.store, now)).toBe(2);
    expect(await enqueueQuarantineEvents(db.store, now + 60_000)).toBe(0);
    expect((await events()).map((e) => `${e.event} ${e.quarantine!.title}`).sort()).toEqual(['quarantine-expired gone', 'quarantine-expiring soon']);
  });
});

describe('the drain', () => {
  it('posts the event signed with HMAC-SHA256 over timestamp.body, which a receiver verifies', async () => {
    receiver = await startReceiver();
    await createWebhook(db.store, hook({ events: ['new-flaky', 'upload-pending'] }));
    await importRun({ a: 'passed' }, '2026-11-01');
    await enqueueRunEvents(db.store, await importRun({ a: 'flaky' }, '2026-11-02'));
    const drain = createDrain(db.store, { publicUrl: 'https://flakeboard.example/' });
    expect(await drain.tick()).toBe(1);
    const [request] = await receiver.waitFor(1);
    expect(verifySignature(SECRET, request!.headers, request!.body)).toBe('ok');
    expect(verifySignature('another-secret-0123456789', request!.headers, request!.body)).toBe('bad signature');
    expect(verifySignature(SECRET, request!.headers, request!.body.replace('"a"', '"z"'))).toBe('bad signature');
    expect(verifySignature(SECRET, request!.headers, request!.body, Date.now() + 10 * 60_000)).toBe('stale');
    expect(request!.headers['x-flakeboard-event']).toBe('new-flaky');
    const body = JSON.parse(request!.body) as WebhookEvent;
    expect(body).toMatchObject({ event: 'new-flaky', tests: [{ title: 'a' }] });
    expect(body.run!.url).toBe(`https://flakeboard.example/upload/${body.run!.id}`);
    expect(await listDeliveries(db.store, { limit: 5 })).toMatchObject([{ state: 'sent', attempts: 1, lastStatus: 200, lastError: null }]);
    expect(await drain.tick()).toBe(0);
  });

  it('retries a failed delivery after an exponential backoff, then records the success', async () => {
    receiver = await startReceiver([500, 503, 200]);
    await createWebhook(db.store, hook({ events: ['new-flaky', 'upload-pending'] }));
    await importRun({ a: 'passed' }, '2026-11-01');
    await enqueueRunEvents(db.store, await importRun({ a: 'flaky' }, '2026-11-02'));
    expect(backoffMs(1, 200, 10_000)).toBe(200);
    expect(backoffMs(2, 200, 10_000)).toBe(400);
    expect(backoffMs(9, 200, 10_000)).toBe(10_000);
    const drain = createDrain(db.store, { intervalMs: 20, backoffBaseMs: 200, backoffMaxMs: 10_000 });
    drain.start();
    try {
      const got = await receiver.waitFor(3);
      // Waits of at least 200 ms, then 400 ms, between the attempts.
      expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(190);
      expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(390);
      expect(new Set(got.map((r) => JSON.parse(r.body).id)).size).toBe(1);
      await expect.poll(async () => (await listDeliveries(db.store, { limit: 5 }))[0]).toMatchObject({ state: 'sent', attempts: 3, lastStatus: 200 });
    } finally {
      await drain.stop();
    }
  });

  it('gives up after the attempts allowed, and at once on a receiver that refuses (404)', async () => {
    receiver = await startReceiver([500, 500, 404]);
    await createWebhook(db.store, hook({ events: ['new-flaky', 'upload-pending'] }));
    await importRun({ a: 'passed' }, '2026-11-01');
    await enqueueRunEvents(db.store, await importRun({ a: 'flaky' }, '2026-11-02'));
    const drain = createDrain(db.store, { intervalMs: 10, backoffBaseMs: 10, maxAttempts: 2 });
    drain.start();
    try {
      await expect.poll(async () => (await listDeliveries(db.store, { limit: 5 }))[0]).toMatchObject({ state: 'failed', attempts: 2, lastStatus: 500, lastError: 'the receiver answered 500' });
      await db.store.db.updateTable('webhook_deliveries').set({ state: 'pending', attempts: 0 }).execute();
      await expect.poll(async () => (await listDeliveries(db.store, { limit: 5 }))[0]).toMatchObject({ state: 'failed', attempts: 1, lastStatus: 404 });
    } finally {
      await drain.stop();
    }
  });

  it('stops at once while a receiver hangs, giving the delivery back unsent', async () => {
    receiver = await startReceiver(['hang']);
    await createWebhook(db.store, hook({ events: ['new-flaky', 'upload-pending'] }));
    await importRun({ a: 'passed' }, '2026-11-01');
    await enqueueRunEvents(db.store, await importRun({ a: 'flaky' }, '2026-11-02'));
    const drain = createDrain(db.store, { intervalMs: 10, timeoutMs: 30_000 });
    drain.start();
    await receiver.waitFor(1);
    const started = performance.now();
    await drain.stop();
    expect(performance.now() - started).toBeLessThan(2_000);
    const row = await db.store.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'pending', attempts: 0, claimed_by: null, claimed_until: null });
  });

  it('drops an upload-pending alert whose run was reviewed before it was due', async () => {
    receiver = await startReceiver();
    await createWebhook(db.store, hook({ events: ['new-flaky', 'upload-pending'] }));
    const run = await importRun({ a: 'passed' }, '2026-11-01', 'feature', false);
    await enqueueRunEvents(db.store, run);
    await db.store.db.updateTable('runs').set({ status: 'approved' }).where('id', '=', run).execute();
    await db.store.db.updateTable('webhook_deliveries').set({ next_attempt_at: 0 }).execute();
    expect(await createDrain(db.store).tick()).toBe(1);
    expect(receiver.received).toEqual([]);
    expect(await listDeliveries(db.store, { limit: 5 })).toMatchObject([{ state: 'skipped', lastError: 'the run was reviewed before the alert was due' }]);
  });
});

describe('claiming', () => {
  it('claims at most the batch, and nothing another server holds', async () => {
    receiver = await startReceiver();
    const { id } = await createWebhook(db.store, hook());
    const now = Date.now();
    await enqueueDeliveries(db.store, Array.from({ length: 7 }, (_, i) => ({ webhookId: id, notBefore: now, event: { id: `test:${i}`, event: 'test' as const, at: '', summary: '' } })));
    const first = await claimDue(db.store, 'one', now, now + 60_000, 3);
    const second = await claimDue(db.store, 'two', now, now + 60_000, 3);
    expect(first.map((d) => d.id)).toEqual([1, 2, 3]);
    expect(second.map((d) => d.id)).toEqual([4, 5, 6]);
    // A claim that outlived its server lapses: after its end, another server takes the row.
    expect((await claimDue(db.store, 'three', now + 61_000, now + 120_000, 10)).map((d) => d.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
