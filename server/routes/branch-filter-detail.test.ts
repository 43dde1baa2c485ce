import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyStat, FlakyTestsPage, Paged, TestResultDetail } from '../../core/api/analytics.js';
import type { TestApp } from '../../fixtures/testing/app.js';
import { buildBranchApps, getOk, type BranchApps } from '../../fixtures/testing/branch-apps.js';
import { generateHistory } from '../demo/history.js';

/**
 * The flaky dialog's reads (a test's results and its days) with a branch must answer exactly
 * what a database holding only that branch's runs answers unfiltered. Two stores from one
 * seeded history: every run in one, only main's runs in the other.
 */
const END = Date.parse('2026-11-20T12:00:00Z');
const history = [...generateHistory({ seed: 11, runs: 36, days: 20, tests: 12, endDate: END })];

let all: TestApp;
let onlyMain: TestApp;
let headers: { all: Record<string, string>; onlyMain: Record<string, string> };
/** Tests of main's flaky list, one browser each: the dialogs a user can open with main chosen. */
let picked: Array<{ title: string; file: string; browser: string; runs: number }>;

let apps: BranchApps | undefined;

beforeAll(async () => {
  apps = await buildBranchApps(history, END);
  ({ all, onlyMain, headers } = apps);
  const list = await get<FlakyTestsPage>(all, headers.all, '/api/flaky-tests?days=0&page=1&pageSize=6&branch=main');
  picked = list.items.map((g) => ({ title: g.test_title, file: g.test_file, browser: g.browsers[0]!.browser, runs: g.browsers[0]!.total_runs }));
}, 120_000);
afterAll(() => apps?.close());

const get = getOk;
// Run, result and test ids are numbered per store: compared without them.
const withoutIds = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'id' || key === 'test_id' || key === 'run_id' || key === 'result_id' ? undefined : v)));
const e = encodeURIComponent;
const detailsUrl = (p: { title: string; browser: string; file: string }, query: string) => `/api/test-details/${e(p.title)}/${e(p.browser)}?file=${e(p.file)}&${query}`;
const statsUrl = (p: { title: string; browser: string; file: string }, query: string) => `/api/flaky-tests/${e(p.file)}/${e(p.title)}/${e(p.browser)}/daily-stats?${query}`;

describe("the flaky dialog's reads with a branch", () => {
  it('main has flaky tests, and some of their results are on other branches', async () => {
    expect(picked.length).toBeGreaterThan(2);
    let elsewhere = 0;
    for (const p of picked) {
      const every = await get<Paged<TestResultDetail>>(all, headers.all, detailsUrl(p, 'page=1'));
      elsewhere += every.items.filter((r) => r.git_branch !== 'main').length;
    }
    expect(elsewhere).toBeGreaterThan(0);
  });

  it('GET /api/test-details with branch=main equals main’s runs alone (paged and bare)', async () => {
    for (const p of picked) {
      for (const query of ['page=1&pageSize=200', 'page=2&pageSize=3']) {
        const filtered = await get<Paged<TestResultDetail>>(all, headers.all, detailsUrl(p, `${query}&branch=main`));
        const alone = await get<Paged<TestResultDetail>>(onlyMain, headers.onlyMain, detailsUrl(p, query));
        expect(withoutIds(filtered), `${p.title} ${query}`).toEqual(withoutIds(alone));
      }
      const first = await get<Paged<TestResultDetail>>(all, headers.all, detailsUrl(p, 'page=1&pageSize=200&branch=main'));
      // The dialog's figures (the flaky list's entry) and its history count the same results.
      expect(first.total).toBe(p.runs);
      expect(first.items.every((r) => r.git_branch === 'main')).toBe(true);
      const bare = await all.app.inject({ url: detailsUrl(p, 'pageSize=2&branch=main'), headers: headers.all });
      const bareAlone = await onlyMain.app.inject({ url: detailsUrl(p, 'pageSize=2'), headers: headers.onlyMain });
      expect(bare.headers['x-total-count']).toBe(bareAlone.headers['x-total-count']);
      expect(withoutIds(bare.json())).toEqual(withoutIds(bareAlone.json()));
    }
  });

  it.each([0, 7, 30])('GET …/daily-stats?days=%i&branch=main equals main’s runs alone', async (days) => {
    let fewer = 0;
    for (const p of picked) {
      const filtered = await get<DailyStat[]>(all, headers.all, statsUrl(p, `days=${days}&branch=main`));
      const alone = await get<DailyStat[]>(onlyMain, headers.onlyMain, statsUrl(p, `days=${days}`));
      const every = await get<DailyStat[]>(all, headers.all, statsUrl(p, `days=${days}`));
      expect(filtered, `${p.title} days=${days}`).toEqual(alone);
      const sum = (stats: DailyStat[]) => stats.reduce((n, d) => n + d.total_runs, 0);
      if (days === 0) expect(sum(filtered)).toBe(p.runs);
      if (sum(every) > sum(filtered)) fewer++;
    }
    expect(fewer).toBeGreaterThan(0);
  });

  it('an unknown branch has no results and no days', async () => {
    const p = picked[0]!;
    const details = await get<Paged<TestResultDetail>>(all, headers.all, detailsUrl(p, 'page=1&branch=no-such-branch'));
    expect(details).toMatchObject({ items: [], total: 0 });
    expect(await get<DailyStat[]>(all, headers.all, statsUrl(p, 'days=0&branch=no-such-branch'))).toEqual([]);
  });

  it('refuses an empty or overlong branch by name', async () => {
    const p = picked[0]!;
    for (const url of [detailsUrl(p, 'branch='), statsUrl(p, `branch=${'b'.repeat(1001)}`), statsUrl(p, 'days=0&branch=')]) {
      const res = await all.app.inject({ url, headers: headers.all });
      expect(res.statusCode, url).toBe(400);
      expect((res.json() as { error: string }).error).toMatch(/branch/);
    }
  });
});
