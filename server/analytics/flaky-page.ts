import { type FlakeEpisode, type TrendDirection, episodeDays, finalPassRateFraction, flakyScore, passRateFraction } from '../../core/analytics/formulas.js';
import type { TimeToFix, BrowserEntry, FlakySortKey, FlakyTestGroup, FlakyTestsPage, TrendRecord } from '../../core/api/analytics.js';
import { flakyGroupPage, flakyPeriodTotals, type PeriodTotals, type Severity, type SortOrder } from '../store/read/flaky-page.js';
import type { AnyStore } from '../store/engine/types.js';
import { onOneConnection } from '../store/engine/one-connection.js';
import { pairTotalsOf } from '../store/read/pair-totals.js';
import { allTimeAnswers, dataSignature } from '../store/read/window-scan.js';
import { allFlakeEpisodes } from './flake-episodes.js';
import { FLAKY_TREND_PERIOD } from './dashboard.js';
import { trendRecord, trendWindows } from './flaky.js';
import { isoDate, isoTime, lastDays, today } from './windows.js';
import { ownersOf } from '../store/read/owners.js';
import { flakeEpisodesOf, quarantinedAtOf } from '../store/read/time-to-fix.js';

export interface FlakyListArgs {
  days: number;
  now: number;
  page: number;
  pageSize: number;
  search: string | null;
  browser: string | null;
  severity: Severity | null;
  critical: boolean;
  trend: TrendDirection | null;
  sort: FlakySortKey;
  order: SortOrder;
  /** One branch's flaky tests; null: every branch. */
  branch?: string | null;
  /** One owner's tests ('@team'), or 'unowned'; null: everyone's. */
  owner?: string | null;
}

/** SQLite's lower() folds ASCII letters only (and the PostgreSQL query as much): the search is folded the same way. */
export const foldAscii = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * One page of flaky groups (docs/api.md#analytics: group and browser entry fields), with the stat cards'
 * counts and each browser's 7-day trend. All history reads the test_totals rollup; a window
 * of days sums the daily rollup.
 */
export async function flakyTestsPage(store: AnyStore, a: FlakyListArgs): Promise<FlakyTestsPage> {
  const branch = a.branch ?? null;
  // One branch's window totals are a temporary table (flaky-page.ts flaky_window): made and read on one connection.
  return branch === null ? pageOf(store, a, null) : onOneConnection(store, (pinned) => pageOf(pinned, a, branch));
}

async function pageOf(store: AnyStore, a: FlakyListArgs, branch: string | null): Promise<FlakyTestsPage> {
  const toDay = today(a.now);
  // A window that holds every stored day (30 days of a 20-day history, or all of one branch's
  // days when `days` is 0) is all time: the all-time rollup (test_totals, or the branch's
  // branch_test_totals) answers it with one row per test and browser (measured on the
  // 50,000-test history: 1,090 → 70 ms); any other window sums the daily rollup (branch-days.ts).
  const window = a.days > 0 || branch !== null ? lastDays(a.days, a.now) : null;
  const range = window !== null && (await allTimeAnswers(store, window, branch)) ? null : window;
  // The trend filter needs the trend of every flaky test; only then are they computed.
  const trendKeys = a.trend ? await trendKeysOf(store, a.trend, toDay, branch) : null;
  // Oldest open first needs every flaky test's episodes, kept per data version as the dashboard's are.
  const openOrder = a.sort === 'open_age' ? openOrderOf(await allFlakeEpisodes(store, await dataSignature(store), branch)) : null;
  const { counts, rows, browsers, entries } = await flakyGroupPage(store, {
    range,
    branch,
    search: a.search ? foldAscii(a.search) : null,
    browser: a.browser,
    severity: a.severity,
    critical: a.critical,
    trendKeys,
    owner: a.owner ?? null,
    openOrder,
    sort: a.sort,
    order: a.order,
    limit: a.pageSize,
    offset: (a.page - 1) * a.pageSize,
  });
  const ids = rows.map((r) => r.test_id);
  // Sent together: on PostgreSQL each is a round trip, whose wait grows with the load.
  const [trends, owners, episodes, quarantined] = await Promise.all([pageTrends(store, ids, toDay, branch), ownersOf(store, ids), flakeEpisodesOf(store, ids, branch), quarantinedAtOf(store, rows)]);
  const items = rows.map((row): FlakyTestGroup => {
    const browserEntries = entries
      .filter((e) => e.test_id === row.test_id)
      .map((e): BrowserEntry => {
        const trend = trends.get(`${e.test_id}\u0000${e.browser}`) ?? null;
        return {
          browser: e.browser,
          pass_rate: passRateFraction(e.scored_passed, e.scored_passed + e.scored_failed, 0),
          final_pass_rate: finalPassRateFraction(e.scored_passed, e.passed_on_retry, e.scored_passed + e.scored_failed),
          total_runs: e.runs,
          failed_runs: e.failed,
          skipped_runs: e.skipped,
          flaky_score: flakyScore(e.changes, e.attempts),
          attempts: e.attempts,
          changes: e.changes,
          passed_on_retry: e.passed_on_retry,
          trend_direction: trend?.trend_direction ?? null,
          trend_percentage: trend?.trend_percentage ?? null,
        };
      });
    return {
      test_title: row.title,
      test_file: row.file,
      browsers: browserEntries,
      worst_pass_rate: row.worst,
      total_runs_all_browsers: row.runs,
      total_failed_all_browsers: row.failed,
      highest_flaky_score: row.score,
      last_failure: row.last_failed_at === null ? null : isoTime(row.last_failed_at),
      test_id: row.test_id,
      owners: owners.get(row.test_id) ?? [],
      time_to_fix: timeToFix(episodes.get(row.test_id) ?? [], quarantined.get(row.test_id) ?? null, toDay),
    };
  });
  const { total, ...cards } = counts;
  return { items, total, page: a.page, pageSize: a.pageSize, counts: cards, browsers };
}

/** The ids of the tests whose last episode is open, the longest open first (then by id). */
function openOrderOf(episodes: Map<number, FlakeEpisode[]>): number[] {
  const open: Array<[number, number]> = [];
  for (const [id, list] of episodes) {
    const last = list.at(-1);
    if (last && last.fixedDay === null) open.push([id, last.firstFlakeDay]);
  }
  return open.sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([id]) => id);
}

/** A test's time to fix (docs/screens.md#time-to-fix) from its episodes; null when it never flaked on a day. */
export function timeToFix(episodes: readonly FlakeEpisode[], quarantinedAt: number | null, toDay: number): TimeToFix | null {
  const first = episodes[0];
  const last = episodes.at(-1);
  if (!first || !last) return null;
  const open = last.fixedDay === null;
  return {
    first_flaked: isoDate(first.firstFlakeDay),
    last_flaked: isoDate(last.lastFlakeDay),
    quarantined: quarantinedAt === null ? null : isoTime(quarantinedAt),
    open_since: open ? isoDate(last.firstFlakeDay) : null,
    open_days: open ? episodeDays(last, toDay) : null,
    fixed: open ? null : isoDate(last.fixedDay!),
    days_to_fix: open ? null : episodeDays(last, toDay),
  };
}

/** The trend records of the page's tests only, by test id and browser. */
async function pageTrends(store: AnyStore, testIds: number[], toDay: number, branch: string | null): Promise<Map<string, TrendRecord>> {
  const trends = new Map<string, TrendRecord>();
  if (testIds.length === 0) return trends;
  const { current, previous } = trendWindows(FLAKY_TREND_PERIOD, toDay);
  const key = (t: { test_id: number; browser: string }) => `${t.test_id}\u0000${t.browser}`;
  const [previousTotals, currentTotals] = await Promise.all([pairTotalsOf(store, previous, testIds, branch), pairTotalsOf(store, current, testIds, branch)]);
  const before = new Map(previousTotals.map((t) => [key(t), t]));
  for (const now of currentTotals) {
    const record = trendRecord(now, before.get(key(now)), current);
    if (record) trends.set(key(now), record);
  }
  return trends;
}

/** The flaky tests on a browser whose 7-day trend is `direction` (as flakyTrends decides it), as test id ':' browser (flaky-page.ts's trend key). */
async function trendKeysOf(store: AnyStore, direction: TrendDirection, toDay: number, branch: string | null): Promise<string[]> {
  const windows = trendWindows(FLAKY_TREND_PERIOD, toDay);
  const key = (t: PeriodTotals) => `${t.test_id}:${t.browser}`;
  const rows = await flakyPeriodTotals(store, windows, branch);
  const before = new Map(rows.filter((r) => r.period === 'previous').map((r) => [`${r.test_id}\u0000${r.browser}`, r]));
  const keys: string[] = [];
  for (const now of rows) {
    if (now.period !== 'current') continue;
    if (trendRecord(now, before.get(`${now.test_id}\u0000${now.browser}`), windows.current)?.trend_direction === direction) keys.push(key(now));
  }
  return keys;
}
