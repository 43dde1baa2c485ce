import type { DashboardResponse } from '../core/api/analytics.js';
import { browserHealth, formatDuration } from '../core/analytics/formulas.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';

const dashboardCall = (days: number) => (url: string) => {
  const u = new URL(url);
  return u.pathname === '/api/dashboard' && u.searchParams.get('days') === String(days);
};
const label = (h: string) => h.charAt(0).toUpperCase() + h.slice(1);

test.describe('Browser Analysis (/browser-analysis)', () => {
  test('compares the browsers of the last 30 days, and another range on demand', async ({ page, demo: server }) => {
    const answer = page.waitForResponse((r) => dashboardCall(30)(r.url()));
    await signIn(page, server, { hash: '/browser-analysis' });
    const data = (await (await answer).json()) as DashboardResponse;
    expect(data.browserComparison.length).toBe(4);

    await expect(page.getByRole('heading', { name: 'Browser Analysis' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Time Range' })).toHaveValue('Last 30 days');
    const table = page.getByTestId('browser-table');
    await expect(table.locator('thead th')).toHaveText(['Browser', 'Passed', 'Failed', 'Skipped', 'Pass Rate', 'Avg Duration', 'Health']);
    await expect(table.locator('tbody tr')).toHaveCount(data.browserComparison.length);
    for (const [i, b] of data.browserComparison.entries()) {
      const rate = (b.passed / b.total) * 100;
      await expect(table.locator('tbody tr').nth(i).locator('td')).toHaveText([
        b.browser,
        b.passed.toLocaleString('en-US'),
        b.failed.toLocaleString('en-US'),
        b.skipped.toLocaleString('en-US'),
        `${rate.toFixed(1)}%`,
        formatDuration(b.avg_duration),
        label(browserHealth(rate)),
      ]);
    }
    await expect(page.getByTestId('browser-chart').locator('.recharts-surface')).toBeVisible();
    // No demo browser fails more often than it passes.
    expect(data.browserComparison.every((b) => b.failed <= b.passed)).toBe(true);
    await expect(page.getByTestId('browser-issues')).toContainText('No browser issues detected');
    await shootBothThemes(page, 'browser-analysis');

    const week = page.waitForResponse((r) => dashboardCall(7)(r.url()));
    await page.getByRole('combobox', { name: 'Time Range' }).click();
    await page.getByRole('option', { name: 'Last 7 days' }).click();
    const weekData = (await (await week).json()) as DashboardResponse;
    await expect(page).toHaveURL(/#\/browser-analysis\?days=7$/);
    await expect(page.getByText('Showing test results from the last 7 days')).toBeVisible();
    const first = weekData.browserComparison[0]!;
    await expect(table.locator('tbody tr').first().locator('td').nth(1)).toHaveText(first.passed.toLocaleString('en-US'));
    await expect(table.locator('tbody tr').first().locator('td').nth(2)).toHaveText(first.failed.toLocaleString('en-US'));
  });

  test('calls out the browsers that fail more than they pass', async ({ page, demo: server }) => {
    // Turn webkit's answer around: what the dashboard's 'Browser Issues Detected' alert reacts to.
    await page.route((url) => dashboardCall(30)(url.href), async (route) => {
      const response = await route.fetch();
      const data = (await response.json()) as DashboardResponse;
      data.browserComparison = data.browserComparison.map((b) => (b.browser === 'webkit' ? { ...b, passed: b.failed, failed: b.passed } : b));
      await route.fulfill({ response, json: data });
    });
    await signIn(page, server, { hash: '/browser-analysis' });
    const issues = page.getByTestId('browser-issues');
    await expect(issues).toContainText('Browser Issues Detected');
    await expect(issues.locator('li')).toHaveCount(1);
    await expect(issues.locator('li')).toContainText('webkit');
    await expect(page.getByTestId('browser-table').locator('tbody tr').filter({ hasText: 'webkit' })).toContainText('Critical');
  });

  test('states: loading, failure and no results', async ({ page, emptyStore: server }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let fail = false;
    await page.route((url) => new URL(url.href).pathname === '/api/dashboard', async (route) => {
      await held;
      if (fail) await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' });
      else await route.continue();
    });
    await signIn(page, server, { hash: '/browser-analysis' });
    await expect(page.getByText('Loading browser analysis...')).toBeVisible();
    release();
    await expect(page.getByText('No browser data available')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Upload Test Results' })).toHaveAttribute('href', '#/upload');

    fail = true;
    await page.reload();
    await expect(page.getByRole('alert')).toHaveText(/^Failed to load browser analysis/);
  });
});
