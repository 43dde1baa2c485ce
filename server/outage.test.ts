import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signIn, smallReport, TEST_SCRYPT, type Signed } from '../fixtures/testing/app.js';
import { CLUSTER_SKIP, HAS_CLUSTER, startCluster, type Cluster } from '../fixtures/testing/postgres-cluster.js';
import { buildApp } from './app.js';
import { hashPassword } from './auth/passwords.js';
import { POSTGRES_LOCK_ROLLUPS } from './store/engine/dialect.js';
import { openPostgres } from './store/engine/open-postgres.js';
import type { PostgresStore } from './store/engine/types.js';
import { createUser } from './store/accounts/users.js';

function onCluster(name: string, body: () => void): void {
  if (HAS_CLUSTER) describe(name, body);
  else describe.skip(`${name}: ${CLUSTER_SKIP}`, body);
}

const READ = 'The database cannot be reached right now; try again in a few seconds.';
const WRITE = 'The database cannot be reached right now: nothing was stored; try again in a few seconds.';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await sleep(50);
  }
}

/**
 * A real PostgreSQL going away under a whole server (its writer and analytics workers, its
 * pool, its health probe): stopped, shutting down, and a backend ended while it serves a
 * request. What a balancer and CI see: 503 with Retry-After on every route and a health answer
 * that names the database; what the operator sees: a few log lines, not a stack per request.
 */
onCluster('PostgreSQL outages under a server', () => {
  let cluster: Cluster;
  let store: PostgresStore;
  let app: FastifyInstance;
  let admin: Signed;
  const logs: string[] = [];
  let uploads = 0;

  beforeAll(async () => {
    cluster = await startCluster();
    store = await openPostgres(cluster.url, { max: 4, connectTimeoutMs: 2_000 });
    await createUser(store, { username: 'admin', passwordHash: await hashPassword(PASSWORD, TEST_SCRYPT), role: 'admin' });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildApp({ store, uiDir: null, scrypt: TEST_SCRYPT, logger: { level: 'info', stream } });
    admin = await signIn(app, 'admin');
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await cluster?.remove();
  });

  const upload = async () => {
    const res = await app.inject({ method: 'POST', url: '/api/upload', headers: admin.headers, payload: { testResults: smallReport(`outage ${uploads++}`) } });
    return { status: res.statusCode, error: (res.json() as { error?: string }).error, retryAfter: res.headers['retry-after'] };
  };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: admin.headers });
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, retryAfter: res.headers['retry-after'] };
  };
  const outageLines = () => logs.map((line) => JSON.parse(line) as { msg?: string; err?: unknown; level: number }).filter((e) => /the database is/.test(e.msg ?? ''));
  const runCount = () => store.sql.value<number>('SELECT count(*) FROM runs');

  it('stopped: an upload in flight, reads, writes and health answer 503 with Retry-After; health says so within a second; all is back after a start', async () => {
    expect((await upload()).status).toBe(200);
    expect((await get('/api/dashboard?days=7')).status).toBe(200);
    const stored = Number(await runCount());
    logs.length = 0;
    // An upload waits inside its transaction (another writer holds the rollup lock) when PostgreSQL stops.
    const other = new pg.Client({ connectionString: cluster.url });
    await other.connect();
    other.on('error', () => {});
    await other.query('BEGIN');
    await other.query(POSTGRES_LOCK_ROLLUPS);
    const inFlight = upload();
    expect(await within(5_000, async () => Number((await other.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)).rows[0].n) === 1)).toBe(true);
    await cluster.stop('fast');
    const stoppedAt = Date.now();
    try {
      expect(await inFlight).toEqual({ status: 503, error: WRITE, retryAfter: '5' });
      // The health probe's own connection was cut: said at once, well within a second.
      const health = await get('/api/health');
      expect(Date.now() - stoppedAt).toBeLessThan(1_000);
      expect(health).toEqual({
        status: 503,
        body: { status: 'unavailable', maxUploadBytes: expect.any(Number), database: { ok: false, engine: 'postgres', error: expect.any(String) }, evidence: { ok: true, kind: 'none' }, error: READ },
        retryAfter: '5',
      });
      expect(await upload()).toEqual({ status: 503, error: WRITE, retryAfter: '5' });
      // Reads on the server's pool (the session check, the list) and in the analytics worker.
      for (const url of ['/api/recent-uploads', '/api/dashboard?days=30', '/api/auth/me']) expect([url, await get(url)]).toEqual([url, { status: 503, body: { error: READ }, retryAfter: '5' }]);
    } finally {
      await cluster.start();
    }
    expect(await within(5_000, async () => (await get('/api/health')).status === 200)).toBe(true);
    expect((await get('/api/health')).body).toEqual({ status: 'ok', maxUploadBytes: expect.any(Number), database: { ok: true, engine: 'postgres' }, evidence: { ok: true, kind: 'none' } });
    expect(await within(5_000, async () => (await upload()).status === 200)).toBe(true);
    expect((await get('/api/dashboard?days=30')).status).toBe(200);
    // The upload cut off stored nothing: one more run, the one after.
    expect(await runCount()).toBe(stored + 1);
    await other.end().catch(() => {});
    // One line when it began, one when it ended (quiet for two seconds), no stack.
    expect(await within(6_000, async () => outageLines().some((e) => /available again/.test(e.msg ?? '')))).toBe(true);
    const lines = outageLines();
    expect(lines.map((e) => e.msg!.replace(/unavailable \(.*\):/, 'unavailable (…):').replace(/[\d.]+ s: \d+/, 'N s: M'))).toEqual([
      'the database is unavailable (…): answering 503 until it is back',
      'the database is available again after N s: M request(s) answered 503 meanwhile',
    ]);
    expect(logs.filter((line) => line.includes('"stack"'))).toEqual([]);
  });

  it('shutting down (57P03, new connections refused while a session lingers): 503, not 500', async () => {
    // A session that keeps a smart shutdown waiting, and ends the server's own sessions.
    const lingering = new pg.Client({ connectionString: cluster.url });
    await lingering.connect();
    lingering.on('error', () => {});
    try {
      await cluster.stop('smart');
      await lingering.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`);
      const refused = new pg.Client({ connectionString: cluster.url });
      const code = await refused.connect().then(
        () => 'connected',
        (error: { code?: string }) => error.code,
      );
      expect(code).toBe('57P03');
      expect(await upload()).toEqual({ status: 503, error: WRITE, retryAfter: '5' });
      for (const url of ['/api/recent-uploads', '/api/dashboard?days=90', '/api/flaky-tests']) expect([url, (await get(url)).status]).toEqual([url, 503]);
      expect(await within(1_000, async () => (await get('/api/health')).status === 503)).toBe(true);
    } finally {
      await lingering.end().catch(() => {});
      // The smart stop completes once the last session is gone.
      for (let i = 0; i < 50; i++) {
        const down = await new pg.Client({ connectionString: cluster.url }).connect().then(
          () => false,
          () => true,
        );
        if (down) break;
        await sleep(100);
      }
      await sleep(300);
      await cluster.start();
    }
    expect(await within(5_000, async () => (await upload()).status === 200)).toBe(true);
  });

  it("the backend serving a read ended (pg_terminate_backend): that read answers 503; the next is served", async () => {
    expect(await within(5_000, async () => (await get('/api/recent-uploads')).status === 200)).toBe(true);
    const locker = new pg.Client({ connectionString: cluster.url });
    await locker.connect();
    try {
      // The read waits for the table, on a backend that is then ended.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE runs IN ACCESS EXCLUSIVE MODE');
      const pending = get('/api/recent-uploads');
      let waiting: number[] = [];
      for (let i = 0; i < 100 && waiting.length === 0; i++) {
        await sleep(50);
        waiting = (await locker.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid);
      }
      expect(waiting.length).toBeGreaterThan(0);
      for (const pid of waiting) await locker.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await pending).toEqual({ status: 503, body: { error: READ }, retryAfter: '5' });
      await locker.query('COMMIT');
    } finally {
      await locker.end().catch(() => {});
    }
    expect((await get('/api/recent-uploads')).status).toBe(200);
  });

  it("the analytics worker's backend ended under a cold dashboard: 503 from the worker, not 500", async () => {
    // The worker is open; a new run makes the cached dashboards stale: the next is computed in it.
    expect(await within(5_000, async () => (await get('/api/dashboard?days=7')).status === 200)).toBe(true);
    expect(await within(5_000, async () => (await upload()).status === 200)).toBe(true);
    const locker = new pg.Client({ connectionString: cluster.url });
    await locker.connect();
    try {
      // Tables only the worker reads (the cache's version check reads runs, on the server's pool).
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE tests, results, attempts, daily_test_stats, daily_error_stats, error_samples, test_totals, browser_projects IN ACCESS EXCLUSIVE MODE');
      const pending = get('/api/dashboard?days=7');
      let waiting: number[] = [];
      for (let i = 0; i < 100 && waiting.length === 0; i++) {
        await sleep(50);
        waiting = (await locker.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid);
      }
      // The worker reads on two connections: under load both may be waiting already; end them all.
      expect(waiting.length).toBeGreaterThanOrEqual(1);
      for (const pid of waiting) await locker.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await pending).toEqual({ status: 503, body: { error: READ }, retryAfter: '5' });
      await locker.query('COMMIT');
    } finally {
      await locker.end().catch(() => {});
    }
    // Without a restart: a pooled connection the kill left dead answers its read 503 and is
    // replaced, so the worker serves again within moments (two workers of tests share the cores).
    expect(await within(5_000, async () => (await get('/api/dashboard?days=7')).status === 200)).toBe(true);
  });

  it('health answers at once while the pool is exhausted, and a read waits for it', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => store.pool.connect()));
    try {
      const reading = get('/api/recent-uploads');
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        expect((await get('/api/health')).status).toBe(200);
        times.push(performance.now() - started);
      }
      expect(Math.max(...times)).toBeLessThan(250);
      let answered = false;
      void reading.then(() => (answered = true));
      await sleep(100);
      expect(answered).toBe(false);
      held.forEach((client) => client.release());
      expect((await reading).status).toBe(200);
    } finally {
      for (const client of held) {
        try {
          client.release();
        } catch {
          // released above
        }
      }
    }
  });
});
