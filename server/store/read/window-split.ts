import type { Dialect } from '../engine/dialect.js';
import { GRAINS, type Grain } from '../engine/rollup-shape.js';
import { branchIdOf } from './branch-days.js';

/** A window of UTC days (days since the epoch), both ends included. */
export interface DayRange {
  from: number;
  to: number;
}

/** Ranges of period starts (a grain's key) or of days, both ends included. */
type Ranges = Array<[number, number]>;

/**
 * Where a window's rows come from: the whole months (month_stats), the whole weeks in the
 * stretches outside them (week_stats), and the days left at the edges (daily_test_stats).
 */
export type WindowSplit = Record<Grain['key'] | 'day', Ranges>;

/**
 * The most ranges of each kind a split of one or two adjacent periods (a window, or a trend's
 * two) has, adjacent ones joined: per period one of months, a range of weeks in each stretch
 * beside them, and days on both sides of each range of weeks (days, weeks, days, months, days,
 * weeks, days); the days where the periods meet are one range.
 */
export const RANGES: Readonly<Record<keyof WindowSplit, number>> = { month: 2, week: 4, day: 7 };

function add(ranges: Ranges, from: number, to: number): void {
  if (from > to) return;
  const last = ranges.at(-1);
  if (last && last[1] + 1 === from) last[1] = to;
  else ranges.push([from, to]);
}

/**
 * The days `from`..`to` as whole periods of each grain in turn, coarsest first: a grain's whole
 * periods in the middle, the stretches before and after them split by the next grain, and what
 * no grain holds whole left as days. Ranges of a grain hold period starts (for a week range, its
 * first and last Monday).
 */
function splitInto(split: WindowSplit, from: number, to: number, grains: readonly Grain[]): void {
  const [grain, ...finer] = grains;
  if (!grain) return add(split.day, from, to);
  const first = grain.of(from) === from ? from : grain.after(grain.of(from));
  let last: number | null = null;
  for (let start = first; grain.after(start) - 1 <= to; start = grain.after(start)) last = start;
  if (last === null) return splitInto(split, from, to, finer);
  splitInto(split, from, first - 1, finer);
  add(split[grain.key], first, last);
  splitInto(split, grain.after(last), to, finer);
}

/**
 * The whole months, then whole weeks, then days of each period (the periods in day order and
 * adjacent, as a trend's are); null when no period holds a whole week or month, so the days
 * alone are the reading. Every window reader that sums periods splits its days here.
 */
export function splitWindow(periods: readonly DayRange[]): WindowSplit | null {
  const split: WindowSplit = { month: [], week: [], day: [] };
  for (const { from, to } of periods) splitInto(split, from, to, GRAINS);
  if (split.month.length === 0 && split.week.length === 0) return null;
  for (const kind of Object.keys(RANGES) as Array<keyof WindowSplit>) {
    if (split[kind].length > RANGES[kind]) throw new Error(`a window split into ${split[kind].length} ranges of ${kind}s; the statements hold ${RANGES[kind]}`);
  }
  return split;
}

/** A split's ranges as the statements' parameters (@month0From …), unused ones empty (1 to 0). */
export function splitParams(split: WindowSplit): Record<string, number> {
  const params: Record<string, number> = {};
  for (const kind of Object.keys(RANGES) as Array<keyof WindowSplit>) {
    for (let i = 0; i < RANGES[kind]; i++) [params[`${kind}${i}From`], params[`${kind}${i}To`]] = split[kind][i] ?? [1, 0];
  }
  return params;
}

const DAY_ROW = 'test_id, browser, day, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, duration_sum, timed_runs, duration_max';

/**
 * The day rows of the edge days and the rows of the whole weeks and months (a period's first
 * day as its `day`), as one set of rows, for a split's parameters. A period row stands where its
 * days would: its sums and maximum are theirs, its first and last outcome are its first and last
 * day's with attempts, and its changes count those between its days already, so changes between
 * rows in day order are counted as between days.
 * `branch`: one branch's rows (@branch, branch-days.ts): its edge days through branch_day_stats's
 * index on (branch, day), its whole periods from the grain's branch table, one range of its key each.
 */
export const splitRows = (t: Dialect, branch = false): string => {
  const on = branch ? `branch_id = ${branchIdOf(t.name)} AND ` : '';
  const dayTable = branch ? t.through('branch_day_stats', 'branch_day_stats_by_day') : t.through('daily_test_stats', 'daily_test_stats_by_day');
  const days = Array.from({ length: RANGES.day }, (_, i) => `SELECT ${DAY_ROW} FROM ${dayTable} WHERE ${on}day BETWEEN @day${i}From AND @day${i}To`);
  const periods = GRAINS.flatMap((g) =>
    Array.from(
      { length: RANGES[g.key] },
      (_, i) => `SELECT ${DAY_ROW.replace('day', `${g.key} AS day`)} FROM ${branch ? g.branchTable : g.table} WHERE ${on}${g.key} BETWEEN @${g.key}${i}From AND @${g.key}${i}To`,
    ),
  );
  return [...days, ...periods].join('\n    UNION ALL ');
};
