import type { DashboardResponse } from '../../../../core/api/analytics.js';
import { qualityScore, type QualityLevel } from '../../../../core/analytics/formulas.js';
import { qualityFigures } from '../../lib/quality.js';
import { periodLabel } from '../../lib/time-range.js';

export interface Risk {
  level: 'high' | 'medium' | 'healthy';
  title: 'Quality Score Below Target' | 'High Failure Rate' | 'Multiple Flaky Tests' | 'All Systems Healthy';
  detail: string;
}

export interface ExecutiveSummary {
  /** 'All Time' or 'Last N Days'. */
  period: string;
  /** 0-100 */
  passRate: number;
  flakyCount: number;
  totalTests: number;
  /** What the flaky tests take off the pass rate (0-20 points). */
  flakyImpact: number;
  score: number;
  level: QualityLevel;
  /** 0-1 */
  failureRate: number;
  testsPerDay: number;
  avgDuration: number;
  risks: Risk[];
}

/** The Executive Summary figures (docs/screens.md#risk-assessment) from one dashboard answer and its time window (0 = all time). */
export function executiveSummary(data: DashboardResponse, days: number): ExecutiveSummary {
  const summary = data.summary[0];
  const { totalTests: total, passRate, flakyCount, score, level } = qualityFigures(data);
  // The impact is what the formula subtracts; at a 100 pass rate nothing is clamped, so this is it exactly.
  const flakyImpact = 100 - qualityScore(100, flakyCount, total);
  const failureRate = total > 0 ? (summary?.total_failed ?? 0) / total : 0;

  const risks: Risk[] = [];
  if (score < 80) risks.push({ level: 'high', title: 'Quality Score Below Target', detail: `Score ${score.toFixed(1)} (target 80%+)` });
  if (failureRate > 0.1) risks.push({ level: 'high', title: 'High Failure Rate', detail: `${(failureRate * 100).toFixed(1)}% of tests failed (limit 10%)` });
  if (flakyCount > 5) risks.push({ level: 'medium', title: 'Multiple Flaky Tests', detail: `${flakyCount} flaky tests need attention` });
  // Not healthy while a test fails every run, however few the failures.
  if (score >= 90 && failureRate <= 0.05 && flakyCount <= 2 && data.brokenCount === 0) {
    risks.push({ level: 'healthy', title: 'All Systems Healthy', detail: 'Quality score, failure rate and flakiness are within targets' });
  }

  return {
    period: periodLabel(days),
    passRate,
    flakyCount,
    totalTests: total,
    flakyImpact,
    score,
    level,
    failureRate,
    testsPerDay: total / (days === 0 ? 30 : days),
    avgDuration: summary?.avg_duration ?? 0,
    risks,
  };
}

/** Colour of a quality level, best to worst. */
export const QUALITY_COLORS: Record<QualityLevel, 'green' | 'teal' | 'yellow' | 'orange' | 'red'> = {
  Excellent: 'green',
  Good: 'teal',
  Fair: 'yellow',
  Poor: 'orange',
  Critical: 'red',
};
