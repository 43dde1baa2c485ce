import { describe, expect, it } from 'vitest';
import { FIXED_AFTER_RUNS, episodeDays, flakeEpisodes, isFlakeDay, medianTimeToFix, browserHealth, flakyScore, flakySeverity, isBroken, isCriticalFlaky, isThinPreviousWindow, finalPassRateFraction, periodChange, formatDuration, passRateFraction, passRatePercent, performanceLevel, qualityLevel, qualityScore, riskLevel, riskScore, trendAnalysis, trendDirection, worstTrend } from './formulas.js';

describe('every formula of docs/screens.md at its boundaries', () => {
  it('quality level at 90, 80, 70 and 60', () => {
    expect([90, 89.99, 80, 79.99, 70, 69.99, 60, 59.99].map(qualityLevel)).toEqual(['Excellent', 'Good', 'Good', 'Fair', 'Fair', 'Poor', 'Poor', 'Critical']);
  });

  it('quality score: pass rate less flaky impact capped at 20, clamped to 0..100', () => {
    expect(qualityScore(95, 5, 100)).toBe(90);
    expect(qualityScore(95, 50, 100)).toBe(75);
    expect(qualityScore(10, 50, 100)).toBe(0);
    expect(qualityScore(100, 0, 0)).toBe(100);
  });

  it('severity at 0.5 and 0.8: 0.5 is critical (severe), as the health alert and the report count it', () => {
    expect([0.8, 0.7999, 0.5001, 0.5, 0.4999].map(flakySeverity)).toEqual(['minor', 'moderate', 'moderate', 'severe', 'severe']);
    expect([0.5, 0.5001].map(isCriticalFlaky)).toEqual([true, false]);
  });

  it('broken: every run that ran failed and no retry rescued one; skipped runs do not count', () => {
    expect(isBroken(5, 5, 0)).toBe(true);
    expect(isBroken(5, 4, 0)).toBe(false);
    expect(isBroken(5, 5, 1)).toBe(false);
    expect(isBroken(0, 0, 0)).toBe(false);
  });

  it('risk score and levels at 15, 8 and 4', () => {
    expect(riskScore(0.5, 3)).toBe(15);
    expect(riskScore(0.9, 10)).toBe(10);
    expect([15, 14, 8, 7, 4, 3].map(riskLevel)).toEqual(['critical', 'high', 'high', 'medium', 'medium', 'low']);
  });

  it('trend direction at ±5 percentage points; no previous period is new', () => {
    expect(trendDirection(0.85, 0.9)).toEqual({ direction: 'declining', percentage: -5 });
    expect(trendDirection(0.86, 0.9)).toEqual({ direction: 'stable', percentage: -4 });
    expect(trendDirection(0.95, 0.9)).toEqual({ direction: 'improving', percentage: 5 });
    expect(trendDirection(0.5, null)).toEqual({ direction: 'new', percentage: 0 });
    expect(worstTrend(['stable', 'new', 'improving'])).toBe('improving');
    expect(worstTrend(['stable', 'declining'])).toBe('declining');
    expect(worstTrend(['stable', 'new'])).toBe('new');
  });

  it('performance level at 5, 15 and 30 seconds; duration text', () => {
    expect([4999, 5000, 14999, 15000, 29999, 30000].map(performanceLevel)).toEqual(['Fast', 'Medium', 'Medium', 'Slow', 'Slow', 'Very Slow']);
    expect([999, 1000, 59999, 60000, 90000].map(formatDuration)).toEqual(['999ms', '1.0s', '60.0s', '1.0m', '1.5m']);
  });

  it('browser health at 90, 80, 70', () => {
    expect([90, 89.9, 80, 79.9, 70, 69.9].map(browserHealth)).toEqual(['excellent', 'good', 'good', 'warning', 'warning', 'critical']);
  });

  it('pass rates: percent of all, fraction of those that ran', () => {
    expect(passRatePercent(45, 50)).toBe(90);
    expect(passRatePercent(0, 0)).toBe(0);
    expect(passRateFraction(8, 12, 2)).toBe(0.8);
  });

  it('flaky score counts pass/fail changes among attempts', () => {
    expect(flakyScore(0, 10)).toBe(0);
    expect(flakyScore(1, 10)).toBe(11);
    expect(flakyScore(9, 10)).toBe(100);
    expect(flakyScore(0, 1)).toBe(0);
  });

  it('trend analysis: slope over ±0.5 per day, volatility under 10 and 20, recent 7 days', () => {
    expect(trendAnalysis([50, 60, 70, 80])).toMatchObject({ slope: 10, direction: 'Improving' });
    expect(trendAnalysis([80, 80, 80])).toMatchObject({ slope: 0, direction: 'Stable', volatility: 0, volatilityLevel: 'Low', recent: 80 });
    expect(trendAnalysis([100, 70, 100, 70]).volatilityLevel).toBe('Moderate');
    expect(trendAnalysis([100, 50, 100, 50]).volatilityLevel).toBe('High');
    expect(trendAnalysis([0, 0, 100, 100, 100, 100, 100, 100, 100]).recent).toBe(100);
  });

  it('final pass rate counts passes on a retry; period changes in points, percent or absolute from 0', () => {
    expect(finalPassRateFraction(0, 10, 10)).toBe(1);
    expect(finalPassRateFraction(3, 2, 10)).toBe(0.5);
    expect(finalPassRateFraction(0, 0, 0)).toBe(0);
    expect(periodChange(92.5, 90, 'points')).toEqual({ value: 2.5, unit: 'pts' });
    expect(periodChange(110, 100, 'relative')).toEqual({ value: 10, unit: '%' });
    expect(periodChange(3, 0, 'relative')).toEqual({ value: 3, unit: 'abs' });
    expect(periodChange(3, null, 'relative')).toBeNull();
  });

  it('a count against a thin previous window (under 20 tests, or under a tenth of this one) is new, not thousands of percent', () => {
    expect(isThinPreviousWindow(14160, 240)).toBe(true);
    expect(isThinPreviousWindow(14160, 1416)).toBe(false);
    expect(isThinPreviousWindow(100, 19)).toBe(true);
    expect(isThinPreviousWindow(15, 20)).toBe(false);
    expect(isThinPreviousWindow(0, 0)).toBe(true);
    // The demo's first dashboard: 14 160 tests against 240, 14 flaky against 3.
    expect(periodChange(14160, 240, 'count', { current: 14160, previous: 240 })).toEqual({ value: null, unit: 'new' });
    expect(periodChange(14, 3, 'count', { current: 14160, previous: 240 })).toEqual({ value: null, unit: 'new' });
    // A comparable window: the relative change, and from 0 the absolute one.
    expect(periodChange(14, 7, 'count', { current: 14160, previous: 12000 })).toEqual({ value: 100, unit: '%' });
    expect(periodChange(3, 0, 'count', { current: 14160, previous: 12000 })).toEqual({ value: 3, unit: 'abs' });
    // Rates and averages do not grow with the volume: compared even against a thin window.
    expect(periodChange(82.6, 86.7, 'points')).toEqual({ value: -4.1, unit: 'pts' });
    expect(periodChange(5600, 5000, 'relative')).toEqual({ value: 12, unit: '%' });
  });
});

describe('time to fix', () => {
  const day = (d: number, runs: number, flaked = false) => ({ day: d, runs, flaked });

  it('an episode is fixed on the day the runs after its last flake reach FIXED_AFTER_RUNS; the flake day\'s own runs do not count', () => {
    expect(FIXED_AFTER_RUNS).toBe(20);
    expect(flakeEpisodes([day(1, 30, true), day(2, 19), day(3, 1)])).toEqual([{ firstFlakeDay: 1, lastFlakeDay: 1, fixedDay: 3 }]);
    expect(flakeEpisodes([day(1, 5, true), day(2, 19)])).toEqual([{ firstFlakeDay: 1, lastFlakeDay: 1, fixedDay: null }]);
  });

  it('a flake before the fix extends the episode; one after it opens the next', () => {
    const episodes = flakeEpisodes([day(0, 5, true), day(1, 10), day(2, 5, true), day(3, 20), day(9, 3, true), day(10, 4)]);
    expect(episodes).toEqual([
      { firstFlakeDay: 0, lastFlakeDay: 2, fixedDay: 3 },
      { firstFlakeDay: 9, lastFlakeDay: 9, fixedDay: null },
    ]);
    expect(episodes.map((e) => episodeDays(e, 12))).toEqual([3, 3]);
    expect(flakeEpisodes([day(0, 9), day(1, 9)])).toEqual([]);
  });

  it('the median over the episodes fixed inside the window, the mean of the middle two for an even count', () => {
    const fixed = (first: number, fixedDay: number | null) => ({ firstFlakeDay: first, lastFlakeDay: first, fixedDay });
    const episodes = [fixed(0, 2), fixed(0, 10), fixed(5, 9), fixed(1, 30), fixed(3, null)];
    expect(medianTimeToFix(episodes, 0, 20)).toBe(4);
    expect(medianTimeToFix(episodes, 9, 10)).toBe(7);
    expect(medianTimeToFix(episodes, 11, 20)).toBeNull();
    expect(isFlakeDay(0, 0)).toBe(false);
    expect([isFlakeDay(1, 0), isFlakeDay(0, 1)]).toEqual([true, true]);
  });
});
