import type pg from 'pg';
import { postgresText } from './dialect.js';
import type { SqliteDatabase } from './types.js';
import { postgresShape, sqliteShape, type TableShape } from './schema-compare.js';

export interface CopyOptions {
  /** Empty a target that already holds rows instead of refusing. */
  force?: boolean;
  /** Rows sent per statement (default 1,000). */
  batchRows?: number;
  /** Called when a table starts and after each batch, for progress. */
  onProgress?: (table: string, copied: number, total: number) => void;
}

export interface CopiedTable {
  table: string;
  /** Rows in the SQLite file, and in PostgreSQL after the copy (checked equal before the commit). */
  source: number;
  target: number;
}

export class CopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyError';
  }
}

/**
 * Copies every table of a SQLite store into a PostgreSQL database already migrated to the same
 * schema, in ONE transaction: a failure anywhere (a constraint, a lost connection, a count
 * that differs) leaves the target as it was. The table list comes from the schemas themselves,
 * so a table a later migration adds is copied without a change here, and a source table the
 * target does not know stops the copy before anything is written.
 */
export async function copySqliteToPostgres(sqlite: SqliteDatabase, pool: pg.Pool, options: CopyOptions = {}): Promise<CopiedTable[]> {
  const source = sqliteShape(sqlite).tables;
  const target = new Map((await postgresShape(pool)).tables.map((t) => [t.name, t]));
  for (const table of source) {
    const known = target.get(table.name);
    if (!known) throw new CopyError(`the SQLite file has a table "${table.name}" that the PostgreSQL schema does not have (written by another flakeboard version?): nothing was copied`);
    const missing = table.columns.filter((c) => !known.columns.some((k) => k.name === c.name)).map((c) => c.name);
    if (missing.length > 0) throw new CopyError(`the PostgreSQL table "${table.name}" lacks the column(s) ${missing.join(', ')} of the SQLite file: nothing was copied`);
  }
  const ordered = parentsFirst(sqlite, source);
  const client = await pool.connect();
  // A read transaction on SQLite: every table is read from one moment, even if an import writes meanwhile.
  sqlite.exec('BEGIN');
  try {
    await client.query('BEGIN');
    const filled: string[] = [];
    for (const t of target.keys()) if ((await client.query(`SELECT EXISTS (SELECT 1 FROM ${quote(t)}) AS some`)).rows[0]?.some) filled.push(t);
    if (filled.length > 0) {
      if (!options.force) throw new CopyError(`the PostgreSQL database already holds rows (in ${filled.join(', ')}): pass --force to replace them, or migrate into an empty database`);
      await client.query(`TRUNCATE ${[...target.keys()].map(quote).join(', ')} RESTART IDENTITY CASCADE`);
    }
    const copied: CopiedTable[] = [];
    for (const table of ordered) copied.push(await copyTable(sqlite, client, table, target.get(table.name)!, options));
    await resetIdentities(client);
    // Counted again in PostgreSQL, inside the transaction: a difference rolls everything back.
    for (const c of copied) {
      c.target = Number((await client.query(`SELECT count(*) AS n FROM ${quote(c.table)}`)).rows[0]?.n);
      if (c.target !== c.source) throw new CopyError(`table ${c.table}: ${c.source} rows in the SQLite file but ${c.target} in PostgreSQL: nothing was copied`);
    }
    await client.query('COMMIT');
    return copied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
    if (sqlite.inTransaction) sqlite.exec('COMMIT');
  }
}

async function copyTable(sqlite: SqliteDatabase, client: pg.PoolClient, table: TableShape, into: TableShape, options: CopyOptions): Promise<CopiedTable> {
  const total = sqlite.prepare(`SELECT count(*) FROM ${quote(table.name)}`).pluck().get() as number;
  options.onProgress?.(table.name, 0, total);
  const names = table.columns.map((c) => c.name);
  const types = names.map((n) => postgresType(into.columns.find((c) => c.name === n)!.type));
  // One array per column, unnested into rows: one short statement per batch whatever its size,
  // parsed once (a named prepared statement), instead of a placeholder per value.
  const insert = {
    name: `copy_${table.name}`,
    text: `INSERT INTO ${quote(table.name)} (${names.map(quote).join(', ')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`,
  };
  const order = table.primaryKey.length > 0 ? ` ORDER BY ${table.primaryKey.map(quote).join(', ')}` : '';
  const rows = sqlite.prepare(`SELECT ${names.map(quote).join(', ')} FROM ${quote(table.name)}${order}`).raw(true);
  const batchRows = Math.max(1, options.batchRows ?? 1000);
  let columns: unknown[][] = names.map(() => []);
  let inBatch = 0;
  let copied = 0;
  const flush = async () => {
    if (inBatch === 0) return;
    await client.query({ ...insert, values: columns });
    copied += inBatch;
    options.onProgress?.(table.name, copied, total);
    columns = names.map(() => []);
    inBatch = 0;
  };
  for (const row of rows.iterate() as IterableIterator<unknown[]>) {
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      columns[i]!.push(typeof value === 'string' ? postgresText(value) : value);
    }
    if (++inBatch >= batchRows) await flush();
  }
  await flush();
  return { table: table.name, source: total, target: copied };
}

/** The PostgreSQL type of a column in schema-compare's SQLite words. */
function postgresType(type: string): string {
  if (type === 'INTEGER') return 'bigint';
  if (type === 'REAL') return 'double precision';
  if (type === 'TEXT') return 'text';
  throw new CopyError(`a column of type ${type} cannot be copied`);
}

/**
 * The ids the copy wrote came from SQLite: each identity sequence moves past the largest, so
 * the next row PostgreSQL numbers does not collide with a copied one.
 */
async function resetIdentities(client: pg.PoolClient): Promise<void> {
  const identities = await client.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
  );
  for (const { table_name: table, column_name: column } of identities.rows) {
    await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quote(column)}) FROM ${quote(table)}), 0) + 1, false)`, [quote(table), column]);
  }
}

/**
 * Tables in an order where every table comes after those its foreign keys point to (users
 * before sessions, runs before results...). A table pointing to itself (a duplicate run to its
 * original) is copied in id order: the original is older, so it is already there.
 */
function parentsFirst(sqlite: SqliteDatabase, tables: TableShape[]): TableShape[] {
  const parents = new Map<string, string[]>();
  for (const t of tables) {
    const refs = sqlite.prepare('SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)').pluck().all(t.name) as string[];
    parents.set(t.name, refs.filter((r) => r !== t.name));
  }
  const done = new Set<string>();
  const ordered: TableShape[] = [];
  const visit = (t: TableShape, path: Set<string>) => {
    if (done.has(t.name)) return;
    if (path.has(t.name)) throw new CopyError(`the tables ${[...path].join(', ')} refer to each other in a cycle: cannot order the copy`);
    path.add(t.name);
    for (const p of parents.get(t.name) ?? []) {
      const parent = tables.find((x) => x.name === p);
      if (parent) visit(parent, path);
    }
    path.delete(t.name);
    done.add(t.name);
    ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered;
}

/** A table or column name as an SQL identifier (the names come from the schema, never from input). */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
