import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import type { DashboardResponse, FlakyTestsPage } from '../core/api/analytics.js';
import { apiGet, openDashboard } from './support/dashboard-helpers.js';
import { expect, picture, signIn, test } from './support/fixtures.js';
import { PHONE } from './support/phone.js';
import { copyTemplate } from './support/templates.js';

// The demo's tests with owners as an import with CODEOWNERS and tags would store them: cart and
// checkout to @shop-team, auth and account to @identity, search by its tests' own tags; the rest unowned.
function demoWithOwners(): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-owners-'));
  const path = join(dir, 'flakeboard.db');
  copyTemplate('demo', path);
  const db = new Database(path);
  db.exec(`
    INSERT INTO test_owners (test_id, owner, source) SELECT id, '@shop-team', 'codeowners' FROM tests WHERE file LIKE 'cart/%' OR file LIKE 'checkout/%';
    INSERT INTO test_owners (test_id, owner, source) SELECT id, '@identity', 'codeowners' FROM tests WHERE file LIKE 'auth/%' OR file LIKE 'account/%';
    INSERT INTO test_owners (test_id, owner, source) SELECT id, '@search-squad', 'tag' FROM tests WHERE file LIKE 'search/%';`);
  db.close();
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function pickOwner(page: Page, owner: string) {
  const input = page.getByRole('combobox', { name: 'Owner' });
  await input.click();
  await page.getByRole('listbox').getByRole('option', { name: owner, exact: true }).click();
  await expect(input).toHaveValue(owner);
}

test.describe('owners', () => {
  let db: ReturnType<typeof demoWithOwners>;
  test.beforeEach(() => {
    db = demoWithOwners();
  });
  test.afterEach(() => db.remove());

  test('the flaky screen filters by owner, shows each row’s owners, and counts the unowned', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ db: db.path });
    await signIn(page, server, { hash: '/flaky-tests' });
    await expect(page.getByTestId('flaky-group').first()).toBeVisible();
    const all = await apiGet<FlakyTestsPage>(page, server, '/api/flaky-tests?days=30&page=1&pageSize=50');
    const shop = await apiGet<FlakyTestsPage>(page, server, '/api/flaky-tests?days=30&page=1&pageSize=50&owner=%40shop-team');
    expect(all.counts.unowned).toBeGreaterThan(0);
    expect(shop.total).toBeGreaterThan(0);
    await expect(page.getByTestId('flaky-unowned')).toContainText(`${all.counts.unowned} of ${all.counts.all} flaky tests have no owner`);
    await picture(page, 'owners-flaky-1440', { fullPage: false });

    await pickOwner(page, '@shop-team');
    await expect(page.getByTestId('flaky-group')).toHaveCount(Math.min(shop.total, 50));
    for (const owners of await page.getByTestId('flaky-group').getByTestId('group-owners').allTextContents()) expect(owners).toBe('@shop-team');
    await expect(page.getByTestId('flaky-group').getByTestId('group-file').first()).toHaveText(/\.spec\.ts$/);

    await pickOwner(page, 'Unowned');
    await expect(page.getByTestId('flaky-group')).toHaveCount(Math.min(all.counts.unowned, 50));
    for (const owners of await page.getByTestId('flaky-group').getByTestId('group-owners').allTextContents()) expect(owners).toBe('Unowned');

    // Oldest open first: each row's time to fix, the open ones first.
    await pickOwner(page, 'All owners');
    await page.getByTestId('flaky-sort').click();
    await page.getByRole('option', { name: 'Oldest open first' }).click();
    await expect(page.getByTestId('flaky-group').first().getByTestId('open-for')).toHaveText(/^Open \d+ days?$/);

    // The dialog names the owners and its quarantine form starts with them.
    await pickOwner(page, '@identity');
    const row = page.getByTestId('flaky-group').first();
    // The list reloads for the owner: the first row before that is another owner's test.
    await expect(row.getByTestId('group-owners')).toHaveText('@identity');
    await row.getByTestId('group-details').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('dialog-owners')).toContainText('@identity');
    await dialog.getByRole('button', { name: 'Quarantine this test' }).click();
    await expect(dialog.getByTestId('quarantine-owner')).toHaveValue('@identity');
    await picture(page, 'owners-dialog-1440', { fullPage: false });
    await page.keyboard.press('Escape');

    await page.setViewportSize(PHONE);
    await pickOwner(page, '@shop-team');
    await expect(page.getByTestId('flaky-group').first().getByTestId('group-owners')).toHaveText('@shop-team');
    await page.getByTestId('flaky-unowned').or(page.getByTestId('flaky-group').first()).first().scrollIntoViewIfNeeded();
    await page.getByTestId('flaky-group').first().scrollIntoViewIfNeeded();
    await picture(page, 'owners-flaky-390', { fullPage: false });
  });

  test('the dashboard filters by owner and shows the median time to fix', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ db: db.path });
    await openDashboard(page, server);
    const all = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30');
    const identity = await apiGet<DashboardResponse>(page, server, '/api/dashboard?days=30&owner=%40identity');
    expect(identity.flakyCount).toBeLessThan(all.flakyCount);
    await expect(page.getByTestId('time-to-fix')).toContainText('Time to Fix');
    await expect(page.getByTestId('open-flakes')).toHaveText(String(all.timeToFix!.open));
    await picture(page, 'owners-dashboard-1440');

    const asked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/dashboard' && new URL(r.url()).searchParams.get('owner') === '@identity');
    await pickOwner(page, '@identity');
    await asked;
    await expect(page.getByTestId('overview-subtitle')).toHaveText('Showing test results from the last 30 days, tests owned by @identity');
    await expect(page.getByTestId('open-flakes')).toHaveText(String(identity.timeToFix!.open));
    await expect(page.getByTestId('executive-summary').getByRole('group', { name: 'Flaky Tests' }).or(page.getByLabel('Flaky Tests'))).toContainText(String(identity.flakyCount));
    await page.setViewportSize(PHONE);
    await page.getByRole('combobox', { name: 'Owner' }).scrollIntoViewIfNeeded();
    await picture(page, 'owners-dashboard-390-top', { fullPage: false });
    await page.getByTestId('time-to-fix').scrollIntoViewIfNeeded();
    await picture(page, 'owners-dashboard-390', { fullPage: false });
  });
});
