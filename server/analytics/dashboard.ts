import type { DashboardResponse } from '../../core/api/analytics.js';
import { browserTotals, recentRuns, windowSummary } from '../store/analytics.js';
import type { Store } from '../store/open.js';
import { flakyTests, flakyTrends } from './flaky.js';
import { slowTests } from './reports.js';
import { isoTime, lastDays, today } from './windows.js';

export const FLAKY_TREND_PERIOD = 7;

export function dashboard(store: Store, days: number, now: number): DashboardResponse {
  const range = lastDays(days, now);
  return {
    days,
    summary: [windowSummary(store, range)],
    browserComparison: browserTotals(store, range),
    flakyTests: flakyTests(store, range),
    recentRuns: recentRuns(store, range, 10).map(({ started_at, ...run }) => ({ ...run, execution_time: isoTime(started_at) })),
    slowTests: slowTests(store, range, 10),
    flakyTrends: flakyTrends(store, FLAKY_TREND_PERIOD, today(now)),
  };
}
