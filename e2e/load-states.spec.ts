import type { Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.js';

/**
 * Answers `path` with a 500 until released, then lets the calls through: the screen shows its
 * loading state while held, its error after, and its content once Try Again asks again.
 */
async function failOnceHeld(page: Page, path: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let failed = false;
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (failed) return route.continue();
      await held;
      failed = true;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"database is locked"}' });
    },
  );
  return release;
}

test.describe('loading and error states of the sections that load on their own', () => {
  test('the webhooks announce their loading, show the server error with Try Again, and load again', async ({ page, emptyStore: server }) => {
    const release = await failOnceHeld(page, '/api/webhooks');
    await signIn(page, server, { hash: '/admin' });
    await expect(page.getByRole('status').filter({ hasText: 'Loading webhooks…' })).toBeVisible();
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'database is locked' });
    await expect(alert).toHaveText(/^database is locked/);
    await alert.getByRole('button', { name: 'Try Again', exact: true }).click();
    await expect(page.getByText('No webhooks yet: add one below.')).toBeVisible();
    await expect(page.getByText('Nothing sent yet.')).toBeVisible();
    await expect(alert).toHaveCount(0);
  });

  test('the recent uploads announce their loading, fail with Try Again, and load again', async ({ page, emptyStore: server }) => {
    const release = await failOnceHeld(page, '/api/recent-uploads');
    await signIn(page, server, { hash: '/upload' });
    await expect(page.getByRole('status').filter({ hasText: 'Loading uploads...' })).toBeVisible();
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to load recent uploads' });
    await expect(alert).toHaveText(/^Failed to load recent uploads/);
    await alert.getByRole('button', { name: 'Try Again', exact: true }).click();
    await expect(page.getByText('No uploads yet.')).toBeVisible();
    await expect(alert).toHaveCount(0);
  });
});
