import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performanceLevel } from '../../core/analytics/formulas.js';
import type { DashboardResponse, ErrorPattern, FlakyTestGroup, SlowTest, TrendDay, TrendRecord } from '../../core/api/analytics.js';
import type { PwReport, PwSuite, PwTest } from '../../core/report/playwright-types.js';
import { describeTruth, generateHistory, type TestKind } from '../demo/history.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { ingestValue } from '../ingest.js';

// A history whose truth is known by construction (server/demo), ending "now".
const NOW = Date.parse('2026-11-20T18:00:00Z');
const OPTIONS = { seed: 11, runs: 60, days: 30, tests: 36, browsers: ['chromium', 'firefox'] as const, outageRuns: 1, endDate: NOW };
const FLAKY_KINDS: TestKind[] = ['flaky-retry', 'flaky-alternating', 'declining', 'improving'];

let t: TestApp;
let who: Signed;
const truth = describeTruth({ ...OPTIONS, browsers: [...OPTIONS.browsers] });
const reports: PwReport[] = [];

beforeAll(async () => {
  t = await buildTestApp({ now: () => NOW });
  who = await signIn(t.app, 'max');
  for (const run of generateHistory({ ...OPTIONS, browsers: [...OPTIONS.browsers] })) {
    reports.push(run.report);
    await ingestValue(t.store, run.report, { fileName: run.fileName, approve: true });
  }
}, 120_000);
afterAll(() => t.close());

async function get<T>(url: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return res.json() as T;
}

// Titles repeat across files: a test is its file and title.
const truthOf = (file: string, title: string) => truth.tests.find((x) => x.file === file && x.title === title)!;
const kindOf = (row: { test_file: string; test_title: string }) => truthOf(row.test_file, row.test_title).kind;

function testsOf(report: PwReport): Array<{ file: string; title: string; test: PwTest }> {
  const out: Array<{ file: string; title: string; test: PwTest }> = [];
  const walk = (s: PwSuite) => {
    for (const spec of s.specs) for (const test of spec.tests) out.push({ file: spec.file, title: spec.title, test });
    s.suites?.forEach(walk);
  };
  report.suites.forEach(walk);
  return out;
}

describe('GET /api/flaky-tests on a known history', () => {
  it('lists exactly the flaky tests: no stable, broken, browser-specific, slow or outage-only ones', async () => {
    const groups = await get<FlakyTestGroup[]>('/api/flaky-tests');
    const listed = new Set(groups.map((g) => `${g.test_file} ${g.test_title}`));
    const expected = new Set(truth.tests.filter((x) => FLAKY_KINDS.includes(x.kind)).map((x) => `${x.file} ${x.title}`));
    expect([...listed].sort()).toEqual([...expected].sort());
    for (const g of groups) {
      expect(g.browsers.length).toBeGreaterThan(0);
      expect(g.worst_pass_rate).toBe(Math.min(...g.browsers.map((b) => b.pass_rate)));
      expect(g.total_runs_all_browsers).toBe(g.browsers.reduce((n, b) => n + b.total_runs, 0));
      expect(g.highest_flaky_score).toBe(Math.max(...g.browsers.map((b) => b.flaky_score)));
      for (const b of g.browsers) expect(b.flaky_score).toBe(Math.round((100 * b.changes) / (b.attempts - 1)));
    }
    // Alternating tests change on every run (a failing run fails all its attempts: F F F P …);
    // a broken test's single change would score a few points at most.
    const alternating = groups.find((g) => kindOf(g) === 'flaky-alternating')!;
    expect(alternating.highest_flaky_score).toBeGreaterThan(40);
    // Passing only on a retry is flaky by definition.
    const retry = groups.find((g) => kindOf(g) === 'flaky-retry')!;
    expect(retry.browsers.every((b) => b.passed_on_retry > 0)).toBe(true);
  });
});

describe('GET /api/flaky-trends', () => {
  it('finds the declining and improving tests of the last 7 days', async () => {
    const records = await get<TrendRecord[]>('/api/flaky-trends?period=7');
    const direction = (kind: TestKind) => new Set(records.filter((r) => kindOf(r) === kind).map((r) => r.trend_direction));
    expect(direction('declining')).toEqual(new Set(['declining']));
    expect(direction('improving')).toEqual(new Set(['improving']));
    for (const r of records) {
      expect(r.period_end).toBe('2026-11-20');
      expect(r.period_start).toBe('2026-11-14');
      if (r.previous_pass_rate !== null) expect(r.trend_percentage).toBeCloseTo((r.pass_rate - r.previous_pass_rate) * 100, 0);
    }
    expect(await get('/api/flaky-trends')).toEqual(records);
  });
});

describe('GET /api/dashboard', () => {
  it('summarises the window as the reports say, and answers every part', async () => {
    const d = await get<DashboardResponse>('/api/dashboard?days=7');
    const from = NOW - 7 * 86_400_000;
    const inWindow = truth.runs.filter((r) => Math.floor(r.startedAt / 86_400_000) >= Math.floor(NOW / 86_400_000) - 6);
    expect(d.summary[0].total_runs).toBe(inWindow.length);
    const tests = inWindow.flatMap((r) => testsOf(reports[r.index]!));
    expect(d.summary[0].total_tests).toBe(tests.length);
    expect(d.summary[0].total_skipped).toBe(tests.filter((x) => x.test.results.length === 0 || x.test.results[0]!.status === 'skipped').length);
    expect(d.browserComparison.map((b) => b.browser)).toEqual(['chromium', 'firefox']);
    expect(d.recentRuns).toHaveLength(10);
    expect(Date.parse(d.recentRuns[0]!.execution_time)).toBeGreaterThan(from);
    expect(d.flakyTests.every((f) => FLAKY_KINDS.includes(kindOf(f)))).toBe(true);
    expect(d.flakyTrends.length).toBeGreaterThan(0);
    const all = await get<DashboardResponse>('/api/dashboard?days=0');
    expect(all.summary[0].total_runs).toBe(truth.runs.length);
    expect((await get<DashboardResponse>('/api/dashboard')).days).toBe(30);
  });
});

describe('GET /api/slow-tests', () => {
  it('ranks the slow and very slow tests with their levels', async () => {
    const slow = await get<SlowTest[]>('/api/slow-tests');
    for (const x of truth.tests.filter((x) => x.kind === 'slow' || x.kind === 'very-slow')) {
      const row = slow.find((s) => s.test_file === x.file && s.test_title === x.title && s.browser === 'chromium')!;
      expect(Math.abs(row.avg_duration - x.avgDurationMs!) / x.avgDurationMs!).toBeLessThan(0.1);
      expect(performanceLevel(row.avg_duration)).toBe(x.kind === 'very-slow' ? 'Very Slow' : row.avg_duration < 15_000 ? 'Medium' : 'Slow');
      expect(row.test_full_title.endsWith(x.title)).toBe(true);
    }
  });
});

describe('GET /api/trends', () => {
  it('answers the last 30 days, one row per day, totals as stored', async () => {
    const days = await get<TrendDay[]>('/api/trends');
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.date).toBe('2026-11-20');
    const today = Math.floor(NOW / 86_400_000);
    const recent = truth.runs.filter((r) => Math.floor(r.startedAt / 86_400_000) > today - 30).flatMap((r) => testsOf(reports[r.index]!));
    expect(days.reduce((n, d) => n + d.total_tests, 0)).toBe(recent.length);
  });
});

describe('GET /api/error-patterns', () => {
  it('groups failures by category as generated, counts them, strips colour codes', async () => {
    const patterns = await get<ErrorPattern[]>('/api/error-patterns?days=0');
    // Every failing first attempt, by the category its test was generated with (outages: Navigation Error).
    const expected = new Map<string, number>();
    for (const run of truth.runs) {
      for (const { file, title, test } of testsOf(reports[run.index]!)) {
        const first = test.results[0];
        if (!first || (first.status !== 'failed' && first.status !== 'timedOut') || test.expectedStatus !== 'passed') continue;
        const category = run.outage ? 'Navigation Error' : truthOf(file, title).errorCategory!;
        expected.set(category, (expected.get(category) ?? 0) + 1);
      }
    }
    const counted = new Map<string, number>();
    for (const p of patterns) counted.set(p.error_category, (counted.get(p.error_category) ?? 0) + p.frequency);
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(expected));
    expect(patterns.every((p) => !p.full_error.includes('\u001b['))).toBe(true);
    expect(patterns.every((p) => p.affected_browsers.split(',').every((b) => ['chromium', 'firefox'].includes(b)))).toBe(true);
  });
});

describe('test details and daily stats', () => {
  it('answer the history and the days of one test on one browser, with any title', async () => {
    const x = truth.tests.find((y) => y.kind === 'flaky-retry' && truth.tests.filter((z) => z.title === y.title).length === 1)!;
    const details = await get<Array<{ status: string; run_date: string; test_steps: string | null }>>(`/api/test-details/${encodeURIComponent(x.title)}/chromium?pageSize=200`);
    expect(details).toHaveLength(truth.runs.length);
    expect(details[0]!.run_date >= details.at(-1)!.run_date).toBe(true);
    const stats = await get<Array<{ date: string; pass_rate: number; total_runs: number }>>(
      `/api/flaky-tests/${encodeURIComponent(x.file)}/${encodeURIComponent(x.title)}/chromium/daily-stats`,
    );
    expect(stats.reduce((n, s) => n + s.total_runs, 0)).toBe(truth.runs.length);
    expect(stats.every((s) => s.pass_rate >= 0 && s.pass_rate <= 1)).toBe(true);

    const odd = truth.tests.find((y) => /[/#?%<]/.test(y.title) && truth.tests.filter((z) => z.title === y.title).length === 1);
    expect(odd).toBeDefined();
    const oddDetails = await get<unknown[]>(`/api/test-details/${encodeURIComponent(odd!.title)}/firefox?pageSize=200`);
    expect(oddDetails.length).toBe(truth.runs.length);
  });
});
