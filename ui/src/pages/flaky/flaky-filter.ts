/**
 * The Flaky Test Analysis filter (docs/screens.md#flaky-test-analysis): severity by worst pass rate, or a trend
 * direction. The server applies it (GET /api/flaky-tests?severity=…); the UI names and shows it.
 */
import { worstTrend, type Severity, type TrendDirection } from '../../../../core/analytics/formulas.js';
import type { FlakyTestGroup, TrendRecord } from '../../../../core/api/analytics.js';

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

export type BrowserTrend = Pick<TrendRecord, 'trend_direction' | 'trend_percentage'>;
export type TrendIndex = ReadonlyMap<string, BrowserTrend>;

const trendKey = (file: string, title: string, browser: string) => `${file}\u0000${title}\u0000${browser}`;

/** The trends the server sent with a page of groups, by test_file + test_title + browser. */
export function trendsOfPage(groups: readonly FlakyTestGroup[]): TrendIndex {
  const index = new Map<string, BrowserTrend>();
  for (const g of groups) {
    for (const b of g.browsers) {
      if (b.trend_direction) index.set(trendKey(g.test_file, g.test_title, b.browser), { trend_direction: b.trend_direction, trend_percentage: b.trend_percentage ?? 0 });
    }
  }
  return index;
}

export function browserTrend(index: TrendIndex, group: Pick<FlakyTestGroup, 'test_file' | 'test_title'>, browser: string): BrowserTrend | undefined {
  return index.get(trendKey(group.test_file, group.test_title, browser));
}

export interface Trend {
  direction: TrendDirection;
  /** Change in percentage points. */
  percentage: number;
}

/** The overall trend: the worst direction of the browsers (core worstTrend) with its largest change. */
export function groupTrend(group: FlakyTestGroup, index: TrendIndex): Trend | null {
  const records = group.browsers.map((b) => browserTrend(index, group, b.browser)).filter((r): r is BrowserTrend => r !== undefined);
  const direction = worstTrend(records.map((r) => r.trend_direction));
  if (direction === null) return null;
  const percentage = records.filter((r) => r.trend_direction === direction).reduce((best, r) => (Math.abs(r.trend_percentage) > Math.abs(best) ? r.trend_percentage : best), 0);
  return { direction, percentage };
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
