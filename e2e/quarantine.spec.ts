import type { DashboardResponse } from '../core/api/analytics.js';
import { MEMBER } from './support/cli.js';
import { expect, shootBothThemes, signIn, test } from './support/fixtures.js';
import { api, openDialog, openFlaky } from './support/flaky.js';
import type { QuarantineListResponse } from '../core/api/quarantine.js';
import { quarantineLastDay } from '../core/gate/expiry.js';

test.describe('quarantine from the flaky screen', () => {
  test('a reviewer quarantines a test from its dialog: a badge on its row, the entry in the API; then lifts it', async ({ page, flakeboard }) => {
    const { groups } = await openFlaky(page, flakeboard);
    const group = groups[0]!;
    const browser = group.browsers[0]!.browser;
    let dialog = await openDialog(page, groups, group, browser);
    await dialog.getByRole('button', { name: 'Quarantine this test' }).click();
    const form = dialog.getByTestId('quarantine-form');
    await form.getByLabel('Reason').fill('payment sandbox times out, JIRA-123');
    await form.getByLabel('Owner').fill('rita');
    await form.getByRole('button', { name: 'Quarantine', exact: true }).click();
    await expect(dialog.getByTestId('quarantine-status')).toContainText('payment sandbox times out, JIRA-123');
    await expect(dialog.getByTestId('quarantine-status')).toContainText('Owner rita');
    await shootBothThemes(page, 'flaky-dialog-quarantined', { fullPage: false });

    const listed = await api<QuarantineListResponse>(page, '/api/quarantine');
    expect(listed.entries).toMatchObject([{ title: group.test_title, file: group.test_file, project: browser, owner: 'rita', expired: false }]);
    // 30 days from today: it applies through the 29th UTC day after today, the date `check` and `quarantine list` print.
    const through = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 29 * 86_400_000).toISOString().slice(0, 10);
    expect(quarantineLastDay(listed.entries[0]!.expiresAt!)).toBe(through);
    expect(listed.entries[0]!.through).toBe(through);
    await expect(dialog.getByTestId('quarantine-status')).toContainText(`through ${through}`);
    await page.keyboard.press('Escape');
    const row = page.getByTestId('flaky-group').nth(0);
    await expect(row.getByTestId('quarantine-badge')).toHaveText('Quarantined');
    await expect(page.getByTestId('quarantine-badge')).toHaveCount(1);

    dialog = await openDialog(page, groups, group, browser);
    await dialog.getByRole('button', { name: 'Lift quarantine' }).click();
    await expect(dialog.getByRole('button', { name: 'Quarantine this test' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('quarantine-badge')).toHaveCount(0);
    expect((await api<QuarantineListResponse>(page, '/api/quarantine')).count).toBe(0);
  });

  test('a member sees the server’s refusal and nothing is stored', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server, { hash: '/flaky-tests', username: MEMBER.username, password: MEMBER.password });
    await expect(page.getByTestId('flaky-group').first()).toBeVisible();
    // The screen's window (the API's default is all time, which the demo's oldest runs leave at some hours).
    const groups = await api<Parameters<typeof openDialog>[1]>(page, '/api/flaky-tests?days=30');
    const dialog = await openDialog(page, groups, groups[0]!, groups[0]!.browsers[0]!.browser);
    await dialog.getByRole('button', { name: 'Quarantine this test' }).click();
    await dialog.getByLabel('Reason').fill('flaky');
    await dialog.getByRole('button', { name: 'Quarantine', exact: true }).click();
    await expect(dialog.getByTestId('quarantine-form')).toContainText('needs the reviewer role');
    expect((await api<QuarantineListResponse>(page, '/api/quarantine')).count).toBe(0);
  });

  test('the dashboard marks a quarantined test among the most critical', async ({ page, flakeboard }) => {
    const server = await flakeboard.start();
    await signIn(page, server);
    const critical = (await api<DashboardResponse>(page, '/api/dashboard?days=30')).flakyTests[0]!;
    const added = await page.evaluate(async (body) => {
      const xsrf = document.cookie.replace(/.*XSRF-TOKEN=([^;]*).*/, '$1');
      const res = await fetch('/api/quarantine', { method: 'POST', headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}`, 'x-xsrf-token': xsrf, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return res.status;
    }, { title: critical.test_title, file: critical.test_file, project: critical.browser, reason: 'known flaky' });
    expect(added).toBe(201);
    await page.reload();
    await expect(page.getByTestId('most-critical').getByTestId('quarantine-badge')).toHaveCount(1);
  });
});
