import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ZipRefused } from './capped-zip.js';
import { compareVersions, summariseTrace } from './summary.js';

// Real traces recorded by Playwright in Chromium (fixtures/evidence-suite).
const OUTPUT = new URL('../../fixtures/reports/evidence/output/', import.meta.url);
const trace = (folder: string) => readFileSync(new URL(`${folder}/trace.zip`, OUTPUT));

describe('summariseTrace on real traces', () => {
  it('names the failing assertion with its locator, and the console errors, page errors and failed requests before it', () => {
    const summary = summariseTrace(trace('checkout-applies-a-discount-code'));
    expect(summary.playwrightVersion).toMatch(/^1\.\d+\.\d+/);
    expect(summary.formatVersion).toBeGreaterThanOrEqual(8);
    expect(summary.failingAction).toMatchObject({ title: 'Expect "toHaveText"', locator: "locator('#total')" });
    expect(summary.failingAction!.error).toContain('Expected: "$36.00"');
    // ANSI colours of the terminal are gone.
    expect(summary.failingAction!.error).not.toContain('\u001b');
    expect(summary.failingAction!.durationMs).toBeGreaterThanOrEqual(1000);
    expect(summary.actions.map((action) => action.title)).toEqual(expect.arrayContaining(['Set content', 'Fill "SAVE1O"', 'Click', 'Expect "toHaveText"']));
    // The fixtures' own work (launching the browser, creating the page) is not the test's.
    expect(summary.actions.map((action) => action.title)).not.toContain('Launch browser');
    const click = summary.actions.find((action) => action.title === 'Click')!;
    expect(click.locator).toBe("getByRole('button', { name: 'Apply' })");
    expect(click.durationMs).toBeGreaterThan(0);
    expect(summary.consoleErrors.map((message) => message.text)).toEqual(
      expect.arrayContaining(['price service: 503 from /api/price', 'Failed to load resource: the server responded with a status of 404 (Not Found)']),
    );
    expect(summary.pageErrors).toEqual(['discount lookup failed with 404']);
    expect(summary.failedRequests).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: 'https://shop.test/api/discount?code=SAVE1O', status: 404, failure: null, startMs: expect.any(Number) },
        { method: 'GET', url: 'https://shop.test/api/stock', status: null, failure: 'net::ERR_CONNECTION_REFUSED', startMs: expect.any(Number) },
      ]),
    );
    expect(summary.omitted).toBe(0);
    // Sent while the test ran: before the failing assertion ended.
    const discount = summary.failedRequests.find((r) => r.status === 404)!;
    expect(discount.startMs).toBeLessThanOrEqual(summary.failingAction!.startMs! + summary.failingAction!.durationMs!);
  });

  it('names a timed-out click and its locator; the passing retry has no failing action', () => {
    const failing = summariseTrace(trace('checkout-keeps-the-total-without-a-code'));
    expect(failing.failingAction).toMatchObject({ title: 'Click', locator: "getByRole('button', { name: 'Remove code' })" });
    expect(failing.failingAction!.error).toMatch(/^TimeoutError: locator\.click: Timeout 1000ms exceeded/);
    const passing = summariseTrace(trace('checkout-keeps-the-total-without-a-code-retry1'));
    expect(passing.failingAction).toBeNull();
    expect(passing.actions.every((action) => action.error === null)).toBe(true);
    expect(passing.failedRequests).toEqual([]);
  });
});

describe('summariseTrace on hand-made traces', () => {
  it('reads a library trace (no test runner) by its calls and selectors, and skips a line cut short', () => {
    const events = [
      { version: 99, type: 'context-options', playwrightVersion: '1.99.0' },
      { type: 'before', callId: 'c1', startTime: 10, class: 'Frame', method: 'click', params: { selector: '#save' } },
      { type: 'after', callId: 'c1', endTime: 2010, error: { message: 'Timeout 2000ms exceeded' } },
    ];
    const text = `${events.map((event) => JSON.stringify(event)).join('\n')}\n{"type":"consol`;
    const summary = summariseTrace(zipSync({ 'trace.trace': strToU8(text) }));
    expect(summary.playwrightVersion).toBe('1.99.0');
    expect(summary.formatVersion).toBe(99);
    expect(summary.failingAction).toEqual({ title: 'Frame.click', locator: '#save', durationMs: 2000, startMs: 0, error: 'Timeout 2000ms exceeded' });
  });

  it("times a request on the actions' clock, and drops a time from before the first action", () => {
    const actions = [
      { type: 'before', callId: 'c1', startTime: 1000, class: 'Frame', method: 'goto', params: {} },
      { type: 'after', callId: 'c1', endTime: 1500 },
    ];
    const request = (url: string, at: number) => ({ type: 'resource-snapshot', snapshot: { request: { method: 'GET', url }, response: { status: 500 }, time: 20, _monotonicTime: at } });
    const network = [request('https://a.test/api/late', 1250), request('https://a.test/api/other-clock', 400)];
    const summary = summariseTrace(zipSync({ 'trace.trace': strToU8(actions.map((e) => JSON.stringify(e)).join('\n')), 'trace.network': strToU8(network.map((e) => JSON.stringify(e)).join('\n')) }));
    expect(summary.failedRequests.map((r) => [r.url, r.startMs])).toEqual([
      ['https://a.test/api/late', 250],
      ['https://a.test/api/other-clock', null],
    ]);
  });

  it('keeps at most 50 console errors and says how many it left out', () => {
    const lines = Array.from({ length: 60 }, (_, i) => JSON.stringify({ type: 'console', messageType: 'error', text: `boom ${i}`, location: { url: 'https://a.test/x.js', lineNumber: 4 } }));
    const summary = summariseTrace(zipSync({ 'trace.trace': strToU8(lines.join('\n')) }));
    expect(summary.consoleErrors).toHaveLength(50);
    expect(summary.consoleErrors[0]).toEqual({ text: 'boom 0', location: 'https://a.test/x.js:5' });
    expect(summary.omitted).toBe(10);
  });

  it('refuses a trace that expands beyond the cap', () => {
    const zip = zipSync({ 'trace.trace': new Uint8Array(3 * 1024 * 1024) });
    expect(() => summariseTrace(zip, { maxExpandedBytes: 1024 * 1024, maxEntries: 10 })).toThrow(ZipRefused);
  });
});

describe('compareVersions', () => {
  it.each([
    ['1.65.1', '1.65.0', 1],
    ['1.9.0', '1.10.0', -1],
    ['1.66.0-alpha-2026', '1.66.0', 0],
    ['2.0', '1.99.9', 1],
  ])('%s vs %s', (a, b, sign) => expect(Math.sign(compareVersions(a, b))).toBe(sign));
});
