import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trendAnalysis } from '../core/analytics/formulas.js';
import { LOW_CONFIDENCE, NO_BROWSER_PATTERNS, type AiAnalysisRequest, type AiAnalysisResult } from '../core/api/ai.js';
import { CAUSE_LABELS } from '../core/api/cause-classes.js';
import type { DailyStat, FlakyTestGroup, TestResultDetail } from '../core/api/analytics.js';
import { stripAnsi } from '../core/ansi.js';
import { expect, picture, shootBothThemes, signIn, test } from './support/fixtures.js';
import { alertFrom, api, historyOf, openDialog, openFlaky, plainGroup, statsOf, xssReport } from './support/flaky.js';

// A real run with its traces (fixtures/evidence-suite), imported with its evidence.
const EVIDENCE_REPORT = fileURLToPath(new URL('../fixtures/reports/evidence/report.json', import.meta.url));

test.describe('flaky detail dialog', () => {
  test('a browser row opens it with title, browser and summary; Escape, backdrop and the close button close it, and it reopens on Test History', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = groups[0]!;
    const entry = group.browsers[0]!;
    const dialog = await openDialog(page, groups, group, entry.browser);
    await expect(dialog.getByText(entry.browser, { exact: true })).toBeVisible();
    await expect(dialog.getByTestId('summary-figure')).toHaveText([
      `Pass Rate${(entry.pass_rate * 100).toFixed(1)}%`,
      `After Retries${(entry.final_pass_rate * 100).toFixed(1)}%`,
      `Total Runs${entry.total_runs}`,
      `Failed Runs${entry.failed_runs}`,
      `Flaky Score${entry.flaky_score.toFixed(1)}`,
    ]);
    // Why the first attempts' rate is lower than the final one, when a retry rescued some runs.
    if (entry.passed_on_retry > 0 && entry.final_pass_rate !== entry.pass_rate) {
      await expect(dialog.getByTestId('retry-note')).toContainText(`failed the first attempt and passed on a retry: flaky, not broken.`);
    } else await expect(dialog.getByTestId('retry-note')).toHaveCount(0);
    await expect(dialog.getByRole('tab')).toHaveText(['Test History', 'Trends', 'AI Analysis']);
    await expect(dialog.getByRole('tab', { name: 'Test History' })).toHaveAttribute('aria-selected', 'true');
    const history = await historyOf(page, group, entry.browser);
    await expect(dialog.getByTestId('history-entry')).toHaveCount(history.length);
    await shootBothThemes(page, 'flaky-dialog-history', { fullPage: false });

    await dialog.getByRole('tab', { name: 'Trends' }).click();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await openDialog(page, groups, group, entry.browser);
    await expect(dialog.getByRole('tab', { name: 'Test History' })).toHaveAttribute('aria-selected', 'true');

    await dialog.getByRole('tab', { name: 'AI Analysis' }).click();
    // The backdrop: left of the centred dialog.
    await page.mouse.click(40, 500);
    await expect(dialog).toHaveCount(0);
    await openDialog(page, groups, group, entry.browser);
    await expect(dialog.getByRole('tab', { name: 'Test History' })).toHaveAttribute('aria-selected', 'true');

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('the dialog moves in for a browser with no motion preference and opens at once for one that asks for reduced motion', async ({ page, demo }) => {
    // The other browser tests run with reduced motion (playwright.config.ts): this one keeps the transition covered.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const { groups } = await openFlaky(page, demo);
    const group = groups[0]!;
    const browser = group.browsers[0]!.browser;
    const dialog = await openDialog(page, groups, group, browser);
    const transition = () => dialog.evaluate((element) => getComputedStyle(element).transitionDuration);
    expect(await transition()).toBe('0.2s');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // The system's setting changed while the page is open: the next opening follows it.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openDialog(page, groups, group, browser);
    expect(await transition()).toBe('0s');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test("a test's row opens its dialog without expanding it: Details on the worst browser, a browser badge on that browser; by keyboard too", async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const index = groups.findIndex((g) => g.browsers.length > 1);
    const group = groups[index]!;
    // The worst browser: the lowest pass rate, then the highest flaky score, then the first listed.
    const worst = group.browsers.reduce((w, b) => (b.pass_rate < w.pass_rate || (b.pass_rate === w.pass_rate && b.flaky_score > w.flaky_score) ? b : w));
    const row = page.getByTestId('flaky-group').nth(index);
    const details = row.getByTestId('group-details');
    await expect(details).toHaveText(`Details (${worst.browser})›`);
    await details.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('dialog-title')).toHaveText(group.test_title);
    await expect(dialog.getByText(worst.browser, { exact: true })).toBeVisible();
    await expect(dialog.getByTestId('summary-figure').first()).toHaveText(`Pass Rate${(worst.pass_rate * 100).toFixed(1)}%`);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(row).toHaveAttribute('aria-expanded', 'false');

    // Keyboard: Enter on the focused button opens the dialog and does not also fold the row open.
    await details.focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('dialog-title')).toHaveText(group.test_title);
    await page.keyboard.press('Escape');
    await expect(row).toHaveAttribute('aria-expanded', 'false');

    // Each browser badge opens that browser.
    const other = group.browsers.find((b) => b.browser !== worst.browser)!;
    const badge = row.getByRole('button', { name: `Open ${other.browser} details`, exact: true });
    await badge.focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('summary-figure').first()).toHaveText(`Pass Rate${(other.pass_rate * 100).toFixed(1)}%`);
    await expect(dialog.getByText(other.browser, { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(row).toHaveAttribute('aria-expanded', 'false');

    // The row itself still opens into its browsers, which say they open the dialog.
    await row.click();
    await expect(page.getByTestId('browser-rows-hint')).toHaveText('Open a browser for its run history, daily trend and AI analysis.');
    await expect(page.getByTestId('browser-row').first()).toContainText('Details ›');
    await shootBothThemes(page, 'flaky-row-details', { fullPage: false });
  });

  test('on a phone the stacked row carries Details, on screen, and it opens the dialog', async ({ page, demo }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const { groups } = await openFlaky(page, demo);
    const group = groups[0]!;
    const worst = group.browsers.reduce((w, b) => (b.pass_rate < w.pass_rate || (b.pass_rate === w.pass_rate && b.flaky_score > w.flaky_score) ? b : w));
    const row = page.getByTestId('flaky-group').first();
    await row.scrollIntoViewIfNeeded();
    const details = row.getByTestId('group-details');
    await expect(details).toBeInViewport({ ratio: 1 });
    await details.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('dialog-title')).toHaveText(group.test_title);
    await expect(dialog.getByText(worst.browser, { exact: true })).toBeVisible();
    await expect(row).toHaveAttribute('aria-expanded', 'false');
  });

  test('Test History of real runs: status labels with TIMEOUT, the error display rules, code context and steps', async ({ page, demo }) => {
    test.slow();
    const { groups } = await openFlaky(page, demo);
    // Each test's history on each browser, in the table's order, read only as far as a search
    // needs: the first match is the same as over all of them, without a call per row of the table.
    const histories: Array<{ group: FlakyTestGroup; browser: string; rows: TestResultDetail[] }> = [];
    const pairs = groups.flatMap((group) => group.browsers.map((b) => ({ group, browser: b.browser })));

    const clean = (r: TestResultDetail) => stripAnsi(r.error_message ?? '').trim();
    const find = async (predicate: (r: TestResultDetail) => boolean) => {
      for (let i = 0; i < pairs.length; i += 1) {
        if (i === histories.length) histories.push({ ...pairs[i]!, rows: await historyOf(page, pairs[i]!.group, pairs[i]!.browser) });
        const h = histories[i]!;
        const index = h.rows.findIndex(predicate);
        if (index >= 0) return { ...h, index, row: h.rows[index]! };
      }
      throw new Error('the demo history has no such run');
    };
    const timedOut = await find((r) => r.status === 'timedOut' && /Test timeout of \d+ms exceeded/.test(clean(r)));
    const locatorTimeout = await find((r) => /^(\w*Error: )?locator\.\w+: Timeout \d+ms exceeded/.test(clean(r)) && /^\s*- waiting for (locator|getBy)[^\n]*\)$/m.test(clean(r)));
    const long = await find((r) => r.status === 'failed' && clean(r).length > 200 && !/Timeout \d+ms exceeded|Test timeout/.test(clean(r).split('\n')[0]!));
    const snippet = await find((r) => r.status !== 'passed' && /^\s*>\s*\d+ \|/m.test(stripAnsi(r.error_snippet ?? '')));

    let dialog = await openDialog(page, groups, timedOut.group, timedOut.browser);
    let entry = dialog.getByTestId('history-entry').nth(timedOut.index);
    await expect(entry.getByTestId('history-status')).toHaveText('TIMEOUT');
    const seconds = Number(/Test timeout of (\d+)ms/.exec(clean(timedOut.row))![1]) / 1000;
    await expect(entry.getByTestId('history-error')).toHaveText(`Test timeout: exceeded ${seconds}s limit`);
    const passedIndex = timedOut.rows.findIndex((r) => r.status === 'passed');
    await expect(dialog.getByTestId('history-entry').nth(passedIndex).getByTestId('history-status')).toHaveText('PASSED');
    await expect(dialog.getByTestId('history-entry').nth(passedIndex).getByTestId('history-error')).toHaveCount(0);
    await page.keyboard.press('Escape');

    dialog = await openDialog(page, groups, locatorTimeout.group, locatorTimeout.browser);
    entry = dialog.getByTestId('history-entry').nth(locatorTimeout.index);
    await expect(entry.getByTestId('history-status')).toHaveText(locatorTimeout.row.status === 'timedOut' ? 'TIMEOUT' : locatorTimeout.row.status.toUpperCase());
    const text = clean(locatorTimeout.row);
    const locator = /^\s*- waiting for ((?:locator|getBy)[^\n]*\))$/m.exec(text)![1];
    const action = /locator\.\w+: Timeout \d+ms exceeded\./.exec(text)![0];
    await expect(entry.getByTestId('history-error')).toHaveText(`Element timeout: waiting for '${locator}' - ${action}`);
    await page.keyboard.press('Escape');

    dialog = await openDialog(page, groups, long.group, long.browser);
    entry = dialog.getByTestId('history-entry').nth(long.index);
    await expect(entry.getByTestId('history-status')).toHaveText('FAILED');
    expect(await entry.getByTestId('history-error').textContent()).toBe(`${clean(long.row).slice(0, 200)}...`);
    await page.keyboard.press('Escape');

    dialog = await openDialog(page, groups, snippet.group, snippet.browser);
    entry = dialog.getByTestId('history-entry').nth(snippet.index);
    const failingLine = /^\s*>\s*(\d+) \|/m.exec(stripAnsi(snippet.row.error_snippet!))![1]!;
    const failing = entry.getByTestId('code-context').locator('[data-failing]');
    await expect(failing).toHaveCount(1);
    await expect(failing).toContainText('→');
    await expect(failing).toContainText(failingLine);
    // Colour codes are gone from what is shown.
    expect(await entry.getByTestId('code-context').textContent()).not.toContain('\u001b');
    const steps = JSON.parse(snippet.row.test_steps ?? '[]') as Array<{ title: string }>;
    if (steps.length > 0) {
      await entry.getByTestId('test-steps').getByRole('button').click();
      await expect(entry.getByTestId('test-steps').getByText(steps[0]!.title)).toBeVisible();
    }
  });

  test('skipped runs, steps that are not JSON, missing error and code, and the flaky score fallback', async ({ page, demo: server }) => {
    await signIn(page, server, { hash: '/' });
    const real = await api<FlakyTestGroup[]>(page, '/api/flaky-tests');
    const group = real.find((g) => g.browsers.length >= 2)!;
    // A server without flaky_score: the dialog falls back to (1 - pass_rate) × total_runs.
    const withoutScore = real.map((g) => (g === group ? { ...g, browsers: g.browsers.map(({ flaky_score: _drop, ...rest }) => rest) } : g));
    const answer = { items: withoutScore, total: withoutScore.length, page: 1, pageSize: 50, counts: { all: withoutScore.length, severe: 0, moderate: 0, minor: 0, critical: 0 }, browsers: [] };
    await page.route((url) => url.pathname === '/api/flaky-tests', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(answer) }));
    const base = { run_id: 1, test_file: group.test_file, outcome: 'unexpected', retries: 0, git_commit: null, git_branch: null, error_location: null, error_stack: null, error_snippet: null };
    const [first, second] = [group.browsers[0]!.browser, group.browsers[1]!.browser];
    const answers: Record<string, unknown[]> = {
      [first]: [
        { ...base, id: 1, status: 'skipped', duration_ms: 0, run_date: '2026-11-20T10:00:00Z', error_message: null, test_steps: null },
        { ...base, id: 2, status: 'failed', duration_ms: 1500, run_date: '2026-11-19T10:00:00Z', error_message: null, test_steps: 'steps were {not json' },
      ],
      [second]: [
        { ...base, id: 3, status: 'skipped', duration_ms: 0, run_date: '2026-11-20T10:00:00Z', error_message: null, test_steps: null },
        { ...base, id: 4, status: 'passed', duration_ms: 900, run_date: '2026-11-19T10:00:00Z', error_message: null, test_steps: '[]' },
      ],
    };
    await page.route('**/api/test-details/**', (route) => {
      const browser = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!);
      const items = answers[browser] ?? [];
      return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ items, total: items.length, page: 1, pageSize: 50 }) });
    });
    await page.goto(`${server.url}#/flaky-tests`);
    const groups = withoutScore as FlakyTestGroup[];
    const shown = groups[real.indexOf(group)]!;

    let dialog = await openDialog(page, groups, shown, first);
    const entry = group.browsers[0]!;
    await expect(dialog.getByTestId('summary-figure').nth(4)).toHaveText(`Flaky Score${((1 - entry.pass_rate) * entry.total_runs).toFixed(1)}`);
    const entries = dialog.getByTestId('history-entry');
    await expect(entries.nth(0).getByTestId('history-status')).toHaveText('SKIPPED');
    await expect(entries.nth(0)).toContainText('Test was skipped and did not run.');
    await expect(entries.nth(1).getByTestId('history-error')).toHaveText('No error details available');
    await expect(entries.nth(1).getByTestId('code-context')).toHaveText('No code context available');
    await entries.nth(1).getByTestId('test-steps').getByRole('button').click();
    await expect(entries.nth(1).getByText('steps were {not json')).toBeVisible();
    // A failure among the runs: no skipped-only note.
    await expect(dialog.getByTestId('skipped-note')).toHaveCount(0);
    await page.keyboard.press('Escape');

    dialog = await openDialog(page, groups, shown, second);
    await expect(dialog.getByTestId('skipped-note')).toHaveText(/skipped rather than failed/);
  });

  test('Trends tab: daily pass-rate chart with reference lines, runs per day, range selector, day slider and trend analysis', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = plainGroup(groups);
    const browser = group.browsers[0]!.browser;
    const stats = await statsOf(page, group, browser);
    expect(stats.length).toBeGreaterThan(7);
    const dialog = await openDialog(page, groups, group, browser);
    await dialog.getByRole('tab', { name: 'Trends' }).click();

    await expect(dialog.getByRole('radio', { name: 'All time' })).toBeChecked();
    const chart = dialog.getByTestId('pass-rate-chart');
    await expect(chart.locator('svg.recharts-surface')).toBeVisible();
    await expect(chart.getByText('Minor flakiness (80%)')).toBeVisible();
    await expect(chart.getByText('Moderate flakiness (50%)')).toBeVisible();
    await expect(dialog.getByTestId('runs-chart').locator('svg.recharts-surface')).toBeVisible();

    const analysisText = (days: DailyStat[]) => {
      const a = trendAnalysis(days.map((d) => d.pass_rate * 100));
      return [a.direction, `${a.slope > 0 ? '+' : ''}${a.slope.toFixed(1)}% per day`, a.volatilityLevel, `${a.recent.toFixed(1)}%`];
    };
    const panel = dialog.getByTestId('trend-analysis');
    for (const text of analysisText(stats)) await expect(panel).toContainText(text);
    const slider = dialog.getByTestId('day-slider');
    await expect(slider).toContainText(`Days shown: ${stats[0]!.date} to ${stats[stats.length - 1]!.date} (${stats.length} of ${stats.length})`);
    // Tall enough for the whole tab: the dialog scrolls inside the viewport.
    await page.setViewportSize({ width: 1440, height: 1500 });
    await shootBothThemes(page, 'flaky-dialog-trends', { fullPage: false });

    // The slider narrows the days the chart and the analysis use.
    await dialog.getByRole('slider', { name: 'First day shown' }).focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    await expect(slider).toContainText(`Days shown: ${stats[3]!.date} to ${stats[stats.length - 1]!.date} (${stats.length - 3} of ${stats.length})`);
    for (const text of analysisText(stats.slice(3))) await expect(panel).toContainText(text);

    // The last 7 days: no slider at 7 days or fewer.
    await dialog.getByText('Last 7 days', { exact: true }).click();
    await expect(dialog.getByRole('radio', { name: 'Last 7 days' })).toBeChecked();
    await expect(dialog.getByTestId('day-slider')).toHaveCount(0);
    const today = new Date();
    const cutoff = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 6)).toISOString().slice(0, 10);
    const recent = stats.filter((s) => s.date >= cutoff);
    for (const text of analysisText(recent)) await expect(panel).toContainText(text);
  });

  test('Export CSV downloads the days with the exact header under the title plus browser name', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = plainGroup(groups);
    const browser = group.browsers[0]!.browser;
    const stats = await statsOf(page, group, browser);
    const dialog = await openDialog(page, groups, group, browser);
    await dialog.getByRole('tab', { name: 'Trends' }).click();
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${group.test_title.replace(/ +/g, '_')}_${browser}_trends.csv`);
    const lines = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date,Pass Rate (%),Total Runs,Passed,Failed,Avg Duration (ms)');
    expect(lines).toHaveLength(stats.length + 1);
    const s = stats[0]!;
    expect(lines[1]).toBe(`${s.date},${(s.pass_rate * 100).toFixed(1)},${s.total_runs},${s.passed_runs},${s.failed_runs},${Math.round(s.avg_duration)}`);
  });

  test('Export PNG downloads a real PNG of the chart', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = plainGroup(groups);
    const browser = group.browsers[0]!.browser;
    const dialog = await openDialog(page, groups, group, browser);
    await dialog.getByRole('tab', { name: 'Trends' }).click();
    // A flat line has no height, so "visible" would never hold: wait for it to be drawn.
    await expect(dialog.getByTestId('pass-rate-chart').locator('svg.recharts-surface path.recharts-curve').first()).toBeAttached();
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export PNG' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${group.test_title.replace(/ +/g, '_')}_${browser}_trends.png`);
    const bytes = readFileSync((await download.path())!);
    // Kept beside the screenshots for a person to look at.
    await download.saveAs('test-results/screens/flaky-export.png');
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    expect(width).toBeGreaterThan(800);
    expect(height).toBeGreaterThan(300);
    // Decoded, it is a chart, not a blank: many colours, and the line's indigo among them.
    const colours = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const seen = new Set<number>();
      let bluish = 0;
      for (let i = 0; i < data.length; i += 4) {
        seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        if (data[i + 2]! > 180 && data[i]! < 120 && data[i + 1]! < 140) bluish += 1;
      }
      return { distinct: seen.size, bluish };
    }, bytes.toString('base64'));
    expect(colours.distinct).toBeGreaterThan(20);
    expect(colours.bluish).toBeGreaterThan(200);
  });

  test('without daily stats: the empty state, Graph not found on Export PNG, a header-only CSV; a stats failure shows the same', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = plainGroup(groups);
    const [first, second] = [group.browsers[0]!.browser, group.browsers[1]!.browser];
    await page.route('**/daily-stats', (route) =>
      route.request().url().includes(`/${first}/`) ? route.fulfill({ contentType: 'application/json', body: '[]' }) : route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    let dialog = await openDialog(page, groups, group, first);
    await dialog.getByRole('tab', { name: 'Trends' }).click();
    await expect(dialog.getByTestId('trends-empty')).toHaveText('No daily statistics available for this test.');
    expect(await alertFrom(page, () => dialog.getByRole('button', { name: 'Export PNG' }).click())).toBe('Graph not found. Please make sure the trends tab is open.');
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export CSV' }).click();
    expect(readFileSync((await (await downloading).path())!, 'utf8')).toBe('Date,Pass Rate (%),Total Runs,Passed,Failed,Avg Duration (ms)\r\n');
    await page.keyboard.press('Escape');

    dialog = await openDialog(page, groups, group, second);
    await dialog.getByRole('tab', { name: 'Trends' }).click();
    await expect(dialog.getByTestId('trends-empty')).toHaveText('No daily statistics available for this test.');
  });

  test('Export PNG says a screenshot is needed when the browser cannot make the image', async ({ page, demo }) => {
    await page.addInitScript(() => {
      // A browser without canvas encoding.
      Object.defineProperty(HTMLCanvasElement.prototype, 'toBlob', { value: undefined });
    });
    const { groups } = await openFlaky(page, demo);
    const group = plainGroup(groups);
    const dialog = await openDialog(page, groups, group, group.browsers[0]!.browser);
    await dialog.getByRole('tab', { name: 'Trends' }).click();
    await expect(dialog.getByTestId('pass-rate-chart').locator('svg.recharts-surface')).toBeVisible();
    expect(await alertFrom(page, () => dialog.getByRole('button', { name: 'Export PNG' }).click())).toBe(
      'PNG export requires html2canvas library. Please take a screenshot manually or install the library.',
    );
  });

  test('AI Analysis: Ready to Analyze, Analyzing... while busy, then the sections of the local engine and Regenerate Analysis', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = groups[0]!;
    const entry = group.browsers[0]!;
    const history = await historyOf(page, group, entry.browser);
    const dialog = await openDialog(page, groups, group, entry.browser);
    await expect(dialog.getByTestId('history-entry').first()).toBeVisible();
    await dialog.getByRole('tab', { name: 'AI Analysis' }).click();
    await expect(dialog.getByText('Ready to Analyze')).toBeVisible();

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let body: AiAnalysisRequest | undefined;
    await page.route('**/api/ai-analysis', async (route) => {
      body = route.request().postDataJSON() as AiAnalysisRequest;
      await held;
      await route.continue();
    });
    const answered = page.waitForResponse('**/api/ai-analysis');
    await dialog.getByRole('button', { name: 'Analyze Test' }).click();
    await expect(dialog.getByRole('button', { name: 'Analyzing...' })).toBeDisabled();
    release();
    const result = (await (await answered).json()) as AiAnalysisResult;

    expect(body!.testSummary).toEqual({ testTitle: group.test_title, browser: entry.browser, passRate: entry.pass_rate, totalRuns: entry.total_runs, failedRuns: entry.failed_runs });
    expect(body!.recentResults).toHaveLength(Math.min(history.length, 200));
    const h = history[0]!;
    expect(body!.recentResults[0]).toEqual({ status: h.status, duration: h.duration_ms, errorMessage: h.error_message, errorLocation: h.error_location, errorStack: h.error_stack, codeSnippet: h.error_snippet, testSteps: h.test_steps, testFile: h.test_file, runDate: h.run_date });

    const view = dialog.getByTestId('ai-result');
    await expect(dialog.getByRole('button', { name: 'Regenerate Analysis' })).toBeEnabled();
    const sections = ['Pattern Analysis', 'Likely Root Cause', 'Evidence', 'Recommended Fixes', ...(result.browserNotes === NO_BROWSER_PATTERNS ? [] : ['Browser-Specific Notes']), 'Analysis Confidence'];
    await expect(view.getByTestId('ai-section').getByRole('heading')).toHaveText(sections);
    // Flaky or not, first and in plain words.
    await expect(view.getByTestId('ai-stability')).toHaveText(result.stabilityText);
    await expect(view.getByTestId('ai-stability')).toHaveAttribute('data-stability', result.stability);
    expect(result.stabilityText.startsWith('Flaky:')).toBe(result.stability === 'flaky');
    await expect(view.getByTestId('ai-section').first().getByRole('listitem')).toHaveText(result.patterns);
    await expect(view).toContainText(result.rootCause);
    // The diagnosis: the cause class in words, and the evidence behind it with links to its runs.
    await expect(view.getByTestId('ai-cause-class')).toHaveText(CAUSE_LABELS[result.causeClass]);
    expect(result.evidence.length).toBeGreaterThan(0);
    const claims = view.getByTestId('ai-evidence');
    await expect(claims).toHaveCount(result.evidence.length);
    for (const [i, item] of result.evidence.entries()) await expect(claims.nth(i)).toContainText(item.claim);
    const linked = result.evidence.flatMap((item) => item.runs.slice(-6)).filter((r) => r.runId !== null);
    expect(linked.length).toBeGreaterThan(0);
    await expect(view.getByTestId('ai-evidence-run').first()).toHaveAttribute('href', new RegExp(`/upload/${linked[0]!.runId}$`));
    await expect(view.getByTestId('ai-low-confidence')).toHaveCount(result.confidence < LOW_CONFIDENCE ? 1 : 0);
    await expect(view.getByTestId('ai-confidence')).toHaveText(`${Math.round(result.confidence * 100)}%`);
    await expect(view.getByTestId('ai-generated')).toContainText('by the local rules engine in');
    expect(result.engine).toBe('local');
    const withCode = result.recommendations.filter((r) => typeof r !== 'string' && r.codeExample);
    await expect(view.locator('pre')).toHaveCount(withCode.length);
    await page.setViewportSize({ width: 1440, height: 1800 });
    await shootBothThemes(page, 'flaky-dialog-ai', { fullPage: false });
    // The evidence's run links and error lines wrap on a phone.
    await page.setViewportSize({ width: 390, height: 1600 });
    await view.getByText('Evidence', { exact: true }).scrollIntoViewIfNeeded();
    await shootBothThemes(page, 'flaky-dialog-ai-390', { fullPage: false });

    // Regenerate asks again.
    const again = page.waitForResponse('**/api/ai-analysis');
    await dialog.getByRole('button', { name: 'Regenerate Analysis' }).click();
    await again;
    await expect(dialog.getByRole('button', { name: 'Regenerate Analysis' })).toBeEnabled();
  });

  test("AI Analysis of a flaky test with stored traces: Flaky in plain words first, and each trace claim opens the trace with its moment named", async ({ page, flakeboard, context }) => {
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [EVIDENCE_REPORT], approve: true }] });
    await signIn(page, server, { hash: '/flaky-tests' });
    await page.getByTestId('flaky-group').first().getByTestId('group-details').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('history-entry').first()).toBeVisible();
    await dialog.getByRole('tab', { name: 'AI Analysis' }).click();
    const answered = page.waitForResponse('**/api/ai-analysis');
    await dialog.getByRole('button', { name: 'Analyze Test' }).click();
    const result = (await (await answered).json()) as AiAnalysisResult;
    const view = dialog.getByTestId('ai-result');
    await expect(view.getByTestId('ai-stability')).toHaveText(/^Flaky: failed, then passed on retry of the same code \(1 of 1 failing run\)$/);
    const traced = result.evidence.filter((e) => e.trace);
    expect(traced.length).toBeGreaterThan(0);
    await expect(view.getByTestId('ai-open-in-trace')).toHaveCount(traced.length);
    // The viewer opens on the failed action; the others are named with their time.
    const failedAction = view.getByTestId('ai-trace-moment').filter({ hasText: 'the viewer opens on it' }).first();
    await expect(failedAction).toContainText(/^Open in traceat \d+\.\d\d s: /);
    await page.setViewportSize({ width: 1440, height: 1800 });
    await view.getByText('Evidence', { exact: true }).scrollIntoViewIfNeeded();
    await picture(page, 'flaky-dialog-ai-trace-1440');
    await page.setViewportSize({ width: 390, height: 900 });
    await view.getByTestId('ai-stability').scrollIntoViewIfNeeded();
    await picture(page, 'flaky-dialog-ai-stability-390');
    await page.setViewportSize({ width: 390, height: 1600 });
    await failedAction.scrollIntoViewIfNeeded();
    await picture(page, 'flaky-dialog-ai-trace-390');
    const [viewer] = await Promise.all([context.waitForEvent('page'), failedAction.getByTestId('ai-open-in-trace').click()]);
    await viewer.waitForLoadState();
    expect(new URL(viewer.url()).pathname).toBe('/trace/index.html');
    // Through the signed link: the trace itself, not the session, opens it.
    expect(decodeURIComponent(new URL(viewer.url()).searchParams.get('trace')!)).toMatch(new RegExp(`^/api/evidence/${traced[0]!.trace!.sha256}/trace\\.zip\\?expires=\\d+&signature=`));
    await expect(viewer.getByText(traced.find((e) => e.trace!.failedAction)!.trace!.action!.split(' on ')[0]!).first()).toBeVisible();
  });

  test('AI Analysis alerts when the call fails, and before the test details have loaded', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = groups[1]!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/test-details/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.route('**/api/ai-analysis', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
    const dialog = await openDialog(page, groups, group, group.browsers[0]!.browser);
    await expect(dialog.getByText('Loading test history...')).toBeVisible();
    await dialog.getByRole('tab', { name: 'AI Analysis' }).click();

    expect(await alertFrom(page, () => dialog.getByRole('button', { name: 'Analyze Test' }).click())).toBe('Please wait for test details to load before generating analysis.');

    release();
    await dialog.getByRole('tab', { name: 'Test History' }).click();
    await expect(dialog.getByTestId('history-entry').first()).toBeVisible();
    await dialog.getByRole('tab', { name: 'AI Analysis' }).click();
    expect(await alertFrom(page, () => dialog.getByRole('button', { name: 'Analyze Test' }).click())).toBe('Failed to generate AI analysis. Please try again.');
    await expect(dialog.getByRole('button', { name: 'Analyze Test' })).toBeEnabled();
    await expect(dialog.getByText('Ready to Analyze')).toBeVisible();
  });

  test('report text is inert: a title, error, snippet and step carrying markup render as text', async ({ page, flakeboard }) => {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-xss-'));
    try {
      const { report, title, error } = xssReport();
      const path = join(dir, 'xss-report.json');
      writeFileSync(path, JSON.stringify(report));
      const { groups } = await openFlaky(page, flakeboard, { template: 'empty', imports: [{ paths: [path], approve: true }] });
      expect(groups.map((g) => g.test_title)).toEqual([title]);

      await expect(page.getByTestId('group-title')).toHaveText(title);
      const dialog = await openDialog(page, groups, groups[0]!, 'chromium');
      const entry = dialog.getByTestId('history-entry').first();
      await expect(entry.getByTestId('history-error')).toHaveText(error.message);
      await expect(entry.getByTestId('code-context')).toContainText('<img src=x onerror="window.__xss=3">');
      await entry.getByTestId('test-steps').getByRole('button').click();
      await expect(entry.getByText('<img src=x onerror="window.__xss=5">', { exact: false })).toBeVisible();
      await dialog.getByRole('tab', { name: 'AI Analysis' }).click();
      await dialog.getByRole('button', { name: 'Analyze Test' }).click();
      await expect(dialog.getByTestId('ai-result')).toBeVisible();

      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      await expect(page.locator('script', { hasText: '__xss' })).toHaveCount(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Test History asks for this file\'s test, a page at a time: "Showing N of M runs" and older runs on demand', async ({ page, demo }) => {
    const { groups } = await openFlaky(page, demo);
    const group = groups.find((g) => g.browsers.some((b) => b.total_runs > 50))!;
    expect(group).toBeDefined();
    const entry = group.browsers.find((b) => b.total_runs > 50)!;
    // The history is the test's whole history, not the screen's window (near midnight UTC the
    // demo's oldest runs fall outside the 30 days): its own total counts them.
    const all = await page.evaluate(
      async ([title, browser, file]) =>
        (await (await fetch(`/api/test-details/${encodeURIComponent(title)}/${encodeURIComponent(browser)}?file=${encodeURIComponent(file)}&page=1&pageSize=200`, { headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}` } })).json()) as { items: Array<{ id: number; test_file: string }>; total: number },
      [group.test_title, entry.browser, group.test_file] as const,
    );
    expect(all.total).toBeGreaterThanOrEqual(entry.total_runs);
    const asked = page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname.startsWith('/api/test-details/') && url.searchParams.get('file') === group.test_file;
    });
    const dialog = await openDialog(page, groups, group, entry.browser);
    await asked;
    const entries = dialog.getByTestId('history-entry');
    await expect(entries).toHaveCount(50);
    await expect(dialog.getByTestId('history-pager')).toContainText(`Showing 50 of ${all.total} runs`);
    await dialog.getByRole('button', { name: 'Show older runs' }).click();
    await expect(entries).toHaveCount(Math.min(100, all.total));
    await expect(dialog.getByTestId('history-pager')).toContainText(`Showing ${Math.min(100, all.total)} of ${all.total} runs`);
    expect(all.items.every((r) => r.test_file === group.test_file)).toBe(true);
    await expect(entries.last()).toHaveAttribute('data-result-id', String(all.items[Math.min(100, all.total) - 1]!.id));
  });
});
