import { fileURLToPath } from 'node:url';
import { expect, picture, signIn, test } from './support/fixtures.js';
import { PHONE } from './support/phone.js';

// A real run of the evidence suite: Playwright's report with the screenshots, traces and error
// contexts it wrote beside it (fixtures/evidence-suite), imported by the real CLI.
const EVIDENCE_REPORT = fileURLToPath(new URL('../fixtures/reports/evidence/report.json', import.meta.url));

test.describe('failure evidence', () => {
  test('a failed test shows its screenshot, and Open trace steps through the run in the trace viewer flakeboard serves', async ({ page, flakeboard, context }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [EVIDENCE_REPORT], approve: true }] });
    await signIn(page, server, { hash: '/upload' });
    await page.getByTestId('recent-upload').first().click();
    const row = page.getByTestId('test-row').filter({ hasText: 'applies a discount code' });
    await row.getByTestId('evidence-button').click();
    const dialog = page.getByRole('dialog', { name: 'applies a discount code' });
    // Both attempts failed: each shows its screenshot, loaded (a real PNG drawn at its size).
    await expect(dialog.getByTestId('attempt-evidence')).toHaveCount(2);
    const thumbnail = dialog.getByTestId('evidence-screenshot').first().locator('img');
    await expect(thumbnail).toBeVisible();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    await dialog.getByTestId('evidence-screenshot').first().click();
    await expect(page.getByTestId('evidence-screenshot-large')).toBeVisible();
    // Escape closes the enlarged screenshot alone, not the dialog under it.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('evidence-screenshot-large')).toHaveCount(0);
    await expect(dialog).toBeVisible();
    // Playwright's error context, as text.
    await expect(dialog.getByTestId('evidence-error-context').first()).toContainText('applies a discount code');

    const [viewer] = await Promise.all([context.waitForEvent('page'), dialog.getByTestId('open-trace').first().click()]);
    await viewer.waitForLoadState();
    expect(new URL(viewer.url()).origin).toBe(new URL(server.url).origin);
    expect(new URL(viewer.url()).pathname).toBe('/trace/index.html');
    // The viewer lists the test's actions, the failing assertion among them, and shows its locator.
    await expect(viewer.getByText('Expect "toHaveText"').first()).toBeVisible();
    await expect(viewer.getByText("getByRole('button', { name: 'Apply' })").first()).toBeVisible();
    await viewer.getByText('Fill "SAVE1O"').click();
    await expect(viewer.getByText("getByPlaceholder('Discount code')").first()).toBeVisible();
    await picture(viewer, 'trace-viewer');
  });

  test("a flaky test's failing attempt and passing retry side by side, stacked on a phone", async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [EVIDENCE_REPORT], approve: true }] });
    await signIn(page, server, { hash: '/flaky-tests' });
    await page.getByTestId('flaky-group').first().getByTestId('group-details').click();
    const compare = page.getByRole('dialog').getByTestId('evidence-compare').first();
    const [failing, passing] = [compare.getByTestId('attempt-evidence').first(), compare.getByTestId('attempt-evidence').nth(1)];
    await expect(failing).toHaveAttribute('data-status', 'failed');
    await expect(passing).toHaveAttribute('data-status', 'passed');
    await expect(failing.getByTestId('evidence-screenshot')).toBeVisible();
    await expect(passing.getByTestId('open-trace')).toBeVisible();
    const [a, b] = [await failing.boundingBox(), await passing.boundingBox()];
    expect(a!.y).toBe(b!.y);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    await page.setViewportSize(PHONE);
    await expect.poll(async () => (await passing.boundingBox())!.y).toBeGreaterThan((await failing.boundingBox())!.y + 50);
  });
});

test.describe('attempt comparison', () => {
  test("the flaky test's dialog says where the failing attempt parted from its passing retry, stacked on a phone", async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [EVIDENCE_REPORT], approve: true }] });
    await page.setViewportSize({ width: 1440, height: 1000 });
    await signIn(page, server, { hash: '/flaky-tests' });
    await page.getByTestId('flaky-group').first().getByTestId('group-details').click();
    const comparison = page.getByRole('dialog').getByTestId('attempt-comparison').first();
    await expect(comparison.getByTestId('attempt-comparison-parted')).toContainText("Click · getByRole('button', { name: 'Remove code' })");
    await expect(comparison.getByTestId('attempt-comparison-parted')).toContainText('Failing attempt: TimeoutError: locator.click: Timeout 1000ms exceeded. (after ');
    await expect(comparison.getByTestId('attempt-comparison-parted')).toContainText('Passing attempt: did not do it');
    await expect(comparison.getByTestId('attempt-comparison-partner')).toHaveText('Compared with the passing retry in the same run');
    // The page of each attempt where they parted: two real JPEG frames of the traces, loaded, side by side.
    const frames = comparison.getByTestId('attempt-comparison-frames');
    await expect(frames).toContainText('Failing attempt · at the end of Click');
    await expect(frames).toContainText('Passing attempt · at the end of Set content');
    const images = frames.getByTestId('attempt-comparison-frame').locator('img');
    await expect(images).toHaveCount(2);
    for (const image of await images.all()) await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    const [left, right] = [(await images.nth(0).boundingBox())!, (await images.nth(1).boundingBox())!];
    expect(right.x).toBeGreaterThan(left.x + left.width - 1);
    expect(Math.abs(right.y - left.y)).toBeLessThan(2);
    // A click enlarges the frame; Escape closes it alone.
    await frames.getByTestId('attempt-comparison-frame').first().click();
    await expect(page.getByTestId('evidence-screenshot-large')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('evidence-screenshot-large')).toHaveCount(0);
    await frames.scrollIntoViewIfNeeded();
    await picture(page, 'compare-1440');
    await page.setViewportSize(PHONE);
    await frames.scrollIntoViewIfNeeded();
    await picture(page, 'compare-390');
    // On the phone the frames are stacked, the passing one under the failing one.
    const [top, under] = [(await images.nth(0).boundingBox())!, (await images.nth(1).boundingBox())!];
    expect(under.y).toBeGreaterThan(top.y + top.height - 1);
    // Nothing wider than the phone's screen.
    expect((await comparison.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
  });
});
