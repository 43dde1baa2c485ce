import type { TrendDay } from '../../../../core/api/analytics.js';
import { passRatePercent } from '../../../../core/analytics/formulas.js';

export interface TrendRow extends TrendDay {
  /** passed / total_tests × 100 for the day; null on a day without results (the API lists every day of the window). */
  passRate: number | null;
}

export interface TrendSummary {
  totalTests: number;
  /** passed / total over the window, percent: the dashboard's pass rate of the same 30 days. */
  avgPassRate: number;
  /** Mean duration of every result that ran in the window, ms: the dashboard's average duration. */
  avgDuration: number;
}

/** The days oldest first (as the charts read left to right), each with its pass rate. */
export function trendRows(days: readonly TrendDay[]): TrendRow[] {
  return [...days].sort((a, b) => a.date.localeCompare(b.date)).map((d) => ({ ...d, passRate: d.total_tests > 0 ? passRatePercent(d.passed, d.total_tests) : null }));
}

/** The window has results when any of its days has. */
export function hasResults(rows: readonly TrendRow[]): boolean {
  return rows.some((r) => r.total_tests > 0);
}

/** The Daily Breakdown order (docs/screens.md#trends): newest first. */
export function newestFirst(rows: readonly TrendRow[]): TrendRow[] {
  return [...rows].sort((a, b) => b.date.localeCompare(a.date));
}

/**
 * Over every result of the window, as the dashboard computes them (one definition: a day with
 * few results weighs little; a quiet day none): passed / total, and durations weighted by the
 * results that ran.
 */
export function trendSummary(rows: readonly TrendRow[]): TrendSummary {
  const sum = (pick: (r: TrendRow) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const totalTests = sum((r) => r.total_tests);
  const ran = sum((r) => r.total_tests - (r.skipped ?? 0));
  return {
    totalTests,
    avgPassRate: passRatePercent(sum((r) => r.passed), totalTests),
    avgDuration: ran > 0 ? sum((r) => r.avg_duration * (r.total_tests - (r.skipped ?? 0))) / ran : 0,
  };
}

/** A 'YYYY-MM-DD' day as the viewer reads it. The day is a UTC calendar day, so it is formatted in UTC, never shifted by the viewer's zone. */
export function dayLabel(date: string, style: 'short' | 'medium' = 'medium'): string {
  const parsed = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return style === 'short'
    ? parsed.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })
    : parsed.toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
}
