import type { BrokenTestSummary, DashboardResponse, FlakyTestSummary } from '../../../../core/api/analytics.js';
import { passRatePercent, type QualityLevel } from '../../../../core/analytics/formulas.js';
import { qualityFigures } from '../../lib/quality.js';

/** Report estimates (docs/screens.md#report-estimates). */
export const DEV_HOURS_PER_FLAKY_TEST_PER_WEEK = 0.5;
export const COST_PER_CRITICAL_TEST_PER_WEEK = 800;
/** The report flags a browser whose failure share is over this fraction. */
export const BROWSER_ISSUE_FAILURE_SHARE = 0.1;

export type Tone = 'good' | 'medium' | 'bad';
export const TONE_COLORS: Record<Tone, string> = { good: 'green', medium: 'yellow', bad: 'red' };

export interface ReportBrowser {
  browser: string;
  passRate: number;
  failureShare: number;
  total: number;
  failed: number;
  avgDuration: number;
  tone: Tone;
  issue: boolean;
}

export interface ReportFigures {
  totalRuns: number;
  totalTests: number;
  passRate: number;
  /** 0-100, after retries. */
  finalPassRate: number;
  passedOnRetry: number;
  /** ms, the dashboard's average duration of a test that ran. */
  avgDuration: number;
  flakyCount: number;
  score: number;
  level: QualityLevel;
  scoreTone: Tone;
  devHoursLostPerWeek: number;
  /** The worst critical flaky tests (the answer's first few), lowest pass rate first. */
  critical: FlakyTestSummary[];
  criticalCount: number;
  /** Tests that failed every run of the period (not flaky), and the worst of them. */
  brokenCount: number;
  broken: BrokenTestSummary[];
  costPerWeek: number;
  fixDays: number;
  browsers: ReportBrowser[];
}

/** The report's score colour: 90 or more good, 75 or more medium, else bad. */
export function scoreTone(score: number): Tone {
  if (score >= 90) return 'good';
  if (score >= 75) return 'medium';
  return 'bad';
}

/** The report's browser colours use 95 and 90 (the dashboard's levels use 90/80/70). */
export function browserTone(passRate: number): Tone {
  if (passRate >= 95) return 'good';
  if (passRate >= 90) return 'medium';
  return 'bad';
}

export function reportFigures(data: DashboardResponse): ReportFigures {
  const s = data.summary[0] ?? { total_runs: 0, total_tests: 0, total_passed: 0, total_failed: 0, total_skipped: 0, avg_duration: 0, total_passed_on_retry: 0 };
  const { passRate, flakyCount, score, level } = qualityFigures(data);
  const critical = data.criticalFlakyTests;
  const criticalCount = data.criticalFlakyCount;
  return {
    totalRuns: s.total_runs,
    totalTests: s.total_tests,
    passRate,
    finalPassRate: passRatePercent(s.total_passed + (s.total_passed_on_retry ?? 0), s.total_tests),
    passedOnRetry: s.total_passed_on_retry ?? 0,
    avgDuration: s.avg_duration,
    flakyCount,
    score,
    level,
    scoreTone: scoreTone(score),
    devHoursLostPerWeek: flakyCount * DEV_HOURS_PER_FLAKY_TEST_PER_WEEK,
    critical,
    criticalCount,
    brokenCount: data.brokenCount,
    broken: data.brokenTests,
    costPerWeek: criticalCount * COST_PER_CRITICAL_TEST_PER_WEEK,
    fixDays: Math.ceil(flakyCount / 2),
    browsers: data.browserComparison.map((b) => {
      const total = b.total ?? b.passed + b.failed + (b.skipped ?? 0);
      const browserPassRate = passRatePercent(b.passed, total);
      const failureShare = total > 0 ? b.failed / total : 0;
      return { browser: b.browser, passRate: browserPassRate, failureShare, total, failed: b.failed, avgDuration: b.avg_duration, tone: browserTone(browserPassRate), issue: failureShare > BROWSER_ISSUE_FAILURE_SHARE };
    }),
  };
}

/** A stable id for one period's report on one day, e.g. 'QR-20261121-30D' ('ALL' for all time). */
export function reportId(days: number, now: Date): string {
  const stamp = now.toISOString().slice(0, 10).replaceAll('-', '');
  return `QR-${stamp}-${days === 0 ? 'ALL' : `${days}D`}`;
}
