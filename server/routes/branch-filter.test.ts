import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchesResponse, DashboardResponse, FlakyTestsPage, TrendListPage } from '../../core/api/analytics.js';
import type { TestApp } from '../../fixtures/testing/app.js';
import { buildBranchApps, getOk, type BranchApps } from '../../fixtures/testing/branch-apps.js';
import { generateHistory } from '../demo/history.js';

/**
 * The branch filter must answer exactly what a database holding only that branch's runs
 * answers unfiltered: same rules, same figures. Two stores from one seeded history: every run
 * in one, only main's runs in the other.
 */
const END = Date.parse('2026-11-20T12:00:00Z');
const history = [...generateHistory({ seed: 7, runs: 40, days: 20, tests: 25, endDate: END })];
const mainRuns = history.filter((r) => r.branch === 'main');
const featureBranches = [...new Set(history.filter((r) => r.branch !== 'main').map((r) => r.branch))];

let all: TestApp;
let onlyMain: TestApp;
let headers: { all: Record<string, string>; onlyMain: Record<string, string> };

let apps: BranchApps | undefined;

beforeAll(async () => {
  apps = await buildBranchApps(history, END);
  ({ all, onlyMain, headers } = apps);
}, 120_000);
afterAll(() => apps?.close());

const get = getOk;
// Run ids and test ids are numbered per store: compared without them.
const withoutIds = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'id' || key === 'test_id' ? undefined : v)));

describe('the branch filter', () => {
  it('the history has runs on main and on feature branches', () => {
    expect(mainRuns.length).toBeGreaterThan(20);
    expect(featureBranches.length).toBeGreaterThan(0);
    expect(mainRuns.length).toBeLessThan(history.length);
  });

  it.each([0, 7, 30])('GET /api/dashboard?days=%i&branch=main equals the dashboard of main’s runs alone', async (days) => {
    const filtered = await get<DashboardResponse>(all, headers.all, `/api/dashboard?days=${days}&branch=main`);
    const alone = await get<DashboardResponse>(onlyMain, headers.onlyMain, `/api/dashboard?days=${days}`);
    const everything = await get<DashboardResponse>(all, headers.all, `/api/dashboard?days=${days}`);
    expect(filtered.summary[0]!.total_runs).toBe(alone.summary[0]!.total_runs);
    // Time to fix too: the episodes are read from main's days alone (docs/screens.md#time-to-fix).
    expect(withoutIds(filtered)).toEqual(withoutIds(alone));
    expect(everything.summary[0]!.total_runs).toBeGreaterThan(filtered.summary[0]!.total_runs);
  });

  it.each(['days=0', 'days=10', 'days=0&sort=score&page=1&pageSize=5', 'days=0&sort=open_age&page=1', 'days=0&trend=stable&page=1', 'days=0&severity=severe&page=1'])(
    'GET /api/flaky-tests?%s&branch=main equals main’s runs alone',
    async (query) => {
      const filtered = await get<FlakyTestsPage>(all, headers.all, `/api/flaky-tests?${query}&branch=main`);
      const alone = await get<FlakyTestsPage>(onlyMain, headers.onlyMain, `/api/flaky-tests?${query}`);
      expect(withoutIds(filtered)).toEqual(withoutIds(alone));
    },
  );

  it('GET /api/flaky-trends (bare and paged) with branch=main equals main’s runs alone', async () => {
    for (const query of ['', 'page=1&pageSize=10', 'counts=true', 'period=3&page=1']) {
      const filtered = await get<TrendListPage>(all, headers.all, `/api/flaky-trends?${query}&branch=main`);
      const alone = await get<TrendListPage>(onlyMain, headers.onlyMain, `/api/flaky-trends?${query}`);
      expect(withoutIds(filtered), query).toEqual(withoutIds(alone));
    }
  });

  it('a feature branch counts only its own runs; an unknown branch has none', async () => {
    const branch = featureBranches[0]!;
    const runs = history.filter((r) => r.branch === branch).length;
    const feature = await get<DashboardResponse>(all, headers.all, `/api/dashboard?days=0&branch=${encodeURIComponent(branch)}`);
    expect(feature.summary[0]!.total_runs).toBe(runs);
    expect(feature.recentRuns.length).toBe(Math.min(runs, 10));
    const none = await get<DashboardResponse>(all, headers.all, '/api/dashboard?days=0&branch=no-such-branch');
    expect(none.summary[0]).toMatchObject({ total_runs: 0, total_tests: 0 });
    expect(none.recentRuns).toEqual([]);
    const flaky = await get<FlakyTestsPage>(all, headers.all, '/api/flaky-tests?page=1&branch=no-such-branch');
    expect(flaky.total).toBe(0);
  });

  it('refuses an empty or overlong branch by name', async () => {
    for (const url of ['/api/dashboard?branch=', `/api/flaky-tests?branch=${'b'.repeat(1001)}`]) {
      const res = await all.app.inject({ url, headers: headers.all });
      expect(res.statusCode).toBe(400);
      expect((res.json() as { error: string }).error).toMatch(/branch/);
    }
  });

  it('GET /api/branches lists the branches most recently run first, bounded and searchable', async () => {
    const { branches } = await get<BranchesResponse>(all, headers.all, '/api/branches');
    const expected = [...new Set([...history].sort((a, b) => b.startedAt - a.startedAt).map((r) => r.branch))];
    expect(branches.map((b) => b.name)).toEqual(expected);
    expect(branches[0]!.last_run).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await get<BranchesResponse>(all, headers.all, '/api/branches?limit=1')).branches).toHaveLength(1);
    const search = featureBranches[0]!.slice(0, 4).toUpperCase();
    const found = await get<BranchesResponse>(all, headers.all, `/api/branches?search=${encodeURIComponent(search)}`);
    expect(found.branches.length).toBeGreaterThan(0);
    expect(found.branches.every((b) => b.name.toLowerCase().includes(search.toLowerCase()))).toBe(true);
    expect((await all.app.inject({ url: '/api/branches?limit=501', headers: headers.all })).statusCode).toBe(400);
    expect((await all.app.inject({ url: '/api/branches' })).statusCode).toBe(401);
  });
});
