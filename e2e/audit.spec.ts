import { MEMBER } from './support/cli.js';
import { expect, picture, signIn, test } from './support/fixtures.js';
import { PHONE } from './support/phone.js';

test.describe('admin screen: settings and the audit trail', () => {
  test('an admin turns on second-person approval and finds it, and their sign-in, in the trail; filters narrow it', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    // Straight to the screen: the dashboard opens the pending review dialog over everything.
    await signIn(page, server, { hash: '/admin' });
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
    const trail = page.getByTestId('audit-trail');
    await expect(trail.getByTestId('audit-row').first()).toContainText('session.sign-in');
    await expect(trail.getByTestId('audit-row').first()).toContainText('e2e');

    const toggle = page.getByRole('switch', { name: 'Second-person approval' });
    await expect(toggle).not.toBeChecked();
    await toggle.click({ force: true });
    await expect(toggle).toBeChecked();
    await expect(trail.getByTestId('audit-row').first()).toContainText('setting.change');
    await expect(trail.getByTestId('audit-row').first()).toContainText('{"from":false,"to":true}');

    await trail.getByLabel('Actor').fill('nobody-at-all');
    await trail.getByRole('button', { name: 'Filter' }).click();
    await expect(trail.getByText('No entries match.')).toBeVisible();
    await trail.getByLabel('Actor').fill('e2e');
    await trail.getByRole('button', { name: 'Filter' }).click();
    await expect(trail.getByTestId('audit-row')).toHaveCount(2);
    await picture(page, 'audit-screen-1440');

    await page.setViewportSize(PHONE);
    await expect(trail.locator('[data-layout="stacked"]')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await picture(page, 'audit-screen-390');
  });

  test('a member sees no Admin tab, and the screen says it is for admins', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server, { username: MEMBER.username, password: MEMBER.password });
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await page.goto(`${server.url}#/admin`);
    await expect(page.getByText('Admins only')).toBeVisible();
  });
});
