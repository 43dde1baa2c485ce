import type { QuarantineView } from '../../../core/api/quarantine.js';
import type { AnyStore } from '../engine/types.js';

/** An entry as stored; whether it has expired depends on when it is asked. */
export type StoredQuarantine = Omit<QuarantineView, 'expired' | 'through'>;

export interface NewQuarantine {
  title: string;
  file: string | null;
  project: string | null;
  reason: string;
  owner: string | null;
  expiresAt: number | null;
  createdBy: number | null;
}

interface Row {
  id: number;
  title: string;
  file: string | null;
  project: string | null;
  reason: string;
  owner: string | null;
  created_at: number;
  expires_at: number | null;
  removed_at: number | null;
  created_by_name: string | null;
  removed_by_name: string | null;
}

// SQL texts (sql.ts), the same on both engines.
const LIST = `
  SELECT q.id, q.title, q.file, q.project, q.reason, q.owner, q.created_at, q.expires_at, q.removed_at,
         c.username AS created_by_name, r.username AS removed_by_name
  FROM quarantine q
  LEFT JOIN users c ON c.id = q.created_by
  LEFT JOIN users r ON r.id = q.removed_by`;

const LIST_ALL = `${LIST} ORDER BY q.id DESC`;
const LIST_IN_FORCE = `${LIST} WHERE q.removed_at IS NULL ORDER BY q.id DESC`;

/** Entries newest first: those in force and expired ones (shown as expired), removed ones on request. */
export async function listQuarantine(store: AnyStore, options: { includeRemoved?: boolean } = {}): Promise<StoredQuarantine[]> {
  const rows = await store.sql.all<Row>(options.includeRemoved ? LIST_ALL : LIST_IN_FORCE);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    file: row.file,
    project: row.project,
    reason: row.reason,
    owner: row.owner,
    createdBy: row.created_by_name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    removedAt: row.removed_at,
    removedBy: row.removed_by_name,
  }));
}

/** The entries that apply now: not removed, not expired. */
export async function activeQuarantine(store: AnyStore, now: number): Promise<StoredQuarantine[]> {
  return (await listQuarantine(store)).filter((q) => q.expiresAt === null || q.expiresAt > now);
}

// One statement each: on SQLite a Kysely statement that writes waits for the write lock
// asynchronously (waiting-driver.ts), so `serve` goes on answering other requests meanwhile.
export async function addQuarantine(store: AnyStore, entry: NewQuarantine, now: number): Promise<number> {
  const id = await store.sql.value<number>(
    `INSERT INTO quarantine (title, file, project, reason, owner, created_by, created_at, expires_at)
     VALUES (@title, @file, @project, @reason, @owner, @createdBy, @now, @expiresAt) RETURNING id`,
    { title: entry.title, file: entry.file, project: entry.project, reason: entry.reason, owner: entry.owner, createdBy: entry.createdBy, now, expiresAt: entry.expiresAt },
  );
  return Number(id);
}

/** Lifts an entry; false when no entry with that id is in the list. */
export async function removeQuarantine(store: AnyStore, id: number, removedBy: number | null, now: number): Promise<boolean> {
  return (await store.sql.run('UPDATE quarantine SET removed_at = @now, removed_by = @removedBy WHERE id = @id AND removed_at IS NULL', { now, removedBy, id })) > 0;
}
