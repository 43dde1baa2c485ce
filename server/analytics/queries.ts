import type { BranchesResponse, OwnersResponse } from '../../core/api/analytics.js';
import { knownOwners } from '../store/read/owners.js';
import type { RunResultsQuery } from '../../core/api/uploads.js';
import { listBranches } from '../store/read/branches.js';
import type { AnyStore } from '../store/engine/types.js';
import { runResultsPage } from '../store/read/run-results.js';
import { runSummary } from '../store/read/run-summary.js';
import { dashboard } from './dashboard.js';
import { flakyGroups } from './flaky.js';
import { flakyTestsPage, type FlakyListArgs } from './flaky-page.js';
import { runGate, type GateRequest } from './gate.js';
import { dailyStats, errorPatterns, slowTestsPage, testDetails, trendDays, type PageArgs } from './reports.js';
import { trendList, type TrendListArgs } from './trend-list.js';
import { lastDays } from './windows.js';

/**
 * Every analytics answer the API serves, by name, with plain-data arguments: the same table
 * runs on the server's thread (in-memory stores, tests) and in the analytics worker, so the
 * two can never compute different things.
 */
export const QUERIES = {
  dashboard: (store: AnyStore, a: { days: number; now: number; limit?: number; branch?: string | null; owner?: string | null }) =>
    dashboard(store, a.days, a.now, a.limit, a.branch ?? null, a.owner ?? null),
  // The owner filter's choices (routes/owners.ts).
  owners: async (store: AnyStore, _a: Record<string, never>): Promise<OwnersResponse> => ({ owners: await knownOwners(store) }),
  flakyTrends: (store: AnyStore, a: TrendListArgs) => trendList(store, a),
  flakyGroups: (store: AnyStore, a: { days: number; now: number }) => flakyGroups(store, lastDays(a.days, a.now)),
  flakyTestsPage: (store: AnyStore, a: FlakyListArgs) => flakyTestsPage(store, a),
  testDetails: (store: AnyStore, a: { title: string; browser: string; file: string | null; branch?: string | null } & PageArgs) => testDetails(store, a, a),
  dailyStats: (store: AnyStore, a: { file: string; title: string; browser: string; days: number; now: number; branch?: string | null }) =>
    dailyStats(store, a, lastDays(a.days, a.now)),
  slowTests: (store: AnyStore, a: { days: number; now: number } & PageArgs) => slowTestsPage(store, lastDays(a.days, a.now), a),
  trendDays: (store: AnyStore, a: { days: number; now: number }) => trendDays(store, lastDays(a.days, a.now)),
  errorPatterns: (store: AnyStore, a: { days: number; now: number } & PageArgs) => errorPatterns(store, lastDays(a.days, a.now), a),
  gate: (store: AnyStore, a: GateRequest) => runGate(store, a),
  // The run details screen (routes/uploads.ts): one pass over a run's results, bounded answers.
  runSummary: (store: AnyStore, a: { runId: number; resultsOf: number }) => runSummary(store, a.runId, a.resultsOf),
  runResults: (store: AnyStore, a: { runId: number } & RunResultsQuery) => runResultsPage(store, a.runId, a),
  // The branch picker (routes/branches.ts): a pass over the runs table, which grows with the history.
  branches: async (store: AnyStore, a: { search: string | null; limit: number }): Promise<BranchesResponse> => ({
    branches: (await listBranches(store, a)).map((r) => ({ name: r.name, last_run: new Date(r.last_run_at).toISOString() })),
  }),
} as const;

export type QueryName = keyof typeof QUERIES;
export type QueryArgs<N extends QueryName> = Parameters<(typeof QUERIES)[N]>[1];

/** The answer of `name`, serialised (the worker sends text, which crosses threads cheaply). */
export async function answerJson(store: AnyStore, name: QueryName, args: unknown): Promise<string> {
  return JSON.stringify(await (QUERIES[name] as (s: AnyStore, a: unknown) => unknown)(store, args));
}
