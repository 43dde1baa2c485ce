import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHealth, isCriticalFlaky, passRatePercent } from '../core/analytics/formulas.js';
import type { DashboardResponse, FlakyTestsPage, TrendDay, TrendListPage, TrendRecord } from '../core/api/analytics.js';
import { generateHistory } from './demo/history.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../fixtures/testing/app.js';
import { browserRows } from '../ui/src/pages/browsers/browser-rows.js';
import { reportFigures } from '../ui/src/pages/report/report-figures.js';
import { ingestFile, ingestValue } from './ingest.js';

/**
 * One truth on every screen: the same data gives the same figures through every
 * call a screen reads (the dashboard, the report and Browser Analysis read /api/dashboard;
 * Flaky Tests /api/flaky-tests; its trends /api/flaky-trends; Trends /api/trends), for the
 * same window. A 60-day generated history (so a 30-day window has a previous one), the
 * project's own reports, and a test that fails its first attempt and passes its retry every run.
 */
const NOW = Date.parse('2026-11-20T18:00:00Z');
const DAY = 86_400_000;
const today = Math.floor(NOW / DAY);
const RETRIED = 'always passes on its retry';

let t: TestApp;
let who: Signed;

/** Fails the first attempt, passes the retry, on chromium and firefox. */
function retriedReport(startTime: string) {
  return {
    config: { version: '1.50.0', projects: [{ name: 'chromium' }, { name: 'firefox' }] },
    suites: [
      {
        title: 'retry.spec.ts',
        file: 'retry.spec.ts',
        specs: [
          {
            title: RETRIED,
            file: 'retry.spec.ts',
            line: 3,
            column: 5,
            tests: ['chromium', 'firefox'].map((projectName) => ({
              projectName,
              expectedStatus: 'passed',
              status: 'flaky',
              results: [
                { status: 'failed', retry: 0, duration: 900, startTime, error: { message: 'Error: expect(locator).toBeVisible() failed' } },
                { status: 'passed', retry: 1, duration: 700, startTime },
              ],
            })),
          },
        ],
      },
    ],
    errors: [],
    stats: { startTime, duration: 2000, expected: 0, unexpected: 0, flaky: 2, skipped: 0 },
  };
}

beforeAll(async () => {
  t = await buildTestApp({ now: () => NOW });
  who = await signIn(t.app, 'max');
  for (const run of generateHistory({ seed: 15, runs: 40, days: 60, tests: 40, outageRuns: 1, endDate: NOW })) {
    await ingestValue(t.store, run.report, { fileName: run.fileName, approve: true });
  }
  const own = join(import.meta.dirname, '../fixtures/reports/own');
  for (const name of readdirSync(own).filter((n) => n.endsWith('.json'))) await ingestFile(t.store, join(own, name), { fileName: name, approve: true });
  for (const daysAgo of [1, 4, 9]) {
    const start = new Date(NOW - daysAgo * DAY).toISOString();
    await ingestValue(t.store, retriedReport(start), { fileName: `retried-${daysAgo}.json`, approve: true });
  }
}, 300_000);
afterAll(() => t.close());

async function get<T>(url: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return res.json() as T;
}

const flakyPage = (days: number, query = '') => get<FlakyTestsPage>(`/api/flaky-tests?days=${days}&page=1&pageSize=200${query}`);

describe('the same figures on every screen, for the same window', () => {
  for (const days of [7, 30, 0]) {
    it(`days=${days}: flaky and critical counts, pass rates and trend cards agree between the dashboard and Flaky Tests`, async () => {
      const d = await get<DashboardResponse>(`/api/dashboard?days=${days}&limit=100`);
      const list = await flakyPage(days);
      expect(d.flakyCount).toBeGreaterThan(0);
      // One flaky count: tests, not tests × browsers.
      expect(d.flakyCount).toBe(list.counts.all);
      expect(list.total).toBe(list.counts.all);
      // One critical rule (pass rate 0.5 or less): the alert's and report's count is the Critical card's.
      expect(d.criticalFlakyCount).toBe(list.counts.critical);
      expect(d.criticalFlakyCount).toBe(list.counts.severe);
      expect(list.items.filter((g) => isCriticalFlaky(g.worst_pass_rate))).toHaveLength(list.counts.critical);

      // Worst pass rate: the dashboard's worst critical test is the list's first by pass rate.
      const worst = list.items.reduce((min, g) => Math.min(min, g.worst_pass_rate), 1);
      if (d.criticalFlakyTests.length > 0) expect(d.criticalFlakyTests[0]!.pass_rate).toBe(worst);

      // Each listed test's figures are the same entry on the flaky screen.
      for (const f of [...d.flakyTests, ...d.criticalFlakyTests]) {
        const group = list.items.find((g) => g.test_title === f.test_title && g.test_file === f.test_file);
        const entry = group?.browsers.find((b) => b.browser === f.browser);
        expect(entry, `${f.test_title} on ${f.browser}`).toBeDefined();
        expect([entry!.pass_rate, entry!.final_pass_rate, entry!.total_runs, entry!.failed_runs, entry!.flaky_score]).toEqual([
          f.pass_rate,
          f.final_pass_rate,
          f.total_runs,
          f.failed_runs,
          f.flaky_score,
        ]);
      }

      // Each trend card's count is what its link lists.
      for (const direction of ['declining', 'improving', 'stable', 'new'] as const) {
        const filtered = await flakyPage(days, `&severity=${direction}`);
        expect([direction, d.flakyTrendCounts[direction]]).toEqual([direction, filtered.total]);
      }

      // The trend records the dashboard shows are those of /api/flaky-trends.
      const trends: TrendRecord[] = [];
      for (let page = 1; ; page++) {
        const answer = await get<TrendListPage>(`/api/flaky-trends?page=${page}&pageSize=200`);
        trends.push(...answer.items);
        if (trends.length >= answer.total || answer.items.length === 0) break;
      }
      const key = (r: { test_file: string; test_title: string; browser: string }) => `${r.test_file}\u0000${r.test_title}\u0000${r.browser}`;
      const byKey = new Map(trends.map((r) => [key(r), r]));
      for (const record of d.flakyTrends) expect(byKey.get(key(record))).toEqual(record);
    });
  }

  it('browser health, pass rate and average duration agree between the dashboard, the report, Browser Analysis and Trends', async () => {
    const d = await get<DashboardResponse>('/api/dashboard?days=30');
    const s = d.summary[0];
    // Browser Analysis and the report label each browser from the same pass rate.
    const report = reportFigures(d);
    const analysis = browserRows(d.browserComparison);
    expect(report.browsers.map((b) => [b.browser, browserHealth(b.passRate)])).toEqual(analysis.map((b) => [b.browser, b.health]));
    expect(analysis.reduce((n, b) => n + b.total, 0)).toBe(s.total_tests);
    expect(analysis.reduce((n, b) => n + b.passed, 0)).toBe(s.total_passed);
    // The report's pass rate and average duration are the dashboard's.
    expect(report.passRate).toBe(passRatePercent(s.total_passed, s.total_tests));
    expect(report.avgDuration).toBe(s.avg_duration);

    // Trends (its window is 30 days): the same totals and the same average duration per test that ran.
    const days = await get<TrendDay[]>('/api/trends');
    expect(days.reduce((n, day) => n + day.total_tests, 0)).toBe(s.total_tests);
    expect(days.reduce((n, day) => n + day.passed, 0)).toBe(s.total_passed);
    const ran = days.reduce((n, day) => n + day.total_tests - day.skipped, 0);
    const weighted = days.reduce((n, day) => n + day.avg_duration * (day.total_tests - day.skipped), 0) / ran;
    expect(s.avg_duration).toBeCloseTo(weighted, 6);
  });

  it("the previous period is the 30 days before, counted from the raw results; '—' for all time", async () => {
    const d = await get<DashboardResponse>('/api/dashboard?days=30');
    const from = (today - 59) * DAY;
    const to = (today - 29) * DAY;
    const raw = (await t.store.sql.get(
      `SELECT count(*) AS tests, sum(CASE WHEN r.status = 'passed' THEN 1 ELSE 0 END) AS passed,
         avg(CASE WHEN r.status != 'skipped' THEN r.duration_ms END) AS avg_duration, count(DISTINCT r.run_id) AS runs
       FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.status != 'rejected' AND runs.is_duplicate = 0 AND r.started_at >= @from AND r.started_at < @to`,
      { from, to },
    )) as { tests: number; passed: number; avg_duration: number; runs: number };
    expect(raw.tests).toBeGreaterThan(0);
    expect(d.previous).toMatchObject({ from: '2026-09-22', to: '2026-10-21', total_tests: raw.tests, total_passed: raw.passed });
    expect(d.previous!.avg_duration).toBeCloseTo(raw.avg_duration, 6);
    expect(d.previous!.flaky_count).toBeGreaterThan(0);
    expect((await get<DashboardResponse>('/api/dashboard?days=0')).previous).toBeNull();
    // 60 days back and beyond, nothing is stored: no previous period to compare with.
    expect((await get<DashboardResponse>('/api/dashboard?days=90')).previous).toBeNull();
  });

  it('a test that fails its first attempt and passes its retry every run: 0 % first, 100 % after retries, on both screens', async () => {
    const d = await get<DashboardResponse>('/api/dashboard?days=30&limit=100');
    const listed = d.criticalFlakyTests.filter((f) => f.test_title === RETRIED);
    const list = await flakyPage(30, `&search=${encodeURIComponent(RETRIED)}`);
    const entries = list.items.find((g) => g.test_title === RETRIED)!.browsers;
    expect(entries.map((e) => [e.browser, e.pass_rate, e.final_pass_rate, e.passed_on_retry])).toEqual([
      ['chromium', 0, 1, 3],
      ['firefox', 0, 1, 3],
    ]);
    expect(listed.map((f) => [f.browser, f.pass_rate, f.final_pass_rate])).toEqual(
      expect.arrayContaining([
        ['chromium', 0, 1],
        ['firefox', 0, 1],
      ]),
    );
    expect(d.summary[0].total_passed_on_retry).toBeGreaterThanOrEqual(6);
  });

  it('an empty window says how many runs are stored and when the newest ran', async () => {
    const empty = await buildTestApp({ now: () => NOW + 400 * DAY });
    try {
      const signed = await signIn(empty.app, 'max');
      await ingestValue(empty.store, retriedReport(new Date(NOW).toISOString()), { fileName: 'old.json', approve: true });
      const res = await empty.app.inject({ method: 'GET', url: '/api/dashboard?days=30', headers: signed.headers });
      const d = res.json() as DashboardResponse;
      expect(d.summary[0].total_tests).toBe(0);
      expect(d.stored).toEqual({ runs: 1, newest: new Date(NOW).toISOString(), oldest: new Date(NOW).toISOString() });
    } finally {
      await empty.close();
    }
  });
});
