/**
 * The diagnosis with the failing attempt's trace: what the error text leaves open (a value wrong
 * on the first attempt and right on retry) the network log or console decides. Real traces
 * recorded by Playwright in Chromium (fixtures/evidence-suite).
 */
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LOW_CONFIDENCE, type AiAnalysisRequest } from '../../core/api/ai.js';
import type { HistoryEntry, TestHistory } from '../store/read/test-history.js';
import { diagnose, isDirect } from './diagnose.js';
import { gatherEvidence } from './evidence.js';
import { analyseLocally } from './local-engine.js';
import { userMessage } from './model-engine.js';
import { readSignals } from './signals.js';
import type { AnalysisTraces } from './trace-reading.js';

const OUTPUT = new URL('../../fixtures/reports/evidence/output/', import.meta.url);
const trace = (folder: string) => new Uint8Array(readFileSync(new URL(`${folder}/trace.zip`, OUTPUT)));

const MISMATCH = `Error: expect(locator).toHaveText(expected) failed\n\nExpected: "$36.00"\nReceived: "$40.00"\nTimeout: 1000ms`;

function entry(passedOnRetry: boolean, i: number): HistoryEntry {
  return {
    runId: i + 1, testId: 1, file: 'checkout.spec.ts', browser: 'chromium', projectName: 'chromium', expectedStatus: 'passed',
    status: 'failed', finalStatus: passedOnRetry ? 'passed' : 'failed', outcome: passedOnRetry ? 'flaky' : 'unexpected', passedOnRetry,
    retries: 1, durationMs: 2000, firstAttemptMs: 1000, startedAt: Date.UTC(2026, 10, 1) + i * 3_600_000, gitCommit: 'a'.repeat(40), gitBranch: 'main',
    outageRun: false, errorCategory: null, errorSummary: null, errorLocation: null, errorSnippet: null, errorHead: MISMATCH,
  };
}

function analysed(traces?: AnalysisTraces, latestRescued = true, oneFailure = false) {
  const entries = oneFailure ? [entry(latestRescued, 0)] : [entry(false, 0), entry(latestRescued, 1)];
  const history: TestHistory = { entries, tests: [{ id: 1, file: 'checkout.spec.ts' }], truncated: false };
  const request: AiAnalysisRequest = { testSummary: { testTitle: 'applies a discount code', browser: 'chromium', passRate: 0, totalRuns: 2, failedRuns: 2 }, recentResults: [] };
  const evidence = gatherEvidence(request, history, traces);
  const signals = readSignals(evidence);
  return { d: diagnose(evidence, signals), local: analyseLocally(evidence, signals), evidence, signals, request };
}

describe('the diagnosis with a trace', () => {
  it('without a trace: a value a retry rescued is not sure of its cause, yet called flaky in plain words', () => {
    const { d, local } = analysed();
    expect(d.causeClass).toBe('not-sure');
    expect(local.rootCause).toMatch(/Flaky: it failed and then passed on retry in 1 of 2 failing runs/);
  });

  it("with the failing attempt's trace: the request that answered an error decides, and the claims name the action and its locator", () => {
    const { d, local } = analysed({ failing: trace('checkout-applies-a-discount-code') });
    expect(d.causeClass).toBe('http-status');
    expect(d.fromTrace).toBe(true);
    expect(d.reading?.status).toBe(404);
    expect(local.rootCause).toContain('HTTP 404');
    expect(local.rootCause).toContain('/api/discount');
    // Still flaky: a retry passed.
    expect(local.rootCause).toContain('Flaky: 1 of 2 failing runs passed on retry');
    const claims = d.evidence.map((e) => e.claim);
    expect(claims).toContain(`Decided by the trace of the failing attempt: the action that failed was Expect "toHaveText" on locator('#total') after ${claims.find((c) => c.includes('toHaveText'))!.split(' after ')[1]}`);
    expect(claims).toContain('Decided by the trace of the failing attempt: GET shop.test/api/discount answered HTTP 404, sent before the failing action ended');
    expect(claims.some((c) => c.includes('got no answer (net::ERR_CONNECTION_REFUSED)'))).toBe(true);
    expect(d.evidence.find((e) => e.claim.endsWith('the page threw an error'))?.lines).toEqual(['discount lookup failed with 404']);
    // With the trace the answer is surer than without.
    expect(d.confidence).toBeGreaterThan(analysed().d.confidence);
  });

  it("with the passing retry's trace too: only what the failing attempt had counts, and where it parted is a claim", () => {
    const failing = trace('checkout-keeps-the-total-without-a-code');
    const alone = analysed({ failing });
    const compared = analysed({ failing, passing: trace('checkout-keeps-the-total-without-a-code-retry1') });
    expect(alone.evidence.trace!.comparedWithPassing).toBeNull();
    expect(compared.evidence.trace!.comparedWithPassing).not.toBeNull();
    expect(compared.d.evidence.map((e) => e.claim)).toContain("Beside the passing retry's trace, the failing attempt parted at Click on getByRole('button', { name: 'Remove code' }), which only the failing attempt did");
    expect(alone.d.evidence.some((e) => e.claim.startsWith('Beside the passing'))).toBe(false);
  });

  it('names the locator the assertion checked from the trace when the message does not', () => {
    const { d } = analysed({ failing: trace('checkout-applies-a-discount-code') });
    expect(d.reading?.locator).toBe("locator('#total')");
  });

  it('says a trace that is not a zip could not be read, and decides nothing from it', () => {
    const { d } = analysed({ failing: strToU8('not a zip at all') });
    expect(d.causeClass).toBe('not-sure');
    expect(d.evidence.map((e) => e.claim).some((c) => c.startsWith("The failing attempt's trace could not be read"))).toBe(true);
    const empty = analysed({ failing: zipSync({ 'other.txt': strToU8('x') }) });
    expect(empty.d.causeClass).toBe('not-sure');
  });

  it('gives the model the same trace findings, redacted, inside the data fence', () => {
    const { evidence, signals, local, request } = analysed({ failing: trace('checkout-applies-a-discount-code') });
    evidence.trace!.consoleErrors.push('token ghp_' + 'a'.repeat(36));
    const message = userMessage({ request, evidence, signals, local });
    const data = message.slice(message.indexOf('<report-data>\n') + 14, message.lastIndexOf('\n</report-data>'));
    const parsed = JSON.parse(data) as { failingAttemptTrace: { failedRequests: Array<{ url: string; status: number | null }>; consoleErrors: string[] } };
    expect(parsed.failingAttemptTrace.failedRequests).toContainEqual(expect.objectContaining({ url: 'https://shop.test/api/discount?code=SAVE1O', status: 404 }));
    expect(data).not.toContain('ghp_' + 'a'.repeat(36));
  });

  it('names where in the stored trace each trace claim is: the failed action, the request, the console', () => {
    const sha256 = 'c'.repeat(64);
    const { d } = analysed({ failing: trace('checkout-applies-a-discount-code'), failingSha256: sha256 });
    const action = d.evidence.find((e) => e.claim.includes('the action that failed was'))!;
    expect(action.trace).toMatchObject({ sha256, failedAction: true, shownIn: 'actions', action: `Expect "toHaveText" on locator('#total')` });
    expect(action.trace!.atMs).toEqual(expect.any(Number));
    const request = d.evidence.find((e) => e.claim.includes('answered HTTP 404'))!;
    expect(request.trace).toMatchObject({ sha256, failedAction: false, shownIn: 'network', action: 'GET shop.test/api/discount' });
    // Sent before the failing expect began waiting on the total.
    expect(request.trace!.atMs).toBeLessThanOrEqual(action.trace!.atMs!);
    expect(d.evidence.find((e) => e.claim.endsWith('the page threw an error'))!.trace).toMatchObject({ shownIn: 'console', atMs: null });
    // The slowest action of the other trace is the click that failed: the viewer opens on it too.
    const late = analysed({ failing: trace('checkout-keeps-the-total-without-a-code'), failingSha256: sha256 }).d.evidence;
    const slowest = late.find((e) => e.claim.includes("most of the attempt's time"));
    expect(slowest?.trace).toMatchObject({ failedAction: true, atMs: late.find((e) => e.claim.includes('the action that failed was'))!.trace!.atMs });
    // Claims of the history never point into the trace.
    expect(d.evidence.filter((e) => !e.claim.includes('trace')).every((e) => e.trace === undefined)).toBe(true);
    // Without a stored trace (no hash) there is nothing to open.
    expect(analysed({ failing: trace('checkout-applies-a-discount-code') }).d.evidence.some((e) => e.trace)).toBe(false);
  });

  it('is sure of a cause the trace shows directly, and only then: a retry passed, and the failing action waited on the failed request', () => {
    // One failure: thin for an inference from the history, not for a failed request the trace shows.
    const direct = analysed({ failing: trace('checkout-applies-a-discount-code') }, true, true).d;
    expect(direct.directTrace).toBe(true);
    expect(direct.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE + 0.15);
    // The same trace when no retry rescued the failure: the 404 may have answered every attempt.
    const unrescued = analysed({ failing: trace('checkout-applies-a-discount-code') }, false, true).d;
    expect(unrescued.causeClass).toBe('http-status');
    expect(unrescued.directTrace).toBe(false);
    expect(unrescued.confidence).toBeLessThan(direct.confidence);
  });

  it('a request sent after the failing action ended, or without a time, is not what the action waited on', () => {
    const findings = { sha256: null, failingAction: { title: 'Click', locator: null, durationMs: 500, startMs: 1000 }, failedRequests: [], consoleErrors: [], pageErrors: [], slowest: null, unreadable: null, comparedWithPassing: null };
    const rescued = [{ passedOnRetry: true }];
    const request = (startMs: number | null) => ({ method: 'GET', url: 'https://shop.test/api/x', status: 500, failure: null, startMs });
    expect(isDirect(findings, request(1200), rescued)).toBe(true);
    expect(isDirect(findings, request(1501), rescued)).toBe(false);
    expect(isDirect(findings, request(null), rescued)).toBe(false);
    expect(isDirect(findings, request(200), [{ passedOnRetry: false }])).toBe(false);
    // Compared with the passing retry's trace, the request failed only in the failing attempt.
    expect(isDirect({ ...findings, comparedWithPassing: { partedAt: null, slowerRequests: [] } }, request(200), [{ passedOnRetry: false }])).toBe(true);
  });
});
