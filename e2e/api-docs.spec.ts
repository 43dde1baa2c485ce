import { expect, picture, settled, signIn, test } from './support/fixtures.js';
import { PHONE } from './support/phone.js';

test.describe('the API reference page', () => {
  test('without a session it sends the reader to sign in; signed in, it lists the operations from the document', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    // No session: the page's request for the document is refused and it goes to sign in.
    await page.goto(new URL('/api/docs', server.url).href);
    await expect(page).toHaveURL(/#\/login$/);

    // From a fresh document: going to `#/` on the login page only changes the hash, and the
    // form it re-draws can drop a name typed into the one before.
    await page.goto('about:blank');
    await signIn(page, server);
    const documentAnswer = page.waitForResponse((res) => res.url().endsWith('/api/docs/json'));
    await page.goto(new URL('/api/docs', server.url).href);
    expect((await documentAnswer).status()).toBe(200);
    await expect(page.getByRole('heading', { name: /flakeboard API/ })).toBeVisible();
    // Operations grouped by tag, each with its method and path.
    await expect(page.locator('.opblock-tag', { hasText: 'Analytics' })).toBeVisible();
    const dashboard = page.locator('.opblock', { has: page.locator('[data-path="/api/dashboard"]') });
    await expect(dashboard).toContainText('GET');
    await expect(dashboard).toContainText('The dashboard of a window');
    await expect(page.locator('.opblock-summary-path', { hasText: '/api/upload' }).first()).toBeVisible();

    await picture(page, 'openapi-docs-top-1440', { fullPage: false });

    // An operation opens to its parameters and answers, generated from its schema.
    await dashboard.locator('.opblock-summary').click();
    await expect(dashboard.locator('.parameters')).toContainText('days');
    await expect(dashboard.locator('.parameters')).toContainText('branch');
    await expect(dashboard.locator('.responses-table')).toContainText('200');
    await picture(page, 'openapi-docs-1440', { fullPage: false });

    await page.setViewportSize(PHONE);
    await settled(page);
    await expect(dashboard).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await picture(page, 'openapi-docs-390', { fullPage: false });
  });
});
