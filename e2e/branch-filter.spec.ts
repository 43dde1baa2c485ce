import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { BranchesResponse, DailyStat, DashboardResponse, FlakyTestsPage, Paged, TestResultDetail } from '../core/api/analytics.js';
import { apiGet, openDashboard } from './support/dashboard-helpers.js';
import { OWN_REPORTS } from './support/cli.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';

/** Picks `branch` in the Branch select by typing part of it, as a user would. */
async function pickBranch(page: Page, branch: string) {
  const input = page.getByRole('combobox', { name: 'Branch' });
  await input.click();
  await input.fill(branch.slice(0, Math.max(3, branch.length - 2)));
  await page.getByRole('listbox').getByRole('option', { name: branch, exact: true }).click();
  await expect(input).toHaveValue(branch);
}

const hashQuery = (page: Page) => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');

test.describe('branch filter', () => {
  test('the dashboard shows one branch’s figures, keeps the branch in the address, and goes back to all branches', async ({ page, demo: server }) => {
    await openDashboard(page, server);
    const { branches } = await apiGet<BranchesResponse>(page, server, '/api/branches');
    const feature = branches.find((b) => b.name !== 'main')!.name;
    const all = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
    const one = await apiGet<DashboardResponse>(page, server, `/api/dashboard?days=30&branch=${encodeURIComponent(feature)}`);
    expect(one.summary[0].total_runs).toBeGreaterThan(0);
    expect(one.summary[0].total_runs).toBeLessThan(all.summary[0].total_runs);

    const stats = page.getByTestId('stat-cards');
    await expect(stats).toContainText(`Test Runs${all.summary[0].total_runs}`);
    // The picker offers the branches most recently run first.
    await page.getByRole('combobox', { name: 'Branch' }).click();
    await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue('All branches');
    await expect(page.getByRole('listbox').getByRole('option').nth(0)).toHaveText('All branches');
    await expect(page.getByRole('listbox').getByRole('option').nth(1)).toHaveText(branches[0]!.name);
    await page.keyboard.press('Escape');

    const asked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/dashboard' && new URL(r.url()).searchParams.get('branch') === feature);
    await pickBranch(page, feature);
    await asked;
    await expect(stats).toContainText(`Test Runs${one.summary[0].total_runs}`);
    await expect(stats).toContainText(`Passed Tests${one.summary[0].total_passed.toLocaleString('en-US')}`);
    await expect(page.getByTestId('overview-subtitle')).toHaveText(`Showing test results from the last 30 days on branch ${feature}`);
    await expect(page.getByTestId('recent-runs').locator('tbody tr')).toHaveCount(Math.min(one.recentRuns.length, 10));
    expect(hashQuery(page).get('branch')).toBe(feature);
    await shootBothThemes(page, 'branch-dashboard-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await shootBothThemes(page, 'branch-dashboard-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });

    // The address alone brings the same view back.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue(feature);
    await expect(stats).toContainText(`Test Runs${one.summary[0].total_runs}`);

    // Its links into the flaky screen keep the branch.
    await page.getByTestId('most-critical').getByRole('link', { name: 'View All' }).click();
    await expect(page.getByRole('heading', { name: 'Flaky Test Analysis' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue(feature);
    await expect.poll(() => hashQuery(page).get('branch')).toBe(feature);
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();

    // Clearing it is every branch again.
    await pickBranch(page, 'All branches');
    await expect(stats).toContainText(`Test Runs${all.summary[0].total_runs}`);
    expect(hashQuery(page).has('branch')).toBe(false);
  });

  test('a branch with no runs says so, not the first-run welcome, and offers every branch again', async ({ page, demo: server }) => {
    await openDashboard(page, server);
    await page.goto(`${server.url}#/?branch=no-such-branch`);
    const answer = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30&branch=no-such-branch');
    expect([answer.summary[0].total_runs, answer.stored.runs]).toEqual([0, 0]);
    const empty = page.getByTestId('empty-branch');
    await expect(empty).toContainText('No runs on no-such-branch in the last 30 days');
    await expect(page.getByText('Welcome to flakeboard')).toHaveCount(0);
    await shootBothThemes(page, 'branch-empty-1440');
    await empty.getByRole('button', { name: 'Show all branches' }).click();
    await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue('All branches');
    await expect(page.getByTestId('stat-cards')).toBeVisible();
    expect(hashQuery(page).has('branch')).toBe(false);
  });

  test('the flaky screen lists one branch’s flaky tests and keeps the branch while deep links settle', async ({ page, demo: server }) => {
    await signIn(page, server, { hash: '/flaky-tests?branch=main' });
    // The screen's window, the dashboard's 30 days: the API's own default is all time, and the
    // demo's oldest runs fall outside 30 days at some hours of the day.
    const onMain = await apiGet<FlakyTestsPage>(page, server, '/api/flaky-tests?days=30&page=1&pageSize=200&branch=main');
    const everywhere = await apiGet<FlakyTestsPage>(page, server, '/api/flaky-tests?days=30&page=1&pageSize=200');
    expect(onMain.total).toBeGreaterThan(0);
    expect(onMain).not.toEqual(everywhere);

    await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue('main');
    await expect(page.getByTestId('flaky-group')).toHaveCount(Math.min(onMain.items.length, 50));
    await expect(page.getByTestId('flaky-group').first().getByTestId('group-title')).toHaveText(onMain.items[0]!.test_title.slice(0, 60) + (onMain.items[0]!.test_title.length > 60 ? '...' : ''));
    await shootBothThemes(page, 'branch-flaky-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await shootBothThemes(page, 'branch-flaky-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });

    // A severity deep link is applied, then the address keeps only the branch.
    await page.goto(`${server.url}#/flaky-tests?severity=severe&branch=main`);
    await expect.poll(() => hashQuery(page).toString()).toBe('branch=main');
    await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue('main');

    const { branches } = await apiGet<BranchesResponse>(page, server, '/api/branches');
    const feature = branches.find((b) => b.name !== 'main')!.name;
    const asked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/flaky-tests' && new URL(r.url()).searchParams.get('branch') === feature);
    await pickBranch(page, feature);
    await asked;
    expect(hashQuery(page).get('branch')).toBe(feature);
  });

  test('the flaky dialog and the report count the chosen branch’s runs alone and say which branch', async ({ page, demo: server }) => {
    // Two screens, each pictured at two widths in two themes.
    test.slow();
    await openDashboard(page, server);
    // The list the screen shows (its window is the dashboard's), as the screen asked for it.
    const listAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/flaky-tests' && new URL(r.url()).searchParams.get('branch') === 'main');
    await page.goto(`${server.url}#/flaky-tests?branch=main`);
    const e = encodeURIComponent;
    const onMain = (await (await listAnswer).json()) as FlakyTestsPage;
    const historyTotal = async (title: string, file: string, browser: string, branch: string | null) =>
      (await apiGet<Paged<TestResultDetail>>(page, server, `/api/test-details/${e(title)}/${e(browser)}?page=1&pageSize=1&file=${e(file)}${branch ? `&branch=${e(branch)}` : ''}`)).total;
    // A test of main's list that also ran on other branches: its dialog must count main's runs alone.
    let pick: { index: number; browser: string; runs: number; failed: number; history: number; everywhere: number } | null = null;
    for (const [index, group] of onMain.items.entries()) {
      for (const b of group.browsers) {
        if (pick) break;
        const history = await historyTotal(group.test_title, group.test_file, b.browser, 'main');
        const everywhere = await historyTotal(group.test_title, group.test_file, b.browser, null);
        if (everywhere > history) pick = { index, browser: b.browser, runs: b.total_runs, failed: b.failed_runs, history, everywhere };
      }
    }
    expect(pick, 'a flaky test on main with runs on other branches').not.toBeNull();
    const { index, browser, runs, failed, history, everywhere } = pick!;
    const group = onMain.items[index]!;
    // The history is all of main's results; the list's figures are main's in the screen's window.
    expect(history).toBeGreaterThanOrEqual(runs);

    await expect(page.getByTestId('flaky-group')).toHaveCount(Math.min(onMain.items.length, 50));
    const statsAnswer = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/daily-stats') && new URL(r.url()).searchParams.get('branch') === 'main');
    const historyAsked = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/api/test-details/') && new URL(r.url()).searchParams.get('branch') === 'main');
    await page.getByTestId('flaky-group').nth(index).getByRole('button', { name: `Open ${browser} details`, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('dialog-title')).toHaveText(group.test_title);
    await expect(dialog.getByTestId('dialog-branch')).toHaveText('Branch: main');
    await historyAsked;
    await expect(dialog.getByTestId('summary-figure').nth(2)).toHaveText(`Total Runs${runs}`);
    await expect(dialog.getByTestId('summary-figure').nth(3)).toHaveText(`Failed Runs${failed}`);
    // The history counts main's results, not the test's results on every branch.
    await expect(dialog.getByTestId('history-pager')).toContainText(`Showing ${Math.min(history, 50)} of ${history} runs`);
    expect(everywhere).toBeGreaterThan(history);
    // The daily chart's days add up to the same results.
    const days = (await (await statsAnswer).json()) as DailyStat[];
    expect(days.reduce((n, d) => n + d.total_runs, 0)).toBe(history);
    await dialog.getByRole('tab', { name: 'Trends' }).click();
    await expect(dialog.getByTestId('trends-tab')).toBeVisible();
    await shootBothThemes(page, 'branch-dialog-1440', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.getByRole('tab', { name: 'Test History' }).click();
    await expect(dialog.getByTestId('dialog-branch')).toBeVisible();
    await shootBothThemes(page, 'branch-dialog-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press('Escape');

    // The dashboard's 'View Report' carries the branch; the report reads main's runs and says so.
    const mainDashboard = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30&branch=main');
    const allDashboard = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
    expect(mainDashboard.summary[0].total_tests).toBeLessThan(allDashboard.summary[0].total_tests);
    await page.goto(`${server.url}#/?branch=main`);
    const reportAsked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/dashboard' && new URL(r.url()).searchParams.get('branch') === 'main');
    await page.getByRole('link', { name: 'View Report' }).click();
    await expect(page.getByTestId('report-title')).toHaveText('Executive Quality Report');
    expect(Object.fromEntries(hashQuery(page))).toEqual({ days: '30', branch: 'main' });
    await reportAsked;
    await expect(page.getByTestId('report-branch')).toHaveText('Branch: main');
    await expect(page.getByTestId('metric-total-tests-value')).toHaveText(mainDashboard.summary[0].total_tests.toLocaleString('en-US'));
    await expect(page.getByTestId('quick-runs-value')).toHaveText(mainDashboard.summary[0].total_runs.toLocaleString('en-US'));
    await shootBothThemes(page, 'branch-report-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await shootBothThemes(page, 'branch-report-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    // Back to the dashboard, on the same branch.
    await page.getByRole('button', { name: 'Back to Dashboard' }).click();
    await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue('main');
    expect(hashQuery(page).get('branch')).toBe('main');
  });

  test('the shards of one CI build are one recent run with its shards and a link to the build', async ({ page, flakeboard }) => {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-shards-'));
    try {
      const report = JSON.parse(readFileSync(join(OWN_REPORTS, 'run-1.json'), 'utf8')) as { config: object; suites: unknown[] };
      const paths = report.suites.map((suite, i) => {
        const file = join(dir, `shard-${i + 1}.json`);
        writeFileSync(file, JSON.stringify({ ...report, config: { ...report.config, shard: { current: i + 1, total: report.suites.length } }, suites: [suite] }));
        return file;
      });
      const server = await flakeboard.start({
        template: 'empty',
        imports: [{ paths, approve: true, branch: 'main', commit: 'c0ffee', buildId: '9001', buildUrl: 'https://ci.example.com/builds/9001' }],
      });
      await signIn(page, server);
      await page.getByLabel('Time Range').selectOption('0');
      const runs = page.getByTestId('recent-runs').locator('tbody tr');
      await expect(runs).toHaveCount(1);
      await expect(page.getByTestId('stat-cards')).toContainText('Test Runs1');
      const link = runs.getByTestId('build-link');
      await expect(link).toHaveText('Build 9001');
      await expect(link).toHaveAttribute('href', 'https://ci.example.com/builds/9001');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(runs.getByTestId('run-shards')).toContainText('3 shards:');
      await expect(runs.getByTestId('run-shards').getByRole('link')).toHaveText([/^1\/3 /, /^2\/3 /, /^3\/3 /]);
      await shootBothThemes(page, 'shards-recent-runs-1440');
      await runs.getByTestId('run-shards').getByRole('link').nth(1).click();
      await expect(page.getByTestId('meta-shard')).toHaveText('Shard2 of 3');
      await expect(page.getByTestId('meta-ci-build').getByRole('link')).toHaveAttribute('href', 'https://ci.example.com/builds/9001');
      await page.setViewportSize({ width: 390, height: 844 });
      await shootBothThemes(page, 'shards-run-detail-390', { fullPage: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
