import type pg from 'pg';
import type { DialectName } from './store/engine/dialect.js';
import type { AnyStore, Store } from './store/engine/types.js';

/** What `/api/health` says of the database. */
export interface DatabaseState {
  ok: boolean;
  engine: DialectName;
  /** Why it is not ok: the driver's message (never the URL's password: pg does not repeat it). */
  error?: string;
}

export interface HealthTiming {
  /** How often the background probe asks PostgreSQL while someone watches. */
  intervalMs: number;
  /** A probe unanswered for this long means the database is down (a host gone silent). */
  deadlineMs: number;
  /** With no one asking for this long (no health request, no outage), the probing stops. */
  idleMs: number;
}

/**
 * Asked every 200 ms, a probe with 800 ms to answer: a dead database is said within a second,
 * and a cut connection (restart, failover) at once, by the connection's own error.
 */
export const HEALTH_TIMING: HealthTiming = { intervalMs: 200, deadlineMs: 800, idleMs: 5 * 60_000 };

const PROBE = 'SELECT 1 AS ok';
/** How long an ask after an idle pause waits for a fresh probe before it answers from the last one. */
const STALE_WAIT_MS = 150;

/**
 * Whether the database answers, for `/api/health` and the outage log. It never waits behind the
 * requests' pool: under load every pooled connection may be held by uploads and readers, and a
 * balancer's probe queued behind them took up to 0.9 s. PostgreSQL is probed over a connection
 * of its own, in the background while anyone asks, and the health route answers from the last
 * result. SQLite is probed on the spot: `SELECT 1` on its open connection takes microseconds
 * and no lock.
 */
export class DatabaseHealth {
  private readonly engine: DialectName;
  private last: { state: DatabaseState; at: number } | null = null;
  private probing: { since: number; done: Promise<void> } | null = null;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private askedAt = 0;
  private watchers = 0;
  private closed = false;
  private readonly listeners = new Set<(state: DatabaseState) => void>();

  constructor(
    private readonly store: AnyStore,
    private readonly timing: HealthTiming = HEALTH_TIMING,
  ) {
    this.engine = store.dialect;
  }

  /** The database's state now: at most one probe interval old, never waiting for a pooled connection. */
  async state(): Promise<DatabaseState> {
    if (this.store.dialect === 'sqlite') return this.probeSqlite(this.store);
    this.askedAt = Date.now();
    this.keepProbing();
    const last = this.last;
    if (last === null) {
      // The very first ask: nothing to answer from but the probe (bounded by its deadline).
      await this.probe();
    } else if (Date.now() - last.at > this.timing.intervalMs + this.timing.deadlineMs) {
      // After an idle pause: a short wait for a fresh probe on the open connection, else the last
      // result (a connection lost meanwhile said so already, by its own error).
      await Promise.race([this.probe(), new Promise((resolve) => setTimeout(resolve, STALE_WAIT_MS).unref())]);
    }
    return this.current();
  }

  /** Starts probing now, so the first health answer need not wait for a connection (serve). */
  start(): void {
    if (this.store.dialect === 'sqlite') return;
    this.askedAt = Date.now();
    this.keepProbing();
    void this.probe();
  }

  /** Called with each change between ok and not ok (the outage log's start and end). */
  onChange(listener: (state: DatabaseState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps probing until the returned function is called (an outage in progress waits for the end). */
  watch(): () => void {
    this.watchers += 1;
    this.keepProbing();
    let done = false;
    return () => {
      if (!done) this.watchers -= 1;
      done = true;
    };
  }

  /** Probes once now (SQLite: on the spot) and says the result. */
  async check(): Promise<DatabaseState> {
    if (this.store.dialect === 'sqlite') return this.probeSqlite(this.store);
    await this.probe();
    return this.current();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private current(): DatabaseState {
    const probing = this.probing;
    if (probing && Date.now() - probing.since > this.timing.deadlineMs) {
      return { ok: false, engine: this.engine, error: `no answer within ${this.timing.deadlineMs} ms` };
    }
    return this.last?.state ?? { ok: false, engine: this.engine, error: 'not probed yet' };
  }

  private probeSqlite(store: Store): DatabaseState {
    let state: DatabaseState;
    try {
      store.sqlite.prepare(PROBE).get();
      state = { ok: true, engine: 'sqlite' };
    } catch (error) {
      state = { ok: false, engine: 'sqlite', error: (error as Error).message };
    }
    this.record(state);
    return state;
  }

  private keepProbing(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => {
      const idle = Date.now() - this.askedAt > this.timing.idleMs && this.watchers === 0;
      if (idle) {
        clearInterval(this.timer!);
        this.timer = null;
        return;
      }
      void this.probe();
    }, this.timing.intervalMs);
    // A server that is otherwise done must not stay up for its health probe.
    this.timer.unref();
  }

  /** One probe at a time; a caller joins the one in flight. Settles within the deadline. */
  private probe(): Promise<void> {
    if (this.probing) return this.probing.done;
    const since = Date.now();
    const done = this.ask().then(
      () => this.record({ ok: true, engine: this.engine }),
      (error: unknown) => {
        this.dropClient();
        this.record({ ok: false, engine: this.engine, error: describe(error) });
      },
    );
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, this.timing.deadlineMs).unref());
    this.probing = { since, done: Promise.race([done, deadline]) };
    // The probe itself ends when it ends: a silent host is dropped at its deadline (below).
    void done.finally(() => {
      if (this.probing?.since === since) this.probing = null;
    });
    const timeout = setTimeout(() => {
      if (this.probing?.since !== since) return;
      this.record({ ok: false, engine: this.engine, error: `no answer within ${this.timing.deadlineMs} ms` });
      // A connection that does not answer is given up; the next probe makes a new one.
      this.dropClient();
      this.probing = null;
    }, this.timing.deadlineMs);
    timeout.unref();
    void done.finally(() => clearTimeout(timeout));
    return this.probing.done;
  }

  private async ask(): Promise<void> {
    if (this.closed) throw new Error('the server is closing');
    // Loaded at the first probe of PostgreSQL: a server on SQLite never loads the driver.
    driver ??= (await import('pg')).default;
    if (this.closed) throw new Error('the server is closing');
    let client = this.client;
    if (!client) {
      client = new driver.Client({
        connectionString: this.store.location,
        connectionTimeoutMillis: this.timing.deadlineMs,
        application_name: 'flakeboard health',
      });
      // The connection's end (a restart, pg_terminate_backend) is the database going away: said at once.
      const lost = (error?: Error) => {
        if (this.client !== client) return;
        this.client = null;
        this.record({ ok: false, engine: this.engine, error: error ? describe(error) : 'the connection was closed' });
      };
      client.on('error', lost);
      client.on('end', () => lost());
      this.client = client;
      try {
        await client.connect();
      } catch (error) {
        if (this.client === client) this.client = null;
        throw error;
      }
    }
    await client.query(PROBE);
  }

  private dropClient(): void {
    const client = this.client;
    this.client = null;
    if (client) void client.end().catch(() => {});
  }

  private record(state: DatabaseState): void {
    const before = this.last?.state.ok;
    this.last = { state, at: Date.now() };
    if (before !== state.ok) for (const listener of this.listeners) listener(state);
  }
}

let driver: typeof pg | null = null;

function describe(error: unknown): string {
  const err = error as { message?: string; code?: string };
  if (err.message) return err.code && !err.message.includes(err.code) && /^[0-9A-Z]{5}$/.test(err.code) ? `${err.message} (${err.code})` : err.message;
  if (error instanceof AggregateError) return error.errors.map((e: Error) => e.message).join('; ');
  return err.code ?? String(error);
}
