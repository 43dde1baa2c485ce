import type { AnyStore } from '../engine/types.js';
import type { EvidenceStore, ListedBlob } from './evidence-store.js';

/**
 * A blob stored this recently and not yet named by any run is left alone: an upload sends its
 * blobs first and its run after, and an import stores its blobs before its run commits.
 */
export const UNREFERENCED_GRACE_MS = 60 * 60 * 1000;

const BATCH = 500;

export interface SweepResult {
  blobs: number;
  bytes: number;
}

/**
 * Removes the blobs no attachment names any more (their runs were pruned, deleted or rejected),
 * stored before `now - grace`. The row goes first, then the blob: a blob the table names is
 * always there; a blob left by a crash between the two is an orphan `doctor` finds.
 */
export async function removeUnreferencedBlobs(store: AnyStore, evidence: EvidenceStore, now = Date.now(), grace = UNREFERENCED_GRACE_MS): Promise<SweepResult> {
  const result: SweepResult = { blobs: 0, bytes: 0 };
  for (;;) {
    const rows = await store.sql.all<{ sha256: string; size: number }>(
      `SELECT b.sha256, b.size FROM evidence_blobs b WHERE b.stored_at < @before AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.sha256 = b.sha256 AND a.state = 'stored') ORDER BY b.sha256 LIMIT ${BATCH}`,
      { before: now - grace },
    );
    if (rows.length === 0) return result;
    for (const row of rows) {
      // Deleted only if still unreferenced: a run stored meanwhile keeps its blob.
      const gone = await store.sql.run(
        `DELETE FROM evidence_blobs WHERE sha256 = @sha256 AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.sha256 = @sha256 AND a.state = 'stored')`,
        { sha256: row.sha256 },
      );
      if (gone === 0) continue;
      await evidence.delete(row.sha256);
      result.blobs++;
      result.bytes += Number(row.size);
    }
    if (rows.length < BATCH) return result;
  }
}

/**
 * Keeps the evidence under `maxBytes`: drops blobs, evidence of passing tests before that of
 * failures, oldest first, until the rest fits. Their attachments say `dropped`, so the screens
 * tell that the evidence was there and is gone, never show a broken link.
 */
export async function enforceEvidenceQuota(store: AnyStore, evidence: EvidenceStore, maxBytes: number): Promise<SweepResult> {
  const result: SweepResult = { blobs: 0, bytes: 0 };
  let total = Number((await store.sql.value<number>('SELECT coalesce(sum(size), 0) FROM evidence_blobs')) ?? 0);
  while (total > maxBytes) {
    const rows = await store.sql.all<{ sha256: string; size: number }>(`SELECT sha256, size FROM evidence_blobs ORDER BY failing, stored_at, sha256 LIMIT ${BATCH}`, {});
    if (rows.length === 0) break;
    for (const row of rows) {
      if (total <= maxBytes) break;
      await store.transaction(async (sql) => {
        await sql.run(`UPDATE attachments SET state = 'dropped' WHERE sha256 = @sha256 AND state = 'stored'`, { sha256: row.sha256 });
        await sql.run('DELETE FROM evidence_blobs WHERE sha256 = @sha256', { sha256: row.sha256 });
      });
      await evidence.delete(row.sha256);
      total -= Number(row.size);
      result.blobs++;
      result.bytes += Number(row.size);
    }
  }
  return result;
}

export interface EvidenceHealth {
  /** Rows of evidence_blobs, and their bytes. */
  blobs: number;
  bytes: number;
  /** Named by a row, not in the store (lost: a restored database with an older store). */
  missing: string[];
  /** In the store, named by no row (a crash between a blob and its row, or a restored store). */
  orphans: ListedBlob[];
}

/** What `doctor` says of the evidence: the rows against the store's own listing. */
export async function checkEvidence(store: AnyStore, evidence: EvidenceStore): Promise<EvidenceHealth> {
  const rows = await store.sql.all<{ sha256: string; size: number }>('SELECT sha256, size FROM evidence_blobs', {});
  const named = new Map(rows.map((row) => [row.sha256, Number(row.size)]));
  const seen = new Set<string>();
  const orphans: EvidenceHealth['orphans'] = [];
  for await (const blob of evidence.list()) {
    if (named.has(blob.sha256)) seen.add(blob.sha256);
    else orphans.push(blob);
  }
  const missing = [...named.keys()].filter((sha) => !seen.has(sha));
  return { blobs: named.size, bytes: [...named.values()].reduce((a, b) => a + b, 0), missing, orphans };
}

/**
 * Removes blobs no row names, written before the grace: a blob an import or upload has just
 * written gets its row a moment later.
 */
export async function removeOrphans(store: AnyStore, evidence: EvidenceStore, orphans: readonly ListedBlob[], now = Date.now(), grace = UNREFERENCED_GRACE_MS): Promise<SweepResult> {
  const result: SweepResult = { blobs: 0, bytes: 0 };
  for (const orphan of orphans) {
    if (orphan.modifiedAt > now - grace) continue;
    // Looked up again: a blob whose row was written since the listing is no orphan.
    const row = await store.sql.get('SELECT 1 AS one FROM evidence_blobs WHERE sha256 = @sha256', { sha256: orphan.sha256 });
    if (row) continue;
    await evidence.delete(orphan.sha256);
    result.blobs++;
    result.bytes += orphan.size;
  }
  return result;
}
