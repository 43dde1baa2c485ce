import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The ONE place where SQLite and PostgreSQL differ. Migrations and queries are
 * written once; where the two engines disagree they call what is here, and each difference
 * says why it exists. What is the same on both needs no helper and is listed at the end.
 */

export type DialectName = 'sqlite' | 'postgres';

/** postgres:// and postgresql:// (libpq's two spellings) name a PostgreSQL database; anything else is a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(target.trim());
}

/** A connection URL fit to print: the password (and a password= parameter) replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    // password, and sslpassword (the client key's passphrase) that pg reads from the URL too.
    for (const key of [...parsed.searchParams.keys()]) if (/password/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    // Not a URL that parses: print only the scheme, never what may hold a secret.
    return `${url.split(':')[0] ?? 'postgres'}://…`;
  }
}

// ---------------------------------------------------------------------------------------------
// The dialect: one object per engine, one name per idea. Migrations (DDL words), the writes'
// and the reads' SQL texts all take their differing pieces from here.

export interface Dialect {
  readonly name: DialectName;

  // DDL: the words a migration writes in CREATE TABLE / ALTER TABLE.
  /** A table's own id, assigned on insert when not given. */
  readonly id: string;
  /** Any whole number: counts, flags (0/1), epoch milliseconds, ids of other tables. */
  readonly int: string;
  /** A floating-point number (durations in ms). */
  readonly real: string;
  /** A text column compared without regard to case (user names). */
  readonly nocase: string;
  /** After a table's closing parenthesis: SQLite's checked column types. */
  readonly strict: string;
  /** Same, for a table whose primary key is its only index (no rowid b-tree of its own in SQLite). */
  readonly strictWithoutRowid: string;
  /** Statements migration 1 runs before its tables (PostgreSQL's case-insensitive collation). */
  readonly prelude: string;
  /**
   * After a temporary table's closing parenthesis. SQLite keeps it for the connection's life; on
   * PostgreSQL a pooled connection outlives the answer, so its rows go when the answer's
   * transaction ends (one-connection.ts).
   */
  readonly tempTableEnd: string;

  // Numbers and time.
  /** A condition as 0/1, where a number is needed (sum of a condition). */
  boolInt(condition: string): string;
  /** A sum that is 0 over no rows: SQLite's total() (PostgreSQL has none; its sum of no rows is NULL). */
  total(expression: string): string;
  /**
   * The UTC day (days since 1970-01-01) of epoch milliseconds. Both divide integers as integers,
   * but PostgreSQL keeps the fraction when the value is NUMERIC (a sum, a parameter it typed so):
   * floor() makes it whole on both.
   */
  utcDay(epochMs: string): string;
  /** The UTC day (as utcDay) that starts the calendar month of the UTC day `day`: month_stats's key. */
  monthOf(day: string): string;
  /**
   * The larger / smaller of two values of one row, NULL only when both are: SQLite's two-argument
   * max() returns NULL when either is NULL; PostgreSQL's greatest() ignores NULLs.
   */
  greatest(a: string, b: string): string;
  least(a: string, b: string): string;

  // Text: comparing, ordering, searching.
  /**
   * Text compared byte by byte, for ORDER BY and min(): SQLite's default (BINARY); PostgreSQL's
   * default collation may be a locale (en_US sorts 'B' between 'a' and 'c'), so "C" is named.
   */
  bytes(expression: string): string;
  /**
   * SQLite's NOCASE order: A-Z folded to a-z (no other letter), then bytes. PostgreSQL has no
   * such collation (its ICU one orders punctuation and accents otherwise): fold A-Z itself.
   */
  asciiNocase(expression: string): string;
  /** A-Z folded to a-z and nothing else: SQLite's lower() (PostgreSQL's folds every alphabet by its locale). */
  asciiLower(expression: string): string;
  /** Whether `needle` occurs in `haystack` (no pattern characters): SQLite's instr, PostgreSQL's strpos. */
  contains(haystack: string, needle: string): string;
  /** The character with this code: SQLite's char(), PostgreSQL's chr(). */
  chr(code: number): string;
  /**
   * A parameter whose type PostgreSQL cannot tell from its place (`@x IS NULL`): cast there.
   * SQLite takes it bare: a cast parameter made its planner's choices many times slower.
   */
  typed(param: string, type: 'TEXT' | 'BIGINT'): string;

  // Lists and groups.
  /**
   * `column IN (the numbers of a JSON array)`: one parameter for a list of any length (an IN list
   * of placeholders has a limit: 32,766 in SQLite, 65,535 in PostgreSQL).
   */
  inJsonNumbers(column: string, param: string): string;
  /** `expression IN` the strings of a JSON array parameter (inJsonNumbers, for texts). */
  inJsonTexts(expression: string, param: string): string;
  /**
   * Columns a GROUP BY must name on PostgreSQL only: each is one value per group already (the
   * key of a joined table equal to a grouped key). SQLite takes them bare; naming them there
   * could change its plan.
   */
  groupedToo(columns: string): string;
  /**
   * The values of a group joined in order, no separator: SQLite's group_concat, PostgreSQL's
   * string_agg (text only). `arriving`: the rows reach the aggregate in that order already (a
   * key-order scan, no sorter): SQLite appends them as they come, where its ORDER BY builds a
   * temporary b-tree per group (a tenth of the 7-day window scan); PostgreSQL's hash grouping
   * keeps no order, so it sorts anyway.
   */
  concatInOrder(expression: string, orderBy: string, arriving?: 'inOrder'): string;
  /** The distinct values of a group, in byte order, joined by ',' (SQLite's group_concat(DISTINCT), string_agg). */
  distinctList(expression: string): string;
  /**
   * A JSON array (as text) of a group's values in `orderBy` order: SQLite's json_group_array
   * (in the rows' order), PostgreSQL's json_agg, cast to text (pg parses json columns itself)
   * and '[]' for no rows as SQLite gives.
   */
  jsonArray(expression: string, orderBy: string): string;
  /** A JSON array (as text) of a group's distinct values, in no set order. */
  jsonDistinct(expression: string): string;
  /** A JSON object of name/value pairs, inside jsonArray: json_object, json_build_object. */
  jsonObject(pairs: string): string;

  // Planner hints.
  /**
   * A column compared without its index: SQLite's unary + is a planner hint (window-scan.ts
   * reads in key order instead of through the day index); PostgreSQL's planner chooses on its
   * statistics and needs no hint.
   */
  withoutIndex(column: string): string;
  /**
   * A table read through the named index: SQLite's INDEXED BY (without statistics its planner
   * took the narrower day index and a table lookup per row over the covering one, 4× slower);
   * nothing on PostgreSQL, whose planner chooses on its statistics.
   */
  through(table: string, index: string): string;
  /**
   * The join that reads a scratch table of keys as the outer loop: SQLite's CROSS JOIN fixes the
   * order (temp tables have no statistics, and it would otherwise scan every result once);
   * PostgreSQL has no CROSS JOIN … ON and plans a JOIN alike.
   */
  readonly keysFirstJoin: string;
  /**
   * `column IN (subquery)` for a short list the subquery reads once (a branch's run ids), tested
   * against many rows: SQLite makes the list once and looks each row up in it; PostgreSQL planned
   * a loop over the list around each row's index lookup (the branch's all-time flaky list at
   * 1,000,000 results: 3.9 s against 1.2 s), so there the list is an array it computes once.
   */
  inListReadOnce(column: string, subquery: string): string;
}

/**
 * `column` begins with `text`, every character of it literal (`_`, `%` and `\\` included): the
 * same on both engines, so one helper rather than a dialect member. The pattern and its ESCAPE
 * clause are built together, because SQLite's LIKE has no escape character unless told one
 * (PostgreSQL's default is the backslash named here).
 */
export function startsWith(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`;
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  // The rowid alias: SQLite assigns max(id) + 1 (no AUTOINCREMENT: ids of deleted last rows may come back, as before).
  id: 'INTEGER PRIMARY KEY',
  // SQLite's INTEGER is always 64-bit.
  int: 'INTEGER',
  // SQLite's REAL is an 8-byte float.
  real: 'REAL',
  nocase: 'COLLATE NOCASE',
  strict: ' STRICT',
  strictWithoutRowid: ' STRICT, WITHOUT ROWID',
  prelude: '',
  tempTableEnd: '',
  // SQLite's comparisons are already 0/1 numbers.
  boolInt: (condition) => condition,
  total: (e) => `total(${e})`,
  utcDay: (ms) => `CAST(${ms} / 86400000 AS INTEGER)`,
  // A midnight's Julian day ends in .5, as 1970-01-01's (2440587.5) does: the difference is whole.
  monthOf: (day) => `CAST(julianday(${day} * 86400, 'unixepoch', 'start of month') - 2440587.5 AS INTEGER)`,
  greatest: (a, b) => `max(coalesce(${a}, ${b}), coalesce(${b}, ${a}))`,
  least: (a, b) => `min(coalesce(${a}, ${b}), coalesce(${b}, ${a}))`,
  bytes: (e) => e,
  asciiNocase: (e) => `${e} COLLATE NOCASE`,
  asciiLower: (e) => `lower(${e})`,
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  chr: (code) => `char(${code})`,
  typed: (param) => param,
  inJsonNumbers: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  inListReadOnce: (column, subquery) => `${column} IN (${subquery})`,
  inJsonTexts: (expression, param) => `${expression} IN (SELECT value FROM json_each(${param}))`,
  groupedToo: () => '',
  concatInOrder: (e, orderBy, arriving) => (arriving === 'inOrder' ? `group_concat(${e}, '')` : `group_concat(${e}, '' ORDER BY ${orderBy})`),
  distinctList: (e) => `group_concat(DISTINCT ${e} ORDER BY ${e})`,
  jsonArray: (e, orderBy) => `json_group_array(${e} ORDER BY ${orderBy})`,
  jsonDistinct: (e) => `json_group_array(DISTINCT ${e})`,
  jsonObject: (pairs) => `json_object(${pairs})`,
  withoutIndex: (column) => `+${column}`,
  through: (table, index) => `${table} INDEXED BY ${index}`,
  keysFirstJoin: 'CROSS JOIN',
};

/** PostgreSQL's collation for user names: ICU at level 2 (case ignored, accents not), not deterministic. */
export const POSTGRES_NOCASE_COLLATION = 'flakeboard_nocase';

const postgresAsciiLower = (e: string) => `translate(${e}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

export const postgresDialect: Dialect = {
  name: 'postgres',
  // BY DEFAULT (not ALWAYS): migrate-db writes the SQLite ids as they are, then moves the sequence past them.
  id: 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
  // PostgreSQL's INTEGER is 32-bit and epoch milliseconds overflow it: every whole number is
  // BIGINT, so no column can be declared too small by a later migration.
  int: 'BIGINT',
  // PostgreSQL's REAL is a 4-byte float (about 7 digits): durations need DOUBLE PRECISION.
  real: 'DOUBLE PRECISION',
  // No NOCASE in PostgreSQL. A non-deterministic ICU collation makes = and UNIQUE ignore case as
  // SQLite's NOCASE does, so the same queries find 'Alice' for 'alice' (ICU folds every
  // alphabet's case, SQLite's NOCASE only A-Z). LIKE is not allowed on such a column before PostgreSQL 18.
  nocase: `COLLATE ${POSTGRES_NOCASE_COLLATION}`,
  // PostgreSQL's columns are always typed, and every table has its heap: no table options.
  strict: '',
  strictWithoutRowid: '',
  prelude: `CREATE COLLATION IF NOT EXISTS ${POSTGRES_NOCASE_COLLATION} (provider = icu, locale = 'und-u-ks-level2', deterministic = false);`,
  tempTableEnd: ' ON COMMIT DELETE ROWS',
  // PostgreSQL's comparisons are booleans, which sum() does not take; NULL stays NULL as in SQLite.
  boolInt: (condition) => `(${condition})::int`,
  total: (e) => `coalesce(sum(${e}), 0)`,
  utcDay: (ms) => `floor(${ms} / 86400000)::bigint`,
  // A date less a date is a whole number of days; TIMESTAMP (no zone) keeps the session's zone out.
  monthOf: (day) => `CAST(CAST(date_trunc('month', CAST(DATE '1970-01-01' + CAST(${day} AS INTEGER) AS TIMESTAMP)) AS DATE) - DATE '1970-01-01' AS BIGINT)`,
  greatest: (a, b) => `greatest(${a}, ${b})`,
  least: (a, b) => `least(${a}, ${b})`,
  bytes: (e) => `${e} COLLATE "C"`,
  asciiNocase: (e) => `${postgresAsciiLower(e)} COLLATE "C"`,
  asciiLower: postgresAsciiLower,
  contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`,
  chr: (code) => `chr(${code})`,
  typed: (param, type) => `CAST(${param} AS ${type})`,
  inJsonNumbers: (column, param) => `${column} IN (SELECT value::bigint FROM json_array_elements_text(${param}::json))`,
  inListReadOnce: (column, subquery) => `${column} = ANY (ARRAY(${subquery}))`,
  inJsonTexts: (expression, param) => `${expression} IN (SELECT value FROM json_array_elements_text(${param}::json))`,
  groupedToo: (columns) => `, ${columns}`,
  concatInOrder: (e, orderBy) => `string_agg(${e}, '' ORDER BY ${orderBy})`,
  distinctList: (e) => `string_agg(DISTINCT ${e} COLLATE "C", ',' ORDER BY ${e} COLLATE "C")`,
  jsonArray: (e, orderBy) => `CAST(coalesce(json_agg(${e} ORDER BY ${orderBy}), '[]') AS TEXT)`,
  jsonDistinct: (e) => `CAST(json_agg(DISTINCT ${e}) AS TEXT)`,
  jsonObject: (pairs) => `json_build_object(${pairs})`,
  withoutIndex: (column) => column,
  through: (table) => table,
  keysFirstJoin: 'JOIN',
};

export function dialectFor(name: DialectName): Dialect {
  return name === 'postgres' ? postgresDialect : sqliteDialect;
}
/**
 * Where the schema version lives. SQLite has a slot for it in the file header (PRAGMA
 * user_version); PostgreSQL has none, so a one-row table holds it. It is the only table that
 * exists on one side only: the schema comparison and migrate-db leave it out.
 */
export const POSTGRES_VERSION_TABLE = 'flakeboard_schema';

/** SQLite's own tables and the connection's scratch tables: never part of the schema to compare or copy. */
export function isInternalTable(name: string): boolean {
  return name.startsWith('sqlite_') || name === POSTGRES_VERSION_TABLE;
}

// ---------------------------------------------------------------------------------------------
// Values read back.

/**
 * pg returns BIGINT (every integer column here, and count(*)) and NUMERIC (what sum() of a
 * BIGINT gives) as strings, because they can exceed 2^53. Our values are counts and epoch
 * milliseconds, far below it: read as numbers, rows are what better-sqlite3 returns.
 * These type ids (int8, numeric) get Number as their parser, per pool (open-postgres.ts).
 */
export const POSTGRES_NUMBER_TYPES: readonly number[] = [20, 1700];

/**
 * PostgreSQL's text cannot hold U+0000 (SQLite's can, and report output sometimes has it):
 * it is written as U+FFFD, the character for "unrepresentable". A lone UTF-16 surrogate (a
 * JS string can hold one, UTF-8 cannot) becomes U+FFFD on the way to the server anyway; it is
 * replaced here too, so text used as a lookup key equals the text PostgreSQL stores and returns.
 * Every other character is kept. The pattern looks one character either side: linear time.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export function postgresText(value: string): string {
  const text = value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/*
 * The same on both, so written directly (no helper):
 * - Upserts: INSERT ... ON CONFLICT (columns) DO UPDATE SET c = excluded.c (SQLite 3.24+).
 * - Insert-or-ignore: INSERT ... ON CONFLICT DO NOTHING (Kysely: .onConflict((oc) => oc.doNothing())).
 *   SQLite's INSERT OR IGNORE does not exist in PostgreSQL, and also skips NOT NULL and CHECK
 *   failures, which ON CONFLICT DO NOTHING (rightly) does not.
 * - New ids: INSERT ... RETURNING id (Kysely .returning('id'); SQLite 3.35+). better-sqlite3's
 *   lastInsertRowid and Kysely's insertId exist for SQLite only.
 * - string_agg(value, separator ORDER BY ...) (SQLite 3.44+): not SQLite's group_concat.
 * - Concatenation with ||: PostgreSQL wants text on both sides: CAST(n AS TEXT) (valid in both).
 * - Float casts: CAST(x AS DOUBLE PRECISION) (SQLite reads it as REAL), never AS REAL.
 * - PRAGMAs are SQLite's alone (open.ts): PostgreSQL's equivalents are server settings.
 * - Text separators: PostgreSQL text cannot hold char(0); use another separator (char(31)).
 */

// ---------------------------------------------------------------------------------------------
// Writers of one database at once. SQLite has one writer at a time (an import's IMMEDIATE
// transaction holds the file's only write lock), so these exist for PostgreSQL alone, where
// many servers and CLI imports write together; each lock is held until its transaction ends.

/** Advisory lock classes (the first key of the two-key form): flakeboard's own, apart from the migration lock's. */
const REPORT_LOCK_CLASS = 0x666c6b63;
const ROLLUP_LOCK_CLASS = 0x666c6b64;
const TESTS_LOCK_CLASS = 0x666c6b65;

/**
 * Taken before the duplicate check, on the report's content hash: ten jobs storing the same
 * report queue here, so one stores it and the others see it and are marked duplicates, while
 * different reports go on in parallel (a hash collision only makes two wait).
 */
export const POSTGRES_LOCK_REPORT = `SELECT pg_advisory_xact_lock(${REPORT_LOCK_CLASS}, hashtext(CAST(@hash AS TEXT)))`;

/**
 * Taken before a run's rollups are written (and before a review, delete or prune refreshes
 * them): whether a run is later than what is stored decides how it adds to the rollups, and
 * that holds only if no other writer changes them meanwhile. Results are written in parallel;
 * only this short last step is one at a time.
 */
export const POSTGRES_LOCK_ROLLUPS = `SELECT pg_advisory_xact_lock(${ROLLUP_LOCK_CLASS}, 0)`;

/**
 * Taken before a writer creates test identities that do not exist yet: two reports creating the
 * same new tests in different orders would each wait for the other's uncommitted rows (a
 * deadlock). Writers whose tests all exist (the usual case) never take it.
 */
export const POSTGRES_LOCK_NEW_TESTS = `SELECT pg_advisory_xact_lock(${TESTS_LOCK_CLASS}, 0)`;

// ---------------------------------------------------------------------------------------------
// What a database error means, and serialising a read-then-write on one key.

/**
 * A unique constraint refused the row (a user name taken). The engines report it differently:
 * better-sqlite3's code SQLITE_CONSTRAINT_UNIQUE (SQLITE_CONSTRAINT_PRIMARYKEY for a key),
 * pg's SQLSTATE 23505 (unique_violation).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * Inside a transaction that reads a row and then writes what it computed from it (a count of
 * failed sign-ins), makes every other such transaction on the same key wait until this one ends.
 * SQLite needs nothing: its transactions begin IMMEDIATE (waiting-driver.ts), holding the one
 * write lock from their first statement. PostgreSQL's run side by side (READ COMMITTED): two
 * servers could read the same count and both write count + 1. A transaction-scoped advisory
 * lock on the key's hash serialises them, and ends with the transaction. null: nothing to run.
 */
export function serializeOnKey(dialect: DialectName, key: string): RawBuilder<unknown> | null {
  return dialect === 'postgres' ? sql`SELECT pg_advisory_xact_lock(hashtext(${key}))` : null;
}

/**
 * What a database error means for the answer: the disk is full (507), the database cannot be
 * reached or written right now (503: a load balancer or client tries again later), or neither
 * (a bug: 500). SQLite says it with its result codes. PostgreSQL with SQLSTATE classes: 53100 is
 * disk_full; 08 connection lost, 57 the server shutting down or starting up (57P01-57P03), 53 out
 * of connections (53300) or memory, 55 not in a state to serve (connections disallowed, a lock
 * not available), 3D the database gone, 28 the login refused, 25006 a read-only standby (after a
 * failover). pg's own connection failures carry a Node error code, or only a message: a
 * connection cut (restart, pg_terminate_backend), a pool that found no connection in time, and a
 * client used again after its connection failed (a transaction's ROLLBACK on it).
 */
export function databaseTrouble(error: unknown): 'full' | 'unavailable' | null {
  const code = String((error as { code?: unknown }).code ?? '');
  const message = error instanceof Error ? error.message : '';
  if (code === 'SQLITE_FULL' || code === '53100') return 'full';
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_BUSY') return 'unavailable';
  if (/^(08|57|53|55|3D|28)[0-9A-Z]{3}$/.test(code) || code === '25006') return 'unavailable';
  if (CONNECTION_CODES.has(code)) return 'unavailable';
  if (UNREACHABLE_MESSAGE.test(message)) return 'unavailable';
  // Node's connect to a name with several addresses fails with all of their errors at once.
  if (error instanceof AggregateError && error.errors.some((e) => databaseTrouble(e) === 'unavailable')) return 'unavailable';
  return null;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
// pg's and pg-pool's texts, each anchored at the start: linear.
const UNREACHABLE_MESSAGE = /^(?:Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Query read timeout)/;

/**
 * The database refuses writes (a read-only file, a standby): it answers, so it is not "cannot be
 * reached", and waiting a few seconds may not help.
 */
export function isReadOnlyTrouble(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? '');
  return code.startsWith('SQLITE_READONLY') || code === '25006';
}
