import type { WebhookView } from '../../../core/api/webhooks.js';
import type { WebhookEventName, WebhookKind } from '../../../core/api/webhook-names.js';
import type { AnyStore } from '../engine/types.js';

/** A hook as stored, its secret and whole URL included: for the sender and the formats only. */
export interface StoredWebhook extends Omit<WebhookView, 'hasSecret'> {
  secret: string | null;
}

export interface NewWebhook {
  name: string;
  kind: WebhookKind;
  url: string;
  secret: string | null;
  events: readonly WebhookEventName[];
  baseBranch: string;
  passRateThreshold: number;
  expiryDays: number;
  createdBy: string | null;
}

type Row = { id: number; name: string; kind: WebhookKind; url: string; secret: string | null; events: string; base_branch: string; pass_rate_threshold: number; expiry_days: number; created_by: string | null; created_at: number };

const hookOf = (row: Row): StoredWebhook => ({
  id: Number(row.id),
  name: row.name,
  kind: row.kind,
  url: row.url,
  secret: row.secret,
  events: row.events.split(' ').filter(Boolean) as WebhookEventName[],
  baseBranch: row.base_branch,
  passRateThreshold: Number(row.pass_rate_threshold),
  expiryDays: Number(row.expiry_days),
  createdBy: row.created_by,
  createdAt: Number(row.created_at),
});

export class DuplicateWebhookError extends Error {}

export async function createWebhook(store: AnyStore, hook: NewWebhook, now = Date.now()): Promise<StoredWebhook> {
  const existing = await store.db.selectFrom('webhooks').select('id').where('name', '=', hook.name).executeTakeFirst();
  if (existing) throw new DuplicateWebhookError(`A webhook named "${hook.name}" exists already: remove it first or choose another name`);
  const row = await store.db
    .insertInto('webhooks')
    .values({
      name: hook.name,
      kind: hook.kind,
      url: hook.url,
      secret: hook.secret,
      events: hook.events.join(' '),
      base_branch: hook.baseBranch,
      pass_rate_threshold: hook.passRateThreshold,
      expiry_days: hook.expiryDays,
      created_by: hook.createdBy,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return hookOf(row);
}

export async function listWebhooks(store: AnyStore): Promise<StoredWebhook[]> {
  const rows = await store.db.selectFrom('webhooks').selectAll().orderBy('id').execute();
  return rows.map(hookOf);
}

/** By id, or by name. */
export async function findWebhook(store: AnyStore, idOrName: string | number): Promise<StoredWebhook | null> {
  const query = store.db.selectFrom('webhooks').selectAll();
  const row =
    typeof idOrName === 'number' || /^\d+$/.test(idOrName)
      ? ((await query.where('id', '=', Number(idOrName)).executeTakeFirst()) ?? (await store.db.selectFrom('webhooks').selectAll().where('name', '=', String(idOrName)).executeTakeFirst()))
      : await query.where('name', '=', idOrName).executeTakeFirst();
  return row ? hookOf(row) : null;
}

/** Removes a hook and its deliveries (pending ones are never sent). True when one was removed. */
export async function removeWebhook(store: AnyStore, id: number): Promise<boolean> {
  const result = await store.transaction(async (_sql, db) => {
    await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    return db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  });
  return Number(result.numDeletedRows) > 0;
}
