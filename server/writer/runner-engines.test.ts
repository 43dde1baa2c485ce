import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { smallReport } from '../../fixtures/testing/app.js';
import { describeEachEngine, freshDatabase } from '../../fixtures/testing/engines.js';
import { POSTGRES_LOCK_ROLLUPS } from '../store/engine/dialect.js';
import type { AnyStore } from '../store/engine/types.js';
import { createWriter } from './runner.js';

const bytes = (title: string) => Buffer.from(JSON.stringify({ testResults: smallReport(title, 'failed'), metadata: { fileName: `${title}.json` } }));

describeEachEngine('the writer worker on its engine', (engine) => {
  const db = freshDatabase(engine);
  let store: AnyStore;
  beforeAll(async () => {
    [store] = db.stores as [AnyStore];
    await store.sql.run(`INSERT INTO users (id, username, password_hash, role, created_at, updated_at) VALUES (1, 'max', 'x', 'member', 0, 0)`);
  });
  const count = async (table: string) => Number(await store.sql.value(`SELECT count(*) FROM ${table}`));

  it('stores uploads, reviews, deletes and clears through its own connection', async () => {
    const writer = createWriter(store);
    try {
      const first = await writer.upload(bytes('first'), null, 1);
      expect(first).toMatchObject({ tests: 2, duplicate: false });
      expect(await writer.upload(bytes('first'), null, 1)).toMatchObject({ duplicate: true, duplicateOf: first.runId });
      const second = await writer.upload(bytes('second'), null, 1);
      expect(await count('daily_error_stats')).toBeGreaterThan(0);
      await writer.review([{ id: first.runId, action: 'reject' }], 1, null);
      expect(await store.sql.all(`SELECT status FROM runs ORDER BY id`)).toEqual([{ status: 'rejected' }, { status: 'rejected' }, { status: 'pending' }]);
      await expect(writer.review([{ id: first.runId, action: 'approve' }], 1, null)).rejects.toMatchObject({ statusCode: 409 });
      expect(await writer.deleteRun(second.runId)).toBe(true);
      expect(await count('results')).toBe(0);
      expect(await count('daily_test_stats')).toBe(0);
      expect(await writer.clearAll()).toBe(2);
      expect(await count('runs')).toBe(0);
    } finally {
      await writer.stop();
    }
  });

  it.runIf(engine === 'postgres')('rolls an upload back when the server stops while it waits inside its transaction', async () => {
    const writer = createWriter(store);
    // Another server's writer holds the rollup lock: the upload has written its results and waits for it.
    const other = new pg.Client({ connectionString: db.target.target });
    await other.connect();
    try {
      await writer.upload(bytes('warm'), null, 1);
      await other.query('BEGIN');
      await other.query(POSTGRES_LOCK_ROLLUPS);
      const outcome = writer.upload(bytes('waiting'), null, 1).then(
        () => 'stored',
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await writer.stop();
      expect(await outcome).toMatchObject({ statusCode: 503 });
      await other.query('COMMIT');
      expect(await store.sql.all(`SELECT file_name FROM runs ORDER BY id`)).toEqual([{ file_name: 'warm.json' }]);
      expect(await count('results')).toBe(2);
    } finally {
      await other.end();
      await writer.stop();
    }
  });
});
