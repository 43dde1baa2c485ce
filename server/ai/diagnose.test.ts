/**
 * The history rules of the diagnosis on hand-made histories: what one failure cannot tell
 * (never found vs late, one project vs all, steady vs varying) is decided by the runs.
 */
import { describe, expect, it } from 'vitest';
import type { AiAnalysisRequest } from '../../core/api/ai.js';
import type { HistoryEntry, TestHistory } from '../store/read/test-history.js';
import { causeText } from './cause-text.js';
import { diagnose } from './diagnose.js';
import { gatherEvidence } from './evidence.js';
import { readSignals } from './signals.js';

interface Row {
  browser?: string;
  /** Failed first attempt; passedOnRetry when a retry rescued it. */
  failed: boolean;
  passedOnRetry?: boolean;
  message?: string | null;
  expectedStatus?: string;
}

let runId = 0;
function entry(row: Row, i: number): HistoryEntry {
  const browser = row.browser ?? 'chromium';
  runId++;
  return {
    runId,
    testId: 1,
    file: 'shop.spec.ts',
    browser,
    projectName: browser,
    expectedStatus: row.expectedStatus ?? 'passed',
    status: row.failed ? 'failed' : 'passed',
    finalStatus: row.failed && !row.passedOnRetry ? 'failed' : 'passed',
    outcome: row.failed ? (row.passedOnRetry ? 'flaky' : 'unexpected') : 'expected',
    passedOnRetry: row.passedOnRetry ?? false,
    retries: row.failed ? 2 : 0,
    durationMs: 1000,
    firstAttemptMs: 1000,
    startedAt: Date.UTC(2026, 10, 1) + i * 3_600_000,
    gitCommit: 'a'.repeat(40),
    gitBranch: 'main',
    outageRun: false,
    errorCategory: null,
    errorSummary: null,
    errorLocation: null,
    errorSnippet: null,
    errorHead: row.failed ? (row.message ?? null) : null,
  };
}

function diagnosed(rows: Row[], browser = 'chromium') {
  const history: TestHistory = { entries: rows.map(entry), tests: [{ id: 1, file: 'shop.spec.ts' }], truncated: false };
  const request: AiAnalysisRequest = { testSummary: { testTitle: 'checks out', browser, passRate: 0, totalRuns: rows.length, failedRuns: 0 }, recentResults: [] };
  const evidence = gatherEvidence(request, history);
  return diagnose(evidence, readSignals(evidence));
}

const NOT_FOUND = "TimeoutError: locator.click: Timeout 5000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Pay' })\n";
const MISMATCH = (received: string) => `Error: expect(locator).toHaveText(expected) failed\n\nLocator: locator('#total')\nExpected: "42"\nReceived: "${received}"\nTimeout: 5000ms`;

describe('diagnose', () => {
  it('calls a locator that no run or retry ever found missing, and one a retry found late', () => {
    const missing = diagnosed([{ failed: false }, { failed: true, message: NOT_FOUND }, { failed: true, message: NOT_FOUND }, { failed: true, message: NOT_FOUND }]);
    expect(missing.causeClass).toBe('locator-missing');
    const late = diagnosed([{ failed: true, message: NOT_FOUND }, { failed: true, passedOnRetry: true, message: NOT_FOUND }, { failed: true, message: NOT_FOUND }]);
    expect(late.causeClass).toBe('locator-late');
    // Passing again after failing: the element exists, it comes late.
    expect(diagnosed([{ failed: true, message: NOT_FOUND }, { failed: false }, { failed: true, message: NOT_FOUND }]).causeClass).toBe('locator-late');
  });

  it('calls a steady wrong value a mismatch, and varying or rescued values not sure', () => {
    expect(diagnosed([{ failed: true, message: MISMATCH('40') }, { failed: true, message: MISMATCH('40') }]).causeClass).toBe('assertion-mismatch');
    const varying = diagnosed([{ failed: true, message: MISMATCH('40') }, { failed: true, message: MISMATCH('41') }]);
    expect([varying.causeClass, varying.doubt]).toEqual(['not-sure', 'the assertion received different values in different runs']);
    expect(diagnosed([{ failed: true, message: MISMATCH('40') }, { failed: true, passedOnRetry: true, message: MISMATCH('40') }]).causeClass).toBe('not-sure');
  });

  it('is not sure when the failures differ from run to run', () => {
    const d = diagnosed([{ failed: true, message: NOT_FOUND }, { failed: true, message: 'Error: boom' }, { failed: true, message: MISMATCH('1') }]);
    expect(d.causeClass).toBe('not-sure');
    expect(d.doubt).toMatch(/^the failures differ from run to run/);
    expect(d.confidence).toBeLessThan(0.3);
  });

  it('names one project only when every other project ran it without an unrescued failure', () => {
    const rows = (webkitFails: boolean): Row[] =>
      [0, 1, 2].flatMap(() => [
        { browser: 'firefox', failed: true, message: NOT_FOUND },
        { browser: 'chromium', failed: false },
        webkitFails ? { browser: 'webkit', failed: true, message: NOT_FOUND } : { browser: 'webkit', failed: true, passedOnRetry: true, message: NOT_FOUND },
      ]);
    const only = diagnosed(rows(false), 'firefox');
    expect(only.causeClass).toBe('project-only');
    expect(only.project?.settings.map((s) => s.setting)).toEqual(['browserName']);
    expect(diagnosed(rows(true), 'firefox').causeClass).toBe('locator-missing');
  });

  it('knows a test.fail() that passed by its expected status', () => {
    expect(diagnosed([{ failed: true, message: null, expectedStatus: 'failed' }, { failed: true, message: null, expectedStatus: 'failed' }]).causeClass).toBe('unexpected-pass');
    expect(diagnosed([{ failed: true, message: null }]).causeClass).toBe('not-sure');
  });

  it("explains a protocol refusal by the browser's own reason, not always by a stale reference", () => {
    const refusal = (reason: string) => diagnosed([1, 2].map(() => ({ failed: true, message: `Error: cdpSession.send: Protocol error (Input.dispatchKeyEvent): ${reason}` })));
    const badCall = refusal("Unexpected event type 'keyTwice'");
    expect(badCall.causeClass).toBe('protocol-error');
    expect(causeText(badCall, 'chromium')).toMatch(/saying "Unexpected event type 'keyTwice'".*do not fit this browser/);
    expect(causeText(badCall, 'chromium')).not.toMatch(/no longer existed/);
    expect(causeText(refusal('Could not find node with given id'), 'chromium')).toMatch(/no longer existed/);
  });

    it('grows more confident with more failures that agree', () => {
    const strict = "Error: locator.click: Error: strict mode violation: getByText('Save') resolved to 2 elements:";
    const one = diagnosed([{ failed: false }, { failed: true, message: strict }]);
    const four = diagnosed([1, 2, 3, 4].map(() => ({ failed: true, message: strict })));
    expect(one.causeClass).toBe('strict-mode');
    expect(four.causeClass).toBe('strict-mode');
    expect(four.confidence).toBeGreaterThan(one.confidence + 0.2);
    expect(four.evidence.map((e) => e.claim)).toContain('The same kind of error in all 4 failures');
    expect(four.evidence[1]!.runs).toHaveLength(4);
    expect(four.evidence[1]!.lines[0]).toMatch(/strict mode violation/);
  });
});
