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
    expect(periodChangeCaption(answer({ from: '2026-09-01', to: '2026-09-30', total_runs: 2, total_tests: 100, total_passed: 85, avg_duration: 1000, flaky_count: 0 }))).toBe(
      'Changes compare with the previous 30 days (2026-09-01 to 2026-09-30); pass rate in percentage points.',
    );
    expect(c.passRate).toEqual({ text: '+5.0 pts', good: true });
    expect(c.tests).toEqual({ text: '+100.0%', good: true });
    expect(c.avgDuration).toEqual({ text: '-10.0%', good: true });
    expect(c.flaky).toEqual({ text: '+3', good: false });
  });

  it("shows the counts as 'new' against a window that barely ran, and says why; rates are still compared", () => {
    const thin = answer({ from: '2026-09-01', to: '2026-09-30', total_runs: 1, total_tests: 12, total_passed: 12, avg_duration: 800, flaky_count: 1 });
    const c = periodChanges(thin);
    expect(c.tests).toEqual({ text: 'new', good: null });
    expect(c.flaky).toEqual({ text: 'new', good: null });
    expect(c.passRate).toEqual({ text: '-10.0 pts', good: false });
    expect(c.avgDuration).toEqual({ text: '+12.5%', good: false });
    expect(periodChangeCaption(thin)).toBe(
      "Changes compare with the previous 30 days (2026-09-01 to 2026-09-30); pass rate in percentage points. That window ran only 12 tests, too few to compare counts with: they show 'new'.",
    );
    // Under a tenth of this window's 200 tests is thin too; a tenth exactly is not.
    expect(periodChanges(answer({ from: '2026-09-01', to: '2026-09-30', total_runs: 1, total_tests: 19, total_passed: 19, avg_duration: 900, flaky_count: 1 })).tests.text).toBe('new');
    expect(periodChanges(answer({ from: '2026-09-01', to: '2026-09-30', total_runs: 1, total_tests: 20, total_passed: 20, avg_duration: 900, flaky_count: 1 })).tests.text).toBe('+900.0%');
  });

  it("shows '—' with no previous period, and says why", () => {
    expect(periodChanges(answer(null)).passRate).toEqual({ text: '—', good: null });
    expect(periodChangeCaption(answer(null))).toMatch(/^No runs in the 30 days before/);
    expect(periodChangeCaption(answer(null, 0))).toMatch(/^All time/);
  });
});
