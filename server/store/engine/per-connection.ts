import type { SqliteDatabase } from './types.js';

/**
 * Prepared statements made once per connection and kept with it: the bulk and rollup paths run
 * them for every report, and a connection (server, worker, CLI) lives as long as its store.
 */
export function perConnection<T>(prepare: (sqlite: SqliteDatabase) => T): (sqlite: SqliteDatabase) => T {
  const cache = new WeakMap<SqliteDatabase, T>();
  return (sqlite) => {
    let statements = cache.get(sqlite);
    if (!statements) {
      statements = prepare(sqlite);
      cache.set(sqlite, statements);
    }
    return statements;
  };
}
