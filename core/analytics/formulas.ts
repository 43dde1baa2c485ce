/**
 * Every formula and definition of docs/screens.md#figures-and-formulas, in one place
 * for the server and the UI.
 */

/** passed / total × 100 (0 when there is nothing). */
export function passRatePercent(passed: number, total: number): number {
  return total > 0 ? (passed / total) * 100 : 0;
}

/** A test on a browser: passed / (runs − skipped) as a 0-1 fraction; skips are not failures. */
export function passRateFraction(passed: number, runs: number, skipped: number): number {
  const ran = runs - skipped;
  return ran > 0 ? passed / ran : 0;
}

/** max(0, min(100, pass rate − flaky impact)); flaky impact = min(flaky / total × 100, 20). */
export function qualityScore(passRate: number, flakyCount: number, totalTests: number): number {
  const flakyImpact = totalTests > 0 ? Math.min((flakyCount / totalTests) * 100, 20) : 0;
  return Math.max(0, Math.min(100, passRate - flakyImpact));
}

export type QualityLevel = 'Excellent' | 'Good' | 'Fair' | 'Poor' | 'Critical';

export function qualityLevel(score: number): QualityLevel {
  if (score >= 90) return 'Excellent';
  if (score >= 80) return 'Good';
  if (score >= 70) return 'Fair';
  if (score >= 60) return 'Poor';
  return 'Critical';
}

/** round((1 − pass_rate) × total_runs × 10), pass_rate a 0-1 fraction. */
export function riskScore(passRate: number, totalRuns: number): number {
  return Math.round((1 - passRate) * totalRuns * 10);
}

export type RiskLevel = 'critical' | 'high' | 'medium' | 'low';

export function riskLevel(score: number): RiskLevel {
  if (score >= 15) return 'critical';
  if (score >= 8) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

export type Severity = 'severe' | 'moderate' | 'minor';

/**
 * Critical flaky: a pass rate of 0.5 or less, failing at least half of the time (the health
 * alerts and report estimates). A severity band of "below 0.5" for Severe would
 * disagree at exactly 0.5, so Severe (the "Critical" card) follows the critical
 * rule: one definition, and the dashboard's "View All" lands on the tests it counted.
 */
export const CRITICAL_PASS_RATE = 0.5;

export function isCriticalFlaky(passRate: number): boolean {
  return passRate <= CRITICAL_PASS_RATE;
}

/**
 * Broken: a test on a browser that failed every run of the window it ran in, the first attempt
 * and every retry (skipped runs left out). Not flaky (nothing changes) and not in the pass-rate
 * bands: it is counted and listed on its own.
 */
export function isBroken(ran: number, failed: number, passedOnRetry: number): boolean {
  return ran > 0 && failed === ran && passedOnRetry === 0;
}

/** 0.8 or more minor (shown as Stable), above 0.5 up to 0.8 moderate (Warning), 0.5 or less severe (Critical). */
export function flakySeverity(passRate: number): Severity {
  if (passRate >= 0.8) return 'minor';
  if (!isCriticalFlaky(passRate)) return 'moderate';
  return 'severe';
}

/**
 * A test's final pass rate (0-1): runs that passed on the first attempt or on a retry, over the
 * runs that ran. The pass rate everywhere else is the first attempt's (docs/screens.md#status-rules).
 */
export function finalPassRateFraction(firstPassed: number, passedOnRetry: number, ran: number): number {
  return ran > 0 ? Math.min(1, (firstPassed + passedOnRetry) / ran) : 0;
}

/** The default time window of the dashboard, the report, Browser Analysis and Flaky Tests. */
export const DEFAULT_WINDOW_DAYS = 30;

/**
 * A previous window too thin to compare counts with: under MIN_COMPARABLE_TESTS tests, or under
 * MIN_COMPARABLE_SHARE of this window's. Against a window that barely ran, a count's change reads
 * thousands of percent (a first week after a trial upload); it is new rather than grown.
 */
export const MIN_COMPARABLE_TESTS = 20;
export const MIN_COMPARABLE_SHARE = 0.1;

export function isThinPreviousWindow(currentTests: number, previousTests: number): boolean {
  return previousTests < MIN_COMPARABLE_TESTS || previousTests < currentTests * MIN_COMPARABLE_SHARE;
}

export type PeriodChange = { value: number; unit: 'pts' | '%' | 'abs' } | { value: null; unit: 'new' };

/**
 * The change of a figure against the previous window of the same length: percentage points for
 * a rate (0-100), otherwise the relative change in percent. A count ('count') is new when the
 * previous window is thin (isThinPreviousWindow, from the two windows' test counts); a rate or an
 * average is compared whatever the volume, as it does not grow with it. Null when there is nothing
 * to compare with (no previous window); from 0 the absolute change.
 */
export function periodChange(
  current: number,
  previous: number | null,
  kind: 'points' | 'relative' | 'count',
  tests?: { current: number; previous: number },
): PeriodChange | null {
  if (previous === null || !Number.isFinite(previous)) return null;
  const round = (v: number) => Math.round(v * 10) / 10;
  if (kind === 'points') return { value: round(current - previous), unit: 'pts' };
  if (kind === 'count' && tests && isThinPreviousWindow(tests.current, tests.previous)) return { value: null, unit: 'new' };
  if (previous === 0) return { value: round(current), unit: 'abs' };
  return { value: round(((current - previous) / previous) * 100), unit: '%' };
}

export type TrendDirection = 'declining' | 'improving' | 'stable' | 'new';

/** docs/screens.md#trend-direction: the change in percentage points decides; no earlier runs is new. */
export function trendDirection(currentPassRate: number, previousPassRate: number | null): { direction: TrendDirection; percentage: number } {
  if (previousPassRate === null) return { direction: 'new', percentage: 0 };
  const percentage = Math.round((currentPassRate - previousPassRate) * 1000) / 10;
  if (percentage <= -5) return { direction: 'declining', percentage };
  if (percentage >= 5) return { direction: 'improving', percentage };
  return { direction: 'stable', percentage };
}

/** A group's overall trend: the worst of its browsers', declining, then improving, then new, then stable. */
export function worstTrend(directions: readonly TrendDirection[]): TrendDirection | null {
  for (const d of ['declining', 'improving', 'new', 'stable'] as const) if (directions.includes(d)) return d;
  return null;
}

export type PerformanceLevel = 'Fast' | 'Medium' | 'Slow' | 'Very Slow';

export function performanceLevel(avgDurationMs: number): PerformanceLevel {
  if (avgDurationMs < 5000) return 'Fast';
  if (avgDurationMs < 15000) return 'Medium';
  if (avgDurationMs < 30000) return 'Slow';
  return 'Very Slow';
}

export const SLOW_MS = 10_000;
export const VERY_SLOW_MS = 30_000;

/** Under 1000 ms as ms; under 60000 ms as seconds to 1 decimal; otherwise minutes to 1 decimal. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)}s`;
  return `${(ms / 60000).toFixed(1)}m`;
}

export type BrowserHealth = 'excellent' | 'good' | 'warning' | 'critical';

export function browserHealth(passRatePercentValue: number): BrowserHealth {
  if (passRatePercentValue >= 90) return 'excellent';
  if (passRatePercentValue >= 80) return 'good';
  if (passRatePercentValue >= 70) return 'warning';
  return 'critical';
}

/** docs/screens.md#flaky-score: round(100 × changes / (attempts − 1)); 0 with fewer than two attempts. */
export function flakyScore(changes: number, attempts: number): number {
  return attempts > 1 ? Math.round((100 * changes) / (attempts - 1)) : 0;
}

/** Trend analysis of a daily pass-rate series (percent): least-squares slope per day. */
export function trendAnalysis(dailyPassRatesPercent: readonly number[]): { slope: number; direction: 'Improving' | 'Declining' | 'Stable'; volatility: number; volatilityLevel: 'Low' | 'Moderate' | 'High'; recent: number } {
  const n = dailyPassRatesPercent.length;
  const mean = n > 0 ? dailyPassRatesPercent.reduce((a, b) => a + b, 0) / n : 0;
  let slope = 0;
  if (n > 1) {
    const xMean = (n - 1) / 2;
    let num = 0;
    let den = 0;
    dailyPassRatesPercent.forEach((y, x) => {
      num += (x - xMean) * (y - mean);
      den += (x - xMean) ** 2;
    });
    slope = num / den;
  }
  const volatility = n > 0 ? Math.sqrt(dailyPassRatesPercent.reduce((s, y) => s + (y - mean) ** 2, 0) / n) : 0;
  const last = dailyPassRatesPercent.slice(-7);
  return {
    slope,
    direction: slope > 0.5 ? 'Improving' : slope < -0.5 ? 'Declining' : 'Stable',
    volatility,
    volatilityLevel: volatility < 10 ? 'Low' : volatility < 20 ? 'Moderate' : 'High',
    recent: last.length > 0 ? last.reduce((a, b) => a + b, 0) / last.length : 0,
  };
}

/**
 * Time to fix (docs/screens.md#time-to-fix): a flaky test is fixed once it has run this many
 * times (every browser counted) since the day it last flaked without flaking again.
 */
export const FIXED_AFTER_RUNS = 20;

/** One UTC day of a test, every browser together: how often it ran and whether it flaked. */
export interface FlakeDay {
  day: number;
  runs: number;
  flaked: boolean;
}

/**
 * A test flaked on a day when a run failed (outage runs left out) or passed only on a retry:
 * for a test flaky by docs/screens.md#flaky, each failure is a flake.
 */
export function isFlakeDay(scoredFailed: number, passedOnRetry: number): boolean {
  return scoredFailed > 0 || passedOnRetry > 0;
}

/** A stretch from a first flake to its fix (or still open): days since 1970-01-01 (UTC). */
export interface FlakeEpisode {
  firstFlakeDay: number;
  lastFlakeDay: number;
  /** The day the runs after the last flake reached FIXED_AFTER_RUNS; null while open. */
  fixedDay: number | null;
}

/**
 * The flake episodes of one test from its days in order: an episode opens on a flake day and is
 * fixed on the day the runs of the days after its last flake reach `fixedAfter` (the flake
 * day's own runs do not count: the day's order is not kept); a later flake opens another.
 */
export function flakeEpisodes(days: readonly FlakeDay[], fixedAfter = FIXED_AFTER_RUNS): FlakeEpisode[] {
  const episodes: FlakeEpisode[] = [];
  let open: { first: number; last: number; runsSince: number } | null = null;
  for (const d of days) {
    if (d.flaked) {
      if (open === null) open = { first: d.day, last: d.day, runsSince: 0 };
      else {
        open.last = d.day;
        open.runsSince = 0;
      }
    } else if (open !== null) {
      open.runsSince += d.runs;
      if (open.runsSince >= fixedAfter) {
        episodes.push({ firstFlakeDay: open.first, lastFlakeDay: open.last, fixedDay: d.day });
        open = null;
      }
    }
  }
  if (open !== null) episodes.push({ firstFlakeDay: open.first, lastFlakeDay: open.last, fixedDay: null });
  return episodes;
}

/** Days an episode took to fix (fixed day − first flake day), or has been open up to `today`. */
export function episodeDays(episode: FlakeEpisode, today: number): number {
  return (episode.fixedDay ?? today) - episode.firstFlakeDay;
}

/** The median of the days to fix, over the episodes fixed from `fromDay` to `toDay`; null when none was. */
export function medianTimeToFix(episodes: readonly FlakeEpisode[], fromDay: number, toDay: number): number | null {
  const days = episodes
    .filter((e) => e.fixedDay !== null && e.fixedDay >= fromDay && e.fixedDay <= toDay)
    .map((e) => e.fixedDay! - e.firstFlakeDay)
    .sort((a, b) => a - b);
  if (days.length === 0) return null;
  const middle = Math.floor(days.length / 2);
  return days.length % 2 === 1 ? days[middle]! : (days[middle - 1]! + days[middle]!) / 2;
}
