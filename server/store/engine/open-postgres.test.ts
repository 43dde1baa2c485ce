import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, HAS_POSTGRES, POSTGRES_SKIP, type TestDatabase } from '../../../fixtures/testing/postgres.js';
import { openPostgres } from './open-postgres.js';

if (!HAS_POSTGRES) console.log(POSTGRES_SKIP);

/**
 * A TCP proxy to PostgreSQL that passes every byte at once but holds the server's close back
 * for `closeDelayMs`: a backend that sent its FATAL error and takes its time to exit, as one
 * does on a busy server.
 */
async function slowCloseProxy(target: URL, closeDelayMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => upstream.writable && upstream.write(chunk));
    upstream.on('data', (chunk) => client.writable && client.write(chunk));
    upstream.on('end', () => setTimeout(() => client.end(), closeDelayMs));
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(!HAS_POSTGRES)('the PostgreSQL pool', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('drops a connection the server ended (pg_terminate_backend) even before its socket closes: the next query is served', async () => {
    const proxy = await slowCloseProxy(new URL(database.url), 1_500);
    // One connection, taken and given back by Kysely as every read of the store does.
    const store = await openPostgres(proxy.url, { max: 1 });
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE runs IN ACCESS EXCLUSIVE MODE');
      const pending = store.sql.value('SELECT count(*) FROM runs').then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      );
      let waiting: number[] = [];
      for (let i = 0; i < 200 && waiting.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        waiting = (await locker.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid);
      }
      expect(waiting).toHaveLength(1);
      await locker.query('SELECT pg_terminate_backend($1)', [waiting[0]]);
      // The query in flight fails with the server's reason: terminating connection (57P01).
      expect(await pending).toBe('57P01');
      await locker.query('COMMIT');
      // Well before the proxy lets the old socket close: the pool must not hand that connection out again.
      const started = Date.now();
      expect(await store.sql.value('SELECT 1')).toBe(1);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await locker.end().catch(() => {});
      await store.close().catch(() => {});
      await proxy.close();
    }
  });
});
