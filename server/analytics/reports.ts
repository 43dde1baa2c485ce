import { stripAnsi } from '../../core/ansi.js';
import { passRateFraction } from '../../core/analytics/formulas.js';
import type { DailyStat, ErrorPattern, ErrorPatternsPage, Paged, SlowTest, SlowTestsPage, TestResultDetail, TrendDay } from '../../core/api/analytics.js';
import { dailyTotals, errorPatternRows, slowestTests, slowTestsWithCounts, testDailyTotals, testHistory, type DayRange, type TestHistoryQuery } from '../store/read/analytics.js';
import type { AnyStore } from '../store/engine/types.js';
import { isoDate, isoTime } from './windows.js';

const fullTitle = (titlePath: string): string => (JSON.parse(titlePath) as string[]).join(' › ');

/** One page of a list: `page` is 1-based. */
export interface PageArgs {
  page: number;
  pageSize: number;
}
const window = (p: PageArgs) => ({ limit: p.pageSize, offset: (p.page - 1) * p.pageSize });

export async function slowTests(store: AnyStore, range: DayRange, limit: number): Promise<SlowTest[]> {
  return (await slowestTests(store, range, { limit, offset: 0 })).map(({ title_path, ...row }) => ({ ...row, test_full_title: fullTitle(title_path) }));
}

export async function slowTestsPage(store: AnyStore, range: DayRange, p: PageArgs): Promise<SlowTestsPage> {
  const { rows, counts: { total, ...counts } } = await slowTestsWithCounts(store, range, window(p));
  const items = rows.map(({ title_path, ...row }) => ({ ...row, test_full_title: fullTitle(title_path) }));
  return { items, total, page: p.page, pageSize: p.pageSize, counts };
}

/** Every day of the window, with zeros for days without runs, so charts keep their time axis. */
export async function trendDays(store: AnyStore, range: DayRange): Promise<TrendDay[]> {
  const rows = new Map((await dailyTotals(store, range)).map((r) => [r.day, r]));
  const days: TrendDay[] = [];
  for (let day = range.from; day <= range.to; day++) {
    const r = rows.get(day);
    days.push({ date: isoDate(day), total_tests: r?.total_tests ?? 0, passed: r?.passed ?? 0, failed: r?.failed ?? 0, skipped: r?.skipped ?? 0, avg_duration: r?.avg_duration ?? 0 });
  }
  return days;
}

/** Days with runs only: the flaky dialog's chart and CSV list what happened (on one branch when `branch` is given). */
export async function dailyStats(store: AnyStore, test: { file: string; title: string; browser: string; branch?: string | null }, range: DayRange): Promise<DailyStat[]> {
  return (await testDailyTotals(store, test, range)).map((r) => ({
    date: isoDate(r.day),
    pass_rate: passRateFraction(r.passed, r.runs, r.skipped),
    total_runs: r.runs,
    passed_runs: r.passed,
    failed_runs: r.failed,
    avg_duration: r.avg_duration,
  }));
}

/** A test's results on one browser, newest first; `file` separates tests that share a title. */
export async function testDetails(store: AnyStore, test: TestHistoryQuery, p: PageArgs): Promise<Paged<TestResultDetail>> {
  const { rows, total } = await testHistory(store, test, window(p));
  return { items: rows.map(({ started_at, ...row }) => ({ ...row, run_date: isoTime(started_at) })), total, page: p.page, pageSize: p.pageSize };
}

function affected(json: string): { affected_tests: string; affected_test_titles: string[] } {
  const titles = JSON.parse(json) as string[];
  return { affected_tests: titles.join(','), affected_test_titles: titles };
}

/** One pattern per category and fingerprint; the message shown whole has its colour codes stripped. */
export async function errorPatterns(store: AnyStore, range: DayRange, p: PageArgs): Promise<ErrorPatternsPage> {
  const { rows, counts } = await errorPatternRows(store, range, window(p));
  const { total, ...cards } = counts;
  const items = rows.map(
    (r): ErrorPattern => ({
      error_category: r.category,
      error_summary: r.summary,
      fingerprint: r.fingerprint,
      frequency: r.frequency,
      affected_browsers: r.browsers,
      // The comma list of docs/api.md#analytics, and the titles whole beside it (a title may hold a comma).
      ...affected(r.tests_json),
      affected_test_count: r.test_count,
      full_error: stripAnsi(r.message),
    }),
  );
  return { items, total, page: p.page, pageSize: p.pageSize, counts: cards };
}
