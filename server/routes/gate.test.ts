import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GateAnswer } from '../../core/gate/types.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { gateReport, type Outcome } from '../../fixtures/testing/gate-reports.js';
import { queryKey } from '../analytics/runner.js';
import { SMALL_BODY_LIMIT } from '../app.js';

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
  it('a member’s pending upload never vouches for a failure; a reviewer’s or a kept one does', async () => {
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
