/**
 * bench/lists/ui.ts: the Flaky Tests screen on the large suite in Chromium: how long after
 * navigation its first page shows (cold server, then cached) and the longest task (Chromium's
 * long-task entries) while it loads, pages and searches.
 *
 *   npm run build && npm run bench -- lists:ui     (CHROMIUM_PATH, default /usr/bin/chromium)
 */
import { chromium } from '@playwright/test';
import { hashPassword } from '../../server/auth/passwords.js';
import { openStore } from '../../server/store/engine/open.js';
import { createUser } from '../../server/store/accounts/users.js';
import { largeSuiteDatabase, startServer } from './setup.js';

const USER = { username: 'uibench', password: 'bench-password-1' };

const dbPath = await largeSuiteDatabase();
const store = openStore(dbPath);
try {
  if (!store.sqlite.prepare('SELECT 1 FROM users WHERE username = ?').get(USER.username)) {
    await createUser(store, { username: USER.username, passwordHash: await hashPassword(USER.password, { N: 1024, r: 8, p: 1 }), role: 'admin' });
  }
} finally {
  await store.close();
}

const server = await startServer(dbPath);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(() => {
    const w = window as unknown as { __tasks: number[] };
    w.__tasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__tasks.push(e.duration))).observe({ type: 'longtask', buffered: true });
  });
  const longest = () => page.evaluate(() => Math.max(0, ...(window as unknown as { __tasks: number[] }).__tasks));
  const resetTasks = () => page.evaluate(() => ((window as unknown as { __tasks: number[] }).__tasks.length = 0));
  // Signed in on a screen that asks the analytics worker nothing, so the flaky call is the first.
  await page.goto(`${server.url}#/upload`);
  await page.getByLabel('Username', { exact: true }).fill(USER.username);
  await page.getByLabel('Password', { exact: true }).fill(USER.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  for (const round of ['cold server', 'cached']) {
    await page.goto(`${server.url}#/upload`);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await resetTasks();
    const started = Date.now();
    await page.evaluate(() => (location.hash = '#/flaky-tests'));
    await page.getByTestId('flaky-group').first().waitFor({ timeout: 60_000 });
    const shown = Date.now() - started;
    console.log(`${round}: first page ${shown} ms after navigation, longest task ${(await longest()).toFixed(0)} ms (${await page.getByTestId('flaky-pager-text').textContent()})`);
  }
  await resetTasks();
  await page.getByTestId('flaky-pager').getByRole('button', { name: 'next page' }).click();
  await page.getByTestId('flaky-pager-text').filter({ hasText: /^Showing 51/ }).waitFor();
  await page.getByTestId('flaky-group').first().click();
  await page.getByTestId('flaky-search').fill('coupon');
  await page.getByTestId('flaky-pager-text').filter({ hasText: /^Showing 1–/ }).waitFor();
  console.log(`paging, expanding a group and a search: longest task ${(await longest()).toFixed(0)} ms`);
} finally {
  await browser.close();
  server.stop();
}
