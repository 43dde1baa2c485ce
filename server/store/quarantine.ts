import type { QuarantineEntry } from '../../core/gate/types.js';
import type { Store } from './open.js';

export interface StoredQuarantine extends QuarantineEntry {
  createdByName: string | null;
  removedAt: number | null;
  removedByName: string | null;
}

export interface NewQuarantine {
  title: string;
  file: string | null;
  project: string | null;
  reason: string;
  owner: string | null;
  expiresAt: number | null;
  createdBy: number | null;
}

/** Every entry not removed, newest first; expired ones too (the list shows them as expired). */
export async function listQuarantine(store: Store, options: { includeRemoved?: boolean } = {}): Promise<StoredQuarantine[]> {
  let query = store.db
    .selectFrom('quarantine as q')
    .leftJoin('users as c', 'c.id', 'q.created_by')
    .leftJoin('users as r', 'r.id', 'q.removed_by')
    .select([
      'q.id', 'q.title', 'q.file', 'q.project', 'q.reason', 'q.owner', 'q.created_at', 'q.expires_at', 'q.removed_at',
      'c.username as created_by_name', 'r.username as removed_by_name',
    ])
    .orderBy('q.id', 'desc');
  if (!options.includeRemoved) query = query.where('q.removed_at', 'is', null);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    file: row.file,
    project: row.project,
    reason: row.reason,
    owner: row.owner,
    createdBy: row.created_by_name,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    removedAt: row.removed_at,
    removedByName: row.removed_by_name,
  }));
}

/** The entries that apply now: not removed, not expired. */
export async function activeQuarantine(store: Store, now: number): Promise<StoredQuarantine[]> {
  return (await listQuarantine(store)).filter((q) => q.expiresAt === null || q.expiresAt > now);
}

export async function addQuarantine(store: Store, entry: NewQuarantine, now: number): Promise<number> {
  const row = await store.db
    .insertInto('quarantine')
    .values({
      title: entry.title,
      file: entry.file,
      project: entry.project,
      reason: entry.reason,
      owner: entry.owner,
      created_by: entry.createdBy,
      created_at: now,
      expires_at: entry.expiresAt,
      removed_by: null,
      removed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Lifts an entry; false when there is no such entry in force. */
export async function removeQuarantine(store: Store, id: number, removedBy: number | null, now: number): Promise<boolean> {
  const result = await store.db
    .updateTable('quarantine')
    .set({ removed_at: now, removed_by: removedBy })
    .where('id', '=', id)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
