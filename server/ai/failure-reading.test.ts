/**
 * The failure reader on Playwright error shapes beyond the diagnosis corpus's: other calls,
 * other matchers, https without a port, colour codes. The corpus (diagnosis-accuracy.test.ts)
 * covers the shapes it produces; these check that the rules read the shape, not the corpus.
 */
import { describe, expect, it } from 'vitest';
import { readFailure } from './failure-reading.js';
import { settingsThatDiffer } from './project-settings.js';
import type { BrowserTally } from './evidence.js';

const read = (message: string | null, expectedFailure = false) => readFailure(message, expectedFailure);

describe('readFailure', () => {
  it('reads a refused connection over https without a port as port 443, and ECONNREFUSED host:port', () => {
    expect(read('Error: page.goto: net::ERR_CONNECTION_REFUSED at https://auth.example.test/login\nCall log:\n  - navigating to "https://auth.example.test/login"')).toMatchObject({ kind: 'network-refused', port: 443 });
    expect(read('Error: connect ECONNREFUSED ::1:5432')).toMatchObject({ kind: 'network-refused' });
    expect(read('Error: apiRequestContext.post: connect ECONNREFUSED 10.0.0.7:8080')).toMatchObject({ kind: 'network-refused', port: 8080 });
  });

  it('tells a navigation, a request, a response wait and an element wait apart by the call that timed out', () => {
    expect(read('TimeoutError: page.waitForURL: Timeout 7000ms exceeded.\n=== logs ===\nwaiting for navigation to "**/done"')).toMatchObject({ kind: 'slow-response', timeout: { kind: 'navigation', ms: 7000 } });
    expect(read('TimeoutError: apiRequestContext.fetch: Timeout 2500ms exceeded.\nCall log:\n  - → POST https://api.example.test/v1/orders')).toMatchObject({ kind: 'slow-response', timeout: { kind: 'request', ms: 2500 }, method: 'POST', url: 'https://api.example.test/v1/orders' });
    expect(read('TimeoutError: page.waitForRequest: Timeout 3000ms exceeded while waiting for event "request"\nwaiting for request "**/track"')).toMatchObject({ kind: 'slow-response', timeout: { kind: 'action', ms: 3000 }, url: '**/track' });
    expect(read("TimeoutError: locator.check: Timeout 5000ms exceeded.\nCall log:\n  - waiting for getByLabel('Terms')\n    - locator resolved to <input type=\"checkbox\">\n  - attempting click action\n    - <div class=\"overlay\"></div> intercepts pointer events")).toMatchObject({
      kind: 'locator-wait',
      locator: "getByLabel('Terms')",
      found: true,
      notReady: 'covered by another element',
      timeout: { kind: 'action', ms: 5000 },
    });
  });

  it('reads expect limits, values and element states, colour codes stripped', () => {
    const hidden = "\u001b[31mError: \u001b[2mexpect(\u001b[22mlocator).toBeVisible() failed\n\nLocator: getByRole('dialog')\nExpected: visible\nReceived: hidden\nTimeout: 7000ms";
    expect(read(hidden)).toMatchObject({ kind: 'locator-wait', found: true, notReady: 'hidden', timeout: { kind: 'expect', ms: 7000 } });
    const url = "Error: expect(page).toHaveURL(expected) failed\n\nExpected string: \"https://shop.test/thanks\"\nReceived string: \"https://shop.test/cart\"\nTimeout: 5000ms";
    expect(read(url)).toMatchObject({ kind: 'assertion-mismatch', received: '"https://shop.test/cart"', timeout: { kind: 'expect', ms: 5000 } });
    // Two numbers that are not HTTP statuses stay an assertion.
    expect(read('Error: expect(received).toBe(expected)\n\nExpected: 3\nReceived: 4')).toMatchObject({ kind: 'assertion-mismatch', received: '4' });
  });

  it('reads screenshots as snapshots, crashes as protocol errors, and closed contexts', () => {
    expect(read('Error: expect(page).toHaveScreenshot(expected) failed\n\n  1021 pixels (ratio 0.01 of all image pixels) are different.')).toMatchObject({ kind: 'snapshot-mismatch' });
    expect(read('Error: page.click: Target crashed')).toMatchObject({ kind: 'protocol-error' });
    expect(read('Error: browserContext.newPage: Target page, context or browser has been closed')).toMatchObject({ kind: 'closed-page' });
  });

  it('quotes a thrown message without its API prefix, and knows a test.fail() pass by its missing error', () => {
    expect(read('Error: page.evaluate: RangeError: Invalid time value\n    at eval (eval at evaluate)')).toMatchObject({ kind: 'thrown-error', thrown: 'RangeError: Invalid time value' });
    expect(read(null, true).kind).toBe('unexpected-pass');
    expect(read(null, false).kind).toBe('none');
  });
});

const tally = (browser: string, projects: string[] = [browser]): BrowserTally => ({ browser, projects, runs: 5, failures: 0, passedOnRetry: 0, failedEveryAttempt: 0, topCategory: null });

describe('settingsThatDiffer', () => {
  it('names the browser, device or colour scheme that only the failing project has', () => {
    expect(settingsThatDiffer(tally('webkit'), [tally('chromium'), tally('firefox')]).map((s) => s.setting)).toEqual(['browserName']);
    expect(settingsThatDiffer(tally('Mobile Chrome'), [tally('chromium')]).map((s) => s.setting)).toEqual(['viewport', 'isMobile']);
    expect(settingsThatDiffer(tally('chromium', ['chromium-dark']), [tally('chromium-light')]).map((s) => s.setting)).toEqual(['colorScheme']);
    // Names that say nothing about a setting: nothing is claimed.
    expect(settingsThatDiffer(tally('shard-b'), [tally('shard-a')])).toEqual([]);
  });
});
