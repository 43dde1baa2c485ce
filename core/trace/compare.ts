import { isFailed, type TraceAction, type TraceConsoleError, type TraceRequest, type TraceSummary } from './summary.js';

/** One action of each attempt matched by what it called on what; null where one attempt did not do it. */
export interface AlignedAction {
  failing: TraceAction | null;
  passing: TraceAction | null;
}

/** Where the failing attempt stopped doing what the passing one did. */
export interface PartingPoint {
  /** Index into `aligned`. */
  index: number;
  failing: TraceAction | null;
  passing: TraceAction | null;
  /** `outcome`: both did it and it ended differently; `only-failing`/`only-passing`: one attempt did not do it. */
  reason: 'outcome' | 'only-failing' | 'only-passing';
}

export interface SlowerAction {
  title: string;
  locator: string | null;
  failingMs: number;
  passingMs: number;
}

export interface DifferentRequest {
  method: string;
  url: string;
  /** `failed`: failed only in the failing attempt; `status`: answered with another status; `slower`: much slower. */
  reason: 'failed' | 'status' | 'slower';
  failing: { status: number | null; failure: string | null; durationMs: number | null };
  /** The same request in the passing attempt, when it made it. */
  passing: { status: number | null; failure: string | null; durationMs: number | null } | null;
}

export interface AttemptComparison {
  aligned: AlignedAction[];
  /** Actions of the two attempts left out of the alignment over its cap. */
  alignedOmitted: number;
  partedAt: PartingPoint | null;
  /** Actions both attempts did whose durations differ most, largest difference first. */
  slowerActions: SlowerAction[];
  requestsOnlyFailing: DifferentRequest[];
  consoleErrorsOnlyFailing: TraceConsoleError[];
  pageErrorsOnlyFailing: string[];
}

/** Actions aligned per attempt: the table is (cap+1)² cells, small enough for a request. */
export const ALIGN_CAP = 200;
const SLOWER_SHOWN = 5;
/** A request is "much slower" at twice the time and half a second more. */
const SLOWER_FACTOR = 2;
const SLOWER_MIN_MS = 500;

/** Lays a failing attempt's trace beside a passing attempt's: where they parted and what only the failing one had. */
export function compareAttempts(failing: TraceSummary, passing: TraceSummary): AttemptComparison {
  const a = failing.actions.slice(0, ALIGN_CAP);
  const b = passing.actions.slice(0, ALIGN_CAP);
  const aligned = align(a, b);
  const partedIndex = aligned.findIndex(parted);
  const pair = aligned[partedIndex];
  return {
    aligned,
    alignedOmitted: failing.actions.length - a.length + (passing.actions.length - b.length),
    partedAt: pair ? { index: partedIndex, failing: pair.failing, passing: pair.passing, reason: !pair.passing ? 'only-failing' : !pair.failing ? 'only-passing' : 'outcome' } : null,
    slowerActions: slowerActions(aligned),
    requestsOnlyFailing: differentRequests(failing.requests, passing.requests),
    consoleErrorsOnlyFailing: onlyIn(failing.consoleErrors, passing.consoleErrors, (m) => m.text),
    pageErrorsOnlyFailing: onlyIn(failing.pageErrors, passing.pageErrors, (m) => m),
  };
}

const key = (action: TraceAction) => `${action.title}\u0000${action.locator ?? ''}`;

/** The longest common sequence of (call, locator), then the rest of each side where it falls. */
function align(a: TraceAction[], b: TraceAction[]): AlignedAction[] {
  const ka = a.map(key);
  const kb = b.map(key);
  const width = b.length + 1;
  // lcs[i*width+j]: the longest common sequence of a[i..] and b[j..].
  const lcs = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = ka[i] === kb[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const pairs: AlignedAction[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && ka[i] === kb[j]) pairs.push({ failing: a[i++]!, passing: b[j++]! });
    else if (j >= b.length || (i < a.length && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) pairs.push({ failing: a[i++]!, passing: null });
    else pairs.push({ failing: null, passing: b[j++]! });
  }
  return pairs;
}

function parted({ failing, passing }: AlignedAction): boolean {
  if (!failing || !passing) return true;
  return failing.error !== passing.error;
}

function slowerActions(aligned: AlignedAction[]): SlowerAction[] {
  const found: SlowerAction[] = [];
  for (const { failing, passing } of aligned) {
    if (!failing || !passing || failing.durationMs === null || passing.durationMs === null || failing.durationMs === passing.durationMs) continue;
    found.push({ title: failing.title, locator: failing.locator, failingMs: failing.durationMs, passingMs: passing.durationMs });
  }
  return found.sort((x, y) => Math.abs(y.failingMs - y.passingMs) - Math.abs(x.failingMs - x.passingMs)).slice(0, SLOWER_SHOWN);
}

function differentRequests(failing: TraceRequest[], passing: TraceRequest[]): DifferentRequest[] {
  const partners = new Map<string, TraceRequest[]>();
  const requestKey = (r: TraceRequest) => `${r.method} ${r.url}`;
  for (const request of passing) {
    const list = partners.get(requestKey(request)) ?? [];
    list.push(request);
    partners.set(requestKey(request), list);
  }
  const found: DifferentRequest[] = [];
  const view = (r: TraceRequest) => ({ status: r.status, failure: r.failure, durationMs: r.durationMs });
  for (const request of failing) {
    // The same request in the same order: the n-th call of a URL against the n-th.
    const partner = partners.get(requestKey(request))?.shift() ?? null;
    let reason: DifferentRequest['reason'] | null = null;
    if (isFailed(request) && (!partner || !isFailed(partner))) reason = 'failed';
    else if (partner && (partner.status !== request.status || partner.failure !== request.failure)) reason = 'status';
    else if (partner && request.durationMs !== null && partner.durationMs !== null && request.durationMs >= partner.durationMs * SLOWER_FACTOR && request.durationMs - partner.durationMs >= SLOWER_MIN_MS) reason = 'slower';
    if (reason) found.push({ method: request.method, url: request.url, reason, failing: view(request), passing: partner && view(partner) });
  }
  return found;
}

/** What `failing` has more times than `passing` does, in its order (a message seen in both is no clue). */
function onlyIn<T>(failing: T[], passing: T[], keyOf: (item: T) => string): T[] {
  const seen = new Map<string, number>();
  for (const item of passing) seen.set(keyOf(item), (seen.get(keyOf(item)) ?? 0) + 1);
  const found: T[] = [];
  for (const item of failing) {
    const left = seen.get(keyOf(item)) ?? 0;
    if (left > 0) seen.set(keyOf(item), left - 1);
    else found.push(item);
  }
  return found;
}
