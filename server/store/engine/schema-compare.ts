import type pg from 'pg';
import { isInternalTable } from './dialect.js';
import type { SqliteDatabase } from './types.js';

/**
 * The shape of a schema as both engines can describe it, in SQLite's words: what the schema
 * test compares (one migration list must give the same tables on both) and what migrate-db
 * checks before it copies.
 */
export interface TableShape {
  name: string;
  /** In declaration order. */
  columns: { name: string; type: 'INTEGER' | 'REAL' | 'TEXT' | string; notNull: boolean }[];
  primaryKey: string[];
}

export interface SchemaShape {
  tables: TableShape[];
  /** Indexes the migrations create by name (not those behind PRIMARY KEY or UNIQUE). */
  indexes: string[];
}

// PostgreSQL's type for each SQLite type (dialect.ts postgresDialect).
const FROM_POSTGRES: Record<string, string> = { bigint: 'INTEGER', 'double precision': 'REAL', text: 'TEXT' };

export function sqliteShape(sqlite: SqliteDatabase): SchemaShape {
  const names = (sqlite.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[]).filter((n) => !isInternalTable(n));
  const tables = names.map((name): TableShape => {
    const info = sqlite.prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`).all(name) as { name: string; type: string; notnull: number; pk: number }[];
    return {
      name,
      // A primary key column cannot hold NULL on either side (SQLite's rowid alias says notnull 0).
      columns: info.map((c) => ({ name: c.name, type: c.type.toUpperCase(), notNull: c.notnull === 1 || c.pk > 0 })),
      primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
    };
  });
  const indexes = sqlite.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
  return { tables, indexes };
}

export async function postgresShape(client: pg.Pool | pg.PoolClient | pg.Client): Promise<SchemaShape> {
  const columns = await client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const keys = await client.query<{ table_name: string; column_name: string }>(
    `SELECT k.table_name, k.column_name FROM information_schema.table_constraints c
     JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema AND k.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY' ORDER BY k.table_name, k.ordinal_position`,
  );
  const indexes = await client.query<{ name: string }>(
    `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
     ORDER BY i.relname`,
  );
  const byTable = new Map<string, TableShape>();
  for (const c of columns.rows) {
    if (isInternalTable(c.table_name)) continue;
    let table = byTable.get(c.table_name);
    if (!table) byTable.set(c.table_name, (table = { name: c.table_name, columns: [], primaryKey: [] }));
    table.columns.push({ name: c.column_name, type: FROM_POSTGRES[c.data_type] ?? c.data_type, notNull: c.is_nullable === 'NO' });
  }
  for (const k of keys.rows) byTable.get(k.table_name)?.primaryKey.push(k.column_name);
  const tables = [...byTable.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { tables, indexes: indexes.rows.map((r) => r.name) };
}
