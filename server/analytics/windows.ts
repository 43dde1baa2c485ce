import { DAY_MS } from '../store/rollups.js';
import type { DayRange } from '../store/analytics.js';

export const today = (now: number): number => Math.floor(now / DAY_MS);

/** The last `days` UTC days up to today; 0 means all time. */
export function lastDays(days: number, now: number): DayRange {
  const to = today(now);
  return { from: days > 0 ? to - days + 1 : 0, to };
}

export const isoDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const isoTime = (ms: number): string => new Date(ms).toISOString();
