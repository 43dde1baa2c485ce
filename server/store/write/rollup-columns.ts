import type { Dialect } from '../engine/dialect.js';
import { MONTH, WEEK, type Grain } from '../engine/rollup-shape.js';

/**
 * The rollup tables' columns, described once: their order (the rows run-figures.ts gathers),
 * their PostgreSQL types (the arrays UnnestWriter sends) and how a stored row takes in a later
 * run's figures. Both engines' upserts are made from this, so a rule is written in one place.
 */
type Merge =
  /** Part of the conflict key. */
  | 'key'
  /** Counts and sums add up. */
  | 'add'
  /** The larger of the two; NULL only when both are. */
  | 'max'
  /** The stored value stands once there is one (the first attempt's outcome). */
  | 'first'
  /** The newer value wins when it has one (the last attempt's outcome). */
  | 'last'
  /** Pass/fail changes add up, plus one where the stored last outcome and the run's first differ. */
  | 'changes';

interface RollupColumn {
  name: string;
  type: 'bigint' | 'text' | 'float8';
  merge: Merge;
}

const column = (name: string, merge: Merge, type: RollupColumn['type'] = 'bigint'): RollupColumn => ({ name, type, merge });

/** daily_test_stats, per test, browser and UTC day. */
export const DAY_ROLLUP: readonly RollupColumn[] = [
  column('test_id', 'key'),
  column('browser', 'key', 'text'),
  column('day', 'key'),
  column('runs', 'add'),
  column('passed', 'add'),
  column('failed', 'add'),
  column('skipped', 'add'),
  column('passed_on_retry', 'add'),
  column('duration_sum', 'add', 'float8'),
  column('duration_max', 'max', 'float8'),
  column('timed_runs', 'add'),
  column('scored_runs', 'add'),
  column('scored_passed', 'add'),
  column('scored_failed', 'add'),
  column('attempts', 'add'),
  column('changes', 'changes'),
  column('first_outcome', 'first'),
  column('last_outcome', 'last'),
  column('last_run_at', 'max'),
];

/**
 * branch_day_stats: daily_test_stats's figures per branch (runs.git_branch, by its id in
 * branches), test, browser and day; the branch leads the key, since a read is one branch's days.
 */
export const BRANCH_DAY_ROLLUP: readonly RollupColumn[] = [column('branch_id', 'key'), ...DAY_ROLLUP];

/**
 * A grain's table (rollup-shape.ts Grain: month_stats, week_stats): daily_test_stats's figures per
 * test, browser and period (the UTC day it starts on), every branch. Rebuilt from the touched
 * days (rollup-shape.ts periodsOfDays), so its changes also count those between the period's
 * days; the columns name what it holds.
 */
export const periodRollup = (grain: Grain): readonly RollupColumn[] => DAY_ROLLUP.map((c) => (c.name === 'day' ? column(grain.key, 'key') : c));
/** A grain's branch table (Grain.branchTable): periodRollup's figures per branch, the branch first as in branch_day_stats. */
export const branchPeriodRollup = (grain: Grain): readonly RollupColumn[] => [column('branch_id', 'key'), ...periodRollup(grain)];
export const MONTH_ROLLUP = periodRollup(MONTH);
export const WEEK_ROLLUP = periodRollup(WEEK);

/** test_totals, per test and browser over all history. */
export const TOTAL_ROLLUP: readonly RollupColumn[] = [
  column('test_id', 'key'),
  column('browser', 'key', 'text'),
  column('runs', 'add'),
  column('passed', 'add'),
  column('failed', 'add'),
  column('skipped', 'add'),
  column('passed_on_retry', 'add'),
  column('scored_passed', 'add'),
  column('scored_failed', 'add'),
  column('attempts', 'add'),
  column('changes', 'changes'),
  column('duration_sum', 'add', 'float8'),
  column('duration_max', 'max', 'float8'),
  column('timed_runs', 'add'),
  column('first_outcome', 'first'),
  column('last_outcome', 'last'),
  column('last_run_at', 'max'),
  column('last_failed_at', 'max'),
];

/** branch_test_totals: test_totals's figures per branch, the branch first as in branch_day_stats. */
export const BRANCH_TOTAL_ROLLUP: readonly RollupColumn[] = [column('branch_id', 'key'), ...TOTAL_ROLLUP];

/** daily_error_stats, per test, browser, day and error fingerprint. */
export const ERROR_ROLLUP: readonly RollupColumn[] = [column('test_id', 'key'), column('browser', 'key', 'text'), column('day', 'key'), column('fingerprint', 'key', 'text'), column('occurrences', 'add')];

/**
 * addToStored in JavaScript: `later`'s row (the same key) added to `stored`'s, for rows of one
 * write that share a key (a run's days of one month), which one upsert may not touch twice.
 */
export function mergeRows(columns: readonly RollupColumn[], stored: readonly unknown[], later: readonly unknown[]): unknown[] {
  const lastAt = columns.findIndex((c) => c.name === 'last_outcome');
  const firstAt = columns.findIndex((c) => c.name === 'first_outcome');
  return columns.map((c, i) => {
    const [mine, theirs] = [stored[i], later[i]];
    switch (c.merge) {
      case 'key':
        return mine;
      case 'add':
        return Number(mine) + Number(theirs);
      case 'max':
        return mine === null || mine === undefined ? theirs : theirs === null || theirs === undefined ? mine : Math.max(Number(mine), Number(theirs));
      case 'first':
        return mine ?? theirs;
      case 'last':
        return theirs ?? mine;
      case 'changes': {
        const [last, first] = [stored[lastAt], later[firstAt]];
        return Number(mine) + Number(theirs) + (last !== null && last !== undefined && first !== null && first !== undefined && last !== first ? 1 : 0);
      }
    }
  });
}

export const columnList = (columns: readonly RollupColumn[]): string => columns.map((c) => c.name).join(', ');
export const columnTypes = (columns: readonly RollupColumn[]): string[] => columns.map((c) => c.type);

/**
 * `ON CONFLICT (keys) DO UPDATE SET …` adding a later run's row to the stored one. `stored`
 * names the stored row where the engine needs it named: PostgreSQL finds a bare column
 * ambiguous beside `excluded` (its INSERT gives the table an alias for it); SQLite takes bare names.
 */
export function addToStored(columns: readonly RollupColumn[], t: Dialect, stored?: string): string {
  const old = (name: string) => (stored ? `${stored}.${name}` : name);
  const merged = (c: RollupColumn): string => {
    const mine = old(c.name);
    const theirs = `excluded.${c.name}`;
    switch (c.merge) {
      case 'add':
        return `${mine} + ${theirs}`;
      case 'max':
        return t.greatest(mine, theirs);
      case 'first':
        return `coalesce(${mine}, ${theirs})`;
      case 'last':
        return `coalesce(${theirs}, ${mine})`;
      case 'changes':
        return `${mine} + ${theirs} + coalesce(${t.boolInt(`${old('last_outcome')} != excluded.first_outcome`)}, 0)`;
      case 'key':
        throw new Error(`${c.name} is a key`);
    }
  };
  const keys = columns.filter((c) => c.merge === 'key').map((c) => c.name);
  const sets = columns.filter((c) => c.merge !== 'key').map((c) => `${c.name} = ${merged(c)}`);
  return `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET\n    ${sets.join(',\n    ')}`;
}
