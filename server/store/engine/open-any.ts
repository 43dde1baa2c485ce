import { isPostgresUrl } from './dialect.js';
import { openStore, type OpenOptions } from './open.js';
import type { AnyStore } from './types.js';
import type { PostgresOptions } from './open-postgres.js';

/**
 * Opens the store a command names: a postgres:// URL is PostgreSQL, anything else a SQLite
 * file (the default). PostgreSQL's driver is loaded only when asked for.
 */
export async function openAnyStore(target: string, options: OpenOptions & PostgresOptions = {}): Promise<AnyStore> {
  if (!isPostgresUrl(target)) return openStore(target, options);
  const { openPostgres } = await import('./open-postgres.js');
  return openPostgres(target, options);
}
