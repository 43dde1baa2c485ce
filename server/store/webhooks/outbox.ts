import { sql } from 'kysely';
import type { DeliveryView, WebhookEvent } from '../../../core/api/webhooks.js';
import type { AnyStore } from '../engine/types.js';

/** One event for one hook, to be written to the outbox. */
export interface Enqueued {
  webhookId: number;
  event: WebhookEvent;
  /** When it may first be sent (now unless delayed). */
  notBefore: number;
}

/**
 * Writes events to the outbox. An event found twice for a hook (two servers scanning the
 * quarantine, an import stored again) is kept once: (webhook_id, event_key) is unique.
 * Returns how many were new.
 */
export async function enqueueDeliveries(store: AnyStore, items: readonly Enqueued[], now = Date.now()): Promise<number> {
  if (items.length === 0) return 0;
  const result = await store.db
    .insertInto('webhook_deliveries')
    .values(
      items.map((item) => ({
        webhook_id: item.webhookId,
        event_key: item.event.id,
        event: item.event.event,
        payload: JSON.stringify(item.event),
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: item.notBefore,
        last_status: null,
        last_error: null,
        claimed_by: null,
        claimed_until: null,
        created_at: now,
        sent_at: null,
      })),
    )
    .onConflict((oc) => oc.columns(['webhook_id', 'event_key']).doNothing())
    .returning('id')
    .execute();
  return result.length;
}

export interface ClaimedDelivery {
  id: number;
  webhookId: number;
  event: WebhookEvent;
  attempts: number;
}

/**
 * Claims up to `limit` due deliveries for `server` until `until`, in one statement, so that
 * several servers on one database never take the same row. On PostgreSQL the rows are chosen
 * and locked in a CTE with SKIP LOCKED (a second server's claim passes over them instead of
 * waiting, then finds them claimed): in `id IN (subquery)` PostgreSQL may run the locking
 * subquery again for each row, each run skipping the rows just locked, and claim every due row
 * whatever the limit. On SQLite the UPDATE holds the database's one write lock and its
 * uncorrelated IN list is read once. The outer WHERE repeats the due condition, which
 * PostgreSQL checks again on a row another claim changed meanwhile.
 */
export async function claimDue(store: AnyStore, server: string, now: number, until: number, limit: number): Promise<ClaimedDelivery[]> {
  const due = (table: string) => sql`${sql.ref(`${table}.state`)} = 'pending' AND ${sql.ref(`${table}.next_attempt_at`)} <= ${now} AND (${sql.ref(`${table}.claimed_until`)} IS NULL OR ${sql.ref(`${table}.claimed_until`)} < ${now})`;
  const query =
    store.dialect === 'postgres'
      ? sql<ClaimRow>`
        WITH picked AS (SELECT p.id FROM webhook_deliveries p WHERE ${due('p')} ORDER BY p.id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        UPDATE webhook_deliveries d SET claimed_by = ${server}, claimed_until = ${until}
        FROM picked WHERE d.id = picked.id AND ${due('d')}
        RETURNING d.id, d.webhook_id, d.payload, d.attempts`
      : sql<ClaimRow>`
        UPDATE webhook_deliveries AS d SET claimed_by = ${server}, claimed_until = ${until}
        WHERE ${due('d')} AND d.id IN (SELECT p.id FROM webhook_deliveries p WHERE ${due('p')} ORDER BY p.id LIMIT ${limit})
        RETURNING id, webhook_id, payload, attempts`;
  const result = await query.execute(store.db);
  return result.rows
    .map((row) => ({ id: Number(row.id), webhookId: Number(row.webhook_id), event: JSON.parse(row.payload) as WebhookEvent, attempts: Number(row.attempts) }))
    .sort((a, b) => a.id - b.id);
}

type ClaimRow = { id: number; webhook_id: number; payload: string; attempts: number };

export type DeliveryOutcome =
  | { state: 'sent'; status: number }
  | { state: 'retry'; status: number | null; error: string; nextAttemptAt: number }
  | { state: 'failed' | 'skipped'; status: number | null; error: string };

/** Records an attempt of a delivery this server claimed; false when the claim was lost (it ran out and another server took the row). */
export async function finishDelivery(store: AnyStore, id: number, server: string, outcome: DeliveryOutcome, now = Date.now()): Promise<boolean> {
  const error = outcome.state === 'sent' ? null : outcome.error.slice(0, 500);
  const result = await store.db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: outcome.state === 'skipped' ? eb.ref('attempts') : eb('attempts', '+', 1),
      state: outcome.state === 'retry' ? 'pending' : outcome.state,
      last_status: outcome.status,
      last_error: error,
      next_attempt_at: outcome.state === 'retry' ? outcome.nextAttemptAt : eb.ref('next_attempt_at'),
      sent_at: outcome.state === 'sent' ? now : null,
      claimed_by: null,
      claimed_until: null,
    }))
    .where('id', '=', id)
    .where('claimed_by', '=', server)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The latest deliveries, newest first, for admins (the settings screen, `webhook list --deliveries`). */
export async function listDeliveries(store: AnyStore, options: { limit: number; webhookId?: number }): Promise<DeliveryView[]> {
  let query = store.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.id', 'd.webhook_id', 'w.name', 'd.event', 'd.event_key', 'd.payload', 'd.state', 'd.attempts', 'd.next_attempt_at', 'd.last_status', 'd.last_error', 'd.created_at', 'd.sent_at'])
    .orderBy('d.id', 'desc')
    .limit(options.limit);
  if (options.webhookId !== undefined) query = query.where('d.webhook_id', '=', options.webhookId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: Number(row.id),
    webhookId: Number(row.webhook_id),
    webhookName: row.name,
    event: row.event,
    eventId: row.event_key,
    summary: summaryOf(row.payload),
    state: row.state,
    attempts: Number(row.attempts),
    nextAttemptAt: row.state === 'pending' ? Number(row.next_attempt_at) : null,
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    sentAt: row.sent_at === null ? null : Number(row.sent_at),
  }));
}

function summaryOf(payload: string): string {
  try {
    return String((JSON.parse(payload) as WebhookEvent).summary ?? '');
  } catch {
    return '';
  }
}

/** Whether any hook wants one of these events: an import with no hooks configured costs one query. */
export async function hooksFor(store: AnyStore): Promise<Array<{ id: number; events: string; base_branch: string; pass_rate_threshold: number; expiry_days: number }>> {
  return store.db.selectFrom('webhooks').select(['id', 'events', 'base_branch', 'pass_rate_threshold', 'expiry_days']).execute();
}

/** Gives a claimed delivery back untouched (the server is stopping): it is sent again soon, by any server. */
export async function releaseClaim(store: AnyStore, id: number, server: string): Promise<void> {
  await store.db.updateTable('webhook_deliveries').set({ claimed_by: null, claimed_until: null }).where('id', '=', id).where('claimed_by', '=', server).execute();
}

/** A delivery sent at once (`webhook test`), written to the log as it ended. */
export async function recordDelivery(store: AnyStore, webhookId: number, event: WebhookEvent, outcome: { ok: boolean; status: number | null; error: string | null }, now = Date.now()): Promise<void> {
  await store.db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: webhookId,
      event_key: event.id,
      event: event.event,
      payload: JSON.stringify(event),
      state: outcome.ok ? 'sent' : 'failed',
      attempts: 1,
      next_attempt_at: now,
      last_status: outcome.status,
      last_error: outcome.error,
      claimed_by: null,
      claimed_until: null,
      created_at: now,
      sent_at: outcome.ok ? now : null,
    })
    .execute();
}
