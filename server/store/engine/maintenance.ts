/**
 * The reads behind `flakeboard doctor` and `flakeboard backup`: integrity, schema version,
 * counts, and the online copy. None of them migrates or writes the database they inspect.
 */
import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';
import type { SqliteDatabase } from './types.js';

export const LATEST_SCHEMA = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

export interface StoreCounts {
  runs: number;
  results: number;
  tests: number;
  users: number;
  pendingUploads: number;
}

/** Counts of the tables a user knows; a table an older schema lacks counts as null. */
export function storeCounts(s: SqliteDatabase): StoreCounts {
  const count = (sql: string): number => s.prepare(sql).pluck().get() as number;
  return {
    runs: count('SELECT count(*) FROM runs'),
    results: count('SELECT count(*) FROM results'),
    tests: count('SELECT count(*) FROM tests'),
    users: count('SELECT count(*) FROM users'),
    pendingUploads: count("SELECT count(*) FROM runs WHERE status = 'pending'"),
  };
}

/**
 * Opens a database file for inspection only: it must exist, nothing is migrated or created.
 * Throws with SQLite's reason when the file cannot be opened or is not a database.
 */
export function openForInspection(path: string): SqliteDatabase {
  // Read-write but query-only: a read-only connection would leave -wal and -shm files behind
  // when it is the last one out; this one removes them on close like serve does.
  const s = new Database(path, { fileMustExist: true });
  try {
    s.pragma('busy_timeout = 5000');
    s.pragma('query_only = ON');
    // Reads the header: a file that is not a database fails here, not later.
    s.pragma('schema_version', { simple: true });
    return s;
  } catch (error) {
    s.close();
    throw error;
  }
}

export interface Inspection {
  schemaVersion: number;
  journalMode: string;
  space: FileSpace;
  /** 'integrity_check' (every page and index entry) or 'quick_check' (no index contents). */
  check: 'integrity_check' | 'quick_check';
  /** Empty when the check passed; else SQLite's first messages. */
  problems: string[];
  /** Null when the tables are not there (an empty or foreign file). */
  counts: StoreCounts | null;
}

/** Integrity, schema, space and counts of an open database (read-only is enough). */
export function inspect(s: SqliteDatabase, options: { full: boolean }): Inspection {
  const check = options.full ? 'integrity_check' : 'quick_check';
  let rows: Array<Record<string, string>>;
  try {
    rows = s.pragma(`${check}(20)`, { simple: false }) as Array<Record<string, string>>;
  } catch (error) {
    // Damage the check cannot get past (a broken schema or root page) is its finding too.
    rows = [{ error: (error as Error).message }];
  }
  // SQLite answers 'ok', or its findings: a row each, or one row of lines under a heading.
  const problems = rows
    .flatMap((row) => String(Object.values(row)[0] ?? '').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'ok' && !/^\*\*\* in database \w+ \*\*\*$/.test(line));
  let counts: StoreCounts | null;
  try {
    counts = storeCounts(s);
  } catch {
    counts = null;
  }
  return {
    schemaVersion: s.pragma('user_version', { simple: true }) as number,
    journalMode: String(s.pragma('journal_mode', { simple: true })),
    space: fileSpace(s),
    check,
    problems,
    counts,
  };
}

/**
 * Copies a live database with SQLite's online backup API into `target`, which must not exist:
 * it is created here, 0600, before SQLite writes a byte. The copy is taken in one step, inside
 * one read transaction: a consistent snapshot that writers in other processes do not restart
 * (WAL lets them go on while it reads). The copy is left in rollback-journal mode, one file.
 */
export async function backupTo(source: SqliteDatabase, target: string): Promise<void> {
  closeSync(openSync(target, 'wx', 0o600));
  // The umask cannot widen a mode, but an inherited ACL or odd filesystem might: say it again.
  chmodSync(target, 0o600);
  // The first step only starts the backup; the callback asks for everything left in the next.
  await source.backup(target, { progress: () => 0x7fffffff });
  const copy = new Database(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Integrity and counts of a backup copy, opened read-only. */
export function verifyCopy(path: string): { problems: string[]; counts: StoreCounts; schemaVersion: number; bytes: number } {
  const s = openForInspection(path);
  try {
    const found = inspect(s, { full: true });
    if (!found.counts) throw new Error(`the copy ${path} has no flakeboard tables`);
    return { problems: found.problems, counts: found.counts, schemaVersion: found.schemaVersion, bytes: found.space.pages * found.space.pageSize };
  } finally {
    s.close();
  }
}

export interface FileSpace {
  pageSize: number;
  pages: number;
  freePages: number;
  /** Bytes in use: the file less its free pages. */
  used: number;
  /** Bytes inside the file that no row uses (VACUUM or incremental_vacuum returns them). */
  free: number;
  autoVacuum: 'none' | 'full' | 'incremental';
}

export function fileSpace(s: SqliteDatabase): FileSpace {
  const pageSize = s.pragma('page_size', { simple: true }) as number;
  const pages = s.pragma('page_count', { simple: true }) as number;
  const freePages = s.pragma('freelist_count', { simple: true }) as number;
  const mode = s.pragma('auto_vacuum', { simple: true }) as number;
  return { pageSize, pages, freePages, used: (pages - freePages) * pageSize, free: freePages * pageSize, autoVacuum: mode === 2 ? 'incremental' : mode === 1 ? 'full' : 'none' };
}
