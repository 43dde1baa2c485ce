import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { checkRequest, gateAnswer } from '../../core/api/schemas/gate.js';
import type { GateAnswer, GateTest } from '../../core/gate/types.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { gateReport, type Outcome } from '../../fixtures/testing/gate-reports.js';
import { queryKey } from '../analytics/runner.js';
import { SMALL_BODY_LIMIT } from '../app.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../auth/tokens.js';
import { createApiToken, type TokenScope } from '../store/accounts/api-tokens.js';

let t: TestApp;
let admin: Signed;
let member: Signed;
beforeEach(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app, 'admin');
  member = await signIn(t.app, 'max');
});
afterEach(() => t.close());

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();

async function upload(who: Signed, outcomes: Record<string, Outcome>, started: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: who.headers, payload: { testResults: gateReport(outcomes, started), metadata: { gitBranch: 'main', gitCommit: 'abc', fileName: 'main.json' } } });
  expect(res.statusCode, res.body).toBe(200);
}

const check = (who: Signed, body: unknown) => t.app.inject({ method: 'POST', url: '/api/check', headers: who.headers, payload: body as object });
const failing = { title: 'coupon', titlePath: ['coupon'], file: 'checkout.spec.ts', project: 'chromium', browser: 'chromium', passedOnRetry: false };

describe('POST /api/check', () => {
  it('a pending upload never vouches for a failure, whoever sent it; a kept one does', async () => {
    // A member fakes main's history in which the failure already happens.
    await upload(member, { coupon: 'failed', total: 'passed' }, day(2));
    await upload(member, { coupon: 'failed', total: 'passed' }, day(1));
    const body = { tests: [failing], counts: { tests: 2, failed: 1, flaky: 0, skipped: 0 }, base: 'main', days: 30 };
    let answer = (await check(member, body)).json() as GateAnswer;
    expect(answer).toMatchObject({ verdict: 'fail', baseRuns: 0, failures: [{ class: 'new' }] });

    // Kept by a reviewer, the same runs are evidence.
    for (const id of [1, 2]) expect((await t.app.inject({ method: 'PATCH', url: `/api/uploads/${id}/review`, headers: admin.headers, payload: { action: 'approve' } })).statusCode).toBe(200);
    answer = (await check(member, body)).json() as GateAnswer;
    expect(answer).toMatchObject({ verdict: 'pass', baseRuns: 2, failures: [{ class: 'broken-on-base' }] });
  });

  it('the CI secret cannot forge the base branch: an admin’s token’s pending uploads are no evidence; one made to approve keeps its runs', async () => {
    const failingOther = { ...failing, title: 'refund', titlePath: ['refund'] };
    const body = { tests: [failingOther], counts: { tests: 2, failed: 1, flaky: 0, skipped: 0 }, base: 'main', days: 30 };
    const tokenOf = async (name: string, scopes: TokenScope[]) => {
      const token = newToken(API_TOKEN_PREFIX);
      await createApiToken(t.store, { name, tokenHash: hashToken(token), userId: 1, scopes });
      return { authorization: `Bearer ${token}` };
    };
    const send = async (headers: Record<string, string>, days: number) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers, payload: { testResults: gateReport({ refund: 'failed', total: 'passed' }, day(days)), metadata: { gitBranch: 'main', gitCommit: `f${days}` } } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { status: string };
    };
    // Three forged runs through a token of the first admin, as `token create` makes by default.
    const ci = await tokenOf('ci', ['upload', 'read']);
    for (const d of [3, 2, 1]) expect((await send(ci, d)).status).toBe('pending');
    let answer = (await check(member, body)).json() as GateAnswer;
    expect(answer).toMatchObject({ verdict: 'fail', baseRuns: 0, failures: [{ class: 'new' }] });

    // A token the admin made to approve keeps its runs, and they count.
    const trusted = await tokenOf('main-ci', ['upload', 'approve']);
    for (const d of [6, 5, 4]) expect((await send(trusted, d)).status).toBe('approved');
    answer = (await check(member, body)).json() as GateAnswer;
    expect(answer).toMatchObject({ verdict: 'pass', baseRuns: 3, failures: [{ class: 'broken-on-base' }] });
  });

  it('an API token does only what its scopes say', async () => {
    const tokenOf = async (name: string, scopes: TokenScope[]) => {
      const token = newToken(API_TOKEN_PREFIX);
      await createApiToken(t.store, { name, tokenHash: hashToken(token), userId: 1, scopes });
      return { authorization: `Bearer ${token}` };
    };
    const uploadOnly = await tokenOf('up', ['upload']);
    const readOnly = await tokenOf('read', ['read']);
    const body = { tests: [failing], counts: { tests: 2, failed: 1, flaky: 0, skipped: 0 }, base: 'main', days: 30 };
    const refusedCheck = await t.app.inject({ method: 'POST', url: '/api/check', headers: uploadOnly, payload: body });
    expect(refusedCheck.statusCode).toBe(403);
    expect(refusedCheck.json().error).toBe('This API token may upload, not read: create one with `flakeboard token create NAME --scope upload,read`');
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: uploadOnly })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/check', headers: readOnly, payload: body })).statusCode).toBe(200);
    const refusedUpload = await t.app.inject({ method: 'POST', url: '/api/upload', headers: readOnly, payload: { testResults: gateReport({ a: 'passed' }, day(0)) } });
    expect(refusedUpload.statusCode).toBe(403);
    expect(await t.store.sql.value<number>('SELECT count(*) AS n FROM runs')).toBe(0);
    // Approving is never a route a token may call, whatever its scopes.
    const approver = await tokenOf('approver', ['upload', 'read', 'approve']);
    expect((await t.app.inject({ method: 'POST', url: '/api/uploads/bulk-review', headers: approver, payload: { uploads: [] } })).statusCode).toBe(403);
  });

  it('refuses a body past the small limit before parsing it', async () => {
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/check',
      headers: { ...member.headers, 'content-type': 'application/json' },
      payload: `{"tests":[${'"x",'.repeat(SMALL_BODY_LIMIT / 4)}"x"]}`,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'The request body is larger than the limit of 2 MB' });
  });

  it('keys its cache by a digest, so what callers send does not become the cache’s memory', () => {
    const args = { tests: Array.from({ length: 2000 }, (_, i) => ({ ...failing, title: `t${i}` })), now: 1 };
    const key = queryKey('gate', args);
    expect(key).toMatch(/^gate#[0-9a-f]{64}$/);
    expect(queryKey('gate', { ...args, now: 2 })).toBe(key);
    expect(queryKey('dashboard', { days: 7, now: 1 })).toBe('dashboard{"days":7}');
  });
});

describe('small bodies everywhere but uploads', () => {
  it('a 3 MB sign-in is refused with 413 unread, while an upload takes a report-sized body', async () => {
    const big = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: 'max', password: 'x', pad: 'p'.repeat(3 * 1024 * 1024) }) });
    expect(big.statusCode).toBe(413);
    const report = gateReport(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`test ${i} ${'x'.repeat(1000)}`, 'passed' as Outcome])), day(0));
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: member.headers, payload: { testResults: report } });
    expect(JSON.stringify(report).length).toBeGreaterThan(SMALL_BODY_LIMIT);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('an upload whose fileSize is past 2^53 is a 400 that names it, not a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: member.headers, payload: { testResults: gateReport({ a: 'passed' }, day(0)), metadata: { fileSize: 1e308 } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/fileSize/);
  });
});

describe('the schemas of POST /api/check', () => {
  it('describe the same shapes as the gate\'s contract (core/gate/types.ts), which the CLI compiles against', () => {
    expectTypeOf<z.infer<typeof gateAnswer>>().toEqualTypeOf<GateAnswer>();
    expectTypeOf<z.infer<typeof checkRequest>['tests'][number]>().toEqualTypeOf<GateTest>();
  });
});
