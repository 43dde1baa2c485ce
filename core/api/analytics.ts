/**
 * The analytics calls of docs/api.md#analytics, fields named as the UI reads them. Each shape is
 * written once, as a Zod schema in schemas/analytics.ts (which the server validates with and the
 * OpenAPI document is made of); these are the types inferred from them. Type-only imports: the UI
 * that imports this file bundles no Zod.
 */
import type { z } from 'zod';
import type * as s from './schemas/analytics.js';

export type DashboardQuery = z.input<typeof s.dashboardQuery>;
export type DashboardSummary = z.infer<typeof s.dashboardSummary>;
/** The previous window of the same length as the dashboard's: what the 'vs previous period' changes compare with. */
export type PreviousPeriod = z.infer<typeof s.previousPeriod>;
/** What the store holds whatever the window: an empty window says how many runs there are and when the newest ran. */
export type StoredRuns = z.infer<typeof s.storedRuns>;
export type BrowserComparison = z.infer<typeof s.browserComparison>;
export type FlakyTestSummary = z.infer<typeof s.flakyTestSummary>;
/** A broken test on one browser (formulas.ts isBroken): it failed every run of the window it ran in. */
export type BrokenTestSummary = z.infer<typeof s.brokenTestSummary>;
export type RecentRun = z.infer<typeof s.recentRun>;
/** One shard of a sharded run: its own run id (its details page) and counts. */
export type RunShard = z.infer<typeof s.runShard>;
export type SlowTest = z.infer<typeof s.slowTest>;
export type TrendRecord = z.infer<typeof s.trendRecord>;
/** Tests per trend direction: a test counts once per direction any of its browsers has. */
export type TrendCounts = z.infer<typeof s.trendCounts>;
/**
 * GET /api/flaky-trends with `page`: one page of trend records, worst change first, and the
 * counts per direction over every record (before the direction filter).
 */
export type TrendListPage = z.infer<typeof s.trendListPage>;
/**
 * Bounded: the lists hold what the screens show (flakyTests the `limit` most critical, 5 by
 * default), and the totals the screens compute with are counted over every flaky test of the
 * window.
 */
export type DashboardResponse = z.infer<typeof s.dashboardResponse>;
/** GET /api/owners: every owner of a test, for the owner filter. */
export type OwnersResponse = z.infer<typeof s.ownersResponse>;
export type BrowserEntry = z.infer<typeof s.browserEntry>;
export type FlakyTestGroup = z.infer<typeof s.flakyTestGroup>;
export type TestOwnerView = z.infer<typeof s.testOwnerView>;
/** A test's flakes over all history (docs/screens.md#time-to-fix); dates are ISO days (UTC). */
export type TimeToFix = z.infer<typeof s.timeToFix>;
/** The dashboard's time to fix over its window (docs/screens.md#time-to-fix). */
export type TimeToFixSummary = z.infer<typeof s.timeToFixSummary>;

/**
 * Every list call takes `page` (1-based) and `pageSize`. With `page` the answer is this object;
 * without it, the bare list (docs/api.md#lists-and-paging, a first page) with the total in `X-Total-Count`.
 */
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export type FlakySortKey = (typeof s.FLAKY_SORT_KEYS)[number];

/** GET /api/flaky-tests?page=…: `total` is what matches every filter; the cards' counts are over the search and browser only. */
export type FlakyTestsPage = z.infer<typeof s.flakyTestsPage>;
/** GET /api/slow-tests?page=…: the stat cards over every test of the window. */
export type SlowTestsPage = z.infer<typeof s.slowTestsPage>;
/** GET /api/error-patterns?page=…: the stat cards over every pattern of the window. */
export type ErrorPatternsPage = z.infer<typeof s.errorPatternsPage>;
export type TestResultDetail = z.infer<typeof s.testResultDetail>;
export type DailyStat = z.infer<typeof s.dailyStat>;
export type TrendDay = z.infer<typeof s.trendDay>;
export type ErrorPattern = z.infer<typeof s.errorPattern>;
/** GET /api/branches: the branches runs were stored on, most recently run first. */
export type BranchesResponse = z.infer<typeof s.branchesResponse>;
