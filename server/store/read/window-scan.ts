import type { DayRange } from './window-split.js';
import { dialectFor, type DialectName, type Dialect } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';
import { branchIdOf, onBranch } from './branch-days.js';
import { baseStore } from '../engine/one-connection.js';
import { DAY_MS } from '../engine/rollup-shape.js';
import { splitParams, splitRows, splitWindow } from './window-split.js';
import { FLAKY_TESTS, TROUBLED_TESTS } from './pair-totals.js';

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

/**
 * What the period before a dashboard's window needs per test and browser: its totals, and
 * whether it was flaky (pair-figures.ts flakyChanges) with the sums the trend compares. Five sums
 * fewer than a window: the scan costs per sum and row.
 */
export type PairPeriod = Pick<
  PairWindow,
  'test_id' | 'browser' | 'runs' | 'passed' | 'passed_on_retry' | 'scored_passed' | 'scored_failed' | 'changes' | 'outcomes' | 'duration_sum' | 'timed_runs'
>;

type Read = 'byKey' | 'byDay' | 'byDayWithoutFigures';

// The outcomes of a window's days in day order: read in key order, the rows arrive so.
const outcomes = (t: Dialect, read: Read) => t.concatInOrder(`CASE WHEN attempts > 0 THEN ${outcomePair(t)} END`, 'day', read === 'byKey' ? 'inOrder' : undefined);

const windowColumns = (t: Dialect, read: Read) => `test_id, browser, ${t.total('runs')} AS runs, ${t.total('passed')} AS passed, ${t.total('failed')} AS failed, ${t.total('skipped')} AS skipped,
    ${t.total('passed_on_retry')} AS passed_on_retry, ${t.total('scored_passed')} AS scored_passed, ${t.total('scored_failed')} AS scored_failed,
    ${t.total('attempts')} AS attempts, ${t.total('changes')} AS changes, ${outcomes(t, read)} AS outcomes,
    ${t.total('duration_sum')} AS duration_sum, ${t.total('timed_runs')} AS timed_runs, max(duration_max) AS duration_max`;

const periodColumns = (t: Dialect, read: Read) => `test_id, browser, ${t.total('runs')} AS runs, ${t.total('passed')} AS passed,
    ${t.total('passed_on_retry')} AS passed_on_retry, ${t.total('scored_passed')} AS scored_passed, ${t.total('scored_failed')} AS scored_failed,
    ${t.total('changes')} AS changes, ${outcomes(t, read)} AS outcomes, ${t.total('duration_sum')} AS duration_sum, ${t.total('timed_runs')} AS timed_runs`;

// A day's first and last outcome (0/1) as two characters. SQLite joins numbers as text already;
// PostgreSQL's || wants text.
const outcomePair = (t: Dialect) => (t.name === 'postgres' ? 'CAST(first_outcome AS TEXT) || CAST(last_outcome AS TEXT)' : 'first_outcome || last_outcome');

const trendColumns = (t: Dialect, _read: Read) => `test_id, browser,
    ${t.total('CASE WHEN day >= @curFrom THEN scored_passed END')} AS cur_passed,
    ${t.total('CASE WHEN day >= @curFrom THEN scored_failed END')} AS cur_failed,
    ${t.total('CASE WHEN day >= @curFrom THEN passed_on_retry END')} AS cur_retry,
    ${t.total('CASE WHEN day < @curFrom THEN scored_passed END')} AS prev_passed,
    ${t.total('CASE WHEN day < @curFrom THEN scored_failed END')} AS prev_failed,
    ${t.total('CASE WHEN day < @curFrom THEN passed_on_retry END')} AS prev_retry`;

// A window is read in key order (test, browser, day; "+day" keeps SQLite off the day index): the
// rows arrive grouped and nothing is sorted. A window of under a quarter of the stored days goes
// through the day index instead, which holds every figure (migration 10) and costs a sort per
// row: measured on the 50,000-test history, about 1 µs per row in the window that way against
// 0.19 µs per stored row plus 0.29 µs per window row in key order.
// PostgreSQL's planner chooses on its statistics (withoutIndex is no hint there); its hash
// grouping keeps no order, so the rows are ordered as SQLite's grouping leaves them (free there).
// `ofTests`: only the rows of these tests (a subquery of test ids), checked as they are read:
// "+" keeps SQLite from seeking each test in every day of the index it reads.
const ofTestsOnly = (ofTests: string | null) => (ofTests === null ? '' : `+test_id IN (${ofTests})`);
const grouped = (t: Dialect, columns: (t: Dialect, read: Read) => string, read: Read, ofTests: string | null) =>
  `SELECT ${columns(t, read)} FROM ${read === 'byDay' ? t.through('daily_test_stats', 'daily_test_stats_by_day') : 'daily_test_stats'}` +
  ` WHERE ${[`${read === 'byKey' ? t.withoutIndex('day') : 'day'} BETWEEN @from AND @to`, ofTestsOnly(ofTests)].filter(Boolean).join(' AND ')} GROUP BY test_id, browser${orderedPairs(t)}`;
const readings = (t: Dialect, columns: (t: Dialect, read: Read) => string, ofTests: string | null = null) => ({
  byKey: grouped(t, columns, 'byKey', ofTests),
  byDay: grouped(t, columns, 'byDay', ofTests),
  // A read-only file of a schema before migration 10 has only the index on day.
  byDayWithoutFigures: grouped(t, columns, 'byDayWithoutFigures', ofTests),
  // One branch (branch-days.ts): its rows are one range of branch_day_stats's key, read in key order.
  branch: onBranch(grouped(t, columns, 'byKey', ofTests), t.name),
  byPeriods: byPeriods(t, columns, false, ofTests),
  // One branch's whole months and weeks and edge days, as every branch's are read.
  branchByPeriods: byPeriods(t, columns, true, ofTests),
});

/**
 * A window that holds a whole week or month reads them from week_stats and month_stats (one row
 * per test, browser and period) and only the days at its edges from daily_test_stats
 * (window-split.ts): a 30-day window reads about ten rows per pair instead of thirty, a year's
 * about twenty. A period row stands in the outcomes string for its days, its first and last
 * outcome in its place (its first day), and its changes count those between its days already:
 * changes plus outcomeChanges(outcomes) is the same as the days give (the fields themselves
 * differ, as the all-time rollup's do).
 */
const byPeriods = (t: Dialect, columns: (t: Dialect, read: Read) => string, branch = false, ofTests: string | null = null) =>
  `SELECT ${columns(t, 'byDay')} FROM (${splitRows(t, branch)}) days_and_periods${ofTests === null ? '' : ` WHERE ${ofTestsOnly(ofTests)}`} GROUP BY test_id, browser${orderedPairs(t)}`;

const orderedPairs = (t: Dialect) => (t.name === 'postgres' ? ` ORDER BY test_id, ${t.bytes('browser')}` : '');

// The all-time rollup per test and browser (test_totals, kept equal to a rebuild by the flaky
// list's migration) holds a window that covers every stored day: one row per pair instead of
// one per pair and day. Its changes already count those between days.
// One branch's (branch_test_totals) is one range of its key, in the same order.
const allTime = (t: Dialect, branch = false) => `SELECT test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes,
    NULL AS outcomes, duration_sum, timed_runs, duration_max FROM ${branch ? `branch_test_totals WHERE branch_id = ${branchIdOf(t.name)}` : 'test_totals'}${orderedPairs(t)}`;

// The period before a window by whole periods (scanPeriodSummary): its sums over every row, in no
// order and without grouping, and the pairs of the tests flaky over all history grouped.
const periodSummary = (t: Dialect, branch: boolean) => ({
  sums: `SELECT ${t.total('runs')} AS runs, ${t.total('passed')} AS passed, ${t.total('duration_sum')} AS duration_sum, ${t.total('timed_runs')} AS timed_runs
    FROM (${splitRows(t, branch)}) days_and_periods`,
  // "+test_id": as the flaky list's candidates (pair-totals.ts), the ranges are read as before.
  candidates: `SELECT ${periodColumns(t, 'byDay')} FROM (SELECT * FROM (${splitRows(t, branch)}) days_and_periods WHERE +test_id IN (${FLAKY_TESTS})) candidates
    GROUP BY test_id, browser${orderedPairs(t)}`,
});

// Every text built once per engine: SQLite's statement cache is keyed by the text (sql.ts).
function texts(dialect: DialectName) {
  const t = dialectFor(dialect);
  return {
    periodSummary: { all: periodSummary(t, false), branch: periodSummary(t, true) },
    allTime: allTime(t),
    branchAllTime: allTime(t, true),
    // Each bound its own subquery: SQLite reads a lone min() or max() from the index, both in one
    // SELECT by a scan of the table.
    dayBounds: 'SELECT (SELECT min(day) FROM daily_test_stats) AS first, (SELECT max(day) FROM daily_test_stats) AS last',
    // One branch's, from the ends of its range of branch_day_stats_by_day.
    branchDayBounds: `SELECT (SELECT min(day) FROM branch_day_stats WHERE branch_id = ${branchIdOf(t.name)}) AS first,
      (SELECT max(day) FROM branch_day_stats WHERE branch_id = ${branchIdOf(t.name)}) AS last`,
    // A window that holds most stored days is read in key order (test, browser, day): the rows
    // arrive grouped and nothing is sorted. A short window of a long history reads its days
    // through the day index and sorts only those rows.
    window: readings(t, windowColumns),
    period: readings(t, periodColumns),
    // Only the tests ever troubled (pair-totals.ts TROUBLED_TESTS): at ten million results
    // 7,000 of 25,000, and the scan of a 7-day trend 0.5 to 1.0 s against 0.15 to 0.2 s.
    trend: readings(t, trendColumns, TROUBLED_TESTS),
    // A read-only file of a schema before test_totals (migration 6): every test.
    trendEveryTest: readings(t, trendColumns),
    // The same signature of the runs table as the answer cache (cache.ts): it changes with every write that changes the figures.
    signature: signatureOf(t, ''),
    // The signature of the runs up to an id: equal to an earlier signature whose highest id it was
    // when nothing but runs after it changed since.
    signatureThrough: signatureOf(t, ' WHERE id <= @maxId'),
    namesOf: `SELECT id, title, file, title_path FROM tests WHERE ${t.inJsonNumbers('id', '@ids')}`,
    allNames: 'SELECT id, title, file FROM tests',
    idsOf: `SELECT id FROM tests WHERE file = @file AND title = @title ORDER BY id`,
    projects: 'SELECT browser, project_name FROM browser_projects',
  };
}
const signatureOf = (t: Dialect, where: string) =>
  `SELECT coalesce(max(id), 0) || ':' || count(*) || ':' || ${t.total('reviewed_at')} || ':' || ${t.total(t.boolInt("status = 'rejected'"))} || ':' || ${t.total('started_at')} AS signature FROM runs${where}`;
const TEXTS = { sqlite: texts('sqlite'), postgres: texts('postgres') } as const;

// Whether the schema has test_totals (migration 6), the covering day index (10), month_stats (19), week_stats (20),
// their branch tables with the branch's day index (21) and branch_test_totals (24): a SQLite
// file of an older schema opened read-only (mcp, doctor) may lack them; PostgreSQL's schema is
// always migrated on open. Asked once per store.
type Schema = { totals: boolean; dayIndex: boolean; periods: boolean; branchPeriods: boolean; branchTotals: boolean };
const schemaOf = new WeakMap<object, Promise<Schema>>();
function schema(store: AnyStore): Promise<Schema> {
  const base = baseStore(store);
  let known = schemaOf.get(base);
  if (!known) {
    known =
      store.dialect === 'postgres'
        ? Promise.resolve({ totals: true, dayIndex: true, periods: true, branchPeriods: true, branchTotals: true })
        : store.sql
            .all<{ name: string }>(
              "SELECT name FROM sqlite_master WHERE name IN ('test_totals', 'daily_test_stats_by_day', 'month_stats', 'week_stats', 'branch_month_stats', 'branch_week_stats', 'branch_day_stats_by_day', 'branch_test_totals')",
            )
            .then((rows) => {
              const has = (name: string) => rows.some((r) => r.name === name);
              return {
                totals: has('test_totals'),
                dayIndex: has('daily_test_stats_by_day'),
                periods: has('month_stats') && has('week_stats') && has('daily_test_stats_by_day'),
                branchPeriods: has('branch_month_stats') && has('branch_week_stats') && has('branch_day_stats_by_day'),
                branchTotals: has('branch_test_totals'),
              };
            });
    schemaOf.set(base, known);
    // A failed look-up (a closed store) is asked again next time, not kept.
    known.catch(() => schemaOf.delete(base));
  }
  return known;
}
const allTimeRollup = async (store: AnyStore, branch: string | null = null) => {
  const known = await schema(store);
  return branch === null ? known.totals : known.branchTotals;
};

/**
 * The parameters of the reading by whole periods of `periods` (window-split.ts), or null when it
 * does not apply: no whole week or month in them, or a schema before week_stats (on one branch,
 * `branch`, before the branch tables).
 * `wholePeriods: false` asks for the days alone (the tests compare both readings).
 */
export async function periodParams(store: AnyStore, periods: readonly DayRange[], wholePeriods = true, branch = false): Promise<Record<string, number> | null> {
  if (!wholePeriods) return null;
  const split = splitWindow(periods);
  if (!split) return null;
  const known = await schema(store);
  return (branch ? known.branchPeriods : known.periods) ? splitParams(split) : null;
}

/** How a scan reads: `wholePeriods: false` reads days only (what the reading by periods is checked against). */
export interface ScanOptions {
  wholePeriods?: boolean;
}

/** A window of fewer than 1/BY_DAY_BELOW of the stored days is read through the day index. */
const BY_DAY_BELOW = 4;

type DayBounds = { first: number | null; last: number | null };

// The first and last stored day in one statement: on PostgreSQL each statement is a round trip.
export const dayBounds = async (store: AnyStore): Promise<DayBounds> => (await store.sql.get<DayBounds>(TEXTS[store.dialect].dayBounds)) ?? { first: null, last: null };
const branchDayBounds = async (store: AnyStore, branch: string): Promise<DayBounds> =>
  (await store.sql.get<DayBounds>(TEXTS[store.dialect].branchDayBounds, { branch })) ?? { first: null, last: null };

async function plan(store: AnyStore, range: DayRange, known?: DayBounds): Promise<'byKey' | 'byDay' | 'byDayWithoutFigures'> {
  const firstDay = (known ?? (await dayBounds(store))).first ?? range.to;
  const stored = range.to - firstDay + 1;
  const scanned = range.to - Math.max(range.from, firstDay) + 1;
  if (scanned * BY_DAY_BELOW >= stored) return 'byKey';
  return (await schema(store)).dayIndex ? 'byDay' : 'byDayWithoutFigures';
}

/**
 * `branch`: one branch's figures (branch-days.ts), or null for every branch.
 */
export async function scanWindow(store: AnyStore, range: DayRange, branch: string | null = null, options: ScanOptions = {}): Promise<PairWindow[]> {
  const s = TEXTS[store.dialect];
  const days = { from: range.from, to: range.to };
  if (branch !== null) {
    // `wholePeriods: false` reads the days, what the rollups are checked against.
    if ((options.wholePeriods ?? true) && (await allTimeAnswers(store, range, branch))) return store.sql.all<PairWindow>(s.branchAllTime, { branch });
    const byPeriods = await periodParams(store, [range], options.wholePeriods ?? true, true);
    return byPeriods ? store.sql.all<PairWindow>(s.window.branchByPeriods, { ...byPeriods, branch }) : store.sql.all<PairWindow>(s.window.branch, { ...days, branch });
  }
  const bounds = await dayBounds(store);
  if ((await allTimeRollup(store)) && coversEveryDay(bounds, range)) return store.sql.all<PairWindow>(s.allTime);
  const byPeriods = await periodParams(store, [range], options.wholePeriods ?? true);
  if (byPeriods) return store.sql.all<PairWindow>(s.window.byPeriods, byPeriods);
  return store.sql.all<PairWindow>(s.window[await plan(store, range, bounds)], days);
}

/**
 * Whether the window `range` holds every stored day (of `branch`, when given), so the all-time
 * rollup (test_totals, or branch_test_totals) answers for it with one row per pair instead of one
 * per pair and day.
 */
export async function allTimeAnswers(store: AnyStore, range: DayRange, branch: string | null = null): Promise<boolean> {
  if (!(await allTimeRollup(store, branch))) return false;
  return coversEveryDay(branch === null ? await dayBounds(store) : await branchDayBounds(store, branch), range);
}

function coversEveryDay({ first, last }: DayBounds, range: DayRange): boolean {
  return first === null || last === null || (range.from <= first && last <= range.to);
}

/** The period before a window (PairPeriod's sums), read as scanWindow reads a window. */
export async function scanPeriod(store: AnyStore, range: DayRange, branch: string | null = null, options: ScanOptions = {}): Promise<PairPeriod[]> {
  const s = TEXTS[store.dialect].period;
  const days = { from: range.from, to: range.to };
  const byPeriods = await periodParams(store, [range], options.wholePeriods ?? true, branch !== null);
  if (branch !== null) return byPeriods ? store.sql.all<PairPeriod>(s.branchByPeriods, { ...byPeriods, branch }) : store.sql.all<PairPeriod>(s.branch, { ...days, branch });
  if (byPeriods) return store.sql.all<PairPeriod>(s.byPeriods, byPeriods);
  return store.sql.all<PairPeriod>(s[await plan(store, range)], days);
}

/**
 * What the dashboard shows of the period before its window: the sums of every pair, and the
 * pairs that can be flaky in it, those of the tests flaky over all history (docs/architecture.md,
 * "The flaky list's candidates"). Grouping every pair cost most of the read (at ten million
 * results, 30 days: about 1.0 s grouped, 0.1 s summed and 0.25 s for the candidates).
 */
export interface PeriodSummary {
  runs: number;
  passed: number;
  duration_sum: number;
  timed_runs: number;
  /** A superset of the pairs flaky in the period (pair-figures.ts flakyChanges says which are). */
  candidates: PairPeriod[];
}

/** A period's summary from all of its pairs, as scanPeriod reads them. */
export function summaryOfPairs(rows: readonly PairPeriod[]): PeriodSummary {
  const summary: PeriodSummary = { runs: 0, passed: 0, duration_sum: 0, timed_runs: 0, candidates: [...rows] };
  for (const r of rows) {
    summary.runs += r.runs;
    summary.passed += r.passed;
    summary.duration_sum += r.duration_sum;
    summary.timed_runs += r.timed_runs;
  }
  return summary;
}

/**
 * The summary of the period `range` (on one branch when `branch` is given): summed without
 * grouping when it holds a whole week or month; otherwise (a few days, read by day anyway, or a
 * schema without the all-time rollup) from scanPeriod's pairs.
 */
export async function scanPeriodSummary(store: AnyStore, range: DayRange, branch: string | null = null): Promise<PeriodSummary> {
  const byPeriods = await periodParams(store, [range], true, branch !== null);
  if (!byPeriods || !(await allTimeRollup(store))) return summaryOfPairs(await scanPeriod(store, range, branch));
  const s = TEXTS[store.dialect].periodSummary[branch === null ? 'all' : 'branch'];
  const params = branch === null ? byPeriods : { ...byPeriods, branch };
  type Sums = Record<'runs' | 'passed' | 'duration_sum' | 'timed_runs', number | string>;
  const [sums, candidates] = await Promise.all([store.sql.get<Sums>(s.sums, params), store.sql.all<PairPeriod>(s.candidates, params)]);
  // PostgreSQL's sums of integers come as text.
  return { runs: Number(sums?.runs ?? 0), passed: Number(sums?.passed ?? 0), duration_sum: Number(sums?.duration_sum ?? 0), timed_runs: Number(sums?.timed_runs ?? 0), candidates };
}

/**
 * The two periods of a trend: `previous` must end the day before `current` starts. The pairs of
 * the tests ever troubled (pair-totals.ts TROUBLED_TESTS) at least: any other pair's trend is
 * none (pair-figures.ts trendFigures), and callers keep only the troubled.
 */
export async function scanTrend(store: AnyStore, current: DayRange, previous: DayRange, branch: string | null = null, options: ScanOptions = {}): Promise<PairTrendCounts[]> {
  const trend = (await allTimeRollup(store)) ? TEXTS[store.dialect].trend : TEXTS[store.dialect].trendEveryTest;
  const range = { from: previous.from, to: current.to, curFrom: current.from };
  // Each period's whole weeks and months: a period row is on one side of curFrom (its first day says which).
  const byPeriods = await periodParams(store, [{ from: previous.from, to: current.from - 1 }, current], options.wholePeriods ?? true, branch !== null);
  if (branch !== null) {
    return byPeriods
      ? store.sql.all<PairTrendCounts>(trend.branchByPeriods, { ...byPeriods, curFrom: current.from, branch })
      : store.sql.all<PairTrendCounts>(trend.branch, { ...range, branch });
  }
  if (byPeriods) return store.sql.all<PairTrendCounts>(trend.byPeriods, { ...byPeriods, curFrom: current.from });
  return store.sql.all<PairTrendCounts>(trend[await plan(store, range)], range);
}

export async function dataSignature(store: AnyStore): Promise<string> {
  return String(await store.sql.value<string>(TEXTS[store.dialect].signature));
}

/**
 * When the only change between `signature` (an earlier dataSignature) and now is runs stored
 * after it, the first UTC day their results fall on (null when they have none): the rollups'
 * rows before that day are as they were. `undefined` when anything else changed (a review, a
 * rejection, a deleted or pruned run), which only a whole read answers.
 */
export async function firstDayAddedSince(store: AnyStore, signature: string): Promise<number | null | undefined> {
  const maxId = Number(signature.split(':')[0]);
  if (!Number.isSafeInteger(maxId)) return undefined;
  const through = String(await store.sql.value<string>(TEXTS[store.dialect].signatureThrough, { maxId }));
  if (through !== signature) return undefined;
  const first = await store.sql.value<number | string | null>('SELECT min(started_at) FROM results WHERE run_id > @maxId', { maxId });
  return first === null || first === undefined ? null : Math.floor(Number(first) / DAY_MS);
}

/** Pass/fail changes between consecutive days of an outcomes string (two characters per day). */
export function outcomeChanges(outcomes: string | null): number {
  if (!outcomes) return 0;
  let changes = 0;
  for (let i = 2; i < outcomes.length; i += 2) if (outcomes[i] !== outcomes[i - 1]) changes++;
  return changes;
}

/**
 * The names of the tests `ids`, in one statement: on PostgreSQL each statement is a round trip,
 * whose wait for the database's process grows with the load (a dashboard's ten look-ups one by
 * one were ten of them).
 */
export async function testNamesOf(store: AnyStore, ids: readonly number[]): Promise<Map<number, { title: string; file: string; title_path: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await store.sql.all<{ id: number; title: string; file: string; title_path: string }>(TEXTS[store.dialect].namesOf, { ids: JSON.stringify([...new Set(ids)]) });
  return new Map(rows.map(({ id, title, file, title_path }) => [id, { title, file, title_path }]));
}

/** Every test's title and file by id: for sorting a whole list by title. Size follows the tests, not the history. */
export async function testNames(store: AnyStore): Promise<Map<number, { title: string; file: string }>> {
  const rows = await store.sql.all<{ id: number; title: string; file: string }>(TEXTS[store.dialect].allNames);
  return new Map(rows.map((r) => [r.id, r]));
}

export async function testIds(store: AnyStore, file: string, title: string): Promise<number[]> {
  return (await store.sql.all<{ id: number }>(TEXTS[store.dialect].idsOf, { file, title })).map((r) => r.id);
}

export async function browserProjects(store: AnyStore): Promise<Map<string, string>> {
  const rows = await store.sql.all<{ browser: string; project_name: string }>(TEXTS[store.dialect].projects);
  return new Map(rows.map((r) => [r.browser, r.project_name]));
}
