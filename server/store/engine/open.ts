import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { MIGRATIONS, migrationSql } from './migrations.js';
import { createRollupScratch } from './rollup-shape.js';
import type { DatabaseSchema } from './schema.js';
import { sqlOver, type Sql } from './sql.js';
import { StoreError, type SqliteDatabase, type Store } from './types.js';
import { isBusy, WaitingSqliteDialect, whenWritable } from './waiting-driver.js';

export interface OpenOptions {
  readonly?: boolean;
  /**
   * How long SQLite itself waits for another connection's write lock, blocking this thread
   * (default 10 minutes: a CLI import waits for another import to finish instead of failing).
   * The server's thread passes 0 and waits asynchronously instead (lockWaitMs).
   */
  busyTimeoutMs?: number;
  /** How long Kysely statements and store.write() wait, asynchronously, for the write lock. */
  lockWaitMs?: number;
  /**
   * SQLite's page cache of this connection, in MB. An import's inserts walk the indexes and gain
   * from a large one; a server's reads scan the rollups, far larger than any cache, so a small
   * one serves them as fast (measured on the 50,000-test history: 16 MB, same answer times,
   * about 50 MB less resident for serve).
   */
  cacheMb?: number;
}

const DEFAULT_CACHE_MB = 64;
/** The page cache of the server's reading connections (its thread and the analytics worker's). */
export const SERVER_CACHE_MB = 16;

export const DEFAULT_BUSY_TIMEOUT_MS = 10 * 60 * 1000;

export function openStore(path: string, options: OpenOptions = {}): Store {
  const readonly = options.readonly ?? false;
  const file = path !== ':memory:' && path !== '';
  if (file && !readonly) createPrivately(path);
  let sqlite: SqliteDatabase;
  try {
    sqlite = new Database(path, { readonly, fileMustExist: readonly });
  } catch (error) {
    throw storeError(path, error);
  }
  try {
    const busyTimeout = `busy_timeout = ${Math.max(0, Math.round(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`;
    sqlite.pragma(busyTimeout);
    if (!readonly) {
      switchToWal(sqlite, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
      sqlite.pragma('busy_timeout = 0');
      probeWritable(sqlite);
      sqlite.pragma(busyTimeout);
    }
    // NORMAL is durable in WAL mode except for the last transactions before a power loss.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`cache_size = -${Math.round((options.cacheMb ?? DEFAULT_CACHE_MB) * 1024)}`);
    if (!readonly) {
      migrate(sqlite, path);
      createRollupScratch(sqlite);
    }
  } catch (error) {
    sqlite.close();
    throw error instanceof StoreError ? error : storeError(path, error);
  }
  const lockWaitMs = options.lockWaitMs ?? 60_000;
  let db: Kysely<DatabaseSchema> | null = new Kysely<DatabaseSchema>({ dialect: new WaitingSqliteDialect(sqlite, lockWaitMs) });
  const open = () => {
    if (!db) throw new StoreError(`the database ${path} is closed`, 'unavailable');
    return db;
  };
  let sql: Sql | null = null;
  return {
    dialect: 'sqlite',
    path,
    target: path,
    location: path,
    sqlite,
    get db() {
      return open();
    },
    get sql() {
      return (sql ??= sqlOver(open(), 'sqlite'));
    },
    transaction: (work) => open().transaction().execute((trx) => work(sqlOver(trx, 'sqlite'), trx)),
    write: (work) => whenWritable(work, lockWaitMs),
    async close() {
      if (!db) return;
      const closing = db;
      db = null;
      // Kysely's destroy closes the connection only if Kysely ever ran a query.
      await closing.destroy();
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * SQLite opens a file it may not write (a read-only file, folder or mount) for reading only,
 * without a word, and the first write then fails far from here without naming the file. A write
 * that is rolled back says it at once. Busy means another connection writes it: it is
 * writable, and this connection waits for its turn when it writes.
 */
/**
 * Two processes creating the same new file both switch it to WAL. Before the switch the file is
 * in rollback mode, where SQLite answers SQLITE_BUSY at once instead of calling the busy handler
 * when waiting could deadlock (each holds the read lock the other's write needs): one of two
 * imports into a new file then failed with "database is locked". The failed statement has let go
 * of its lock, so the switch is tried again until the other's is done (then the file is WAL).
 */
function switchToWal(sqlite: SqliteDatabase, waitMs: number): void {
  // Even a caller that never waits on locks (the server's thread) waits for this: it happens once,
  // at the creation of a file, and lasts as long as the other's switch.
  const deadline = Date.now() + Math.max(waitMs, 10_000);
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(PAUSE, 0, 0, 10);
    }
  }
}
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function probeWritable(sqlite: SqliteDatabase): void {
  try {
    sqlite.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (isBusy(error)) return;
    throw error;
  }
  try {
    // A first write (the same schema version again) is what meets a read-only file; rolled back.
    sqlite.pragma(`user_version = ${schemaVersion(sqlite)}`);
  } finally {
    sqlite.exec('ROLLBACK');
  }
}

/**
 * The database holds password and token hashes, the XSRF secret and every report: only its
 * owner may read it. The file is made 0600 before SQLite opens it, and SQLite gives the -wal
 * and -shm files it creates the database file's mode. A folder flakeboard creates is 0700.
 */
function createPrivately(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  } catch (error) {
    throw storeError(path, error);
  }
}

/** Group or others may read or write an existing database file: what `serve` warns about. */
export function exposedMode(path: string): number | null {
  try {
    const mode = statSync(path).mode & 0o777;
    return (mode & 0o077) !== 0 ? mode : null;
  } catch {
    return null;
  }
}

/** Every storage error names the database file and, where it can, what to do. */
export function storeError(path: string, error: unknown): StoreError {
  const err = error as NodeJS.ErrnoException;
  const code = typeof err.code === 'string' ? err.code : '';
  const folder = dirname(path);
  const name = basename(path);
  const text = err.message ?? String(error);
  if (code === 'EACCES' || code === 'EPERM') return new StoreError(`cannot open the database ${path}: permission denied (${text}); check the permissions of ${folder}`, 'unavailable');
  if (code === 'EROFS') return new StoreError(`cannot create the database ${path}: the file system is read-only`, 'read-only');
  if (code === 'ENOTDIR' || code === 'EEXIST') return new StoreError(`cannot open the database ${path}: a part of the path ${folder} is a file, not a folder`, 'unavailable');
  if (code.startsWith('SQLITE_READONLY')) {
    return new StoreError(`the database ${path} is read-only (a read-only file, folder or mount): flakeboard must be able to write it, and to create ${name}-wal and ${name}-shm in ${folder}`, 'read-only');
  }
  if (code.startsWith('SQLITE_CANTOPEN') || /unable to open database file/i.test(text)) {
    const isFolder = safeIsDirectory(path);
    return new StoreError(
      isFolder
        ? `cannot open the database ${path}: it is a folder; pass the path of a file`
        : `cannot open the database ${path}: unable to open the file or to create ${name}-wal and ${name}-shm beside it; check that ${folder} exists and is writable`,
      'unavailable',
    );
  }
  if (code === 'SQLITE_NOTADB') return new StoreError(`the file ${path} is not a flakeboard (SQLite) database`, 'unavailable');
  return new StoreError(`cannot open the database ${path}: ${text}`, 'unavailable');
}

function safeIsDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function schemaVersion(sqlite: SqliteDatabase): number {
  return sqlite.pragma('user_version', { simple: true }) as number;
}

function migrate(sqlite: SqliteDatabase, path: string): void {
  const current = schemaVersion(sqlite);
  const latest = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new StoreError(`the database ${path} was written by a newer flakeboard (schema ${current}, this version knows ${latest}); upgrade flakeboard`, 'newer-schema');
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    sqlite.transaction(() => {
      // Read again under the write lock: another process opening the same new file at the same
      // time (two imports) may have applied it while this one waited.
      if (schemaVersion(sqlite) >= migration.version) return;
      sqlite.exec(migrationSql(migration, 'sqlite'));
      sqlite.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
