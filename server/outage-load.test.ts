import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signIn, TEST_SCRYPT, type Signed } from '../fixtures/testing/app.js';
import { CLUSTER_SKIP, HAS_CLUSTER, startCluster, type Cluster } from '../fixtures/testing/postgres-cluster.js';
import { buildApp } from './app.js';
import { hashPassword } from './auth/passwords.js';
import { openPostgres } from './store/engine/open-postgres.js';
import type { PostgresStore } from './store/engine/types.js';
import { createUser } from './store/accounts/users.js';

function onCluster(name: string, body: () => void): void {
  if (HAS_CLUSTER) describe(name, body);
  else describe.skip(`${name}: ${CLUSTER_SKIP}`, body);
}

const UPLOADS = 40;
const READERS = 20;
const TESTS_PER_RUN = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A report of TESTS_PER_RUN tests in two projects, unique to `n`: a run stored half would show as fewer results. */
function report(n: number) {
  const startTime = new Date(Date.UTC(2026, 10, 20, 10, n)).toISOString();
  const specs = Array.from({ length: TESTS_PER_RUN }, (_, i) => ({
    title: `upload ${n} test ${i}`,
    file: 'load.spec.ts',
    line: 3 + i,
    column: 5,
    tests: ['chromium', 'firefox'].map((projectName) => ({
      projectName,
      expectedStatus: 'passed',
      status: i % 7 === 0 ? 'unexpected' : 'expected',
      results: [{ status: i % 7 === 0 ? 'failed' : 'passed', retry: 0, duration: 100 + i, startTime, ...(i % 7 === 0 ? { error: { message: `Error: expected ${i}` } } : {}) }],
    })),
  }));
  const failed = specs.filter((_, i) => i % 7 === 0).length * 2;
  return {
    config: { version: '1.50.0', projects: [{ name: 'chromium' }, { name: 'firefox' }] },
    suites: [{ title: 'load.spec.ts', file: 'load.spec.ts', specs }],
    errors: [],
    stats: { startTime, duration: 5000, expected: TESTS_PER_RUN * 2 - failed, unexpected: failed, flaky: 0, skipped: 0 },
  };
}

/**
 * What a team behind a load balancer sees when its PostgreSQL restarts in the middle of a busy
 * hour: two whole servers (each its own pool, writer and analytics worker, as two `serve`
 * processes) over real HTTP, 40 distinct uploads sent by clients that retry 503 as `upload` and
 * the reporter do, 20 readers polling the screens and the health probe. Every answer is 200 or
 * 503 with Retry-After (never a 500), every upload is stored exactly once and whole, and
 * uploads are taken again within seconds of the start.
 */
onCluster('two servers on PostgreSQL under load while it restarts', () => {
  let cluster: Cluster;
  const stores: PostgresStore[] = [];
  const apps: FastifyInstance[] = [];
  const bases: string[] = [];
  let admin: Signed;

  beforeAll(async () => {
    cluster = await startCluster();
    for (let i = 0; i < 2; i++) stores.push(await openPostgres(cluster.url, { max: 4, connectTimeoutMs: 2_000 }));
    await createUser(stores[0]!, { username: 'admin', passwordHash: await hashPassword(PASSWORD, TEST_SCRYPT), role: 'admin' });
    for (const store of stores) {
      const app = await buildApp({ store, uiDir: null, scrypt: TEST_SCRYPT, logger: false });
      await app.listen({ host: '127.0.0.1', port: 0 });
      apps.push(app);
      bases.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    }
    admin = await signIn(apps[0]!, 'admin');
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await cluster?.remove();
  });

  it('answers 503 (never 500), loses nothing, stores nothing half, and takes uploads again within seconds', async () => {
    const statuses = new Map<string, number>();
    const unexpected: string[] = [];
    const seen = (what: string, res: Response) => {
      const key = `${what} ${res.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (res.status === 503 && !res.headers.get('retry-after')) unexpected.push(`${what}: 503 without Retry-After`);
      else if (res.status !== 200 && res.status !== 503) unexpected.push(`${what}: ${res.status}`);
    };
    let stored = 0;
    let restarted: number | null = null;
    const storedAfterRestart: number[] = [];

    const send = async (n: number) => {
      const body = JSON.stringify({ testResults: report(n) });
      const deadline = Date.now() + 90_000;
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        // A load balancer's round robin: each try may land on the other server.
        const res = await fetch(`${bases[(n + attempt) % 2]}/api/upload`, { method: 'POST', headers: { ...admin.headers, 'content-type': 'application/json' }, body });
        seen('upload', res);
        await res.arrayBuffer();
        if (res.status === 200) {
          stored++;
          if (restarted !== null) storedAfterRestart.push(Date.now() - restarted);
          return;
        }
        if (res.status !== 503) return;
        await sleep(250);
      }
      unexpected.push(`upload ${n}: not stored within 90 s`);
    };

    let sending = true;
    const read = async (r: number) => {
      const urls = ['/api/dashboard?days=7', '/api/recent-uploads', '/api/flaky-tests', '/api/health', '/api/auth/me'];
      for (let i = 0; sending; i++) {
        const url = urls[(r + i) % urls.length]!;
        const res = await fetch(`${bases[(r + i) % 2]}${url}`, { headers: admin.headers }).catch((error: Error) => {
          unexpected.push(`GET ${url}: ${error.message}`);
          return null;
        });
        if (res) {
          seen(`GET ${url.replace(/\?.*/, '')}`, res);
          await res.arrayBuffer();
        }
        await sleep(20);
      }
    };

    // The restart, once a quarter of the uploads are in: a fast stop ends every session, in
    // the middle of transactions, and the start comes a second later.
    const restart = (async () => {
      while (stored < UPLOADS / 4) await sleep(20);
      await cluster.stop('fast');
      await sleep(1_000);
      await cluster.start();
      restarted = Date.now();
    })();

    const readers = Array.from({ length: READERS }, (_, r) => read(r));
    // Eight senders at a time, as several CI jobs finishing together.
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < UPLOADS) await send(next++);
      }),
    );
    await restart;
    sending = false;
    await Promise.all(readers);

    expect(unexpected).toEqual([]);
    // The restart was seen: both kinds of answer came while it lasted.
    expect([...statuses.keys()].some((key) => key.endsWith(' 503'))).toBe(true);
    expect([...statuses.keys()].filter((key) => key.endsWith(' 500'))).toEqual([]);
    expect(storedAfterRestart.length).toBeGreaterThan(0);
    // Taken again within seconds of the start (the clients retry every 250 ms).
    expect(Math.min(...storedAfterRestart)).toBeLessThan(10_000);

    // Exactly one run per upload, each whole: its results and its attempts. An upload whose
    // answer was lost after it committed (the connection cut at that moment) is sent again by
    // its client: the second copy is kept as a duplicate of the first, never a second run.
    const runs = await stores[0]!.sql.all<{ id: number; results: number; attempts: number }>(
      `SELECT runs.id, (SELECT count(*) FROM results WHERE results.run_id = runs.id) AS results,
        (SELECT count(*) FROM attempts JOIN results ON results.id = attempts.result_id WHERE results.run_id = runs.id) AS attempts
       FROM runs WHERE is_duplicate = 0 ORDER BY runs.id`,
    );
    expect(runs).toHaveLength(UPLOADS);
    const strays = await stores[0]!.sql.all(`SELECT id FROM runs WHERE is_duplicate = 1 AND (duplicate_of IS NULL OR duplicate_of NOT IN (SELECT id FROM runs WHERE is_duplicate = 0))`);
    expect(strays).toEqual([]);
    expect(runs.filter((run) => Number(run.results) !== TESTS_PER_RUN * 2 || Number(run.attempts) !== TESTS_PER_RUN * 2)).toEqual([]);
    expect(Number(await stores[0]!.sql.value('SELECT count(DISTINCT title) FROM tests'))).toBe(UPLOADS * TESTS_PER_RUN);
    // Both servers answer again, health first.
    for (const base of bases) expect((await fetch(`${base}/api/health`)).status).toBe(200);
  }, 240_000);
});
