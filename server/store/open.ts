import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { MIGRATIONS } from './migrations.js';
import { createRollupScratch } from './rollups.js';
import type { DatabaseSchema } from './schema.js';

export type SqliteDatabase = Database.Database;

/** An open store: the raw connection for bulk writes, Kysely for everything else. */
export interface Store {
  readonly path: string;
  readonly sqlite: SqliteDatabase;
  readonly db: Kysely<DatabaseSchema>;
  close(): Promise<void>;
}

export class StoreError extends Error {
  constructor(
    message: string,
    readonly code: 'unavailable' | 'read-only' | 'newer-schema',
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export function openStore(path: string, options: { readonly?: boolean } = {}): Store {
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  let sqlite: SqliteDatabase;
  try {
    sqlite = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    throw new StoreError(`cannot open the database ${path}: ${(error as Error).message}`, 'unavailable');
  }
  try {
    sqlite.pragma('busy_timeout = 5000');
    if (!options.readonly) sqlite.pragma('journal_mode = WAL');
    // NORMAL is durable in WAL mode except for the last transactions before a power loss.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('cache_size = -65536');
    if (!options.readonly) {
      migrate(sqlite);
      createRollupScratch(sqlite);
    }
  } catch (error) {
    sqlite.close();
    throw error;
  }
  let db: Kysely<DatabaseSchema> | null = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    path,
    sqlite,
    get db() {
      if (!db) throw new StoreError('the database is closed', 'unavailable');
      return db;
    },
    async close() {
      if (!db) return;
      const closing = db;
      db = null;
      // Kysely's destroy closes the better-sqlite3 connection it was given.
      await closing.destroy();
    },
  };
}

export function schemaVersion(sqlite: SqliteDatabase): number {
  return sqlite.pragma('user_version', { simple: true }) as number;
}

function migrate(sqlite: SqliteDatabase): void {
  const current = schemaVersion(sqlite);
  const latest = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new StoreError(`the database was written by a newer flakeboard (schema ${current}, this version knows ${latest}); upgrade flakeboard`, 'newer-schema');
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    sqlite.transaction(() => {
      sqlite.exec(migration.sql);
      sqlite.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
