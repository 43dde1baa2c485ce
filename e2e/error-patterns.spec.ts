import { readFileSync } from 'node:fs';
import type { ErrorPatternsPage } from '../core/api/analytics.js';
import { OWN_REPORTS } from './support/cli.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';

const isPatterns = (url: string) => new URL(url).pathname === '/api/error-patterns';
const CATEGORY_ORDER = ['Test Timeout', 'Element Wait Timeout', 'Page Load Timeout', 'Assertion Error', 'Browser Protocol Error', 'Navigation Error', 'other'];
const ESC = String.fromCharCode(27);
const strip = (text: string) => text.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g'), '');
const list = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

test.describe('Error Patterns (/error-patterns)', () => {
  test('shows the counts and one card per category with its patterns, browsers, tests and full message', async ({ page, demo: server }) => {
    const answer = page.waitForResponse((r) => isPatterns(r.url()));
    await signIn(page, server, { hash: '/error-patterns' });
    const answered = (await (await answer).json()) as ErrorPatternsPage;
    // The demo has fewer patterns than one page.
    expect(answered.total).toBe(answered.items.length);
    const patterns = answered.items;
    const categories = CATEGORY_ORDER.filter((c) => patterns.some((p) => p.error_category === c));
    // The demo has errors of every category.
    expect(categories).toEqual(CATEGORY_ORDER);

    await expect(page.getByRole('heading', { name: 'Error Patterns', level: 2 })).toBeVisible();
    const failures = patterns.reduce((s, p) => s + p.frequency, 0);
    const browsers = new Set(patterns.flatMap((p) => list(p.affected_browsers)));
    await expect(page.getByText('Error Categories').locator('..')).toContainText(String(categories.length));
    await expect(page.getByText('Total Failures').locator('..')).toContainText(failures.toLocaleString('en-US'));
    await expect(page.getByText('Browsers Affected').locator('..')).toContainText(String(browsers.size));

    const cards = page.getByTestId('error-category');
    await expect(cards.locator('h4')).toHaveText(categories.map((c) => (c === 'other' ? 'Other' : c)));
    for (const [i, category] of categories.entries()) {
      await expect(cards.nth(i).getByTestId('error-pattern')).toHaveCount(patterns.filter((p) => p.error_category === category).length);
    }

    // A pattern with many affected tests lists three and says how many more: the server names
    // up to 20 of them and counts them all.
    const many = patterns.find((p) => p.affected_test_count > 3)!;
    const tests = list(many.affected_tests);
    expect(tests.length).toBe(Math.min(20, many.affected_test_count));
    const item = page.getByTestId('error-pattern').filter({ has: page.getByTestId('pattern-summary').getByText(many.error_summary, { exact: true }) }).filter({ hasText: `${many.frequency} occurrences` }).first();
    await expect(item.getByTestId('affected-tests').locator('li')).toHaveText(tests.slice(0, 3));
    await expect(item.getByText(`and ${many.affected_test_count - 3} more`, { exact: true })).toBeVisible();
    for (const b of list(many.affected_browsers)) await expect(item.getByText(b, { exact: true })).toBeVisible();

    // The full message opens on demand, monospace.
    await expect(item.getByTestId('full-error')).toBeHidden();
    await item.getByRole('button', { name: 'Show full error' }).click();
    await expect(item.getByTestId('full-error')).toBeVisible();
    await expect(item.getByTestId('full-error')).toHaveText(many.full_error);
    expect(await item.getByTestId('full-error').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
    await item.getByRole('button', { name: 'Hide full error' }).click();
    await expect(item.getByTestId('full-error')).toBeHidden();

    await page.evaluate(() => window.scrollTo(0, 0));
    await shootBothThemes(page, 'error-patterns');
  });

  test('the full message of a real report shows without colour codes', async ({ page, flakeboard }) => {
    // Our own suite's report is recent enough for the window of the patterns call.
    const fixture = `${OWN_REPORTS}run-1.json`;
    // The report's raw messages carry terminal colour codes.
    const raw = [...readFileSync(fixture, 'utf8').matchAll(/"message":\s*("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string).filter((m) => m.includes(`${ESC}[`));
    expect(raw.length).toBeGreaterThan(0);
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [fixture], approve: true }] });
    // The page strips codes itself, whatever the server sends: hand it the raw message.
    let rawMessage = '';
    let summary = '';
    await page.route((url) => isPatterns(url.href), async (route) => {
      const response = await route.fetch();
      const answered = (await response.json()) as ErrorPatternsPage;
      const patterns = answered.items;
      const target = patterns.find((p) => raw.some((m) => strip(m) === p.full_error))!;
      rawMessage = raw.find((m) => strip(m) === target.full_error)!;
      summary = target.error_summary;
      await route.fulfill({ response, json: { ...answered, items: patterns.map((p) => (p === target ? { ...p, full_error: rawMessage } : p)) } });
    });
    await signIn(page, server, { hash: '/error-patterns' });
    await expect(page.getByTestId('error-pattern').first()).toBeVisible();
    expect(rawMessage).toContain(`${ESC}[`);

    const item = page.getByTestId('error-pattern').filter({ has: page.getByTestId('pattern-summary').getByText(summary, { exact: true }) }).first();
    await item.getByRole('button', { name: 'Show full error' }).click();
    const full = item.getByTestId('full-error');
    await expect(full).toHaveText(strip(rawMessage));
    expect(await full.textContent()).not.toContain(ESC);
    // The escapes' visible leftovers ('[31m' and the like) are gone too.
    expect(await full.textContent()).not.toMatch(/\[\d+(;\d+)*m/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shootBothThemes(page, 'error-patterns-expanded');
  });

  test('shows the loading text while the patterns are on their way', async ({ page, demo: server }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => isPatterns(url.href), async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, server, { hash: '/error-patterns' });
    await expect(page.getByText('Loading error patterns...')).toBeVisible();
    release();
    await expect(page.getByTestId('error-category').first()).toBeVisible();
    await expect(page.getByText('Loading error patterns...')).toHaveCount(0);
  });

  test('a failed load says Failed to load error patterns', async ({ page, demo: server }) => {
    await page.route((url) => isPatterns(url.href), (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
    await signIn(page, server, { hash: '/error-patterns' });
    await expect(page.getByRole('alert')).toHaveText(/^Failed to load error patterns/);
    await expect(page.getByTestId('error-category')).toHaveCount(0);
  });

  test('with no results it says No error patterns found', async ({ page, emptyStore: server }) => {
    await signIn(page, server, { hash: '/error-patterns' });
    await expect(page.getByText('No error patterns found')).toBeVisible();
    await expect(page.getByTestId('error-category')).toHaveCount(0);
    await shootBothThemes(page, 'error-patterns-empty');
  });

  test('says how many of how many patterns it shows, and the cards count them all (from the server)', async ({ page, largeStore: server }) => {
    // Paging past 50 patterns is covered by the API test (analytics-paging.test.ts): even this
    // suite of 9,600 results has fewer distinct error patterns than one page.
    const first = page.waitForResponse((r) => isPatterns(r.url()) && new URL(r.url()).searchParams.get('page') === '1' && new URL(r.url()).searchParams.get('pageSize') === '50');
    await signIn(page, server, { hash: '/error-patterns' });
    const one = (await (await first).json()) as ErrorPatternsPage;
    expect(one.total).toBeGreaterThan(20);
    await expect(page.getByTestId('error-pattern')).toHaveCount(Math.min(50, one.total));
    await expect(page.getByTestId('error-pager-text')).toHaveText(`Showing 1–${Math.min(50, one.total)} of ${one.total} error patterns`);
    await expect(page.getByText('Total Failures').locator('..')).toContainText(one.counts.failures.toLocaleString('en-US'));
    await expect(page.getByText('Error Categories').locator('..')).toContainText(String(one.counts.categories));
    await expect(page.getByText('Browsers Affected').locator('..')).toContainText(String(one.counts.browsers));
  });
});
