import { describe, expect, it } from 'vitest';
import type { DashboardResponse, FlakyTestSummary } from '../../../../core/api/analytics.js';
import { browserTone, reportFigures, reportId, scoreTone } from './report-figures.js';

const flaky = (pass_rate: number): FlakyTestSummary => ({ test_title: `t${pass_rate}`, test_file: 'a.spec.ts', browser: 'chromium', pass_rate, final_pass_rate: pass_rate, passed_on_retry: 0, failed_runs: 1, total_runs: 2, flaky_score: 50 });

const data: DashboardResponse = {
  days: 30,
  summary: [{ total_runs: 4, total_tests: 200, total_passed: 180, total_failed: 15, total_skipped: 5, avg_duration: 1200, total_passed_on_retry: 0 }],
  browserComparison: [
    { browser: 'chromium', passed: 96, failed: 4, skipped: 0, total: 100, avg_duration: 1000 },
    { browser: 'firefox', passed: 84, failed: 11, skipped: 5, total: 100, avg_duration: 1400 },
  ],
  flakyTests: [flaky(0.9), flaky(0.5), flaky(0.3)],
  recentRuns: [],
  slowTests: [],
  flakyTrends: [],
  flakyCount: 3,
  criticalFlakyCount: 2,
  criticalFlakyTests: [flaky(0.3), flaky(0.5)],
  brokenCount: 1,
  brokenTests: [{ test_title: 'always red', test_file: 'b.spec.ts', browser: 'chromium', failed_runs: 4, skipped_runs: 0 }],
  flakyTrendCounts: { declining: 0, improving: 0, stable: 0, new: 0 },
  previous: null,
  stored: { runs: 4, newest: '2026-11-20T10:00:00.000Z', oldest: '2026-11-01T10:00:00.000Z' },
};

describe('reportFigures', () => {
  const f = reportFigures(data);
  it('carries the tests that failed every run apart from the flaky ones', () => {
    expect([f.brokenCount, f.broken.map((t) => t.test_title)]).toEqual([1, ['always red']]);
  });

  it('scores the pass rate less the flaky impact', () => {
    // 90 − min(3 / 200 × 100, 20) = 88.5
    expect([f.passRate, f.flakyCount, f.score, f.level, f.scoreTone]).toEqual([90, 3, 88.5, 'Good', 'medium']);
  });
  it('estimates half an hour per flaky test, 800 per critical test and half the flaky count in days', () => {
    expect(f.devHoursLostPerWeek).toBe(1.5);
    expect(f.critical.map((t) => t.pass_rate)).toEqual([0.3, 0.5]);
    expect(f.costPerWeek).toBe(1600);
    expect(f.fixDays).toBe(2);
  });
  it('counts flaky and critical tests from the totals when the answer lists only a few', () => {
    const big = reportFigures({ ...data, flakyCount: 120, criticalFlakyCount: 30 });
    expect([big.flakyCount, big.criticalCount, big.costPerWeek, big.fixDays, big.devHoursLostPerWeek]).toEqual([120, 30, 24_000, 60, 60]);
  });
  it('colours browsers at 95 and 90 and flags a failure share over 10 percent', () => {
    expect(f.browsers.map((b) => [b.browser, b.tone, b.issue])).toEqual([
      ['chromium', 'good', false],
      ['firefox', 'bad', true],
    ]);
  });
  it('copes with an empty period', () => {
    const empty = reportFigures({ ...data, summary: [{ total_runs: 0, total_tests: 0, total_passed: 0, total_failed: 0, total_skipped: 0, avg_duration: 0, total_passed_on_retry: 0 }], flakyTests: [], flakyCount: 0, criticalFlakyCount: 0, criticalFlakyTests: [], brokenCount: 0, brokenTests: [], browserComparison: [] });
    expect([empty.passRate, empty.score, empty.fixDays, empty.costPerWeek]).toEqual([0, 0, 0, 0]);
  });
});

describe('tones and id', () => {
  it('uses the report thresholds', () => {
    expect([scoreTone(90), scoreTone(75), scoreTone(74.9)]).toEqual(['good', 'medium', 'bad']);
    expect([browserTone(95), browserTone(90), browserTone(89.9)]).toEqual(['good', 'medium', 'bad']);
  });
  it('derives the id from the date and the period', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(reportId(30, now)).toBe('QR-20261121-30D');
    expect(reportId(0, now)).toBe('QR-20261121-ALL');
  });
});
