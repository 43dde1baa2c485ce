import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebhookEvent } from '../../core/api/webhooks.js';
import type { AnyStore } from '../store/engine/types.js';
import { enqueueQuarantineEvents, runIsPending } from '../store/webhooks/events.js';
import { findWebhook, type StoredWebhook } from '../store/webhooks/hooks.js';
import { claimDue, finishDelivery, releaseClaim, type ClaimedDelivery, type DeliveryOutcome } from '../store/webhooks/outbox.js';
import { sendEvent, SEND_TIMEOUT_MS } from './send.js';

export interface DrainOptions {
  /** How often the outbox is looked at. */
  intervalMs?: number;
  timeoutMs?: number;
  /** Attempts before a delivery is given up (state failed). */
  maxAttempts?: number;
  /** The wait after the first failed attempt; doubled after each, up to backoffMaxMs. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Deliveries claimed at a time. */
  batch?: number;
  /** How often the quarantine is scanned for entries expiring or expired. */
  quarantineScanMs?: number;
  /** The dashboard's address as its users reach it: events link to their run there. */
  publicUrl?: string | null;
  log?: { info(o: object, m: string): void; warn(o: object, m: string): void };
  now?: () => number;
}

export const DRAIN_DEFAULTS = { intervalMs: 2_000, maxAttempts: 8, backoffBaseMs: 30_000, backoffMaxMs: 3_600_000, batch: 10, quarantineScanMs: 15 * 60_000 } as const;

/** The wait before attempt `attempts + 1`, after `attempts` failed ones: base, 2×base, 4×base... up to max. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

export interface Drain {
  /** Claims and sends what is due now; resolves when those are done. */
  tick(): Promise<number>;
  start(): void;
  /** Ends the loop: in-flight sends are aborted and their claims released, to be sent again later. */
  stop(): Promise<void>;
}

/**
 * The one place alerts are sent from: a loop in `serve` (and `flakeboard webhook drain`). It
 * runs beside requests on timers, never inside one: an import or an upload only writes to the
 * outbox. Each server claims due rows under its own id (claimDue), so with several servers on
 * one PostgreSQL database each delivery is sent by one of them.
 */
export function createDrain(store: AnyStore, options: DrainOptions = {}): Drain {
  const settings = { ...DRAIN_DEFAULTS, ...stripUndefined(options) };
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const serverId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<unknown> = Promise.resolve();
  let lastScan = 0;

  const deliver = async (delivery: ClaimedDelivery, hooks: Map<number, StoredWebhook | null>): Promise<void> => {
    if (!hooks.has(delivery.webhookId)) hooks.set(delivery.webhookId, await findWebhook(store, delivery.webhookId));
    const hook = hooks.get(delivery.webhookId);
    if (!hook) return;
    if (delivery.event.event === 'upload-pending' && delivery.event.run && !(await runIsPending(store, delivery.event.run.id))) {
      await finishDelivery(store, delivery.id, serverId, { state: 'skipped', status: null, error: 'the run was reviewed before the alert was due' }, now());
      return;
    }
    const event: WebhookEvent = withLink(delivery.event, options.publicUrl ?? null);
    const result = await sendEvent(hook, event, { timeoutMs, signal: stopping.signal });
    if (stopping.signal.aborted && !result.ok) {
      await releaseClaim(store, delivery.id, serverId);
      return;
    }
    const attempts = delivery.attempts + 1;
    let outcome: DeliveryOutcome;
    if (result.ok) outcome = { state: 'sent', status: result.status! };
    else if (result.permanent || attempts >= settings.maxAttempts) outcome = { state: 'failed', status: result.status, error: result.error ?? 'failed' };
    else outcome = { state: 'retry', status: result.status, error: result.error ?? 'failed', nextAttemptAt: now() + backoffMs(attempts, settings.backoffBaseMs, settings.backoffMaxMs) };
    await finishDelivery(store, delivery.id, serverId, outcome, now());
    const fields = { webhook: hook.name, delivery: delivery.id, event: event.event, attempt: attempts, status: result.status };
    if (result.ok) settings.log?.info(fields, 'webhook delivered');
    else settings.log?.warn({ ...fields, error: result.error, next: outcome.state === 'retry' ? new Date(outcome.nextAttemptAt).toISOString() : outcome.state }, 'webhook delivery failed');
  };

  const inFlight = new Set<Promise<void>>();

  /** Claims what is due (up to the batch, less what is still in flight) and starts sending it. */
  const claimAndSend = async (): Promise<number> => {
    const at = now();
    if (at - lastScan >= settings.quarantineScanMs) {
      lastScan = at;
      await enqueueQuarantineEvents(store, at);
    }
    const room = settings.batch - inFlight.size;
    if (room <= 0) return 0;
    // Claimed for longer than a send can take: a claim outliving its server lapses and another server sends it.
    const claimed = await claimDue(store, serverId, at, at + timeoutMs * 3 + 30_000, room);
    const hooks = new Map<number, StoredWebhook | null>();
    for (const delivery of claimed) {
      const sending: Promise<void> = deliver(delivery, hooks)
        .catch((error: unknown) => settings.log?.warn({ delivery: delivery.id, error: error instanceof Error ? error.message : String(error) }, 'webhook delivery could not be recorded'))
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    }
    return claimed.length;
  };

  /** Claims and sends what is due now, and waits for those sends. */
  const tick = async (): Promise<number> => {
    const n = await claimAndSend();
    await Promise.all([...inFlight]);
    return n;
  };

  // The loop does not wait for sends: a receiver that hangs holds one of the batch's places
  // until its timeout, not every other hook's alerts.
  const loop = () => {
    if (stopping.signal.aborted) return;
    current = claimAndSend()
      .catch((error: unknown) => settings.log?.warn({ error: error instanceof Error ? error.message : String(error) }, 'webhook drain failed; trying again'))
      .finally(() => {
        if (!stopping.signal.aborted) timer = setTimeout(loop, settings.intervalMs).unref();
      });
  };

  return {
    tick,
    start() {
      if (timer === null && !stopping.signal.aborted) timer = setTimeout(loop, 0).unref();
    },
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await current;
      await Promise.all([...inFlight]);
    },
  };
}

function withLink(event: WebhookEvent, publicUrl: string | null): WebhookEvent {
  if (!publicUrl || !event.run) return event;
  return { ...event, run: { ...event.run, url: `${publicUrl.replace(/\/+$/, '')}/upload/${event.run.id}` } };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
