import { describe, expect, it } from 'vitest';
import type { BrowserEntry, FlakyTestGroup, TrendRecord } from '../../../../core/api/analytics.js';
import { browserTrend, flakyScoreOf, groupTrend, isCriticalTrend, parseFilter, trendSegments, worstBrowser } from './flaky-filter.js';

type Trend = Pick<TrendRecord, 'trend_direction' | 'trend_percentage'>;
const entry = (browser: string, pass_rate = 0.6, trend?: Trend): BrowserEntry => ({
  browser, pass_rate, final_pass_rate: pass_rate, total_runs: 10, failed_runs: 4, skipped_runs: 0, flaky_score: 40, attempts: 10, changes: 4, passed_on_retry: 0,
  trend_direction: trend?.trend_direction ?? null, trend_percentage: trend?.trend_percentage ?? null,
});
const group = (title: string, worst: number, browsers = ['chromium', 'firefox'], trends: Record<string, Trend> = {}): FlakyTestGroup => ({
  test_title: title,
  test_file: 'a.spec.ts',
  browsers: browsers.map((b) => entry(b, worst, trends[b])),
  worst_pass_rate: worst,
  total_runs_all_browsers: 20,
  total_failed_all_browsers: 8,
  highest_flaky_score: 40,
});
const trend = (trend_direction: TrendRecord['trend_direction'], trend_percentage: number): Trend => ({ trend_direction, trend_percentage });

describe('parseFilter', () => {
  it('accepts the seven severity query values and falls back to all', () => {
    for (const v of ['severe', 'moderate', 'minor', 'improving', 'declining', 'stable', 'new']) expect(parseFilter(v)).toBe(v);
    expect(parseFilter(null)).toBe('all');
    expect(parseFilter('critical')).toBe('all');
    expect(parseFilter('')).toBe('all');
  });
});

describe('the trends a page of groups carries', () => {
  const groups = [
    group('a', 0.6, ['chromium', 'firefox'], { chromium: trend('stable', 0), firefox: trend('improving', 7.1) }),
    group('b', 0.6, ['chromium', 'firefox'], { chromium: trend('declining', -42.9), firefox: trend('declining', -50) }),
    group('d', 0.6),
  ];

  it("reads each browser's trend off its entry, null without one", () => {
    expect(browserTrend(groups[0]!.browsers[1]!)).toEqual({ direction: 'improving', percentage: 7.1 });
    expect(browserTrend(groups[2]!.browsers[0]!)).toBeNull();
  });

  it('gives the worst direction with its furthest change as the overall trend, or null without trends', () => {
    expect(groupTrend(groups[0]!)).toEqual({ direction: 'improving', percentage: 7.1 });
    expect(groupTrend(groups[1]!)).toEqual({ direction: 'declining', percentage: -50 });
    expect(groupTrend(groups[2]!)).toBeNull();
    const improving = group('e', 0.6, ['chromium', 'edge', 'firefox'], { chromium: trend('improving', 42.9), edge: trend('improving', 50), firefox: trend('stable', 4) });
    expect(groupTrend(improving)).toEqual({ direction: 'improving', percentage: 50 });
  });

  it("gives a stable group its middle browser's change, so one browser does not set the sign the others lack", () => {
    // The demo's 'applies the product gallery': chromium +3.8, the other three -3.8.
    const oneUp = group('f', 0.5, ['chromium', 'edge', 'firefox', 'webkit'], { chromium: trend('stable', 3.8), edge: trend('stable', -3.8), firefox: trend('stable', -3.8), webkit: trend('stable', -3.8) });
    expect(groupTrend(oneUp)).toEqual({ direction: 'stable', percentage: -3.8 });
    const oneDown = group('g', 0.5, ['chromium', 'edge', 'firefox', 'webkit'], { chromium: trend('stable', 3.8), edge: trend('stable', 3.8), firefox: trend('stable', -3.8), webkit: trend('stable', 3.8) });
    expect(groupTrend(oneDown)).toEqual({ direction: 'stable', percentage: 3.8 });
    // Two against two: the lower of the middle two.
    const even = group('h', 0.5, ['chromium', 'edge', 'firefox', 'webkit'], { chromium: trend('stable', 3.8), edge: trend('stable', -2.2), firefox: trend('stable', -3.8), webkit: trend('stable', 2.2) });
    expect(groupTrend(even)).toEqual({ direction: 'stable', percentage: -2.2 });
  });

  it('keeps two tests of one title in one file apart: each group has its own trend', () => {
    const first = { ...group('same', 0.6, ['chromium'], { chromium: trend('declining', -20) }), test_id: 1 };
    const second = { ...group('same', 0.6, ['chromium'], { chromium: trend('improving', 20) }), test_id: 2 };
    expect(groupTrend(first)?.direction).toBe('declining');
    expect(groupTrend(second)?.direction).toBe('improving');
  });
});

describe('worstBrowser', () => {
  it('is the lowest pass rate, then the highest flaky score, then the first listed; null without browsers', () => {
    const g = group('w', 0.5, ['chromium', 'edge', 'firefox']);
    g.browsers[0]!.pass_rate = 0.52;
    g.browsers[2]!.flaky_score = 30;
    expect(worstBrowser(g)?.browser).toBe('edge');
    g.browsers[2]!.flaky_score = 60;
    expect(worstBrowser(g)?.browser).toBe('firefox');
    g.browsers[1]!.pass_rate = 0.3;
    expect(worstBrowser(g)?.browser).toBe('edge');
    expect(worstBrowser({ browsers: [] })).toBeNull();
  });
});

describe('trend bar', () => {
  it('has ceil(abs/10) segments, at most 5', () => {
    expect(trendSegments(0)).toBe(0);
    expect(trendSegments(0.1)).toBe(1);
    expect(trendSegments(10)).toBe(1);
    expect(trendSegments(-10.1)).toBe(2);
    expect(trendSegments(50)).toBe(5);
    expect(trendSegments(-85.7)).toBe(5);
  });

  it('is critical when declining by more than 15', () => {
    expect(isCriticalTrend({ direction: 'declining', percentage: -15 })).toBe(false);
    expect(isCriticalTrend({ direction: 'declining', percentage: -15.1 })).toBe(true);
    expect(isCriticalTrend({ direction: 'improving', percentage: 40 })).toBe(false);
  });
});

describe('flakyScoreOf', () => {
  it('uses the score, else (1 - pass_rate) × total_runs', () => {
    expect(flakyScoreOf({ flaky_score: 42, pass_rate: 0.5, total_runs: 10 })).toBe(42);
    expect(flakyScoreOf({ flaky_score: 0, pass_rate: 0.5, total_runs: 10 })).toBe(0);
    expect(flakyScoreOf({ pass_rate: 0.75, total_runs: 8 })).toBe(2);
    expect(flakyScoreOf({ flaky_score: null, pass_rate: 0.5, total_runs: 10 })).toBe(5);
  });
});
