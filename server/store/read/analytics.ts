import { SLOW_MS, VERY_SLOW_MS } from '../../../core/analytics/formulas.js';
import type { RecentRun, RunShard, SlowTest, TestResultDetail, TrendDay } from '../../../core/api/analytics.js';
import type { AnyStore } from '../engine/types.js';
import { DAY_MS } from '../engine/rollup-shape.js';
import { groupedRunsSql, runGroup } from './build-groups.js';
import { withAttempts } from './attempt-evidence.js';
import { dialectFor, type DialectName } from '../engine/dialect.js';
import { dayBounds, periodParams, type ScanOptions } from './window-scan.js';
import { splitRows, type DayRange } from './window-split.js';

export type { DayRange };

export interface TestBrowserTotals {
  test_id: number;
  test_title: string;
  title_path: string;
  test_file: string;
  browser: string;
  runs: number;
  passed: number;
  failed: number;
  skipped: number;
  passed_on_retry: number;
  scored_passed: number;
  scored_failed: number;
  attempts: number;
  changes: number;
  duration_sum: number;
  timed_runs: number;
  duration_max: number;
}

/** Names of affected tests listed per error pattern; the count says how many there are. */
export const AFFECTED_TESTS_LISTED = 20;

/**
 * The texts of this file on one engine, made once per engine at load: SQLite's connection
 * keeps its prepared statements by text, so the same text must come back every call.
 */
function textsFor(dialect: DialectName) {
  const t = dialectFor(dialect);
  const r = dialectFor(dialect);
  // The shards of one CI build count once (build-groups.ts); a branch, when given, narrows to its runs.
  const runFilter = `is_duplicate = 0 AND status != 'rejected' AND started_at >= @fromMs AND started_at < @toMs AND (CAST(@branch AS TEXT) IS NULL OR git_branch = @branch)`;
  // Grouped by test and browser, the page taken, then the page's names joined: joined before
  // grouping, each of a window's rows looked its test up and carried its names through the sort
  // (at ten million results 972 ms of a 30-day page's 1,186 ms; docs/benchmarks.md#ten-million-results).
  const slowGroups = (rows: string) => `SELECT d.test_id, d.browser, sum(d.duration_sum) / sum(d.timed_runs) AS avg_duration, max(d.duration_max) AS max_duration, sum(d.runs) AS total_runs
    FROM ${rows} d GROUP BY d.test_id, d.browser HAVING sum(d.timed_runs) > 0`;
  const slowPageOf = (groups: string, extra = '') => `SELECT t.title AS test_title, t.title_path, t.file AS test_file, g.browser, coalesce(p.project_name, g.browser) AS project,
    g.avg_duration, g.max_duration, g.total_runs${extra}
  FROM (SELECT * FROM (${groups}) d ORDER BY avg_duration DESC, d.test_id, ${r.bytes('d.browser')} LIMIT @limit OFFSET @offset) g
  JOIN tests t ON t.id = g.test_id LEFT JOIN browser_projects p ON p.browser = g.browser`;
  const slowPageOrder = `ORDER BY g.avg_duration DESC, g.test_id, ${r.bytes('g.browser')}`;
  // The same figures when the window holds every stored day: the all-time rollup has them summed.
  const slowAllTime = `SELECT t.title AS test_title, t.title_path, t.file AS test_file, d.browser, coalesce(p.project_name, d.browser) AS project,
    d.duration_sum / d.timed_runs AS avg_duration, d.duration_max AS max_duration, d.runs AS total_runs
  FROM test_totals d JOIN tests t ON t.id = d.test_id LEFT JOIN browser_projects p ON p.browser = d.browser
  WHERE d.timed_runs > 0`;
  const slowOrder = `ORDER BY avg_duration DESC, d.test_id, ${r.bytes('d.browser')} LIMIT @limit OFFSET @offset`;
  // One test's results on one branch, read through the test's own results (results_test_browser)
  // and each one's run by its key: the cost follows the test's results, not the branch's history.
  // The same results daily_test_stats sums (rollups.ts aggregate), which has no branch. Without
  // statistics SQLite would start from runs_branch_started and walk every run of the branch.
  const onBranch = `${t.withoutIndex('runs.git_branch')} = @branch`;
  const testResultsOnBranch = `FROM tests t JOIN results r ON r.test_id = t.id JOIN runs ON runs.id = r.run_id
      WHERE t.title = @title AND r.browser = @browser AND ${onBranch} AND runs.is_duplicate = 0 AND runs.status != 'rejected'`;
  const testHistoryPage = (narrow: string) => `SELECT r.id, r.run_id, t.file AS test_file, r.status, r.outcome, r.retries, r.duration_ms, r.started_at,
        runs.git_commit, runs.git_branch, r.error_message, r.error_location, r.error_snippet, r.error_stack,
        (SELECT a.steps_json FROM attempts a WHERE a.result_id = r.id ORDER BY a.retry LIMIT 1) AS test_steps
      FROM tests t JOIN results r ON r.test_id = t.id JOIN runs ON runs.id = r.run_id
      WHERE t.title = @title AND (CAST(@file AS TEXT) IS NULL OR t.file = @file) AND r.browser = @browser ${narrow}
      ORDER BY r.started_at DESC, r.id DESC LIMIT @limit OFFSET @offset`;
  const slowCounts = (avgDurations: string) => `SELECT count(*) AS total, coalesce(sum(${t.boolInt(`avg_duration > ${SLOW_MS}`)}), 0) AS slow,
      coalesce(sum(${t.boolInt(`avg_duration > ${VERY_SLOW_MS}`)}), 0) AS very_slow
    FROM (${avgDurations}) averages`;
  // The window's sums, maxima and averages of sums from its days, or from its whole months and
  // weeks and its edge days (window-split.ts): the same figures, fewer rows.
  const summed = (rows: string) => ({
    summary: `SELECT coalesce(sum(runs), 0) AS total_tests, coalesce(sum(passed), 0) AS total_passed, coalesce(sum(failed), 0) AS total_failed,
        coalesce(sum(skipped), 0) AS total_skipped, coalesce(sum(duration_sum) / nullif(sum(timed_runs), 0), 0) AS avg_duration
      FROM ${rows} w`,
    browsers: `SELECT browser, sum(passed) AS passed, sum(failed) AS failed, sum(skipped) AS skipped, sum(runs) AS total,
        coalesce(sum(duration_sum) / nullif(sum(timed_runs), 0), 0) AS avg_duration
      FROM ${rows} w GROUP BY browser ORDER BY ${r.bytes('browser')}`,
    slowest: `${slowPageOf(slowGroups(rows))} ${slowPageOrder}`,
    // The slow-tests page: its rows and the window's counts beside each, from one grouping of the
    // window's rows (two statements grouped them twice: docs/benchmarks.md#ten-million-results).
    slowestCounted: `WITH w AS MATERIALIZED (${slowGroups(rows)}), counts AS (${slowCounts('SELECT avg_duration FROM w')})
      ${slowPageOf('SELECT * FROM w', ', c.total, c.slow, c.very_slow')} CROSS JOIN counts c ${slowPageOrder}`,
    slowCounts: slowCounts(`SELECT avg_duration FROM (${slowGroups(rows)}) w`),
  });
  const errorGroups = `WITH g AS MATERIALIZED (SELECT test_id, browser, fingerprint, sum(occurrences) AS occurrences
      FROM daily_error_stats e WHERE e.day BETWEEN @from AND @to GROUP BY test_id, browser, fingerprint)`;
  const errorCounts = `counts AS (SELECT count(DISTINCT g.fingerprint) AS total, count(DISTINCT s.category) AS categories,
        coalesce(sum(g.occurrences), 0) AS failures, count(DISTINCT g.browser) AS browser_count
      FROM g JOIN error_samples s ON s.fingerprint = g.fingerprint)`;
  return {
    byDays: summed('(SELECT * FROM daily_test_stats WHERE day BETWEEN @from AND @to)'),
    byPeriods: summed(`(${splitRows(t)})`),
    runCount: `SELECT count(DISTINCT ${runGroup('runs', dialect)}) AS n FROM runs WHERE ${runFilter}`,
    // Every run the analytics count, whatever the window (a build's shards once): what an empty window points to.
    storedRuns: `SELECT count(DISTINCT ${runGroup('runs', dialect)}) AS runs, max(started_at) AS newest, min(started_at) AS oldest FROM runs WHERE is_duplicate = 0 AND status != 'rejected' AND (CAST(@branch AS TEXT) IS NULL OR git_branch = @branch)`,
    recentRuns: `${groupedRunsSql(runFilter, dialect)} LIMIT @limit`,
    slowestAllTime: `${slowAllTime} ${slowOrder}`,
    slowCountsAllTime: slowCounts('SELECT duration_sum / timed_runs AS avg_duration FROM test_totals WHERE timed_runs > 0'),
    days: `SELECT day, sum(runs) AS total_tests, sum(passed) AS passed, sum(failed) AS failed, sum(skipped) AS skipped,
        coalesce(sum(duration_sum) / nullif(sum(timed_runs), 0), 0) AS avg_duration
      FROM daily_test_stats WHERE day BETWEEN @from AND @to GROUP BY day ORDER BY day`,
    testDays: `SELECT d.day, sum(d.runs) AS runs, sum(d.passed) AS passed, sum(d.failed) AS failed, sum(d.skipped) AS skipped,
        coalesce(sum(d.duration_sum) / nullif(sum(d.timed_runs), 0), 0) AS avg_duration
      FROM tests t JOIN daily_test_stats d ON d.test_id = t.id
      WHERE t.file = @file AND t.title = @title AND d.browser = @browser AND d.day BETWEEN @from AND @to
      GROUP BY d.day ORDER BY d.day`,
    testDaysOnBranch: `SELECT ${t.utcDay('r.started_at')} AS day, count(*) AS runs, sum(${t.boolInt("r.status = 'passed'")}) AS passed,
        sum(${t.boolInt("r.status IN ('failed', 'timedOut')")}) AS failed, sum(${t.boolInt("r.status = 'skipped'")}) AS skipped,
        coalesce(sum(CASE WHEN r.status != 'skipped' THEN r.duration_ms END) / nullif(sum(${t.boolInt("r.status != 'skipped'")}), 0), 0) AS avg_duration
      ${testResultsOnBranch} AND t.file = @file AND r.started_at >= @fromMs AND r.started_at < @toMs
      GROUP BY ${t.utcDay('r.started_at')} ORDER BY ${t.utcDay('r.started_at')}`,
    testHistory: testHistoryPage(''),
    testHistoryOnBranch: testHistoryPage(`AND ${onBranch}`),
    testHistoryCount: `SELECT count(*) FROM tests t JOIN results r ON r.test_id = t.id
      WHERE t.title = @title AND (CAST(@file AS TEXT) IS NULL OR t.file = @file) AND r.browser = @browser`,
    testHistoryCountOnBranch: `SELECT count(*) ${testResultsOnBranch} AND (CAST(@file AS TEXT) IS NULL OR t.file = @file)`,
    // One grouping of the window's error rows by test, browser and pattern (a few per test, not
    // a row per day), and everything else from it: the page of patterns with their samples, each
    // one's distinct titles (counted, the first few listed: the screen shows 3 and "and N more"),
    // and the cards' counts beside each row. Three statements each grouping every row of the
    // window cost 1.8 to 2.0 s over all time at ten million results, this one 0.7 to 0.8 s; the
    // grouping's order is the primary key's, which sorts a third faster than by pattern first
    // (docs/benchmarks.md#ten-million-results).
    errorPatterns: `${errorGroups}, page AS (SELECT f.fingerprint, s.category, s.summary, s.message, f.frequency, f.browsers
          FROM (SELECT fingerprint, sum(occurrences) AS frequency, ${r.distinctList('browser')} AS browsers FROM g GROUP BY fingerprint) f
          JOIN error_samples s ON s.fingerprint = f.fingerprint
          ORDER BY f.frequency DESC, ${r.bytes('s.category')}, ${r.bytes('f.fingerprint')} LIMIT @limit OFFSET @offset),
        affected AS MATERIALIZED (SELECT fingerprint, title, row_number() OVER (PARTITION BY fingerprint ORDER BY ${r.bytes('title')}) AS place,
            count(*) OVER (PARTITION BY fingerprint) AS test_count
          FROM (SELECT DISTINCT g.fingerprint, t.title FROM g JOIN tests t ON t.id = g.test_id WHERE g.fingerprint IN (SELECT fingerprint FROM page)) named),
        ${errorCounts}
      SELECT p.*, (SELECT max(a.test_count) FROM affected a WHERE a.fingerprint = p.fingerprint) AS test_count,
        (SELECT ${r.jsonArray('a.title', r.bytes('a.title'))} FROM affected a WHERE a.fingerprint = p.fingerprint AND a.place <= ${AFFECTED_TESTS_LISTED}) AS tests_json,
        c.total, c.categories, c.failures, c.browser_count
      FROM page p CROSS JOIN counts c
      ORDER BY p.frequency DESC, ${r.bytes('p.category')}, ${r.bytes('p.fingerprint')}`,
    // The counts alone, for a page past the last pattern (or a window without errors).
    errorPatternCounts: `${errorGroups}, ${errorCounts} SELECT total, categories, failures, browser_count FROM counts`,
  };
}

const TEXTS = { sqlite: textsFor('sqlite'), postgres: textsFor('postgres') };
const textsOf = (store: AnyStore) => TEXTS[store.dialect];

const bounds = (range: DayRange) => ({ from: range.from, to: range.to, fromMs: range.from * DAY_MS, toMs: (range.to + 1) * DAY_MS });

/**
 * The texts that sum `range` and their parameters: by its whole months and weeks and edge days
 * when it holds a whole week (window-scan.ts periodParams), else by its days.
 * `wholePeriods: false` reads the days alone (what the other reading is checked against).
 */
async function summing(store: AnyStore, range: DayRange, options: ScanOptions) {
  const s = textsOf(store);
  const byPeriods = await periodParams(store, [range], options.wholePeriods ?? true);
  return byPeriods ? { texts: s.byPeriods, params: { ...bounds(range), ...byPeriods } } : { texts: s.byDays, params: bounds(range) };
}

export async function windowSummary(store: AnyStore, range: DayRange, options: ScanOptions = {}) {
  const { texts, params } = await summing(store, range, options);
  const totals = (await store.sql.get<{ total_tests: number; total_passed: number; total_failed: number; total_skipped: number; avg_duration: number }>(texts.summary, params))!;
  return { total_runs: await windowRunCount(store, range), ...totals };
}

/** Runs stored in the window (the dashboard's Test Runs card), the shards of a build as one; on one branch if given. */
export async function windowRunCount(store: AnyStore, range: DayRange, branch: string | null = null): Promise<number> {
  return (await store.sql.get<{ n: number }>(textsOf(store).runCount, { ...bounds(range), branch }))!.n;
}

/** The runs stored (of one branch, or of all when `branch` is null), and the span they cover (ms). */
export async function storedRunSpan(store: AnyStore, branch: string | null = null): Promise<{ runs: number; newest: number | null; oldest: number | null }> {
  return (await store.sql.get<{ runs: number; newest: number | null; oldest: number | null }>(textsOf(store).storedRuns, { branch }))!;
}

export async function browserTotals(store: AnyStore, range: DayRange, options: ScanOptions = {}) {
  const { texts, params } = await summing(store, range, options);
  return store.sql.all<{ browser: string; passed: number; failed: number; skipped: number; total: number; avg_duration: number }>(texts.browsers, params);
}

/** The latest runs of the window, the shards of a build as one run with its shards listed. */
export async function recentRuns(store: AnyStore, range: DayRange, limit: number, branch: string | null = null) {
  type Row = Omit<RecentRun, 'execution_time' | 'shards' | 'browser'> & { started_at: number; browsers_json: string; shards_json: string | null };
  const rows = await store.sql.all<Row>(textsOf(store).recentRuns, { ...bounds(range), limit, branch });
  return rows.map(({ shards_json, browsers_json, ...run }) => ({
    ...run,
    // Each shard's browser list ("chromium, firefox"), merged as one run's list; the shards'
    // lists in one order, which neither engine's aggregate promises.
    browser: [...new Set((JSON.parse(browsers_json) as string[]).sort().flatMap((b) => b.split(', ')))].join(', '),
    shards: shards_json === null ? null : (JSON.parse(shards_json) as RunShard[]),
  }));
}

type SlowRow = Omit<SlowTest, 'test_full_title'> & { title_path: string };

/** A page of the slowest tests of the window (when it holds every stored day, from the all-time rollup). */
export async function slowestTests(store: AnyStore, range: DayRange, page: { limit: number; offset: number }, options: ScanOptions = {}): Promise<SlowRow[]> {
  if (await coversAllDays(store, range)) return store.sql.all<SlowRow>(textsOf(store).slowestAllTime, page);
  const { texts, params } = await summing(store, range, options);
  return store.sql.all<SlowRow>(texts.slowest, { ...params, ...page });
}

type SlowCounts = { total: number; slow: number; very_slow: number };

/**
 * A page of the slowest tests of the window, and how many of its tests ran and how many of them
 * are slow and very slow: from the all-time rollup when the window holds every stored day, else
 * from one grouping of the window's rows, whose counts ride on every row of the page (a page past
 * the last test asks for them alone).
 */
export async function slowTestsWithCounts(store: AnyStore, range: DayRange, page: { limit: number; offset: number }, options: ScanOptions = {}): Promise<{ rows: SlowRow[]; counts: SlowCounts }> {
  const s = textsOf(store);
  if (await coversAllDays(store, range)) return { rows: await store.sql.all<SlowRow>(s.slowestAllTime, page), counts: (await store.sql.get<SlowCounts>(s.slowCountsAllTime))! };
  const { texts, params } = await summing(store, range, options);
  const found = await store.sql.all<SlowRow & SlowCounts>(texts.slowestCounted, { ...params, ...page });
  const { total, slow, very_slow } = found[0] ?? (await store.sql.get<SlowCounts>(texts.slowCounts, params))!;
  return { rows: found.map(({ total: _t, slow: _s, very_slow: _v, ...row }) => row), counts: { total, slow, very_slow } };
}

async function coversAllDays(store: AnyStore, range: DayRange): Promise<boolean> {
  const stored = await dayBounds(store);
  return stored.first === null || stored.last === null || (range.from <= stored.first && range.to >= stored.last);
}

export async function dailyTotals(store: AnyStore, range: DayRange) {
  return store.sql.all<Omit<TrendDay, 'date'> & { day: number }>(textsOf(store).days, bounds(range));
}

/** A test's figures per day on one browser: from the daily rollup, or from its results when `branch` narrows them to one branch's runs. */
export async function testDailyTotals(store: AnyStore, test: { file: string; title: string; browser: string; branch?: string | null }, range: DayRange) {
  const s = textsOf(store);
  const branch = test.branch ?? null;
  const query = { file: test.file, title: test.title, browser: test.browser, ...bounds(range) };
  type Row = { day: number; runs: number; passed: number; failed: number; skipped: number; avg_duration: number };
  return branch === null ? store.sql.all<Row>(s.testDays, query) : store.sql.all<Row>(s.testDaysOnBranch, { ...query, branch });
}

export interface TestHistoryQuery {
  title: string;
  browser: string;
  /** Narrows a title that several files share; null: every file. */
  file: string | null;
  /** Only this branch's runs; null or absent: every branch. */
  branch?: string | null;
}

export async function testHistory(store: AnyStore, test: TestHistoryQuery, page: { limit: number; offset: number }) {
  const s = textsOf(store);
  const branch = test.branch ?? null;
  const query = { title: test.title, browser: test.browser, file: test.file, ...(branch === null ? {} : { branch }) };
  type Row = Omit<TestResultDetail, 'run_date' | 'attempts'> & { started_at: number };
  const rows = await withAttempts(store, await store.sql.all<Row>(branch === null ? s.testHistory : s.testHistoryOnBranch, { ...query, ...page }));
  return { rows, total: (await store.sql.value<number>(branch === null ? s.testHistoryCount : s.testHistoryCountOnBranch, query))! };
}

type ErrorPatternCounts = { total: number; categories: number; failures: number; browser_count: number };

export async function errorPatternRows(store: AnyStore, range: DayRange, page: { limit: number; offset: number }) {
  const s = textsOf(store);
  type Row = ErrorPatternCounts & {
    fingerprint: string;
    category: string;
    summary: string;
    message: string;
    frequency: number;
    browsers: string;
    /** JSON array of titles: a title may hold commas, so no joined text here. */
    tests_json: string;
    test_count: number;
  };
  const found = await store.sql.all<Row>(s.errorPatterns, { ...bounds(range), ...page });
  // The counts ride on every row of the page; a page with none asks for them alone.
  const { total, categories, failures, browser_count } = found[0] ?? (await store.sql.get<ErrorPatternCounts>(s.errorPatternCounts, bounds(range)))!;
  const rows = found.map(({ total: _t, categories: _c, failures: _f, browser_count: _b, ...row }) => row);
  return { rows, counts: { total, categories, failures, browsers: browser_count } };
}
