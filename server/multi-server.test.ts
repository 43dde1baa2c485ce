import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AiAnalysisRequest } from '../core/api/ai.js';
import { MODEL_FINDINGS, startChatServer } from '../fixtures/testing/ai.js';
import { PASSWORD, signIn, smallReport, TEST_SCRYPT, type Signed } from '../fixtures/testing/app.js';
import { createTestTarget, describeEachEngine, type TestTarget } from '../fixtures/testing/engines.js';
import { POSTGRES_URL, queryRows } from '../fixtures/testing/postgres.js';
import { buildApp } from './app.js';
import { hashPassword } from './auth/passwords.js';
import { openAnyStore } from './store/engine/open-any.js';
import type { PostgresStore, AnyStore } from './store/engine/types.js';
import { createUser, setRole } from './store/accounts/users.js';

/**
 * Two servers on one database: what a team behind a load balancer sees. Each server
 * is a whole app with its own store (its own pool, or SQLite connection) and its own memory, as
 * two `flakeboard serve` processes are; only the database is shared.
 */
describeEachEngine('two servers on one database', (engine) => {
  let target: TestTarget;
  const stores: AnyStore[] = [];
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    target = await createTestTarget(engine);
    // busy_timeout 0, as `serve` opens it: on one thread, two SQLite connections wait for each other asynchronously.
    for (let i = 0; i < 2; i++) stores.push(await openAnyStore(target.target, { busyTimeoutMs: 0, max: 4 }));
    const hash = await hashPassword(PASSWORD, TEST_SCRYPT);
    for (const [username, role] of [['admin', 'admin'], ['rita', 'reviewer'], ['max', 'member'], ['mia', 'member']] as const) {
      await createUser(stores[0]!, { username, passwordHash: hash, role });
    }
    // Started at the same moment on a database that has no XSRF secret yet, as two servers are.
    [a, b] = await Promise.all([buildApp({ store: stores[0]!, uiDir: null, scrypt: TEST_SCRYPT }), buildApp({ store: stores[1]!, uiDir: null, scrypt: TEST_SCRYPT })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const store of stores) await store.close();
    await target?.remove();
  });

  const login = (app: FastifyInstance, username: string, password: string, ip: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: ip });

  it('a sign-in on A works on B: the bearer token, and the XSRF cookie on a change', async () => {
    const onA = await signIn(a, 'admin');
    const me = await b.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${onA.token}` } });
    expect([me.statusCode, me.json()]).toEqual([200, { user: { id: expect.any(Number), username: 'admin', role: 'admin' } }]);
    // Both servers made or read one XSRF secret at start: B accepts the cookie A set, on a state-changing call.
    const unlock = await b.inject({ method: 'POST', url: '/api/users/max/unlock', headers: onA.headers });
    expect([unlock.statusCode, unlock.json()]).toEqual([200, { username: 'max', unlockedAddresses: 0 }]);
    const forged = await b.inject({ method: 'POST', url: '/api/users/max/unlock', headers: { ...onA.headers, 'x-xsrf-token': `${onA.xsrf.slice(0, -2)}xx` } });
    expect(forged.statusCode).toBe(403);
    // Logging out on B ends the session on A too.
    expect((await b.inject({ method: 'POST', url: '/api/auth/logout', headers: onA.headers })).statusCode).toBe(200);
    expect((await a.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${onA.token}` } })).statusCode).toBe(401);
  });

  it('a role change made elsewhere (the CLI, another server) ends the sessions on both servers', async () => {
    const onA = await signIn(a, 'mia');
    const onB = await signIn(b, 'mia');
    expect(await setRole(stores[1]!, 'mia', 'reviewer')).toBe(true);
    for (const [app, s] of [[a, onB], [b, onA]] as const) {
      expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${s.token}` } })).statusCode).toBe(401);
    }
  });

  it('failed sign-ins on A and B add up to one lockout of the address; an unlock on one lifts it on both', async () => {
    const ip = '10.20.0.1';
    const answers = [];
    for (const app of [a, b, a, b, a, b]) {
      const res = await login(app, 'max', 'wrong password', ip);
      answers.push([res.statusCode, res.json().attemptsRemaining]);
    }
    expect(answers).toEqual([
      [401, 4],
      [401, 3],
      [401, 2],
      [401, 1],
      [423, 0],
      [423, 0],
    ]);
    // Locked on both, even with the right password.
    expect((await login(a, 'max', PASSWORD, ip)).statusCode).toBe(423);
    expect((await login(b, 'max', PASSWORD, ip)).statusCode).toBe(423);
    const admin = await signIn(a, 'admin', PASSWORD);
    const unlock = await a.inject({ method: 'POST', url: '/api/users/max/unlock', headers: admin.headers });
    expect(unlock.json()).toEqual({ username: 'max', unlockedAddresses: 1 });
    expect((await login(b, 'max', PASSWORD, ip)).statusCode).toBe(200);
  });

  it('an unknown name answers as an account does across servers: the same sequence, locked on the fifth failure', async () => {
    const sequence = async (username: string, ip: string) => {
      const answers = [];
      for (const app of [a, b, a, b, a, b]) {
        const res = await login(app, username, 'wrong password', ip);
        answers.push([res.statusCode, res.json()]);
      }
      return answers;
    };
    const known = await sequence('admin', '10.20.1.1');
    expect(known.map(([code]) => code)).toEqual([401, 401, 401, 401, 423, 423]);
    expect(await sequence('Nobody-Here', '10.20.1.2')).toEqual(known);
    // The same name in another case is the same name, as for accounts.
    expect((await login(b, 'nobody-here', 'wrong password', '10.20.1.2')).statusCode).toBe(423);
    const names = await stores[0]!.sql.all<{ name_hash: string }>('SELECT name_hash FROM unknown_login_failures');
    expect(names.map((n) => n.name_hash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
  });

  it('failed sign-ins sent to both servers at once still lock after five', async () => {
    const ip = '10.20.0.2';
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => login(i % 2 === 0 ? a : b, 'rita', 'wrong password', ip)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([401, 401, 401, 401, 423, 423, 423, 423]);
    expect(answers.map((r) => r.json().attemptsRemaining).sort()).toEqual([0, 0, 0, 0, 1, 2, 3, 4]);
  });

  it('the sign-in rate limit counts the requests to both servers: the eleventh from one address is refused on either', async () => {
    const ip = '10.30.0.1';
    const codes = [];
    // Ten different unknown names: no lockout, only the address's rate.
    for (let i = 0; i < 10; i++) codes.push((await login(i % 2 === 0 ? a : b, `nobody${i}`, 'whatever1', ip)).statusCode);
    expect(codes).toEqual(Array(10).fill(401));
    for (const app of [a, b]) {
      const limited = await login(app, 'admin', PASSWORD, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toMatch(/^Too many sign-in attempts\. Try again in \d+ seconds\.$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another address is not affected.
    expect((await login(b, 'admin', PASSWORD, '10.30.0.2')).statusCode).toBe(200);
  });

  it('the AI rate limit (20 model analyses a minute per user) counts the requests to both servers', async () => {
    const chat = await startChatServer(() => ({ body: MODEL_FINDINGS }));
    // The route reads the model settings at each request, from the environment by default.
    const saved = { url: process.env.FLAKEBOARD_AI_BASE_URL, model: process.env.FLAKEBOARD_AI_MODEL };
    process.env.FLAKEBOARD_AI_BASE_URL = chat.baseUrl;
    process.env.FLAKEBOARD_AI_MODEL = 'test-model';
    try {
      const onA = await signIn(a, 'max');
      const onB = await signIn(b, 'max');
      const ask = (app: FastifyInstance, who: Signed) => app.inject({ method: 'POST', url: '/api/ai-analysis', headers: who.headers, payload: AI_REQUEST });
      const codes: number[] = [];
      for (let i = 0; i < 20; i++) codes.push((await (i % 2 === 0 ? ask(a, onA) : ask(b, onB))).statusCode);
      expect(codes.filter((c) => c === 429)).toEqual([]);
      for (const [app, who] of [[a, onA], [b, onB]] as const) {
        const limited = await ask(app, who);
        expect([limited.statusCode, limited.json().error]).toEqual([429, expect.stringMatching(/^Too many analysis requests\. Try again in \d+ seconds\.$/)]);
      }
      // Per user: another user is not limited, on either server.
      expect((await ask(b, await signIn(a, 'admin'))).statusCode).not.toBe(429);
    } finally {
      for (const [key, value] of [['FLAKEBOARD_AI_BASE_URL', saved.url], ['FLAKEBOARD_AI_MODEL', saved.model]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await chat.close();
    }
  });

  it('an upload on A, approved on A, shows on B at once: pending list, review state and dashboard', async () => {
    const max = await signIn(a, 'max');
    const rita = await signIn(a, 'rita');
    const onB = await signIn(b, 'max');
    const get = async (app: FastifyInstance, url: string) => (await app.inject({ method: 'GET', url, headers: onB.headers })).json();
    const runsOnB = async () => (await get(b, '/api/dashboard?days=0')).summary[0].total_runs as number;
    const pendingOnB = async () => ((await get(b, '/api/uploads/pending')).uploads as { id: number }[]).map((u) => u.id);
    const before = await runsOnB();

    const stored = await a.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: smallReport('shared across servers'), metadata: { fileName: 'results.json' } } });
    expect(stored.statusCode).toBe(200);
    const runId = stored.json().runId as number;
    const second = await a.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: smallReport('rejected later'), metadata: { fileName: 'results.json' } } });
    const rejectId = second.json().runId as number;
    expect(await within(1000, async () => (await pendingOnB()).includes(runId) && (await runsOnB()) === before + 2)).toBe(true);

    const approve = await a.inject({ method: 'PATCH', url: `/api/uploads/${runId}/review`, headers: rita.headers, payload: { action: 'approve' } });
    expect(approve.json()).toMatchObject({ success: true, upload: { id: runId, status: 'approved' } });
    const reject = await a.inject({ method: 'PATCH', url: `/api/uploads/${rejectId}/review`, headers: rita.headers, payload: { action: 'reject' } });
    expect(reject.json()).toMatchObject({ success: true, upload: { id: rejectId, status: 'rejected' } });
    // Within a second on B: out of the pending list, approved in its detail, and the rejected run out of the dashboard.
    const seen = await within(1000, async () => {
      const pending = await pendingOnB();
      const detail = await get(b, `/api/uploads/${runId}`);
      return !pending.includes(runId) && !pending.includes(rejectId) && detail.upload.status === 'approved' && (await runsOnB()) === before + 1;
    });
    expect(seen).toBe(true);
  });

  if (engine === 'postgres') {
    it('health answers 503 while the database refuses connections, so a balancer moves on, and 200 once it is back', async () => {
      const name = new URL(target.target).pathname.slice(1);
      expect((await a.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await queryRows(POSTGRES_URL, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      try {
        await queryRows(POSTGRES_URL, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
        // Health's own connection was cut too: said within a second, then on every call until it is back.
        const down = { status: 'unavailable', maxUploadBytes: expect.any(Number), database: { ok: false, engine: 'postgres', error: expect.any(String) }, evidence: { ok: true, kind: 'none' }, error: 'The database cannot be reached right now; try again in a few seconds.' };
        expect(await within(1000, async () => (await a.inject({ method: 'GET', url: '/api/health' })).statusCode === 503)).toBe(true);
        for (let i = 0; i < 3; i++) {
          const res = await a.inject({ method: 'GET', url: '/api/health' });
          expect([res.statusCode, res.json(), res.headers['retry-after']]).toEqual([503, down, '5']);
        }
      } finally {
        await queryRows(POSTGRES_URL, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      }
      expect(await within(5000, async () => (await a.inject({ method: 'GET', url: '/api/health' })).statusCode === 200)).toBe(true);
      expect((await b.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });

    it('a connection the database drops while a server holds it does not end the server', async () => {
      const pool = (stores[0] as PostgresStore).pool;
      const held = await pool.connect();
      const ended = new Promise((resolve) => held.once('end', resolve));
      const [{ pid }] = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
      // Without a listener on the held client, its 'error' would be an uncaught exception here.
      await queryRows(POSTGRES_URL, 'SELECT pg_terminate_backend($1)', [pid]);
      await ended;
      held.release(true);
      expect((await a.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });
  }
});

const AI_REQUEST: AiAnalysisRequest = {
  testSummary: { testTitle: 'adds to cart', browser: 'chromium', passRate: 0.5, totalRuns: 2, failedRuns: 1 },
  recentResults: [
    { status: 'failed', duration: 10_100, errorMessage: 'TimeoutError: locator.click: Timeout 10000ms exceeded.', runDate: '2026-11-20T10:00:00Z' },
    { status: 'passed', duration: 800, runDate: '2026-11-19T10:00:00Z' },
  ],
};

/** Asks `check` until it holds or `ms` have passed; whether it held. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
