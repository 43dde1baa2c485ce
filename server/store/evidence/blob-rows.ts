import { sql } from 'kysely';
import type { AnyStore } from '../engine/types.js';

export interface BlobRow {
  sha256: string;
  size: number;
  content_type: string;
  stored_at: number;
  failing: number;
}

/** The evidence_blobs row of a hash: the blob is in the store (it is written after the blob). */
export async function findBlob(store: AnyStore, sha256: string): Promise<BlobRow | null> {
  return (await store.db.selectFrom('evidence_blobs').selectAll().where('sha256', '=', sha256).executeTakeFirst()) ?? null;
}

/** Which of these hashes have a blob row. */
export async function knownBlobs(store: AnyStore, hashes: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < hashes.length; i += 500) {
    const batch = hashes.slice(i, i + 500);
    if (batch.length === 0) continue;
    const rows = await store.db.selectFrom('evidence_blobs').select('sha256').where('sha256', 'in', batch).execute();
    for (const row of rows) known.add(row.sha256);
  }
  return known;
}

/**
 * Records a blob as stored (after the store has it). A blob stored again keeps its first time
 * (the quota drops the oldest), and becomes failing if this copy belongs to a failure.
 */
export async function recordBlob(store: AnyStore, row: BlobRow): Promise<void> {
  await store.db
    .insertInto('evidence_blobs')
    .values(row)
    .onConflict((oc) => oc.column('sha256').doUpdateSet({ failing: sql<number>`CASE WHEN excluded.failing > evidence_blobs.failing THEN excluded.failing ELSE evidence_blobs.failing END` }))
    .execute();
}
