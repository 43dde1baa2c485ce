import type { DashboardResponse } from '../../../core/api/analytics.js';
import { isThinPreviousWindow, passRatePercent, periodChange, type PeriodChange } from '../../../core/analytics/formulas.js';

/** A 'vs previous period' change as shown: its text, and whether it went the good way (null: unchanged or nothing to compare). */
export interface ShownChange {
  text: string;
  good: boolean | null;
}

/** '—' where there is no previous period (all time, or no runs in the window before). */
export const NO_CHANGE: ShownChange = { text: '—', good: null };

/** A count against a previous window that barely ran: neither good nor bad, just new. */
export const NEW_CHANGE: ShownChange = { text: 'new', good: null };

function shown(change: PeriodChange | null, higherIsBetter: boolean): ShownChange {
  if (change === null) return NO_CHANGE;
  if (change.value === null) return NEW_CHANGE;
  const sign = change.value > 0 ? '+' : '';
  const unit = change.unit === 'pts' ? ' pts' : change.unit === '%' ? '%' : '';
  const number = change.unit === 'abs' && Number.isInteger(change.value) ? String(change.value) : change.value.toFixed(1);
  return { text: `${sign}${number}${unit}`, good: change.value === 0 ? null : change.value > 0 === higherIsBetter };
}

export interface PeriodChanges {
  passRate: ShownChange;
  /** Tests per day and total tests change alike: the two windows have the same length. */
  tests: ShownChange;
  avgDuration: ShownChange;
  flaky: ShownChange;
}

/**
 * The dashboard's and the report's changes against the previous window of the same length, from
 * one answer: the pass rate in percentage points, the others relative (absolute from 0); the
 * counts 'new' when the previous window is too thin to compare with (core isThinPreviousWindow).
 */
export function periodChanges(data: DashboardResponse): PeriodChanges {
  const now = data.summary[0];
  const before = data.previous;
  if (!now || !before) return { passRate: NO_CHANGE, tests: NO_CHANGE, avgDuration: NO_CHANGE, flaky: NO_CHANGE };
  const tests = { current: now.total_tests, previous: before.total_tests };
  return {
    passRate: shown(periodChange(passRatePercent(now.total_passed, now.total_tests), passRatePercent(before.total_passed, before.total_tests), 'points'), true),
    tests: shown(periodChange(now.total_tests, before.total_tests, 'count', tests), true),
    avgDuration: shown(periodChange(now.avg_duration, before.avg_duration, 'relative'), false),
    flaky: shown(periodChange(data.flakyCount, before.flaky_count, 'count', tests), false),
  };
}

/** The caption under the changes: what they compare with, or why there is nothing. */
export function periodChangeCaption(data: DashboardResponse): string {
  if (data.days === 0) return 'All time: there is no previous period to compare with (—).';
  if (!data.previous) return `No runs in the ${data.days} days before this window: nothing to compare with (—).`;
  const compare = `Changes compare with the previous ${data.days} days (${data.previous.from} to ${data.previous.to}); pass rate in percentage points.`;
  const now = data.summary[0];
  if (now && isThinPreviousWindow(now.total_tests, data.previous.total_tests)) {
    return `${compare} That window ran only ${data.previous.total_tests.toLocaleString('en-US')} tests, too few to compare counts with: they show 'new'.`;
  }
  return compare;
}
