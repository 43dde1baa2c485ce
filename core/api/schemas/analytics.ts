/**
 * The analytics calls of docs/api.md#analytics as Zod schemas: the server validates requests
 * with them and the OpenAPI document is generated from them; core/api/analytics.ts infers the
 * types the server and the UI compile against (types only: the UI bundle holds no Zod).
 */
import { z } from 'zod';
import { attemptEvidence } from './evidence.js';
import { pageSize, pageNumber, queryWhole } from './paging.js';

/** The flaky list's sort keys (`sort=`). */
export const FLAKY_SORT_KEYS = ['score', 'pass_rate', 'runs', 'last_failure', 'open_age'] as const;

export const trendDirection = z.enum(['declining', 'improving', 'stable', 'new']);
const isoDay = z.string().describe('An ISO day (UTC), YYYY-MM-DD');
const isoTime = z.string().describe('ISO 8601, UTC');

// ---- Requests -------------------------------------------------------------------------------

const days = (defaultDays: number) =>
  queryWhole(0, 3650).default(defaultDays).describe(`The window in days up to today; 0 = all history (default ${defaultDays})`);
// The branch filter of the dashboard, the flaky screen and its dialog (absent: every branch), as runs store it.
const branch = z.string().min(1).max(1000).optional().describe("Only this branch's runs");
// The owner filter: an owner as stored ('@team', 'dev@example.com'), or 'unowned'; the route checks its form.
const owner = z.string().min(1).max(200).optional().describe('An owner as CODEOWNERS names one (@user, @org/team, an email address), or `unowned`');
// Titles can hold any character; Fastify decodes each path parameter once.
const text = z.string().min(1).max(2000);
// Query strings carry text: `true` and `false` are the booleans.
const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

export const dashboardQuery = z.object({
  days: days(30),
  limit: queryWhole(1, 100).default(5).describe('How many of the most critical flaky and broken tests to list'),
  branch,
  owner,
});

export const pagingQuery = z.object({ page: pageNumber, pageSize });
export const daysPagedQuery = (defaultDays: number) => pagingQuery.extend({ days: days(defaultDays) });

export const flakyTestsQuery = pagingQuery.extend({
  days: days(0),
  search: z.string().max(200).optional().describe('A substring of the title or file (ASCII case-insensitive)'),
  browser: z.string().min(1).max(200).optional(),
  severity: z.enum(['severe', 'moderate', 'minor', ...trendDirection.options]).optional().describe('A severity, or a trend direction as the deep links send it'),
  trend: trendDirection.optional(),
  critical: queryBoolean.optional().describe('Only groups whose worst pass rate is 0.5 or less'),
  sort: z.enum(FLAKY_SORT_KEYS).optional(),
  order: z.enum(['asc', 'desc']).optional().describe('Each sort defaults to worst first'),
  branch,
  owner,
});

export const flakyTrendsQuery = z.object({
  period: queryWhole(1, 365).default(7),
  page: pageNumber,
  pageSize,
  counts: queryBoolean.default(false).describe('The counts per direction alone (the page object without items)'),
  direction: trendDirection.optional(),
  file: text.optional().describe('With `test`: that one test'),
  test: text.optional(),
  branch,
});

export const testDetailsParams = z.object({ testTitle: text, browser: text });
export const testDetailsQuery = pagingQuery.extend({ file: text.optional().describe("Only that file's test (titles repeat across files)"), branch });
export const dailyStatsParams = z.object({ testFile: text, testTitle: text, browser: text });
export const dailyStatsQuery = z.object({ days: days(0), branch });

// ---- Answers --------------------------------------------------------------------------------

export const dashboardSummary = z.object({
  total_runs: z.number(),
  total_tests: z.number(),
  total_passed: z.number(),
  total_failed: z.number(),
  total_skipped: z.number(),
  avg_duration: z.number().describe('Mean duration of a test that ran, in ms'),
  total_passed_on_retry: z.number().describe('Results that failed their first attempt and passed a retry (outage runs left out)'),
});

export const previousPeriod = z.object({
  from: isoDay,
  to: isoDay,
  total_runs: z.number(),
  total_tests: z.number(),
  total_passed: z.number(),
  avg_duration: z.number(),
  flaky_count: z.number(),
}).describe("The previous window of the same length: what the 'vs previous period' changes compare with");

export const storedRuns = z.object({
  runs: z.number(),
  newest: isoTime.nullable(),
  oldest: isoTime.nullable(),
}).describe('What the store holds whatever the window');

export const browserComparison = z.object({
  browser: z.string(),
  passed: z.number(),
  failed: z.number(),
  skipped: z.number(),
  total: z.number(),
  avg_duration: z.number(),
});

const passRate = z.number().describe('0-1, first attempts');
const finalPassRate = z.number().describe('0-1, after retries');

export const flakyTestSummary = z.object({
  test_title: z.string(),
  test_file: z.string(),
  browser: z.string(),
  pass_rate: passRate,
  final_pass_rate: finalPassRate,
  passed_on_retry: z.number(),
  failed_runs: z.number(),
  total_runs: z.number(),
  flaky_score: z.number(),
});

export const brokenTestSummary = z.object({
  test_title: z.string(),
  test_file: z.string(),
  browser: z.string(),
  failed_runs: z.number().describe('Runs that ran (skipped ones left out), every one failed'),
  skipped_runs: z.number(),
});

export const runShard = z.object({
  id: z.number(),
  shard_current: z.number().nullable(),
  shard_total: z.number().nullable(),
  total_tests: z.number(),
  passed_tests: z.number(),
  failed_tests: z.number(),
  skipped_tests: z.number(),
  duration_ms: z.number(),
});

export const recentRun = z.object({
  id: z.number(),
  execution_time: z.string(),
  browser: z.string(),
  project: z.string().nullable(),
  total_tests: z.number(),
  passed_tests: z.number(),
  failed_tests: z.number(),
  skipped_tests: z.number(),
  duration_ms: z.number(),
  build_id: z.string().nullable(),
  build_url: z.string().nullable().describe('An http(s) link, when known'),
  git_branch: z.string().nullable(),
  shards: z.array(runShard).nullable().describe('The shards of one CI build shown as this one run (the figures above are their sums), or null'),
});

export const slowTest = z.object({
  test_title: z.string(),
  test_full_title: z.string(),
  test_file: z.string(),
  browser: z.string(),
  project: z.string(),
  avg_duration: z.number(),
  max_duration: z.number(),
  total_runs: z.number(),
});

export const trendRecord = z.object({
  test_file: z.string(),
  test_title: z.string(),
  browser: z.string(),
  trend_direction: trendDirection,
  trend_percentage: z.number().describe('Change of pass rate in percentage points'),
  pass_rate: z.number().describe('0-1, this period'),
  previous_pass_rate: z.number().nullable().describe('0-1, the period before; null when the test did not run then'),
  period_start: z.string(),
  period_end: z.string(),
});

export const trendCounts = z.object({ declining: z.number(), improving: z.number(), stable: z.number(), new: z.number() })
  .describe('Tests per trend direction: a test counts once per direction any of its browsers has');

export const trendListPage = z.object({
  items: z.array(trendRecord),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  counts: trendCounts,
  period_start: z.string(),
  period_end: z.string(),
});

export const timeToFixSummary = z.object({
  median_days: z.number().nullable().describe('Median days from the first flake to the fix, over the episodes fixed in the window'),
  fixed: z.number(),
  open: z.number(),
  fixed_after_runs: z.number().describe('Runs without a flake that make a fix'),
});

export const dashboardResponse = z.object({
  days: z.number(),
  summary: z.tuple([dashboardSummary]),
  browserComparison: z.array(browserComparison),
  flakyTests: z.array(flakyTestSummary).describe('The most critical flaky tests (risk score, then pass rate), at most `limit`'),
  recentRuns: z.array(recentRun),
  slowTests: z.array(slowTest),
  flakyTrends: z.array(trendRecord).describe('The trend records of the tests in flakyTests and criticalFlakyTests'),
  flakyCount: z.number(),
  criticalFlakyCount: z.number(),
  criticalFlakyTests: z.array(flakyTestSummary),
  brokenCount: z.number(),
  brokenTests: z.array(brokenTestSummary).describe('Tests that failed every run of the window on a browser, the most failed runs first'),
  flakyTrendCounts: trendCounts,
  previous: previousPeriod.nullable(),
  stored: storedRuns,
  timeToFix: timeToFixSummary.optional(),
});

export const ownersResponse = z.object({ owners: z.array(z.object({ owner: z.string(), tests: z.number() })) });

export const testOwnerView = z.object({
  owner: z.string(),
  source: z.enum(['annotation', 'tag', 'codeowners']).describe("annotation or tag (the test's own), or codeowners (its file's CODEOWNERS entry)"),
});

export const timeToFix = z.object({
  first_flaked: isoDay,
  last_flaked: isoDay,
  quarantined: isoTime.nullable(),
  open_since: isoDay.nullable(),
  open_days: z.number().nullable(),
  fixed: isoDay.nullable(),
  days_to_fix: z.number().nullable(),
});

export const browserEntry = z.object({
  browser: z.string(),
  pass_rate: passRate,
  final_pass_rate: finalPassRate,
  total_runs: z.number(),
  failed_runs: z.number(),
  skipped_runs: z.number(),
  flaky_score: z.number(),
  attempts: z.number(),
  changes: z.number(),
  passed_on_retry: z.number(),
  trend_direction: trendDirection.nullable().optional().describe("The paged list only: this browser's 7-day trend, null when none"),
  trend_percentage: z.number().nullable().optional(),
});

export const flakyTestGroup = z.object({
  test_title: z.string(),
  test_file: z.string(),
  browsers: z.array(browserEntry),
  worst_pass_rate: z.number(),
  total_runs_all_browsers: z.number(),
  total_failed_all_browsers: z.number(),
  highest_flaky_score: z.number(),
  last_failure: isoTime.nullable().optional().describe('The paged list only: the latest failed result on a flaky browser'),
  test_id: z.number().optional(),
  owners: z.array(testOwnerView).optional().describe('The paged list only: who owns the test; empty: unowned'),
  time_to_fix: timeToFix.nullable().optional(),
});

const paged = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });

export const flakyTestsPage = paged(flakyTestGroup).extend({
  counts: z.object({ all: z.number(), severe: z.number(), moderate: z.number(), minor: z.number(), critical: z.number(), unowned: z.number() }),
  browsers: z.array(z.object({ browser: z.string(), count: z.number() })),
});

export const slowTestsPage = paged(slowTest).extend({ counts: z.object({ slow: z.number(), very_slow: z.number() }) });

export const errorPattern = z.object({
  error_category: z.string(),
  error_summary: z.string(),
  fingerprint: z.string(),
  frequency: z.number(),
  affected_browsers: z.string(),
  affected_tests: z.string().describe('Comma list of the first affected test titles (at most 20, alphabetical)'),
  affected_test_titles: z.array(z.string()).optional(),
  affected_test_count: z.number(),
  full_error: z.string(),
});

export const errorPatternsPage = paged(errorPattern).extend({ counts: z.object({ categories: z.number(), failures: z.number(), browsers: z.number() }) });

export const testResultDetail = z.object({
  id: z.number(),
  run_id: z.number(),
  test_file: z.string(),
  status: z.enum(['passed', 'failed', 'timedOut', 'skipped']),
  outcome: z.string(),
  retries: z.number(),
  duration_ms: z.number(),
  run_date: z.string(),
  git_commit: z.string().nullable(),
  git_branch: z.string().nullable(),
  error_message: z.string().nullable(),
  error_location: z.string().nullable(),
  error_snippet: z.string().nullable(),
  error_stack: z.string().nullable(),
  test_steps: z.string().nullable().describe('JSON text: [{ title, category, duration, error, steps? }]'),
  attempts: z.array(attemptEvidence),
});

export const dailyStat = z.object({
  date: z.string(),
  pass_rate: z.number(),
  total_runs: z.number(),
  passed_runs: z.number(),
  failed_runs: z.number(),
  avg_duration: z.number(),
});

export const trendDay = z.object({
  date: z.string(),
  total_tests: z.number(),
  passed: z.number(),
  failed: z.number(),
  skipped: z.number(),
  avg_duration: z.number(),
});

export const branchesQuery = z.object({
  search: z.string().max(200).optional().describe('A substring of the branch name (ASCII case-insensitive)'),
  limit: queryWhole(1, 500).default(50).describe('How many branches at most'),
});
export const branchesResponse = z.object({ branches: z.array(z.object({ name: z.string(), last_run: isoTime })) });

/** A list call answers the bare list without `page` (the total in X-Total-Count), the page object with it. */
export const listOrPage = <I extends z.ZodType, P extends z.ZodType>(item: I, page: P) =>
  z.union([z.array(item).describe('Without `page`: the first `pageSize` items; the total in X-Total-Count'), page.describe('With `page`')]);
export const pagedOf = paged;
