import { describe, expect, it } from 'vitest';
import type { BrowserEntry, FlakyTestGroup, TrendRecord } from '../../../../core/api/analytics.js';
import { flakyScoreOf, groupTrend, indexTrends, isCriticalTrend, matchesFilter, parseFilter, severityCounts, trendSegments } from './flaky-filter.js';

const entry = (browser: string, pass_rate = 0.6): BrowserEntry => ({ browser, pass_rate, total_runs: 10, failed_runs: 4, skipped_runs: 0, flaky_score: 40, attempts: 10, changes: 4, passed_on_retry: 0 });
const group = (title: string, worst: number, browsers = ['chromium', 'firefox']): FlakyTestGroup => ({
  test_title: title,
  test_file: 'a.spec.ts',
  browsers: browsers.map((b) => entry(b, worst)),
  worst_pass_rate: worst,
  total_runs_all_browsers: 20,
  total_failed_all_browsers: 8,
  highest_flaky_score: 40,
});
const record = (title: string, browser: string, trend_direction: TrendRecord['trend_direction'], trend_percentage: number): TrendRecord => ({
  test_file: 'a.spec.ts',
  test_title: title,
  browser,
  trend_direction,
  trend_percentage,
  pass_rate: 0.5,
  previous_pass_rate: 0.5,
  period_start: '2026-11-14',
  period_end: '2026-11-20',
});

describe('parseFilter', () => {
  it('accepts the seven severity query values and falls back to all', () => {
    for (const v of ['severe', 'moderate', 'minor', 'improving', 'declining', 'stable', 'new']) expect(parseFilter(v)).toBe(v);
    expect(parseFilter(null)).toBe('all');
    expect(parseFilter('critical')).toBe('all');
    expect(parseFilter('')).toBe('all');
  });
});

describe('severity filters and counts', () => {
  const groups = [group('a', 0.49), group('b', 0.5), group('c', 0.79), group('d', 0.8), group('e', 1)];
  it('splits by worst pass rate at 0.5 and 0.8', () => {
    expect(severityCounts(groups)).toEqual({ all: 5, severe: 1, moderate: 2, minor: 2 });
    const index = indexTrends([]);
    expect(groups.filter((g) => matchesFilter(g, 'severe', index)).map((g) => g.test_title)).toEqual(['a']);
    expect(groups.filter((g) => matchesFilter(g, 'moderate', index)).map((g) => g.test_title)).toEqual(['b', 'c']);
    expect(groups.filter((g) => matchesFilter(g, 'minor', index)).map((g) => g.test_title)).toEqual(['d', 'e']);
    expect(groups.filter((g) => matchesFilter(g, 'all', index))).toHaveLength(5);
  });
});

describe('trend filters and the overall trend', () => {
  const index = indexTrends([record('a', 'chromium', 'stable', 0), record('a', 'firefox', 'improving', 7.1), record('b', 'chromium', 'declining', -42.9), record('b', 'firefox', 'declining', -50), record('c', 'webkit', 'new', 0)]);
  const groups = [group('a', 0.6), group('b', 0.6), group('c', 0.6), group('d', 0.6)];

  it('keeps a group when any browser has the direction', () => {
    expect(groups.filter((g) => matchesFilter(g, 'stable', index)).map((g) => g.test_title)).toEqual(['a']);
    expect(groups.filter((g) => matchesFilter(g, 'improving', index)).map((g) => g.test_title)).toEqual(['a']);
    expect(groups.filter((g) => matchesFilter(g, 'declining', index)).map((g) => g.test_title)).toEqual(['b']);
    // c's record is for webkit, which is not one of its browsers.
    expect(groups.filter((g) => matchesFilter(g, 'new', index))).toEqual([]);
  });

  it('is the worst direction with its largest change, or null without records', () => {
    expect(groupTrend(groups[0]!, index)).toEqual({ direction: 'improving', percentage: 7.1 });
    expect(groupTrend(groups[1]!, index)).toEqual({ direction: 'declining', percentage: -50 });
    expect(groupTrend(groups[3]!, index)).toBeNull();
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
