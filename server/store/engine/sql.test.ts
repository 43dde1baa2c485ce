import { beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEachEngine, freshDatabase, sameDataOn } from '../../../fixtures/testing/engines.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestFile } from '../../ingest.js';
import { dialectFor } from './dialect.js';
import { openStore } from './open.js';
import type { AnyStore } from './types.js';
import { compileNamed } from './sql.js';

const OWN_RUN = fileURLToPath(new URL('../../../fixtures/reports/own/run-1.json', import.meta.url));

describeEachEngine('SQL texts with named parameters', (engine) => {
  const db = freshDatabase(engine);
  let store: AnyStore;
  beforeAll(() => void ([store] = db.stores as [AnyStore]));

  it('binds a name used twice, and leaves @ inside quoted text alone', async () => {
    const row = await store.sql.get<{ a: number; b: number; c: string }>(`SELECT CAST(@x AS INTEGER) AS a, CAST(@x AS INTEGER) + CAST(@y AS INTEGER) AS b, '@x' AS c`, { x: 2, y: 3 });
    expect(row).toEqual({ a: 2, b: 5, c: '@x' });
  });

  it('runs writes in a transaction that rolls back whole on an error', async () => {
    await store.sql.run(`INSERT INTO settings (key, value) VALUES (@key, @value)`, { key: 'sql-test', value: 'one' });
    await expect(
      store.transaction(async (sql) => {
        expect(await sql.run(`UPDATE settings SET value = @value WHERE key = @key`, { key: 'sql-test', value: 'two' })).toBe(1);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await store.sql.value<string>(`SELECT value FROM settings WHERE key = @key`, { key: 'sql-test' })).toBe('one');
  });

  it('gives the same answers for the pieces that differ between engines', async () => {
    const t = dialectFor(store.dialect);
    const row = await store.sql.get<Record<string, unknown>>(
      `SELECT (SELECT ${t.total('n')} FROM (SELECT 1 AS n WHERE 1 = 0) AS none) AS total_none,
        ${t.utcDay('CAST(@ms AS BIGINT)')} AS day, ${t.greatest('NULL', '3')} AS g, ${t.least('2', '3')} AS l,
        (SELECT count(*) FROM (SELECT 5 AS id UNION ALL SELECT 6 UNION ALL SELECT 7) AS ids WHERE ${t.inJsonNumbers('id', '@ids')}) AS listed`,
      { ms: 86_400_000 * 3 + 5, ids: '[5,7]' },
    );
    expect(row).toEqual({ total_none: 0, day: 3, g: 3, l: 2, listed: 2 });
  });
});

it('numbers each distinct name once for PostgreSQL, and says which one has no value', () => {
  expect(compileNamed(`SELECT @a, @b, @a -- @c`, { a: 1, b: 2 }, 'postgres')).toMatchObject({ sql: 'SELECT $1, $2, $1 -- @c', parameters: [1, 2] });
  expect(() => compileNamed(`SELECT @missing`, {}, 'postgres')).toThrow('@missing');
  // The numbering is kept per text; the values are each call's own.
  expect(compileNamed(`SELECT @a, @b, @a -- @c`, { a: 'x', b: 'y' }, 'postgres')).toMatchObject({ sql: 'SELECT $1, $2, $1 -- @c', parameters: ['x', 'y'] });
  expect(() => compileNamed(`SELECT @a, @b, @a -- @c`, { a: 1 }, 'postgres')).toThrow('@b');
});

describeEachEngine('the same data on both engines', (engine) => {
  it('copies an imported SQLite store whole, so read tests compare both engines on one history', async () => {
    const temp = makeTempDir('flakeboard-same-');
    const sqlite = openStore(join(temp.dir, 'source.db'));
    try {
      ingestFile(sqlite, OWN_RUN, { fileName: 'run-1.json', approve: true, fallbackGit: () => ({ branch: null, commit: null }) });
      const copy = await sameDataOn(engine, sqlite);
      try {
        const count = `SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM results) AS results, (SELECT count(*) FROM attempts) AS attempts, (SELECT count(*) FROM test_totals) AS totals, (SELECT count(*) FROM daily_test_stats) AS daily`;
        const expected = await sqlite.sql.get<Record<string, number>>(count);
        expect(expected?.results).toBeGreaterThan(0);
        expect(await copy.store.sql.get(count)).toEqual(expected);
      } finally {
        await copy.remove();
      }
    } finally {
      await sqlite.close();
      temp.cleanup();
    }
  });
});
