import type { PwAttemptStatus, PwOutcome, PwResult, PwTest } from './report/playwright-types.js';

/** The per-test status (docs/screens.md#status-rules): what totals, pass rates and history use. */
export type TestStatus = 'passed' | 'failed' | 'timedOut' | 'skipped';

/**
 * docs/screens.md#status-rules: the first attempt decides. It passes when its status is the test's
 * expectedStatus (so `test.fail()` failing as expected is a pass); interrupted is failed;
 * timedOut stays timedOut (counted as failed in totals); no attempt at all is skipped.
 */
export function attemptTestStatus(status: PwAttemptStatus, expectedStatus: PwAttemptStatus): TestStatus {
  if (status === 'skipped') return 'skipped';
  if (expectedStatus !== 'skipped' && status === expectedStatus) return 'passed';
  if (status === 'timedOut') return 'timedOut';
  return 'failed';
}

export function firstAttemptStatus(test: Pick<PwTest, 'results' | 'expectedStatus'>): TestStatus {
  const first = test.results[0];
  return first ? attemptTestStatus(first.status, test.expectedStatus ?? 'passed') : 'skipped';
}

export function isFailure(status: TestStatus): boolean {
  return status === 'failed' || status === 'timedOut';
}

/** A test that failed its first attempt and passed a later one: Playwright's "flaky". */
export function passedOnRetry(results: readonly Pick<PwResult, 'status'>[], expectedStatus: PwAttemptStatus): boolean {
  if (results.length < 2 || expectedStatus === 'skipped') return false;
  if (!isFailure(attemptTestStatus(results[0]!.status, expectedStatus)) && results[0]!.status !== 'interrupted') return false;
  return results.slice(1).some((r) => r.status === expectedStatus);
}

/** Playwright 1.44+'s outcome rule, for reports (1.12) that do not carry the test's status. */
export function computeOutcome(results: readonly Pick<PwResult, 'status' | 'workerIndex'>[], expectedStatus: PwAttemptStatus): PwOutcome {
  let expected = 0;
  let unexpected = 0;
  let skipped = 0;
  for (const r of results) {
    if (r.status === 'interrupted') continue;
    if (r.status === 'skipped' && expectedStatus === 'skipped') skipped++;
    else if (r.status === 'skipped') continue;
    else if (r.status === expectedStatus) expected++;
    else unexpected++;
  }
  if (expected === 0 && unexpected === 0) return 'skipped';
  if (unexpected === 0) return skipped > 0 && expected === 0 ? 'skipped' : 'expected';
  if (expected === 0) return 'unexpected';
  return 'flaky';
}
