import { describe, expect, it } from 'vitest';
import type { TrendDay } from '../../../../core/api/analytics.js';
import { dayLabel, hasResults, newestFirst, trendRows, trendSummary } from './trend-summary.js';

const day = (date: string, total: number, passed: number, avg: number): TrendDay => ({ date, total_tests: total, passed, failed: total - passed, skipped: 0, avg_duration: avg });

describe('trend rows and summary', () => {
  const rows = trendRows([day('2026-11-02', 10, 5, 3000), day('2026-11-01', 20, 20, 1000)]);

  it('orders the chart days oldest first with a percent pass rate', () => {
    expect(rows.map((r) => [r.date, r.passRate])).toEqual([
      ['2026-11-01', 100],
      ['2026-11-02', 50],
    ]);
  });

  it('orders the breakdown newest first', () => {
    expect(newestFirst(rows).map((r) => r.date)).toEqual(['2026-11-02', '2026-11-01']);
  });

  it('sums the tests and computes the pass rate and duration over every result, as the dashboard', () => {
    expect(trendSummary(rows)).toEqual({ totalTests: 30, avgPassRate: 83.33333333333334, avgDuration: (10 * 3000 + 20 * 1000) / 30 });
  });

  it('leaves days without results out of the averages and gives them no pass rate', () => {
    const withQuietDay = trendRows([day('2026-11-01', 20, 20, 1000), day('2026-11-02', 0, 0, 0)]);
    expect(withQuietDay[1]!.passRate).toBeNull();
    expect(trendSummary(withQuietDay)).toEqual({ totalTests: 20, avgPassRate: 100, avgDuration: 1000 });
    expect(hasResults(withQuietDay)).toBe(true);
  });

  it('is zeros, and has no results, when no day has tests', () => {
    expect(trendSummary([])).toEqual({ totalTests: 0, avgPassRate: 0, avgDuration: 0 });
    expect(hasResults(trendRows([day('2026-11-01', 0, 0, 0)]))).toBe(false);
  });
});

describe('dayLabel', () => {
  it('formats the UTC calendar day whatever the zone', () => {
    expect(dayLabel('2026-11-01')).toContain('2026');
    expect(dayLabel('2026-11-01', 'short')).toMatch(/1/);
    expect(dayLabel('not a date')).toBe('not a date');
  });
});
