import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { riskScore, trendDirection, type TrendDirection } from '../../core/analytics/formulas.js';
import type { DashboardResponse, TrendListPage, TrendRecord } from '../../core/api/analytics.js';
import { generateHistory } from '../demo/history.js';
import { buildSqliteTestApp, signIn, type Signed, type SqliteTestApp } from '../../fixtures/testing/app.js';
import { ingestValue } from '../ingest.js';
import { scanTrend, scanWindow, type PairTrendCounts } from '../store/read/window-scan.js';
import { pairKey, trendFigures } from './pair-figures.js';
import { trendCountsOf } from './trend-rows.js';

// A big suite: 3,000 tests on 4 browsers in every report, 10 reports over 10 days (120,000
// results). Unbounded, its dashboard answer would list every flaky test (well over 1 MB).
const NOW = Date.parse('2026-11-20T18:00:00Z');
const DAY = 86_400_000;
const OPTIONS = { seed: 5, runs: 10, days: 10, tests: 3_000, outageRuns: 1, endDate: NOW };
const LIMIT_BYTES = 512 * 1024;

let t: SqliteTestApp;
let who: Signed;

beforeAll(async () => {
  t = await buildSqliteTestApp({ now: () => NOW });
  who = await signIn(t.app, 'max');
  for (const run of generateHistory(OPTIONS)) ingestValue(t.store, run.report, { fileName: run.fileName, approve: true });
}, 300_000);
afterAll(() => t.close());

async function get(url: string): Promise<{ body: string; headers: Record<string, unknown> }> {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return { body: res.body, headers: res.headers };
}

interface Pair {
  test_id: number;
  browser: string;
  runs: number;
  failed: number;
  passed: number;
  scoredPassed: number;
  scoredFailed: number;
  passedOnRetry: number;
  skipped: number;
  /** Results that passed on a retry, outage runs included. */
  rescued: number;
  /** Outcomes of the attempts in time order (1 passed as expected, 0 failed). */
  outcomes: number[];
}

const counted = new Map<string, ReadonlyMap<string, Readonly<Pair>>>();

/**
 * The oracle: flaky tests of a window counted from the raw results and attempts (not the
 * rollups), by docs/screens.md#flaky: a test on a browser that passed only on a retry or changed
 * between pass and fail at least twice, outage runs left out.
 */
function rawPairs(from: number, to: number): ReadonlyMap<string, Readonly<Pair>> {
  // The tests only read: a window's count, made once, serves every test that asks for it.
  const key = `${from} ${to}`;
  let pairs = counted.get(key);
  if (!pairs) counted.set(key, (pairs = countRawPairs(from, to)));
  return pairs;
}

function countRawPairs(from: number, to: number): Map<string, Pair> {
  const rows = t.store.sqlite
    .prepare(
      `SELECT r.test_id, r.browser, r.id, r.status, r.passed_on_retry, r.expected_status, runs.outage, a.status AS attempt
       FROM results r JOIN runs ON runs.id = r.run_id LEFT JOIN attempts a ON a.result_id = r.id
       WHERE r.started_at >= ? AND r.started_at < ? AND runs.status != 'rejected' AND runs.is_duplicate = 0
       ORDER BY r.test_id, r.browser, r.started_at, r.id, a.retry`,
    )
    .all(from * DAY, (to + 1) * DAY) as Array<{ test_id: number; browser: string; id: number; status: string; passed_on_retry: number; expected_status: string; outage: number; attempt: string | null }>;
  const pairs = new Map<string, Pair>();
  let lastResult = -1;
  for (const r of rows) {
    const key = `${r.test_id} ${r.browser}`;
    let p = pairs.get(key);
    if (!p) pairs.set(key, (p = { test_id: r.test_id, browser: r.browser, runs: 0, failed: 0, passed: 0, scoredPassed: 0, scoredFailed: 0, passedOnRetry: 0, skipped: 0, rescued: 0, outcomes: [] }));
    if (r.id !== lastResult) {
      lastResult = r.id;
      const failed = r.status === 'failed' || r.status === 'timedOut';
      p.runs++;
      if (failed) p.failed++;
      if (r.status === 'passed') p.passed++;
      if (r.status === 'skipped') p.skipped++;
      if (r.passed_on_retry) p.rescued++;
      if (!r.outage) {
        if (r.status === 'passed') p.scoredPassed++;
        if (failed) p.scoredFailed++;
        if (r.passed_on_retry) p.passedOnRetry++;
      }
    }
    if (!r.outage && r.attempt !== null && r.attempt !== 'skipped' && r.attempt !== 'interrupted') p.outcomes.push(r.attempt === r.expected_status ? 1 : 0);
  }
  return pairs;
}

const changes = (outcomes: number[]) => outcomes.filter((o, i) => i > 0 && o !== outcomes[i - 1]).length;
const passRate = (p: Pair) => p.scoredPassed / (p.scoredPassed + p.scoredFailed);
const isFlaky = (p: Pair) => p.scoredPassed + p.scoredFailed > 0 && (p.passedOnRetry > 0 || changes(p.outcomes) >= 2);
/** Failed every run that ran, every retry too: the definition read from the raw results. */
const isBroken = (p: Pair) => p.runs - p.skipped > 0 && p.failed === p.runs - p.skipped && p.rescued === 0;
const troubled = (p: Pair | undefined) => p !== undefined && (p.scoredFailed > 0 || p.passedOnRetry > 0);

function rawTrend(current: Pair | undefined, previous: Pair | undefined): TrendDirection | null {
  if (!troubled(current) && !troubled(previous)) return null;
  if (!current || current.scoredPassed + current.scoredFailed === 0) return null;
  const before = previous && previous.scoredPassed + previous.scoredFailed > 0 ? passRate(previous) : null;
  return trendDirection(passRate(current), before).direction;
}

describe('the dashboard of a big suite (120,000 results, 12,000 tests × browsers)', () => {
  const today = Math.floor(NOW / DAY);
  // 1 day of the 10 stored is read through the day index, the others in key order (window-scan.ts).
  // 7 days first: its two windows make the trend counts that days=0 and the trend list then reuse.
  for (const days of [7, 0, 3, 1]) {
    it(`days=${days}: answers under 512 KB, its totals equal a count over the raw rows`, async () => {
      const { body } = await get(`/api/dashboard?days=${days}`);
      expect(Buffer.byteLength(body)).toBeLessThan(LIMIT_BYTES);
      const d = JSON.parse(body) as DashboardResponse;

      const window = rawPairs(days === 0 ? 0 : today - days + 1, today);
      const flaky = [...window.values()].filter(isFlaky);
      expect(flaky.length).toBeGreaterThan(days === 1 ? 100 : 1_000);
      // Counted per test, as Flaky Tests groups them: a test flaky on several browsers is one.
      const tests = (pairs: Pair[]) => new Set(pairs.map((p) => p.test_id)).size;
      expect(d.flakyCount).toBe(tests(flaky));
      expect(d.flakyCount).toBeLessThan(flaky.length);
      expect(d.criticalFlakyCount).toBe(tests(flaky.filter((p) => passRate(p) <= 0.5)));
      expect(d.summary[0].total_tests).toBe([...window.values()].reduce((n, p) => n + p.runs, 0));
      expect(d.summary[0].total_passed).toBe([...window.values()].reduce((n, p) => n + p.passed, 0));
      expect(d.summary[0].total_passed_on_retry).toBe([...window.values()].reduce((n, p) => n + p.passedOnRetry, 0));
      expect(d.stored.runs).toBe(10);

      // 'vs previous period': the window of the same length before, by the same rules; none for all time.
      if (days === 0) expect(d.previous).toBeNull();
      else {
        const before = [...rawPairs(today - 2 * days + 1, today - days).values()];
        if (before.length === 0) expect(d.previous).toBeNull();
        else {
          expect(d.previous).toMatchObject({
            total_tests: before.reduce((n, p) => n + p.runs, 0),
            total_passed: before.reduce((n, p) => n + p.passed, 0),
            flaky_count: tests(before.filter(isFlaky)),
          });
          expect(d.previous!.total_runs).toBeGreaterThan(0);
        }
      }

      // Trend directions over the same set as the list: the window's flaky tests.
      const current = rawPairs(today - 6, today);
      const previous = rawPairs(today - 13, today - 7);
      const expected: Record<TrendDirection, Set<number>> = { declining: new Set(), improving: new Set(), stable: new Set(), new: new Set() };
      for (const p of flaky) {
        const key = `${p.test_id} ${p.browser}`;
        const direction = rawTrend(current.get(key), previous.get(key));
        if (direction) expected[direction].add(p.test_id);
      }
      expect(d.flakyTrendCounts).toEqual({ declining: expected.declining.size, improving: expected.improving.size, stable: expected.stable.size, new: expected.new.size });

      // The list: the 5 highest risk scores of all flaky tests; the critical list: the lowest pass rates.
      expect(d.flakyTests).toHaveLength(5);
      const risks = flaky.map((p) => riskScore(passRate(p), p.runs)).sort((a, b) => b - a);
      expect(d.flakyTests.map((f) => riskScore(f.pass_rate, f.total_runs))).toEqual(risks.slice(0, 5));
      const lowest = flaky.map(passRate).sort((a, b) => a - b);
      expect(d.criticalFlakyTests.map((f) => f.pass_rate)).toEqual(lowest.filter((r) => r <= 0.5).slice(0, 5));
      // Broken: failed every run it ran, counted per test; listed with the most failures first.
      const broken = [...window.values()].filter(isBroken);
      expect(broken.length).toBeGreaterThan(0);
      expect(d.brokenCount).toBe(tests(broken));
      expect(d.brokenTests.map((b) => b.failed_runs)).toEqual(broken.map((p) => p.failed).sort((a, b) => b - a).slice(0, 5));
      for (const b of d.brokenTests) expect(d.flakyTests.some((f) => f.test_file === b.test_file && f.test_title === b.test_title && f.browser === b.browser)).toBe(false);
      // Trend records for exactly the listed tests that have one.
      const listed = new Set([...d.flakyTests, ...d.criticalFlakyTests].map((f) => `${f.test_file} ${f.test_title} ${f.browser}`));
      expect(d.flakyTrends.every((r) => listed.has(`${r.test_file} ${r.test_title} ${r.browser}`))).toBe(true);
    });
  }

  it("the 7-day window and the one before give the trend scan's counts (the dashboard reads no third pass)", async () => {
    const current = { from: today - 6, to: today };
    const previous = { from: today - 13, to: today - 7 };
    const derived = trendCountsOf(await scanWindow(t.store, current), await scanWindow(t.store, previous));
    const scanned = await scanTrend(t.store, current, previous);
    const byKey = (rows: PairTrendCounts[]) => [...rows].sort((a, b) => a.test_id - b.test_id || (a.browser < b.browser ? -1 : 1));
    // The scan reads the tests ever troubled only (pair-totals.ts TROUBLED_TESTS): each of its
    // pairs has the windows' counts, and every pair it leaves out has no trend.
    expect(scanned.length).toBeGreaterThan(1_000);
    const derivedByKey = new Map(derived.map((r) => [pairKey(r), r]));
    for (const r of scanned) expect(derivedByKey.get(pairKey(r))).toEqual(r);
    const scannedKeys = new Set(scanned.map(pairKey));
    const left = derived.filter((r) => !scannedKeys.has(pairKey(r)));
    expect(left.length).toBeGreaterThan(0);
    expect(left.filter((r) => trendFigures(r) !== null)).toEqual([]);
    expect(byKey(derived).filter((r) => scannedKeys.has(pairKey(r)))).toEqual(byKey(scanned));
  });

  it('asks for more rows with limit, bounded at 100', async () => {
    const d = JSON.parse((await get('/api/dashboard?days=0&limit=40')).body) as DashboardResponse;
    expect(d.flakyTests).toHaveLength(40);
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard?limit=101', headers: who.headers });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/flaky-trends on a big suite', () => {
  it('answers a bounded first page without parameters, the total in X-Total-Count', async () => {
    const { body, headers } = await get('/api/flaky-trends');
    expect(Buffer.byteLength(body)).toBeLessThan(LIMIT_BYTES);
    const records = JSON.parse(body) as TrendRecord[];
    expect(records).toHaveLength(50);
    const total = Number(headers['x-total-count']);
    expect(total).toBeGreaterThan(1_000);
    // Worst change first.
    expect(records.map((r) => r.trend_percentage)).toEqual([...records.map((r) => r.trend_percentage)].sort((a, b) => a - b));
    expect((await get('/api/flaky-trends?period=7')).body).toBe(body);
  });

  it('pages through every record, counts only, one direction, one test', async () => {
    const counts = JSON.parse((await get('/api/flaky-trends?period=7&counts=true')).body) as TrendListPage;
    expect(counts.items).toEqual([]);
    const page = (n: number, extra = '') => get(`/api/flaky-trends?period=7&page=${n}&pageSize=200${extra}`).then((r) => JSON.parse(r.body) as TrendListPage);
    const first = await page(1);
    expect(first.total).toBe(counts.total);
    const all: TrendRecord[] = [];
    for (let n = 1; (n - 1) * 200 < first.total; n++) all.push(...(await page(n)).items);
    expect(all).toHaveLength(first.total);
    // Counted from the raw rows: a test (one identity, whatever its title) once per direction.
    const today = Math.floor(NOW / DAY);
    const current = rawPairs(today - 6, today);
    const previous = rawPairs(today - 13, today - 7);
    const seen: Record<TrendDirection, Set<number>> = { declining: new Set(), improving: new Set(), stable: new Set(), new: new Set() };
    let records = 0;
    for (const key of new Set([...current.keys(), ...previous.keys()])) {
      const direction = rawTrend(current.get(key), previous.get(key));
      if (!direction) continue;
      records++;
      seen[direction].add(Number(key.split(' ')[0]));
    }
    expect(first.total).toBe(records);
    expect(counts.counts).toEqual({ declining: seen.declining.size, improving: seen.improving.size, stable: seen.stable.size, new: seen.new.size });

    const declining = await page(1, '&direction=declining');
    expect(declining.items.every((r) => r.trend_direction === 'declining')).toBe(true);
    expect(declining.total).toBe(all.filter((r) => r.trend_direction === 'declining').length);

    const one = all[0]!;
    const ofOne = JSON.parse((await get(`/api/flaky-trends?file=${encodeURIComponent(one.test_file)}&test=${encodeURIComponent(one.test_title)}`)).body) as TrendRecord[];
    expect(ofOne).toEqual(all.filter((r) => r.test_file === one.test_file && r.test_title === one.test_title));
    const half = await t.app.inject({ method: 'GET', url: `/api/flaky-trends?file=${encodeURIComponent(one.test_file)}`, headers: who.headers });
    expect(half.statusCode).toBe(400);
  });
});
