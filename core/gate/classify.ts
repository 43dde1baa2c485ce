import { quarantineLastDay } from './expiry.js';
import type { BaseResult, Evidence, GateClass, GateFailure, GateTest, QuarantineEntry } from './types.js';

export const QUARANTINE_PATTERN_MAX = 500;

/** Fewer base-branch runs than this in the window and the gate says its history is thin. */
export const MIN_BASE_RUNS = 3;
/** "Broken on base" looks at the base branch's latest runs of the test, this many. */
const LATEST_RUNS = 2;
/** Evidence lines kept per failure: enough to check the claim, not the whole history. */
const EVIDENCE_LIMIT = 6;

/**
 * One class per failed or flaky test of the checked run, from its base-branch history
 * (newest first) and the active quarantine entries. Order of precedence: a quarantine
 * entry covers the test whatever its history; a test whose latest base runs fail too is
 * broken there; one whose base history both failed and passed is flaky; anything else, one
 * that has not failed on the base branch in the window, is new.
 */
export function classifyTest(test: GateTest, history: readonly BaseResult[], quarantine: readonly QuarantineEntry[], now: number): GateFailure {
  const entry = quarantine.find((q) => coversTest(q, test, now));
  const counted = history.filter((r) => !r.outageRun && r.status !== 'skipped');
  const onBase = { runs: counted.length, failed: counted.filter((r) => r.status === 'failed' || r.passedOnRetry).length, passedOnRetry: counted.filter((r) => r.passedOnRetry).length };
  const base = { title: test.title, file: test.file, project: test.project, browser: test.browser, onBase };
  if (entry) {
    return {
      ...base,
      class: 'quarantined',
      reason: `quarantined${entry.owner ? ` (owner ${entry.owner})` : ''}: ${entry.reason}${entry.expiresAt ? `; through ${quarantineLastDay(entry.expiresAt)}` : ''}`,
      evidence: counted.slice(0, EVIDENCE_LIMIT).map(evidence),
      quarantine: {
        id: entry.id,
        reason: entry.reason,
        owner: entry.owner,
        expiresAt: entry.expiresAt ? new Date(entry.expiresAt).toISOString() : null,
        through: entry.expiresAt ? quarantineLastDay(entry.expiresAt) : null,
      },
    };
  }
  const failed = (r: BaseResult) => r.status === 'failed' && !r.passedOnRetry;
  const latest = counted.slice(0, LATEST_RUNS);
  if (latest.length > 0 && latest.every(failed)) {
    return found(base, 'broken-on-base', `fails on the base branch too: ${failingStreak(counted, failed)}`, counted.filter(failed));
  }
  const retried = counted.filter((r) => r.passedOnRetry);
  if (retried.length > 0) {
    return found(base, 'flaky', `flaky on the base branch: passed only on a retry in ${retried.length} of ${counted.length} runs`, retried);
  }
  const sameCommit = failAndPassOnOneCommit(counted);
  if (sameCommit) {
    return found(base, 'flaky', `flaky on the base branch: both failed and passed on commit ${short(sameCommit[0]!.commit!)}`, sameCommit);
  }
  const failures = counted.filter(failed);
  if (failures.length > 0) {
    const last = failures[0]!;
    return found(base, 'flaky', `failed on the base branch ${failures.length} of ${counted.length} runs, last in run ${last.runId} (${day(last.startedAt)}), and passed in between`, [...failures, ...counted.filter((r) => !failed(r))]);
  }
  const reason = counted.length === 0
    ? 'never ran on the base branch in the window: a new test, or a new failure'
    : `a new failure: passed in all ${counted.length} base-branch runs in the window`;
  return found(base, 'new', reason, counted);
}

function found(base: Pick<GateFailure, 'title' | 'file' | 'project' | 'browser' | 'onBase'>, cls: GateClass, reason: string, rows: readonly BaseResult[]): GateFailure {
  const newestFirst = [...rows].sort((a, b) => b.startedAt - a.startedAt);
  return { ...base, class: cls, reason, evidence: newestFirst.slice(0, EVIDENCE_LIMIT).map(evidence) };
}

/**
 * The latest runs that failed in a row, counted whole: "all 5 of its runs in the window failed"
 * when nothing passed in the window (so no start of the failing is known), else how many of the
 * latest failed and the run it started failing in.
 */
function failingStreak(newestFirst: readonly BaseResult[], failed: (r: BaseResult) => boolean): string {
  let streak = 0;
  while (streak < newestFirst.length && failed(newestFirst[streak]!)) streak++;
  const first = newestFirst[streak - 1]!;
  const at = `run ${first.runId} (${day(first.startedAt)}${first.commit ? `, ${short(first.commit)}` : ''})`;
  if (streak === newestFirst.length) {
    return streak === 1 ? `its only run in the window, ${at}, failed` : `all ${streak} of its runs in the window failed, the oldest ${at}: it has not passed there in the window`;
  }
  const passed = newestFirst[streak]!;
  return `its latest ${streak === 1 ? 'run fails' : `${streak} runs fail`}, failing since ${at}; it last passed in run ${passed.runId} (${day(passed.startedAt)})`;
}

function failAndPassOnOneCommit(rows: readonly BaseResult[]): BaseResult[] | null {
  const byCommit = new Map<string, BaseResult[]>();
  for (const r of rows) {
    if (!r.commit) continue;
    byCommit.set(r.commit, [...(byCommit.get(r.commit) ?? []), r]);
  }
  for (const group of byCommit.values()) {
    if (group.some((r) => r.status === 'failed') && group.some((r) => r.status === 'passed')) return group;
  }
  return null;
}

/** An entry applies until it expires; `*` in its title or file matches any run of characters. */
export function coversTest(entry: QuarantineEntry, test: Pick<GateTest, 'title' | 'file' | 'project'>, now: number): boolean {
  if (entry.expiresAt !== null && entry.expiresAt <= now) return false;
  // Project names as people type them: `Chromium` and `chromium` are the same project.
  if (entry.project !== null && entry.project.toLowerCase() !== test.project.toLowerCase()) return false;
  if (entry.file !== null && !wildcardMatch(entry.file, test.file)) return false;
  return wildcardMatch(entry.title, test.title);
}

/**
 * `*` matches any run of characters, everything else itself. The pattern's pieces between
 * stars are found in order, each at its earliest place (the first anchored at the start, the
 * last at the end): one indexOf per piece, no backtracking, and no regex is ever built from
 * user text.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === text;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    if (piece === '') continue;
    const found = text.indexOf(piece, at);
    if (found === -1) return false;
    at = found + piece.length;
  }
  return text.length - last.length >= at && text.endsWith(last);
}

const evidence = (r: BaseResult): Evidence => ({ runId: r.runId, date: new Date(r.startedAt).toISOString(), commit: r.commit, status: r.status, passedOnRetry: r.passedOnRetry });
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const short = (commit: string) => commit.slice(0, 8);
