import type { Kysely } from 'kysely';
import type { AnyStore } from './types.js';
import type { DatabaseSchema } from './schema.js';
import { sqlOver } from './sql.js';

const BASE = Symbol('base store');
type Pinned = { [BASE]?: AnyStore };

/**
 * Runs `work` with a view of `store` whose queries all go over one connection, for answers
 * that fill a temporary table (flaky-page.ts) and then read it. A temporary
 * table lives on one connection: PostgreSQL's pool would hand the next query any connection,
 * and SQLite's one connection is shared by concurrent answers, which could refill it between
 * the fill and the read. SQLite holds its connection (Kysely's mutex) without a transaction:
 * BEGIN IMMEDIATE would take the write lock, and the analytics worker's connection is
 * read-only. PostgreSQL runs the answer in one transaction, whose end empties the temporary
 * tables (ON COMMIT DELETE ROWS) so no pooled connection keeps a branch's rows.
 * Inside `work`, pass the view (never `store`) to every store function: on SQLite a query on
 * `store` would wait for the connection the view holds. Nested calls reuse the view.
 */
export async function onOneConnection<S extends AnyStore, T>(store: S, work: (pinned: S) => Promise<T>): Promise<T> {
  if ((store as Pinned)[BASE] !== undefined) return work(store);
  const view = (db: Kysely<DatabaseSchema>): S =>
    Object.create(store, { db: { value: db }, sql: { value: sqlOver(db, store.dialect) }, [BASE]: { value: store } }) as S;
  if (store.dialect === 'postgres') return store.db.transaction().execute((trx) => work(view(trx)));
  return store.db.connection().execute((db) => work(view(db)));
}

/** The store itself behind a view of onOneConnection: what answers are kept for (trend-rows.ts). */
export function baseStore(store: AnyStore): AnyStore {
  return (store as Pinned)[BASE] ?? store;
}
