import type { BrokenTestSummary, BrowserComparison, DashboardResponse, FlakyTestSummary } from '../../../../core/api/analytics.js';
import { passRatePercent } from '../../../../core/analytics/formulas.js';
import { flakyTestHref } from './flaky-links.js';

/** Broken tests the alert names; the rest are counted (Most Critical Tests lists more). */
export const BROKEN_NAMED = 3;

export type HealthAlert =
  | { kind: 'broken'; count: number; worst: BrokenTestSummary[] }
  | { kind: 'critical-flaky'; count: number; worst: FlakyTestSummary; worstHref: string }
  | { kind: 'browser-issues'; browsers: BrowserComparison[] }
  | { kind: 'low-pass-rate'; passRate: number };

/** The QA Health Alerts rules (docs/screens.md#health-alerts), most urgent first. */
export function healthAlerts(data: DashboardResponse): HealthAlert[] {
  const alerts: HealthAlert[] = [];
  // Failing every run is worse than failing half of them: first, and never hidden by the flaky rules.
  if (data.brokenCount > 0 && data.brokenTests.length > 0) alerts.push({ kind: 'broken', count: data.brokenCount, worst: data.brokenTests.slice(0, BROKEN_NAMED) });
  // Most critical: the lowest pass rate; among equals, the one that failed most often (the server's order).
  const worst = data.criticalFlakyTests[0];
  if (data.criticalFlakyCount > 0 && worst) {
    alerts.push({ kind: 'critical-flaky', count: data.criticalFlakyCount, worst, worstHref: flakyTestHref(worst, data.days) });
  }
  const failing = data.browserComparison.filter((browser) => browser.failed > browser.passed);
  if (failing.length > 0) alerts.push({ kind: 'browser-issues', browsers: failing });
  const summary = data.summary[0];
  const passRate = passRatePercent(summary?.total_passed ?? 0, summary?.total_tests ?? 0);
  if ((summary?.total_tests ?? 0) > 0 && passRate < 80) alerts.push({ kind: 'low-pass-rate', passRate });
  return alerts;
}
