import type { AttachmentInfo, AttemptEvidence } from '../../../core/api/evidence.js';
import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

function textsFor(dialect: DialectName) {
  const t = dialectFor(dialect);
  return {
    attempts: `SELECT result_id, retry, status, duration_ms FROM attempts WHERE ${t.inJsonNumbers('result_id', '@ids')} ORDER BY result_id, retry`,
    attachments: `SELECT result_id, retry, name, content_type, kind, sha256, size, state FROM attachments
      WHERE ${t.inJsonNumbers('result_id', '@ids')} ORDER BY result_id, retry, ordinal`,
  };
}
const TEXTS = { sqlite: textsFor('sqlite'), postgres: textsFor('postgres') };

type AttachmentRow = { result_id: number; retry: number; name: string; content_type: string; kind: AttachmentInfo['kind']; sha256: string | null; size: number | null; state: AttachmentInfo['state'] };

/**
 * The attempts of these results, each with its attachments (what the run details and the flaky
 * dialog show as evidence): two queries for a page, whatever its length.
 */
export async function attemptsOf(store: AnyStore, resultIds: readonly number[]): Promise<Map<number, AttemptEvidence[]>> {
  const byResult = new Map<number, AttemptEvidence[]>();
  if (resultIds.length === 0) return byResult;
  const texts = TEXTS[store.dialect];
  const ids = JSON.stringify(resultIds);
  const attempts = await store.sql.all<{ result_id: number; retry: number; status: string; duration_ms: number }>(texts.attempts, { ids });
  const byKey = new Map<string, AttemptEvidence>();
  for (const row of attempts) {
    const attempt: AttemptEvidence = { retry: Number(row.retry), status: row.status, duration_ms: Number(row.duration_ms), attachments: [] };
    const list = byResult.get(Number(row.result_id)) ?? [];
    list.push(attempt);
    byResult.set(Number(row.result_id), list);
    byKey.set(`${row.result_id}/${row.retry}`, attempt);
  }
  for (const row of await store.sql.all<AttachmentRow>(texts.attachments, { ids })) {
    byKey.get(`${row.result_id}/${row.retry}`)?.attachments.push({
      name: row.name,
      contentType: row.content_type,
      kind: row.kind,
      // A dropped blob is gone: its hash would only be a broken link.
      sha256: row.state === 'stored' ? row.sha256 : null,
      size: row.size === null ? null : Number(row.size),
      state: row.state,
    });
  }
  return byResult;
}

/** The rows, each with `attempts` (empty for a result stored without any). */
export async function withAttempts<T extends { id: number }>(store: AnyStore, rows: T[]): Promise<Array<T & { attempts: AttemptEvidence[] }>> {
  const attempts = await attemptsOf(store, rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, attempts: attempts.get(row.id) ?? [] }));
}
