/** The Trends tab's Export CSV (docs/screens.md#flaky-test-analysis, client-side). */
import type { DailyStat } from '../../../../core/api/analytics.js';

export const TREND_CSV_HEADER = ['Date', 'Pass Rate (%)', 'Total Runs', 'Passed', 'Failed', 'Avg Duration (ms)'] as const;

/**
 * One CSV cell. A cell a spreadsheet would read as a formula (= + - @, or a tab or carriage
 * return in front) gets a leading single quote, so opening the file runs nothing.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function trendsCsv(stats: readonly DailyStat[]): string {
  const rows = stats.map((s) => [s.date, (s.pass_rate * 100).toFixed(1), s.total_runs, s.passed_runs, s.failed_runs, Math.round(s.avg_duration)]);
  return [TREND_CSV_HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
