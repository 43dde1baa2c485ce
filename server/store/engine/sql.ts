import { CompiledQuery, type Kysely } from 'kysely';
import type { DialectName } from './dialect.js';
import type { DatabaseSchema } from './schema.js';

/** Named parameters of a SQL text: `@from` in the text takes `params.from`. */
export type SqlParams = Readonly<Record<string, unknown>>;

/**
 * SQL text run on either database through the store's Kysely: the store's hand-written
 * queries (window scans, rollups, bulk writes) are written once, with `@name` parameters, and
 * run on SQLite and PostgreSQL alike. Where the two engines' SQL differs, the text takes its
 * piece from dialect.ts (dialectFor). Kysely's query builder is for everything else.
 */
export interface Sql {
  readonly dialect: DialectName;
  all<T>(text: string, params?: SqlParams): Promise<T[]>;
  get<T>(text: string, params?: SqlParams): Promise<T | undefined>;
  /** The first column of the first row (SQLite's pluck), undefined when there is no row. */
  value<T>(text: string, params?: SqlParams): Promise<T | undefined>;
  /** A statement that writes: how many rows it changed. */
  run(text: string, params?: SqlParams): Promise<number>;
}

/** Runs SQL texts on `db` (a store's Kysely, or a transaction of it). */
export function sqlOver(db: Kysely<DatabaseSchema>, dialect: DialectName): Sql {
  const execute = async <T>(text: string, params: SqlParams | undefined) => db.executeQuery<T>(compileNamed(text, params ?? {}, dialect));
  return {
    dialect,
    all: async (text, params) => (await execute(text, params)).rows as never,
    get: async (text, params) => (await execute(text, params)).rows[0] as never,
    value: async (text, params) => {
      const row = (await execute<Record<string, unknown>>(text, params)).rows[0];
      return (row === undefined ? undefined : Object.values(row)[0]) as never;
    },
    run: async (text, params) => Number((await execute(text, params)).numAffectedRows ?? 0n),
  };
}

/**
 * The text and its parameters as the driver takes them. better-sqlite3 binds `@name` itself
 * from an object (the SQLite connection passes a lone plain object as named parameters, see
 * waiting-driver.ts), so the text is prepared as written and its statement cache keeps working.
 * pg knows only `$1, $2…`: each distinct name becomes one number, outside quoted text and comments.
 */
export function compileNamed(text: string, params: SqlParams, dialect: DialectName): CompiledQuery {
  if (dialect === 'sqlite') return CompiledQuery.raw(text, Object.keys(params).length > 0 ? [params] : []);
  const { numbered, names } = numberedText(text);
  const values = names.map((name) => {
    if (!(name in params)) throw new Error(`SQL parameter @${name} has no value`);
    return params[name];
  });
  return CompiledQuery.raw(numbered, values);
}

/**
 * Each text numbered once: the same few hundred texts run on every request (a session or token
 * lookup, the cache's signature), and numbering one again for each allocated on the server's
 * thread. Bounded in count and size: bulk writes build long texts with a row count in them,
 * and those are numbered each time (their own cost is the rows).
 */
const NUMBERED_KEPT = 256;
const NUMBERED_MAX_CHARS = 4096;
const numberedTexts = new Map<string, { numbered: string; names: string[] }>();

function numberedText(text: string): { numbered: string; names: string[] } {
  const kept = numberedTexts.get(text);
  if (kept) return kept;
  const order = new Map<string, number>();
  const numbered = text.replace(NAMED_OR_SKIPPED, (match: string, name: string | undefined) => {
    if (name === undefined) return match;
    let index = order.get(name);
    if (index === undefined) {
      index = order.size + 1;
      order.set(name, index);
    }
    return `$${index}`;
  });
  const entry = { numbered, names: [...order.keys()] };
  if (text.length > NUMBERED_MAX_CHARS) return entry;
  if (numberedTexts.size >= NUMBERED_KEPT) numberedTexts.delete(numberedTexts.keys().next().value!);
  numberedTexts.set(text, entry);
  return entry;
}

// The texts are the store's own, never report text; each alternative consumes quoted text and comments whole.
const NAMED_OR_SKIPPED = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|@([A-Za-z_][A-Za-z0-9_]*)/g;

