import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, Page } from '@playwright/test';
import type { PendingUploadsResponse, RecentUpload } from '../core/api/uploads.js';
import { MEMBER, OWN_REPORTS, HAS_SHARED, SHARED_FIXTURES, SHARED_SKIP } from './support/cli.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';

const RUN_1 = join(OWN_REPORTS, 'run-1.json');
const THREE_BROWSERS = join(SHARED_FIXTURES, '07-three-browsers-merged-specs-flaky-1.41.json');
const SHARD = join(OWN_REPORTS, 'shard-1-of-2.json');
const GIT_INFO = join(SHARED_FIXTURES, '12-unnamed-project-gitinfo-1.60.json');

/** A call with the page's session, as the UI makes it (bearer header and XSRF echo). */
async function callApi<T>(page: Page, method: string, path: string): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path }) => {
      const xsrf = decodeURIComponent(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const response = await fetch(path, { method, headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}`, 'x-xsrf-token': xsrf } });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { method, path },
  );
}

async function getApi<T>(page: Page, path: string): Promise<T> {
  const { status, body } = await callApi<T>(page, 'GET', path);
  expect(status, `GET ${path}`).toBe(200);
  return body;
}

/** Answers native dialogs in order (true accepts, false dismisses) and records their texts. */
function answerDialogs(page: Page, answers: boolean[]): string[] {
  const seen: string[] = [];
  const handler = async (dialog: Dialog) => {
    seen.push(dialog.message());
    const accept = dialog.type() === 'alert' ? true : (answers.shift() ?? false);
    await (accept ? dialog.accept() : dialog.dismiss());
  };
  page.on('dialog', handler);
  return seen;
}

/** A report as picked files carry it, so it can sit beside made-up files in one selection. */
const asUpload = (path: string) => ({ name: path.split('/').pop()!, mimeType: 'application/json', buffer: readFileSync(path) });
const reportStats = (path: string) => JSON.parse(readFileSync(path, 'utf8')).stats as { expected: number };
const rows = (page: Page) => page.getByTestId('recent-upload');
const detected = (page: Page, name: string) => page.getByTestId('detected-file').filter({ hasText: name });
const outcome = (page: Page, name: string) => page.getByTestId('upload-outcome').filter({ hasText: name });

test.describe('upload page', () => {
  test('uploads real reports through the file picker: detected files, per-file results, summary, pending runs', async ({ page, flakeboard }) => {
    test.skip(!HAS_SHARED, SHARED_SKIP);
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server, { hash: '/upload' });
    await expect(page.getByText('No uploads yet.')).toBeVisible();

    await page.getByTestId('file-input').setInputFiles([RUN_1, THREE_BROWSERS]);
    await expect(page.getByRole('heading', { name: 'Detected Files' })).toBeVisible();
    await expect(page.getByTestId('detected-file')).toHaveCount(2);
    // docs/screens.md#browser-detection: the test count is stats.expected; several browsers show Multi-browser.
    await expect(detected(page, 'run-1.json').getByTestId('file-tests')).toHaveText(String(reportStats(RUN_1).expected));
    await expect(detected(page, '07-three-browsers').getByTestId('file-tests')).toHaveText(String(reportStats(THREE_BROWSERS).expected));
    await expect(detected(page, '07-three-browsers').getByTestId('file-browser')).toContainText('Multi-browser');
    await expect(detected(page, '07-three-browsers').getByTestId('file-browser')).toContainText('chromium, firefox, webkit');
    const shownCounts = {
      run1: await detected(page, 'run-1.json').getByTestId('file-counts').textContent(),
      three: await detected(page, '07-three-browsers').getByTestId('file-counts').textContent(),
    };
    await page.getByLabel('Project Name').fill('storefront');
    await page.getByLabel('Git Commit (optional)').fill('0123456789abcdef0123456789abcdef01234567');
    await page.getByLabel('Git Branch (optional)').fill('release/7');
    await shootBothThemes(page, 'upload-detected-files');

    // docs/screens.md#upload: on success the pending count refreshes and testDataUpdated is broadcast.
    await page.evaluate(() => window.addEventListener('testDataUpdated', () => ((window as { updates?: number }).updates = ((window as { updates?: number }).updates ?? 0) + 1)));
    const pendingCountRefresh = page.waitForRequest((r) => r.url().endsWith('/api/uploads/pending'));
    await page.getByRole('button', { name: 'Upload Results' }).click();
    await expect(page.getByTestId('upload-summary')).toBeVisible();
    await pendingCountRefresh;
    expect(await page.evaluate(() => (window as { updates?: number }).updates)).toBe(1);
    const runs = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
    expect(runs).toHaveLength(2);
    const run1 = runs.find((r) => r.file_path === 'run-1.json')!;
    const three = runs.find((r) => r.file_path.startsWith('07-three-browsers'))!;
    // What Detected Files showed is what the server stored.
    expect(shownCounts.run1).toBe(`${run1.passed_tests} passed / ${run1.failed_tests} failed`);
    expect(shownCounts.three).toBe(`${three.passed_tests} passed / ${three.failed_tests} failed`);
    // The form's fields went with the upload.
    expect(run1).toMatchObject({ project: 'storefront', git_branch: 'release/7', git_commit: '0123456789abcdef0123456789abcdef01234567', status: 'pending' });

    await expect(outcome(page, 'run-1.json')).toContainText(`${run1.total_tests} tests processed`);
    await expect(outcome(page, 'run-1.json')).toContainText('Success');
    await expect(outcome(page, 'run-1.json')).toContainText('Pending review');
    await expect(outcome(page, '07-three-browsers')).toContainText(`${three.total_tests} tests processed`);
    const summary = page.getByTestId('upload-summary');
    await expect(summary).toContainText('Successful: 2');
    await expect(summary).toContainText('Failed: 0');
    await expect(summary).toContainText(`Total tests imported: ${run1.total_tests + three.total_tests}`);
    // Uploaded files leave Detected Files so they cannot be posted twice.
    await expect(page.getByTestId('detected-file')).toHaveCount(0);

    // The recent list refreshed: both runs, pending, with the git info cut to 7 characters.
    await expect(rows(page)).toHaveCount(2);
    const row1 = rows(page).filter({ hasText: 'run-1.json' });
    await expect(row1.getByTestId('review-status')).toHaveText('Pending');
    await expect(row1).toContainText('storefront');
    await expect(row1).toContainText('release/7');
    await expect(row1.getByTestId('git-commit')).toHaveText('0123456');
    await expect(row1.getByTestId('pass-rate')).toHaveText(`${((run1.passed_tests / run1.total_tests) * 100).toFixed(1)}%`);
    const pending = await getApi<PendingUploadsResponse>(page, '/api/uploads/pending');
    expect(pending.uploads.map((u) => u.id).sort()).toEqual([run1.id, three.id].sort());
    await shootBothThemes(page, 'upload-results');

    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect(page.getByTestId('upload-results')).toHaveCount(0);
  });

  test('accepts report files dropped on the drop zone', async ({ page, flakeboard }) => {
    test.skip(!HAS_SHARED, SHARED_SKIP);
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server, { hash: '/upload' });
    const files = [SHARD, GIT_INFO].map((path) => ({ name: path.split('/').pop()!, bytes: [...readFileSync(path)] }));
    // A real drop: a DataTransfer built in the page holding the files' bytes.
    const dataTransfer = await page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: 'application/json' }));
      return transfer;
    }, files);
    const zone = page.getByTestId('drop-zone');
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await expect(zone).toHaveAttribute('data-over', 'true');
    await zone.dispatchEvent('drop', { dataTransfer });
    await expect(zone).not.toHaveAttribute('data-over', 'true');
    await expect(page.getByTestId('detected-file')).toHaveCount(2);
    await expect(detected(page, 'shard-1-of-2.json').getByTestId('file-tests')).toHaveText(String(reportStats(SHARD).expected));

    await page.getByRole('button', { name: 'Upload Results' }).click();
    await expect(page.getByTestId('upload-summary')).toContainText('Successful: 2');
    const runs = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
    expect(runs.map((r) => r.file_path).sort()).toEqual(files.map((f) => f.name).sort());
    // No branch typed: the report's own git info is used.
    const gitRun = runs.find((r) => r.file_path === files[1]!.name)!;
    expect(gitRun.git_commit).toBeTruthy();
    await expect(rows(page).filter({ hasText: files[1]!.name }).getByTestId('git-commit')).toHaveText(gitRun.git_commit!.slice(0, 7));
  });

  // Nothing is posted: the page refuses the files before any upload, so the shared empty store does.
  test('a file that is not JSON is refused with an alert; JSON files picked with it are kept', async ({ page, emptyStore: server }) => {
    await signIn(page, server, { hash: '/upload' });
    const alerts = answerDialogs(page, []);
    await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect.poll(() => alerts).toEqual(['Please select JSON files only.']);
    await expect(page.getByTestId('detected-files')).toHaveCount(0);

    await page.getByTestId('file-input').setInputFiles([{ name: 'trace.zip', mimeType: 'application/zip', buffer: Buffer.from('PK') }, asUpload(RUN_1)]);
    await expect.poll(() => alerts).toEqual(['Please select JSON files only.', 'Please select JSON files only.']);
    await expect(page.getByTestId('detected-file')).toHaveCount(1);
    await expect(detected(page, 'run-1.json')).toBeVisible();
    // A JSON type without the extension is accepted.
    await page.getByTestId('file-input').setInputFiles({ name: 'report-from-ci', mimeType: 'application/json', buffer: readFileSync(SHARD) });
    await expect(page.getByTestId('detected-file')).toHaveCount(2);
    // A file can be taken out again.
    await page.getByRole('button', { name: 'Remove run-1.json' }).click();
    await expect(page.getByTestId('detected-file')).toHaveCount(1);
    await expect(detected(page, 'report-from-ci')).toBeVisible();
  });

  test("invalid JSON is a per-file error; a JSON that is not a report shows the server's error text", async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server, { hash: '/upload' });
    await page.getByTestId('file-input').setInputFiles([
      { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"config": {,}') },
      { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') },
      asUpload(RUN_1),
    ]);
    const brokenError = detected(page, 'broken.json').getByTestId('file-error');
    await expect(brokenError).toHaveText("Invalid JSON in broken.json: Expected property name or '}' at line 1, column 13");
    const brokenText = await brokenError.textContent();
    await expect(detected(page, 'other.json').getByTestId('file-warning')).toContainText('not a Playwright JSON report');

    await page.getByRole('button', { name: 'Upload Results' }).click();
    await expect(page.getByTestId('upload-summary')).toContainText('Successful: 1');
    await expect(page.getByTestId('upload-summary')).toContainText('Failed: 2');
    await expect(outcome(page, 'broken.json').getByTestId('outcome-text')).toHaveText(brokenText!);
    await expect(outcome(page, 'broken.json')).toContainText('Error');
    // The server judged other.json: its error field is shown as it sent it.
    await expect(outcome(page, 'other.json').getByTestId('outcome-text')).toHaveText('other.json: not a Playwright JSON report: the field "config" is missing');
    await expect(outcome(page, 'run-1.json')).toContainText('tests processed');
    expect(await getApi<RecentUpload[]>(page, '/api/recent-uploads')).toHaveLength(1);
  });

  test('the Upload Results button shows progress while the files are posted', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server, { hash: '/upload' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/upload', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('file-input').setInputFiles([RUN_1, SHARD]);
    await expect(page.getByTestId('detected-file').getByTestId('file-tests')).toHaveCount(2);
    await page.getByRole('button', { name: 'Upload Results' }).click();
    await expect(page.getByRole('button', { name: 'Uploading 1 of 2...' })).toBeDisabled();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '0');
    release();
    await expect(page.getByTestId('upload-summary')).toContainText('Successful: 2');
    await expect(page.getByRole('progressbar')).toHaveCount(0);
  });

  test('the status filter asks the server for that status', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'demo', imports: [{ paths: [RUN_1, SHARD] }] });
    await signIn(page, server, { hash: '/upload' });
    const all = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
    await expect(rows(page)).toHaveCount(all.length);
    // Reject one pending upload so every status has rows.
    const target = all.find((u) => u.status === 'pending' && u.is_duplicate === 0)!;
    const rejected = await page.evaluate(async (id) => {
      const xsrf = decodeURIComponent(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const response = await fetch(`/api/uploads/${id}/review`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}`, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'reject' }),
      });
      return response.status;
    }, target.id);
    expect(rejected).toBe(200);

    for (const [label, status] of [['Pending', 'pending'], ['Approved', 'approved'], ['Rejected', 'rejected']] as const) {
      const expected = await getApi<RecentUpload[]>(page, `/api/recent-uploads?status=${status}`);
      expect(expected.length).toBeGreaterThan(0);
      const requested = page.waitForRequest((r) => {
        const url = new URL(r.url());
        return url.pathname === '/api/recent-uploads' && url.searchParams.get('status') === status && url.searchParams.get('page') === '1';
      });
      await page.getByRole('combobox', { name: 'Status filter' }).click();
      await page.getByRole('option', { name: label, exact: true }).click();
      await requested;
      await expect(rows(page)).toHaveCount(expected.length);
      await expect(rows(page).getByTestId('review-status').filter({ hasNotText: label })).toHaveCount(0);
    }
    // The rejected row names its reviewer and the review date.
    await expect(rows(page).first()).toContainText('by e2e on ');
    await shootBothThemes(page, 'upload-recent-rejected', { fullPage: false });

    await page.getByRole('combobox', { name: 'Status filter' }).click();
    await page.getByRole('option', { name: 'All Status' }).click();
    await expect(rows(page)).toHaveCount(all.length);
  });

  // The delete is dismissed, so nothing changes: the shared demo server's second run will do.
  test('clicking a row opens the run; DELETE does not', async ({ page, demo: server }) => {
    await signIn(page, server, { hash: '/upload' });
    const runs = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
    const answers = answerDialogs(page, [false]);
    const id = runs[1]!.id;
    const row = page.locator(`[data-testid="recent-upload"][data-id="${id}"]`);
    await row.getByRole('button', { name: /^Delete run/ }).click();
    await expect.poll(() => answers.length).toBe(1);
    await expect(page).toHaveURL(/#\/upload$/);

    await row.click();
    await expect(page).toHaveURL(new RegExp(`#/upload/${id}$`));
    await expect(page.getByRole('heading', { name: 'Test Run Details' })).toBeVisible();
  });

  test('DELETE asks once: dismissed keeps the run, accepted deletes it', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [RUN_1, SHARD] }] });
    await signIn(page, server, { hash: '/upload' });
    await expect(rows(page)).toHaveCount(2);
    const runs = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
    const victim = runs.find((r) => r.file_path.endsWith('run-1.json'))!;
    const row = rows(page).filter({ hasText: 'run-1.json' });

    const dismissed = answerDialogs(page, [false]);
    await row.getByRole('button', { name: `Delete run #${victim.id}` }).click();
    await expect.poll(() => dismissed).toEqual(['Are you sure you want to delete this test run and all its results? This cannot be undone.']);
    page.removeAllListeners('dialog');
    await expect(rows(page)).toHaveCount(2);
    expect((await callApi(page, 'GET', `/api/uploads/${victim.id}`)).status).toBe(200);

    const accepted = answerDialogs(page, [true]);
    await row.getByRole('button', { name: `Delete run #${victim.id}` }).click();
    await expect.poll(() => accepted).toEqual(['Are you sure you want to delete this test run and all its results? This cannot be undone.', 'Test run deleted successfully']);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).filter({ hasText: 'run-1.json' })).toHaveCount(0);
    expect((await callApi(page, 'GET', `/api/uploads/${victim.id}`)).status).toBe(404);
    const pending = await getApi<PendingUploadsResponse>(page, '/api/uploads/pending');
    expect(pending.count).toBe(1);
    await expect(page).toHaveURL(/#\/upload$/);
  });

  // The refusal is the page route's: the call never reaches the shared demo server.
  test('a failed DELETE alerts the reason', async ({ page, demo: server }) => {
    await signIn(page, server, { hash: '/upload' });
    await expect(rows(page)).toHaveCount(50);
    await page.route('**/api/test-run/*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"database is locked"}' }));
    const seen = answerDialogs(page, [true]);
    await rows(page).first().getByRole('button', { name: /^Delete run/ }).click();
    await expect.poll(() => seen[1]).toBe('Failed to delete test run: database is locked');
    await expect(rows(page)).toHaveCount(50);
  });

  test('Clear All Data needs two confirmations; dismissing either keeps the data', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'demo' });
    await signIn(page, server, { hash: '/upload' });
    const before = await getApi<RecentUpload[]>(page, '/api/recent-uploads');
    await expect(rows(page)).toHaveCount(before.length);
    const clear = page.getByRole('button', { name: 'Clear All Data' });

    const first = answerDialogs(page, [false]);
    await clear.click();
    await expect.poll(() => first.length).toBe(1);
    expect(first[0]).toContain('ALL test data');
    page.removeAllListeners('dialog');

    const second = answerDialogs(page, [true, false]);
    await clear.click();
    await expect.poll(() => second.length).toBe(2);
    expect(second[1]).toContain('cannot be undone');
    page.removeAllListeners('dialog');
    expect(await getApi<RecentUpload[]>(page, '/api/recent-uploads')).toHaveLength(before.length);
    await expect(rows(page)).toHaveCount(before.length);

    const both = answerDialogs(page, [true, true]);
    await page.evaluate(() => window.addEventListener('testDataUpdated', () => ((window as { updates?: number }).updates = 1)));
    const pendingCountRefresh = page.waitForRequest((r) => r.url().endsWith('/api/uploads/pending'));
    await clear.click();
    await pendingCountRefresh;
    await expect.poll(() => page.evaluate(() => (window as { updates?: number }).updates)).toBe(1);
    await expect.poll(() => both).toEqual([first[0], second[1], 'All test data cleared successfully']);
    await expect(page.getByText('No uploads yet.')).toBeVisible();
    expect(await getApi<RecentUpload[]>(page, '/api/recent-uploads')).toEqual([]);
    expect((await getApi<PendingUploadsResponse>(page, '/api/uploads/pending')).count).toBe(0);
  });

  test("Clear All Data refused by the server alerts the server's reason", async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [RUN_1] }] });
    await signIn(page, server, { hash: '/upload', ...MEMBER });
    const seen = answerDialogs(page, [true, true]);
    await page.getByRole('button', { name: 'Clear All Data' }).click();
    await expect.poll(() => seen.length).toBe(3);
    expect(seen[2]).toMatch(/^Failed to clear data: .+/);
    expect(seen[2]).not.toContain('status code');
    await expect(rows(page)).toHaveCount(1);
  });

  test('an empty database shows No uploads yet.', async ({ page, emptyStore: server }) => {
    await signIn(page, server, { hash: '/upload' });
    await expect(page.getByText('No uploads yet.')).toBeVisible();
    await expect(rows(page)).toHaveCount(0);
    // The drop zone's dashed outline comes from module CSS with light-dark(): a build that
    // mangles it leaves no border at all.
    const zone = page.getByTestId('drop-zone');
    expect(await zone.evaluate((el) => [getComputedStyle(el).borderTopStyle, getComputedStyle(el).borderTopWidth])).toEqual(['dashed', '2px']);
    await shootBothThemes(page, 'upload-empty');
  });

  test('pages the recent uploads on the server: "Showing a–b of N uploads", newest first', async ({ page, demo: server }) => {
    await signIn(page, server, { hash: '/upload' });
    const one = await getApi<{ items: RecentUpload[]; total: number }>(page, '/api/recent-uploads?page=1&pageSize=50');
    expect(one.total).toBeGreaterThan(50);
    await expect(rows(page)).toHaveCount(50);
    await expect(page.getByTestId('uploads-pager-text')).toHaveText(`Showing 1–50 of ${one.total} uploads`);
    const second = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/recent-uploads' && new URL(r.url()).searchParams.get('page') === '2');
    await page.getByTestId('uploads-pager').getByRole('button', { name: 'next page' }).click();
    await second;
    const two = await getApi<{ items: RecentUpload[] }>(page, '/api/recent-uploads?page=2&pageSize=50');
    await expect(rows(page)).toHaveCount(two.items.length);
    await expect(page.getByTestId('uploads-pager-text')).toHaveText(`Showing 51–${one.total} of ${one.total} uploads`);
    expect(two.items.map((u) => u.id)).not.toContain(one.items[0]!.id);
    // A status goes back to its first page.
    await page.getByRole('combobox', { name: 'Status filter' }).click();
    await page.getByRole('option', { name: 'Approved', exact: true }).click();
    await expect(page.getByTestId('uploads-pager-text')).toHaveText(/^Showing 1–/);
  });
});
