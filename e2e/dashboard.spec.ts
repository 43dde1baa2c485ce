import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DashboardResponse } from '../core/api/analytics.js';
import { browserHealth, formatDuration, isThinPreviousWindow, passRatePercent, qualityLevel, qualityScore, riskScore } from '../core/analytics/formulas.js';
import { finalRateHint } from '../ui/src/lib/final-rate.js';
import { periodChanges } from '../ui/src/lib/period-change.js';
import { apiGet, openDashboard, recordNavigations } from './support/dashboard-helpers.js';
import { oldReport } from './support/old-report.js';
import { writeGateReport, type Outcome } from '../fixtures/testing/gate-reports.js';
import { expectRowsStackedOnPhone, PHONE, shootPhone } from './support/phone.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';

const one = (value: number) => value.toFixed(1);
const flakyHref = (t: { test_title: string; test_file: string; browser: string }) =>
  `#/flaky-tests?${new URLSearchParams({ test: t.test_title, file: t.test_file, browser: t.browser })}`;

test.describe('dashboard', () => {
  test('at 390 px the tables stack each row with every figure on screen; the page does not scroll sideways', async ({ page, demo: server }) => {
    await page.setViewportSize(PHONE);
    await openDashboard(page, server);
    await expect(page.getByTestId('executive-summary')).toBeVisible();
    const data = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
    const runs = page.getByTestId('recent-runs').locator('table');
    await expectRowsStackedOnPhone(page, runs, ['Total', 'Passed', 'Failed', 'Duration']);
    // Every figure of the first run, readable without a sideways scroll; a row still opens its run.
    const run = data.recentRuns[0]!;
    const first = runs.locator('tbody tr').first();
    await expect(first.getByTestId('row-figures')).toHaveText(`Total${run.total_tests.toLocaleString('en-US')}Passed${run.passed_tests.toLocaleString('en-US')}Failed${run.failed_tests.toLocaleString('en-US')}Duration${formatDuration(run.duration_ms)}`);
    await first.scrollIntoViewIfNeeded();
    // Its browser badge whole and on screen (the project may read Multi-browser too: the badge comes first).
    const badge = first.getByText(run.browser.includes(', ') ? 'Multi-browser' : run.browser, { exact: true }).first();
    await expect(badge).toBeInViewport({ ratio: 1 });
    const critical = page.getByTestId('most-critical').locator('table');
    await expectRowsStackedOnPhone(page, critical, ['Pass Rate', 'Risk Score']);
    const test0 = data.flakyTests[0]!;
    await expect(critical.locator('tbody tr').first().getByTestId('row-figures')).toContainText(`Pass Rate${one(test0.pass_rate * 100)}%`);
    await shootPhone(page, 'dashboard');
    await first.getByTestId('row-figures').click();
    await expect(page).toHaveURL(new RegExp(`#/upload/${run.id}$`));
  });

  test("last 7 days: real changes against the 7 days before, and the same flaky and critical counts on Flaky Tests", async ({ page, demo: server }) => {
    await openDashboard(page, server);
    await page.getByLabel('Time Range').selectOption('7');
    await expect(page.getByTestId('report-period')).toHaveText('Last 7 Days');
    const data = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=7');
    expect(data.previous).not.toBeNull();
    const changes = periodChanges(data);
    const arrow = (text: string) => (text.startsWith('+') ? `▲ ${text}` : text.startsWith('-') ? `▼ ${text}` : text);
    await expect(page.getByTestId('executive-summary').getByTestId('metric-trend')).toHaveText([changes.passRate, changes.tests, changes.avgDuration, changes.flaky].map((c) => arrow(c.text)));
    expect(changes.passRate.text).toMatch(/ pts$/);
    await expect(page.getByTestId('period-caption')).toContainText(`previous 7 days (${data.previous!.from} to ${data.previous!.to})`);

    // The same figure on two screens: the flaky and critical counts of the dashboard are the Flaky Tests cards of the same window.
    const card = (label: string) => page.getByRole('button', { name: new RegExp(`^${label}`) });
    await page.getByRole('link', { name: 'View All' }).first().click();
    await expect(page.getByTestId('flaky-window')).toContainText('last 7 days');
    await expect(card('All Tests')).toContainText(String(data.flakyCount));
    await expect(card('Critical')).toContainText(String(data.criticalFlakyCount));
    await expect(card('Critical')).toHaveAttribute('aria-pressed', 'true');
  });

  test('shows the last 30 days as GET /api/dashboard answers them', async ({ page, demo: server }) => {
    await openDashboard(page, server);
    const data = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
    const s = data.summary[0];
    const passRate = passRatePercent(s.total_passed, s.total_tests);

    await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
    await expect(page.getByTestId('overview-subtitle')).toHaveText('Showing test results from the last 30 days');
    await expect(page.getByLabel('Time Range')).toHaveValue('30');

    const stats = page.getByTestId('stat-cards');
    await expect(stats).toContainText(`Test Runs${s.total_runs.toLocaleString('en-US')}`);
    await expect(stats).toContainText(`Passed Tests${s.total_passed.toLocaleString('en-US')}`);
    await expect(stats).toContainText(`Failed Tests${s.total_failed.toLocaleString('en-US')}`);
    await expect(stats).toContainText(`Pass Rate (%)${one(passRate)}%`);

    // Executive Summary: the formulas of docs/screens.md#figures-and-formulas over the same answer.
    const summary = page.getByTestId('executive-summary');
    await expect(page.getByTestId('report-period')).toHaveText('Last 30 Days');
    const score = qualityScore(passRate, data.flakyCount, s.total_tests);
    await expect(page.getByTestId('quality-score-value')).toHaveText(one(score));
    await expect(page.getByTestId('quality-level')).toHaveText(qualityLevel(score));
    const metric = (label: string) => summary.getByLabel(label, { exact: true });
    await expect(metric('Pass Rate').getByTestId('metric-value')).toHaveText(`${one(passRate)}%`);
    await expect(metric('Tests/Day').getByTestId('metric-value')).toHaveText(one(s.total_tests / 30));
    await expect(metric('Avg Duration').getByTestId('metric-value')).toHaveText(formatDuration(s.avg_duration));
    await expect(metric('Flaky Tests').getByTestId('metric-value')).toHaveText(String(data.flakyCount));
    // The demo's history spans the 30 days before it was made: in the first hours of a UTC day
    // its oldest runs fall on the day before this window, and there is a previous period.
    const changes = periodChanges(data);
    const arrow = (text: string) => (text.startsWith('+') ? `▲ ${text}` : text.startsWith('-') ? `▼ ${text}` : text);
    await expect(summary.getByTestId('metric-trend')).toHaveText([changes.passRate, changes.tests, changes.avgDuration, changes.flaky].map((c) => arrow(c.text)));
    const compared = data.previous && `Changes compare with the previous 30 days (${data.previous.from} to ${data.previous.to}); pass rate in percentage points.`;
    await expect(page.getByTestId('period-caption')).toHaveText(
      data.previous === null
        ? 'No runs in the 30 days before this window: nothing to compare with (—).'
        : isThinPreviousWindow(s.total_tests, data.previous.total_tests)
          ? `${compared} That window ran only ${data.previous.total_tests.toLocaleString('en-US')} tests, too few to compare counts with: they show 'new'.`
          : compared!,
    );
    // The final pass rate beside the first attempts'.
    await expect(page.getByTestId('final-rate-hint')).toHaveText(
      finalRateHint({ passRate, finalPassRate: passRatePercent(s.total_passed + s.total_passed_on_retry, s.total_tests), passedOnRetry: s.total_passed_on_retry, totalTests: s.total_tests }),
    );

    // The info button toggles the calculation.
    await expect(page.getByTestId('score-breakdown')).toHaveCount(0);
    await page.getByRole('button', { name: 'Show the score calculation' }).click();
    const breakdown = page.getByTestId('score-breakdown');
    await expect(breakdown).toContainText(`Pass rate${one(passRate)}%`);
    await expect(breakdown).toContainText(`-${one(100 - qualityScore(100, data.flakyCount, s.total_tests))}`);
    await expect(breakdown).toContainText(`Result${one(score)}`);
    await page.getByRole('button', { name: 'Hide the score calculation' }).click();
    await expect(breakdown).toHaveCount(0);

    const failureRate = s.total_failed / s.total_tests;
    const risks = [
      score < 80 && 'Quality Score Below Target',
      failureRate > 0.1 && 'High Failure Rate',
      data.flakyCount > 5 && 'Multiple Flaky Tests',
      score >= 90 && failureRate <= 0.05 && data.flakyCount <= 2 && 'All Systems Healthy',
    ].filter((r): r is string => typeof r === 'string');
    expect(risks.length).toBeGreaterThan(0);
    for (const risk of risks) await expect(page.getByTestId('risk-assessment')).toContainText(risk);

    // 7-Day Flaky Test Trends: the window's flaky tests per direction, as the dashboard answer counts them.
    expect(data.flakyCount).toBeGreaterThan(data.flakyTests.length);
    await expect(page.getByRole('heading', { name: '7-Day Flaky Test Trends' })).toBeVisible();
    for (const [label, direction] of [['Getting Worse', 'declining'], ['Improving', 'improving'], ['Stable', 'stable'], ['New Issues', 'new']] as const) {
      await expect(page.getByRole('link', { name: `${label}: ${data.flakyTrendCounts[direction]}`, exact: true })).toBeVisible();
    }

    await expect(page.getByTestId('status-donut')).toContainText(`Passed: ${s.total_passed.toLocaleString('en-US')}`);
    await expect(page.getByTestId('status-donut')).toContainText(`Failed: ${s.total_failed.toLocaleString('en-US')}`);
    await expect(page.getByTestId('status-donut')).toContainText(`Skipped: ${s.total_skipped.toLocaleString('en-US')}`);
    await expect(page.getByTestId('browser-comparison').locator('.recharts-bar-rectangle')).toHaveCount(data.browserComparison.length * 2);

    // Recent Test Runs: one row per run, a browser list shown as Multi-browser.
    const runs = page.getByTestId('recent-runs');
    await expect(runs.getByRole('columnheader')).toHaveText(['Date', 'Browser', 'Project', 'Total', 'Passed', 'Failed', 'Duration']);
    await expect(runs.locator('tbody tr')).toHaveCount(data.recentRuns.length);
    const first = data.recentRuns[0]!;
    expect(first.browser).toContain(', ');
    const firstRow = runs.locator('tbody tr').first();
    await expect(firstRow.getByRole('cell')).toHaveText([
      /.+/,
      'Multi-browser',
      `${first.project ?? '—'}${first.git_branch ?? ''}`,
      first.total_tests.toLocaleString('en-US'),
      first.passed_tests.toLocaleString('en-US'),
      first.failed_tests.toLocaleString('en-US'),
      formatDuration(first.duration_ms),
    ]);
    // Each run says its branch under its project.
    for (const [i, run] of data.recentRuns.entries()) {
      if (run.git_branch) await expect(runs.locator('tbody tr').nth(i).getByTestId('run-branch')).toHaveText(run.git_branch);
    }
    expect(data.recentRuns.some((run) => run.git_branch)).toBe(true);
    await firstRow.getByRole('cell').nth(1).getByText('Multi-browser').hover();
    await expect(page.getByRole('tooltip')).toHaveText(first.browser);

    // Most Critical Tests: the first 5 flaky tests with their risk scores.
    const critical = page.getByTestId('most-critical');
    await expect(critical.getByRole('columnheader')).toHaveText(['Test', 'Browser', 'Pass Rate', 'Risk Score']);
    const top = data.flakyTests.slice(0, 5);
    await expect(critical.locator('tbody tr')).toHaveCount(top.length);
    for (const [i, t] of top.entries()) {
      await expect(critical.locator('tbody tr').nth(i).getByRole('cell').nth(2)).toHaveText(`${one(t.pass_rate * 100)}%`);
      await expect(critical.locator('tbody tr').nth(i).getByRole('cell').nth(3)).toHaveText(String(riskScore(t.pass_rate, t.total_runs)));
    }

    // Browser Health Summary: one card per browser.
    const cards = page.getByTestId('browser-health-card');
    await expect(cards).toHaveCount(data.browserComparison.length);
    for (const b of data.browserComparison) {
      const card = page.getByTestId('browser-health').getByLabel(b.browser, { exact: true });
      const rate = passRatePercent(b.passed, b.total);
      await expect(card.getByTestId('browser-pass-rate')).toHaveText(`${one(rate)}%`);
      await expect(card.getByTestId('browser-failures')).toHaveText(b.failed.toLocaleString('en-US'));
      await expect(card.getByTestId('browser-duration')).toHaveText(formatDuration(b.avg_duration));
      await expect(card).toContainText(browserHealth(rate), { ignoreCase: true });
    }

    // The full page from the top, with no tooltip left open.
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await shootBothThemes(page, 'dashboard');

    // Still usable on a narrow screen; the score breakdown open.
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.getByRole('button', { name: 'Show the score calculation' }).click();
    await shootBothThemes(page, 'dashboard-1000');
  });

  test('the time range changes the call and the subtitle; View Report opens the report for it', async ({ page, demo: server }) => {
    await openDashboard(page, server);
    await expect(page.getByTestId('report-period')).toHaveText('Last 30 Days');

    for (const [value, subtitle, period] of [
      ['7', 'Showing test results from the last 7 days', 'Last 7 Days'],
      ['90', 'Showing test results from the last 90 days', 'Last 90 Days'],
      ['0', 'Showing all test results', 'All Time'],
    ] as const) {
      const call = page.waitForResponse((r) => r.url().endsWith(`/api/dashboard?days=${value}`));
      await page.getByLabel('Time Range').selectOption(value);
      const answer = (await (await call).json()) as DashboardResponse;
      await expect(page.getByTestId('overview-subtitle')).toHaveText(subtitle);
      await expect(page.getByTestId('report-period')).toHaveText(period);
      const s = answer.summary[0];
      await expect(page.getByTestId('stat-cards')).toContainText(`Test Runs${s.total_runs.toLocaleString('en-US')}`);
      await expect(page.getByLabel('Tests/Day', { exact: true }).getByTestId('metric-value')).toHaveText(one(s.total_tests / (value === '0' ? 30 : Number(value))));
    }
    await expect(page.getByLabel('Time Range').locator('option')).toHaveText(['Last 7 days', 'Last 30 days', 'Last 90 days', 'All time']);

    await page.getByRole('link', { name: 'View Report' }).click();
    await expect(page).toHaveURL(/#\/report\?days=0$/);
  });

  test('shows Loading dashboard... while the call runs, then the error text when it fails', async ({ page, emptyStore: server }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/dashboard?*', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"database is locked"}' });
    });
    await signIn(page, server);
    await expect(page.getByText('Loading dashboard...')).toBeVisible();
    release();
    await expect(page.getByRole('alert')).toHaveText('Failed to load dashboard data');
    await expect(page.getByText('Loading dashboard...')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View Report' })).toHaveCount(0);
  });

  test('an answer without a summary shows No data available', async ({ page, emptyStore: server }) => {
    await page.route('**/api/dashboard?*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    await signIn(page, server);
    await expect(page.getByText('No data available', { exact: true })).toBeVisible();
  });

  test("against a previous window that barely ran, Tests/Day and Flaky Tests read 'new', not thousands of percent, on the dashboard and the report", async ({ page, flakeboard }) => {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-thin-'));
    try {
      // The demo's 30 days, and one small run 45 days ago: the window before holds a handful of tests.
      const old = oldReport(dir, 45);
      const server = await flakeboard.start({ imports: [{ paths: [old.path], approve: true }] });
      await openDashboard(page, server);
      const data = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
      expect(data.previous).not.toBeNull();
      const now = data.summary[0];
      expect(isThinPreviousWindow(now.total_tests, data.previous!.total_tests)).toBe(true);
      const summary = page.getByTestId('executive-summary');
      const trend = (label: string) => summary.getByLabel(label, { exact: true }).getByTestId('metric-trend');
      await expect(trend('Tests/Day')).toHaveText('new');
      await expect(trend('Flaky Tests')).toHaveText('new');
      // Rates are still compared: a pass rate in points, an average duration in percent.
      await expect(trend('Pass Rate')).toHaveText(/^(▲ \+|▼ -)?\d+\.\d pts$/);
      await expect(trend('Avg Duration')).toHaveText(/^(▲ \+|▼ -)?\d+\.\d%$/);
      await expect(page.getByTestId('period-caption')).toContainText(`That window ran only ${data.previous!.total_tests.toLocaleString('en-US')} tests, too few to compare counts with: they show 'new'.`);
      await shootBothThemes(page, 'dashboard-thin-previous', { fullPage: false });

      await page.goto(`${server.url}#/report?days=30`);
      await expect(page.getByTestId('metric-total-tests-delta')).toHaveText('new');
      await expect(page.getByTestId('metric-flaky-delta')).toHaveText('new');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a window with no runs says how many are stored and when the newest ran, and widens to show them; so does Trends', async ({ page, flakeboard }) => {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-old-'));
    try {
      const old = oldReport(dir, 60);
      const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [old.path], approve: true }] });
      await signIn(page, server);
      const empty = page.getByTestId('empty-window');
      await expect(empty).toContainText(`No runs in the last 30 days — 1 run stored, the newest on ${old.newest.slice(0, 10)}`);
      await expect(page.getByText('Get started by uploading')).toHaveCount(0);
      await shootBothThemes(page, 'dashboard-empty-window');
      await empty.getByRole('button', { name: 'Show the last 90 days' }).click();
      await expect(page.getByLabel('Time Range')).toHaveValue('90');
      await expect(page.getByTestId('executive-summary')).toBeVisible();
      await expect(page.getByTestId('stat-cards')).toContainText('Test Runs1');

      await page.goto(`${server.url}#/trends`);
      await expect(page.getByText('No trend data available')).toBeVisible();
      await expect(page.getByTestId('stored-runs-note')).toContainText(`No runs in the last 30 days — 1 run stored, the newest on ${old.newest.slice(0, 10)}`);
      await page.getByRole('link', { name: 'See them in the report of the last 90 days' }).click();
      await expect(page.getByTestId('report-period')).toHaveText('Last 90 Days');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('with no test results it welcomes the user and links to Upload', async ({ page, emptyStore: server }) => {
    await signIn(page, server);
    await expect(page.getByText('Get started by uploading your first test results to see analytics and insights.')).toBeVisible();
    // Nothing to review and nothing to report.
    await expect(page.getByTestId('pending-banner')).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View Report' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Executive Summary' })).toHaveCount(0);
    await shootBothThemes(page, 'dashboard-empty');
    await page.getByRole('link', { name: 'Upload Test Results' }).click();
    await expect(page).toHaveURL(/#\/upload$/);
  });

  test('reloads its data and the trends when testDataUpdated fires', async ({ page, demo: server }) => {
    await openDashboard(page, server);
    await expect(page.getByTestId('stat-cards')).toBeVisible();
    // The dashboard answer carries the trend counts: one call reloads both.
    const dashboardCall = page.waitForRequest((r) => r.url().endsWith('/api/dashboard?days=30'));
    await page.evaluate(() => window.dispatchEvent(new Event('testDataUpdated')));
    await dashboardCall;
    await expect(page.getByTestId('stat-cards')).toBeVisible();
    await expect(page.getByRole('heading', { name: '7-Day Flaky Test Trends' })).toBeVisible();
  });

  test('trend cards, Most Critical rows and View All lead to the flaky screen with exact queries', async ({ page, demo: server }) => {
    await openDashboard(page, server);
    const data = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');

    for (const [label, severity] of [['Getting Worse', 'declining'], ['Improving', 'improving'], ['Stable', 'stable'], ['New Issues', 'new']]) {
      await expect(page.getByRole('link', { name: new RegExp(`^${label}: \\d+$`) })).toHaveAttribute('href', `#/flaky-tests?severity=${severity}`);
    }
    const critical = page.getByTestId('most-critical');
    await expect(critical.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '#/flaky-tests?severity=severe');
    const top = data.flakyTests.slice(0, 5);
    for (const [i, t] of top.entries()) {
      await expect(critical.locator('tbody tr').nth(i).getByRole('link')).toHaveAttribute('href', flakyHref(t));
    }
    // The demo has a title with '?', '&' and '/': it must survive the query string.
    const tricky = data.flakyTests.find((t) => /[?&/]/.test(t.test_title));
    expect(tricky, 'the demo data has a title with URL characters').toBeDefined();

    // Clicking anywhere on a row opens that test (the flaky screen may then tidy its address).
    const navigations = await recordNavigations(page);
    await critical.locator('tbody tr').nth(1).getByRole('cell').nth(3).click();
    await expect.poll(navigations).toEqual([flakyHref(top[1]!)]);
    await expect(page.getByRole('link', { name: 'Flaky Tests' })).toHaveAttribute('aria-current', 'page');

    await page.goBack();
    await expect(page.getByTestId('most-critical')).toBeVisible();
    await page.getByRole('link', { name: /^Getting Worse: / }).click();
    await expect.poll(async () => (await navigations()).at(-1)).toBe('#/flaky-tests?severity=declining');
  });

  test('health alerts follow the documented rules (docs/screens.md#health-alerts)', async ({ page, demo: server }) => {
    await openDashboard(page, server);
    const data = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
    const alerts = page.getByTestId('health-alerts');

    // The demo: several tests failing half the time or more, healthy browsers and pass rate.
    // Counted by the server over every flaky test; the worst comes first in its critical list.
    expect(data.criticalFlakyCount).toBeGreaterThan(1);
    const worst = data.criticalFlakyTests[0]!;
    expect(data.criticalFlakyTests.every((t) => t.pass_rate >= worst.pass_rate && t.pass_rate <= 0.5)).toBe(true);
    await expect(alerts.getByTestId('alert-critical-flaky')).toContainText(`${data.criticalFlakyCount} Critical Flaky Tests`);
    await expect(alerts.getByTestId('alert-critical-flaky')).toContainText(`${worst.test_title} (${worst.browser}) is failing ≥50% of the time`);
    await expect(alerts.getByRole('link', { name: 'View Worst' })).toHaveAttribute('href', flakyHref(worst));
    await expect(alerts.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '#/flaky-tests?severity=severe');
    expect(data.browserComparison.some((b) => b.failed > b.passed)).toBe(false);
    await expect(alerts.getByText('Browser Issues Detected')).toHaveCount(0);
    expect(passRatePercent(data.summary[0].total_passed, data.summary[0].total_tests)).toBeGreaterThanOrEqual(80);
    await expect(alerts.getByText('Low Overall Pass Rate')).toHaveCount(0);
    // The rules that did not fire are listed as passing checks.
    await expect(alerts.getByTestId('passing-checks')).toHaveText(
      `✓Every browser passes more than it fails✓Overall pass rate ${one(passRatePercent(data.summary[0].total_passed, data.summary[0].total_tests))}% (target 80%)`,
    );

    // The same answer made worse: one critical test, a failing browser, a low pass rate.
    const single = { ...data.flakyTests[0]!, pass_rate: 0.25 };
    const worse: DashboardResponse = {
      ...data,
      summary: [{ ...data.summary[0], total_passed: Math.floor(data.summary[0].total_tests * 0.6) }],
      flakyTests: [single, ...data.flakyTests.filter((t) => t.pass_rate > 0.5)],
      criticalFlakyCount: 1,
      criticalFlakyTests: [single],
      browserComparison: data.browserComparison.map((b, i) => (i === 1 ? { ...b, failed: b.passed + 1 } : b)),
    };
    await page.route('**/api/dashboard?*', (route) => route.fulfill({ json: worse }));
    await page.getByLabel('Time Range').selectOption('7');
    await expect(alerts.getByTestId('alert-critical-flaky')).toContainText('Critical Flaky Test');
    await expect(alerts.getByTestId('alert-critical-flaky')).toContainText(`${single.test_title} (${single.browser}) is failing ≥50% of the time`);
    await expect(alerts.getByRole('link', { name: 'View Test' })).toHaveAttribute('href', flakyHref(single));
    await expect(alerts.getByRole('link', { name: 'View Worst' })).toHaveCount(0);
    await expect(alerts.getByTestId('alert-browser-issues')).toContainText('Browser Issues Detected');
    await expect(alerts.getByTestId('alert-browser-issues')).toContainText(data.browserComparison[1]!.browser);
    await expect(alerts.getByTestId('alert-browser-issues').getByRole('link')).toHaveAttribute('href', '#/browser-analysis');
    await expect(alerts.getByTestId('alert-low-pass-rate')).toContainText('Low Overall Pass Rate');
    await expect(alerts.getByTestId('alert-low-pass-rate').getByRole('link')).toHaveAttribute('href', '#/trends');

    // And made healthy: nothing to alert about.
    const healthy: DashboardResponse = { ...data, flakyTests: data.flakyTests.filter((t) => t.pass_rate > 0.5), criticalFlakyCount: 0, criticalFlakyTests: [], brokenCount: 0, brokenTests: [] };
    await page.unroute('**/api/dashboard?*');
    await page.route('**/api/dashboard?*', (route) => route.fulfill({ json: healthy }));
    await page.getByLabel('Time Range').selectOption('90');
    await expect(alerts).toContainText('No health alerts');
    await expect(alerts.getByTestId(/^alert-/)).toHaveCount(0);
  });

  test('a test that failed every run is counted and named on the dashboard and the report, and no check says otherwise', async ({ page, flakeboard }) => {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-broken-'));
    try {
      // Five runs over five days: one test fails all five, one passes, one flips each run.
      const paths = [0, 1, 2, 3, 4].map((i) => {
        const outcomes: Record<string, Outcome> = { 'charges the card': 'failed', 'shows the basket': 'passed', 'applies a coupon': i % 2 === 0 ? 'failed' : 'passed' };
        return writeGateReport(dir, `run-${i}.json`, outcomes, new Date(Date.now() - (4 - i) * 86_400_000 - 3_600_000).toISOString());
      });
      const server = await flakeboard.start({ template: 'empty', imports: [{ paths, approve: true }] });
      await signIn(page, server);
      const data = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
      expect(data.brokenCount).toBe(1);
      expect(data.brokenTests.map((t) => [t.test_title, t.browser, t.failed_runs])).toEqual([['charges the card', 'chromium', 5]]);

      const alerts = page.getByTestId('health-alerts');
      await expect(alerts.getByTestId('alert-broken')).toContainText('Broken Test');
      await expect(alerts.getByTestId('alert-broken')).toContainText('charges the card (chromium): failed all 5 runs');
      // It fails more than half of its runs: no check may say that none does.
      await expect(alerts).not.toContainText('No test fails half of its runs or more');
      await expect(alerts).not.toContainText('No test fails every run');
      const critical = page.getByTestId('most-critical');
      await expect(critical.getByTestId('broken-tests')).toContainText('charges the card');
      await expect(critical.getByTestId('broken-count')).toHaveText('1 broken');
      await expect(page.getByTestId('executive-summary')).not.toContainText('All Systems Healthy');
      await shootBothThemes(page, 'dashboard-broken');
      await page.setViewportSize(PHONE);
      await expect(critical.getByTestId('broken-tests')).toBeVisible();
      await shootPhone(page, 'dashboard-broken');

      await page.goto(`${server.url}#/report?days=30`);
      await expect(page.getByTestId('report-broken')).toContainText('1 test fails every run');
      await expect(page.getByTestId('report-broken')).toContainText('charges the card');
      await shootPhone(page, 'report-broken');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
