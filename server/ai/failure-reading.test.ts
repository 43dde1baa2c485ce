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

  // Shapes the held-out corpus (fixtures/diagnosis-holdout) showed the first rules missing.
  it('reads expect.poll as an assertion with its own limit, and an aria snapshot as a snapshot', () => {
    const poll = 'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 2\nReceived: 3\n\nCall Log:\n- Timeout 1000ms exceeded while waiting on the predicate';
    expect(read(poll)).toMatchObject({ kind: 'assertion-mismatch', received: '3', timeout: { kind: 'expect', ms: 1000 } });
    const aria = "Error: expect(locator).toMatchAriaSnapshot(expected) failed\n\nLocator: locator('body')\nTimeout: 1200ms\n- Expected  - 1\n+ Received  + 2\n\n- - heading \"Front desk\" [level=1]\n+ - heading \"Desk\" [level=1]";
    expect(read(aria).kind).toBe('snapshot-mismatch');
    const contains = "Error: expect(locator).toContainText(expected) failed\n\nLocator: locator('#total')\nExpected substring: \"Total: 40 EUR\"\nReceived string:    \"Total: 42 EUR\"\nTimeout: 1200ms";
    expect(read(contains)).toMatchObject({ kind: 'assertion-mismatch', expected: '"Total: 40 EUR"', received: '"Total: 42 EUR"' });
  });

  it('reads an error status however it is reported: a status assertion without a URL, or a thrown message', () => {
    expect(read("Error: members API status\n\nexpect(received).toBe(expected) // Object.is equality\n\nExpected: 200\nReceived: 401")).toMatchObject({ kind: 'http-status', status: 401 });
    expect(read('Error: GET /reports/2026 answered 404')).toMatchObject({ kind: 'http-status', status: 404, method: 'GET', url: '/reports/2026' });
    expect(read('AxiosError: Request failed with status code 503')).toMatchObject({ kind: 'http-status', status: 503 });
    // A 2xx named in a thrown message, or an error status expected, is no HTTP failure.
    expect(read('Error: upload answered 201 but no id came back').kind).toBe('thrown-error');
    expect(read('Error: expect(received).toBe(expected)\n\nExpected: 404\nReceived: 200').kind).toBe('assertion-mismatch');
  });

  it('knows a page that never answered an expect, and a test timeout that closed the page under a call', () => {
    const closed = "Error: expect(locator).toBeVisible() failed\n\nLocator:  getByRole('button', { name: 'Renew' })\nExpected: visible\nReceived: undefined\n";
    expect(read(closed)).toMatchObject({ kind: 'closed-page', locator: "getByRole('button', { name: 'Renew' })" });
    // Ran and timed out: a call log and a limit; that is an element state, not a closed page.
    expect(read(`${closed}Timeout: 1200ms\n\nCall log:\n  - waiting for getByRole('button')`).kind).not.toBe('closed-page');
    expect(read('Test timeout of 10000ms exceeded.\nError: locator.click: Target page, context or browser has been closed')).toMatchObject({ kind: 'test-timeout', timeout: { kind: 'test', ms: 10000 } });
  });
});

const tally = (browser: string, projects: string[] = [browser]): BrowserTally => ({ browser, projects, runs: 5, failures: 0, passedOnRetry: 0, failedEveryAttempt: 0, topCategory: null });

describe('settingsThatDiffer', () => {
  it('names the browser, device or colour scheme that only the failing project has', () => {
    expect(settingsThatDiffer(tally('webkit'), [tally('chromium'), tally('firefox')]).map((s) => s.setting)).toEqual(['browserName']);
    expect(settingsThatDiffer(tally('Mobile Chrome'), [tally('chromium')]).map((s) => s.setting)).toEqual(['viewport', 'isMobile']);
    expect(settingsThatDiffer(tally('chromium', ['chromium-dark']), [tally('chromium-light')]).map((s) => s.setting)).toEqual(['colorScheme']);
    expect(settingsThatDiffer(tally('touch'), [tally('p1')]).map((s) => s.setting)).toEqual(['hasTouch']);
    // Names that say nothing about a setting: nothing is claimed (p2 differs by locale here; the report cannot tell).
    expect(settingsThatDiffer(tally('p2'), [tally('p1')])).toEqual([]);
    expect(settingsThatDiffer(tally('shard-b'), [tally('shard-a')])).toEqual([]);
  });
});
