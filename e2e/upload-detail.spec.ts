import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { formatDuration } from '../core/analytics/formulas.js';
import type { Paged } from '../core/api/analytics.js';
import type { RecentUpload, TestResultRow, UploadDetailResponse } from '../core/api/uploads.js';
import { durationUnit } from '../ui/src/lib/duration-axis.js';
import { OWN_REPORTS, HAS_SHARED, SHARED_FIXTURES, SHARED_SKIP, type RunningServer } from './support/cli.js';
import { expect, picture, shootBothThemes, signIn, test } from './support/fixtures.js';

const THREE_BROWSERS = join(SHARED_FIXTURES, '07-three-browsers-merged-specs-flaky-1.41.json');
const LOAD_FAILED = join(SHARED_FIXTURES, '01-toplevel-syntax-error-1.55.json');
const RUN_1 = join(OWN_REPORTS, 'run-1.json');

async function getApi<T>(page: Page, path: string): Promise<T> {
  const answer = await page.evaluate(async (path) => {
    const response = await fetch(path, { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } });
    return { status: response.status, body: await response.json() };
  }, path);
  expect(answer.status, `GET ${path}`).toBe(200);
  return answer.body as T;
}

/** Signs in on /upload and opens the newest run by clicking its row, as a user would. */
async function openNewestRun(page: Page, server: RunningServer): Promise<UploadDetailResponse> {
  await signIn(page, server, { hash: '/upload' });
  const [newest] = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
  await page.getByTestId('recent-upload').first().click();
  await expect(page).toHaveURL(new RegExp(`#/upload/${newest!.id}$`));
  return getApi<UploadDetailResponse>(page, `/api/uploads/${newest!.id}`);
}

/** Every result of a run, read page by page through the paged call (the detail holds the first page). */
async function allResults(page: Page, id: number): Promise<TestResultRow[]> {
  const rows: TestResultRow[] = [];
  for (let n = 1; ; n++) {
    const answer = await getApi<Paged<TestResultRow>>(page, `/api/uploads/${id}/results?page=${n}&pageSize=200`);
    rows.push(...answer.items);
    if (rows.length >= answer.total || answer.items.length === 0) return rows;
  }
}

const testRows = (page: Page) => page.getByTestId('test-row');
const range = (page: Page) => page.getByTestId('results-pager-text');
/** ListPager's text: "Showing 1–50 of 1,234 tests". */
const showing = (first: number, last: number, total: number) => `Showing ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} tests`;
const isFailure = (r: TestResultRow) => r.status === 'failed' || r.status === 'timedOut';

/** A small report whose titles, errors, retries and durations are known, written to the test's own folder. */
function craftedReport(path: string): string {
  const result = (status: string, duration: number, message?: string) => ({
    status,
    duration,
    retry: 0,
    startTime: '2026-11-01T10:00:00.000Z',
    ...(message ? { error: { message }, errors: [{ message }] } : {}),
  });
  const spec = (title: string, line: number, results: object[]) => ({ title, file: 'tricky.spec.ts', line, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results }] });
  const report = {
    config: { version: '1.57.0', projects: [{ name: 'chromium' }] },
    suites: [
      {
        title: 'tricky.spec.ts',
        file: 'tricky.spec.ts',
        specs: [
          spec('<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> renders as text', 1, [result('passed', 120)]),
          spec('flaky checkout', 2, [
            result('failed', 35_000, '\u001b[31mError: expect(locator).toBeVisible() failed\u001b[39m\n\nLocator: getByRole(\'button\')'),
            result('failed', 1_000, 'Error: expect(locator).toBeVisible() failed'),
            result('passed', 900),
          ]),
          spec('slowish search', 3, [result('passed', 12_000)]),
          // Retried and failed every retry: a failure, not flaky.
          spec('declines the card', 4, [
            result('failed', 800, 'Error: expect(locator).toBeVisible() failed'),
            result('failed', 800, 'Error: expect(locator).toBeVisible() failed'),
            result('failed', 800, 'Error: expect(locator).toBeVisible() failed'),
          ]),
        ],
      },
    ],
    errors: [],
    stats: { startTime: '2026-11-01T10:00:00.000Z', duration: 50_000, expected: 2, unexpected: 1, flaky: 1, skipped: 0 },
  };
  writeFileSync(path, JSON.stringify(report));
  return path;
}

test.describe('upload details', () => {
  test('a run with failures: metadata, stat cards, charts, flaky tests and error patterns match the API', async ({ page, flakeboard }) => {
    test.skip(!HAS_SHARED, SHARED_SKIP);
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [THREE_BROWSERS], approve: true, project: 'shop', branch: 'main', commit: 'abcdef0123456789abcdef0123456789abcdef01' }] });
    const detail = await openNewestRun(page, server);
    const { upload, stats } = detail;

    await expect(page.getByRole('heading', { name: 'Test Run Details' })).toBeVisible();
    await expect(page.getByTestId('meta-file-name')).toContainText(upload.file_path);
    await expect(page.getByTestId('meta-project')).toContainText('shop');
    await expect(page.getByTestId('meta-branch')).toContainText('main');
    await expect(page.getByTestId('meta-commit')).toHaveText('Commitabcdef01');
    await expect(page.getByTestId('meta-browser')).toContainText('Multi-browser');
    await expect(page.getByTestId('meta-total-duration')).toContainText(formatDuration(stats.duration_ms));
    const executed = new Date(upload.execution_time).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    await expect(page.getByTestId('meta-execution-time')).toContainText(executed);
    await expect(page.getByTestId('meta-review')).toContainText('Approved');

    const cards = page.getByTestId('run-stats');
    await expect(cards).toContainText(`Total Tests${stats.total}`);
    await expect(cards).toContainText(`Passed${stats.passed}`);
    await expect(cards).toContainText(`Failed${stats.failed}`);
    await expect(cards).toContainText(`Pass Rate${stats.pass_rate.toFixed(1)}%`);
    await expect(page.getByTestId('status-donut')).toContainText(`Passed: ${stats.passed}`);
    await expect(page.getByTestId('status-donut')).toContainText(`Failed: ${stats.failed}`);

    // The detail is bounded: the table's first page, with the run's total beside it.
    const testResults = await allResults(page, upload.id);
    expect(detail.testResults).toHaveLength(Math.min(50, testResults.length));
    expect(detail.testResultsTotal).toBe(testResults.length);
    // The slowest test leads the bar chart.
    const slowest = [...testResults].sort((a, b) => b.duration_ms - a.duration_ms)[0]!;
    expect(detail.slowestTests[0]!.duration_ms).toBe(slowest.duration_ms);
    await expect(page.getByTestId('slowest-tests').locator('.recharts-yAxis-tick-labels')).toContainText(slowest.test_title.slice(0, 20));
    await expect(page.getByTestId('slowest-tests').locator('.recharts-bar-rectangle')).toHaveCount(10);

    // Flaky Tests lists the tests that passed on a retry; those that failed every retry are counted apart.
    const retriedFailing = testResults.filter((r) => r.retry_count > 0 && r.outcome !== 'flaky').length;
    expect(retriedFailing).toBeGreaterThan(0);
    await expect(page.getByTestId('run-flaky-tests').getByText(/^.+ · Retried \d+ time\(s\)$/)).toHaveCount(testResults.filter((r) => r.outcome === 'flaky').length);
    await expect(page.getByTestId('failed-after-retries')).toContainText(`${retriedFailing} ${retriedFailing === 1 ? 'test' : 'tests'} failed every retry`);
    // Error Patterns: at most five, the most frequent first line first.
    const firstLines = new Map<string, number>();
    for (const r of testResults) {
      const line = (r.error_message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).find((l) => l !== '');
      if (line) firstLines.set(line.slice(0, 100), (firstLines.get(line.slice(0, 100)) ?? 0) + 1);
    }
    const top = Math.max(...firstLines.values());
    const patterns = page.getByTestId('error-pattern');
    await expect(patterns).toHaveCount(Math.min(5, firstLines.size));
    await expect(patterns.first().locator('.mantine-Badge-root')).toHaveText(String(top));

    // The table pages through every test of the run, 50 to a page, asked of the server.
    await expect(range(page)).toHaveText(showing(1, 50, testResults.length));
    await expect(testRows(page)).toHaveCount(50);
    const second = page.waitForResponse((r) => r.url().includes(`/api/uploads/${upload.id}/results?`) && r.url().includes('page=2'));
    await page.getByRole('button', { name: '2', exact: true }).click();
    await second;
    await expect(range(page)).toHaveText(showing(51, Math.min(100, testResults.length), testResults.length));
    await page.getByRole('button', { name: '1', exact: true }).click();
    await expect(range(page)).toHaveText(showing(1, 50, testResults.length));
    await shootBothThemes(page, 'upload-detail-failures');
  });

  test('search, status filter and sort of the Test Results table', async ({ page, flakeboard }) => {
    test.skip(!HAS_SHARED, SHARED_SKIP);
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [THREE_BROWSERS] }] });
    const { upload } = await openNewestRun(page, server);
    const testResults = await allResults(page, upload.id);
    const total = testResults.length;
    await expect(range(page)).toHaveText(showing(1, 50, total));
    // Sort by status (the default) puts failures first.
    await expect(testRows(page).first().locator('.mantine-Badge-root').first()).toHaveText(/Failed|Timed Out/);

    const filter = page.getByRole('radiogroup', { name: 'Status filter' });
    await filter.getByText('Failed', { exact: true }).click();
    const failures = testResults.filter(isFailure);
    await expect(range(page)).toHaveText(showing(1, failures.length, failures.length));
    await filter.getByText('Skipped', { exact: true }).click();
    const skipped = testResults.filter((r) => r.status === 'skipped');
    await expect(testRows(page)).toHaveCount(skipped.length);
    await filter.getByText('Passed', { exact: true }).click();
    const passed = testResults.filter((r) => r.status === 'passed').length;
    await expect(range(page)).toHaveText(showing(1, Math.min(50, passed), passed));
    await filter.getByText('All', { exact: true }).click();

    // Search covers the title, the file and the error message, ignoring case, on the server.
    const search = page.getByRole('textbox', { name: 'Search tests' });
    const file = testResults[0]!.test_file;
    await search.fill(file.toUpperCase());
    const inFile = testResults.filter((r) => r.test_file.includes(file)).length;
    await expect(range(page)).toHaveText(showing(1, Math.min(50, inFile), inFile));
    const failing = failures.find((r) => r.error_message)!;
    const errorWords = failing.error_message!.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]!.slice(0, 30);
    await search.fill(errorWords);
    await expect(testRows(page).filter({ hasText: failing.test_title }).first()).toBeVisible();
    await search.fill('no test is called like this');
    await expect(page.getByText('No tests match your filters.')).toBeVisible();
    await expect(testRows(page)).toHaveCount(0);
    await search.fill('');

    // Sort by duration: longest first; by name: alphabetical.
    await page.getByRole('combobox', { name: 'Sort' }).click();
    await page.getByRole('option', { name: 'Sort by duration' }).click();
    const slowest = [...testResults].sort((a, b) => b.duration_ms - a.duration_ms)[0]!;
    await expect(testRows(page).first().getByTestId('test-duration')).toHaveText(formatDuration(slowest.duration_ms));
    await page.getByRole('combobox', { name: 'Sort' }).click();
    await page.getByRole('option', { name: 'Sort by name' }).click();
    const first = [...testResults].sort((a, b) => a.test_title.toLowerCase().localeCompare(b.test_title.toLowerCase()))[0]!;
    await expect(testRows(page).first().getByTestId('test-name')).toHaveText(first.test_title);
  });

  test('report text renders as text; retries, duration colours and the error first line', async ({ page, flakeboard }, testInfo) => {
    const report = craftedReport(testInfo.outputPath('tricky.json'));
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [report] }] });
    await openNewestRun(page, server);
    const html = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> renders as text';
    await expect(page.getByTestId('test-name').filter({ hasText: html })).toHaveText(html);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

    const flaky = testRows(page).filter({ hasText: 'flaky checkout' });
    await expect(flaky).toContainText('Retried 2 time(s)');
    // The first attempt decides the status; its duration is over 30 s (bad).
    await expect(flaky.getByTestId('test-duration')).toHaveAttribute('data-level', 'red');
    // First line only, colour codes stripped.
    await expect(flaky.locator('td').nth(4)).toHaveText('Error: expect(locator).toBeVisible() failed');
    await expect(testRows(page).filter({ hasText: 'slowish search' }).getByTestId('test-duration')).toHaveAttribute('data-level', 'orange');
    await expect(testRows(page).filter({ hasText: 'renders as text' }).getByTestId('test-duration')).toHaveAttribute('data-level', 'ok');
    const card = page.getByTestId('run-flaky-tests');
    await expect(card).toContainText('flaky checkout');
    // Retried, but no retry passed: not flaky, counted apart and listed as Failed in the table.
    await expect(card).not.toContainText('declines the card');
    await expect(card.getByTestId('failed-after-retries')).toHaveText('1 test failed every retry: not flaky, listed as Failed in the Test Results table.');
    await expect(testRows(page).filter({ hasText: 'declines the card' })).toContainText('Retried 2 time(s)');
    await expect(page.getByTestId('error-pattern')).toHaveText(['Error: expect(locator).toBeVisible() failed2']);
    await picture(card, 'run-flaky-tests-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await picture(card, 'run-flaky-tests-390');
  });

  test('a run of thousands of tests stays responsive: one page of rows in the page, search over all', async ({ page, flakeboard }, testInfo) => {
    const path = testInfo.outputPath('large.json');
    const count = 3000;
    const specs = Array.from({ length: count }, (_, i) => ({
      title: `case ${String(i).padStart(4, '0')}`,
      file: `suite-${i % 30}.spec.ts`,
      line: i + 1,
      column: 1,
      tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: i % 10 === 0 ? 'failed' : 'passed', duration: (i * 37) % 20_000, retry: 0, ...(i % 10 === 0 ? { error: { message: `Error: case ${i} broke` } } : {}) }] }],
    }));
    writeFileSync(path, JSON.stringify({ config: { projects: [{ name: 'chromium' }] }, suites: [{ title: 'large', file: 'large.spec.ts', specs }], errors: [] }));
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [path] }] });
    await openNewestRun(page, server);
    await expect(range(page)).toHaveText(showing(1, 50, count));
    await expect(testRows(page)).toHaveCount(50);
    await page.getByRole('button', { name: String(count / 50), exact: true }).click();
    await expect(range(page)).toHaveText(showing(count - 49, count, count));
    await expect(testRows(page)).toHaveCount(50);
    // The search is the server's: one page of matches comes back, not the run.
    const searched = page.waitForResponse((r) => r.url().includes('/results?') && r.url().includes('search=case+2999'));
    await page.getByRole('textbox', { name: 'Search tests' }).fill('case 2999');
    expect((await searched).ok()).toBe(true);
    await expect(testRows(page)).toHaveCount(1);
    await expect(range(page)).toHaveText(showing(1, 1, 1));
    await page.getByRole('textbox', { name: 'Search tests' }).fill('broke');
    await expect(range(page)).toHaveText(showing(1, 50, count / 10));
    // At 390 px the table keeps its five columns and scrolls inside its own box, not the page.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('columnheader')).toHaveText(['Status', 'Test Name', 'File', 'Duration', 'Error']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const scroller = page.getByTestId('test-results-scroll');
    // The box itself or the scroll area inside it is wider inside than out, and ends on screen.
    const scrolls = await scroller.evaluate((box) =>
      [box, ...box.querySelectorAll('*')].some((el) => el.scrollWidth > el.clientWidth + 100 && getComputedStyle(el).overflowX !== 'visible' && el.getBoundingClientRect().right <= 390),
    );
    expect(scrolls).toBe(true);
    await shootBothThemes(page, 'upload-detail-390');
    await page.getByTestId('test-results').scrollIntoViewIfNeeded();
    await shootBothThemes(page, 'upload-detail-390-table', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });
    await shootBothThemes(page, 'upload-detail-large');
  });

  test('the Slowest Tests axis speaks one unit; at 390 px the flaky card keeps its browser badges whole', async ({ page, demo: server }) => {
    const detail = await openNewestRun(page, server);
    const slowest = detail.slowestTests[0]!.duration_ms;
    // The unit the slowest test's duration picks, on every tick, from 0 past the slowest.
    const unit = durationUnit(slowest);
    const tickLabels = page.getByTestId('slowest-tests').locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await expect(tickLabels.first()).toBeVisible();
    const ticks = await tickLabels.allTextContents();
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks[0]).toBe(`0${unit}`);
    for (const tick of ticks) expect(tick).toMatch(new RegExp(`^\\d+(\\.\\d+)?${unit}$`));
    const perUnit = { ms: 1, s: 1000, m: 60_000 }[unit];
    expect(Number.parseFloat(ticks.at(-1)!) * perUnit).toBeGreaterThanOrEqual(slowest);

    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByTestId('run-flaky-tests');
    await card.scrollIntoViewIfNeeded();
    const flaky = detail.flakyTests.slice(0, 3);
    expect(flaky.length).toBeGreaterThan(0);
    const badges = card.locator('.mantine-Badge-root');
    for (const [i, test] of flaky.entries()) {
      // Each row: its browser, then its status, whole (a squeezed badge was a dot).
      const browser = badges.nth(i * 2);
      await expect(browser).toHaveText(test.browser);
      const label = browser.locator('.mantine-Badge-label');
      expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth), `${test.browser} is not cut`).toBe(true);
      const status = badges.nth(i * 2 + 1);
      expect(await status.locator('.mantine-Badge-label').evaluate((el) => el.scrollWidth <= el.clientWidth), 'the status is not cut').toBe(true);
    }
    expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the card does not scroll sideways').toBe(true);
    await picture(page, 'run-details-flaky-390');
  });

  test('a missing upload shows Upload not found; Go Back returns to where the user was', async ({ page, emptyStore: server }) => {
    await signIn(page, server, { hash: '/upload' });
    await page.evaluate(() => (window.location.hash = '#/upload/999999'));
    await expect(page.getByRole('alert')).toHaveText(/^Upload not found/);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/#\/upload$/);

    // An address that cannot be an id is not found either; opened directly, Go Back lands on the list.
    await page.goto(`${server.url}#/upload/not-a-number`);
    await expect(page.getByRole('alert')).toHaveText(/^Upload not found/);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/#\/upload$/);
  });

  // The failure is the page route's: the shared demo server is only read.
  test('a failed load shows Failed to load upload details with Go Back; loading is announced', async ({ page, demo: server }) => {
    await signIn(page, server, { hash: '/upload' });
    const [newest] = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/uploads/${newest!.id}`, async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"disk I/O error"}' });
    });
    await page.getByTestId('recent-upload').first().click();
    await expect(page.getByText('Loading upload details...')).toBeVisible();
    release();
    await expect(page.getByRole('alert')).toHaveText(/^Failed to load upload details/);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/#\/upload$/);
  });

  test('a run that failed to load shows its load error', async ({ page, flakeboard }) => {
    test.skip(!HAS_SHARED, SHARED_SKIP);
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [LOAD_FAILED] }] });
    const { upload } = await openNewestRun(page, server);
    expect(upload.load_failed).toBe(1);
    const notice = page.getByTestId('load-errors');
    await expect(notice).toContainText('This run failed to load');
    await expect(notice).toContainText('SyntaxError: C:\\Workspace\\Fichap\\Fichap-Playwright\\tests\\documents.spec.js: Unexpected token (46:4)');
    await expect(notice).toContainText(`at ${upload.load_errors[0]!.location}`);
    // Colour codes of the code frame are stripped.
    await expect(notice).not.toContainText('\u001b[');
    await expect(page.getByText('No tests match your filters.')).toBeVisible();
  });

  test("a duplicate names the run it repeats and shows the original's results", async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [RUN_1] }, { paths: [RUN_1] }] });
    const duplicate = await openNewestRun(page, server);
    const originalId = duplicate.upload.duplicate_of!;
    expect(originalId).toBeGreaterThan(0);
    await expect(page.getByTestId('duplicate-notice')).toContainText(`Duplicate of run #${originalId}`);
    const original = await getApi<UploadDetailResponse>(page, `/api/uploads/${originalId}`);
    await expect(range(page)).toHaveText(showing(1, original.testResultsTotal, original.testResultsTotal));
    await page.getByTestId('duplicate-notice').getByRole('link', { name: `run #${originalId}` }).click();
    await expect(page).toHaveURL(new RegExp(`#/upload/${originalId}$`));
    await expect(page.getByTestId('duplicate-notice')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Test Run Details' })).toBeVisible();
  });

  test('a reviewed run shows its reviewer; the back button returns to the list', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [RUN_1] }] });
    await signIn(page, server, { hash: '/upload' });
    const status = await page.evaluate(async () => {
      const xsrf = decodeURIComponent(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const response = await fetch('/api/uploads/1/review', {
        method: 'PATCH',
        headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}`, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'approve' }),
      });
      return response.status;
    });
    expect(status).toBe(200);
    await page.reload();
    await page.getByTestId('recent-upload').first().click();
    await expect(page.getByTestId('meta-review')).toContainText('Approved');
    await expect(page.getByTestId('reviewer')).toHaveText(/^by e2e on \w{3} \d{1,2}, \d{4}/);
    await page.getByRole('button', { name: '← Back' }).click();
    await expect(page).toHaveURL(/#\/upload$/);
  });
});
