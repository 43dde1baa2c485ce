import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallReport } from '../../fixtures/testing/app.js';
import { createTestTarget, type TestTarget } from '../../fixtures/testing/engines.js';
import { HAS_POSTGRES, POSTGRES_SKIP, POSTGRES_URL, queryRows } from '../../fixtures/testing/postgres.js';
import { registerErrorHandler } from '../plugins/error-handler.js';
import { POSTGRES_LOCK_ROLLUPS } from '../store/engine/dialect.js';
import { openPostgres } from '../store/engine/open-postgres.js';
import type { AnyStore, PostgresStore } from '../store/engine/types.js';
import { errorOf, failureOf } from './jobs.js';
import { createWriter, type Writer } from './runner.js';

const bytes = (title: string) => Buffer.from(JSON.stringify({ testResults: smallReport(title, 'failed'), metadata: { fileName: `${title}.json` } }));
const UNAVAILABLE = { error: 'The database cannot be reached right now: nothing was stored; try again in a few seconds.' };
const READ_ONLY = { error: 'The database cannot be written right now (it is read-only): nothing was stored; try again later.' };

function onPostgres(name: string, body: () => void): void {
  if (HAS_POSTGRES) describe(name, body);
  else describe.skip(`${name}: ${POSTGRES_SKIP}`, body);
}

/**
 * PostgreSQL failing under the writer worker: its errors cross the thread as
 * JobFailure and must come out of the error handler as SQLite's do (503, nothing stored),
 * not as a 500; and the writer serves again once the database is back.
 */
onPostgres('the writer worker when PostgreSQL fails', () => {
  let target: TestTarget;
  let store: AnyStore;
  let dbName: string;
  beforeAll(async () => {
    target = await createTestTarget('postgres');
    store = await target.open();
    dbName = new URL(target.target).pathname.slice(1);
    await store.sql.run(`INSERT INTO users (id, username, password_hash, role, created_at, updated_at) VALUES (1, 'max', 'x', 'member', 0, 0)`);
  });
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  /** The upload route's shape: the writer's error goes to the server's error handler. */
  async function appOver(writer: Writer): Promise<FastifyInstance> {
    const app = Fastify();
    registerErrorHandler(app);
    app.post<{ Params: { title: string } }>('/upload/:title', async (request) => writer.upload(bytes(request.params.title), null, 1));
    await app.ready();
    return app;
  }
  const upload = async (app: FastifyInstance, title: string) => {
    const res = await app.inject({ method: 'POST', url: `/upload/${title}` });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const runs = async () => (await store.sql.all<{ file_name: string }>(`SELECT file_name FROM runs ORDER BY id`)).map((r) => r.file_name);
  /** Ends the connections of the writer's pool (all but the test's own store), as a failover or restart would. */
  const dropWriterConnections = async () => {
    const own = (store as { pool?: pg.Pool }).pool!;
    const mine = own.totalCount > 0 ? new Set((await own.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows.map((r) => r.pid)) : new Set<number>();
    const pids = (await queryRows<{ pid: number }>(POSTGRES_URL, `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'flakeboard'`, [dbName])).map((r) => r.pid).filter((pid) => !mine.has(pid));
    for (const pid of pids) await queryRows(POSTGRES_URL, 'SELECT pg_terminate_backend($1)', [pid]);
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  const setReadOnly = (on: boolean) => queryRows(POSTGRES_URL, on ? `ALTER DATABASE ${dbName} SET default_transaction_read_only = on` : `ALTER DATABASE ${dbName} RESET default_transaction_read_only`);

  it("a store's pool settings reach PostgreSQL: its size, and the statement timeout on every connection", async () => {
    const timed = (await openPostgres(target.target, { max: 3, statementTimeoutMs: 1_500 })) as PostgresStore;
    try {
      expect(timed.poolSettings).toEqual({ max: 3, statementTimeoutMs: 1_500 });
      expect(timed.pool.options.max).toBe(3);
      expect(await timed.sql.value('SHOW statement_timeout')).toBe('1500ms');
      await expect(timed.sql.value('SELECT pg_sleep(3)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await timed.close();
    }
  });

  it('a database that turned read-only (a standby after a failover) answers 503, and the writer stores again once it is writable', async () => {
    const writer = createWriter(store);
    const app = await appOver(writer);
    try {
      expect((await upload(app, 'before')).status).toBe(200);
      await setReadOnly(true);
      await dropWriterConnections();
      expect(await upload(app, 'read-only')).toEqual({ status: 503, body: READ_ONLY });
      await setReadOnly(false);
      await dropWriterConnections();
      expect((await upload(app, 'after')).status).toBe(200);
      expect(await runs()).toEqual(['before.json', 'after.json']);
    } finally {
      await setReadOnly(false);
      await app.close();
      await writer.stop();
    }
  });

  it('a writer that cannot open the database (read-only at its first upload) answers 503, and opens it on a later upload', async () => {
    await setReadOnly(true);
    const writer = createWriter(store);
    const app = await appOver(writer);
    try {
      // The worker starts with the first upload; its open (which migrates) is refused.
      expect(await upload(app, 'refused-open')).toEqual({ status: 503, body: READ_ONLY });
      await setReadOnly(false);
      expect((await upload(app, 'reopened')).status).toBe(200);
      expect((await runs()).slice(-1)).toEqual(['reopened.json']);
      expect(await runs()).not.toContain('refused-open.json');
    } finally {
      await setReadOnly(false);
      await app.close();
      await writer.stop();
    }
  });

  it('the connection ended in the middle of an upload answers 503 and rolls it back', async () => {
    const writer = createWriter(store);
    const app = await appOver(writer);
    // Another server's writer holds the rollup lock: the upload has written its results and waits inside its transaction.
    const other = new pg.Client({ connectionString: target.target });
    await other.connect();
    try {
      expect((await upload(app, 'warm')).status).toBe(200);
      const resultsBefore = Number(await store.sql.value('SELECT count(*) FROM results'));
      await other.query('BEGIN');
      await other.query(POSTGRES_LOCK_ROLLUPS);
      const pending = upload(app, 'cut-off');
      let waiting: number[] = [];
      for (let i = 0; i < 100 && waiting.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        waiting = (await queryRows<{ pid: number }>(POSTGRES_URL, `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [dbName])).map((r) => r.pid);
      }
      expect(waiting).toHaveLength(1);
      await queryRows(POSTGRES_URL, 'SELECT pg_terminate_backend($1)', [waiting[0]]);
      expect(await pending).toEqual({ status: 503, body: UNAVAILABLE });
      await other.query('COMMIT');
      expect(Number(await store.sql.value('SELECT count(*) FROM results'))).toBe(resultsBefore);
      expect((await upload(app, 'next')).status).toBe(200);
      expect((await runs()).filter((f) => f === 'cut-off.json' || f === 'next.json')).toEqual(['next.json']);
    } finally {
      await other.end().catch(() => {});
      await app.close();
      await writer.stop();
    }
  });
});

describe("a database failure as it crosses the writer's thread boundary", () => {
  // failureOf in the worker, errorOf in the server, then the server's error handler.
  async function answerFor(error: unknown) {
    const app = Fastify();
    registerErrorHandler(app);
    const failure = JSON.parse(JSON.stringify(failureOf(error))) as ReturnType<typeof failureOf>;
    app.post('/', async () => {
      throw errorOf(failure);
    });
    const res = await app.inject({ method: 'POST', url: '/' });
    await app.close();
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  }
  const withCode = (code: string, message: string) => Object.assign(new Error(message), { code });

  it("keeps PostgreSQL's and SQLite's meaning: full 507, unreachable or read-only 503, anything else 500", async () => {
    const full = { status: 507, body: { error: 'The server cannot store data: its disk is full. Nothing was stored.' } };
    expect(await answerFor(withCode('53100', 'could not extend file "base/16384/16385": No space left on device'))).toEqual(full);
    expect(await answerFor(withCode('SQLITE_FULL', 'database or disk is full'))).toEqual(full);
    const unavailable = { status: 503, body: UNAVAILABLE };
    expect(await answerFor(withCode('25006', 'cannot execute INSERT in a read-only transaction'))).toEqual({ status: 503, body: READ_ONLY });
    expect(await answerFor(withCode('57P01', 'terminating connection due to administrator command'))).toEqual(unavailable);
    expect(await answerFor(withCode('SQLITE_BUSY', 'database is locked'))).toEqual(unavailable);
    expect(await answerFor(new Error('Connection terminated unexpectedly'))).toEqual(unavailable);
    // A transaction's ROLLBACK on a connection that failed (its cause is kept: open-postgres.ts; this is the backstop).
    expect(await answerFor(new Error('Client has encountered a connection error and is not queryable'))).toEqual(unavailable);
    expect(await answerFor(new Error('timeout exceeded when trying to connect'))).toEqual(unavailable);
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', 'ECONNREFUSED']) expect(await answerFor(withCode(code, 'down'))).toEqual(unavailable);
    expect(await answerFor(withCode('57014', 'canceling statement due to statement timeout'))).toEqual({
      status: 503,
      body: { error: 'The database took too long to answer (the statement timeout): nothing was stored; try again later.' },
    });
    expect(await answerFor(withCode('42P01', 'relation "runs" does not exist'))).toEqual({ status: 500, body: { error: 'Internal server error' } });
  });
});
