import { defineConfig } from '@playwright/test';
import { chromiumPath } from '../fixtures/testing/chromium.js';

/**
 * Browser tests: the built product (`npm run build` first) served by the real binary on a free
 * port, one database per test, in Debian's Chromium (Playwright cannot download browsers here):
 * its headless shell when installed, else the full browser (fixtures/testing/chromium.ts).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results/playwright',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  // A flaky test in a tool about flaky tests is a bug to fix, not to retry.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: '../test-results/playwright-report' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
    colorScheme: 'light',
    // As someone whose system asks for reduced motion: dialogs, menus and folding rows appear at
    // once (docs/screens.md, "Motion"). Their transitions were drawn frame by frame in software:
    // eight openings and closings of the flaky dialog cost Chromium 8.8 s of CPU with them and 5.3 s
    // without. flaky-dialog.spec.ts keeps one test on the transitions.
    reducedMotion: 'reduce',
    acceptDownloads: true,
    // No trace is recorded: recording one (the page's DOM at every step) cost about a sixth of
    // the browser tests' CPU, in every passing test. A failed test keeps its screenshot and its
    // error context (the page's accessibility tree at the failure); for its trace, run the
    // failures again with one: `npm run test:e2e -- --last-failed --trace on` (docs/testing.md).
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
