/**
 * The explanation and the fix of each cause class, in plain words, filled in from the facts of
 * the diagnosis (the locator, the timeout and its value, the port, the status, the message).
 * Every fact quoted here was read from the error text and is an excerpt, redacted.
 */
import type { AiRecommendationDetail } from '../../core/api/ai.js';
import type { Diagnosis } from './diagnose.js';
import { quoted, seconds } from './error-text.js';
import type { FailureReading } from './failure-reading.js';

const SAFE_LOCATOR = /^(?:locator|getBy\w{1,20})\([^\n`$]{1,100}\)$/;
const code = (locator: string | null | undefined, fallback: string): string => (locator && SAFE_LOCATOR.test(locator) ? `page.${locator}` : fallback);
// Seconds and milliseconds both, except under a second, where they would say the same twice.
const timeoutText = (r: FailureReading | null): string => (r?.timeout ? `the ${r.timeout.kind} timeout of ${seconds(r.timeout.ms)}${r.timeout.ms >= 1000 ? ` (${r.timeout.ms} ms)` : ''}` : 'its timeout');
const inStep = (step: string | null): string => (step ? ` in step ${quoted(step)}` : '');
const pathOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
};

/** The cause, one or two sentences, for the class the diagnosis chose. */
export function causeText(d: Diagnosis, browser: string): string {
  const r = d.reading;
  const locator = r?.locator ?? 'the element';
  switch (d.causeClass) {
    case 'assertion-mismatch': {
      const got = `${r?.locator ? `${r.locator} ` : 'the assertion '}received ${r?.received ?? 'another value'}${r?.expected ? ` where ${r.expected} was expected` : ''}${inStep(d.step)}, the same value in every failing run${retriesKnown(d) ? ' and on every retry' : ''}`;
      // The same code also passed: the value is not the app's or the test's to decide alone.
      if (d.mixedCommits > 0) {
        return `The value the test checks is not decided by the code: ${got}, yet it passed on the same commit (${d.mixedCommits} ${d.mixedCommits === 1 ? 'commit' : 'commits'}). Something else picks it from run to run: a random value (Math.random(), generated test data), the clock or time zone, or data another test leaves behind.`;
      }
      return `The app or the expectation changed: ${got}. This is not a race: update the test if the new value is right, or fix the app if it is not.`;
    }
    case 'locator-missing':
      return `${locator} never matched anything in any run${retriesKnown(d) ? ' or retry' : ''}: the element was removed or renamed (its role, name, label or test id changed). ${cap(timeoutText(r))} ran out every time${inStep(d.step)}; waiting longer will not help.`;
    case 'locator-late':
      if (r?.found && d.rescued === 0) {
        return `${locator} was found but stayed ${r.notReady ?? 'not ready'} until ${timeoutText(r)} ran out${inStep(d.step)}, and no retry got past it: something keeps it ${r.notReady ?? 'not ready'} (the layout at this viewport, the page's state, another element), or it becomes ready later than the limit.`;
      }
      return `${locator} was found late: ${r?.found ? `it was on the page but ${r.notReady ?? 'not ready'} until after` : 'it appeared only after'} ${timeoutText(r)}${d.rescued > 0 ? `, and a retry passed (${d.rescued} of ${d.failures.length} failing runs)` : ' in some runs'}${inStep(d.step)}. The page renders or enables it late; the test races that.`;
    case 'project-only': {
      const p = d.project!;
      const differs = p.settings.length > 0 ? p.settings.map((s) => `${s.setting} (${s.value}, where the others have ${s.others})`).join(' and ') : 'a project setting (viewport, isMobile, colorScheme, browserName or deviceScaleFactor; compare the projects\u2019 use blocks)';
      const what = r ? ` There ${failureInWords(r)}.` : '';
      return `Fails only in the ${p.failing.browser} project (${p.failing.failedEveryAttempt} of ${p.failing.runs} runs, every retry), while ${p.passing.map((t) => t.browser).join(' and ')} pass: the cause is what differs in that project, ${differs}.${what}`;
    }
    case 'network-refused':
      return `The connection to ${hostPort(r)} was refused${r?.port ? ` (port ${r.port})` : ''}: nothing was listening there when the test ran${inStep(d.step)}. The server or service it needs was not started, crashed, or listens on another port.`;
    case 'http-status':
      return `The app answered HTTP ${r?.status ?? 'an error status'} to ${r?.method ? `${r.method} ` : ''}${r?.url ?? 'a request'}${pathOf(r?.url ?? null) && r?.url !== pathOf(r?.url ?? null) ? ` (path ${pathOf(r!.url)})` : ''}${inStep(d.step)}: the server returned an error, so the failure is in the server or its data, not in the page.`;
    case 'slow-response':
      return `${r?.url ?? 'The server'} answered too slowly: ${timeoutText(r)} ran out before the response came${inStep(d.step)}. A slow response (server, network or a cold start), not a missing element.`;
    case 'protocol-error':
      return `A browser protocol error${r?.thrown ? ` (${r.thrown})` : ''}: the browser refused a low-level call${r?.reason ? `, saying ${quoted(r.reason)}` : ''}${inStep(d.step)}. ${
        staleReference(r)
          ? 'The node, frame or target it named no longer existed: the test holds a reference (a node id, a frame) after the page replaced or removed it.'
          : 'The call or its parameters do not fit this browser (a wrong value, or a protocol that changed between versions).'
      }`;
    case 'thrown-error':
      return `The test or the app threw an error, and its message is the cause: ${quoted(r?.thrown ?? 'an error')}${inStep(d.step)}. It is the same error in ${Math.round(d.agreement * d.failures.length)} of ${d.failures.length} failures.`;
    case 'unexpected-pass':
      return `Expected to fail but passed: the test is marked test.fail() (expectedStatus "failed"), and it passed in ${d.failures.length} ${d.failures.length === 1 ? 'run' : 'runs'}. The bug it documents was probably fixed: remove the test.fail() mark.`;
    case 'test-timeout':
      return `The test timeout of ${r?.timeout ? `${seconds(r.timeout.ms)} (${r.timeout.ms} ms)` : 'the test'} ran out${d.step ? ` while it was in step ${quoted(d.step)}` : ''}${r?.locator ? `, waiting for ${r.locator}` : ''}: something ${d.step ? 'that step' : 'the test'} waits for did not happen in time, or the work takes about as long as the limit.`;
    case 'closed-page':
      return `The page, context or browser was closed before the test used it${r?.thrown ? ` (${r.thrown})` : ''}${inStep(d.step)}: the test or a popup closed it, or an action was not awaited and ran after the close.`;
    case 'strict-mode':
      return `Strict-mode violation: ${r?.locator ?? 'the locator'} matched ${r?.matched ?? 'several'} elements where the action or assertion needs exactly one${inStep(d.step)}. The locator is ambiguous; make it name one element.`;
    case 'snapshot-mismatch':
      return `The value differs from the committed snapshot${r?.thrown ? ` ${r.thrown}` : ''}${inStep(d.step)}: either the app changed (update the snapshot if the change is right) or it renders something it should not.`;
    default:
      return `Not sure: ${d.doubt ?? 'the evidence does not decide'}.${r && r.kind !== 'none' ? ` The latest failure on ${browser}: ${failureInWords(r)}.` : ''}`;
  }
}

/** Whether the failures' retries are known (stored history): the rows the page sends do not say. */
const retriesKnown = (d: Diagnosis): boolean => d.failures.some((f) => f.retries !== null);

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function hostPort(r: FailureReading | null): string {
  if (!r?.url) return r?.port ? `port ${r.port}` : 'the server';
  try {
    return new URL(r.url).host;
  } catch {
    return r.url;
  }
}

/** One failure, in a clause ("it waited for X until the 1.5 s action timeout"). */
function failureInWords(r: FailureReading): string {
  switch (r.kind) {
    case 'locator-wait':
      return `it waited for ${r.locator ?? 'an element'}${r.found ? (r.ready ? ', which was there and ready' : `, which was there but ${r.notReady ?? 'not ready'}`) : ', which never appeared'}, until ${timeoutText(r)} ran out`;
    case 'assertion-mismatch':
      return `the assertion received ${r.received ?? 'another value'}${r.expected ? ` where ${r.expected} was expected` : ''}`;
    case 'thrown-error':
      return `it threw ${quoted(r.thrown ?? 'an error')}`;
    case 'wait-timeout':
      return `${r.thrown ?? 'a wait'} ran out of ${timeoutText(r)}`;
    default:
      return r.lines[0] ? `it failed with ${quoted(r.lines[0])}` : 'it failed without a message';
  }
}

/** A protocol refusal about something gone (a node, frame, context, target), or one without a reason. */
function staleReference(r: FailureReading | null): boolean {
  return !r?.reason || /\b(?:could not find|cannot find|no node|not found|detached|no longer|does not exist|closed)\b/i.test(r.reason);
}

/** The fixes of the class, most direct first. */
export function causeFixes(d: Diagnosis): AiRecommendationDetail[] {
  const r = d.reading;
  const loc = code(r?.locator, "page.getByRole('button', { name: 'Save' })");
  switch (d.causeClass) {
    case 'assertion-mismatch':
      if (d.mixedCommits > 0) {
        return [{ title: 'Fix the input that varies between runs', description: 'The same code passes and fails with this value: find what feeds it (a random number, the current time, shared data) and make it fixed in the test: seed or stub the random source, set the clock, give the test its own data.', codeExample: `await page.addInitScript(() => { Math.random = () => 0.42; });\nawait page.clock.setFixedTime(new Date('2026-01-01T10:00:00Z'));` }];
      }
      return [{ title: 'Decide which side changed: the app or the expectation', description: `The assertion gets ${r?.received ?? 'the same other value'} every time. Check the commit where it started failing: if the new value is intended, update the expected value; if not, it is a bug in the app.`, codeExample: `git log -p --since='…' -- <the component that renders it>` }];
    case 'locator-missing':
      return [{ title: `Find what ${r?.locator ?? 'the locator'} is called now`, description: 'The element is not there under this locator in any run. Open the page (or a trace) and pick it again with the codegen locator picker; prefer role, label or test id.', codeExample: `npx playwright codegen <url of the page>\n// then: await expect(page.getByRole('button', { name: '…' })).toBeVisible();` }];
    case 'locator-late':
      return [{ title: 'Wait for what makes the element ready, not for time', description: `It comes after ${timeoutText(r)}. Wait for the request or state that renders or enables it, or assert with a web-first expect that retries; raise that one timeout only if the page is really that slow.`, codeExample: `await expect(${loc}).toBeVisible();\nawait expect(${loc}).toBeEnabled();\nawait ${loc}.click();` }];
    case 'project-only':
      return [{ title: `Reproduce on ${d.project!.failing.browser} alone`, description: `Run only that project with the trace on, and compare what the page does under its settings${d.project!.settings.length ? ` (${d.project!.settings.map((s) => s.setting).join(', ')})` : ''}. Fix the page for that setting, or make the test take it into account.`, codeExample: `npx playwright test --project=${JSON.stringify(/^[A-Za-z0-9 _.-]{1,40}$/.test(d.project!.failing.browser) ? d.project!.failing.browser : 'name')} --trace on` }];
    case 'network-refused':
      return [{ title: `Start what listens on ${r?.port ? `port ${r.port}` : 'that port'} before the tests`, description: 'A refused connection is the environment, not the test. Let Playwright start the service (webServer) and wait until its URL answers, or point the test at the right port.', codeExample: `// playwright.config.ts\nwebServer: { command: 'npm run start', port: ${r?.port ?? 3000}, reuseExistingServer: !process.env.CI },` }];
    case 'http-status':
      return [{ title: `Look at why the server answers ${r?.status ?? 'an error'}`, description: `${pathOf(r?.url ?? null) ?? 'The URL'} answers an error status: read the server log of that request, or check the test data it needs. A 404 is a wrong path or missing record; a 5xx an error in the server.`, codeExample: `const response = await request.get('${pathOf(r?.url ?? null) ?? '/api/…'}');\nexpect(response.status(), await response.text()).toBe(200);` }];
    case 'slow-response':
      return [{ title: 'Make the slow response fast, or wait for it on purpose', description: `It answers after ${timeoutText(r)}. Find why it is slow (server, data, cold start); if it is legitimately slow, give that one call a longer timeout, or stub it when the test is about the UI.`, codeExample: r?.timeout?.kind === 'navigation' ? `await page.goto(url, { timeout: 10_000, waitUntil: 'domcontentloaded' });` : `await page.route('**${pathOf(r?.url ?? null) ?? '/api/…'}', (route) => route.fulfill({ json: {} }));` }];
    case 'protocol-error':
      if (!staleReference(r)) return [{ title: `Check the ${r?.thrown ?? 'protocol'} call against this browser's protocol`, description: `The browser rejected the call itself${r?.reason ? ` (${quoted(r.reason)})` : ''}: compare its parameters with the Chrome DevTools Protocol of this browser version, or use a Playwright API instead of a raw protocol call.`, codeExample: `// https://chromedevtools.github.io/devtools-protocol/\nawait page.keyboard.press('A'); // rather than Input.dispatchKeyEvent` }];
      return [{ title: 'Re-query the node or frame after the page changes it', description: 'Do not keep node ids, element handles or frames across a re-render or navigation; use locators, which resolve again each time.', codeExample: `const frame = page.frameLocator('#preview');\nawait expect(frame.getByRole('heading')).toBeVisible();` }];
    case 'thrown-error':
      return [{ title: 'Fix what the message says', description: `The error ${quoted(r?.thrown ?? '…')} comes from the test or the app code, the same way each time. Find where it is thrown (the stack in the Test History tab) and fix that code or the data it needs.` }];
    case 'unexpected-pass':
      return [{ title: 'Remove test.fail() now that it passes', description: 'test.fail() marks a known bug; when the test passes, the bug is gone (or the test no longer checks it). Remove the mark, or make the test check the bug again.', codeExample: `test('…', async ({ page }) => {\n  // test.fail();  <- remove\n});` }];
    case 'test-timeout':
      return [{ title: d.step ? `Find what step ${quoted(d.step)} waits for` : 'Find the step that uses up the test timeout', description: 'Give the waits inside that step their own shorter timeouts so the failure names what never came; raise the test timeout (test.slow()) only if the work is really that long.', codeExample: `await expect(${loc}).toBeVisible({ timeout: 5_000 });\n// only when the test is legitimately long:\ntest.slow();` }];
    case 'closed-page':
      return [{ title: 'Await every action, and do not use a page after closing it', description: 'Check what closes the page, popup or context (the test, a fixture, the app) and that every action before it is awaited.', codeExample: `// eslint: "@typescript-eslint/no-floating-promises": "error"\nconst popup = await page.waitForEvent('popup');\nawait popup.waitForLoadState();` }];
    case 'strict-mode':
      return [{ title: `Make ${r?.locator ?? 'the locator'} match one element`, description: `It matches ${r?.matched ?? 'several'} elements. Narrow it by role and exact name, by the row or section it is in, or pick one deliberately.`, codeExample: `page.getByRole('row', { name: '…' }).getByRole('button', { name: 'Edit' })\npage.getByRole('button', { name: 'Save', exact: true })` }];
    case 'snapshot-mismatch':
      return [{ title: 'Review the snapshot diff, then update or fix', description: 'If the new output is right, update the snapshot in its own commit; if not, the app regressed.', codeExample: `npx playwright test --update-snapshots -g '…'` }];
    default:
      return [{ title: 'Collect more evidence before changing the test', description: 'Turn on retries and traces for failures so the next ones show whether the same thing happens again, and look at the failing runs in the Test History tab.', codeExample: `// playwright.config.ts\nuse: { trace: 'retain-on-failure' },\nretries: 2,` }];
  }
}
