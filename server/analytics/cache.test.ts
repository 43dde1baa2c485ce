import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../core/api/analytics.js';
import { buildTestApp, signIn, smallReport, type TestApp } from '../../fixtures/testing/app.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/open.js';

let t: TestApp;
afterEach(() => t.close());

describe('cached analytics answers', () => {
  it('change as soon as runs are written, by the server or by another process on the same file', async () => {
    t = await buildTestApp({ now: () => Date.parse('2026-11-20T12:00:00Z') });
    const max = await signIn(t.app, 'max');
    const runs = async () => ((await t.app.inject({ method: 'GET', url: '/api/dashboard?days=7', headers: max.headers })).json() as DashboardResponse).summary[0].total_runs;
    expect(await runs()).toBe(0);
    expect(await runs()).toBe(0);

    await t.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: smallReport('one') } });
    expect(await runs()).toBe(1);

    // `flakeboard import` into the same database while the server runs.
    const other = openStore(t.dbPath);
    ingestValue(other, smallReport('two'), { fileName: 'two.json' });
    await other.close();
    expect(await runs()).toBe(2);

    const rita = await signIn(t.app, 'rita');
    await t.app.inject({ method: 'DELETE', url: '/api/test-run/1', headers: rita.headers });
    expect(await runs()).toBe(1);

    // A rejection removes the run's results from the figures.
    const review = await t.app.inject({ method: 'PATCH', url: '/api/uploads/2/review', headers: rita.headers, payload: { action: 'reject' } });
    expect(review.statusCode).toBe(200);
    expect(await runs()).toBe(0);
  });
});
