import { SLOW_MS, VERY_SLOW_MS } from '../../core/analytics/formulas.js';
import type { RecentRun, RunShard, SlowTest, TestResultDetail, TrendDay } from '../../core/api/analytics.js';
import type { SqliteDatabase, Store } from './open.js';
import { DAY_MS } from './rollups.js';
import { groupedRunsSql, runGroup } from './build-groups.js';
import { ensureBranchDays, onBranch } from './branch-days.js';

/** A range of UTC day numbers, both ends included. */
export interface DayRange {
  from: number;
  to: number;
}

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

// Per test and browser over a window of days: sums of the daily rollup, plus the pass/fail
// changes between consecutive days (the last attempt of one day against the first of the next).
export const TOTALS_SQL = `
  WITH w AS (SELECT * FROM daily_test_stats WHERE day BETWEEN @from AND @to),
  boundaries AS (
    SELECT test_id, browser, sum(previous IS NOT NULL AND previous != first_outcome) AS changes
    FROM (SELECT test_id, browser, first_outcome, LAG(last_outcome) OVER (PARTITION BY test_id, browser ORDER BY day) AS previous FROM w WHERE attempts > 0)
    GROUP BY test_id, browser
  ),
  totals AS (
    SELECT test_id, browser, sum(runs) AS runs, sum(passed) AS passed, sum(failed) AS failed, sum(skipped) AS skipped,
      sum(passed_on_retry) AS passed_on_retry, sum(scored_passed) AS scored_passed, sum(scored_failed) AS scored_failed,
      sum(attempts) AS attempts, sum(changes) AS changes, sum(duration_sum) AS duration_sum, sum(timed_runs) AS timed_runs,
      max(duration_max) AS duration_max
    FROM w GROUP BY test_id, browser
  )
  SELECT t.id AS test_id, t.title AS test_title, t.title_path, t.file AS test_file, totals.browser, totals.runs, totals.passed, totals.failed,
    totals.skipped, totals.passed_on_retry, totals.scored_passed, totals.scored_failed, totals.attempts,
    totals.changes + coalesce(b.changes, 0) AS changes, totals.duration_sum, totals.timed_runs, totals.duration_max
  FROM totals
  JOIN tests t ON t.id = totals.test_id
  LEFT JOIN boundaries b ON b.test_id = totals.test_id AND b.browser = totals.browser`;


const SLOW_WINDOW = `SELECT t.title AS test_title, t.title_path, t.file AS test_file, d.browser, coalesce(p.project_name, d.browser) AS project,
    sum(d.duration_sum) / sum(d.timed_runs) AS avg_duration, max(d.duration_max) AS max_duration, sum(d.runs) AS total_runs
  FROM daily_test_stats d JOIN tests t ON t.id = d.test_id LEFT JOIN browser_projects p ON p.browser = d.browser
  WHERE d.day BETWEEN @from AND @to
  GROUP BY d.test_id, d.browser HAVING sum(d.timed_runs) > 0`;
// The same figures when the window holds every stored day: the all-time rollup has them summed.
const SLOW_ALL_TIME = `SELECT t.title AS test_title, t.title_path, t.file AS test_file, d.browser, coalesce(p.project_name, d.browser) AS project,
    d.duration_sum / d.timed_runs AS avg_duration, d.duration_max AS max_duration, d.runs AS total_runs
  FROM test_totals d JOIN tests t ON t.id = d.test_id LEFT JOIN browser_projects p ON p.browser = d.browser
  WHERE d.timed_runs > 0`;

/** Names of affected tests listed per error pattern; the count says how many there are. */
export const AFFECTED_TESTS_LISTED = 20;

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<SqliteDatabase, Statements>();

const TOTALS_OF = TOTALS_SQL.replace('WHERE day BETWEEN @from AND @to', 'WHERE day BETWEEN @from AND @to AND test_id IN (SELECT value FROM json_each(@ids))');

function prepare(sqlite: SqliteDatabase) {
  ensureBranchDays(sqlite);
  // The shards of one CI build count once (build-groups.ts); a branch, when given, narrows to its runs.
  const runFilter = `is_duplicate = 0 AND status != 'rejected' AND started_at >= @fromMs AND started_at < @toMs AND (@branch IS NULL OR git_branch = @branch)`;
  return {
    totals: sqlite.prepare(TOTALS_SQL),
    flakyTotals: sqlite.prepare(`SELECT * FROM (${TOTALS_SQL}) WHERE scored_passed + scored_failed > 0 AND (passed_on_retry > 0 OR changes >= 2)`),
    // The same, for some tests only (JSON array of ids): the trends of one page of the flaky list.
    totalsOf: sqlite.prepare(TOTALS_OF),
    branchTotalsOf: sqlite.prepare(onBranch(TOTALS_OF)),
    runCount: sqlite.prepare(`SELECT count(DISTINCT ${runGroup('runs')}) AS n FROM runs WHERE ${runFilter}`),
    // Every run the analytics count, whatever the window (a build's shards once): what an empty window points to.
    storedRuns: sqlite.prepare(`SELECT count(DISTINCT ${runGroup('runs')}) AS runs, max(started_at) AS newest, min(started_at) AS oldest FROM runs WHERE is_duplicate = 0 AND status != 'rejected' AND (@branch IS NULL OR git_branch = @branch)`),
    summary: sqlite.prepare(`SELECT coalesce(sum(runs), 0) AS total_tests, coalesce(sum(passed), 0) AS total_passed, coalesce(sum(failed), 0) AS total_failed,
        coalesce(sum(skipped), 0) AS total_skipped, coalesce(sum(duration_sum) / nullif(sum(timed_runs), 0), 0) AS avg_duration
      FROM daily_test_stats WHERE day BETWEEN @from AND @to`),
    browsers: sqlite.prepare(`SELECT browser, sum(passed) AS passed, sum(failed) AS failed, sum(skipped) AS skipped, sum(runs) AS total,
        coalesce(sum(duration_sum) / nullif(sum(timed_runs), 0), 0) AS avg_duration
      FROM daily_test_stats WHERE day BETWEEN @from AND @to GROUP BY browser ORDER BY browser`),
    recentRuns: sqlite.prepare(`${groupedRunsSql(runFilter)} LIMIT @limit`),
    slowest: sqlite.prepare(`${SLOW_WINDOW} ORDER BY avg_duration DESC, d.test_id, d.browser LIMIT @limit OFFSET @offset`),
    slowestAllTime: sqlite.prepare(`${SLOW_ALL_TIME} ORDER BY avg_duration DESC, d.test_id, d.browser LIMIT @limit OFFSET @offset`),
    slowCounts: sqlite.prepare(`SELECT count(*) AS total, coalesce(sum(avg_duration > ${SLOW_MS}), 0) AS slow, coalesce(sum(avg_duration > ${VERY_SLOW_MS}), 0) AS very_slow
      FROM (SELECT sum(duration_sum) / sum(timed_runs) AS avg_duration FROM daily_test_stats WHERE day BETWEEN @from AND @to GROUP BY test_id, browser HAVING sum(timed_runs) > 0)`),
    slowCountsAllTime: sqlite.prepare(`SELECT count(*) AS total, coalesce(sum(avg_duration > ${SLOW_MS}), 0) AS slow, coalesce(sum(avg_duration > ${VERY_SLOW_MS}), 0) AS very_slow
      FROM (SELECT duration_sum / timed_runs AS avg_duration FROM test_totals WHERE timed_runs > 0)`),
    storedDays: sqlite.prepare('SELECT min(day) AS first, max(day) AS last FROM daily_test_stats'),
    days: sqlite.prepare(`SELECT day, sum(runs) AS total_tests, sum(passed) AS passed, sum(failed) AS failed, sum(skipped) AS skipped,
        coalesce(sum(duration_sum) / nullif(sum(timed_runs), 0), 0) AS avg_duration
      FROM daily_test_stats WHERE day BETWEEN @from AND @to GROUP BY day ORDER BY day`),
    testDays: sqlite.prepare(`SELECT d.day, sum(d.runs) AS runs, sum(d.passed) AS passed, sum(d.failed) AS failed, sum(d.skipped) AS skipped,
        coalesce(sum(d.duration_sum) / nullif(sum(d.timed_runs), 0), 0) AS avg_duration
      FROM tests t JOIN daily_test_stats d ON d.test_id = t.id
      WHERE t.file = @file AND t.title = @title AND d.browser = @browser AND d.day BETWEEN @from AND @to
      GROUP BY d.day ORDER BY d.day`),
    testHistory: sqlite.prepare(`SELECT r.id, r.run_id, t.file AS test_file, r.status, r.outcome, r.retries, r.duration_ms, r.started_at,
        runs.git_commit, runs.git_branch, r.error_message, r.error_location, r.error_snippet, r.error_stack,
        (SELECT a.steps_json FROM attempts a WHERE a.result_id = r.id ORDER BY a.retry LIMIT 1) AS test_steps
      FROM tests t JOIN results r ON r.test_id = t.id JOIN runs ON runs.id = r.run_id
      WHERE t.title = @title AND (@file IS NULL OR t.file = @file) AND r.browser = @browser
      ORDER BY r.started_at DESC, r.id DESC LIMIT @limit OFFSET @offset`),
    testHistoryCount: sqlite.prepare(`SELECT count(*) FROM tests t JOIN results r ON r.test_id = t.id
      WHERE t.title = @title AND (@file IS NULL OR t.file = @file) AND r.browser = @browser`).pluck(),
    // Affected tests: the first few names (the screen shows 3 and "and N more") and the count.
    errorPatterns: sqlite.prepare(`SELECT e.fingerprint, s.category, s.summary, s.message, sum(e.occurrences) AS frequency,
        group_concat(DISTINCT e.browser) AS browsers, count(DISTINCT t.title) AS test_count,
        (SELECT json_group_array(title) FROM (SELECT DISTINCT t.title FROM daily_error_stats x JOIN tests t ON t.id = x.test_id
          WHERE x.fingerprint = e.fingerprint AND x.day BETWEEN @from AND @to ORDER BY t.title LIMIT ${AFFECTED_TESTS_LISTED})) AS tests_json
      FROM daily_error_stats e JOIN error_samples s ON s.fingerprint = e.fingerprint JOIN tests t ON t.id = e.test_id
      WHERE e.day BETWEEN @from AND @to
      GROUP BY e.fingerprint ORDER BY frequency DESC, s.category, e.fingerprint LIMIT @limit OFFSET @offset`),
    errorPatternCounts: sqlite.prepare(`SELECT count(DISTINCT e.fingerprint) AS total, count(DISTINCT s.category) AS categories,
        coalesce(sum(e.occurrences), 0) AS failures, count(DISTINCT e.browser) AS browsers
      FROM daily_error_stats e JOIN error_samples s ON s.fingerprint = e.fingerprint WHERE e.day BETWEEN @from AND @to`),
  };
}

function statements(store: Store): Statements {
  let s = cache.get(store.sqlite);
  if (!s) {
    s = prepare(store.sqlite);
    cache.set(store.sqlite, s);
  }
  return s;
}

const bounds = (range: DayRange) => ({ from: range.from, to: range.to, fromMs: range.from * DAY_MS, toMs: (range.to + 1) * DAY_MS });

export function testBrowserTotals(store: Store, range: DayRange, onlyFlaky: boolean): TestBrowserTotals[] {
  const s = statements(store);
  return (onlyFlaky ? s.flakyTotals : s.totals).all(bounds(range)) as TestBrowserTotals[];
}

/** `branch`: one branch, whose days fillBranchDays has made for `range`; null: every branch. */
export function testBrowserTotalsOf(store: Store, range: DayRange, testIds: readonly number[], branch: string | null = null): TestBrowserTotals[] {
  const s = statements(store);
  return (branch !== null ? s.branchTotalsOf : s.totalsOf).all({ ...bounds(range), ids: JSON.stringify(testIds) }) as TestBrowserTotals[];
}

export function windowSummary(store: Store, range: DayRange) {
  const s = statements(store);
  const totals = s.summary.get(bounds(range)) as { total_tests: number; total_passed: number; total_failed: number; total_skipped: number; avg_duration: number };
  const { n } = s.runCount.get({ ...bounds(range), branch: null }) as { n: number };
  return { total_runs: n, ...totals };
}

/** Runs stored in the window (the dashboard's Test Runs card), the shards of a build as one; on one branch if given. */
export function windowRunCount(store: Store, range: DayRange, branch: string | null = null): number {
  return (statements(store).runCount.get({ ...bounds(range), branch }) as { n: number }).n;
}

/** Runs the analytics count over all time, and the start of the newest and oldest (ms). */
/** The runs stored (of one branch, or of all when `branch` is null), and the span they cover. */
export function storedRunSpan(store: Store, branch: string | null = null): { runs: number; newest: number | null; oldest: number | null } {
  return statements(store).storedRuns.get({ branch }) as { runs: number; newest: number | null; oldest: number | null };
}

export function browserTotals(store: Store, range: DayRange) {
  return statements(store).browsers.all(bounds(range)) as Array<{ browser: string; passed: number; failed: number; skipped: number; total: number; avg_duration: number }>;
}

/** The latest runs of the window, the shards of a build as one run with its shards listed. */
export function recentRuns(store: Store, range: DayRange, limit: number, branch: string | null = null) {
  type Row = Omit<RecentRun, 'execution_time' | 'shards' | 'browser'> & { started_at: number; browsers_json: string; shards_json: string | null };
  const rows = statements(store).recentRuns.all({ ...bounds(range), limit, branch }) as Row[];
  return rows.map(({ shards_json, browsers_json, ...run }) => ({
    ...run,
    // Each shard's browser list ("chromium, firefox"), merged as one run's list.
    browser: [...new Set((JSON.parse(browsers_json) as string[]).flatMap((b) => b.split(', ')))].join(', '),
    shards: shards_json === null ? null : (JSON.parse(shards_json) as RunShard[]),
  }));
}

type SlowRow = Omit<SlowTest, 'test_full_title'> & { title_path: string };

/** A page of the slowest tests of the window (when it holds every stored day, from the all-time rollup). */
export function slowestTests(store: Store, range: DayRange, page: { limit: number; offset: number }): SlowRow[] {
  const s = statements(store);
  return (coversAllDays(store, range) ? s.slowestAllTime.all(page) : s.slowest.all({ ...bounds(range), ...page })) as SlowRow[];
}

/** How many tests of the window ran, and how many of them are slow and very slow. */
export function slowTestCounts(store: Store, range: DayRange) {
  const s = statements(store);
  return (coversAllDays(store, range) ? s.slowCountsAllTime.get() : s.slowCounts.get(bounds(range))) as { total: number; slow: number; very_slow: number };
}

function coversAllDays(store: Store, range: DayRange): boolean {
  const stored = statements(store).storedDays.get() as { first: number | null; last: number | null };
  return stored.first === null || stored.last === null || (range.from <= stored.first && range.to >= stored.last);
}

export function dailyTotals(store: Store, range: DayRange) {
  return statements(store).days.all(bounds(range)) as Array<Omit<TrendDay, 'date'> & { day: number }>;
}

export function testDailyTotals(store: Store, test: { file: string; title: string; browser: string }, range: DayRange) {
  return statements(store).testDays.all({ ...test, ...bounds(range) }) as Array<{ day: number; runs: number; passed: number; failed: number; skipped: number; avg_duration: number }>;
}

export interface TestHistoryQuery {
  title: string;
  browser: string;
  /** Narrows a title that several files share; null: every file. */
  file: string | null;
}

export function testHistory(store: Store, test: TestHistoryQuery, page: { limit: number; offset: number }) {
  const s = statements(store);
  const rows = s.testHistory.all({ ...test, ...page }) as Array<Omit<TestResultDetail, 'run_date'> & { started_at: number }>;
  return { rows, total: s.testHistoryCount.get(test) as number };
}

export function errorPatternRows(store: Store, range: DayRange, page: { limit: number; offset: number }) {
  const s = statements(store);
  const rows = s.errorPatterns.all({ ...bounds(range), ...page }) as Array<{
    fingerprint: string;
    category: string;
    summary: string;
    message: string;
    frequency: number;
    browsers: string;
    /** JSON array of titles: a title may hold commas, so no joined text here. */
    tests_json: string;
    test_count: number;
  }>;
  const counts = s.errorPatternCounts.get(bounds(range)) as { total: number; categories: number; failures: number; browsers: number };
  return { rows, counts };
}
