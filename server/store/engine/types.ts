import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { DatabaseSchema } from './schema.js';
import type { Sql } from './sql.js';

export type SqliteDatabase = Database.Database;

/** What both engines' stores offer: Kysely, SQL texts over it, and transactions. */
export interface StoreBase {
  /** The file, or the PostgreSQL URL without its password: for messages. */
  readonly target: string;
  /**
   * What openAnyStore takes to open the same database again (a worker's own connection): the
   * file, or the whole URL. Never shown: a URL's password is in it.
   */
  readonly location: string;
  readonly db: Kysely<DatabaseSchema>;
  /** The store's SQL texts (sql.ts), on this store's engine. */
  readonly sql: Sql;
  /** Runs `work` in one transaction (SQLite: BEGIN IMMEDIATE, waiting for the lock without blocking). */
  transaction<T>(work: (sql: Sql, db: Kysely<DatabaseSchema>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** An open SQLite store: the raw connection for bulk writes, Kysely for everything else. */
export interface Store extends StoreBase {
  readonly dialect: 'sqlite';
  readonly path: string;
  readonly sqlite: SqliteDatabase;
  /** Runs a synchronous write (one IMMEDIATE transaction), waiting for the write lock without blocking. */
  write<T>(work: () => T): Promise<T>;
}

/** An open PostgreSQL store: a pool of connections and Kysely over it. */
export interface PostgresStore extends StoreBase {
  readonly dialect: 'postgres';
  /** The URL without its password, for messages. */
  readonly url: string;
  readonly pool: pg.Pool;
  /** What the pool was opened with: the server's worker threads open theirs alike. */
  readonly poolSettings: { readonly max: number; readonly statementTimeoutMs: number };
}

/** A store on either engine; code that needs the SQLite connection itself asks for Store. */
export type AnyStore = Store | PostgresStore;

export class StoreError extends Error {
  constructor(
    message: string,
    readonly code: 'unavailable' | 'read-only' | 'newer-schema',
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
