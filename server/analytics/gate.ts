import { gateAnswer } from '../../core/gate/answer.js';
import type { GateAnswer, GateTest } from '../../core/gate/types.js';
import { gateHistories } from '../store/read/gate-history.js';
import type { AnyStore } from '../store/engine/types.js';
import { activeQuarantine } from '../store/read/quarantine.js';
import { ownersOfTitle } from '../store/read/owners.js';

export const GATE_DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

export interface GateRequest {
  tests: GateTest[];
  counts: { tests: number; failed: number; flaky: number; skipped: number };
  /** Base branch; null tries `main`, then `master`. */
  base: string | null;
  days: number;
  now: number;
}

/**
 * The CI gate over a store: the failing tests' base-branch histories and the quarantine in
 * force, judged by core's rules. The same function answers `flakeboard check --db` and
 * POST /api/check (in the analytics worker), so a local and a remote check cannot disagree.
 */
export async function runGate(store: AnyStore, request: GateRequest): Promise<GateAnswer> {
  const since = request.now - request.days * DAY_MS;
  const candidates = request.base ? [request.base] : ['main', 'master'];
  let base = candidates[0]!;
  let found = await gateHistories(store, { tests: request.tests, base, since });
  for (const other of candidates.slice(1)) {
    if (found.baseRuns > 0) break;
    const next = await gateHistories(store, { tests: request.tests, base: other, since });
    if (next.baseRuns > 0) [base, found] = [other, next];
  }
  const answer = gateAnswer({
    tests: request.tests,
    counts: request.counts,
    histories: found.histories,
    quarantine: await activeQuarantine(store, request.now),
    base,
    windowDays: request.days,
    baseRuns: found.baseRuns,
    now: request.now,
  });
  // The pull-request comment and the job summary name who should look at each failure.
  const ownersOf = new Map<string, Promise<string[]>>();
  for (const failure of answer.failures.slice(0, OWNED_FAILURES)) {
    const key = `${failure.file}\u0000${failure.title}`;
    if (!ownersOf.has(key)) ownersOf.set(key, ownersOfTitle(store, failure.title, failure.file));
    failure.owners = await ownersOf.get(key)!;
  }
  return answer;
}

/** Failures whose owners are looked up, one indexed query each: a comment shows fewer. */
const OWNED_FAILURES = 500;
