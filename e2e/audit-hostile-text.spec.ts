import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { expect, picture, signIn, test } from './support/fixtures.js';
import { PHONE } from './support/phone.js';

// Names in the audit trail come from whoever named the thing: a user an admin added, a report's
// file name a CI job chose, a webhook's name. Each carries markup that would run script if the
// Admin tab put it into the page as HTML, a right-to-left override that would make the rest of
// the row read backwards, and enough length to push the table off the screen.
const RLO = '\u202E';
const USER = `<img/src=x/onerror=window.top.name='pwned-user'>${'u'.repeat(10)}`;
const FILE = `<svg onload=window.top.name='pwned-file'>${RLO}nosj.${'f'.repeat(120)}.json`;
const HOOK = `<b>bold</b><script>window.top.name='pwned-hook'</script>${RLO}kooh-${'w'.repeat(20)}`;

test.describe('hostile text in the audit trail', () => {
  let dir: string;
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-audit-'));
  });
  test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('user, file and webhook names with markup, bidi overrides and long text are shown as text, at 1440 and 390 px', async ({ page, flakeboard }) => {
    const report = join(dir, FILE);
    copyFileSync(join(import.meta.dirname, '../fixtures/reports/own/run-1.json'), report);
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [report] }] });
    runCli(['user', 'add', USER, '--password-stdin', '--db', server.dbPath], { input: 'hostile-password-123\n' });
    expect(HOOK.length).toBeLessThanOrEqual(100);
    runCli(['webhook', 'add', HOOK, '--db', server.dbPath, '--kind', 'generic', '--url', 'http://127.0.0.1:9/hook']);

    await signIn(page, server, { hash: '/admin' });
    const trail = page.getByTestId('audit-trail');
    const rows = trail.getByTestId('audit-row');
    for (const [action, name] of [['webhook.create', HOOK], ['user.add', USER], ['run.import', FILE]]) {
      await expect(rows.filter({ hasText: name! })).toHaveCount(1);
      await expect(rows.filter({ hasText: name! })).toContainText(action!);
    }

    // The markup is text: no element it names was made, and nothing ran.
    expect(await rows.locator('img, svg, b, script').evaluateAll((els) => els.map((el) => el.outerHTML))).toEqual([]);
    expect(await page.evaluate(() => window.name)).toBe('');
    // An override cannot reorder the rest of the row: each name is isolated from what follows.
    for (const name of [HOOK, FILE]) {
      const cell = trail.getByText(name, { exact: false }).first();
      expect(await cell.evaluate((el) => getComputedStyle(el).unicodeBidi), `${name.slice(0, 20)}…`).toMatch(/isolate|plaintext/);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await picture(page, 'audit-hostile-1440');

    await page.setViewportSize(PHONE);
    await expect(trail.locator('[data-layout="stacked"]')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await picture(page, 'audit-hostile-390');
    expect(await page.evaluate(() => window.name)).toBe('');
  });
});
