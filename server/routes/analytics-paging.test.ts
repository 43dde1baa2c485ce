import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flakySeverity } from '../../core/analytics/formulas.js';
import type { ErrorPattern, ErrorPatternsPage, FlakyTestGroup, FlakyTestsPage, Paged, SlowTest, SlowTestsPage, TestResultDetail } from '../../core/api/analytics.js';
import type { RecentUpload } from '../../core/api/uploads.js';
import { generateHistory } from '../demo/history.js';
import { buildTestApp, signIn, smallReport, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { FLAKY_TREND_PERIOD } from '../analytics/dashboard.js';
import { flakyGroups, flakyTrends } from '../analytics/flaky.js';
import { lastDays, today } from '../analytics/windows.js';
import { ingestValue } from '../ingest.js';

// Enough tests for several pages of each list; the reference answers come from the
// computations over the daily rollup that the paged SQL replaces (flakyGroups, flakyTrends).
const NOW = Date.parse('2026-11-20T18:00:00Z');
const OPTIONS = { seed: 23, runs: 40, days: 20, tests: 120, browsers: ['chromium', 'firefox', 'webkit'] as Array<'chromium' | 'firefox' | 'webkit'>, outageRuns: 1, endDate: NOW };

let t: TestApp;
let who: Signed;
let all: FlakyTestGroup[];

beforeAll(async () => {
  t = await buildTestApp({ now: () => NOW });
  who = await signIn(t.app, 'max');
  for (const run of generateHistory(OPTIONS)) await ingestValue(t.store, run.report, { fileName: run.fileName, approve: true });
  all = await flakyGroups(t.store, lastDays(0, NOW));
}, 180_000);
afterAll(() => t.close());

async function get<T>(url: string): Promise<{ body: T; total: string | undefined }> {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  expect([url, res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([url, 200, '']);
  return { body: res.json() as T, total: res.headers['x-total-count'] as string | undefined };
}

/** Every page of a paged call, in order. */
async function everyPage<T>(url: string, pageSize: number): Promise<{ items: T[]; totals: number[]; pages: number }> {
  const items: T[] = [];
  const totals: number[] = [];
  let pages = 0;
  for (let page = 1; ; page++) {
    const { body } = await get<Paged<T>>(`${url}${url.includes('?') ? '&' : '?'}page=${page}&pageSize=${pageSize}`);
    expect(body.items.length).toBeLessThanOrEqual(pageSize);
    expect([body.page, body.pageSize]).toEqual([page, pageSize]);
    totals.push(body.total);
    pages++;
    items.push(...body.items);
    if (body.items.length < pageSize) break;
  }
  return { items, totals, pages };
}

const key = (g: { test_file: string; test_title: string }) => `${g.test_file}\u0000${g.test_title}`;
// The paged list adds trend and last failure to the fields the full computation has.
const withoutExtras = (g: FlakyTestGroup) => ({ ...g, last_failure: undefined, test_id: undefined, owners: undefined, time_to_fix: undefined, browsers: g.browsers.map(({ trend_direction: _d, trend_percentage: _p, ...b }) => b) });
const byKey = (groups: FlakyTestGroup[]) => [...groups].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

describe('GET /api/flaky-tests, paged', () => {
  it('pages through exactly the groups the full computation finds, with the same figures, worst first', async () => {
    expect(all.length).toBeGreaterThan(25);
    const { items, totals, pages } = await everyPage<FlakyTestGroup>('/api/flaky-tests', 10);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(totals)).toEqual(new Set([all.length]));
    expect(byKey(items).map(withoutExtras)).toEqual(byKey(all).map((g) => ({ ...g, last_failure: undefined, test_id: undefined })));
    for (let i = 1; i < items.length; i++) expect(items[i]!.worst_pass_rate).toBeGreaterThanOrEqual(items[i - 1]!.worst_pass_rate);
    expect(items.every((g) => g.last_failure === null || !Number.isNaN(Date.parse(g.last_failure!)))).toBe(true);
  });

  it('keeps the bare list without page (docs/api.md#lists-and-paging), bounded, with the total in X-Total-Count', async () => {
    const { body, total } = await get<FlakyTestGroup[]>('/api/flaky-tests?pageSize=7');
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(7);
    expect(total).toBe(String(all.length));
    const first = await get<FlakyTestsPage>('/api/flaky-tests?page=1&pageSize=7');
    expect(body).toEqual(first.body.items);
    const unbounded = await get<FlakyTestGroup[]>('/api/flaky-tests');
    expect(unbounded.body).toHaveLength(Math.min(50, all.length));
  });

  it('counts the stat cards over every matching group, not the page', async () => {
    const { body } = await get<FlakyTestsPage>('/api/flaky-tests?page=1&pageSize=5');
    const severities = all.map((g) => flakySeverity(g.worst_pass_rate));
    expect(body.counts).toEqual({
      all: all.length,
      severe: severities.filter((s) => s === 'severe').length,
      moderate: severities.filter((s) => s === 'moderate').length,
      minor: severities.filter((s) => s === 'minor').length,
      critical: all.filter((g) => g.worst_pass_rate <= 0.5).length,
      // No CODEOWNERS and no owner annotations: every flaky test is unowned.
      unowned: all.length,
    });
    expect(body.browsers).toEqual(
      ['chromium', 'firefox', 'webkit'].map((browser) => ({ browser, count: all.filter((g) => g.browsers.some((b) => b.browser === browser)).length })).filter((b) => b.count > 0),
    );
    for (const severity of ['severe', 'moderate', 'minor'] as const) {
      const { items, totals } = await everyPage<FlakyTestGroup>(`/api/flaky-tests?severity=${severity}`, 50);
      expect(items.map(key).sort()).toEqual(all.filter((g) => flakySeverity(g.worst_pass_rate) === severity).map(key).sort());
      expect(totals[0]).toBe(items.length);
    }
    const critical = await everyPage<FlakyTestGroup>('/api/flaky-tests?critical=true', 50);
    expect(critical.items.map(key).sort()).toEqual(all.filter((g) => g.worst_pass_rate <= 0.5).map(key).sort());
  });

  it('searches title and file on the server, case-insensitively, and filters by browser', async () => {
    const word = all[0]!.test_title.split(/\s+/).find((w) => w.length >= 4)!;
    const search = word.toUpperCase();
    const expected = all.filter((g) => g.test_title.toLowerCase().includes(word.toLowerCase()) || g.test_file.toLowerCase().includes(word.toLowerCase()));
    const { items, totals } = await everyPage<FlakyTestGroup>(`/api/flaky-tests?search=${encodeURIComponent(search)}`, 50);
    expect(items.map(key).sort()).toEqual(expected.map(key).sort());
    expect(totals[0]).toBe(expected.length);
    const file = all[0]!.test_file.split('/').pop()!;
    const inFile = await everyPage<FlakyTestGroup>(`/api/flaky-tests?search=${encodeURIComponent(file)}`, 50);
    expect(inFile.items.length).toBeGreaterThan(0);
    expect(inFile.items.map(key).sort()).toEqual(all.filter((g) => g.test_file.includes(file) || g.test_title.includes(file)).map(key).sort());
    const none = await get<FlakyTestsPage>('/api/flaky-tests?page=1&search=no%20such%20test%20anywhere');
    expect([none.body.total, none.body.items, none.body.counts.all]).toEqual([0, [], 0]);

    const webkit = await everyPage<FlakyTestGroup>('/api/flaky-tests?browser=webkit', 50);
    expect(webkit.items.map(key).sort()).toEqual(all.filter((g) => g.browsers.some((b) => b.browser === 'webkit')).map(key).sort());
  });

  it('sorts by score, runs, pass rate and last failure, either way', async () => {
    const sorted = async (sort: string, order: string) => (await everyPage<FlakyTestGroup>(`/api/flaky-tests?sort=${sort}&order=${order}`, 200)).items;
    const check = async (sort: string, value: (g: FlakyTestGroup) => number) => {
      for (const order of ['asc', 'desc']) {
        const values = (await sorted(sort, order)).map(value);
        expect(values).toHaveLength(all.length);
        expect(values).toEqual([...values].sort((a, b) => (order === 'asc' ? a - b : b - a)));
      }
    };
    await check('score', (g) => g.highest_flaky_score);
    await check('runs', (g) => g.total_runs_all_browsers);
    await check('pass_rate', (g) => g.worst_pass_rate);
    const lastFailure = await sorted('last_failure', 'desc');
    const times = lastFailure.filter((g) => g.last_failure).map((g) => Date.parse(g.last_failure!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(await sorted('score', 'desc'))).not.toEqual(await sorted('runs', 'asc'));
  });

  it('filters by trend as the dashboard cards link (severity=declining …), and shows each browser’s trend', async () => {
    const records = await flakyTrends(t.store, FLAKY_TREND_PERIOD, today(NOW));
    for (const direction of ['declining', 'improving', 'stable', 'new'] as const) {
      const keys = new Set(records.filter((r) => r.trend_direction === direction).map((r) => `${key(r)}\u0000${r.browser}`));
      const expected = all.filter((g) => g.browsers.some((b) => keys.has(`${key(g)}\u0000${b.browser}`)));
      const viaSeverity = await everyPage<FlakyTestGroup>(`/api/flaky-tests?severity=${direction}`, 200);
      expect(viaSeverity.items.map(key).sort(), direction).toEqual(expected.map(key).sort());
      const viaTrend = await everyPage<FlakyTestGroup>(`/api/flaky-tests?trend=${direction}`, 200);
      expect(viaTrend.items).toEqual(viaSeverity.items);
      // The filter is the cards' own dimension: their counts stay those of every group.
      const { body } = await get<FlakyTestsPage>(`/api/flaky-tests?page=1&trend=${direction}`);
      expect([body.total, body.counts.all]).toEqual([expected.length, all.length]);
    }
    const { items } = await everyPage<FlakyTestGroup>('/api/flaky-tests', 200);
    const byRecord = new Map(records.map((r) => [`${key(r)}\u0000${r.browser}`, r]));
    let decorated = 0;
    for (const g of items) {
      for (const b of g.browsers) {
        const record = byRecord.get(`${key(g)}\u0000${b.browser}`);
        expect([b.trend_direction, b.trend_percentage]).toEqual([record?.trend_direction ?? null, record?.trend_percentage ?? null]);
        if (record) decorated++;
      }
    }
    expect(decorated).toBeGreaterThan(0);
  });

  it('answers a window of days from the daily rollup, as the full computation does', async () => {
    const { items } = await everyPage<FlakyTestGroup>('/api/flaky-tests?days=7', 200);
    const expected = await flakyGroups(t.store, lastDays(7, NOW));
    expect(expected.length).toBeGreaterThan(0);
    expect(byKey(items).map(withoutExtras)).toEqual(byKey(expected).map((g) => ({ ...g, last_failure: undefined, test_id: undefined })));
  });

  it('answers a window that holds every stored day as all time (the all-time rollup), with the same groups, figures and last failures', async () => {
    // 30 days of a 20-day history: every stored day.
    const month = await everyPage<FlakyTestGroup>('/api/flaky-tests?days=30', 200);
    const allTime = await everyPage<FlakyTestGroup>('/api/flaky-tests?days=0', 200);
    expect(month.items.length).toBe(all.length);
    expect(month.items).toEqual(allTime.items);
    expect(byKey(month.items).map(withoutExtras)).toEqual(byKey(await flakyGroups(t.store, lastDays(30, NOW))).map((g) => ({ ...g, last_failure: undefined, test_id: undefined })));
  });

  it('refuses what is not on the allow-lists, naming the parameter', async () => {
    for (const query of ['sort=title', 'order=sideways', 'pageSize=500', 'page=0', 'severity=urgent', 'trend=up']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/flaky-tests?${query}`, headers: who.headers });
      expect([query, res.statusCode]).toEqual([query, 400]);
      expect(res.json<{ error: string }>().error).toContain(query.split('=')[0]);
    }
  });
});

describe('GET /api/slow-tests and /api/error-patterns, paged', () => {
  it('pages the slow tests, slowest first, with the stat cards over all of them', async () => {
    const { items, totals } = await everyPage<SlowTest>('/api/slow-tests?days=0', 40);
    expect(items.length).toBe(totals[0]);
    expect(items.length).toBeGreaterThan(40);
    const averages = items.map((s) => s.avg_duration);
    expect(averages).toEqual([...averages].sort((a, b) => b - a));
    expect(new Set(items.map((s) => `${s.test_file} ${s.test_full_title} ${s.browser}`)).size).toBe(items.length);
    const { body } = await get<SlowTestsPage>('/api/slow-tests?days=0&page=2&pageSize=3');
    expect(body.items).toEqual(items.slice(3, 6));
    expect(body.counts).toEqual({ slow: averages.filter((a) => a > 10_000).length, very_slow: averages.filter((a) => a > 30_000).length });
    expect(body.counts.slow).toBeGreaterThan(0);
    // A window shorter than the history sums its days only.
    const week = await everyPage<SlowTest>('/api/slow-tests?days=7', 200);
    expect(week.items.reduce((n, s) => n + s.total_runs, 0)).toBeLessThan(items.reduce((n, s) => n + s.total_runs, 0));
    const bare = await get<SlowTest[]>('/api/slow-tests?days=0');
    expect([bare.body.length, bare.total]).toEqual([50, String(items.length)]);
  });

  it('pages the error patterns with the counts of every pattern, and bounds the affected tests listed', async () => {
    const { items, totals } = await everyPage<ErrorPattern>('/api/error-patterns?days=0', 4);
    expect(items.length).toBe(totals[0]);
    expect(items.length).toBeGreaterThan(4);
    const frequencies = items.map((p) => p.frequency);
    expect(frequencies).toEqual([...frequencies].sort((a, b) => b - a));
    const { body } = await get<ErrorPatternsPage>('/api/error-patterns?days=0&page=1&pageSize=2');
    expect(body.counts).toEqual({
      categories: new Set(items.map((p) => p.error_category)).size,
      failures: frequencies.reduce((a, b) => a + b, 0),
      browsers: new Set(items.flatMap((p) => p.affected_browsers.split(','))).size,
    });
    for (const p of items) {
      expect(p.affected_test_titles!.length).toBe(Math.min(20, p.affected_test_count));
      expect(p.affected_tests).toBe(p.affected_test_titles!.join(','));
    }
  });
});

describe('GET /api/test-details with file, paged', () => {
  it('separates tests that share a title by file, and pages the history newest first', async () => {
    const shared = all.find((g) => all.some((o) => o.test_title === g.test_title && o.test_file !== g.test_file));
    const g = shared ?? all[0]!;
    const browser = g.browsers[0]!.browser;
    const url = (file?: string) => `/api/test-details/${encodeURIComponent(g.test_title)}/${browser}${file ? `?file=${encodeURIComponent(file)}` : ''}`;
    const mine = await everyPage<TestResultDetail>(url(g.test_file), 7);
    expect(mine.items.length).toBe(mine.totals[0]);
    expect(mine.items.every((d) => d.test_file === g.test_file)).toBe(true);
    expect(mine.items.length).toBe(g.browsers[0]!.total_runs);
    const dates = mine.items.map((d) => d.run_date);
    expect(dates).toEqual([...dates].sort().reverse());
    const anyFile = await get<TestResultDetail[]>(`${url()}${'?'}pageSize=200`);
    expect(Number(anyFile.total)).toBeGreaterThanOrEqual(mine.items.length);
    if (shared) expect(new Set(anyFile.body.map((d) => d.test_file)).size).toBeGreaterThan(1);
    const bare = await get<TestResultDetail[]>(url(g.test_file));
    expect([bare.body.length, bare.total]).toEqual([Math.min(50, mine.items.length), String(mine.items.length)]);
  });
});

describe('GET /api/recent-uploads, paged', () => {
  it('pages the uploads newest first with the total, per status too', async () => {
    const { items, totals } = await everyPage<RecentUpload>('/api/recent-uploads', 15);
    expect(items.length).toBe(OPTIONS.runs);
    expect(totals[0]).toBe(OPTIONS.runs);
    expect(new Set(items.map((u) => u.id)).size).toBe(items.length);
    const uploaded = items.map((u) => u.timestamp);
    expect(uploaded).toEqual([...uploaded].sort().reverse());
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: who.headers, payload: { testResults: smallReport('paging pending') } });
    expect(res.statusCode).toBe(200);
    const pending = await get<Paged<RecentUpload>>('/api/recent-uploads?status=pending&page=1');
    expect([pending.body.total, pending.body.items.map((u) => u.status)]).toEqual([1, ['pending']]);
    const bare = await get<RecentUpload[]>('/api/recent-uploads?limit=5');
    expect([bare.body.length, bare.total]).toEqual([5, String(OPTIONS.runs + 1)]);
  });
});
