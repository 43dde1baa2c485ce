/**
 * The rule-based engine (docs/api.md#ai-analysis): no network, findings specific to the evidence,
 * and a confidence that grows with it. Definitions follow docs/screens.md#flaky: a pass and a fail
 * on the same commit is the strongest flakiness evidence; failing steadily on one browser while
 * passing on the others is browser-specific, not flaky; failing every retry is broken.
 */
import { LOW_CONFIDENCE, NO_BROWSER_PATTERNS, type AiAnalysisResult } from '../../core/api/ai.js';
import type { ErrorCategory } from '../../core/errors/categories.js';
import { day, quoted, seconds, shortCommit } from './error-text.js';
import type { BrowserTally, Evidence } from './evidence.js';
import { causeFixes, causeText } from './cause-text.js';
import { diagnose, type Diagnosis } from './diagnose.js';
import { recommendFixes } from './recommendations.js';
import type { Signals } from './signals.js';

/** What a model answers too. */
export type Findings = Pick<AiAnalysisResult, 'patterns' | 'rootCause' | 'recommendations' | 'browserNotes' | 'confidence'>;
/** The local engine's answer: the findings, the cause class and the claims behind them. */
export type LocalFindings = Findings & Pick<AiAnalysisResult, 'causeClass' | 'evidence' | 'stability' | 'stabilityText'>;

interface Verdict {
  flaky: boolean;
  broken: boolean;
  browserSpecific: boolean;
}

export function analyseLocally(evidence: Evidence, signals: Signals): LocalFindings {
  const verdict = verdictOf(signals);
  const d = diagnose(evidence, signals);
  const other = elsewhere(signals);
  // The analysed browser passes while another fails: the comparison is the finding, judged on the failing browser's figures.
  const confidence = d.failures.length === 0 ? confidenceOf(evidence, signals) : d.confidence;
  return {
    patterns: patternsOf(evidence, signals),
    rootCause: rootCauseOf(evidence, signals, d, confidence),
    recommendations:
      signals.failures > 0 || other
        ? recommendFixes({ signals, primary: d.failures.length > 0 ? causeFixes(d) : [], flaky: verdict.flaky && d.causeClass !== 'project-only', broken: verdict.broken })
        : [],
    browserNotes: browserNotesOf(signals),
    confidence,
    causeClass: d.causeClass,
    stability: verdict.flaky ? 'flaky' : 'steady',
    stabilityText: stabilityTextOf(verdict, signals, evidence),
    evidence: d.evidence,
  };
}

/** The analysed browser passes, but another one fails: the browser comparison is the finding. */
const elsewhere = (s: Signals): BrowserTally | null => (s.failures === 0 ? (s.browsers.specific ?? s.browsers.skewed) : null);

function verdictOf(s: Signals): Verdict {
  const browserSpecific = s.browsers.specific !== null;
  const alwaysFails = s.runs >= 3 && s.failures === s.runs && s.rescuedByRetry === 0;
  const broken = !browserSpecific && (s.start?.kind === 'broken-since' || alwaysFails);
  const flaky = !browserSpecific && !broken && (s.rescuedByRetry > 0 || s.mixedCommits.length > 0 || (s.failures >= 2 && s.runs - s.failures >= 2));
  return { flaky, broken, browserSpecific };
}

/**
 * Flaky or not in plain words, naming what decided it: a retry of the same code that passed, a
 * commit that both passed and failed, passes and failures from run to run; or failing every run,
 * failing only in one browser, or failures that nothing rescued.
 */
function stabilityTextOf(v: Verdict, s: Signals, evidence: Evidence): string {
  const failingRuns = plural(s.failures, 'failing run');
  if (v.flaky) {
    if (s.rescuedByRetry > 0) return `Flaky: failed, then passed on retry of the same code (${s.rescuedByRetry} of ${failingRuns})`;
    if (s.mixedCommits.length > 0) return `Flaky: failed and passed on the same commit (${plural(s.mixedCommits.length, 'commit')})`;
    return `Flaky: passes and fails from run to run (${s.failures} of ${plural(s.runs, 'run')} failed), though no retry passed`;
  }
  if (v.browserSpecific && s.browsers.specific) return `Not flaky: fails steadily on ${s.browsers.specific.browser} only`;
  if (s.runs === 0) return `Not known: no results on ${evidence.browser} to read`;
  if (s.failures === 0) return `Not flaky: no failures on ${evidence.browser} in the runs read`;
  if (v.broken && s.failures === s.runs) return `Fails every time: not flaky (${s.failures} of ${plural(s.runs, 'run')} failed, no retry passed)`;
  if (v.broken) return `Fails every run since${s.start?.at !== null && s.start?.at !== undefined ? ` ${day(s.start.at)}` : ' it broke'}: not flaky, broken`;
  return `Not shown flaky: no retry or run of the same code passed after a failure (${s.failures} of ${plural(s.runs, 'run')} failed)`;
}

/**
 * 0.15 to start; up to +0.25 for the number of runs, +0.15 for repeated failures, ±0.1 for a
 * consistent (or mixed) failure mode, +0.15 for a pass and a fail on one commit (+0.1 for a
 * pass on retry alone), +0.15 for a steady browser difference (+0.2 when seen on the same
 * commits) and for a clear start commit, +0.05 each for a specific locator/URL/step, a code
 * anti-pattern and a cross-browser comparison; -0.1 without stored history. Thin evidence caps
 * it: one failure at 0.3, fewer than five runs at 0.5; never above 0.92.
 */
export function confidenceOf(evidence: Evidence, s: Signals): number {
  const other = elsewhere(s);
  if (other) {
    // Judged on the failing browser's figures: the analysed one only shows that it passes.
    const steady = s.browsers.specific ? (s.browsers.contrastCommits > 0 ? 0.2 : 0.15) : 0.05;
    return round(Math.min(0.85, 0.2 + 0.25 * Math.min(1, other.runs / 20) + 0.15 * Math.min(1, (other.failures - 1) / 4) + steady));
  }
  if (s.runs === 0) return 0.1;
  if (s.failures === 0) return round(Math.min(0.3, 0.1 + 0.1 * Math.min(1, s.runs / 20)));
  let c = 0.15;
  c += 0.25 * Math.min(1, s.runs / 20);
  c += 0.15 * Math.min(1, (s.failures - 1) / 4);
  const dominant = s.categories[0];
  if (s.failures >= 2 && dominant) {
    const share = dominant.count / s.failures;
    c += share >= 0.8 ? 0.1 : share >= 0.5 ? 0.05 : -0.05;
  }
  if (s.mixedCommits.length > 0) c += 0.15;
  else if (s.rescuedByRetry > 0) c += 0.1;
  if (s.browsers.specific) c += s.browsers.contrastCommits > 0 ? 0.2 : 0.15;
  else if (s.browsers.skewed || s.browsers.compared >= 2) c += 0.05;
  if (s.start?.kind === 'broken-since') c += 0.15;
  if (s.locator || s.url || s.failingStep) c += 0.05;
  if (s.antiPatterns.length > 0) c += 0.05;
  // Without stored history there are no commits, retries or other browsers to check against.
  if (!evidence.fromHistory) c -= 0.1;
  if (s.failures <= 1) c = Math.min(c, 0.3);
  if (s.runs < 5) c = Math.min(c, 0.5);
  return round(Math.max(0.05, Math.min(0.92, c)));
}

const round = (n: number): number => Math.round(n * 100) / 100;
const percent = (part: number, whole: number): string => `${whole === 0 ? 0 : Math.round((part / whole) * 100)}%`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const categoryLabel = (c: ErrorCategory): string => (c === 'other' ? 'Other errors (category "other")' : c);
const tallyText = (t: BrowserTally): string => `${t.browser} ${t.failures}/${t.runs} failed`;

function patternsOf(evidence: Evidence, s: Signals): string[] {
  const patterns: string[] = [];
  const b = evidence.browser;
  if (s.runs === 0) {
    const { totalRuns, failedRuns } = evidence.summary;
    patterns.push(`No stored or sent results of this test on ${b} to analyse${totalRuns > 0 ? ` (the dashboard counts ${failedRuns} failures in ${totalRuns} runs)` : ''}`);
    return patterns;
  }
  const source = evidence.fromHistory ? '' : ' (from the results sent; this test has no stored history)';
  patterns.push(`Failed ${s.failures} of ${plural(s.runs, 'run')} on ${b}: pass rate ${percent(s.runs - s.failures, s.runs)}${evidence.skipped > 0 ? `, ${evidence.skipped} skipped` : ''}${source}`);
  if (s.failures === 0) return [...patterns, `No failures on ${b} in these results`, ...browserPatterns(s), ...evidenceNotes(evidence)];
  if (s.failures === 1) patterns.push('Only one failure to go on: too little evidence to tell a one-off from a pattern');

  if (s.rescuedByRetry > 0) {
    patterns.push(`Passed on retry in ${s.rescuedByRetry} of ${plural(s.failures, 'failing run')}: the first attempt failed and a retry passed, the signature of a flaky test`);
  }
  if (s.failedEveryRetry > 0) {
    const all = s.failedEveryRetry === s.retriedFailures;
    patterns.push(`${s.failedEveryRetry} of ${plural(s.retriedFailures, 'retried failure')} failed on every retry${all ? ': retries never rescue it' : ''}`);
  } else if (evidence.fromHistory && s.retriedFailures === 0 && s.failures >= 2) {
    patterns.push('Failures were not retried: enabling retries would tell a flaky failure from a broken one');
  }
  if (s.mixedCommits.length > 0) {
    const examples = s.mixedCommits.slice(0, 3).map(shortCommit).join(', ');
    patterns.push(`Passed and failed on the same commit in separate runs (${plural(s.mixedCommits.length, 'commit')}: ${examples}): no code change explains it, the strongest sign of flakiness`);
  }

  const [dominant, ...rest] = s.categories;
  if (dominant) {
    const others = rest.length > 0 ? `; also ${rest.map((c) => `${categoryLabel(c.value)} (${c.count})`).join(', ')}` : '';
    const consistent = rest.length === 0 && s.failures >= 2 ? ': one consistent failure mode' : '';
    patterns.push(`${categoryLabel(dominant.value)} in ${dominant.count} of ${plural(s.failures, 'failure')}${others}${consistent}`);
  }
  if (s.message) patterns.push(`Typical error: ${quoted(s.message.value)}`);
  if (s.locator) patterns.push(`The failure waits for ${s.locator.value}${s.failedCall ? ` in ${s.failedCall}` : ''} (${s.locator.count} of ${plural(evidence.messages.length, 'message')})${s.actionability ? `; ${s.actionability}` : ''}`);
  else if (s.actionability) patterns.push(`In the call log ${s.actionability}`);
  if (s.url) patterns.push(`Navigation to ${s.url.value} is involved (${plural(s.url.count, 'failure')})`);
  if (s.failingStep) patterns.push(`Fails in step ${quoted(s.failingStep.value)} (${s.failingStep.count} of ${s.failingStep.of} failures with steps)`);
  patterns.push(...timingPatterns(s, dominant?.value));
  patterns.push(...startPatterns(s));

  patterns.push(...browserPatterns(s));
  patterns.push(...s.antiPatterns.map((a) => a.finding));

  return [...patterns, ...evidenceNotes(evidence)];
}

/** What was left out or mixed in, so the reader can weigh the findings. */
function evidenceNotes(evidence: Evidence): string[] {
  const notes: string[] = [];
  if (evidence.outageFailures > 0) notes.push(`${plural(evidence.outageFailures, 'failure')} in runs where most tests failed (an outage) were left out`);
  if (evidence.sharedTitle > 1) notes.push(`${evidence.sharedTitle} stored tests share this title; their results were analysed together`);
  if (evidence.truncated) notes.push('Only the latest stored results were read');
  return notes;
}

function browserPatterns(s: Signals): string[] {
  const { specific, skewed, allAlike } = s.browsers;
  const odd = specific ?? skewed;
  if (odd) {
    const category = odd.topCategory ? `, mostly ${categoryLabel(odd.topCategory as ErrorCategory)}` : '';
    return [`${specific ? 'Fails only' : 'Fails mostly'} on ${odd.browser} (${odd.failures}/${odd.runs}${category}); other browsers: ${s.browsers.others.map(tallyText).join(', ')}`];
  }
  return allAlike ? [`Fails on all ${s.browsers.compared} browsers at a similar rate: the cause is not browser-specific`] : [];
}

function timingPatterns(s: Signals, dominant: ErrorCategory | undefined): string[] {
  const { limitMs, failuresNearLimit, failuresTimed, failMedianMs: fail, passMedianMs: pass } = s.timing;
  const out: string[] = [];
  if (limitMs && failuresNearLimit > 0 && failuresNearLimit * 2 >= failuresTimed) {
    out.push(
      `Failing attempts last about as long as the ${seconds(limitMs)} timeout (median ${seconds(fail!)}${pass !== null ? ` against ${seconds(pass)} when passing` : ''}): the test waits out the limit for something that does not happen`,
    );
  } else if (fail !== null && pass !== null && pass > 0 && fail > 2 * pass) {
    out.push(`Failing runs take ${seconds(fail)} against ${seconds(pass)} for passing ones: they wait on something before failing`);
  } else if (fail !== null && pass !== null && fail < 0.5 * pass) {
    out.push(`Failures are quick (${seconds(fail)} against ${seconds(pass)} when passing): an immediate error, not a wait`);
  }
  if (dominant === 'Test Timeout' && limitMs && pass !== null && pass >= 0.6 * limitMs) {
    out.push(`Even passing runs take ${seconds(pass)}, ${percent(pass, limitMs)} of the ${seconds(limitMs)} limit: the test runs close to its time budget`);
  }
  return out;
}

function startPatterns(s: Signals): string[] {
  const start = s.start;
  if (!start) return [];
  const when = start.at !== null ? ` ${day(start.at)}` : '';
  const where = start.commit ? ` at commit ${shortCommit(start.commit)}${start.branch ? ` on ${start.branch}` : ''}` : '';
  if (start.kind === 'broken-since') {
    const sameCode = start.commit && start.commit === start.previousCommit ? '; that commit had passed before, so no code change started it' : '';
    return [`Failing in every run since${when} (${plural(start.failingRuns, 'run')}), starting${where}; the ${start.passesBefore} runs before passed${sameCode}`];
  }
  return [`First failure${when ? ` on${when}` : ''}${where}, after ${plural(start.passesBefore, 'passing run')}; ${plural(start.failingRuns, 'failure')} since`];
}

/**
 * The cause of the diagnosis in words, after a "Low confidence" lead when the evidence is thin,
 * and followed by what the history adds (since when it fails).
 */
function rootCauseOf(evidence: Evidence, s: Signals, d: Diagnosis, confidence: number): string {
  const other = elsewhere(s);
  if (other && d.failures.length === 0) {
    const category = other.topCategory ? `, mostly ${categoryLabel(other.topCategory as ErrorCategory)}` : '';
    const kind = s.browsers.specific
      ? `Browser-specific, not flaky: it fails steadily on ${other.browser} (${other.failures} of ${other.runs} runs${category}) while the other browsers pass`
      : `It fails more often on ${other.browser} (${other.failures} of ${other.runs} runs${category}) than on the other browsers`;
    return `${lowLead(confidence)}On ${evidence.browser} it passes (${plural(s.runs, 'run')}). ${kind}; analyse it on ${other.browser} for the error details.`;
  }
  if (s.runs === 0) return `Not sure: no results of this test on ${evidence.browser} are available, so there is nothing to analyse yet.`;
  if (s.failures === 0) {
    const outage = evidence.outageFailures > 0 ? ` Its ${plural(evidence.outageFailures, 'failure')} came in outage runs (most tests failed), which are left out.` : '';
    return `No failures on ${evidence.browser} in the available results: nothing to explain yet.${outage}`;
  }
  let text = causeText(d, evidence.browser);
  // A mismatch that the same commit also passed already says what decides it (cause-text.ts).
  if (s.mixedCommits.length > 0 && d.causeClass !== 'not-sure' && d.causeClass !== 'assertion-mismatch') {
    text += ` Flaky: it passed and failed on the same commit (${plural(s.mixedCommits.length, 'commit')}), so timing or shared state decides the outcome, not the code.`;
  } else if (d.rescued > 0 && d.causeClass !== 'locator-late' && d.causeClass !== 'not-sure') {
    text += ` Flaky: ${d.rescued} of ${plural(d.failures.length, 'failing run')} passed on retry.`;
  } else if (d.rescued > 0 && d.causeClass === 'not-sure') {
    // Whatever else is uncertain, a failure a retry rescued is flaky: that much is known.
    text = `Flaky: it failed and then passed on retry in ${d.rescued} of ${plural(d.failures.length, 'failing run')}, so the code alone does not decide the outcome. ${text}`;
  }
  const start = s.start;
  if (d.failures.length > 0 && start?.kind === 'broken-since') {
    text += ` It has failed every run since${start.at !== null ? ` ${day(start.at)}` : ''}${start.commit ? ` (commit ${shortCommit(start.commit)})` : ''}, after ${plural(start.passesBefore, 'passing run')}.`;
  }
  return `${lowLead(confidence)}${text}`;
}

/** Answers below LOW_CONFIDENCE say so first, in words. */
const lowLead = (confidence: number): string => (confidence < LOW_CONFIDENCE ? `Low confidence (${Math.round(confidence * 100)}%), the evidence is thin: ` : '');

function browserNotesOf(s: Signals): string {
  const { specific, skewed, others, contrastCommits } = s.browsers;
  if (specific) {
    const contrast = contrastCommits > 0 ? ` On ${plural(contrastCommits, 'commit')} ${specific.browser} failed where another browser passed the same code.` : '';
    return `Fails only on ${specific.browser}: ${specific.failures} of ${specific.runs} runs failed there, while the others passed (${others.map(tallyText).join(', ')}).${contrast} This is browser-specific, not flaky.`;
  }
  if (skewed) {
    return `Fails more often on ${skewed.browser} (${percent(skewed.failures, skewed.runs)} of ${skewed.runs} runs) than elsewhere (${others.map(tallyText).join(', ')}): look at what ${skewed.browser} does differently.`;
  }
  return NO_BROWSER_PATTERNS;
}
