import type { QuarantineView } from '../../core/api/quarantine.js';
import type { Store } from './open.js';

/** An entry as stored; whether it has expired depends on when it is asked. */
export type StoredQuarantine = Omit<QuarantineView, 'expired'>;

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

// Plain statements, not Kysely: the gate reads the quarantine inside the analytics worker,
// whose queries are synchronous.
const LIST = `
  SELECT q.id, q.title, q.file, q.project, q.reason, q.owner, q.created_at, q.expires_at, q.removed_at,
         c.username AS created_by_name, r.username AS removed_by_name
  FROM quarantine q
  LEFT JOIN users c ON c.id = q.created_by
  LEFT JOIN users r ON r.id = q.removed_by`;

/** Entries newest first: those in force and expired ones (shown as expired), removed ones on request. */
export function listQuarantine(store: Store, options: { includeRemoved?: boolean } = {}): StoredQuarantine[] {
  const rows = store.sqlite.prepare(`${LIST} ${options.includeRemoved ? '' : 'WHERE q.removed_at IS NULL'} ORDER BY q.id DESC`).all() as Row[];
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
export function activeQuarantine(store: Store, now: number): StoredQuarantine[] {
  return listQuarantine(store).filter((q) => q.expiresAt === null || q.expiresAt > now);
}

// Writes go through store.write: in `serve` they wait for the writer worker's lock without
// holding up other requests.
export function addQuarantine(store: Store, entry: NewQuarantine, now: number): Promise<number> {
  return store.write(() => {
    const result = store.sqlite
      .prepare(
        `INSERT INTO quarantine (title, file, project, reason, owner, created_by, created_at, expires_at)
         VALUES (@title, @file, @project, @reason, @owner, @createdBy, @now, @expiresAt)`,
      )
      .run({ ...entry, now });
    return Number(result.lastInsertRowid);
  });
}

/** Lifts an entry; false when no entry with that id is in the list. */
export function removeQuarantine(store: Store, id: number, removedBy: number | null, now: number): Promise<boolean> {
  return store.write(() => store.sqlite.prepare('UPDATE quarantine SET removed_at = ?, removed_by = ? WHERE id = ? AND removed_at IS NULL').run(now, removedBy, id).changes > 0);
}
