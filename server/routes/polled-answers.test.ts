import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, smallReport, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { ingestValue } from '../ingest.js';
import { openAnyStore } from '../store/engine/open-any.js';

/** The polled answers are cached (polled-answers.ts): every write that changes them must show at once. */
let t: TestApp;
let rita: Signed;
beforeEach(async () => {
  t = await buildTestApp();
  rita = await signIn(t.app, 'rita');
});
afterEach(() => t.close());

const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: rita.headers })).json();
const pendingCount = async () => (await get('/api/uploads/pending')).count as number;
const recent = async () => (await get('/api/recent-uploads?page=1')) as { items: Array<{ id: number; status: string }>; total: number };

describe('pending count, recent uploads and a run’s details under the cache', () => {
  it('follow uploads, reviews, deletes and clears, and imports by another process', async () => {
    expect(await pendingCount()).toBe(0);
    expect((await recent()).total).toBe(0);
    const up = await t.app.inject({ method: 'POST', url: '/api/upload', headers: rita.headers, payload: { testResults: smallReport('a') } });
    const id = up.json().runId as number;
    expect(await pendingCount()).toBe(1);
    expect((await recent()).items).toMatchObject([{ id, status: 'pending' }]);
    expect((await get(`/api/uploads/${id}`)).upload.status).toBe('pending');

    await t.app.inject({ method: 'PATCH', url: `/api/uploads/${id}/review`, headers: rita.headers, payload: { action: 'approve' } });
    expect(await pendingCount()).toBe(0);
    expect((await recent()).items).toMatchObject([{ id, status: 'approved' }]);
    expect((await get(`/api/uploads/${id}`)).upload).toMatchObject({ status: 'approved', reviewed_by_username: 'rita' });

    // `flakeboard import` into the same database while the server runs: another connection.
    const other = await openAnyStore(t.target);
    try {
      await ingestValue(other, smallReport('b'), { fileName: 'cli.json' });
    } finally {
      await other.close();
    }
    expect(await pendingCount()).toBe(1);
    expect((await recent()).total).toBe(2);

    await t.app.inject({ method: 'DELETE', url: `/api/test-run/${id}`, headers: rita.headers });
    expect((await recent()).items.map((u) => u.id)).not.toContain(id);
    expect((await t.app.inject({ method: 'GET', url: `/api/uploads/${id}`, headers: rita.headers })).statusCode).toBe(404);

    const admin = await signIn(t.app, 'admin');
    await t.app.inject({ method: 'DELETE', url: '/api/clear-all', headers: admin.headers });
    expect([await pendingCount(), (await recent()).total]).toEqual([0, 0]);
  });
});
