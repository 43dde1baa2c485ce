import type { TrendDay } from '../core/api/analytics.js';
import { formatDuration } from '../core/analytics/formulas.js';
import { durationUnit } from '../ui/src/lib/duration-axis.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';

const isTrends = (url: string) => new URL(url).pathname === '/api/trends';
const oneDecimal = (n: number) => n.toFixed(1);
const dayText = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

test.describe('Trends (/trends)', () => {
  test('shows the totals, the three charts and the daily breakdown newest first', async ({ page, demo: server }) => {
    const answer = page.waitForResponse((r) => isTrends(r.url()));
    await signIn(page, server, { hash: '/trends' });
    const days = (await (await answer).json()) as TrendDay[];
    expect(days.length).toBeGreaterThan(20);

    await expect(page.getByRole('heading', { name: 'Test Trends (Last 30 Days)' })).toBeVisible();
    const total = days.reduce((s, d) => s + d.total_tests, 0);
    // Over every result, as the dashboard's 30 days.
    const ran = days.reduce((s, d) => s + d.total_tests - d.skipped, 0);
    const avgRate = (days.reduce((s, d) => s + d.passed, 0) / total) * 100;
    const avgDuration = days.reduce((s, d) => s + d.avg_duration * (d.total_tests - d.skipped), 0) / ran;
    await expect(page.getByText('Total Tests Run').locator('..')).toContainText(total.toLocaleString('en-US'));
    await expect(page.getByText('Average Pass Rate').locator('..')).toContainText(`${oneDecimal(avgRate)}%`);
    await expect(page.getByText('Average Duration', { exact: true }).locator('..')).toContainText(formatDuration(avgDuration));

    for (const [title, id] of [['Pass Rate Trend', 'pass-rate-trend'], ['Test Volume Trend', 'test-volume-trend'], ['Performance Trend', 'performance-trend']] as const) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
      await expect(page.getByTestId(id).locator('.recharts-surface').first()).toBeVisible();
    }
    // The Performance Trend's axis: one unit, picked by the slowest day's average, from 0 past it.
    const slowestDay = Math.max(...days.filter((d) => d.total_tests > 0).map((d) => Math.round(d.avg_duration)));
    const unit = durationUnit(slowestDay);
    const tickLabels = page.getByTestId('performance-trend').locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await expect(tickLabels.first()).toBeVisible();
    const ticks = await tickLabels.allTextContents();
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks[0]).toBe(`0${unit}`);
    for (const tick of ticks) expect(tick).toMatch(new RegExp(`^\\d+(\\.\\d+)?${unit}$`));

    const table = page.getByTestId('daily-breakdown');
    await expect(table.locator('thead th')).toHaveText(['Date', 'Total Tests', 'Passed', 'Failed', 'Pass Rate', 'Avg Duration']);
    const newest = [...days].sort((a, b) => b.date.localeCompare(a.date));
    await expect(table.locator('tbody tr td:first-child')).toHaveText(newest.map((d) => dayText(d.date)));
    const top = newest.find((d) => d.total_tests > 0)!;
    const topIndex = newest.indexOf(top);
    await expect(table.locator('tbody tr').nth(topIndex).locator('td')).toHaveText([
      dayText(top.date),
      top.total_tests.toLocaleString('en-US'),
      top.passed.toLocaleString('en-US'),
      top.failed.toLocaleString('en-US'),
      `${oneDecimal((top.passed / top.total_tests) * 100)}%`,
      formatDuration(top.avg_duration),
    ]);
    await shootBothThemes(page, 'trends');
  });

  test('shows the loading text while the days are on their way', async ({ page, demo: server }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => isTrends(url.href), async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, server, { hash: '/trends' });
    await expect(page.getByText('Loading trends...')).toBeVisible();
    release();
    await expect(page.getByTestId('daily-breakdown')).toBeVisible();
    await expect(page.getByText('Loading trends...')).toHaveCount(0);
  });

  test('a failed load says Failed to load trends data', async ({ page, demo: server }) => {
    await page.route((url) => isTrends(url.href), (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
    await signIn(page, server, { hash: '/trends' });
    await expect(page.getByRole('alert')).toHaveText(/^Failed to load trends data/);
    await expect(page.getByTestId('daily-breakdown')).toHaveCount(0);
  });

  test('with no results it says No trend data available', async ({ page, emptyStore: server }) => {
    const answer = page.waitForResponse((r) => isTrends(r.url()));
    await signIn(page, server, { hash: '/trends' });
    // The API lists every day of the window, each with no tests.
    expect(((await (await answer).json()) as TrendDay[]).every((d) => d.total_tests === 0)).toBe(true);
    await expect(page.getByText('No trend data available')).toBeVisible();
    await expect(page.getByTestId('daily-breakdown')).toHaveCount(0);
    await shootBothThemes(page, 'trends-empty');
  });
});
