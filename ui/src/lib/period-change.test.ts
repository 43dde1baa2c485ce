import { describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../../core/api/analytics.js';
import { periodChangeCaption, periodChanges } from './period-change.js';

const answer = (previous: DashboardResponse['previous'], days = 30): DashboardResponse =>
  ({
    days,
    summary: [{ total_runs: 4, total_tests: 200, total_passed: 180, total_failed: 20, total_skipped: 0, avg_duration: 900, total_passed_on_retry: 5 }],
    flakyCount: 3,
    previous,
  }) as DashboardResponse;

describe('periodChanges', () => {
  it('compares with the previous window: points for the pass rate, percent for the others, absolute from 0', () => {
    const c = periodChanges(answer({ from: '2026-09-01', to: '2026-09-30', total_runs: 2, total_tests: 100, total_passed: 85, avg_duration: 1000, flaky_count: 0 }));
    expect(c.passRate).toEqual({ text: '+5.0 pts', good: true });
    expect(c.tests).toEqual({ text: '+100.0%', good: true });
    expect(c.avgDuration).toEqual({ text: '-10.0%', good: true });
    expect(c.flaky).toEqual({ text: '+3', good: false });
  });

  it("shows '—' with no previous period, and says why", () => {
    expect(periodChanges(answer(null)).passRate).toEqual({ text: '—', good: null });
    expect(periodChangeCaption(answer(null))).toMatch(/^No runs in the 30 days before/);
    expect(periodChangeCaption(answer(null, 0))).toMatch(/^All time/);
  });
});
