import type { DashboardResponse } from '../core/api/analytics.js';
import { formatDuration } from '../core/analytics/formulas.js';
import { periodChanges } from '../ui/src/lib/period-change.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';
import { PHONE, shootPhone } from './support/phone.js';

const dashboardCall = (days: number) => (url: string) => {
  const u = new URL(url);
  return u.pathname === '/api/dashboard' && u.searchParams.get('days') === String(days);
};

test.describe('Executive report (/report)', () => {
  test('shows the figures computed from the dashboard answer, without the app header', async ({ page, demo: server }) => {
    const answer = page.waitForResponse((r) => dashboardCall(30)(r.url()));
    await signIn(page, server, { hash: '/' });
    await page.goto(`${server.url}#/report`);
    const data = (await (await answer).json()) as DashboardResponse;
    // The dashboard made the same call; wait for the report's own heading.
    await expect(page.getByTestId('report-title')).toHaveText('Executive Quality Report');
    await expect(page.getByTestId('report-period')).toHaveText('Last 30 Days');
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

    const s = data.summary[0];
    const passRate = (s.total_passed / s.total_tests) * 100;
    // The answer lists a few flaky tests; the report counts them all.
    const flaky = data.flakyCount;
    const score = Math.max(0, Math.min(100, passRate - Math.min((flaky / s.total_tests) * 100, 20)));
    const critical = data.criticalFlakyCount;
    expect(flaky).toBeGreaterThan(0);
    expect(critical).toBeGreaterThan(0);

    await expect(page.getByTestId('quality-score-value')).toHaveText(score.toFixed(1));
    await expect(page.getByTestId('metric-pass-rate-value')).toHaveText(`${passRate.toFixed(1)}%`);
    await expect(page.getByTestId('metric-total-tests-value')).toHaveText(s.total_tests.toLocaleString('en-US'));
    await expect(page.getByTestId('metric-flaky-value')).toHaveText(String(flaky));
    await expect(page.getByTestId('metric-dev-time-value')).toHaveText(`${(flaky * 0.5).toFixed(1)} hrs/week`);
    await expect(page.getByTestId('critical-count')).toHaveText(`${critical} critical`);
    await expect(page.getByTestId('critical-cost')).toHaveText(`$${(critical * 800).toLocaleString('en-US')}/week`);
    await expect(page.getByTestId('fix-days')).toHaveText(`${Math.ceil(flaky / 2)} days`);
    // The dashboard's average duration, and the changes against the 30 days before: '—' unless the
    // demo's oldest runs fall before this window (they do in the first hours of a UTC day).
    await expect(page.getByTestId('quick-avg-duration-value')).toHaveText(formatDuration(s.avg_duration));
    await expect(page.getByText('vs last period').first()).toBeVisible();
    const changes = periodChanges(data);
    await expect(page.getByTestId('metric-pass-rate-delta')).toHaveText(changes.passRate.text);
    await expect(page.getByTestId('quick-avg-duration-delta')).toHaveText(changes.avgDuration.text);
    if (data.previous === null) expect([changes.passRate.text, changes.avgDuration.text]).toEqual(['—', '—']);
    await expect(page.getByTestId('quick-runs-value')).toHaveText(s.total_runs.toLocaleString('en-US'));

    // Browser health: one row per browser; an issue when over 10% of its results failed.
    const rows = page.getByTestId('browser-health-row');
    await expect(rows).toHaveCount(data.browserComparison.length);
    for (const [i, b] of data.browserComparison.entries()) {
      await expect(rows.nth(i)).toContainText(b.browser);
      await expect(rows.nth(i)).toContainText(`${((b.passed / b.total) * 100).toFixed(1)}%`);
      if (b.failed / b.total > 0.1) await expect(rows.nth(i)).toContainText(`Issue: ${((b.failed / b.total) * 100).toFixed(1)}% failing`);
      else await expect(rows.nth(i)).not.toContainText('Issue');
    }

    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    await expect(page.getByTestId('report-id')).toHaveText(`Report ID: QR-${today}-30D`);
    await expect(page.getByTestId('report-generated')).toContainText('Generated');
    await shootBothThemes(page, 'report');
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await shootPhone(page, 'report');
    await page.setViewportSize({ width: 1440, height: 900 });

    // On paper the back button, print button and theme toggle are gone.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Back to Dashboard' })).toBeHidden();
    await expect(page.getByTestId('theme-toggle')).toBeHidden();
    await expect(page.getByTestId('quality-score-value')).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
  });

  test('the back button goes to the dashboard', async ({ page, demo: server }) => {
    // signIn waits for the app header, which /report does not have: sign in first, then open it.
    await signIn(page, server);
    await page.goto(`${server.url}#/report`);
    await expect(page.getByTestId('quality-score-value')).toBeVisible();
    await page.getByRole('button', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/#\/$/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });

  test('the theme toggle switches and stores the theme', async ({ page, demo: server }) => {
    // signIn waits for the app header, which /report does not have: sign in first, then open it.
    await signIn(page, server);
    await page.goto(`${server.url}#/report`);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');
    await page.getByTestId('theme-toggle').click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.getByTestId('theme-toggle').click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  test('?days=7 and ?days=0 ask for that period and say so in the title', async ({ page, demo: server }) => {
    await signIn(page, server);
    for (const [days, period, id] of [[7, 'Last 7 Days', '7D'], [0, 'All Time', 'ALL']] as const) {
      const answer = page.waitForResponse((r) => dashboardCall(days)(r.url()));
      await page.goto(`${server.url}#/report?days=${days}`);
      const data = (await (await answer).json()) as DashboardResponse;
      await expect(page.getByTestId('report-period')).toHaveText(period);
      await expect(page.getByTestId('metric-flaky-value')).toHaveText(String(data.flakyCount));
      await expect(page.getByTestId('report-id')).toContainText(`-${id}`);
    }
  });

  test('a failure shows the server error, or the message when there is none', async ({ page, demo: server }) => {
    await signIn(page, server);
    let body = '{"error":"Report database is busy"}';
    await page.route((url) => new URL(url.href).pathname === '/api/dashboard', (route) => route.fulfill({ status: 500, contentType: 'application/json', body }));
    await page.goto(`${server.url}#/report`);
    // A hash change: the dashboard signIn opened (whose health alerts are alerts too) leaves first.
    await expect(page.getByRole('heading', { name: 'Executive Quality Report' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(/^Failed to load report data: Report database is busy/);
    await shootBothThemes(page, 'report-error');

    body = 'upstream exploded';
    await page.reload();
    await expect(page.getByRole('alert')).toHaveText(/^Failed to load report data: Request failed with status code 500/);
  });

  test('shows a loading state while the data is on its way, and an empty state with no results', async ({ page, emptyStore: server }) => {
    await signIn(page, server);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => new URL(url.href).pathname === '/api/dashboard', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}#/report`);
    await expect(page.getByText('Generating report...')).toBeVisible();
    release();
    await expect(page.getByText('No test results in this period')).toBeVisible();
    await expect(page.getByText('Generating report...')).toHaveCount(0);
  });
});
