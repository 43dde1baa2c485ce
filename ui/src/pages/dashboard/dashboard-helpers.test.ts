import { describe, expect, it } from 'vitest';
import type { BrokenTestSummary, DashboardResponse, FlakyTestSummary } from '../../../../core/api/analytics.js';
import { executiveSummary } from './executive-summary.js';
import { flakySeverityHref, flakyTestHref } from './flaky-links.js';
import { healthAlerts } from './health-alerts.js';

const flaky = (title: string, pass_rate: number, failed_runs = 1): FlakyTestSummary => ({
  test_title: title,
  test_file: 'a.spec.ts',
  browser: 'chromium',
  pass_rate,
  final_pass_rate: pass_rate,
  passed_on_retry: 0,
  failed_runs,
  total_runs: 10,
  flaky_score: 10,
});

/** An answer as the server builds it: the totals counted over every flaky test, the lists bounded. */
const broken = (title: string, failed_runs: number, browser = 'chromium'): BrokenTestSummary => ({ test_title: title, test_file: 'b.spec.ts', browser, failed_runs, skipped_runs: 0 });

function data(summary: { total: number; passed: number; failed: number }, flakyTests: FlakyTestSummary[] = [], browsers: Array<[string, number, number]> = [], brokenTests: BrokenTestSummary[] = []): DashboardResponse {
  const critical = flakyTests.filter((t) => t.pass_rate <= 0.5).sort((a, b) => a.pass_rate - b.pass_rate || b.failed_runs - a.failed_runs);
  return {
    days: 30,
    summary: [{ total_runs: 1, total_tests: summary.total, total_passed: summary.passed, total_failed: summary.failed, total_skipped: 0, avg_duration: 1500, total_passed_on_retry: 0 }],
    browserComparison: browsers.map(([browser, passed, failed]) => ({ browser, passed, failed, skipped: 0, total: passed + failed, avg_duration: 1 })),
    flakyTests: flakyTests.slice(0, 5),
    recentRuns: [],
    slowTests: [],
    flakyTrends: [],
    flakyCount: flakyTests.length,
    criticalFlakyCount: critical.length,
    criticalFlakyTests: critical.slice(0, 5),
    brokenCount: new Set(brokenTests.map((t) => t.test_title)).size,
    brokenTests: brokenTests.slice(0, 5),
    flakyTrendCounts: { declining: 0, improving: 0, stable: 0, new: 0 },
    previous: null,
    stored: { runs: 1, newest: '2026-11-20T10:00:00.000Z', oldest: '2026-11-20T10:00:00.000Z' },
  };
}

describe('executiveSummary', () => {
  it('scores pass rate minus flaky impact and names the period', () => {
    const s = executiveSummary(data({ total: 100, passed: 95, failed: 5 }, [flaky('a', 0.9)]), 7);
    expect(s.period).toBe('Last 7 Days');
    expect(s.passRate).toBe(95);
    expect(s.flakyImpact).toBeCloseTo(1);
    expect(s.score).toBeCloseTo(94);
    expect(s.level).toBe('Excellent');
    expect(s.testsPerDay).toBeCloseTo(100 / 7);
    expect(s.risks.map((r) => r.title)).toEqual(['All Systems Healthy']);
  });

  it('uses 30 days for Tests/Day when all time, and caps the flaky impact at 20', () => {
    const s = executiveSummary(data({ total: 60, passed: 60, failed: 0 }, Array.from({ length: 30 }, (_, i) => flaky(`t${i}`, 0.9))), 0);
    expect(s.period).toBe('All Time');
    expect(s.testsPerDay).toBe(2);
    expect(s.flakyImpact).toBe(20);
    expect(s.score).toBe(80);
  });

  it('counts the flaky tests from the answer\'s total, not from the few it lists', () => {
    const answer = data({ total: 1000, passed: 1000, failed: 0 }, Array.from({ length: 40 }, (_, i) => flaky(`t${i}`, 0.9)));
    expect(answer.flakyTests).toHaveLength(5);
    const s = executiveSummary(answer, 30);
    expect(s.flakyCount).toBe(40);
    expect(s.flakyImpact).toBeCloseTo(4);
    expect(s.risks.map((r) => r.title)).toContain('Multiple Flaky Tests');
  });

  it('lists every risk that applies', () => {
    const s = executiveSummary(data({ total: 100, passed: 70, failed: 30 }, Array.from({ length: 6 }, (_, i) => flaky(`t${i}`, 0.9))), 30);
    expect(s.risks.map((r) => r.title)).toEqual(['Quality Score Below Target', 'High Failure Rate', 'Multiple Flaky Tests']);
  });

  it('is not healthy with more than 5% failures even at a high score', () => {
    const s = executiveSummary(data({ total: 100, passed: 94, failed: 6 }), 30);
    expect(s.score).toBe(94);
    expect(s.risks).toEqual([]);
  });

  it('copes with no tests at all', () => {
    const s = executiveSummary(data({ total: 0, passed: 0, failed: 0 }), 30);
    expect([s.passRate, s.score, s.failureRate, s.flakyImpact]).toEqual([0, 0, 0, 0]);
  });
});

describe('healthAlerts', () => {
  it('puts tests that failed every run first, naming the worst three, though none is flaky', () => {
    const alerts = healthAlerts(data({ total: 100, passed: 90, failed: 10 }, [], [], [broken('a', 5), broken('b', 4), broken('b', 3, 'firefox'), broken('c', 2)]));
    expect(alerts.map((a) => a.kind)).toEqual(['broken']);
    const [alert] = alerts;
    if (alert?.kind !== 'broken') throw new Error('no broken alert');
    expect(alert.count).toBe(3);
    expect(alert.worst.map((t) => `${t.test_title} ${t.browser} ${t.failed_runs}`)).toEqual(['a chromium 5', 'b chromium 4', 'b firefox 3']);
  });

  it('is not healthy while a test fails every run', () => {
    const healthy = data({ total: 100, passed: 99, failed: 1 });
    expect(executiveSummary(healthy, 30).risks.map((r) => r.title)).toEqual(['All Systems Healthy']);
    expect(executiveSummary(data({ total: 100, passed: 99, failed: 1 }, [], [], [broken('a', 1)]), 30).risks).toEqual([]);
  });

  it('reports nothing for a healthy answer', () => {
    expect(healthAlerts(data({ total: 100, passed: 90, failed: 10 }, [flaky('ok', 0.51)], [['chromium', 5, 5]]))).toEqual([]);
  });

  it('picks the lowest pass rate as the most critical, then the most failures', () => {
    const [alert] = healthAlerts(data({ total: 100, passed: 90, failed: 10 }, [flaky('b', 0.5, 2), flaky('c', 0.2, 1), flaky('d', 0.2, 4)]));
    expect(alert?.kind).toBe('critical-flaky');
    if (alert?.kind !== 'critical-flaky') return;
    expect(alert.count).toBe(3);
    expect(alert.worst.test_title).toBe('d');
    expect(alert.worstHref).toBe('/flaky-tests?test=d&file=a.spec.ts&browser=chromium');
  });

  it('flags browsers with more failures than passes and a pass rate below 80%', () => {
    const alerts = healthAlerts(data({ total: 100, passed: 79, failed: 21 }, [], [['firefox', 4, 5], ['webkit', 5, 4]]));
    expect(alerts.map((a) => a.kind)).toEqual(['browser-issues', 'low-pass-rate']);
    expect(alerts[0]?.kind === 'browser-issues' && alerts[0].browsers.map((b) => b.browser)).toEqual(['firefox']);
  });
});

describe('flaky links', () => {
  it('encodes the query with URLSearchParams', () => {
    expect(flakyTestHref({ test_title: 'redirects /a?page=2&sort=desc', test_file: 'x y.spec.ts', browser: 'edge' })).toBe(
      '/flaky-tests?test=redirects+%2Fa%3Fpage%3D2%26sort%3Ddesc&file=x+y.spec.ts&browser=edge',
    );
    expect(flakySeverityHref('severe')).toBe('/flaky-tests?severity=severe');
    // A branch-filtered dashboard's links keep its branch.
    expect(flakySeverityHref('declining', 30, 'feat/a b')).toBe('/flaky-tests?severity=declining&branch=feat%2Fa+b');
    expect(flakyTestHref({ test_title: 't', test_file: 'f.spec.ts', browser: 'edge' }, 30, 'main')).toBe('/flaky-tests?test=t&file=f.spec.ts&browser=edge&branch=main');
  });
});
