import type { DashboardResponse } from '../../../core/api/analytics.js';
import { passRatePercent, qualityLevel, qualityScore, type QualityLevel } from '../../../core/analytics/formulas.js';

export interface QualityFigures {
  totalTests: number;
  /** 0-100 */
  passRate: number;
  flakyCount: number;
  score: number;
  level: QualityLevel;
}

/** The quality score (docs/screens.md#quality-score) from one dashboard answer: the executive summary's and the report's. */
export function qualityFigures(data: DashboardResponse): QualityFigures {
  const summary = data.summary[0];
  const totalTests = summary?.total_tests ?? 0;
  const passRate = passRatePercent(summary?.total_passed ?? 0, totalTests);
  // The answer lists only the most critical flaky tests; the count covers them all.
  const flakyCount = data.flakyCount;
  const score = qualityScore(passRate, flakyCount, totalTests);
  return { totalTests, passRate, flakyCount, score, level: qualityLevel(score) };
}

/** Critical flaky: core/analytics/formulas.ts. The server counts them (criticalFlakyCount) and lists the worst first. */
export { CRITICAL_PASS_RATE } from '../../../core/analytics/formulas.js';
