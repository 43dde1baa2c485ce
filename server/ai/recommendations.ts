/**
 * Recommended fixes, most specific first: anti-patterns found in the code, then the dominant
 * error category (with the locator or URL involved), then what the history says (a regression
 * to bisect, a browser to investigate), and retries last, as a stop-gap only.
 */
import type { AiRecommendationDetail } from '../../core/api/ai.js';
import type { ErrorCategory } from '../../core/errors/categories.js';
import { shortCommit } from './error-text.js';
import type { Signals } from './signals.js';

const MAX_RECOMMENDATIONS = 6;
const SAFE_LOCATOR = /^(?:locator|getBy\w+)\([^\n`$]{1,100}\)$/;
const SAFE_URL = /^https?:\/\/[^\s'"`$\\]{1,120}$/;
const SAFE_PROJECT = /^[A-Za-z0-9 _.-]{1,40}$/;

export interface RecommendationContext {
  signals: Signals;
  flaky: boolean;
  broken: boolean;
}

export function recommendFixes(ctx: RecommendationContext): AiRecommendationDetail[] {
  const { signals } = ctx;
  const out: AiRecommendationDetail[] = signals.antiPatterns.map((a) => a.recommendation);
  const dominant = signals.categories[0]?.value;
  if (dominant) out.push(...forCategory(dominant, signals));
  const start = signals.start;
  if (ctx.broken && start?.kind === 'broken-since' && start.commit) {
    const range = start.previousCommit && start.previousCommit !== start.commit ? `${hex(start.previousCommit)}..${hex(start.commit)}` : null;
    out.push({
      title: `Look at what changed at ${shortCommit(start.commit)}`,
      description:
        start.previousCommit === start.commit
          ? 'The failures began on a commit that had passed before, so the code did not change: look at the environment, test data or a dependency that changed that day.'
          : 'The test passed steadily before this commit and has failed every run since: the change it brought (to the app or the test) is the first suspect.',
      ...(range && /^[0-9a-f]+\.\.[0-9a-f]+$/i.test(range) ? { codeExample: `git log --stat ${range}\ngit bisect start ${hex(start.commit)} ${hex(start.previousCommit!)}` } : {}),
    });
  }
  const odd = signals.browsers.specific ?? signals.browsers.skewed;
  if (odd) {
    const project = SAFE_PROJECT.test(odd.browser) ? odd.browser : null;
    out.push({
      title: `Reproduce on ${odd.browser} alone`,
      description: `The failures concentrate on ${odd.browser}. Run only that project with the trace on to see what the engine does differently; until it is fixed, mark the test for that browser so the others keep their signal.`,
      codeExample: (project ? `npx playwright test --project=${JSON.stringify(project)} --trace on -g '…test title…'\n\n` : '') + skipOn(odd.browser),
    });
  }
  if (ctx.flaky) {
    out.push({
      title: 'Stop-gap only: retries while the race is fixed',
      description:
        'Retries hide the failure from CI but not the cost (a slower suite, a bug that may be real). Use them for this test only, and keep it visible here until the cause above is fixed.',
      codeExample: `test.describe.configure({ retries: 2 });`,
    });
  }
  const seen = new Set<string>();
  return out.filter((r) => !seen.has(r.title) && seen.add(r.title)).slice(0, MAX_RECOMMENDATIONS);
}

/** A stop-gap that keeps the other browsers running the test. */
function skipOn(browser: string): string {
  const name = SAFE_PROJECT.test(browser) ? browser : 'webkit';
  return /^(chromium|firefox|webkit)$/.test(name)
    ? `test('…', async ({ page, browserName }) => {\n  test.fixme(browserName === '${name}', 'Fails only on ${name}: tracked in #…');\n  // …\n});`
    : `test('…', async ({ page }, testInfo) => {\n  test.fixme(testInfo.project.name.toLowerCase() === '${name}', 'Fails only on ${name}: tracked in #…');\n  // …\n});`;
}

function originOf(url: string | null): string {
  try {
    return url ? new URL(url).origin : 'http://localhost:3000';
  } catch {
    return 'http://localhost:3000';
  }
}

const hex = (commit: string): string => (/^[0-9a-f]{7,64}$/i.test(commit) ? commit.slice(0, 12) : 'COMMIT');

function forCategory(category: ErrorCategory, s: Signals): AiRecommendationDetail[] {
  const locator = s.locator && SAFE_LOCATOR.test(s.locator.value) ? `page.${s.locator.value}` : "page.getByRole('button', { name: 'Save' })";
  const url = s.url && SAFE_URL.test(s.url.value) ? s.url.value : null;
  switch (category) {
    case 'Element Wait Timeout':
      return [
        {
          title: s.locator ? `Wait for ${s.locator.value} to be ready before acting` : 'Wait for the element to be ready before acting',
          description: `${s.actionability ? `In the call log ${s.actionability}. ` : ''}Assert the state the action needs (visible, enabled) so the failure says what was missing, and wait for the request or navigation that makes it ready rather than for time.`,
          codeExample: `await expect(${locator}).toBeVisible();\nawait expect(${locator}).toBeEnabled();\nawait ${locator}.click();`,
        },
        {
          title: 'Prefer a user-facing locator that survives re-renders',
          description: 'CSS and text locators match too early, too late or several elements while the page renders. Role, label and test-id locators are unique and stable.',
          codeExample: `page.getByRole('button', { name: 'Place order' })\npage.getByTestId('submit-order')`,
        },
      ];
    case 'Assertion Error':
      return [
        {
          title: 'Assert with a web-first matcher and wait for the data behind it',
          description: `${s.expectedReceived ? `The page showed ${s.expectedReceived.received} where ${s.expectedReceived.expected} was expected. ` : ''}If the value is right after the data arrives, wait for that response; if it differs between runs, the test data is shared or not reset.`,
          codeExample: `const response = page.waitForResponse((r) => r.url().includes('/api/') && r.ok());\nawait page.getByRole('button', { name: 'Apply' }).click();\nawait response;\nawait expect(${locator}).toHaveText('expected value');`,
        },
        stubBackend(),
      ];
    case 'Test Timeout':
      return [
        {
          title: 'Find the step that uses up the test timeout',
          description: `${s.timing.passMedianMs !== null && s.timing.limitMs ? `Passing runs take ${Math.round((s.timing.passMedianMs / s.timing.limitMs) * 100)}% of the ${Math.round(s.timing.limitMs / 1000)} s limit. ` : ''}Open the trace of a failing run: the last action before the timeout is what hung. Give each wait its own shorter timeout so the failure names it; raise the test's budget only if the work is really that long.`,
          codeExample: `await expect(${locator}).toBeVisible({ timeout: 10_000 });\n// Only when the test is legitimately long:\ntest.slow();`,
        },
      ];
    case 'Page Load Timeout':
      return [
        {
          title: `Do not wait for every resource of ${url ?? 'the page'}`,
          description: 'The load event waits for every image, font and third-party script; one slow resource times the navigation out. Wait for the DOM and then for the element the test needs, and stub third-party requests.',
          codeExample: `await page.goto('${url ?? '/checkout'}', { waitUntil: 'domcontentloaded' });\nawait page.route(/analytics|ads|chat-widget/, (route) => route.abort());\nawait expect(${locator}).toBeVisible();`,
        },
      ];
    case 'Navigation Error':
      return [
        {
          title: 'Make sure the app server is up before the tests start',
          description: `${url ? `The browser could not connect to ${url}. ` : ''}A refused connection is the environment, not the test: let Playwright start the server and wait until its URL answers.`,
          codeExample: `// playwright.config.ts\nwebServer: {\n  command: 'npm run start',\n  url: '${originOf(url)}',\n  reuseExistingServer: !process.env.CI,\n  timeout: 120_000,\n},`,
        },
        stubBackend(),
      ];
    case 'Browser Protocol Error':
      return [
        {
          title: 'Look for a missing await or a page closed too early',
          description: '"Target closed" usually means the test (or a fixture) finished or closed the page while an action was still running, or the browser crashed. Await every action and assertion; lint for floating promises.',
          codeExample: `// eslint: "@typescript-eslint/no-floating-promises": "error"\nawait ${locator}.click();\nawait page.waitForURL('**/confirmation');`,
        },
      ];
    default:
      return [
        {
          title: 'Guard the data the test reads and wait for it to arrive',
          description: 'The error comes from the test code itself, typically reading a field of data that was not there yet (or not at all). Wait for the response that provides it and assert on it before use.',
          codeExample: `const response = await page.waitForResponse('**/api/orders/**');\nexpect(response.ok()).toBe(true);\nconst order = await response.json();\nexpect(order.id).toBeDefined();`,
        },
      ];
  }
}

function stubBackend(): AiRecommendationDetail {
  return {
    title: 'Stub the flaky backend call with page.route',
    description: 'When the test is about the UI, a backend that is slow or returns varying data makes it flaky. Serve a fixed response for that request.',
    codeExample: `await page.route('**/api/cart', (route) =>\n  route.fulfill({ json: { items: [{ sku: 'SKU-1042', quantity: 2 }] } }),\n);`,
  };
}
