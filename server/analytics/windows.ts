import { DAY_MS } from '../store/engine/rollup-shape.js';
import type { DayRange } from '../store/read/analytics.js';

export const today = (now: number): number => Math.floor(now / DAY_MS);

/**
 * The last day of "all time": every stored day, also those after the server's today (a report
 * from a machine whose clock is ahead), so all time means the same on every screen: the flaky
 * list's all-time rollup holds those days too. About the year 29000, in UTC day numbers.
 */
export const ALL_TIME_TO = 10_000_000;

/** The last `days` UTC days up to today; 0 means all time. */
export function lastDays(days: number, now: number): DayRange {
  const to = today(now);
  return days > 0 ? { from: to - days + 1, to } : { from: 0, to: ALL_TIME_TO };
}

export const isoDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const isoTime = (ms: number): string => new Date(ms).toISOString();
