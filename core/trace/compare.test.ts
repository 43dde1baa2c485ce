import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ALIGN_CAP, compareAttempts } from './compare.js';
import { summariseTrace, type TraceAction, type TraceSummary } from './summary.js';

// Real traces recorded by Playwright in Chromium (fixtures/evidence-suite).
const OUTPUT = new URL('../../fixtures/reports/evidence/output/', import.meta.url);
const trace = (folder: string) => readFileSync(new URL(`${folder}/trace.zip`, OUTPUT));

type Event = Record<string, unknown>;

/** The trace with each event of its .trace/.network files passed through `edit` (null drops it). */
function edited(zip: Uint8Array, edit: (event: Event, file: string) => Event | null): Uint8Array {
  const files = unzipSync(zip);
  for (const [name, bytes] of Object.entries(files)) {
    if (!/\.(?:trace|network)$/.test(name)) continue;
    const lines = strFromU8(bytes).split('\n').filter((line) => line.trim() !== '');
    const kept = lines.map((line) => edit(JSON.parse(line) as Event, name)).filter((event): event is Event => event !== null);
    files[name] = strToU8(kept.map((event) => JSON.stringify(event)).join('\n') + '\n');
  }
  return zipSync(files);
}

describe('compareAttempts on real traces', () => {
  it('the flaky test: parts at the click only the failing attempt made, and has nothing else only in it', () => {
    const failing = summariseTrace(trace('checkout-keeps-the-total-without-a-code'));
    const passing = summariseTrace(trace('checkout-keeps-the-total-without-a-code-retry1'));
    const comparison = compareAttempts(failing, passing);
    // The set-up both did lines up; then the click the retry skipped, then the assertion only the retry reached.
    expect(comparison.aligned.map(({ failing, passing }) => [failing?.title ?? null, passing?.title ?? null])).toEqual([
      ['Route requests', 'Route requests'],
      ['Route requests', 'Route requests'],
      ['Set content', 'Set content'],
      ['Click', null],
      [null, 'Expect "toHaveText"'],
    ]);
    expect(comparison.partedAt).toMatchObject({ index: 3, reason: 'only-failing', passing: null, failing: { title: 'Click', locator: "getByRole('button', { name: 'Remove code' })" } });
    expect(comparison.partedAt!.failing!.error).toMatch(/^TimeoutError: locator\.click: Timeout 1000ms exceeded/);
    // The console error both attempts logged is no clue.
    expect(failing.consoleErrors.map((m) => m.text)).toContain('price service: 503 from /api/price');
    expect(comparison.consoleErrorsOnlyFailing).toEqual([]);
    expect(comparison.pageErrorsOnlyFailing).toEqual([]);
    expect(comparison.requestsOnlyFailing).toEqual([]);
    // Only actions both did are timed against each other.
    expect(comparison.slowerActions.map((a) => a.title).every((title) => ['Route requests', 'Set content'].includes(title))).toBe(true);
    expect(comparison.alignedOmitted).toBe(0);
  });

  it('a failure laid beside a passing version of its own trace: the assertion, the 404, its console line and the page error', () => {
    const zip = trace('checkout-applies-a-discount-code');
    // The passing version: the lookup answers 200, so no page error, no 404 line, and the assertion holds.
    const passingZip = edited(zip, (event) => {
      if (event.type === 'resource-snapshot') {
        const snapshot = event.snapshot as { request: { url: string }; response: { status: number } };
        if (snapshot.request.url.includes('/api/discount')) snapshot.response.status = 200;
      }
      if (event.type === 'event' && event.method === 'pageError') return null;
      if (event.type === 'console' && String(event.text).includes('404')) return null;
      if (event.type === 'after' && event.error) {
        const { error: _error, ...rest } = event;
        return rest;
      }
      return event;
    });
    const failing = summariseTrace(zip);
    const passing = summariseTrace(passingZip);
    expect(passing.failingAction).toBeNull();
    const comparison = compareAttempts(failing, passing);
    expect(comparison.aligned.every((pair) => pair.failing && pair.passing)).toBe(true);
    expect(comparison.partedAt).toMatchObject({ reason: 'outcome', failing: { title: 'Expect "toHaveText"', locator: "locator('#total')" }, passing: { error: null } });
    expect(comparison.partedAt!.failing!.error).toContain('Expected: "$36.00"');
    // The refused stock request failed in both: only the discount lookup is the failing attempt's own.
    expect(comparison.requestsOnlyFailing).toEqual([
      {
        method: 'GET',
        url: 'https://shop.test/api/discount?code=SAVE1O',
        reason: 'failed',
        failing: expect.objectContaining({ status: 404 }),
        passing: expect.objectContaining({ status: 200 }),
      },
    ]);
    expect(comparison.consoleErrorsOnlyFailing).toEqual([{ text: 'Failed to load resource: the server responded with a status of 404 (Not Found)', location: 'https://shop.test/api/discount?code=SAVE1O' }]);
    expect(comparison.pageErrorsOnlyFailing).toEqual(['discount lookup failed with 404']);
    // Identical timings: nothing took longer.
    expect(comparison.slowerActions).toEqual([]);
  });
});

const action = (title: string, durationMs: number, error: string | null = null, locator: string | null = null): TraceAction => ({ title, locator, durationMs, startMs: 0, error });
const summary = (fields: Partial<TraceSummary>): TraceSummary => ({
  playwrightVersion: null,
  formatVersion: null,
  failingAction: null,
  actions: [],
  consoleErrors: [],
  pageErrors: [],
  failedRequests: [],
  requests: [],
  omitted: 0,
  ...fields,
});

describe('compareAttempts on hand-made summaries', () => {
  it('names the five actions whose durations differ most, largest first', () => {
    const failing = summary({ actions: [10, 20, 3000, 40, 500, 60, 70].map((ms, i) => action(`a${i}`, ms)) });
    const passing = summary({ actions: [10, 25, 100, 30, 100, 20, 75].map((ms, i) => action(`a${i}`, ms)) });
    const slower = compareAttempts(failing, passing).slowerActions;
    expect(slower.map((a) => a.title)).toEqual(['a2', 'a4', 'a5', 'a3', 'a1']);
    expect(slower[0]).toEqual({ title: 'a2', locator: null, failingMs: 3000, passingMs: 100 });
    expect(compareAttempts(failing, passing).partedAt).toBeNull();
  });

  it('tells a request answered with another status or much slower from one just a little slower', () => {
    const request = (url: string, status: number, durationMs: number) => ({ method: 'GET', url, status, failure: null, durationMs });
    const failing = summary({ requests: [request('/a', 302, 10), request('/b', 200, 2000), request('/c', 200, 400), request('/d', 200, 10)] });
    const passing = summary({ requests: [request('/a', 200, 10), request('/b', 200, 100), request('/c', 200, 150)] });
    expect(compareAttempts(failing, passing).requestsOnlyFailing.map((r) => [r.url, r.reason])).toEqual([
      ['/a', 'status'],
      ['/b', 'slower'],
    ]);
  });

  it('aligns by call and locator: the same call on another locator is not the same action', () => {
    const failing = summary({ actions: [action('Click', 5, null, '#a'), action('Click', 5, 'timeout', '#b')] });
    const passing = summary({ actions: [action('Click', 5, null, '#a'), action('Click', 5, null, '#c')] });
    const { aligned, partedAt } = compareAttempts(failing, passing);
    expect(aligned).toHaveLength(3);
    expect(partedAt).toMatchObject({ index: 1, reason: 'only-failing', failing: { locator: '#b' } });
  });

  it('aligns no more than its cap of actions per attempt and says how many it left out', () => {
    const many = summary({ actions: Array.from({ length: ALIGN_CAP + 30 }, (_, i) => action(`a${i}`, 1)) });
    const comparison = compareAttempts(many, many);
    expect(comparison.aligned).toHaveLength(ALIGN_CAP);
    expect(comparison.alignedOmitted).toBe(60);
  });
});
