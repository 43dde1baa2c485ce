import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownReports, publicReports } from '../../fixtures/testing/public-reports.js';
import { normaliseReport } from './normalise.js';
import { parseReportBytes } from './parse.js';
import type { PwReport, PwSuite, PwTest } from './playwright-types.js';

function allTests(report: PwReport): PwTest[] {
  const out: PwTest[] = [];
  const walk = (suite: PwSuite): void => {
    for (const spec of suite.specs ?? []) out.push(...spec.tests);
    suite.suites?.forEach(walk);
  };
  report.suites.forEach(walk);
  return out;
}

/**
 * What the report itself says, with the status rules (docs/screens.md#status-rules) applied: passed = expected;
 * failed = unexpected + flaky (the first attempt failed) + tests whose first attempt was
 * interrupted, which Playwright counts as skipped. From `stats` when the report has counts,
 * else from the tests' own statuses.
 */
function expectedCounts(report: PwReport) {
  const tests = allTests(report);
  const byStatus = (s: string) => tests.filter((t) => t.status === s).length;
  const stats = report.stats;
  const own = stats && typeof stats.expected === 'number';
  const expected = own ? stats.expected! : byStatus('expected');
  const unexpected = own ? stats.unexpected! : byStatus('unexpected');
  const flaky = own ? stats.flaky! : byStatus('flaky');
  const skipped = own ? stats.skipped! : byStatus('skipped');
  const interruptedSkips = tests.filter((t) => t.status === 'skipped' && t.results[0]?.status === 'interrupted').length;
  return { tests: tests.length, passed: expected, failed: unexpected + flaky + interruptedSkips, skipped: skipped - interruptedSkips, flaky };
}

describe('public sample reports and our own suite’s real reports', () => {
  const files = [...publicReports(), ...ownReports()];
  it('include our own suite’s reports', () => expect(ownReports().length).toBeGreaterThanOrEqual(4));

  for (const file of files) {
    it(`${basename(file)}: counts agree with the report`, () => {
      const report = parseReportBytes(readFileSync(file), basename(file));
      const run = normaliseReport(report);
      expect(run.counts).toEqual(expectedCounts(report));
      // Playwright's "flaky" outcome is a test that passed only on a retry.
      expect(run.tests.filter((t) => t.passedOnRetry).length).toBe(run.tests.filter((t) => t.outcome === 'flaky').length);
      const attemptsInReport = allTests(report).reduce((sum, t) => sum + t.results.length, 0);
      expect(run.tests.reduce((sum, t) => sum + t.attempts.length, 0)).toBe(attemptsInReport);
      for (const t of run.tests) {
        expect(t.browser).not.toBe('');
        expect(t.titlePath.at(-1)).toBe(t.title);
      }
    });
  }
});
