import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SCRYPT } from '../../fixtures/testing/app.js';
import { createTestDatabase, HAS_POSTGRES, POSTGRES_SKIP, type TestDatabase } from '../../fixtures/testing/postgres.js';
import { startReceiver, verifySignature, type Receiver } from '../../fixtures/testing/webhook-receiver.js';
import { buildApp } from '../app.js';
import { openAnyStore } from '../store/engine/open-any.js';
import type { AnyStore } from '../store/engine/types.js';
import { createWebhook } from '../store/webhooks/hooks.js';
import { enqueueDeliveries, listDeliveries } from '../store/webhooks/outbox.js';

const SECRET = 'shared-secret-for-two-servers-0123';
const EVENTS = 60;

describe.skipIf(!HAS_POSTGRES)('webhooks with several servers on one PostgreSQL database', () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const stores: AnyStore[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // A receiver that takes a moment per request, as real ones do: both servers are busy at once.
    receiver = await startReceiver([], { delayMs: 25 });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await receiver?.close();
    await database?.drop();
  });

  it('sends each delivery once although two servers drain the same outbox', async () => {
    for (let i = 0; i < 2; i++) stores.push(await openAnyStore(database.url));
    const hook = await createWebhook(stores[0]!, { name: 'shared', kind: 'generic', url: receiver.url, secret: SECRET, events: ['new-flaky'], baseBranch: 'main', passRateThreshold: 90, expiryDays: 3, createdBy: null });
    // Two servers, each with its own pool and drain, claiming a few rows at a time.
    const sentBy = [0, 0];
    for (const [i, store] of stores.entries()) {
      const log = { info: () => sentBy[i]!++, warn: () => {} };
      const app = await buildApp({ store, uiDir: null, scrypt: TEST_SCRYPT, webhookDrain: { intervalMs: 5, batch: 3, log } });
      apps.push(app);
    }
    await Promise.all(apps.map((app) => app.ready()));
    const now = Date.now();
    await enqueueDeliveries(
      stores[0]!,
      Array.from({ length: EVENTS }, (_, i) => ({ webhookId: hook.id, notBefore: now, event: { id: `new-flaky:run:${i + 1}`, event: 'new-flaky' as const, at: new Date(now).toISOString(), summary: `event ${i + 1}` } })),
    );
    await receiver.waitFor(EVENTS);
    await expect.poll(async () => (await listDeliveries(stores[1]!, { limit: 500 })).filter((d) => d.state === 'sent').length, { timeout: 10_000 }).toBe(EVENTS);
    // A moment more: nothing is sent a second time.
    await new Promise((r) => setTimeout(r, 300));
    const ids = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(ids.length).toBe(EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);
    // Both took part, and between them sent each once.
    expect(sentBy[0]! + sentBy[1]!).toBe(EVENTS);
    expect(Math.min(...sentBy)).toBeGreaterThan(0);
    expect(receiver.received.every((r) => verifySignature(SECRET, r.headers, r.body) === 'ok')).toBe(true);
    const claimedBy = await stores[0]!.db.selectFrom('webhook_deliveries').select(['attempts', 'claimed_by']).execute();
    expect(claimedBy.every((row) => Number(row.attempts) === 1 && row.claimed_by === null)).toBe(true);
  });
});

if (!HAS_POSTGRES) describe('webhooks with several servers on one PostgreSQL database', () => it.skip(POSTGRES_SKIP, () => {}));
