import type { AttemptEvidence } from './evidence.js';
/** The analytics calls of docs/api.md#analytics, fields named as the UI reads them. */
import type { TrendDirection } from '../analytics/formulas.js';

export interface DashboardSummary {
  total_runs: number;
  total_tests: number;
  total_passed: number;
  total_failed: number;
  total_skipped: number;
  /** Mean duration of a test that ran, in ms. */
  avg_duration: number;
  /** Results that failed their first attempt and passed a retry (outage runs left out): the final pass rate adds them. */
  total_passed_on_retry: number;
}

/** The previous window of the same length as the dashboard's: what the 'vs previous period' changes compare with. */
export interface PreviousPeriod {
  /** Its first and last day (ISO dates, UTC). */
  from: string;
  to: string;
  total_runs: number;
  total_tests: number;
  total_passed: number;
  avg_duration: number;
  flaky_count: number;
}

/** What the store holds whatever the window: an empty window says how many runs there are and when the newest ran. */
export interface StoredRuns {
  runs: number;
  /** ISO 8601 (UTC) start of the newest and oldest runs; null when there are none. */
  newest: string | null;
  oldest: string | null;
}

export interface BrowserComparison {
  browser: string;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  avg_duration: number;
}

export interface FlakyTestSummary {
  test_title: string;
  test_file: string;
  browser: string;
  /** 0-1, first attempts (docs/screens.md#status-rules). */
  pass_rate: number;
  /** 0-1, after retries: runs that passed on the first attempt or a retry. */
  final_pass_rate: number;
  passed_on_retry: number;
  failed_runs: number;
  total_runs: number;
  flaky_score: number;
}

/** A broken test on one browser (formulas.ts isBroken): it failed every run of the window it ran in. */
export interface BrokenTestSummary {
  test_title: string;
  test_file: string;
  browser: string;
  /** Runs that ran (skipped ones left out), every one failed. */
  failed_runs: number;
  skipped_runs: number;
}

export interface RecentRun {
  id: number;
  execution_time: string;
  browser: string;
  project: string | null;
  total_tests: number;
  passed_tests: number;
  failed_tests: number;
  skipped_tests: number;
  duration_ms: number;
  /** The CI build, when known; its URL is an http(s) link. */
  build_id: string | null;
  build_url: string | null;
  git_branch: string | null;
  /** The shards of one CI build shown as this one run (the figures above are their sums), or null. */
  shards: RunShard[] | null;
}

/** One shard of a sharded run: its own run id (its details page) and counts. */
export interface RunShard {
  id: number;
  shard_current: number | null;
  shard_total: number | null;
  total_tests: number;
  passed_tests: number;
  failed_tests: number;
  skipped_tests: number;
  duration_ms: number;
}

export interface SlowTest {
  test_title: string;
  test_full_title: string;
  test_file: string;
  browser: string;
  project: string;
  avg_duration: number;
  max_duration: number;
  total_runs: number;
}

export interface TrendRecord {
  test_file: string;
  test_title: string;
  browser: string;
  trend_direction: TrendDirection;
  /** Change of pass rate in percentage points. */
  trend_percentage: number;
  /** 0-1, this period. */
  pass_rate: number;
  /** 0-1, the period before; null when the test did not run then. */
  previous_pass_rate: number | null;
  period_start: string;
  period_end: string;
}

/** Tests per trend direction: a test counts once per direction any of its browsers has. */
export type TrendCounts = Record<TrendDirection, number>;

/**
 * GET /api/flaky-trends with `page`: one page of trend records, worst change first, and the
 * counts per direction over every record (before the direction filter).
 */
export interface TrendListPage {
  items: TrendRecord[];
  total: number;
  page: number;
  pageSize: number;
  counts: TrendCounts;
  period_start: string;
  period_end: string;
}

/**
 * Bounded: the lists hold what the screens show (flakyTests the `limit` most critical, 5 by
 * default), and the totals the screens compute with are counted over every flaky test of the
 * window.
 */
export interface DashboardResponse {
  days: number;
  summary: [DashboardSummary];
  browserComparison: BrowserComparison[];
  /** The most critical flaky tests (risk score, then pass rate), at most `limit`. */
  flakyTests: FlakyTestSummary[];
  recentRuns: RecentRun[];
  slowTests: SlowTest[];
  /** The trend records of the tests in flakyTests and criticalFlakyTests. */
  flakyTrends: TrendRecord[];
  /** Flaky tests in the window, each test counted once whatever its browsers: Flaky Tests' All Tests count. */
  flakyCount: number;
  /** Those with a browser at a pass rate of 0.5 or less (critical flaky): Flaky Tests' Critical count. */
  criticalFlakyCount: number;
  /** The critical ones, lowest pass rate first (then the most failures), at most `limit`. */
  criticalFlakyTests: FlakyTestSummary[];
  /** Tests that failed every run of the window on a browser (broken, not flaky), each test counted once. */
  brokenCount: number;
  /** The broken ones, the most failed runs first, at most `limit`. */
  brokenTests: BrokenTestSummary[];
  /** The 7-day trend of the window's flaky tests, per direction. */
  flakyTrendCounts: TrendCounts;
  /** The window of the same length before this one; null for all time, or when it holds no runs. */
  previous: PreviousPeriod | null;
  stored: StoredRuns;
  /** Median time to fix over the window, and the open episodes now. */
  timeToFix?: TimeToFixSummary;
}

/** GET /api/owners: every owner of a test, for the owner filter, and how many flaky tests have none. */
export interface OwnersResponse {
  owners: Array<{ owner: string; tests: number }>;
}

export interface BrowserEntry {
  browser: string;
  /** 0-1, first attempts. */
  pass_rate: number;
  /** 0-1, after retries. */
  final_pass_rate: number;
  total_runs: number;
  failed_runs: number;
  skipped_runs: number;
  flaky_score: number;
  /** What the score is made of. */
  attempts: number;
  changes: number;
  passed_on_retry: number;
  /** The paged list only: this browser's trend record over the last 7 days, null when none. */
  trend_direction?: TrendDirection | null;
  trend_percentage?: number | null;
}

export interface FlakyTestGroup {
  test_title: string;
  test_file: string;
  browsers: BrowserEntry[];
  worst_pass_rate: number;
  total_runs_all_browsers: number;
  total_failed_all_browsers: number;
  highest_flaky_score: number;
  /** The paged list only: the latest failed result on a flaky browser (ISO 8601, UTC). */
  last_failure?: string | null;
  /** The paged list only: the test's identity (two describe blocks of one file may share a title). */
  test_id?: number;
  /** The paged list only: who owns the test (docs/screens.md#owners); empty: unowned. */
  owners?: TestOwnerView[];
  /** The paged list only: its flakes over all history (docs/screens.md#time-to-fix); null when no day of it flaked. */
  time_to_fix?: TimeToFix | null;
}

export interface TestOwnerView {
  owner: string;
  /** annotation or tag (the test's own), or codeowners (its file's CODEOWNERS entry). */
  source: 'annotation' | 'tag' | 'codeowners';
}

/** Dates are ISO days (UTC). */
export interface TimeToFix {
  /** The first day it ever flaked. */
  first_flaked: string;
  /** The last day it flaked. */
  last_flaked: string;
  /** When it was last put in quarantine (ISO 8601), or null. */
  quarantined: string | null;
  /** The start of the open episode; null when the last one is fixed. */
  open_since: string | null;
  /** Days the open episode has lasted so far; null when fixed. */
  open_days: number | null;
  /** The day the last episode was fixed (FIXED_AFTER_RUNS runs without a flake); null while open. */
  fixed: string | null;
  /** Days the last fixed episode took; null while open. */
  days_to_fix: number | null;
}

/** The dashboard's time to fix over its window (docs/screens.md#time-to-fix). */
export interface TimeToFixSummary {
  /** Median days from the first flake to the fix, over the episodes fixed in the window; null when none was. */
  median_days: number | null;
  /** Episodes fixed in the window. */
  fixed: number;
  /** Tests with an open episode now. */
  open: number;
  /** FIXED_AFTER_RUNS: runs without a flake that make a fix. */
  fixed_after_runs: number;
}

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

export const FLAKY_SORT_KEYS = ['score', 'pass_rate', 'runs', 'last_failure', 'open_age'] as const;
export type FlakySortKey = (typeof FLAKY_SORT_KEYS)[number];

/** GET /api/flaky-tests?page=…: `total` is what matches every filter; the cards' counts are over the search and browser only. */
export interface FlakyTestsPage extends Paged<FlakyTestGroup> {
  /** unowned: the groups no one owns, among those the search, browser and owner filter leave. */
  counts: { all: number; severe: number; moderate: number; minor: number; critical: number; unowned: number };
  /** Flaky groups per browser among the searched ones (the browser filter's choices). */
  browsers: Array<{ browser: string; count: number }>;
}

/** GET /api/slow-tests?page=…: the stat cards over every test of the window. */
export interface SlowTestsPage extends Paged<SlowTest> {
  counts: { slow: number; very_slow: number };
}

/** GET /api/error-patterns?page=…: the stat cards over every pattern of the window. */
export interface ErrorPatternsPage extends Paged<ErrorPattern> {
  counts: { categories: number; failures: number; browsers: number };
}

export interface TestResultDetail {
  id: number;
  run_id: number;
  test_file: string;
  status: 'passed' | 'failed' | 'timedOut' | 'skipped';
  outcome: string;
  retries: number;
  duration_ms: number;
  run_date: string;
  git_commit: string | null;
  git_branch: string | null;
  error_message: string | null;
  error_location: string | null;
  error_snippet: string | null;
  error_stack: string | null;
  /** JSON text: [{ title, category, duration, error, steps? }] */
  test_steps: string | null;
  /** Every attempt, first to last, with its evidence (the failing attempt and the passing retry of a flaky run). */
  attempts: AttemptEvidence[];
}

export interface DailyStat {
  date: string;
  pass_rate: number;
  total_runs: number;
  passed_runs: number;
  failed_runs: number;
  avg_duration: number;
}

export interface TrendDay {
  date: string;
  total_tests: number;
  passed: number;
  failed: number;
  skipped: number;
  avg_duration: number;
}

export interface ErrorPattern {
  error_category: string;
  error_summary: string;
  fingerprint: string;
  frequency: number;
  affected_browsers: string;
  /** Comma list of the first affected test titles (at most 20, alphabetical). */
  affected_tests: string;
  /** The same titles whole: a title may hold a comma, which the list above cannot show. */
  affected_test_titles?: string[];
  /** How many distinct test titles the pattern affected in all. */
  affected_test_count: number;
  full_error: string;
}

/** GET /api/branches: the branches runs were stored on, most recently run first. */
export interface BranchesResponse {
  branches: Array<{ name: string; /** ISO 8601, UTC. */ last_run: string }>;
}
