import { join } from 'node:path';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, HAS_POSTGRES, POSTGRES_SKIP, type TestDatabase } from '../../../fixtures/testing/postgres.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { databaseTrouble, isPostgresUrl, startsWith, isReadOnlyTrouble, postgresText, dialectFor, redactUrl, type DialectName } from './dialect.js';
import { MIGRATIONS } from './migrations.js';
import { openPostgres, postgresSchemaVersion } from './open-postgres.js';
import type { PostgresStore, Store } from './types.js';
import { openStore } from './open.js';
import { postgresShape, sqliteShape } from './schema-compare.js';
import { monthOf, WEEK } from './rollup-shape.js';
import type { DatabaseSchema } from './schema.js';

describe('dialect: names and URLs', () => {
  it('tells a PostgreSQL URL from a SQLite path', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h:5433/db')).toBe(true);
    expect(isPostgresUrl('POSTGRES://h/db')).toBe(true);
    expect(isPostgresUrl('.flakeboard/flakeboard.db')).toBe(false);
    expect(isPostgresUrl('postgres.db')).toBe(false);
  });

  it('hides the password of a URL', () => {
    expect(redactUrl('postgres://fb:s3cret@db.example:5432/flakeboard')).toBe('postgres://fb:***@db.example:5432/flakeboard');
    expect(redactUrl('postgres://db.example/flakeboard?password=s3cret&sslmode=require')).not.toContain('s3cret');
    expect(redactUrl('postgres://fb:s3cret@[bad')).not.toContain('s3cret');
    // Third attacker review: the client key's passphrase was printed by doctor and migrate-db.
    expect(redactUrl('postgres://db.example/flakeboard?sslmode=verify-full&sslpassword=k3y')).toBe('postgres://db.example/flakeboard?sslmode=verify-full&sslpassword=***');
  });

  it('writes NUL, which PostgreSQL text cannot hold, as U+FFFD and keeps everything else', () => {
    expect(postgresText('a\0b\0')).toBe('a\uFFFDb\uFFFD');
    expect(postgresText('plain ü 😀')).toBe('plain ü 😀');
    // A lone surrogate becomes U+FFFD, as UTF-8 encoding to the server makes it; pairs are kept.
    expect(postgresText('a\uD800b\uDC00c\uD83D')).toBe('a\uFFFDb\uFFFDc\uFFFD');
    expect(postgresText('😀\uDE00')).toBe('😀\uFFFD');
  });
});

describe.skipIf(!HAS_POSTGRES)('dialect: SQLite and PostgreSQL side by side', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let database: TestDatabase;
  let sqlite: Store;
  let postgres: PostgresStore;

  beforeAll(async () => {
    temp = makeTempDir();
    sqlite = openStore(join(temp.dir, 'flakeboard.db'));
    database = await createTestDatabase();
    postgres = await openPostgres(database.url);
  });

  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
    await database?.drop();
    temp?.cleanup();
  });

  it('all migrations give the same tables, columns (name, nullability, type), primary keys and indexes on both', async () => {
    const onSqlite = sqliteShape(sqlite.sqlite);
    const onPostgres = await postgresShape(postgres.pool);
    expect(onSqlite.tables.length).toBeGreaterThanOrEqual(15);
    expect(onPostgres).toEqual(onSqlite);
    expect(await postgresSchemaVersion(postgres.pool)).toBe(MIGRATIONS.at(-1)!.version);
  });

  it('opening a migrated database again changes nothing, and two servers opening one new database at once migrate it once', async () => {
    const again = await openPostgres(database.url);
    await again.close();
    const other = await createTestDatabase();
    try {
      const both = await Promise.all([openPostgres(other.url), openPostgres(other.url), openPostgres(other.url)]);
      const shape = await postgresShape(both[0]!.pool);
      await Promise.all(both.map((s) => s.close()));
      expect(shape).toEqual(sqliteShape(sqlite.sqlite));
    } finally {
      await other.drop();
    }
  });

  const both = (): [DialectName, Kysely<DatabaseSchema>][] => [
    ['sqlite', sqlite.db],
    ['postgres', postgres.db],
  ];

  async function valueOn<T>(db: Kysely<DatabaseSchema>, expression: RawBuilder<T>): Promise<T> {
    const { rows } = await sql<{ v: T }>`SELECT ${expression} AS v`.execute(db);
    return rows[0]!.v;
  }

  it('text search and LIKE escapes give the same answers on both', async () => {
    for (const [dialect, db] of both()) {
      const r = dialectFor(dialect);
      const has = (h: string, n: string) => valueOn(db, sql.raw<number>(`CASE WHEN ${r.contains(`'${h}'`, `'${n}'`)} THEN 1 ELSE 0 END`));
      expect(await has('login.spec.ts', '.spec'), dialect).toBe(1);
      expect(await has('login.spec.ts', '%'), dialect).toBe(0);
      expect(await valueOn(db, sql.raw<string>(r.asciiLower("'ÄBC'"))), dialect).toBe('Äbc');
      const like = async (value: string, text: string) => {
        const { rows } = await sql<{ v: number }>`SELECT CASE WHEN ${startsWith('x.v', text)} THEN 1 ELSE 0 END AS v FROM (SELECT ${value} AS v) AS x`.execute(db);
        return Number(rows[0]!.v);
      };
      expect(await like('api_token.create', 'api_token.'), dialect).toBe(1);
      // `_`, `%` and the backslash in the text are themselves, not "any character" / "anything".
      expect(await like('apiXtoken.create', 'api_token.'), dialect).toBe(0);
      expect(await like('100% done', '100%'), dialect).toBe(1);
      expect(await like('100 done', '100%'), dialect).toBe(0);
      expect(await like('a\\b.x', 'a\\b.'), dialect).toBe(1);
      expect(await like('aXb.x', 'a\\b.'), dialect).toBe(0);
    }
  });

  it('greatest, least, total, JSON lists, UTC days and months give the same values on both', async () => {
    const day = Date.UTC(2026, 10, 23, 23, 59, 59, 999);
    for (const [dialect, db] of both()) {
      const t = dialectFor(dialect);
      const value = (text: string) => valueOn(db, sql.raw<number | null>(text));
      // Typed as columns are (an untyped NULL is text to PostgreSQL); BIGINT is INTEGER to SQLite.
      const n = (v: number | null) => `CAST(${v} AS BIGINT)`;
      expect(Number(await value(t.greatest(n(2), n(5)))), dialect).toBe(5);
      expect(Number(await value(t.greatest(n(null), n(3)))), dialect).toBe(3);
      expect(Number(await value(t.greatest(n(4), n(null)))), dialect).toBe(4);
      expect(Number(await value(t.least(n(null), n(3)))), dialect).toBe(3);
      expect(Number(await value(t.least(n(2), n(5)))), dialect).toBe(2);
      expect(await value(t.greatest(n(null), n(null))), dialect).toBeNull();
      expect(Number(await value(t.utcDay(n(day)))), dialect).toBe(Math.floor(day / 86_400_000));
      // The month a day falls in, as its first day: a leap February, a year's end, and the epoch's own month.
      for (const [date, first] of [[Date.UTC(2028, 1, 29), Date.UTC(2028, 1, 1)], [Date.UTC(2026, 11, 31), Date.UTC(2026, 11, 1)], [Date.UTC(2027, 0, 1), Date.UTC(2027, 0, 1)], [0, 0]] as const) {
        expect(Number(await value(t.monthOf(n(date / 86_400_000)))), dialect).toBe(first / 86_400_000);
        expect(monthOf(date / 86_400_000)).toBe(first / 86_400_000);
      }
      // The week a day falls in, as its Monday: the epoch (a Thursday, its Monday before it), a Monday, a Sunday, a leap day.
      for (const [on, monday] of [['1970-01-01', '1969-12-29'], ['1970-01-05', '1970-01-05'], ['2027-03-29', '2027-03-29'], ['2027-04-04', '2027-03-29'], ['2028-02-29', '2028-02-28']] as const) {
        const [d, start] = [Date.parse(`${on}T00:00:00Z`) / 86_400_000, Date.parse(`${monday}T00:00:00Z`) / 86_400_000];
        expect(Number(await value(WEEK.sqlOf(t, n(d)))), `${dialect} ${on}`).toBe(start);
        expect(WEEK.of(d), on).toBe(start);
      }

      const empty = await sql.raw<{ t: number }>(`SELECT ${t.total('total_tests')} AS t FROM runs`).execute(db);
      expect(Number(empty.rows[0]!.t), dialect).toBe(0);
      await db.insertInto('tests').values([1, 2, 3].map((i) => ({ file: `f${i}.spec.ts`, title_path: `t${i}`, title: `t${i}` }))).execute();
      const ids = await sql.raw<{ id: number }>(`SELECT id FROM tests WHERE ${t.inJsonNumbers('id', "'[1,3]'")} ORDER BY id`).execute(db);
      expect(ids.rows.map((r) => Number(r.id)), dialect).toEqual([1, 3]);
      const files = await sql.raw<{ file: string }>(`SELECT file FROM tests WHERE ${dialectFor(dialect).inJsonTexts('file', `'["f2.spec.ts"]'`)}`).execute(db);
      expect(files.rows.map((r) => r.file), dialect).toEqual(['f2.spec.ts']);
    }
  });

  it('user names are unique and found regardless of case on both (NOCASE / ICU collation)', async () => {
    for (const [dialect, db] of both()) {
      await db.insertInto('users').values({ username: 'Alice', password_hash: 'h', role: 'admin', created_at: 1, updated_at: 1 }).execute();
      const found = await db.selectFrom('users').select('username').where('username', '=', 'ALICE').execute();
      expect(found, dialect).toEqual([{ username: 'Alice' }]);
      await expect(db.insertInto('users').values({ username: 'alice', password_hash: 'h', role: 'member', created_at: 1, updated_at: 1 }).execute(), dialect).rejects.toThrow(/unique/i);
    }
  });

  it('reads integers, sums and counts back as numbers on PostgreSQL, as SQLite does', async () => {
    const at = Date.UTC(2026, 0, 1);
    await postgres.db.insertInto('users').values({ username: 'numbers', password_hash: 'h', role: 'member', created_at: at, updated_at: at }).execute();
    const row = await postgres.db
      .selectFrom('users')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('created_at').as('s'), eb.fn.max('created_at').as('m')])
      .where('username', '=', 'numbers')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ n: 1, s: at, m: at });
  });
});

describe.skipIf(HAS_POSTGRES)('dialect: PostgreSQL', () => {
  it.skip(POSTGRES_SKIP, () => {});
});

describe('dialect: what a database error means', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('the database away right now is unavailable: lost or refused connections, shutting down or starting up, out of connections, a client used after its connection failed', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001', 'ECONNREFUSED', 'ECONNRESET', 'EAI_AGAIN', '25006', 'SQLITE_BUSY']) expect([code, databaseTrouble(withCode(code))]).toEqual([code, 'unavailable']);
    for (const message of ['Connection terminated unexpectedly', 'Connection terminated due to connection timeout', 'timeout exceeded when trying to connect', 'Client has encountered a connection error and is not queryable', 'Client was closed and is not queryable']) {
      expect([message, databaseTrouble(new Error(message))]).toEqual([message, 'unavailable']);
    }
    expect(databaseTrouble(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''))).toBe('unavailable');
  });

  it('a full disk is full; a bug is neither; read-only is told apart', () => {
    expect(databaseTrouble(withCode('53100'))).toBe('full');
    expect(databaseTrouble(withCode('SQLITE_FULL'))).toBe('full');
    expect(databaseTrouble(withCode('42P01', 'relation "runs" does not exist'))).toBeNull();
    expect(databaseTrouble(new Error('the connection was terminated by a bug of ours'))).toBeNull();
    expect([isReadOnlyTrouble(withCode('25006')), isReadOnlyTrouble(withCode('SQLITE_READONLY')), isReadOnlyTrouble(withCode('57P01'))]).toEqual([true, true, false]);
  });
});
