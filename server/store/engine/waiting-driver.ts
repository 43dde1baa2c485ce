import type { Database } from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

/** SQLITE_BUSY and its variants: another connection (a worker, a CLI import) holds the write lock. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
// Short at first (most writes hold the lock for milliseconds), then at most 50 ms apart.
const backoff = (attempt: number) => Math.min(50, 2 ** attempt);

/**
 * Runs `work` (synchronous SQLite) and, while it fails with SQLITE_BUSY, runs it again after an
 * asynchronous pause, until `waitMs` has passed. On a connection with busy_timeout 0 this is how
 * the server's thread waits for the write lock without blocking its event loop: better-sqlite3's
 * own busy timeout sleeps inside SQLite, holding every other request for up to that long.
 * `work` must do nothing before the statement that may be busy (a transaction that begins
 * IMMEDIATE fails before any change, so it is safe to run again).
 */
export async function whenWritable<T>(work: () => T, waitMs: number, between?: { pause(): void; resume(): Promise<void> }): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    between?.pause();
    await sleep(backoff(attempt));
    await between?.resume();
  }
}

/**
 * Kysely's SQLite dialect with writes that wait for the lock asynchronously (whenWritable).
 * Kysely shares one connection behind a mutex; a statement waiting for the lock gives the mutex
 * up between attempts, so reads (a session lookup, a dashboard) go on meanwhile. Transactions
 * begin IMMEDIATE: they take the write lock first (waiting the same way) and so never meet a
 * busy lock halfway, where running a statement again would not help.
 */
export class WaitingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: Database,
    private readonly waitMs: number,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new WaitingDriver(this.database, this.waitMs);
  }
}

class Mutex {
  private held: Promise<void> | null = null;
  private release: (() => void) | null = null;

  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  unlock(): void {
    const release = this.release;
    this.held = null;
    this.release = null;
    release?.();
  }
}

class WaitingDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly connection: WaitingConnection;

  constructor(
    private readonly database: Database,
    waitMs: number,
  ) {
    this.connection = new WaitingConnection(database, waitMs, this.mutex);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    this.connection.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.connection.inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.connection.inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.database.close();
  }
}

/** Statements kept per connection; the SQL texts of the app's queries are a few dozen shapes. */
const KEPT_STATEMENTS = 256;

class WaitingConnection implements DatabaseConnection {
  inTransaction = false;
  // Preparing was a fifth of the server thread's time under 50 polling readers (the mixed
  // benchmark): Kysely sends the same texts again and again. Least recently used goes first.
  private readonly statements = new Map<string, ReturnType<Database['prepare']>>();

  constructor(
    private readonly database: Database,
    private readonly waitMs: number,
    private readonly mutex: Mutex,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const run = () => this.run<R>(query);
    // Inside a transaction the lock is already ours: nothing to wait for, and the mutex must stay held.
    if (this.inTransaction) return Promise.resolve(run());
    return whenWritable(run, this.waitMs, { pause: () => this.mutex.unlock(), resume: () => this.mutex.lock() });
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used with SQLite');
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.prepared(query.sql);
    // A lone plain object is a store query's named parameters (sql.ts), which better-sqlite3 binds by name.
    const only = query.parameters.length === 1 ? query.parameters[0] : undefined;
    const bind = only !== null && typeof only === 'object' && Object.getPrototypeOf(only) === Object.prototype ? only : query.parameters;
    if (statement.reader) return { rows: statement.all(bind) as R[] };
    const { changes, lastInsertRowid } = statement.run(bind);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  private prepared(sql: string): ReturnType<Database['prepare']> {
    let statement = this.statements.get(sql);
    if (statement) this.statements.delete(sql);
    else statement = this.database.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > KEPT_STATEMENTS) this.statements.delete(this.statements.keys().next().value!);
    return statement;
  }
}
