import { Kysely, PostgresDialect, PostgresDriver, type DatabaseConnection, type Driver, type PostgresDialectConfig } from 'kysely';
import pg from 'pg';
import { databaseTrouble, postgresDialect, POSTGRES_NUMBER_TYPES, POSTGRES_VERSION_TABLE, redactUrl } from './dialect.js';
import { MIGRATIONS, migrationSql } from './migrations.js';
import { StoreError, type PostgresStore } from './types.js';
import { postgresShape } from './schema-compare.js';
import type { DatabaseSchema } from './schema.js';
import { sqlOver } from './sql.js';

export interface PostgresOptions {
  /** Connections in the pool (default POSTGRES_POOL_DEFAULTS.max). */
  max?: number;
  /**
   * The longest a statement may run before PostgreSQL cancels it (statement_timeout), in ms; 0
   * for none (pg's default). A migration is never cut short: it sets its own to 0.
   */
  statementTimeoutMs?: number;
  /** How long to wait for a connection before saying the server cannot be reached. */
  connectTimeoutMs?: number;
  /**
   * false: open the database as it is, without migrating it (nor connecting before the first
   * query), for a reader that checks the schema version itself (mcp, like SQLite's read-only open).
   */
  migrate?: boolean;
  /** Every transaction read-only: PostgreSQL refuses a write, as a SQLite file opened read-only does (mcp). */
  readOnly?: boolean;
  /** Idle connections do not keep the process alive (mcp ends when its client closes stdin, as it does on a file). */
  exitOnIdle?: boolean;
}

// Any fixed number: every flakeboard process migrating the same database takes the same lock.
const MIGRATION_LOCK = 0x666c6b62; // "flkb"

/** pg's type parsers with BIGINT and NUMERIC read as numbers (dialect.ts says why). */
export const POSTGRES_TYPES = {
  getTypeParser: ((oid: number, format?: string) => (POSTGRES_NUMBER_TYPES.includes(oid) ? Number : pg.types.getTypeParser(oid, format as 'text'))) as pg.CustomTypesConfig['getTypeParser'],
};

/** A server's pool settings when none are given (cli/serve.ts reads them from the environment). */
export const POSTGRES_POOL_DEFAULTS = { max: 10, statementTimeoutMs: 0 } as const;

export function createPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? POSTGRES_POOL_DEFAULTS.max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: 'flakeboard',
    types: POSTGRES_TYPES,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
    ...(options.exitOnIdle ? { allowExitOnIdle: true } : {}),
  });
  // An idle connection the server drops (a restart) must not crash the process: the pool replaces it.
  pool.on('error', () => {});
  // Nor one it drops while a request holds it (a restart, a failover, pg_terminate_backend): pg
  // emits 'error' on such a client, which pg-pool and Kysely leave unheard, so it would end the
  // process. The query in flight fails with the error (503), and the pool discards the client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // A FATAL error (pg_terminate_backend, a shutdown) means the server is closing this
    // connection. The query in flight gets it at once, but the socket closes only once the
    // backend has exited, later on a busy server: released before that, the client went back to
    // the pool as usable and failed the next request too. Ended now, pg-pool discards it on release.
    client.connection.on('errorMessage', (message: { severity?: string }) => {
      if (message.severity === 'FATAL' || message.severity === 'PANIC') client.end().catch(() => {});
    });
  });
  return pool;
}

/** Opens the database at `url`, migrates it to this version's schema, and returns the store. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
  const shown = redactUrl(url);
  const pool = createPool(url, options);
  try {
    if (options.migrate !== false) await migratePostgres(pool, shown);
  } catch (error) {
    await pool.end();
    throw error instanceof StoreError ? error : postgresError(shown, error);
  }
  const db = new Kysely<DatabaseSchema>({ dialect: new KeepingCauseDialect({ pool }) });
  let open = true;
  return {
    dialect: 'postgres',
    url: shown,
    target: shown,
    location: url,
    poolSettings: { max: options.max ?? POSTGRES_POOL_DEFAULTS.max, statementTimeoutMs: options.statementTimeoutMs ?? POSTGRES_POOL_DEFAULTS.statementTimeoutMs },
    pool,
    db,
    sql: sqlOver(db, 'postgres'),
    transaction: (work) => db.transaction().execute((trx) => work(sqlOver(trx, 'postgres'), trx)),
    async close() {
      if (!open) return;
      open = false;
      // Kysely ends the pool only if it ever used it (its driver starts on the first query).
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}

/**
 * Kysely's PostgreSQL dialect, except that a transaction whose connection is gone fails with
 * the reason (57P01 "terminating connection", "Connection terminated unexpectedly"), not with
 * its ROLLBACK's "Client has encountered a connection error and is not queryable", which says
 * nothing of the database and replaced the cause. Such a ROLLBACK has nothing to do: PostgreSQL
 * ends the transaction of a connection that ends, and pg-pool discards the client on release.
 */
class KeepingCauseDialect extends PostgresDialect {
  constructor(private readonly settings: PostgresDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new KeepingCauseDriver(this.settings);
  }
}

class KeepingCauseDriver extends PostgresDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (databaseTrouble(error) !== 'unavailable') throw error;
    }
  }
}

/** A connection failure names the server (never the password) and what went wrong. */
export function postgresError(shownUrl: string, error: unknown): StoreError {
  const err = error as { code?: string; message?: string };
  const text = err.message || (error instanceof AggregateError ? error.errors.map((e: Error) => e.message).join('; ') : String(error));
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || /timeout/i.test(text) || error instanceof AggregateError) {
    return new StoreError(`cannot connect to PostgreSQL at ${shownUrl}: ${text || code}; check that the server runs and the URL's host and port`, 'unavailable');
  }
  if (code === '28P01' || code === '28000') return new StoreError(`cannot connect to PostgreSQL at ${shownUrl}: ${text}; check the user and password`, 'unavailable');
  if (code === '25006') return new StoreError(`PostgreSQL at ${shownUrl} is read-only (a standby, or default_transaction_read_only): ${text}; point the URL at the primary`, 'read-only');
  if (code === '3D000') return new StoreError(`cannot connect to PostgreSQL at ${shownUrl}: ${text}; create it first (createdb)`, 'unavailable');
  return new StoreError(`PostgreSQL at ${shownUrl}: ${text}`, 'unavailable');
}

/** The schema version PostgreSQL holds (0 for an empty database). */
export async function postgresSchemaVersion(client: pg.Pool | pg.PoolClient): Promise<number> {
  const found = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [POSTGRES_VERSION_TABLE]);
  if (!found.rows[0]?.exists) return 0;
  const row = await client.query<{ version: number }>(`SELECT version FROM ${POSTGRES_VERSION_TABLE}`);
  return row.rows[0]?.version ?? 0;
}

/**
 * Applies the migrations this database lacks, all in one transaction (PostgreSQL's DDL is
 * transactional: a failed migration leaves the schema as it was). An advisory lock makes
 * several servers starting at once migrate one after another; each reads the version again
 * under it, so the second finds nothing left to do.
 */
async function migratePostgres(pool: pg.Pool, shownUrl: string): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw postgresError(shownUrl, error);
  }
  try {
    await client.query('BEGIN');
    // An index build on a big table may take minutes: the server's statement timeout is for requests.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${POSTGRES_VERSION_TABLE} (version ${postgresDialect.int} NOT NULL)`);
    const current = await postgresSchemaVersion(client);
    const latest = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
    if (current > latest) {
      throw new StoreError(`the database ${shownUrl} was written by a newer flakeboard (schema ${current}, this version knows ${latest}); upgrade flakeboard`, 'newer-schema');
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      try {
        await client.query(migrationSql(migration, 'postgres'));
      } catch (error) {
        const code = (error as { code?: unknown }).code === '25006' ? 'read-only' : 'unavailable';
        throw new StoreError(`PostgreSQL at ${shownUrl}: migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, code);
      }
    }
    if (current < latest) {
      await client.query(`DELETE FROM ${POSTGRES_VERSION_TABLE}`);
      await client.query(`INSERT INTO ${POSTGRES_VERSION_TABLE} (version) VALUES ($1)`, [latest]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export interface PostgresInspection {
  serverVersion: string;
  schemaVersion: number;
  /** Rows per table of the schema, by name. */
  counts: Record<string, number>;
}

/** What `doctor` reports, read without migrating anything (like its SQLite inspection). */
export async function inspectPostgres(url: string): Promise<PostgresInspection> {
  const shown = redactUrl(url);
  const pool = createPool(url, { max: 1 });
  try {
    const serverVersion = String((await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '');
    const schemaVersion = await postgresSchemaVersion(pool);
    const counts: Record<string, number> = {};
    for (const { name } of (await postgresShape(pool)).tables) counts[name] = Number((await pool.query(`SELECT count(*) AS n FROM "${name}"`)).rows[0]?.n);
    return { serverVersion, schemaVersion, counts };
  } catch (error) {
    throw error instanceof StoreError ? error : postgresError(shown, error);
  } finally {
    await pool.end();
  }
}
