import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse, ErrorPattern, FlakyTestGroup, TestResultDetail } from '../../core/api/analytics.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { ownReports, publicReports } from '../../fixtures/testing/public-reports.js';
import { ingestBytes } from '../ingest.js';

// Real reports carry their own dates (2023 to 2026): ask for all time.
let t: TestApp;
let who: Signed;
const files = [...publicReports(), ...ownReports()];

beforeAll(async () => {
  t = await buildTestApp();
  who = await signIn(t.app, 'max');
  for (const file of files) await ingestBytes(t.store, readFileSync(file), { fileName: basename(file), approve: true });
});
afterAll(() => t.close());

const get = async <T>(url: string): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return res.json() as T;
};

describe('the analytics calls on real reports', () => {
  it('answer every call in the documented shapes (docs/api.md)', async () => {
    const d = await get<DashboardResponse>('/api/dashboard?days=0');
    const stored = (await t.store.sql.get('SELECT count(*) AS runs, sum(total_tests) AS tests FROM runs WHERE is_duplicate = 0')) as { runs: number; tests: number };
    expect(d.summary[0]).toMatchObject({ total_runs: stored.runs, total_tests: stored.tests });
    expect(Object.keys(d.summary[0]).sort()).toEqual(['avg_duration', 'total_failed', 'total_passed', 'total_passed_on_retry', 'total_runs', 'total_skipped', 'total_tests']);
    for (const b of d.browserComparison) expect(Object.keys(b)).toEqual(expect.arrayContaining(['browser', 'passed', 'failed', 'avg_duration']));
    for (const f of d.flakyTests) expect(f.pass_rate).toBeGreaterThanOrEqual(0);
    expect(d.recentRuns[0]).toEqual(expect.objectContaining({ id: expect.any(Number), execution_time: expect.any(String), browser: expect.any(String), total_tests: expect.any(Number), duration_ms: expect.any(Number) }));

    const groups = await get<FlakyTestGroup[]>('/api/flaky-tests');
    // The public samples hold Playwright's own "flaky" tests (passed on a retry).
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) expect(g.browsers.every((b) => b.passed_on_retry > 0 || b.changes >= 2)).toBe(true);

    const g = groups[0]!;
    const details = await get<TestResultDetail[]>(`/api/test-details/${encodeURIComponent(g.test_title)}/${encodeURIComponent(g.browsers[0]!.browser)}`);
    expect(details.length).toBeGreaterThan(0);
    expect(Object.keys(details[0]!)).toEqual(expect.arrayContaining(['status', 'duration_ms', 'run_date', 'error_message', 'error_location', 'error_snippet', 'error_stack', 'test_steps']));
    await get(`/api/flaky-tests/${encodeURIComponent(g.test_file)}/${encodeURIComponent(g.test_title)}/${encodeURIComponent(g.browsers[0]!.browser)}/daily-stats`);

    const patterns = await get<ErrorPattern[]>('/api/error-patterns?days=0');
    expect(patterns.length).toBeGreaterThan(0);
    expect(new Set(patterns.map((p) => p.error_category))).toEqual(new Set(patterns.map((p) => p.error_category).filter((c) => ['Test Timeout', 'Element Wait Timeout', 'Page Load Timeout', 'Assertion Error', 'Browser Protocol Error', 'Navigation Error', 'other'].includes(c))));
    for (const p of patterns) expect(p.full_error).not.toMatch(/\u001b\[/);
    await get('/api/slow-tests?days=0');
    await get('/api/trends');
    await get('/api/flaky-trends?period=7');
  });
});
