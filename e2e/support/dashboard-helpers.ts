import type { Page } from '@playwright/test';
import type { RunningServer } from './cli.js';
import { expect, signIn } from './fixtures.js';

/** A GET as the signed-in user (the bearer token the page stored), to check what the screen shows against the API. */
export async function apiGet<T>(page: Page, server: RunningServer, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const response = await page.request.get(new URL(path, server.url).href, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `GET ${path} answered ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

/** A review made behind the page's back, as another reviewer would. */
export async function apiReview(page: Page, server: RunningServer, id: number, action: 'approve' | 'reject'): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const xsrf = (await page.context().cookies(server.url)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.patch(new URL(`/api/uploads/${id}/review`, server.url).href, {
    headers: { authorization: `Bearer ${token}`, 'x-xsrf-token': xsrf },
    data: { action, notes: '' },
  });
  expect(response.ok(), `review ${id} answered ${response.status()}: ${await response.text()}`).toBe(true);
}

/** Signs in on the dashboard and closes the review dialog that opens by itself while uploads are pending. */
export async function openDashboard(page: Page, server: RunningServer): Promise<void> {
  await signIn(page, server);
  const dialog = page.getByRole('dialog', { name: /Pending Uploads Review/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Review Later' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Records every address the page's router moves to (it uses history.pushState, which fires no
 * event), so a link's target can be checked even if that screen then rewrites its address.
 */
export async function recordNavigations(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __navigations: string[] };
    w.__navigations = [];
    const push = history.pushState.bind(history);
    history.pushState = (state: unknown, unused: string, url?: string | URL | null) => {
      if (url != null) w.__navigations.push(new URL(url, window.location.href).hash);
      push(state, unused, url);
    };
  });
  return () => page.evaluate(() => (window as unknown as { __navigations: string[] }).__navigations);
}
