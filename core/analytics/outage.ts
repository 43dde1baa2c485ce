import type { RunCounts } from '../report/normalised.js';

/**
 * The noise guard (docs/screens.md#outages): a run in which over 80 % of the tests that ran failed is
 * an outage (a dead backend, a broken deploy), so its failures say nothing about flakiness.
 * Small runs are never judged: three failures out of three is not an outage.
 */
export const OUTAGE_SHARE = 0.8;
export const OUTAGE_MIN_TESTS = 10;

export function isOutage(run: { counts: Pick<RunCounts, 'tests' | 'failed' | 'skipped'> }): boolean {
  const ran = run.counts.tests - run.counts.skipped;
  return ran >= OUTAGE_MIN_TESTS && run.counts.failed / ran > OUTAGE_SHARE;
}
