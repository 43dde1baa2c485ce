import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '../../core/api/audit.js';
import { buildTestApp, PASSWORD, signIn, smallReport, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../auth/tokens.js';
import { createApiToken } from '../store/accounts/api-tokens.js';

let t: TestApp;
let admin: Signed;
let rita: Signed;
let max: Signed;
beforeEach(async () => {
  t = await buildTestApp();
  [admin, rita, max] = await Promise.all([signIn(t.app, 'admin'), signIn(t.app, 'rita'), signIn(t.app, 'max')]);
});
afterEach(() => t.close());

/** The audit trail as an admin reads it, newest first. */
async function audit(query = ''): Promise<AuditPage> {
  const res = await t.app.inject({ method: 'GET', url: `/api/audit${query}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AuditPage;
}
const latest = async (action: string): Promise<AuditEntry> => {
  const page = await audit(`?action=${encodeURIComponent(action)}`);
  expect(page.items.length, `no ${action} entry`).toBeGreaterThan(0);
  return page.items[0]!;
};

const upload = async (who: Signed, title: string): Promise<number> => {
  const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: who.headers, payload: { testResults: smallReport(title), metadata: { fileName: 'results.json', gitBranch: 'main', gitCommit: 'abcdef1234567890' } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().runId as number;
};
const review = (who: Signed, id: number, action: 'approve' | 'reject') => t.app.inject({ method: 'PATCH', url: `/api/uploads/${id}/review`, headers: who.headers, payload: { action } });
const setSecondPerson = (who: Signed, on: boolean) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: who.headers, payload: { secondPersonApproval: on } });

describe('the audit trail of sign-ins', () => {
  it('records sign-ins with the user and the address, and sign-outs', async () => {
    const signInEntry = (await audit('?action=session.sign-in&actor=max')).items[0]!;
    expect(signInEntry).toMatchObject({ actor: { kind: 'user', name: 'max' }, source: '127.0.0.1', target: { type: 'user', label: 'max' } });
    expect(Date.now() - Date.parse(signInEntry.at)).toBeLessThan(60_000);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: max.headers })).statusCode).toBe(200);
    expect(await latest('session.sign-out')).toMatchObject({ actor: { kind: 'user', name: 'max' }, target: { type: 'user', label: 'max' } });
  });

  it('records failures without the tried password, and a name no account has only as a hash', async () => {
    const tried = 'hunter2-the-wrong-one';
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'rita', password: tried } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'MyPassw0rd!', password: tried } })).statusCode).toBe(401);
    const failures = (await audit('?action=session.sign-in-failed')).items;
    expect(failures).toHaveLength(2);
    expect(failures[1]).toMatchObject({ actor: { kind: 'user', name: 'rita' }, detail: { reason: 'wrong password' }, source: '127.0.0.1' });
    expect(failures[0]).toMatchObject({ actor: { kind: 'user', id: null, name: null }, target: null, detail: { reason: 'unknown user', nameSha256: createHash('sha256').update('MyPassw0rd!').digest('hex').slice(0, 16) } });
    const everything = JSON.stringify(await t.store.sql.all('SELECT * FROM audit_log'));
    expect(everything).not.toContain(tried);
    expect(everything).not.toContain('MyPassw0rd!');
    expect(everything).not.toContain(PASSWORD);
  });
});

describe('the audit trail of runs', () => {
  it('answers who deleted a run, with what the run was', async () => {
    const id = await upload(max, 'to be deleted');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/test-run/${id}`, headers: rita.headers })).statusCode).toBe(200);
    const trail = (await audit(`?target=run:${id}`)).items;
    expect(trail.map((e) => [e.action, e.actor.name])).toEqual([
      ['run.delete', 'rita'],
      ['run.upload', 'max'],
    ]);
    expect(trail[0]).toMatchObject({ target: { type: 'run', id: String(id), label: 'results.json on main at abcdef123456' }, detail: { status: 'pending', uploadedBy: 'max', branch: 'main' } });
  });

  it('records uploads by token, reviews one by one and in bulk, and clearing everything', async () => {
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(t.store, { name: 'ci-main', tokenHash: hashToken(token), userId: 2 });
    const byToken = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { authorization: `Bearer ${token}` }, payload: { testResults: smallReport('from ci') } });
    expect(byToken.statusCode).toBe(200);
    expect(await latest('run.upload')).toMatchObject({ actor: { kind: 'token', name: 'rita' }, detail: { token: 'ci-main' }, target: { id: String(byToken.json().runId) } });

    const [a, b, c] = [await upload(max, 'a'), await upload(max, 'b'), await upload(max, 'c')];
    expect((await review(rita, a, 'approve')).statusCode).toBe(200);
    expect(await latest('run.approve')).toMatchObject({ actor: { name: 'rita' }, target: { id: String(a) } });
    const bulk = await t.app.inject({ method: 'POST', url: '/api/uploads/bulk-review', headers: rita.headers, payload: { uploads: [{ id: b, action: 'reject' }, { id: c, action: 'approve' }] } });
    expect(bulk.statusCode).toBe(200);
    expect((await audit('?action=run.reject')).items).toMatchObject([{ target: { id: String(b) }, detail: { bulk: true } }]);
    expect((await audit('?action=run.')).items.map((e) => e.action)).toEqual(['run.approve', 'run.reject', 'run.approve', 'run.upload', 'run.upload', 'run.upload', 'run.upload']);

    expect((await t.app.inject({ method: 'DELETE', url: '/api/clear-all', headers: admin.headers })).statusCode).toBe(200);
    expect(await latest('runs.clear')).toMatchObject({ actor: { name: 'admin' }, detail: { runs: 4 } });
    // Clearing the data keeps its own record.
    expect((await audit('?action=run.upload')).total).toBe(4);
  });
});

describe('the audit trail of quarantine, accounts and settings', () => {
  it('records quarantine added and lifted, an unlock and a setting changed', async () => {
    const add = await t.app.inject({ method: 'POST', url: '/api/quarantine', headers: rita.headers, payload: { title: 'checkout *', reason: 'JIRA-12', owner: 'ana' } });
    expect(add.statusCode).toBe(201);
    const id = add.json().entry.id as number;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/quarantine/${id}`, headers: rita.headers })).statusCode).toBe(200);
    expect((await audit(`?target=quarantine:${id}`)).items).toMatchObject([
      { action: 'quarantine.remove', actor: { name: 'rita' }, target: { label: 'checkout *' } },
      { action: 'quarantine.add', actor: { name: 'rita' }, detail: { reason: 'JIRA-12', owner: 'ana' } },
    ]);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/max/unlock', headers: admin.headers })).statusCode).toBe(200);
    expect(await latest('user.unlock')).toMatchObject({ actor: { name: 'admin' }, target: { type: 'user', label: 'max' } });
    expect((await setSecondPerson(admin, true)).statusCode).toBe(200);
    expect(await latest('setting.change')).toMatchObject({ actor: { name: 'admin' }, target: { id: 'secondPersonApproval' }, detail: { from: false, to: true } });
  });

  it('keeps a hostile name and title as the text it is', async () => {
    const title = 'evil \u001b]52;c;ZWNobyBwd25lZA==\u0007\u202e title';
    expect((await t.app.inject({ method: 'POST', url: '/api/quarantine', headers: rita.headers, payload: { title, reason: '<img src=x onerror=alert(1)>' } })).statusCode).toBe(201);
    expect(await latest('quarantine.add')).toMatchObject({ target: { label: title }, detail: { reason: '<img src=x onerror=alert(1)>' } });
  });
});

describe('who may read the audit trail', () => {
  it('admins only: reviewers, members, API tokens and nobody get no entry', async () => {
    for (const who of [rita, max]) expect((await t.app.inject({ method: 'GET', url: '/api/audit', headers: who.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(t.store, { name: 'admin-read', tokenHash: hashToken(token), userId: 1, scopes: ['upload', 'read'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/audit', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(403);
    expect((await setSecondPerson(rita, true)).statusCode).toBe(403);
  });

  it('has no route that changes or removes an entry', async () => {
    const before = Number(await t.store.sql.value('SELECT count(*) FROM audit_log'));
    const id = (await audit()).items[0]!.id;
    for (const method of ['DELETE', 'PUT', 'PATCH', 'POST'] as const) {
      for (const url of ['/api/audit', `/api/audit/${id}`]) {
        const res = await t.app.inject({ method, url, headers: admin.headers, payload: { action: 'nothing' } });
        expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
      }
    }
    expect(Number(await t.store.sql.value('SELECT count(*) FROM audit_log'))).toBe(before);
    expect((await audit()).items[0]!.action).toBe('session.sign-in');
  });

  it('filters by actor, action, target and time, and pages', async () => {
    for (const title of ['a', 'b', 'c']) await upload(max, title);
    const page = await audit('?actor=MAX&action=run.upload&page=2&pageSize=2');
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.items).toHaveLength(1);
    expect((await audit(`?since=${new Date(Date.now() + 60_000).toISOString()}`)).total).toBe(0);
    expect((await audit('?until=2000-01-01')).total).toBe(0);
    expect((await audit('?target=run')).total).toBe(3);
    const bad = await t.app.inject({ method: 'GET', url: '/api/audit?since=yesterday', headers: admin.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error ?? bad.body).toMatch(/since must be a date/);
  });
});

describe('second-person approval', () => {
  it('off by default: a reviewer approves their own upload, as before', async () => {
    const own = await upload(rita, 'own, setting off');
    expect((await review(rita, own, 'approve')).statusCode).toBe(200);
  });

  it('on: the uploader cannot approve their own upload, another reviewer can, and rejecting stays possible', async () => {
    expect((await setSecondPerson(admin, true)).json()).toEqual({ secondPersonApproval: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/settings', headers: rita.headers })).json()).toEqual({ secondPersonApproval: true });
    const own = await upload(rita, 'own');
    const refused = await review(rita, own, 'approve');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/uploaded by you: a second person must approve it/);
    const bulk = await t.app.inject({ method: 'POST', url: '/api/uploads/bulk-review', headers: rita.headers, payload: { uploads: [{ id: own, action: 'approve' }] } });
    expect(bulk.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/uploads/${own}`, headers: rita.headers })).json().upload.status).toBe('pending');
    expect((await audit(`?target=run:${own}&action=run.approve`)).total).toBe(0);
    expect((await review(admin, own, 'approve')).statusCode).toBe(200);
    expect(await latest('run.approve')).toMatchObject({ actor: { name: 'admin' }, target: { id: String(own) } });
    const another = await upload(rita, 'own, rejected');
    expect((await review(rita, another, 'reject')).statusCode).toBe(200);
  });

  it('on: a token with the approve scope no longer keeps its own runs at upload', async () => {
    expect((await setSecondPerson(admin, true)).statusCode).toBe(200);
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(t.store, { name: 'trusted-ci', tokenHash: hashToken(token), userId: 2, scopes: ['upload', 'approve'] });
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { authorization: `Bearer ${token}` }, payload: { testResults: smallReport('kept?') } });
    expect(res.json()).toMatchObject({ status: 'pending' });
    expect((await review(rita, res.json().runId, 'approve')).statusCode).toBe(403);
  });
});
