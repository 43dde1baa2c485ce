import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallReport } from '../../../fixtures/testing/app.js';
import { createTestTarget, type TestTarget } from '../../../fixtures/testing/engines.js';
import { HAS_POSTGRES, POSTGRES_SKIP } from '../../../fixtures/testing/postgres.js';
import { ingestValue, type IngestOptions } from '../../ingest.js';
import { POSTGRES_LOCK_REPORT } from '../engine/dialect.js';
import type { Sql } from '../engine/sql.js';
import type { PostgresStore } from '../engine/types.js';

function onPostgres(name: string, body: () => void): void {
  if (HAS_POSTGRES) describe(name, body);
  else describe.skip(`${name}: ${POSTGRES_SKIP}`, body);
}

const OPTIONS: IngestOptions = { fileName: 'same.json', uploadedBy: null };

/**
 * Identical uploads on PostgreSQL store in parallel transactions, and each run's id comes at
 * its transaction's start: the one that commits first is the original, so its id and upload
 * time must come first too, whichever began first.
 */
onPostgres('identical uploads on PostgreSQL', () => {
  let target: TestTarget;
  let store: PostgresStore;
  beforeAll(async () => {
    target = await createTestTarget('postgres');
    store = (await target.open()) as PostgresStore;
  });
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  const runRows = () => store.sql.all<{ id: number; is_duplicate: number; duplicate_of: number | null; uploaded_at: number }>(`SELECT id, is_duplicate, duplicate_of, uploaded_at FROM runs ORDER BY id`);

  it('an upload that began first but committed after an identical one is the duplicate, with the higher id and the later upload time', async () => {
    // The first upload stops before its duplicate check until the second has committed: the
    // store it writes through holds its report-lock statement at a gate (the database is real).
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let atGate!: () => void;
    const reached = new Promise<void>((resolve) => (atGate = resolve));
    const gatedSql = (sql: Sql): Sql => ({
      ...sql,
      value: async (text, params) => {
        if (text === POSTGRES_LOCK_REPORT) {
          atGate();
          await gate;
        }
        return sql.value(text, params);
      },
    });
    // Its tests exist already (another report of them): a writer creating tests holds a lock the other would wait for.
    await ingestValue(store, smallReport('same', 'failed'), { ...OPTIONS, fileName: 'other.json' });
    await store.sql.run('DELETE FROM runs');
    const gated: PostgresStore = { ...store, transaction: (work) => store.transaction((sql, db) => work(gatedSql(sql), db)) };

    const first = ingestValue(gated, smallReport('same'), OPTIONS);
    await reached;
    const second = await ingestValue(store, smallReport('same'), OPTIONS);
    open();
    const late = await first;

    expect(second.duplicate).toBe(false);
    expect([late.duplicate, late.duplicateOf]).toEqual([true, second.runId]);
    expect(late.runId).toBeGreaterThan(second.runId);
    const rows = await runRows();
    expect(rows.map((r) => [r.id, r.is_duplicate, r.duplicate_of])).toEqual([
      [second.runId, 0, null],
      [late.runId, 1, second.runId],
    ]);
    // It was received first, but is not shown as uploaded before the run it duplicates.
    expect(rows[1]!.uploaded_at).toBeGreaterThanOrEqual(rows[0]!.uploaded_at);
  });

  it('of 20 identical uploads at once, one is the original: the lowest id and the earliest upload time', async () => {
    await store.sql.run('DELETE FROM runs');
    const results = await Promise.all(Array.from({ length: 20 }, () => ingestValue(store, smallReport('twenty'), OPTIONS)));
    const originals = results.filter((r) => !r.duplicate);
    expect(originals).toHaveLength(1);
    const original = originals[0]!;
    const rows = await runRows();
    expect(rows[0]).toMatchObject({ id: original.runId, is_duplicate: 0 });
    for (const row of rows.slice(1)) {
      expect([row.is_duplicate, row.duplicate_of]).toEqual([1, original.runId]);
      expect(row.uploaded_at).toBeGreaterThanOrEqual(rows[0]!.uploaded_at);
    }
  });
});
