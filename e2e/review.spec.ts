import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { PendingUploadsResponse, RecentUpload } from '../core/api/uploads.js';
import { MEMBER, OWN_REPORTS, type RunningServer } from './support/cli.js';
import { apiGet, apiReview } from './support/dashboard-helpers.js';
import { expect, picture, shootBothThemes, signIn, test } from './support/fixtures.js';

const reviewDialog = (page: Page) => page.getByRole('dialog', { name: /Pending Uploads Review/ });
const card = (page: Page, id: number) => reviewDialog(page).locator(`[data-testid="pending-upload"][data-upload-id="${id}"]`);
const pending = (page: Page, server: RunningServer) => apiGet<PendingUploadsResponse>(page, server, '/api/uploads/pending');
const statusOf = async (page: Page, server: RunningServer, id: number) =>
  (await apiGet<RecentUpload[]>(page, server, '/api/recent-uploads')).find((u) => u.id === id)?.status;

/** Every native dialog (alert, confirm) the page opens, answered as `answer` says. */
function nativeDialogs(page: Page, answer: (type: string) => boolean = () => true) {
  const seen: Array<{ type: string; message: string }> = [];
  page.on('dialog', (dialog) => {
    seen.push({ type: dialog.type(), message: dialog.message() });
    void (answer(dialog.type()) ? dialog.accept() : dialog.dismiss());
  });
  return seen;
}

test.describe('pending uploads review', () => {
  // Only reads and closes: on the shared demo server (its four pending uploads stay pending).
  test('opens by itself with the pending uploads; search narrows the list; a duplicate has no Keep', async ({ page, demo: server }) => {
    await signIn(page, server);
    const { uploads, count } = await pending(page, server);
    expect(count).toBe(4);
    const dialog = reviewDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('pending-review-count')).toHaveText(String(count));
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(count);
    await expect(dialog.getByTestId('pending-review-footer')).toHaveText(`${count} upload(s) pending review`);
    await expect(page.getByTestId('pending-banner')).toContainText(`${count} Upload(s) Pending Review`);
    await expect(page.getByTestId('pending-banner')).toContainText('Click here to review and approve or reject recent uploads');

    // Each card: file name, browser, project, totals; the duplicate can only be deleted.
    const duplicate = uploads.find((u) => u.is_duplicate === 1)!;
    const original = uploads.find((u) => u.is_duplicate === 0)!;
    await expect(card(page, duplicate.id)).toContainText('Duplicate');
    await expect(card(page, duplicate.id).getByRole('button', { name: 'Keep' })).toHaveCount(0);
    await expect(card(page, duplicate.id).getByRole('button', { name: 'Delete' })).toBeVisible();
    await expect(card(page, original.id)).not.toContainText('Duplicate');
    await expect(card(page, original.id).getByRole('button', { name: 'Keep' })).toBeVisible();
    await expect(card(page, original.id)).toContainText(original.file_path);
    await expect(card(page, original.id)).toContainText('Multi-browser');
    await expect(card(page, original.id)).toContainText(original.project!);
    await expect(card(page, original.id).getByTestId('pending-upload-totals')).toHaveText(
      `${original.total_tests} tests · ${original.passed_tests} passed · ${original.failed_tests} failed`,
    );
    await shootBothThemes(page, 'review-dialog', { fullPage: false });

    const search = dialog.getByPlaceholder('Search by filename, browser, project, or user...');
    await search.fill(original.file_path.toUpperCase());
    const sameFile = uploads.filter((u) => u.file_path === original.file_path);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(sameFile.length);
    await search.fill('no-such-upload');
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(0);
    await expect(dialog.getByText('No uploads match your search.')).toBeVisible();
    await search.fill('WEBKIT');
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(count);

    // Review Later closes it without touching anything; Review Now opens it again.
    await dialog.getByRole('button', { name: 'Review Later' }).click();
    await expect(dialog).toBeHidden();
    expect((await pending(page, server)).count).toBe(count);
    await page.getByRole('button', { name: 'Review Now' }).click();
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(count);
    // The close button and a click on the backdrop close it too.
    await dialog.locator('.mantine-Modal-close').click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Review Now' }).click();
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(count);
    await page.mouse.click(20, 450);
    await expect(dialog).toBeHidden();
    // Once closed, going back to the dashboard does not open it again: the banner is the reminder.
    await page.getByRole('link', { name: 'Trends' }).click();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByTestId('pending-banner')).toBeVisible();
    await expect(page.getByTestId('stat-cards')).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });

  test('each run says what it is, its branch and who stored it, in the dialog, its search and the recent uploads', async ({ page, flakeboard }) => {
    const name = 'shop-web · feature/login · build 812';
    const server = await flakeboard.start({ imports: [{ paths: [`${OWN_REPORTS}run-3.json`], name, uploader: 'reporter on ci-box-7', branch: 'feature/login' }] });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, server);
    const dialog = reviewDialog(page);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(5);
    const id = (await pending(page, server)).uploads.find((u) => u.file_path === name)!.id;
    // The name whole, slashes of its branch kept; the branch and the uploader as stored.
    await expect(card(page, id).getByTestId('pending-upload-name')).toHaveText(name);
    await expect(card(page, id).getByTestId('pending-upload-branch')).toHaveText('branch feature/login');
    await expect(card(page, id).getByTestId('pending-upload-uploader')).toContainText('Uploaded by reporter on ci-box-7 · ');
    // The demo's runs name their generated uploader too: nothing reads "Uploader unknown".
    await expect(dialog.getByText('Uploader unknown')).toHaveCount(0);
    await picture(page, 'review-dialog-named-1440');

    const search = dialog.getByPlaceholder('Search by filename, browser, project, or user...');
    await search.fill('CI-BOX');
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(1);
    await search.fill('feature/login');
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Review Later' }).click();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Review Now' }).click();
    await expect(card(page, id).getByTestId('pending-upload-name')).toHaveText(name);
    await card(page, id).scrollIntoViewIfNeeded();
    await picture(page, 'review-dialog-named-390');
    await dialog.getByRole('button', { name: 'Review Later' }).click();

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}#/upload`);
      const row = page.locator(`[data-testid="recent-upload"][data-id="${id}"]`);
      await expect(row.getByTestId('recent-upload-name')).toHaveText(name);
      await expect(row.getByTestId('recent-upload-uploader')).toHaveText('by reporter on ci-box-7');
      await expect(row).toContainText('feature/login');
      // On a phone the table scrolls sideways: the picture shows the name's column.
      await row.getByTestId('recent-upload-name').scrollIntoViewIfNeeded();
      await picture(page, `recent-uploads-named-${width}`);
    }
  });

  test('bulk Keep asks first: cancel changes nothing, OK keeps the selected uploads', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server);
    const { uploads } = await pending(page, server);
    const [a, b] = uploads.filter((u) => u.is_duplicate === 0);
    const dialog = reviewDialog(page);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(4);
    await expect(dialog.getByRole('button', { name: /^Keep \(/ })).toHaveCount(0);

    await card(page, a!.id).getByRole('checkbox').check();
    await card(page, b!.id).getByRole('checkbox').check();
    await expect(dialog.getByRole('button', { name: 'Keep (2)' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Delete (2)' })).toBeVisible();

    let answer = false;
    const seen = nativeDialogs(page, () => answer);
    let bulkCalls = 0;
    page.on('request', (r) => r.url().endsWith('/api/uploads/bulk-review') && bulkCalls++);
    await dialog.getByRole('button', { name: 'Keep (2)' }).click();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual({ type: 'confirm', message: 'Are you sure you want to keep 2 upload(s)?' });
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(4);
    expect(bulkCalls).toBe(0);
    expect(await statusOf(page, server, a!.id)).toBe('pending');

    answer = true;
    await dialog.getByRole('button', { name: 'Keep (2)' }).click();
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(2);
    await expect(dialog.getByTestId('pending-review-count')).toHaveText('2');
    await expect(dialog.getByTestId('pending-review-footer')).toHaveText('2 upload(s) pending review');
    expect(seen.map((d) => d.message)).toEqual(['Are you sure you want to keep 2 upload(s)?', 'Are you sure you want to keep 2 upload(s)?']);
    expect(await statusOf(page, server, a!.id)).toBe('approved');
    expect(await statusOf(page, server, b!.id)).toBe('approved');

    // Select All, then the last two (one a duplicate) are deleted together: the dialog closes.
    await dialog.getByRole('button', { name: 'Select All' }).click();
    await expect(dialog.getByRole('button', { name: 'Deselect All' })).toBeVisible();
    // Duplicates cannot be kept, so Keep counts only the other one.
    await expect(dialog.getByRole('button', { name: 'Keep (1)' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Deselect All' }).click();
    await expect(dialog.getByRole('button', { name: /^(Keep|Delete) \(/ })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Select All' }).click();
    const dashboardReload = page.waitForRequest((r) => r.url().endsWith('/api/dashboard?days=30'));
    await dialog.getByRole('button', { name: 'Delete (2)' }).click();
    await expect(dialog).toBeHidden();
    expect(seen.at(-1)?.message).toBe('Are you sure you want to delete 2 upload(s)?');
    await dashboardReload;
    await expect(page.getByTestId('pending-banner')).toHaveCount(0);
    expect((await pending(page, server)).count).toBe(0);
  });

  test('a single Delete dims its card while the call runs, then it leaves the list with its duplicate', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server);
    const { uploads } = await pending(page, server);
    const copy = uploads.find((u) => u.is_duplicate === 1)!;
    const target = uploads.find((u) => u.is_duplicate === 0 && u.file_path === copy.file_path)!;
    const other = uploads.find((u) => u.id !== target.id && u.id !== copy.id)!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/uploads/${target.id}/review`, async (route) => {
      await held;
      await route.continue();
    });
    const dialog = reviewDialog(page);
    await card(page, target.id).getByRole('button', { name: 'Delete' }).click();
    await expect(card(page, target.id)).toHaveAttribute('aria-busy', 'true');
    await expect(card(page, target.id)).toHaveCSS('opacity', '0.5');
    await expect(card(page, target.id).getByRole('button', { name: 'Delete' })).toBeDisabled();
    await expect(card(page, target.id).getByRole('button', { name: 'Keep' })).toBeDisabled();
    // Only that card is busy.
    await expect(card(page, other.id).getByRole('button', { name: 'Delete' })).toBeEnabled();
    release();
    await expect(card(page, target.id)).toHaveCount(0);
    // The server rejects the original's pending copy with it; the list follows.
    await expect(card(page, copy.id)).toHaveCount(0);
    await expect(dialog.getByTestId('pending-review-count')).toHaveText('2');
    await expect(dialog.getByTestId('pending-review-footer')).toHaveText('2 upload(s) pending review');
    expect(await statusOf(page, server, target.id)).toBe('rejected');
    expect(await statusOf(page, server, copy.id)).toBe('rejected');
    expect((await pending(page, server)).count).toBe(2);
    // Closed with work left, the banner shows the new count.
    await dialog.getByRole('button', { name: 'Review Later' }).click();
    await expect(page.getByTestId('pending-banner')).toContainText('2 Upload(s) Pending Review');
  });

  test('View closes the dialog and opens the run', async ({ page, demo: server }) => {
    await signIn(page, server);
    const { uploads } = await pending(page, server);
    await card(page, uploads[1]!.id).getByRole('link', { name: 'View' }).click();
    await expect(reviewDialog(page)).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`#/upload/${uploads[1]!.id}$`));
  });

  test('a failed list load offers Try Again; an emptied list reads All Caught Up!', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server);
    const dialog = reviewDialog(page);
    await dialog.getByRole('button', { name: 'Review Later' }).click();

    await page.route('**/api/uploads/pending', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"disk I/O error"}' }));
    await page.getByRole('button', { name: 'Review Now' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Failed to load pending uploads. Please try again.');
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(0);
    await page.unroute('**/api/uploads/pending');
    await dialog.getByRole('button', { name: 'Try Again' }).click();
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(4);

    // Another reviewer clears the queue meanwhile.
    const { uploads } = await pending(page, server);
    for (const u of uploads) await apiReview(page, server, u.id, 'reject');
    await dialog.getByRole('button', { name: 'Review Later' }).click();
    await page.getByRole('button', { name: 'Review Now' }).click();
    await expect(dialog.getByText('All Caught Up!')).toBeVisible();
    await expect(dialog.getByText('No pending uploads to review.')).toBeVisible();
    await expect(dialog.getByTestId('pending-review-footer')).toHaveText('0 upload(s) pending review');
  });

  test('failed reviews alert the server text or the fallback, and bulk failures their own text', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server);
    const { uploads } = await pending(page, server);
    const [a, b] = uploads.filter((u) => u.is_duplicate === 0);
    const dialog = reviewDialog(page);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(4);
    const seen = nativeDialogs(page);

    // The server's own refusal: another reviewer kept it first.
    await apiReview(page, server, a!.id, 'approve');
    await card(page, a!.id).getByRole('button', { name: 'Keep' }).click();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual({ type: 'alert', message: `Upload ${a!.id} was already approved` });
    // A failed review leaves the card in place and usable.
    await expect(card(page, a!.id).getByRole('button', { name: 'Keep' })).toBeEnabled();

    await page.route(`**/api/uploads/${b!.id}/review`, (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }));
    await card(page, b!.id).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[1]).toEqual({ type: 'alert', message: 'Failed to review upload. Please try again.' });
    await expect(card(page, b!.id)).toBeVisible();

    await page.route('**/api/uploads/bulk-review', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"database is locked"}' }));
    await card(page, b!.id).getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Delete (1)' }).click();
    await expect.poll(() => seen.length).toBe(4);
    expect(seen.slice(2)).toEqual([
      { type: 'confirm', message: 'Are you sure you want to delete 1 upload(s)?' },
      { type: 'alert', message: 'Failed to bulk review uploads. Please try again.' },
    ]);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(4);
    expect(await statusOf(page, server, b!.id)).toBe('pending');
  });

  test('reviewing the last upload closes the dialog, reloads the dashboard and removes the banner', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server);
    const { uploads } = await pending(page, server);
    const dialog = reviewDialog(page);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(uploads.length);
    const runsBefore = await page.getByTestId('stat-cards').textContent();

    // Keep the originals, delete the duplicate, one at a time.
    for (const [i, u] of uploads.entries()) {
      const last = i === uploads.length - 1;
      // The dashboard's answer carries the trend counts too: one call reloads both.
      const reloads = last ? [page.waitForRequest((r) => r.url().endsWith('/api/dashboard?days=30'))] : [];
      await card(page, u.id).getByRole('button', { name: u.is_duplicate ? 'Delete' : 'Keep' }).click();
      if (!last) await expect(dialog.getByTestId('pending-upload')).toHaveCount(uploads.length - i - 1);
      await Promise.all(reloads);
    }
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('pending-banner')).toHaveCount(0);
    expect((await pending(page, server)).count).toBe(0);
    for (const u of uploads) expect(await statusOf(page, server, u.id)).toBe(u.is_duplicate ? 'rejected' : 'approved');
    // Keeping changes no figures (pending runs already count); the dashboard is still there.
    await expect(page.getByTestId('stat-cards')).toHaveText(runsBefore!);
  });

  test('opens by itself only for those who can review, and once per session', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    // A member cannot review: the banner tells, the dialog stays shut.
    await signIn(page, server, { username: MEMBER.username, password: MEMBER.password });
    await expect(page.getByTestId('pending-banner')).toContainText('4 Upload(s) Pending Review');
    await expect(page.getByTestId('stat-cards')).toBeVisible();
    await expect(reviewDialog(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Logout' }).click();

    // A reviewer gets it once; closed, it stays closed across reloads of this session.
    await signIn(page, server);
    await expect(reviewDialog(page)).toBeVisible();
    await reviewDialog(page).getByRole('button', { name: 'Review Later' }).click();
    await expect(reviewDialog(page)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('stat-cards')).toBeVisible();
    await expect(page.getByTestId('pending-banner')).toBeVisible();
    await expect(reviewDialog(page)).toHaveCount(0);
  });

  test('the pending count and the open list follow uploads that arrive, without a reload', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    // The page's clock is Playwright's: the 15 s poll is reached by moving it on, not by waiting.
    await page.clock.install();
    await signIn(page, server);
    const dialog = reviewDialog(page);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(4);
    // CI uploads a report behind the page's back.
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const xsrf = (await page.context().cookies(server.url)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const report = JSON.parse(readFileSync(`${OWN_REPORTS}run-3.json`, 'utf8'));
    const upload = await page.request.post(new URL('/api/upload', server.url).href, {
      headers: { authorization: `Bearer ${token}`, 'x-xsrf-token': xsrf },
      data: { testResults: report, metadata: { fileName: 'arrived-from-ci.json' } },
    });
    expect(upload.ok(), await upload.text()).toBe(true);
    // The session polls the count every 15 s; no reload happens in between.
    await page.clock.runFor(15_000);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(5, { timeout: 5_000 });
    await expect(dialog).toContainText('arrived-from-ci.json');
    await dialog.getByRole('button', { name: 'Review Later' }).click();
    await expect(page.getByTestId('pending-banner')).toContainText('5 Upload(s) Pending Review');
  });

  test('a failed sign-in in another tab does not end the valid session of this one', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server);
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const other = await page.context().newPage();
    await other.goto(`${server.url}#/login`);
    await other.evaluate(() => {
      // The other tab shows the sign-in form (a user who wants to switch accounts).
      window.location.hash = '#/login';
    });
    await other.getByLabel('Username', { exact: true }).fill(MEMBER.username);
    await other.getByLabel('Password', { exact: true }).fill('not-the-password');
    await other.getByRole('button', { name: 'Sign In' }).click();
    await expect(other.getByTestId('login-error')).toContainText('Invalid username or password');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBe(token);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    await other.close();
  });

  test('on a phone the dialog fills the screen and every card keeps its buttons and whole words', async ({ page, demo: server }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, server);
    const dialog = reviewDialog(page);
    await expect(dialog.getByTestId('pending-upload')).toHaveCount(4);
    await picture(page, 'review-dialog-390');
    for (const card of await dialog.getByTestId('pending-upload').all()) {
      const box = (await card.boundingBox())!;
      for (const name of ['View', 'Delete']) {
        const button = (await card.getByRole('button', { name }).or(card.getByRole('link', { name })).boundingBox())!;
        // Inside the card and the screen, not clipped off the right edge.
        expect(button.x + button.width).toBeLessThanOrEqual(Math.min(box.x + box.width, 390) + 0.5);
      }
    }
    await dialog.getByRole('button', { name: 'Review Later' }).click();
    await expect(dialog).toHaveCount(0);
  });
});
