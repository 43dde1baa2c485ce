import type { Page } from '@playwright/test';
import { flakySeverity, worstTrend, type TrendDirection } from '../core/analytics/formulas.js';
import type { FlakyTestGroup, TrendRecord } from '../core/api/analytics.js';
import { expect, shootBothThemes, signIn, test, type Flakeboard } from './support/fixtures.js';
import { api } from './support/flaky.js';

const percent1 = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
const trendOf = (records: TrendRecord[], g: FlakyTestGroup, browser: string) =>
  records.find((r) => r.test_file === g.test_file && r.test_title === g.test_title && r.browser === browser);
const directionsOf = (records: TrendRecord[], g: FlakyTestGroup) =>
  g.browsers.map((b) => trendOf(records, g, b.browser)?.trend_direction).filter((d): d is TrendDirection => d !== undefined);

const FILTER_LABELS: Record<string, string> = {
  severe: 'Critical (pass rate below 50%)',
  moderate: 'Warning (pass rate 50% to 80%)',
  minor: 'Stable (pass rate 80% or more)',
  improving: 'Improving trend',
  declining: 'Declining trend',
  stable: 'Stable trend',
  new: 'New trend',
};

function expectedFor(value: string, groups: FlakyTestGroup[], records: TrendRecord[]): FlakyTestGroup[] {
  if (['severe', 'moderate', 'minor'].includes(value)) return groups.filter((g) => flakySeverity(g.worst_pass_rate) === value);
  return groups.filter((g) => directionsOf(records, g).includes(value as TrendDirection));
}

async function openPage(page: Page, flakeboard: Flakeboard) {
  const server = await flakeboard.start();
  await signIn(page, server, { hash: '/flaky-tests' });
  await expect(page.getByTestId('flaky-group').first()).toBeVisible();
  const groups = await api<FlakyTestGroup[]>(page, '/api/flaky-tests');
  const records = await api<TrendRecord[]>(page, '/api/flaky-trends');
  return { server, groups, records };
}

test.describe('Flaky Test Analysis', () => {
  test('the table shows every group of GET /api/flaky-tests with its figures, overall trend and severity counts', async ({ page, flakeboard }) => {
    const { groups, records } = await openPage(page, flakeboard);
    expect(groups.length).toBeGreaterThan(5);
    await expect(page.getByRole('heading', { name: 'Flaky Test Analysis' })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText(['', 'Test Name', 'File', 'Browsers Affected', 'Worst Pass Rate', 'Overall Trend', 'Total Runs', 'Total Failed', 'Flaky Score']);

    const rows = page.getByTestId('flaky-group');
    await expect(rows).toHaveCount(groups.length);
    for (const [i, g] of groups.entries()) {
      const row = rows.nth(i);
      await expect(row.getByTestId('group-title')).toHaveText(g.test_title.length > 60 ? `${g.test_title.slice(0, 60)}...` : g.test_title);
      await expect(row.getByTestId('group-file')).toHaveText(g.test_file.split('/').pop()!);
      await expect(row.getByTestId('group-pass-rate')).toHaveText(percent1(g.worst_pass_rate));
      // Flaky colour rule: below 0.5 red, below 0.8 amber, otherwise green.
      const color = g.worst_pass_rate < 0.5 ? 'red' : g.worst_pass_rate < 0.8 ? 'yellow' : 'green';
      await expect(row.getByTestId('group-pass-rate')).toHaveAttribute('style', new RegExp(`--mantine-color-${color}-`));
      await expect(row.getByTestId('group-runs')).toHaveText(String(g.total_runs_all_browsers));
      await expect(row.getByTestId('group-failed')).toHaveText(String(g.total_failed_all_browsers));
      await expect(row.getByTestId('group-score')).toHaveText(g.highest_flaky_score.toFixed(1));
      for (const b of g.browsers) await expect(row.getByText(b.browser, { exact: true })).toBeVisible();

      const direction = worstTrend(directionsOf(records, g));
      if (direction === null) {
        await expect(row.getByText('No trend data')).toBeVisible();
        continue;
      }
      const badge = row.getByTestId('trend-badge');
      await expect(badge).toHaveAttribute('data-direction', direction);
      const change = g.browsers
        .map((b) => trendOf(records, g, b.browser))
        .filter((r) => r?.trend_direction === direction)
        .reduce((best, r) => (Math.abs(r!.trend_percentage) > Math.abs(best) ? r!.trend_percentage : best), 0);
      await expect(badge).toHaveAttribute('data-segments', String(Math.min(5, Math.ceil(Math.abs(change) / 10))));
      if (direction === 'declining' && Math.abs(change) > 15) await expect(badge).toHaveAttribute('data-critical', 'true');
      else await expect(badge).not.toHaveAttribute('data-critical', /.*/);
    }

    const count = (s: string) => groups.filter((g) => flakySeverity(g.worst_pass_rate) === s).length;
    for (const [label, n] of [['All Tests', groups.length], ['Critical', count('severe')], ['Warning', count('moderate')], ['Stable', count('minor')]] as const) {
      await expect(page.getByRole('button', { name: new RegExp(`^${label}`) })).toHaveText(new RegExp(`^${label}${n}`));
    }
    await expect(page.getByTestId('filter-status')).toHaveText(`Showing all ${groups.length} flaky tests`);

    // A group opens into one row per browser with its figures.
    const index = groups.findIndex((g) => g.browsers.length > 1);
    const group = groups[index]!;
    await rows.nth(index).click();
    const browserRows = page.getByTestId('browser-row');
    await expect(browserRows).toHaveCount(group.browsers.length);
    for (const [i, b] of group.browsers.entries()) {
      const cells = browserRows.nth(i).getByRole('cell');
      await expect(cells).toHaveText([b.browser, percent1(b.pass_rate), String(b.total_runs), String(b.failed_runs), String(b.skipped_runs), b.flaky_score.toFixed(1), /.+/]);
      const record = trendOf(records, group, b.browser);
      if (record) await expect(browserRows.nth(i).getByTestId('trend-badge')).toHaveAttribute('data-direction', record.trend_direction);
    }
    await page.setViewportSize({ width: 1440, height: 1700 });
    await shootBothThemes(page, 'flaky-table-expanded', { fullPage: false });
    // Clicking it again folds it.
    await rows.nth(index).click();
    await expect(browserRows).toHaveCount(0);
  });

  test('each severity query value filters the table, then the query string is removed', async ({ page, flakeboard }) => {
    const { server, groups, records } = await openPage(page, flakeboard);
    const rows = page.getByTestId('flaky-group');
    for (const value of ['severe', 'moderate', 'minor', 'improving', 'declining', 'stable', 'new']) {
      const expected = expectedFor(value, groups, records);
      await page.goto(`${server.url}#/flaky-tests?severity=${value}`);
      await expect(page).toHaveURL(/#\/flaky-tests$/);
      await expect(page.getByTestId('filter-status')).toHaveText(`Showing ${expected.length} of ${groups.length} flaky tests · Filter: ${FILTER_LABELS[value]}Clear Filter`);
      await expect(rows).toHaveCount(expected.length);
      await expect(rows.getByTestId('group-title')).toHaveText(expected.map((g) => g.test_title.slice(0, 60) + (g.test_title.length > 60 ? '...' : '')));
      if (expected.length === 0) await expect(page.getByText('No flaky tests match this filter.')).toBeVisible();
    }
    // A fresh load with a query applies it too.
    await page.goto(`${server.url}#/`);
    const busiest = (['severe', 'moderate', 'minor'] as const).map((v) => ({ v, n: expectedFor(v, groups, records).length })).sort((a, b) => b.n - a.n)[0]!;
    await page.goto(`${server.url}#/flaky-tests?severity=${busiest.v}`);
    await expect(page).toHaveURL(/#\/flaky-tests$/);
    await expect(rows).toHaveCount(busiest.n);
    const card = { severe: 'Critical', moderate: 'Warning', minor: 'Stable' }[busiest.v];
    await expect(page.getByRole('button', { name: new RegExp(`^${card}`) })).toHaveAttribute('aria-pressed', 'true');
  });

  test('stat cards set the filter, the active one resets it, Clear Filter resets it, and a change collapses open groups', async ({ page, flakeboard }) => {
    const { groups } = await openPage(page, flakeboard);
    const rows = page.getByTestId('flaky-group');
    const status = page.getByTestId('filter-status');
    // The demo history ends now, so which severities have tests depends on the day: use two that do.
    const cards = (['severe', 'moderate', 'minor'] as const)
      .map((severity) => ({ severity, label: { severe: 'Critical', moderate: 'Warning', minor: 'Stable' }[severity], groups: groups.filter((g) => flakySeverity(g.worst_pass_rate) === severity) }))
      .filter((c) => c.groups.length > 0);
    expect(cards.length).toBeGreaterThanOrEqual(2);
    const [first, second] = [cards[0]!, cards[1]!];
    const firstCard = page.getByRole('button', { name: new RegExp(`^${first.label}`) });
    const secondCard = page.getByRole('button', { name: new RegExp(`^${second.label}`) });

    await firstCard.click();
    await expect(firstCard).toHaveAttribute('aria-pressed', 'true');
    await expect(rows).toHaveCount(first.groups.length);
    await expect(status).toContainText(`Showing ${first.groups.length} of ${groups.length} flaky tests · Filter: ${first.label}`);

    await rows.first().click();
    await expect(page.getByTestId('group-breakdown')).toHaveCount(1);
    await secondCard.click();
    await expect(rows).toHaveCount(second.groups.length);
    await expect(page.getByTestId('group-breakdown')).toHaveCount(0);
    await expect(firstCard).toHaveAttribute('aria-pressed', 'false');

    // The active card again: back to all.
    await secondCard.click();
    await expect(rows).toHaveCount(groups.length);
    await expect(status).toHaveText(`Showing all ${groups.length} flaky tests`);
    await expect(page.getByRole('button', { name: /^All Tests/ })).toHaveAttribute('aria-pressed', 'true');

    await rows.first().click();
    await firstCard.click();
    await expect(page.getByTestId('group-breakdown')).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear Filter' }).click();
    await expect(rows).toHaveCount(groups.length);
    await expect(page.getByRole('button', { name: 'Clear Filter' })).toHaveCount(0);
  });

  test('clicking a trend badge filters by its direction without opening the row; clicking it again resets', async ({ page, flakeboard }) => {
    const { groups, records } = await openPage(page, flakeboard);
    const rows = page.getByTestId('flaky-group');
    // Which directions the demo has depends on the day: take the first group's overall trend.
    const index = groups.findIndex((g) => worstTrend(directionsOf(records, g)) !== null);
    expect(index).toBeGreaterThanOrEqual(0);
    const direction = worstTrend(directionsOf(records, groups[index]!))!;
    const matching = expectedFor(direction, groups, records);

    await rows.nth(index).getByRole('button', { name: `Filter by ${direction} trend` }).click();
    await expect(rows).toHaveCount(matching.length);
    await expect(page.getByTestId('filter-status')).toContainText(`Filter: ${FILTER_LABELS[direction]}`);
    await expect(page.getByTestId('group-breakdown')).toHaveCount(0);

    // The active filter's badge again: back to all.
    await rows.nth(matching.indexOf(groups[index]!)).getByRole('button', { name: `Filter by ${direction} trend` }).click();
    await expect(rows).toHaveCount(groups.length);

    // A browser row's badge filters as well.
    const other = groups.findIndex((g) => directionsOf(records, g).some((d) => d !== direction));
    const otherDirection = directionsOf(records, groups[other]!).find((d) => d !== direction)!;
    await rows.nth(other).click();
    await page.getByTestId('browser-rows').getByRole('button', { name: `Filter by ${otherDirection} trend` }).first().click();
    await expect(rows).toHaveCount(expectedFor(otherDirection, groups, records).length);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('a deep link expands, scrolls to and highlights the group for 3 s, opens the browser dialog after 500 ms and clears the query', async ({ page, flakeboard }) => {
    // Records when the highlight and the dialog appear, in the page's own clock.
    await page.addInitScript(() => {
      const marks: Record<string, number> = {};
      (window as unknown as { __marks: Record<string, number> }).__marks = marks;
      new MutationObserver(() => {
        const now = performance.now();
        const lit = document.querySelector('[data-highlighted]') !== null;
        if (lit && marks.on === undefined) marks.on = now;
        if (!lit && marks.on !== undefined && marks.off === undefined) marks.off = now;
        if (marks.dialog === undefined && document.querySelector('[role="dialog"]')) marks.dialog = now;
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    const { server, groups } = await openPage(page, flakeboard);
    // A title that exists in two files proves the file picks the group; the later one needs scrolling.
    const duplicated = groups.filter((g) => groups.filter((o) => o.test_title === g.test_title).length > 1);
    const group = duplicated.length > 0 ? duplicated[duplicated.length - 1]! : groups[groups.length - 1]!;
    const index = groups.indexOf(group);
    const browser = group.browsers[group.browsers.length - 1]!.browser;

    // Start from a screen with no dialog of its own (the dashboard opens the review dialog).
    await page.goto(`${server.url}#/slow-tests`);
    await expect(page.getByRole('heading', { name: 'Test Performance Analysis' })).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 600 });
    await page.evaluate(() => {
      const marks = (window as unknown as { __marks: Record<string, number> }).__marks;
      for (const key of Object.keys(marks)) delete marks[key];
    });
    const query = new URLSearchParams({ test: group.test_title, file: group.test_file, browser });
    await page.goto(`${server.url}#/flaky-tests?${query}`);

    const row = page.getByTestId('flaky-group').nth(index);
    await expect(row).toHaveAttribute('data-highlighted', 'true');
    await expect(row).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('group-breakdown')).toHaveCount(1);
    await expect(page.locator('[data-highlighted]')).toHaveCount(1);
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('dialog-title')).toHaveText(group.test_title);
    await expect(dialog.getByText(browser, { exact: true })).toBeVisible();
    await expect(dialog.getByText(group.test_file, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/#\/flaky-tests$/);

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(row).toBeInViewport();
    await expect(row).not.toHaveAttribute('data-highlighted', /.*/, { timeout: 10_000 });
    const marks = await page.evaluate(() => (window as unknown as { __marks: Record<string, number> }).__marks);
    expect(marks.dialog! - marks.on!).toBeGreaterThanOrEqual(450);
    expect(marks.off! - marks.on!).toBeGreaterThanOrEqual(2900);
    // The group stays open after the highlight ends.
    await expect(row).toHaveAttribute('aria-expanded', 'true');
  });

  test('shows Loading flaky tests... while the list loads', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/flaky-tests', async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, server, { hash: '/flaky-tests' });
    await expect(page.getByText('Loading flaky tests...')).toBeVisible();
    release();
    await expect(page.getByTestId('flaky-group').first()).toBeVisible();
    await expect(page.getByText('Loading flaky tests...')).toHaveCount(0);
  });

  test('a failed load shows Failed to load flaky tests', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await page.route('**/api/flaky-tests', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
    await signIn(page, server, { hash: '/flaky-tests' });
    await expect(page.getByRole('alert')).toHaveText('Failed to load flaky tests');
    await shootBothThemes(page, 'flaky-failed');
  });

  test('without data the empty state explains what a flaky test is', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server, { hash: '/flaky-tests' });
    await expect(page.getByText('No flaky tests found!')).toBeVisible();
    await expect(page.getByText('Flaky tests are tests that have multiple runs with different outcomes: they pass in some runs and fail in others.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await shootBothThemes(page, 'flaky-empty');
  });

  test('a failed trend load is only logged: the table still shows, without trends', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await page.route('**/api/flaky-trends', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
    await signIn(page, server, { hash: '/flaky-tests' });
    const groups = await api<FlakyTestGroup[]>(page, '/api/flaky-tests');
    await expect(page.getByTestId('flaky-group')).toHaveCount(groups.length);
    await expect(page.getByTestId('flaky-group').getByText('No trend data')).toHaveCount(groups.length);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('reloads when testDataUpdated fires', async ({ page, flakeboard }) => {
    const { groups } = await openPage(page, flakeboard);
    await expect(page.getByTestId('flaky-group')).toHaveCount(groups.length);
    // The next answer (as after an import) has one group only.
    await page.route('**/api/flaky-tests', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(groups.slice(0, 1)) }));
    await page.evaluate(() => window.dispatchEvent(new Event('testDataUpdated')));
    await expect(page.getByTestId('flaky-group')).toHaveCount(1);
    await expect(page.getByRole('button', { name: /^All Tests/ })).toHaveText(/^All Tests1/);
  });
});
