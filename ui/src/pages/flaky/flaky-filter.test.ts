import { describe, expect, it } from 'vitest';
import type { BrowserEntry, FlakyTestGroup, TrendRecord } from '../../../../core/api/analytics.js';
import { browserTrend, flakyScoreOf, groupTrend, isCriticalTrend, parseFilter, trendSegments, trendsOfPage } from './flaky-filter.js';

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
  const index = trendsOfPage(groups);

  it('indexes each browser with a trend, and none without', () => {
    expect(browserTrend(index, groups[0]!, 'firefox')).toEqual(trend('improving', 7.1));
    expect(browserTrend(index, groups[2]!, 'chromium')).toBeUndefined();
    expect(index.size).toBe(4);
  });

  it('gives the worst direction with its largest change as the overall trend, or null without trends', () => {
    expect(groupTrend(groups[0]!, index)).toEqual({ direction: 'improving', percentage: 7.1 });
    expect(groupTrend(groups[1]!, index)).toEqual({ direction: 'declining', percentage: -50 });
    expect(groupTrend(groups[2]!, index)).toBeNull();
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
