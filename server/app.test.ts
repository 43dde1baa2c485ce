import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSqliteTestApp, buildTestApp, signIn, smallReport, type TestApp } from '../fixtures/testing/app.js';
import { TEST_ENGINE } from '../fixtures/testing/store.js';
import Fastify from 'fastify';
import { DEFAULT_BODY_LIMIT, JSON_SCHEMA_COMPILERS } from './app.js';
import { makeTempDir } from '../fixtures/testing/temp.js';

let t: TestApp;
afterEach(() => t?.close());

// Every protected call, with the least role that may make it.
const ROUTES: Array<{ method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; role: 'member' | 'reviewer' | 'admin'; payload?: unknown }> = [
  { method: 'GET', url: '/api/auth/me', role: 'member' },
  { method: 'POST', url: '/api/auth/logout', role: 'member' },
  { method: 'GET', url: '/api/uploads/pending', role: 'member' },
  { method: 'GET', url: '/api/recent-uploads', role: 'member' },
  { method: 'GET', url: '/api/uploads/1', role: 'member' },
  { method: 'POST', url: '/api/upload', role: 'member', payload: { testResults: smallReport('roles') } },
  { method: 'PATCH', url: '/api/uploads/1/review', role: 'reviewer', payload: { action: 'reject' } },
  { method: 'POST', url: '/api/uploads/bulk-review', role: 'reviewer', payload: { uploads: [{ id: 1, action: 'reject' }] } },
  { method: 'DELETE', url: '/api/test-run/1', role: 'reviewer' },
  { method: 'DELETE', url: '/api/clear-all', role: 'admin' },
  { method: 'POST', url: '/api/check', role: 'member', payload: { tests: [], counts: { tests: 0, failed: 0, flaky: 0, skipped: 0 }, days: 30 } },
  { method: 'GET', url: '/api/quarantine', role: 'member' },
  { method: 'POST', url: '/api/quarantine', role: 'reviewer', payload: { title: 'roles', reason: 'why' } },
  { method: 'DELETE', url: '/api/quarantine/1', role: 'reviewer' },
  { method: 'GET', url: '/api/audit', role: 'admin' },
  { method: 'GET', url: '/api/settings', role: 'reviewer' },
  { method: 'PUT', url: '/api/settings', role: 'admin', payload: { secondPersonApproval: false } },
];
const RANK = { member: 1, reviewer: 2, admin: 3 };

describe('authentication and roles on every protected call', () => {
  it('401 with no token or a forged one', async () => {
    t = await buildTestApp();
    for (const route of ROUTES) {
      for (const headers of [{}, { authorization: 'Bearer not-a-real-token' }, { authorization: 'Basic YWRtaW46eA==' }]) {
        const res = await t.app.inject({ method: route.method, url: route.url, headers, ...(route.payload ? { payload: route.payload as object } : {}) });
        expect([route.url, res.statusCode, res.json()]).toEqual([route.url, 401, { error: 'Authentication required' }]);
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok', maxUploadBytes: DEFAULT_BODY_LIMIT, database: { ok: true, engine: TEST_ENGINE }, evidence: { ok: true, kind: 'none' } });
  });

  it('401 with an expired or a logged-out session token', async () => {
    let clock = Date.now();
    t = await buildTestApp({ now: () => clock, sessionIdleMs: 60_000 });
    const expired = await signIn(t.app, 'admin');
    const loggedOut = await signIn(t.app, 'admin');
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...loggedOut.headers, 'x-session-token': loggedOut.sessionToken } });
    clock += 61_000;
    for (const route of ROUTES) {
      for (const who of [expired, loggedOut]) {
        const res = await t.app.inject({ method: route.method, url: route.url, headers: who.headers, ...(route.payload ? { payload: route.payload as object } : {}) });
        expect([route.url, res.statusCode]).toEqual([route.url, 401]);
      }
    }
  });

  for (const role of ['member', 'reviewer', 'admin'] as const) {
    it(`${role === "admin" ? "an" : "a"} ${role} may make exactly the calls of its role`, async () => {
      t = await buildTestApp();
      const user = await signIn(t.app, { member: 'max', reviewer: 'rita', admin: 'admin' }[role]);
      // A pending upload for the calls that need one, by another user.
      const other = await signIn(t.app, 'admin');
      await t.app.inject({ method: 'POST', url: '/api/upload', headers: other.headers, payload: { testResults: smallReport('target') } });
      for (const route of ROUTES.filter((r) => r.url !== '/api/auth/logout')) {
        const res = await t.app.inject({ method: route.method, url: route.url, headers: user.headers, ...(route.payload ? { payload: route.payload as object } : {}) });
        if (RANK[role] >= RANK[route.role]) expect([route.url, res.statusCode]).toEqual([route.url, expect.toSatisfy((c: number) => c < 400 || c === 404 || c === 409)]);
        else expect([route.url, res.statusCode, res.json().error]).toEqual([route.url, 403, `This action needs the ${route.role} role; you are signed in as a ${role}`]);
      }
    });
  }

  it('state-changing session calls need the session XSRF token: missing, wrong or another session’s is refused', async () => {
    t = await buildTestApp();
    const rita = await signIn(t.app, 'rita');
    const other = await signIn(t.app, 'rita');
    for (const route of ROUTES.filter((r) => r.method !== 'GET')) {
      for (const xsrf of [undefined, 'wrong', other.xsrf]) {
        const headers: Record<string, string> = { authorization: `Bearer ${rita.token}`, ...(xsrf ? { 'x-xsrf-token': xsrf } : {}) };
        const res = await t.app.inject({ method: route.method, url: route.url, headers, ...(route.payload ? { payload: route.payload as object } : {}) });
        if (route.role === 'admin') expect(res.statusCode).toBe(403);
        else expect([route.url, res.statusCode, res.json().error]).toEqual([route.url, 403, 'Missing or invalid XSRF token: reload the page and try again']);
      }
    }
  });
});

describe('a database that cannot be written', () => {
  // SQLite only: the test makes the database read-only with SQLite's per-connection query_only
  // PRAGMA; PostgreSQL has no such switch on a live pool's connections.
  it.skipIf(TEST_ENGINE === 'postgres')('answers 503 for writes, stores nothing, and still serves reads', async () => {
    // query_only is set on this connection: the writer must use it, not a worker's own.
    const sqliteApp = await buildSqliteTestApp({ writerWorker: false });
    t = sqliteApp;
    const max = await signIn(t.app, 'max');
    sqliteApp.store.sqlite.pragma('query_only = ON');
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: smallReport('ro') } });
    expect([res.statusCode, res.json().error]).toEqual([503, 'The database cannot be written right now (it is read-only): nothing was stored; try again later.']);
    expect(res.headers['retry-after']).toBe('5');
    expect((await t.app.inject({ method: 'GET', url: '/api/recent-uploads', headers: max.headers })).statusCode).toBe(200);
    sqliteApp.store.sqlite.pragma('query_only = OFF');
    expect(sqliteApp.store.sqlite.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 0 });
  });
});

describe('serving', () => {
  it('security headers on API answers and a Host check on loopback', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("object-src 'none'");
    expect(res.headers['content-security-policy']).toContain("base-uri 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    for (const host of ['localhost:4680', '127.0.0.1:4680', '[::1]:4680']) {
      expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host } })).statusCode).toBe(200);
    }
    const rebound = await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: 'evil.example:4680' } });
    expect(rebound.statusCode).toBe(421);
    expect(rebound.json().error).toMatch(/not allowed/);
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: '127.0.0.1.evil.example:4680' } })).statusCode).toBe(421);
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: '127.1.2.3:4680' } })).statusCode).toBe(200);
  });

  it('bound to all interfaces, any Host is served', async () => {
    t = await buildTestApp({ host: '0.0.0.0' });
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: 'flakeboard.team.example' } })).statusCode).toBe(200);
  });

  it('serves the UI from its folder only; /api/* never falls through to index.html', async () => {
    const temp = makeTempDir('flakeboard-ui-');
    const uiDir = join(temp.dir, 'ui');
    mkdirSync(join(uiDir, 'assets'), { recursive: true });
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>flakeboard</title>');
    writeFileSync(join(uiDir, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(join(temp.dir, 'secret.txt'), 'TOP-SECRET-CONTENT');
    t = await buildTestApp({ uiDir });
    const index = await t.app.inject({ method: 'GET', url: '/' });
    expect([index.statusCode, index.headers['content-type'], index.headers['cache-control']]).toEqual([200, 'text/html; charset=utf-8', 'no-cache']);
    expect((await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' })).headers['cache-control']).toContain('immutable');
    const api = await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: { authorization: `Bearer ${(await signIn(t.app, 'max')).token}` } });
    expect([api.statusCode, api.headers['content-type'], api.json()]).toEqual([404, 'application/json; charset=utf-8', { error: 'No such endpoint: GET /api/nothing-here' }]);
    for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/../../secret.txt', '/..%2fsecret.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, expect.toSatisfy((c: number) => c === 404 || c === 403 || c === 400)]);
      expect(res.body).not.toContain('TOP-SECRET-CONTENT');
    }
    temp.cleanup();
  });
});

describe('routes described in JSON Schema', () => {
  it('are still validated and serialised by Fastify\'s own compilers, loaded on first use', async () => {
    const app = Fastify({ schemaController: { compilersFactory: JSON_SCHEMA_COMPILERS } });
    app.post(
      '/echo',
      { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } },
      async (request) => ({ ...(request.body as object), secret: 'not in the schema' }),
    );
    try {
      expect((await app.inject({ method: 'POST', url: '/echo', payload: { n: 'x' } })).statusCode).toBe(400);
      const answer = await app.inject({ method: 'POST', url: '/echo', payload: { n: 3 } });
      expect(answer.statusCode).toBe(200);
      // fast-json-stringify writes only what the response schema names.
      expect(answer.body).toBe('{"n":3}');
    } finally {
      await app.close();
    }
  });
});
