import type { StoredRuns } from '../../../core/api/analytics.js';
import { TIME_RANGES } from './time-range.js';

const DAY_MS = 86_400_000;

/**
 * The narrowest time range (of docs/screens.md#time-window: 7, 30, 90 days or all time) that holds the newest
 * stored run: what an empty window offers to widen to. Days are UTC, as the server counts them.
 */
export function widerWindow(stored: StoredRuns, now: Date): number {
  if (!stored.newest) return 0;
  const age = Math.floor(now.getTime() / DAY_MS) - Math.floor(Date.parse(stored.newest) / DAY_MS) + 1;
  const ranges = TIME_RANGES.map((r) => Number(r.value)).filter((d) => d > 0).sort((a, b) => a - b);
  return ranges.find((d) => d >= age) ?? 0;
}

/** 'No runs in the last 30 days — 29 runs stored, the newest on 2026-09-14' (dates in UTC, as the windows). */
export function emptyWindowText(days: number, stored: StoredRuns): string {
  const newest = stored.newest ? stored.newest.slice(0, 10) : 'an unknown date';
  return `No runs in the last ${days} days — ${stored.runs.toLocaleString()} ${stored.runs === 1 ? 'run' : 'runs'} stored, the newest on ${newest}`;
}

export function widenLabel(days: number): string {
  return days === 0 ? 'Show all time' : `Show the last ${days} days`;
}
