import { isOutage } from '../analytics/outage.js';
import type { NormalisedRun } from '../report/normalised.js';
import { classifyTest, MIN_BASE_RUNS } from './classify.js';
import type { BaseResult, GateAnswer, GateTest, QuarantineEntry } from './types.js';

/** A test of a checked run that the gate judges: failed first, or flaky (passed on a retry). */
export const isGateTest = (t: Pick<NormalisedRun['tests'][number], 'status'>) => t.status === 'failed' || t.status === 'timedOut';

/** The tests the gate judges, in the report's order: the answer's failures keep this order. */
export function gateTests(run: NormalisedRun): GateTest[] {
  return run.tests
    .filter(isGateTest)
    .map((t) => ({ title: t.title, titlePath: t.titlePath, file: t.file, project: t.projectName, browser: t.browser, passedOnRetry: t.passedOnRetry }));
}

/** The key under which a test's base history is looked up: file, title path and browser. */
export const gateKey = (t: Pick<GateTest, 'file' | 'titlePath' | 'browser'>) => `${t.file}\u0000${JSON.stringify(t.titlePath)}\u0000${t.browser}`;

export interface GateInput {
  tests: readonly GateTest[];
  counts: { tests: number; failed: number; flaky: number; skipped: number };
  histories: ReadonlyMap<string, readonly BaseResult[]>;
  quarantine: readonly QuarantineEntry[];
  base: string;
  windowDays: number;
  baseRuns: number;
  now: number;
}

/** The verdict: it fails only when a new failure is there (exit code 1 of `check`). */
export function gateAnswer(input: GateInput): GateAnswer {
  const failures = input.tests.map((test) => classifyTest(test, input.histories.get(gateKey(test)) ?? [], input.quarantine, input.now));
  return {
    verdict: failures.some((f) => f.class === 'new') ? 'fail' : 'pass',
    base: input.base,
    windowDays: input.windowDays,
    baseRuns: input.baseRuns,
    littleHistory: input.baseRuns < MIN_BASE_RUNS,
    runLooksBroken: isOutage({ counts: input.counts }),
    counts: { tests: input.counts.tests, failed: input.counts.failed, flaky: input.counts.flaky },
    failures,
  };
}
