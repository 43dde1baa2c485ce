/**
 * The audit trail: who changed what, when and from where. Rows are only ever added here and
 * removed by age (pruneAudit, with the runs prune removes); nothing updates them and no route
 * deletes them. Every part of flakeboard that changes state records through recordAudit.
 */
import { hostname } from 'node:os';
import type { AuditActorKind, AuditEntry } from '../../../core/api/audit.js';
import { startsWith } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

export interface AuditActor {
  kind: AuditActorKind;
  /** The user's id; null for the command line without a user, the server, or a name no account has. */
  id?: number | null;
  /** The user's name as it was when they acted. */
  name?: string | null;
}

export interface AuditRecord {
  actor: AuditActor;
  /** The request's address (request.ip), cliSource(), or 'server'. */
  source: string;
  /** `subject.verb`, one of AUDIT_ACTIONS or a documented name of its own (docs/audit.md). */
  action: string;
  target?: { type: string; id?: string | number | null; label?: string | null } | null;
  /** What else says what happened; never a password or a token. */
  detail?: Record<string, unknown> | null;
  at?: number;
}

// A label or a name is a line on a screen: bounded, so a hostile 100 KB title stays a line.
const TEXT_MAX = 500;
const DETAIL_MAX = 8_000;
const bounded = (text: string | null | undefined): string | null => (text == null ? null : text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX)}…` : text);

/** Where a command run on this machine acted from. */
export const cliSource = (): string => `cli on ${hostname()}`;

/** Adds one row. Callers await it: a change that cannot be recorded is reported, not hidden. */
export async function recordAudit(store: AnyStore, entry: AuditRecord): Promise<void> {
  let detail = entry.detail ? JSON.stringify(entry.detail) : null;
  if (detail !== null && detail.length > DETAIL_MAX) detail = JSON.stringify({ truncated: true, start: detail.slice(0, DETAIL_MAX) });
  await store.db
    .insertInto('audit_log')
    .values({
      at: entry.at ?? Date.now(),
      actor_id: entry.actor.id ?? null,
      actor_name: bounded(entry.actor.name),
      actor_kind: entry.actor.kind,
      source: bounded(entry.source) ?? '',
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id == null ? null : String(entry.target.id),
      target_label: bounded(entry.target?.label),
      detail_json: detail,
    })
    .execute();
}

export interface AuditFilter {
  /** The actor's name, exactly (case ignored on both engines). */
  actor?: string;
  /** An action, or a prefix ending in a dot (`run.`). */
  action?: string;
  /** A target type (`run`), or type and id (`run:42`). */
  target?: string;
  /** UTC ms, inclusive. */
  since?: number;
  /** UTC ms, exclusive. */
  until?: number;
}

/** The entries a filter names, newest first, and how many there are in all. */
export async function listAudit(store: AnyStore, filter: AuditFilter, paging: { limit: number; offset: number }): Promise<{ items: AuditEntry[]; total: number }> {
  let query = store.db.selectFrom('audit_log');
  if (filter.actor !== undefined) query = query.where((eb) => eb(eb.fn('lower', ['actor_name']), '=', filter.actor!.toLowerCase()));
  if (filter.action !== undefined) {
    query = filter.action.endsWith('.') ? query.where(startsWith('action', filter.action)) : query.where('action', '=', filter.action);
  }
  if (filter.target !== undefined) {
    const colon = filter.target.indexOf(':');
    query = colon < 0 ? query.where('target_type', '=', filter.target) : query.where('target_type', '=', filter.target.slice(0, colon)).where('target_id', '=', filter.target.slice(colon + 1));
  }
  if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('at', '<', filter.until);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(paging.limit).offset(paging.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((row) => ({
      id: Number(row.id),
      at: new Date(Number(row.at)).toISOString(),
      actor: { kind: row.actor_kind, id: row.actor_id === null ? null : Number(row.actor_id), name: row.actor_name },
      source: row.source,
      action: row.action,
      target: row.target_type === null ? null : { type: row.target_type, id: row.target_id, label: row.target_label },
      detail: row.detail_json === null ? null : (JSON.parse(row.detail_json) as Record<string, unknown>),
    })),
  };
}

/** How many entries are older than `before` (what a prune would remove). */
export async function countAuditBefore(store: AnyStore, before: number): Promise<number> {
  const row = await store.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).where('at', '<', before).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes the entries older than `before`: the audit trail is kept as long as the runs are. */
export async function pruneAudit(store: AnyStore, before: number): Promise<number> {
  const result = await store.db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
