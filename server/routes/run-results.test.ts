import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../core/api/analytics.js';
import type { TestResultRow, UploadDetailResponse } from '../../core/api/uploads.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';

/**
 * The run details calls: GET /api/uploads/{id} is bounded (first page, counts, the
 * charts' rows) and GET /api/uploads/{id}/results pages, searches, filters and sorts on the
 * server. Checked against a model of the report computed here.
 */

const STATUSES = ['passed', 'failed', 'timedOut', 'skipped'] as const;
const COUNT = 130;
// Colour codes inside the words, as Playwright writes them: search must see through them.
const ansiError = (i: number) => `\u001b[31mError: expect(\u001b[2mlocator\u001b[22m).toBeVisible() failed\u001b[39m\n  case ${i} at shop.spec.ts`;
// First line past the 4 KB head the summary reads first.
const LATE_LINE = `${'\n'.repeat(5000)}Error: found after five thousand blank lines`;

interface Spec {
  title: string;
  file: string;
  status: (typeof STATUSES)[number];
  duration: number;
  message: string | null;
  retries: number;
  /** Whether a retry passed (flaky); otherwise every retry failed too. */
  rescued: boolean;
}

const specs: Spec[] = Array.from({ length: COUNT }, (_, i) => {
  const status = STATUSES[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : i % 13 === 0 ? 3 : 0]!;
  const failing = status === 'failed' || status === 'timedOut';
  return {
    // Mixed case: a name sort reads alphabetically, not upper case first.
    title: `${i % 2 ? 'case' : 'Case'} ${String((i * 37) % COUNT).padStart(3, '0')}`,
    file: `area-${i % 4}.spec.ts`,
    status,
    duration: ((i * 7919) % 50_000) + 1,
    message: failing ? (i === 7 ? LATE_LINE : ansiError(i)) : null,
    // Failed first, passed on retry: the status is the first attempt's (docs/screens.md#status-rules).
    // Case 14 fails both of its retries: retried, but not flaky.
    retries: i % 63 === 0 ? 1 : i === 14 ? 2 : 0,
    rescued: i !== 14,
  };
});

function report() {
  const result = (s: Spec, status: string, retry: number) => ({
    status,
    retry,
    duration: s.duration,
    startTime: '2026-11-20T10:00:00.000Z',
    ...(status === 'failed' || status === 'timedOut' ? { error: { message: s.message } } : {}),
  });
  return {
    config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
    suites: [
      {
        title: 'all',
        file: 'all.spec.ts',
        specs: specs.map((s, i) => ({
          title: s.title,
          file: s.file,
          line: i + 1,
          column: 1,
          tests: [
            {
              projectName: 'chromium',
              expectedStatus: s.status === 'skipped' ? 'skipped' : 'passed',
              results: [result(s, s.status, 0), ...Array.from({ length: s.retries }, (_, r) => result(s, s.rescued && r === s.retries - 1 ? 'passed' : s.status, r + 1))],
            },
          ],
        })),
      },
    ],
    errors: [],
    stats: { startTime: '2026-11-20T10:00:00.000Z', duration: 60_000, expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
  };
}

let t: TestApp;
let max: Signed;
let runId: number;
beforeAll(async () => {
  t = await buildTestApp();
  max = await signIn(t.app, 'max');
  const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: report(), metadata: { fileName: 'big.json' } } });
  expect(res.statusCode).toBe(200);
  runId = res.json().runId;
});
afterAll(() => t.close());

const get = async <T>(url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: max.headers });
  return { status: res.statusCode, body: res.json() as T, headers: res.headers };
};
const results = (query: string) => get<Paged<TestResultRow>>(`/api/uploads/${runId}/results?${query}`);

/** Every page of a query, read through the call. */
async function all(query: string): Promise<TestResultRow[]> {
  const rows: TestResultRow[] = [];
  for (let page = 1; ; page++) {
    const { body } = await results(`${query}&page=${page}&pageSize=40`);
    rows.push(...body.items);
    if (rows.length >= body.total) return rows;
  }
}

const isFailure = (s: string) => s === 'failed' || s === 'timedOut';

describe('GET /api/uploads/{id}', () => {
  it('is bounded: the first page of the table, the counts, ten slowest and the top error lines', async () => {
    const { status, body } = await get<UploadDetailResponse>(`/api/uploads/${runId}`);
    expect(status).toBe(200);
    expect(body.upload).toMatchObject({ id: runId, file_path: 'big.json' });
    expect(body.testResults).toHaveLength(50);
    expect(body.testResultsTotal).toBe(COUNT);
    expect(body.testsByStatus).toEqual(Object.fromEntries(STATUSES.map((s) => [s, specs.filter((x) => x.status === s).length])));
    // A result's duration covers its retries.
    expect(body.slowestTests.map((r) => r.duration_ms)).toEqual(specs.map((s) => s.duration * (s.retries + 1)).sort((a, b) => b - a).slice(0, 10));
    expect(body.browserCount).toBe(1);
    // Flaky: passed on a retry. A test that failed every retry is not flaky; it is counted apart.
    expect(body.flakyTestsTotal).toBe(specs.filter((s) => s.retries && s.rescued).length);
    expect(body.flakyTests.map((r) => [r.retry_count, r.outcome])).toEqual(specs.filter((s) => s.retries && s.rescued).map(() => [1, 'flaky']));
    expect(body.failedAfterRetriesTotal).toBe(1);
    // Error first lines: colour codes stripped; the line after 5,000 blank ones is found too.
    const failures = specs.filter((s) => isFailure(s.status));
    expect(body.topErrors).toEqual([
      { pattern: 'Error: expect(locator).toBeVisible() failed', count: failures.length - 1 },
      { pattern: 'Error: found after five thousand blank lines', count: 1 },
    ]);
  });

  it('finds the first line of a message after thousands of blank lines', async () => {
    const { body } = await results('search=five%20thousand%20blank&page=1');
    expect(body.items.map((r) => r.test_title)).toEqual([specs[7]!.title]);
  });

  it('a bare call is the first page with the total in X-Total-Count; a page past 200 rows is refused', async () => {
    const bare = await get<TestResultRow[]>(`/api/uploads/${runId}/results`);
    expect(bare.body).toHaveLength(50);
    expect(bare.headers['x-total-count']).toBe(String(COUNT));
    expect((await results('page=1&pageSize=201')).status).toBe(400);
    expect((await results('page=1&sort=random')).status).toBe(400);
    expect((await get(`/api/uploads/999/results`)).status).toBe(404);
  });
});

describe('GET /api/uploads/{id}/results', () => {
  it('pages through every result once, failures first, then by name', async () => {
    const rows = await all('sort=status');
    expect(rows).toHaveLength(COUNT);
    expect(new Set(rows.map((r) => r.id)).size).toBe(COUNT);
    const order = { failed: 0, timedOut: 1, passed: 2, skipped: 3 };
    const keys = rows.map((r) => order[r.status]);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    const passed = rows.filter((r) => r.status === 'passed').map((r) => r.test_title.toLowerCase());
    expect(passed).toEqual([...passed].sort());
  });

  it('sorts by duration, longest first, and by name, ignoring case', async () => {
    const byDuration = (await all('sort=duration')).map((r) => r.duration_ms);
    expect(byDuration).toEqual([...byDuration].sort((a, b) => b - a));
    const byName = (await all('sort=name')).map((r) => r.test_title.toLowerCase());
    expect(byName).toEqual([...byName].sort());
  });

  it('filters by status (failed includes timed out) with the total of the filter', async () => {
    const failed = await results('status=failed&page=1&pageSize=200');
    expect(failed.body.total).toBe(specs.filter((s) => isFailure(s.status)).length);
    expect(failed.body.items.every((r) => isFailure(r.status))).toBe(true);
    const skipped = await results('status=skipped&page=1');
    expect(skipped.body.items.map((r) => r.status)).toEqual(specs.filter((s) => s.status === 'skipped').map(() => 'skipped'));
  });

  it('searches title, file and error text, ignoring case and colour codes', async () => {
    const byFile = await results('search=AREA-3&page=1&pageSize=200');
    expect(byFile.body.total).toBe(specs.filter((s) => s.file === 'area-3.spec.ts').length);
    // "expect(locator)" is split by colour codes in the stored message.
    const byError = await results(`search=${encodeURIComponent('expect(locator).toBeVisible')}&status=failed&page=1&pageSize=200`);
    expect(byError.body.total).toBe(specs.filter((s) => isFailure(s.status) && s.message !== LATE_LINE).length);
    const oneCase = await results(`search=${encodeURIComponent('CASE 14 at')}&page=1`);
    expect(oneCase.body.total).toBe(1);
    const byTitle = await results(`search=${encodeURIComponent('CASE 001')}&page=1`);
    expect(byTitle.body.items.map((r) => r.test_title.toLowerCase())).toEqual(['case 001']);
    expect((await results('search=nothing-like-this&page=1')).body).toMatchObject({ items: [], total: 0 });
  });

  it('a duplicate pages its original results', async () => {
    const dup = await t.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: report(), metadata: { fileName: 'again.json' } } });
    const dupId = dup.json().runId as number;
    expect(dupId).not.toBe(runId);
    const copy = await get<Paged<TestResultRow>>(`/api/uploads/${dupId}/results?page=2&sort=name`);
    const original = await results('page=2&sort=name');
    expect(copy.body).toEqual(original.body);
    const detail = await get<UploadDetailResponse>(`/api/uploads/${dupId}`);
    expect(detail.body.upload.duplicate_of).toBe(runId);
    expect(detail.body.testResultsTotal).toBe(COUNT);
  });
});
