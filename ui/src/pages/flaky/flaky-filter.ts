/**
 * The Flaky Test Analysis filter (docs/screens.md#flaky-test-analysis): severity by worst pass rate, or a trend
 * direction. The server applies it (GET /api/flaky-tests?severity=…); the UI names and shows it.
 */
import { worstTrend, type Severity, type TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';

export type FlakyFilter = 'all' | Severity | TrendDirection;

const SEVERITIES: readonly Severity[] = ['severe', 'moderate', 'minor'];
const DIRECTIONS: readonly TrendDirection[] = ['improving', 'declining', 'stable', 'new'];

/** The severity query value; anything else is all. */
export function parseFilter(value: string | null): FlakyFilter {
  return (SEVERITIES as readonly string[]).includes(value ?? '') || (DIRECTIONS as readonly string[]).includes(value ?? '') ? (value as FlakyFilter) : 'all';
}

export function isTrendFilter(filter: FlakyFilter): filter is TrendDirection {
  return (DIRECTIONS as readonly string[]).includes(filter);
}

export const FILTER_LABELS: Record<FlakyFilter, string> = {
  all: 'All Tests',
  severe: 'Critical (pass rate 50% or less)',
  moderate: 'Warning (pass rate above 50%, below 80%)',
  minor: 'Stable (pass rate 80% or more)',
  improving: 'Improving trend',
  declining: 'Declining trend',
  stable: 'Stable trend',
  new: 'New trend',
};

/** A group's identity: the same title can exist in several files, and in several describe blocks of one. */
export function groupKey(group: Pick<FlakyTestGroup, 'test_file' | 'test_title' | 'test_id'>): string {
  return group.test_id === undefined ? `${group.test_file}\u0000${group.test_title}` : `#${group.test_id}`;
}

export interface Trend {
  direction: TrendDirection;
  /** Change in percentage points. */
  percentage: number;
}

/**
 * A browser's 7-day trend, as the server sent it with the page (on the entry itself: a title can
 * repeat across describe blocks of one file, so file and title do not name a test).
 */
export function browserTrend(entry: Pick<BrowserEntry, 'trend_direction' | 'trend_percentage'>): Trend | null {
  return entry.trend_direction ? { direction: entry.trend_direction, percentage: entry.trend_percentage ?? 0 } : null;
}

/**
 * The overall trend: the worst direction of the browsers (core worstTrend) with the change of the
 * browsers that have it. A moving trend shows its furthest browser (declining the lowest change,
 * improving the highest), which sets the bar and the critical style. A stable one shows its middle
 * browser (the lower of two middles), so one browser's noise does not give the group the sign the
 * others do not have: +3.8 beside three −3.8 is −3.8.
 */
export function groupTrend(group: Pick<FlakyTestGroup, 'browsers'>): Trend | null {
  const trends = group.browsers.map(browserTrend).filter((t): t is Trend => t !== null);
  const direction = worstTrend(trends.map((t) => t.direction));
  if (direction === null) return null;
  const changes = trends.filter((t) => t.direction === direction).map((t) => t.percentage).sort((a, b) => a - b);
  if (direction === 'declining') return { direction, percentage: changes[0]! };
  if (direction === 'improving') return { direction, percentage: changes[changes.length - 1]! };
  return { direction, percentage: changes[Math.floor((changes.length - 1) / 2)]! };
}

/** The browser to look at first: the lowest pass rate, then the highest flaky score, then the first listed. */
export function worstBrowser(group: Pick<FlakyTestGroup, 'browsers'>): BrowserEntry | null {
  let worst: BrowserEntry | null = null;
  for (const entry of group.browsers) {
    if (!worst || entry.pass_rate < worst.pass_rate || (entry.pass_rate === worst.pass_rate && entry.flaky_score > worst.flaky_score)) worst = entry;
  }
  return worst;
}

/** docs/screens.md#flaky-test-analysis: ceil(abs(percentage) / 10) segments of 5. */
export function trendSegments(percentage: number): number {
  return Math.min(5, Math.ceil(Math.abs(percentage) / 10));
}

/** Critical-styled: declining by more than 15 points. */
export function isCriticalTrend(trend: Trend): boolean {
  return trend.direction === 'declining' && Math.abs(trend.percentage) > 15;
}

/** docs/screens.md#flaky-test-analysis: the dialog's flaky score, (1 - pass_rate) × total_runs when the entry has none. */
export function flakyScoreOf(entry: { flaky_score?: number | null; pass_rate: number; total_runs: number }): number {
  return typeof entry.flaky_score === 'number' && Number.isFinite(entry.flaky_score) ? entry.flaky_score : (1 - entry.pass_rate) * entry.total_runs;
}
