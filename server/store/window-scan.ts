import type { DayRange } from './analytics.js';
import type { SqliteDatabase, Store } from './open.js';
import { ensureBranchDays, onBranch } from './branch-days.js';

/**
 * Per test and browser over a window of days: the sums of the daily rollup, in one grouped
 * scan (the dashboard needs them for every pair: a flaky count is a count over every pair). No
 * join: names are looked up for the few rows an answer shows.
 *
 * The pass/fail changes between consecutive days come as a string of each day's first and last
 * outcome in day order ("0110…"): a LAG window over a million rows cost several times the scan.
 */
export interface PairWindow {
  test_id: number;
  browser: string;
  runs: number;
  passed: number;
  failed: number;
  skipped: number;
  passed_on_retry: number;
  scored_passed: number;
  scored_failed: number;
  attempts: number;
  /** Changes within days; add outcomeChanges(outcomes) for those between days. */
  changes: number;
  outcomes: string | null;
  duration_sum: number;
  timed_runs: number;
  duration_max: number;
}

/** Scored counts of a trend's current and previous periods, per test and browser. */
export interface PairTrendCounts {
  test_id: number;
  browser: string;
  cur_passed: number;
  cur_failed: number;
  cur_retry: number;
  prev_passed: number;
  prev_failed: number;
  prev_retry: number;
}

const WINDOW_COLUMNS = `test_id, browser, total(runs) AS runs, total(passed) AS passed, total(failed) AS failed, total(skipped) AS skipped,
    total(passed_on_retry) AS passed_on_retry, total(scored_passed) AS scored_passed, total(scored_failed) AS scored_failed,
    total(attempts) AS attempts, total(changes) AS changes,
    group_concat(CASE WHEN attempts > 0 THEN first_outcome || last_outcome END, '' ORDER BY day) AS outcomes,
    total(duration_sum) AS duration_sum, total(timed_runs) AS timed_runs, max(duration_max) AS duration_max`;

const TREND_COLUMNS = `test_id, browser,
    total(CASE WHEN day >= @curFrom THEN scored_passed END) AS cur_passed,
    total(CASE WHEN day >= @curFrom THEN scored_failed END) AS cur_failed,
    total(CASE WHEN day >= @curFrom THEN passed_on_retry END) AS cur_retry,
    total(CASE WHEN day < @curFrom THEN scored_passed END) AS prev_passed,
    total(CASE WHEN day < @curFrom THEN scored_failed END) AS prev_failed,
    total(CASE WHEN day < @curFrom THEN passed_on_retry END) AS prev_retry`;

// A window is read in key order (test, browser, day; "+day" keeps SQLite off the day index): the
// rows arrive grouped and nothing is sorted. Only a window of under an eighth of the stored days
// goes through the day index, which costs a table lookup and a sort per row: measured on the
// 50,000-test history, 3.3 µs per row in the window against 0.35 µs per stored row in key order.
const grouped = (columns: string, byKey: boolean) =>
  `SELECT ${columns} FROM daily_test_stats WHERE ${byKey ? '+day' : 'day'} BETWEEN @from AND @to GROUP BY test_id, browser`;

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<SqliteDatabase, Statements>();

// The all-time rollup per test and browser (test_totals, kept equal to a rebuild by the flaky
// list's migration) holds a window that covers every stored day: one row per pair instead of
// one per pair and day. Its changes already count those between days.
const ALL_TIME = `SELECT test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes,
    NULL AS outcomes, duration_sum, timed_runs, duration_max FROM test_totals`;

function prepare(sqlite: SqliteDatabase) {
  const hasTotals = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'test_totals'").get() !== undefined;
  return {
    allTime: hasTotals ? sqlite.prepare(ALL_TIME) : null,
    lastDay: sqlite.prepare('SELECT max(day) FROM daily_test_stats').pluck(),
    // A window that holds most stored days is read in key order (test, browser, day): the rows
    // arrive grouped and nothing is sorted. A short window of a long history reads its days
    // through the day index and sorts only those rows.
    window: { byKey: sqlite.prepare(grouped(WINDOW_COLUMNS, true)), byDay: sqlite.prepare(grouped(WINDOW_COLUMNS, false)) },
    trend: { byKey: sqlite.prepare(grouped(TREND_COLUMNS, true)), byDay: sqlite.prepare(grouped(TREND_COLUMNS, false)) },
    firstDay: sqlite.prepare('SELECT min(day) FROM daily_test_stats').pluck(),
    // One branch (branch-days.ts): its rows hold only the answer's days, so they are read in key order.
    branch: branchStatements(sqlite),
    // The same signature of the runs table as the answer cache (cache.ts): it changes with every write that changes the figures.
    signature: sqlite.prepare("SELECT coalesce(max(id), 0) || ':' || count(*) || ':' || total(reviewed_at) || ':' || total(status = 'rejected') || ':' || total(started_at) FROM runs").pluck(),
    names: sqlite.prepare('SELECT id, title, file, title_path FROM tests WHERE id = ?'),
    allNames: sqlite.prepare('SELECT id, title, file FROM tests'),
    idsOf: sqlite.prepare('SELECT id FROM tests WHERE file = ? AND title = ?').pluck(),
    projects: sqlite.prepare('SELECT browser, project_name FROM browser_projects'),
  };
}

function branchStatements(sqlite: SqliteDatabase) {
  ensureBranchDays(sqlite);
  return { window: sqlite.prepare(onBranch(grouped(WINDOW_COLUMNS, true))), trend: sqlite.prepare(onBranch(grouped(TREND_COLUMNS, true))) };
}

function statements(store: Store): Statements {
  let s = cache.get(store.sqlite);
  if (!s) {
    s = prepare(store.sqlite);
    cache.set(store.sqlite, s);
  }
  return s;
}

function plan(s: Statements, range: DayRange): 'byKey' | 'byDay' {
  const firstDay = (s.firstDay.get() as number | null) ?? range.to;
  const stored = range.to - firstDay + 1;
  const scanned = range.to - Math.max(range.from, firstDay) + 1;
  return scanned * 8 >= stored ? 'byKey' : 'byDay';
}

/** `branch`: the branch whose days fillBranchDays has just made (covering `range`), or null for every branch. */
export function scanWindow(store: Store, range: DayRange, branch: string | null = null): PairWindow[] {
  const s = statements(store);
  if (branch !== null) return s.branch.window.all(range) as PairWindow[];
  if (s.allTime && coversEveryDay(s, range)) return s.allTime.all() as PairWindow[];
  return s.window[plan(s, range)].all(range) as PairWindow[];
}

function coversEveryDay(s: Statements, range: DayRange): boolean {
  const first = s.firstDay.get() as number | null;
  const last = s.lastDay.get() as number | null;
  return first === null || last === null || (range.from <= first && last <= range.to);
}

/** The two periods of a trend: `previous` must end the day before `current` starts. */
export function scanTrend(store: Store, current: DayRange, previous: DayRange, branch: string | null = null): PairTrendCounts[] {
  const s = statements(store);
  const range = { from: previous.from, to: current.to };
  if (branch !== null) return s.branch.trend.all({ ...range, curFrom: current.from }) as PairTrendCounts[];
  return s.trend[plan(s, range)].all({ ...range, curFrom: current.from }) as PairTrendCounts[];
}

export function dataSignature(store: Store): string {
  return statements(store).signature.get() as string;
}

/** Pass/fail changes between consecutive days of an outcomes string (two characters per day). */
export function outcomeChanges(outcomes: string | null): number {
  if (!outcomes) return 0;
  let changes = 0;
  for (let i = 2; i < outcomes.length; i += 2) if (outcomes[i] !== outcomes[i - 1]) changes++;
  return changes;
}

export function testName(store: Store, id: number): { title: string; file: string; title_path: string } {
  return statements(store).names.get(id) as { title: string; file: string; title_path: string };
}

/** Every test's title and file by id: for sorting a whole list by title. Size follows the tests, not the history. */
export function testNames(store: Store): Map<number, { title: string; file: string }> {
  const rows = statements(store).allNames.all() as Array<{ id: number; title: string; file: string }>;
  return new Map(rows.map((r) => [r.id, r]));
}

export function testIds(store: Store, file: string, title: string): number[] {
  return statements(store).idsOf.all(file, title) as number[];
}

export function browserProjects(store: Store): Map<string, string> {
  const rows = statements(store).projects.all() as Array<{ browser: string; project_name: string }>;
  return new Map(rows.map((r) => [r.browser, r.project_name]));
}
