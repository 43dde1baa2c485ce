import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, smallReport, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { PUBLIC_REPORTS_DIR, publicReports } from '../../fixtures/testing/public-reports.js';
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

const count = async (sql: string) => (await t.store.sql.value<number>(sql))!;
const upload = (who: Signed, report: unknown, metadata: Record<string, unknown> = { fileName: 'results.json' }) =>
  t.app.inject({ method: 'POST', url: '/api/upload', headers: who.headers, payload: { testResults: report, metadata } });

async function uploaded(who: Signed, title: string): Promise<number> {
  const res = await upload(who, smallReport(title));
  expect(res.statusCode).toBe(200);
  return res.json().runId as number;
}

describe('POST /api/upload', () => {
  it('stores the report pending, with the uploader, and answers runId and testsProcessed', async () => {
    const res = await upload(max, smallReport(), { project: 'shop', gitBranch: 'main', gitCommit: 'abcdef1234567', fileName: 'C:\\ci\\results.json', fileSize: 2048, browser: 'chromium, firefox', uploadTime: '2026-11-20T10:00:00Z' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, runId: 1, testsProcessed: 2, duplicate: false, status: 'pending' });
    const recent = (await t.app.inject({ method: 'GET', url: '/api/recent-uploads', headers: max.headers })).json();
    expect(recent[0]).toMatchObject({ id: 1, status: 'pending', file_path: 'results.json', project: 'shop', git_branch: 'main', git_commit: 'abcdef1234567', browser: 'chromium, firefox', uploaded_by_username: 'max', uploaded_via: null, total_tests: 2, passed_tests: 2 });
  });

  it('names the run by metadata.runName when given, kept whole; the pending list carries its branch and build', async () => {
    const res = await upload(max, smallReport(), { fileName: '/tmp/x/playwright-report.json', runName: '  shop · feature/login · build 7  ', gitBranch: 'feature/login', buildId: '7' });
    expect(res.statusCode).toBe(200);
    const pending = (await t.app.inject({ method: 'GET', url: '/api/uploads/pending', headers: max.headers })).json();
    expect(pending.uploads).toMatchObject([{ file_path: 'shop · feature/login · build 7', git_branch: 'feature/login', build_id: '7', uploaded_by_username: 'max', uploaded_via: null }]);
    const tooLong = await upload(max, smallReport('b'), { runName: 'x'.repeat(1001) });
    expect([tooLong.statusCode, tooLong.json().error]).toEqual([400, 'Invalid request: body/metadata/runName must NOT have more than 1000 characters']);
  });

  it('refuses bad bodies with a clear error and stores nothing', async () => {
    const bad = [
      [{ payload: '{"testResults": ', headers: { 'content-type': 'application/json' } }, 400, /^Invalid JSON/],
      [{ payload: '{"testResults": {"__proto__": {"x": 1}}}', headers: { 'content-type': 'application/json' } }, 400, /__proto__/],
      [{ payload: 'testResults=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, /send application\/json/],
      [{ payload: { metadata: {} } }, 400, /testResults/],
      [{ payload: { testResults: { config: {} } } }, 400, /^upload\.json: not a Playwright JSON report: the field "suites" is missing$/],
      [{ payload: { testResults: [1, 2] } }, 400, /not a Playwright JSON report/],
    ] as const;
    for (const [request, status, message] of bad) {
      const res = await t.app.inject({ method: 'POST', url: '/api/upload', ...request, headers: { ...max.headers, ...('headers' in request ? request.headers : {}) } } as never);
      expect([res.statusCode, res.json().error]).toEqual([status, expect.stringMatching(message)]);
    }
    expect(await count('SELECT count(*) AS n FROM runs')).toBe(0);
  });

  it('stores a report whose file name holds a lone UTF-16 surrogate (fuzz finding: 500 on PostgreSQL)', async () => {
    const report = smallReport('surrogate');
    const file = 'odd\uD800.spec.ts';
    const odd = { ...report, suites: report.suites.map((s) => ({ ...s, file, specs: s.specs.map((spec) => ({ ...spec, file })) })) };
    const res = await upload(max, odd);
    expect([res.statusCode, res.json().testsProcessed]).toEqual([200, 2]);
    expect(await count('SELECT count(*) AS n FROM results')).toBe(2);
  });

  it('answers 413 past the body limit', async () => {
    await t.close();
    t = await buildTestApp({ bodyLimit: 10_000 });
    const who = await signIn(t.app, 'max');
    const res = await upload(who, smallReport('x'.repeat(20_000)));
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('The request body is larger than the limit of 10 KB');
    expect(await count('SELECT count(*) AS n FROM runs')).toBe(0);
  });

  it('twenty simultaneous uploads of one file store one run and nineteen duplicates', async () => {
    const report = smallReport('same');
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(max, report)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((r) => !r.json().duplicate)).toHaveLength(1);
    expect(await count('SELECT count(*) AS n FROM runs WHERE is_duplicate = 0')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM runs WHERE is_duplicate = 1')).toBe(19);
    // Only the original holds results, and all of them.
    expect(await count('SELECT count(*) AS n FROM results')).toBe(2);
  });

  it('accepts a CI API token without XSRF; the token cannot review', async () => {
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(t.store, { name: 'ci', tokenHash: hashToken(token), userId: 1 });
    const headers = { authorization: `Bearer ${token}` };
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers, payload: { testResults: smallReport() } });
    expect(res.statusCode).toBe(200);
    const review = await t.app.inject({ method: 'PATCH', url: `/api/uploads/${res.json().runId}/review`, headers, payload: { action: 'approve' } });
    expect(review.statusCode).toBe(403);
    expect(review.json().error).toMatch(/API tokens can only upload/);
  });

  it.runIf(publicReports().length > 0)('takes a real report through the same path as the CLI', async () => {
    const report = JSON.parse(readFileSync(join(PUBLIC_REPORTS_DIR, '07-three-browsers-merged-specs-flaky-1.41.json'), 'utf8'));
    const res = await upload(max, report);
    expect(res.json()).toMatchObject({ testsProcessed: 93 });
    const detail = (await t.app.inject({ method: 'GET', url: `/api/uploads/${res.json().runId}`, headers: max.headers })).json();
    expect(detail.stats).toMatchObject({ total: 93, passed: 78, failed: 9, flaky: 6, skipped: 6 });
    // Bounded: the table's first page, with the run's total beside it.
    expect(detail.testResults).toHaveLength(50);
    expect(detail.testResultsTotal).toBe(93);
    expect(detail.flakyTests.length).toBeGreaterThanOrEqual(6);
    expect(detail.errorPatterns.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(9);
  });
});

describe('review', () => {
  it('lists pending uploads with count, and reviews one with reviewer name and time', async () => {
    const a = await uploaded(max, 'a');
    const b = await uploaded(max, 'b');
    const pending = (await t.app.inject({ method: 'GET', url: '/api/uploads/pending', headers: max.headers })).json();
    expect(pending.count).toBe(2);
    expect(pending.uploads.map((u: { id: number }) => u.id)).toEqual([b, a]);
    expect(Object.keys(pending.uploads[0]).sort()).toEqual(
      ['browser', 'build_id', 'failed_tests', 'file_path', 'git_branch', 'id', 'is_duplicate', 'passed_tests', 'project', 'timestamp', 'total_tests', 'uploaded_by_username', 'uploaded_via'].sort(),
    );
    expect(pending.uploads[0].timestamp).toMatch(/Z$/);

    const res = await t.app.inject({ method: 'PATCH', url: `/api/uploads/${a}/review`, headers: rita.headers, payload: { action: 'approve', notes: 'looks right' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, upload: { id: a, status: 'approved', reviewed_by_username: 'rita', reviewed_at: expect.stringMatching(/Z$/) } });
    const recent = (await t.app.inject({ method: 'GET', url: '/api/recent-uploads?status=approved', headers: max.headers })).json();
    expect(recent).toEqual([expect.objectContaining({ id: a, status: 'approved', reviewed_by_username: 'rita', review_notes: 'looks right' })]);
    // Reviewed once is final.
    const again = await t.app.inject({ method: 'PATCH', url: `/api/uploads/${a}/review`, headers: rita.headers, payload: { action: 'reject' } });
    expect([again.statusCode, again.json().error]).toEqual([409, `Upload ${a} was already approved`]);
  });

  it('rejecting keeps the run as a record and removes its results from the analytics', async () => {
    const a = await uploaded(max, 'a');
    await t.app.inject({ method: 'PATCH', url: `/api/uploads/${a}/review`, headers: rita.headers, payload: { action: 'reject' } });
    expect(await count(`SELECT count(*) AS n FROM runs WHERE id = ${a} AND status = 'rejected'`)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM results WHERE run_id = ${a}`)).toBe(0);
  });

  it('a duplicate cannot be approved, only rejected', async () => {
    await uploaded(max, 'same');
    const dup = await uploaded(max, 'same');
    const res = await t.app.inject({ method: 'PATCH', url: `/api/uploads/${dup}/review`, headers: rita.headers, payload: { action: 'approve' } });
    expect([res.statusCode, res.json().error]).toEqual([400, `Upload ${dup} is a duplicate and cannot be approved; reject it instead`]);
    const reject = await t.app.inject({ method: 'PATCH', url: `/api/uploads/${dup}/review`, headers: rita.headers, payload: { action: 'reject' } });
    expect(reject.statusCode).toBe(200);
  });

  it('rejecting or deleting an original takes its pending duplicates with it', async () => {
    const original = await uploaded(max, 'same');
    const dup = await uploaded(max, 'same');
    await t.app.inject({ method: 'PATCH', url: `/api/uploads/${original}/review`, headers: rita.headers, payload: { action: 'reject' } });
    expect(await t.store.sql.get('SELECT status, reviewed_by FROM runs WHERE id = @dup', { dup })).toEqual({ status: 'rejected', reviewed_by: 2 });
    const again = await uploaded(max, 'again');
    const againDup = await uploaded(max, 'again');
    await t.app.inject({ method: 'DELETE', url: `/api/test-run/${again}`, headers: rita.headers });
    expect(await t.store.sql.get('SELECT count(*) AS n FROM runs WHERE id IN (@again, @againDup)', { again, againDup })).toEqual({ n: 0 });
  });

  it('bulk review is all or nothing', async () => {
    const a = await uploaded(max, 'a');
    const b = await uploaded(max, 'b');
    const dup = await uploaded(max, 'b');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/bulk-review',
      headers: rita.headers,
      payload: { uploads: [{ id: a, action: 'approve' }, { id: b, action: 'reject' }, { id: dup, action: 'approve' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(await count("SELECT count(*) AS n FROM runs WHERE status = 'pending'")).toBe(3);
    expect(await count('SELECT count(*) AS n FROM results')).toBe(4);
    const missing = await t.app.inject({ method: 'POST', url: '/api/uploads/bulk-review', headers: rita.headers, payload: { uploads: [{ id: a, action: 'approve' }, { id: 999, action: 'reject' }] } });
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'Upload 999 not found']);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/bulk-review',
      headers: rita.headers,
      payload: { uploads: [{ id: a, action: 'approve' }, { id: b, action: 'reject' }, { id: dup, action: 'reject' }] },
    });
    expect(ok.json()).toEqual({ success: true, reviewed: 3 });
    expect((await t.app.inject({ method: 'GET', url: '/api/uploads/pending', headers: max.headers })).json()).toEqual({ uploads: [], count: 0 });
  });
});

describe('upload detail, delete and clear', () => {
  it('GET /api/uploads/{id} answers the detail, 404 when missing', async () => {
    const id = await uploaded(max, 'a');
    const res = await t.app.inject({ method: 'GET', url: `/api/uploads/${id}`, headers: max.headers });
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'browserCount', 'errorPatterns', 'failedAfterRetriesTotal', 'flakyTests', 'flakyTestsTotal', 'slowestTests', 'stats', 'testResults', 'testResultsTotal', 'testsByStatus', 'topErrors', 'upload',
    ]);
    expect(body.upload).toMatchObject({ id, file_path: 'results.json', browser: 'chromium, firefox', timestamp: expect.any(String), git_branch: null });
    expect(body.testResults[0]).toMatchObject({ test_title: 'a', test_file: 'shop.spec.ts', status: 'passed', duration_ms: 1200, error_message: null, retry_count: 0 });
    expect(body.stats).toMatchObject({ total: 2, passed: 2, failed: 0, pass_rate: 100 });
    const missing = await t.app.inject({ method: 'GET', url: '/api/uploads/999', headers: max.headers });
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: 'Upload not found' }]);
    expect((await t.app.inject({ method: 'GET', url: '/api/uploads/abc', headers: max.headers })).statusCode).toBe(400);
  });

  it('DELETE /api/test-run/{id} removes a run and everything under it (reviewer)', async () => {
    const id = await uploaded(max, 'a');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/test-run/${id}`, headers: max.headers })).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/test-run/${id}`, headers: rita.headers });
    expect(res.json()).toEqual({ success: true });
    expect(await count('SELECT count(*) AS n FROM runs') + await count('SELECT count(*) AS n FROM results') + await count('SELECT count(*) AS n FROM attempts')).toBe(0);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/test-run/${id}`, headers: rita.headers })).statusCode).toBe(404);
  });

  it('DELETE /api/clear-all removes every run (admin only) and keeps the users', async () => {
    await uploaded(max, 'a');
    await uploaded(max, 'b');
    const refused = await t.app.inject({ method: 'DELETE', url: '/api/clear-all', headers: rita.headers });
    expect([refused.statusCode, refused.json().error]).toEqual([403, 'This action needs the admin role; you are signed in as a reviewer']);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/clear-all', headers: admin.headers });
    expect(res.json()).toEqual({ success: true, deletedRuns: 2 });
    expect(await count('SELECT count(*) AS n FROM runs') + await count('SELECT count(*) AS n FROM tests')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM users')).toBe(3);
  });
});
