import { readFileSync } from 'node:fs';
import type { SlowTestsPage } from '../core/api/analytics.js';
import { formatDuration, performanceLevel } from '../core/analytics/formulas.js';
import { OWN_REPORTS } from './support/cli.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';
import { expectTableUsableOnPhone, PHONE } from './support/phone.js';

const isSlowTests = (url: string) => new URL(url).pathname === '/api/slow-tests';

test.describe('Slow Tests (/slow-tests)', () => {
  test('shows the counts, the tips and every slow test with its figures, slowest first', async ({ page, demo: server }) => {
    const answer = page.waitForResponse((r) => isSlowTests(r.url()));
    await signIn(page, server, { hash: '/slow-tests' });
    const first50 = (await (await answer).json()) as SlowTestsPage;
    const tests = first50.items;
    expect(tests.length).toBeGreaterThan(10);

    await expect(page.getByRole('heading', { name: 'Test Performance Analysis' })).toBeVisible();
    // The cards count every test of the window, from the server, not the page.
    const { slow, very_slow: verySlow } = first50.counts;
    expect(verySlow).toBeGreaterThan(0);
    await expect(page.getByText('Tests Analyzed').locator('..')).toContainText(String(first50.total));
    await expect(page.getByText('Slow Tests (>10s)').locator('..')).toContainText(String(slow));
    await expect(page.getByText('Very Slow Tests (>30s)').locator('..')).toContainText(String(verySlow));
    await expect(page.getByTestId('optimisation-tips')).toContainText('Performance Optimization Tips');

    const table = page.getByTestId('slow-tests-table');
    await expect(table.locator('thead th')).toHaveText(['Test Name', 'File', 'Browser', 'Project', 'Avg Duration', 'Max Duration', 'Performance', 'Total Runs']);
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(tests.length);
    const first = tests[0]!;
    await expect(rows.first().locator('td')).toHaveText([
      first.test_title.length > 50 ? `${first.test_title.slice(0, 50)}...` : first.test_title,
      first.test_file.split('/').at(-1)!,
      first.browser,
      first.project,
      formatDuration(first.avg_duration),
      formatDuration(first.max_duration),
      performanceLevel(first.avg_duration),
      String(first.total_runs),
    ]);
    expect(first.test_file).toContain('/');
    // Slowest first, as the API orders them.
    const avgs = tests.map((t) => t.avg_duration);
    expect(avgs).toEqual([...avgs].sort((a, b) => b - a));

    // A title over 50 characters is cut with '...'; the full title shows on hover.
    const longIndex = tests.findIndex((t) => t.test_title.length > 50);
    expect(longIndex).toBeGreaterThanOrEqual(0);
    const long = tests[longIndex]!;
    const longCell = rows.nth(longIndex).locator('td').first();
    await expect(longCell).toHaveText(`${long.test_title.slice(0, 50)}...`);
    await longCell.getByText(`${long.test_title.slice(0, 50)}...`).hover();
    await expect(page.getByRole('tooltip')).toHaveText(long.test_full_title);

    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shootBothThemes(page, 'slow-tests');
  });

  test('shows the loading text while the list is on its way', async ({ page, demo: server }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => isSlowTests(url.href), async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, server, { hash: '/slow-tests' });
    await expect(page.getByText('Loading slow tests...')).toBeVisible();
    release();
    await expect(page.getByTestId('slow-tests-table')).toBeVisible();
    await expect(page.getByText('Loading slow tests...')).toHaveCount(0);
  });

  test('a failed load says Failed to load slow tests', async ({ page, demo: server }) => {
    await page.route((url) => isSlowTests(url.href), (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
    await signIn(page, server, { hash: '/slow-tests' });
    await expect(page.getByRole('alert')).toHaveText(/^Failed to load slow tests/);
    await expect(page.getByTestId('slow-tests-table')).toHaveCount(0);
    await shootBothThemes(page, 'slow-tests-error');
  });

  test('with no results it tells the user to run some tests, and reloads on testDataUpdated', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server, { hash: '/slow-tests' });
    await expect(page.getByText('No test performance data yet')).toBeVisible();
    await expect(page.getByText('Run some tests and upload their results to see which tests are slow.')).toBeVisible();
    await expect(page.getByTestId('optimisation-tips')).toHaveCount(0);
    await shootBothThemes(page, 'slow-tests-empty');

    // Someone uploads a report elsewhere; the broadcast makes this screen load again.
    const report = JSON.parse(readFileSync(`${OWN_REPORTS}run-1.json`, 'utf8')) as unknown;
    const status = await page.evaluate(async (testResults) => {
      const headers = { authorization: `Bearer ${localStorage.getItem('auth_token')}`, 'x-xsrf-token': decodeURIComponent(document.cookie.replace(/(?:^|.*;\s*)XSRF-TOKEN=([^;]*).*$/, '$1')), 'content-type': 'application/json' };
      return (await fetch('/api/upload', { method: 'POST', headers, body: JSON.stringify({ testResults, metadata: { fileName: 'run-1.json' } }) })).status;
    }, report);
    expect(status).toBe(200);
    const reloaded = page.waitForResponse((r) => isSlowTests(r.url()));
    await page.evaluate(() => window.dispatchEvent(new Event('testDataUpdated')));
    const reloadedPage = (await (await reloaded).json()) as SlowTestsPage;
    expect(reloadedPage.items.length).toBeGreaterThan(0);
    await expect(page.getByTestId('slow-tests-table').locator('tbody tr')).toHaveCount(reloadedPage.items.length);
    await expect(page.getByText('Tests Analyzed').locator('..')).toContainText(String(reloadedPage.total));
  });

  test('pages a suite larger than a page on the server, with "Showing a–b of N"', async ({ page, largeStore: server }) => {
    const first = page.waitForResponse((r) => isSlowTests(r.url()) && new URL(r.url()).searchParams.get('page') === '1');
    await signIn(page, server, { hash: '/slow-tests' });
    const one = (await (await first).json()) as SlowTestsPage;
    expect(one.total).toBeGreaterThan(100);
    const rows = page.getByTestId('slow-tests-table').locator('tbody tr');
    await expect(rows).toHaveCount(50);
    await expect(page.getByTestId('slow-pager-text')).toHaveText(`Showing 1–50 of ${one.total.toLocaleString('en-US')} tests`);
    await expect(page.getByText('Tests Analyzed').locator('..')).toContainText(one.total.toLocaleString());

    const second = page.waitForResponse((r) => isSlowTests(r.url()) && new URL(r.url()).searchParams.get('page') === '2');
    await page.getByTestId('slow-pager').getByRole('button', { name: 'next page' }).click();
    const two = (await (await second).json()) as SlowTestsPage;
    await expect(page.getByTestId('slow-pager-text')).toHaveText(`Showing 51–100 of ${one.total.toLocaleString('en-US')} tests`);
    await expect(rows.first().locator('td').first()).toHaveText(two.items[0]!.test_title.length > 50 ? `${two.items[0]!.test_title.slice(0, 50)}...` : two.items[0]!.test_title);
    // Slowest first across pages.
    expect(two.items[0]!.avg_duration).toBeLessThanOrEqual(one.items.at(-1)!.avg_duration);
    await page.setViewportSize(PHONE);
    await expectTableUsableOnPhone(page, page.getByTestId('slow-tests-table'));
    await shootBothThemes(page, 'slow-tests-paged-390', { fullPage: false });
  });
});
