import { resolve } from 'node:path';
import { Option } from 'commander';

export const DEFAULT_DB = '.flakeboard/flakeboard.db';

/** --db, shared by every command that opens the store. */
export function dbOption(): Option {
  return new Option('--db <path>', 'SQLite database file').env('FLAKEBOARD_DB').default(DEFAULT_DB);
}

export function resolveDbPath(db: string | undefined): string {
  return resolve(db ?? DEFAULT_DB);
}
