/**
 * Facts read from the evidence, each one a number or a short excerpt: the local engine turns
 * them into sentences and the confidence, and the model engine receives them as findings.
 */
import type { ErrorCategory } from '../../core/errors/categories.js';
import { actionabilityIn, excerpt, expectedReceivedIn, failedCallIn, locatorIn, median, mostCommon, timeoutLimitIn, urlIn } from './error-text.js';
import type { BrowserTally, Evidence, Observation } from './evidence.js';
import { findAntiPatterns, type AntiPattern } from './snippet-checks.js';

export interface Counted<T> {
  value: T;
  count: number;
}

export interface Signals {
  runs: number;
  failures: number;
  rescuedByRetry: number;
  /** Failures no retry rescued, among results that were retried (retries known and > 0). */
  failedEveryRetry: number;
  retriedFailures: number;
  categories: Array<Counted<ErrorCategory>>;
  message: Counted<string> | null;
  locator: Counted<string> | null;
  url: Counted<string> | null;
  failedCall: string | null;
  actionability: string | null;
  expectedReceived: { expected: string; received: string } | null;
  failingStep: (Counted<string> & { of: number }) | null;
  timing: Timing;
  /** Commits on which the analysed browser both passed and failed in separate runs. */
  mixedCommits: string[];
  start: FailureStart | null;
  browsers: BrowserSignals;
  antiPatterns: AntiPattern[];
}

export interface Timing {
  limitMs: number | null;
  /** Failures whose attempt lasted about as long as the limit. */
  failuresNearLimit: number;
  failuresTimed: number;
  failMedianMs: number | null;
  passMedianMs: number | null;
}

export interface FailureStart {
  /** broken-since: every run since failed; first-failure: the first failure after a passing stretch. */
  kind: 'broken-since' | 'first-failure';
  at: number | null;
  commit: string | null;
  branch: string | null;
  /** The last passing run's commit before it. */
  previousCommit: string | null;
  failingRuns: number;
  passesBefore: number;
}

export interface BrowserSignals {
  /** Fails steadily on this browser while the others pass. */
  specific: BrowserTally | null;
  /** Fails clearly more often on this browser (when not specific). */
  skewed: BrowserTally | null;
  others: BrowserTally[];
  /** Commits on which the odd browser failed and another browser passed. */
  contrastCommits: number;
  /** Every browser with results fails at a similar rate. */
  allAlike: boolean;
  compared: number;
}

const share = (t: BrowserTally): number => (t.runs === 0 ? 0 : t.failures / t.runs);

export function readSignals(evidence: Evidence): Signals {
  const { runs, messages } = evidence;
  const failures = runs.filter((r) => r.failed);
  const retried = failures.filter((r) => r.retries !== null && r.retries > 0);
  const categories = countAll(failures.map((r) => r.category).filter((c): c is ErrorCategory => c !== null));
  const locator = mostCommon(messages.map(locatorIn).filter((l): l is string => l !== null));
  const steps = evidence.failingSteps;
  const step = mostCommon(steps);
  const start = failureStart(runs);
  return {
    runs: runs.length,
    failures: failures.length,
    rescuedByRetry: failures.filter((r) => r.passedOnRetry).length,
    failedEveryRetry: retried.filter((r) => !r.passedOnRetry && r.finalPassed === false).length,
    retriedFailures: retried.length,
    categories,
    message: mostCommon(messages.map((m) => excerpt(m)).filter((m) => m !== '')),
    locator,
    url: mostCommon(messages.map(urlIn).filter((u): u is string => u !== null)),
    failedCall: mostCommon(messages.map(failedCallIn).filter((c): c is string => c !== null))?.value ?? null,
    actionability: mostCommon(messages.map(actionabilityIn).filter((a): a is string => a !== null))?.value ?? null,
    expectedReceived: messages.map(expectedReceivedIn).find((e) => e !== null) ?? null,
    failingStep: step ? { ...step, of: steps.length } : null,
    timing: timingOf(runs, messages),
    mixedCommits: mixedCommits(runs, start),
    start,
    browsers: browserSignals(evidence),
    antiPatterns: findAntiPatterns(evidence.snippets, locator?.value ?? null),
  };
}

function countAll<T>(values: readonly T[]): Array<Counted<T>> {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count);
}

function timingOf(runs: readonly Observation[], messages: readonly string[]): Timing {
  const limitMs = mostCommon(messages.map(timeoutLimitIn).filter((l): l is number => l !== null))?.value ?? null;
  const failed = runs.filter((r) => r.failed && r.durationMs !== null).map((r) => r.durationMs!);
  const passed = runs.filter((r) => !r.failed && r.durationMs !== null).map((r) => r.durationMs!);
  // An attempt cannot outlast its limit by much; far beyond it, the figure adds up retries.
  const nearLimit = limitMs ? failed.filter((d) => d >= 0.9 * limitMs && d <= 1.5 * limitMs).length : 0;
  return { limitMs, failuresNearLimit: nearLimit, failuresTimed: failed.length, failMedianMs: median(failed), passMedianMs: median(passed) };
}

/**
 * Commits on which the analysed browser passed in one run and failed in another. A commit that
 * passed until the test broke and failed ever after is a change of environment, not flakiness:
 * a broken streak's commits count only when their outcomes interleave.
 */
function mixedCommits(runs: readonly Observation[], start: FailureStart | null): string[] {
  const streakFrom = start?.kind === 'broken-since' ? runs.length - start.failingRuns : runs.length;
  const byCommit = new Map<string, Array<{ failed: boolean; index: number }>>();
  runs.forEach((r, index) => {
    if (!r.commit) return;
    const list = byCommit.get(r.commit) ?? [];
    list.push({ failed: r.failed, index });
    byCommit.set(r.commit, list);
  });
  const mixed: string[] = [];
  for (const [commit, outcomes] of byCommit) {
    if (!outcomes.some((o) => o.failed) || !outcomes.some((o) => !o.failed)) continue;
    const cleanBreak = outcomes.every((o) => (o.failed ? o.index >= streakFrom : o.index < streakFrom));
    if (!cleanBreak) mixed.push(commit);
  }
  return mixed;
}

/** A rescued failure is flaky, not broken: a streak counts only failures no retry fixed. */
const brokenRun = (r: Observation): boolean => r.failed && r.finalPassed !== true;

function failureStart(runs: readonly Observation[]): FailureStart | null {
  let streak = 0;
  while (streak < runs.length && brokenRun(runs[runs.length - 1 - streak]!)) streak++;
  const startIndex = runs.length - streak;
  const before = runs.slice(0, startIndex);
  const previous = before[before.length - 1];
  const earlierFailures = before.filter((r) => r.failed).length;
  if (streak >= 3 && previous && !previous.failed && earlierFailures <= 0.2 * before.length) {
    const first = runs[startIndex]!;
    return { kind: 'broken-since', at: first.at, commit: first.commit, branch: first.branch, previousCommit: previous.commit, failingRuns: streak, passesBefore: before.length - earlierFailures };
  }
  const firstFailure = runs.findIndex((r) => r.failed);
  if (firstFailure >= 5) {
    const first = runs[firstFailure]!;
    const failing = runs.slice(firstFailure).filter((r) => r.failed).length;
    return { kind: 'first-failure', at: first.at, commit: first.commit, branch: first.branch, previousCommit: runs[firstFailure - 1]!.commit, failingRuns: failing, passesBefore: firstFailure };
  }
  return null;
}

function browserSignals(evidence: Evidence): BrowserSignals {
  const tallies = evidence.browsers.filter((t) => t.runs > 0);
  const othersOf = (b: BrowserTally) => tallies.filter((t) => t !== b);
  const specific =
    tallies.find((b) => {
      const others = othersOf(b);
      const otherRuns = others.reduce((n, t) => n + t.runs, 0);
      return b.runs >= 3 && share(b) >= 0.7 && otherRuns >= 3 && others.every((t) => share(t) <= 0.1);
    }) ?? null;
  const skewed = specific
    ? null
    : (tallies.find((b) => {
        const others = othersOf(b);
        const worstOther = Math.max(0, ...others.map(share));
        return b.failures >= 3 && share(b) >= 0.2 && others.some((t) => t.runs >= 3) && share(b) >= 3 * worstOther;
      }) ?? null);
  const odd = specific ?? skewed;
  let contrastCommits = 0;
  if (odd) {
    for (const perBrowser of evidence.commits.values()) {
      const oddTally = perBrowser.get(odd.browser);
      const otherPassed = [...perBrowser].some(([browser, t]) => browser !== odd.browser && t.passes > 0);
      if (oddTally && oddTally.failures > 0 && otherPassed) contrastCommits++;
    }
  }
  const failingShares = tallies.filter((t) => t.runs >= 3).map(share);
  const allAlike = failingShares.length >= 2 && Math.min(...failingShares) > 0 && Math.max(...failingShares) <= 2 * Math.min(...failingShares);
  return { specific, skewed, others: odd ? othersOf(odd) : tallies, contrastCommits, allAlike: !odd && allAlike, compared: tallies.length };
}
