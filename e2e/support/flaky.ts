/** Helpers of the flaky screen's browser tests: signed-in API reads, opening the dialog, alerts. */
import type { Locator, Page } from '@playwright/test';
import type { DailyStat, FlakyTestGroup, TestResultDetail } from '../../core/api/analytics.js';
import type { RunningServer } from './cli.js';
import { expect, signIn, type Flakeboard } from './fixtures.js';

/** A signed-in call from the page, as the UI makes it. */
export async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const answer = await fetch(p, { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } });
    if (!answer.ok) throw new Error(`${p} answered ${answer.status}`);
    return answer.json();
  }, path);
}

const enc = encodeURIComponent;
/** The first page of a test's history on a browser, as the dialog asks for it (with the file). */
export const historyOf = (page: Page, g: FlakyTestGroup, browser: string) =>
  api<TestResultDetail[]>(page, `/api/test-details/${enc(g.test_title)}/${enc(browser)}?file=${enc(g.test_file)}`);
export const statsOf = (page: Page, g: FlakyTestGroup, browser: string) =>
  api<DailyStat[]>(page, `/api/flaky-tests/${enc(g.test_file)}/${enc(g.test_title)}/${enc(browser)}/daily-stats`);

/** The flaky screen on `from`: the shared demo server (read-only tests), or a server started with `options`. */
export async function openFlaky(page: Page, from: Flakeboard | RunningServer, options: Parameters<Flakeboard['start']>[0] = {}) {
  const server = 'url' in from ? from : await from.start(options);
  await signIn(page, server, { hash: '/flaky-tests' });
  await expect(page.getByTestId('flaky-group').first()).toBeVisible();
  // The screen's window (the dashboard's 30 days), in the table's order: near midnight UTC the
  // demo's oldest runs fall outside it, and all-time figures would differ from the screen's.
  return { server, groups: await api<FlakyTestGroup[]>(page, '/api/flaky-tests?days=30&pageSize=200') };
}

export async function openDialog(page: Page, groups: FlakyTestGroup[], group: FlakyTestGroup, browser: string): Promise<Locator> {
  const row = page.getByTestId('flaky-group').nth(groups.indexOf(group));
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  // The group's own breakdown: other groups may be open too.
  await row.locator('xpath=following-sibling::tr[1]').locator(`[data-testid="browser-row"][data-browser="${browser}"]`).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('dialog-title')).toHaveText(group.test_title);
  return dialog;
}

/** Runs `action`, accepts the window.alert it raises and returns its text. */
export async function alertFrom(page: Page, action: () => Promise<void>): Promise<string> {
  const message = new Promise<string>((resolve) =>
    page.once('dialog', (alert) => {
      resolve(alert.message());
      void alert.accept();
    }),
  );
  await action();
  return message;
}

/** A group whose title is plain words, so its file name is predictable. */
export const plainGroup = (groups: FlakyTestGroup[]) => groups.find((g) => /^[a-z0-9 ]+$/i.test(g.test_title) && groups.filter((o) => o.test_title === g.test_title).length === 1)!;

/** A one-test Playwright report whose title, error, snippet and step carry markup; it fails, then passes on retry (flaky). */
export function xssReport() {
  const title = '<img src=x onerror="window.__xss=1">';
  const error = {
    message: 'Error: <script>window.__xss=2</script> expected <b>visible</b>',
    stack: 'Error: <script>window.__xss=2</script>\n    at /work/xss.spec.ts:3:7',
    location: { file: '/work/xss.spec.ts', line: 3, column: 7 },
    snippet: "  2 | test('x', async () => {\n> 3 |   <img src=x onerror=\"window.__xss=3\">\n    |   ^\n  4 | });",
  };
  const result = (status: string, retry: number, extra: object) => ({ workerIndex: retry, status, retry, startTime: `2026-11-20T10:00:0${retry}.000Z`, stdout: [], stderr: [], attachments: [], annotations: [], ...extra });
  const report = {
    config: { rootDir: '/work', version: '1.56.0', projects: [{ id: 'chromium', name: 'chromium', use: { browserName: 'chromium' }, retries: 1, testDir: '/work', timeout: 30000 }] },
    suites: [{
      title: 'xss.spec.ts', file: 'xss.spec.ts', line: 0, column: 0, suites: [],
      specs: [{
        title, ok: true, tags: [], id: 'x1', file: 'xss.spec.ts', line: 2, column: 1,
        tests: [{
          timeout: 30000, expectedStatus: 'passed', projectId: 'chromium', projectName: 'chromium', status: 'flaky',
          annotations: [{ type: '<i>issue</i>', description: '<img src=x onerror="window.__xss=4">' }],
          results: [
            // Fails, then passes on retry: a flaky test.
            result('failed', 0, { duration: 1200, errors: [error], error, steps: [{ title: '<img src=x onerror="window.__xss=5">', duration: 50, error }] }),
            result('passed', 1, { duration: 900, errors: [], steps: [{ title: 'open page', duration: 40 }] }),
          ],
        }],
      }],
    }],
    errors: [],
    stats: { startTime: '2026-11-20T10:00:00.000Z', duration: 2500, expected: 0, skipped: 0, unexpected: 0, flaky: 1 },
  };
  return { report, title, error };
}
