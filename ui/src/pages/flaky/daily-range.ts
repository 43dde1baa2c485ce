/** The Trends tab's range selector: last 7, 30 or 90 days, or all time (the default). */
import type { DailyStat } from '../../../../core/api/analytics.js';

export type DayRange = '7' | '30' | '90' | 'all';

export const DAY_RANGES: ReadonlyArray<{ value: DayRange; label: string }> = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: 'all', label: 'All time' },
];

/** Days from `today` back (today counts as the first), oldest first. Dates are UTC days (YYYY-MM-DD). */
export function statsInRange(stats: readonly DailyStat[], range: DayRange, today: Date): DailyStat[] {
  const sorted = [...stats].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (range === 'all') return sorted;
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (Number(range) - 1)));
  const cutoff = first.toISOString().slice(0, 10);
  return sorted.filter((s) => s.date.slice(0, 10) >= cutoff);
}

/** docs/screens.md#flaky-test-analysis: the range slider is shown above 7 days. */
export const SLIDER_MIN_DAYS = 8;
